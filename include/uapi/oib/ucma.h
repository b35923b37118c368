/* SPDX-License-Identifier: ((GPL-2.0-only WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * oib_ucma: the RDMA CM from user space, on /dev/oib_rdma_cm (Documentation/ucma.md).
 *
 * An open file is an event channel: the ids made through it are its own, named by handles (u32,
 * never 0) private to the file, and die with it.  Every command is ioctl(fd, OIB_UCMA_*, &cmd)
 * with the command's struct; the struct's size is part of the ioctl number, so a caller of
 * another size gets -ENOTTY.  Every reserved field must be zero (-EINVAL).  Addresses are
 * struct sockaddr_in or sockaddr_in6 in a struct __kernel_sockaddr_storage (AF_IB:
 * -EAFNOSUPPORT).  Events are read with OIB_UCMA_GET_EVENT (blocking unless the file is
 * O_NONBLOCK: -EAGAIN); poll() says POLLIN while one waits.
 */
#ifndef _UAPI_OIB_UCMA_H
#define _UAPI_OIB_UCMA_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include <linux/socket.h>

#define OIB_UCMA_ABI_VERSION	1
#define OIB_UCMA_IOC_TYPE	0xb8
#define OIB_UCMA_MAX_PRIVATE_DATA	256

/* Port spaces (the rdma_cm's numbers) and QP types (libibverbs's numbers). */
#define OIB_UCMA_PS_TCP		0x0106
#define OIB_UCMA_PS_UDP		0x0111
#define OIB_UCMA_QPT_RC		2
#define OIB_UCMA_QPT_UC		3
#define OIB_UCMA_QPT_UD		4

/* Events: oib_cma's (include/oib/rdma_cm.h), in its order. */
enum oib_ucma_event_type {
	OIB_UCMA_EVENT_ADDR_RESOLVED,
	OIB_UCMA_EVENT_ADDR_ERROR,
	OIB_UCMA_EVENT_ROUTE_RESOLVED,
	OIB_UCMA_EVENT_ROUTE_ERROR,
	OIB_UCMA_EVENT_CONNECT_REQUEST,
	OIB_UCMA_EVENT_CONNECT_RESPONSE,
	OIB_UCMA_EVENT_CONNECT_ERROR,
	OIB_UCMA_EVENT_UNREACHABLE,
	OIB_UCMA_EVENT_REJECTED,
	OIB_UCMA_EVENT_ESTABLISHED,
	OIB_UCMA_EVENT_DISCONNECTED,
	OIB_UCMA_EVENT_DEVICE_REMOVAL,
	OIB_UCMA_EVENT_TIMEWAIT_EXIT,
	OIB_UCMA_EVENT_ADDR_CHANGE,
};

struct oib_ucma_create_id {
	__u64 uid;		/* in: the caller's, reported with the id's events */
	__u16 ps;		/* in: OIB_UCMA_PS_* */
	__u8 qp_type;		/* in: OIB_UCMA_QPT_* (TCP: RC or UC; UDP: UD) */
	__u8 reserved;
	__u32 id;		/* out */
};

/* DESTROY_ID: events_reported is how many of the id's events GET_EVENT gave out. */
struct oib_ucma_destroy_id {
	__u32 id;
	__u32 events_reported;	/* out */
};

struct oib_ucma_bind {
	__u32 id;
	__u32 reserved;
	struct __kernel_sockaddr_storage addr;
};

/* src.ss_family 0: no source. */
struct oib_ucma_resolve_addr {
	__u32 id;
	__u32 timeout_ms;	/* 1..OIB_UCMA_MAX_TIMEOUT_MS */
	struct __kernel_sockaddr_storage src;
	struct __kernel_sockaddr_storage dst;
};

#define OIB_UCMA_MAX_TIMEOUT_MS	600000

struct oib_ucma_resolve_route {
	__u32 id;
	__u32 timeout_ms;
};

/* What an id is on: ibdev "" until it has a device. */
struct oib_ucma_query {
	__u32 id;
	__u32 port_num;		/* out */
	__u64 node_guid;	/* out: network order */
	char ibdev[64];		/* out */
	struct __kernel_sockaddr_storage src;	/* out */
	struct __kernel_sockaddr_storage dst;	/* out */
	__u8 sgid[16];		/* out: the route's, zero before it */
	__u8 dgid[16];
	__u16 pkey;
	__u8 mtu;		/* the route's MTU, enum ibv_mtu's numbers */
	__u8 hop_limit;
	__u32 flow_label;
	__u8 traffic_class;
	__u8 num_paths;		/* 1 once the route is known */
	__u16 reserved;
};

struct oib_ucma_listen {
	__u32 id;
	__s32 backlog;		/* <= 0: the default */
};

struct oib_ucma_conn_param {
	__u8 private_data[OIB_UCMA_MAX_PRIVATE_DATA];
	__u8 private_data_len;
	__u8 responder_resources;
	__u8 initiator_depth;
	__u8 retry_count;
	__u8 rnr_retry_count;
	__u8 srq;
	__u16 reserved;
};

struct oib_ucma_connect {
	__u32 id;
	__u32 reserved;
	struct oib_ucma_conn_param param;
};

/* ACCEPT: uid is the id's new user context (a new connection starts with its listener's). */
struct oib_ucma_accept {
	__u32 id;
	__u32 reserved;
	__u64 uid;
	struct oib_ucma_conn_param param;
};

struct oib_ucma_reject {
	__u32 id;
	__u8 private_data_len;
	__u8 reserved[3];
	__u8 private_data[OIB_UCMA_MAX_PRIVATE_DATA];
};

/* DISCONNECT, DETACH_QP: the id alone. */
struct oib_ucma_id {
	__u32 id;
	__u32 reserved;
};

/* NOTIFY: OIB_UCMA_NOTIFY_COMM_EST only (libibverbs's IBV_EVENT_COMM_EST). */
#define OIB_UCMA_NOTIFY_COMM_EST	4
struct oib_ucma_notify {
	__u32 id;
	__u32 event;
};

/* SET_OPTION: none is offered yet (-ENOPROTOOPT). */
struct oib_ucma_set_option {
	__u32 id;
	__u32 level;
	__u32 optname;
	__u32 optlen;
	__u64 optval;		/* a pointer */
};

/*
 * ATTACH_QP: the QP @qp_handle of the context open as @uverbs_fd (/dev/oib_uverbs<N>, in this
 * process), in RESET, on the id's device, becomes the id's: the CM moves it with the connection.
 * It stays the context's (its DESTROY_QP, or the context's close, takes it from the id first).
 */
struct oib_ucma_attach_qp {
	__u32 id;
	__s32 uverbs_fd;
	__u32 qp_handle;
	__u32 reserved;
};

struct oib_ucma_event {
	__u64 uid;		/* the id's (CONNECT_REQUEST: the listener's) */
	__u32 id;		/* the id's handle (CONNECT_REQUEST: the listener's) */
	__u32 event;		/* enum oib_ucma_event_type */
	__s32 status;		/* -errno; REJECTED: the reason */
	__u32 conn_id;		/* CONNECT_REQUEST: the new id, this file's */
	struct oib_ucma_conn_param param;	/* CONNECT_REQUEST, ESTABLISHED, REJECTED, ... */
	/* UDP: the peer's QP, Q_Key and how to reach it */
	__u32 qp_num;
	__u32 qkey;
	__u8 dgid[16];
	__u32 flow_label;
	__u16 dlid;
	__u8 hop_limit;
	__u8 traffic_class;
	__u8 sl;
	__u8 sgid_index;
	__u8 port_num;
	__u8 reserved;
};

#define OIB_UCMA_CREATE_ID	_IOWR(OIB_UCMA_IOC_TYPE, 0, struct oib_ucma_create_id)
#define OIB_UCMA_DESTROY_ID	_IOWR(OIB_UCMA_IOC_TYPE, 1, struct oib_ucma_destroy_id)
#define OIB_UCMA_BIND		_IOW(OIB_UCMA_IOC_TYPE, 2, struct oib_ucma_bind)
#define OIB_UCMA_RESOLVE_ADDR	_IOW(OIB_UCMA_IOC_TYPE, 3, struct oib_ucma_resolve_addr)
#define OIB_UCMA_RESOLVE_ROUTE	_IOW(OIB_UCMA_IOC_TYPE, 4, struct oib_ucma_resolve_route)
#define OIB_UCMA_QUERY		_IOWR(OIB_UCMA_IOC_TYPE, 5, struct oib_ucma_query)
#define OIB_UCMA_LISTEN		_IOW(OIB_UCMA_IOC_TYPE, 6, struct oib_ucma_listen)
#define OIB_UCMA_CONNECT	_IOW(OIB_UCMA_IOC_TYPE, 7, struct oib_ucma_connect)
#define OIB_UCMA_ACCEPT		_IOW(OIB_UCMA_IOC_TYPE, 8, struct oib_ucma_accept)
#define OIB_UCMA_REJECT		_IOW(OIB_UCMA_IOC_TYPE, 9, struct oib_ucma_reject)
#define OIB_UCMA_DISCONNECT	_IOW(OIB_UCMA_IOC_TYPE, 10, struct oib_ucma_id)
#define OIB_UCMA_NOTIFY		_IOW(OIB_UCMA_IOC_TYPE, 11, struct oib_ucma_notify)
#define OIB_UCMA_SET_OPTION	_IOW(OIB_UCMA_IOC_TYPE, 12, struct oib_ucma_set_option)
#define OIB_UCMA_ATTACH_QP	_IOW(OIB_UCMA_IOC_TYPE, 13, struct oib_ucma_attach_qp)
#define OIB_UCMA_DETACH_QP	_IOW(OIB_UCMA_IOC_TYPE, 14, struct oib_ucma_id)
#define OIB_UCMA_GET_EVENT	_IOR(OIB_UCMA_IOC_TYPE, 15, struct oib_ucma_event)

#endif /* _UAPI_OIB_UCMA_H */
