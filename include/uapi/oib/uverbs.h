/* SPDX-License-Identifier: ((GPL-2.0-only WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * oib_uverbs: the user ABI of the oib verbs, on /dev/oib_uverbs<N> (one per oib device).
 *
 * Every command is ioctl(fd, OIB_UVERBS_IOC(nr), &cmd) where cmd starts with struct
 * oib_uverbs_hdr.  hdr.size is the size of the struct as the caller knows it: the kernel
 * accepts any size from the command's first version on (smaller: -EINVAL) up to a page
 * (larger: -E2BIG), reads what it knows, requires every byte it does not know to be zero
 * (-E2BIG otherwise) and zero-fills fields an older caller does not send.  hdr.flags and every
 * reserved field must be zero (-EINVAL).  On success the kernel writes back min(hdr.size, its
 * own size) bytes, with hdr.size set to that.  Fields are only ever added at the end of a
 * struct.
 *
 * Objects are named by handles (u32, never 0) private to the open file; each carries a
 * user_handle (u64) the caller chooses, which events report back.
 */
#ifndef _UAPI_OIB_UVERBS_H
#define _UAPI_OIB_UVERBS_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define OIB_UVERBS_ABI_VERSION	1
#define OIB_UVERBS_IOC_TYPE	0xb7
#define OIB_UVERBS_IOC(nr)	_IO(OIB_UVERBS_IOC_TYPE, (nr))

enum oib_uverbs_cmd_nr {
	OIB_UVERBS_QUERY_DEVICE,
	OIB_UVERBS_QUERY_PORT,
	OIB_UVERBS_QUERY_GID,
	OIB_UVERBS_GET_ASYNC_FD,
	OIB_UVERBS_CREATE_COMP_CHANNEL,
	OIB_UVERBS_ALLOC_PD,
	OIB_UVERBS_DEALLOC_PD,
	OIB_UVERBS_CREATE_CQ,
	OIB_UVERBS_DESTROY_CQ,
	OIB_UVERBS_REQ_NOTIFY_CQ,
	OIB_UVERBS_POLL_CQ,
	OIB_UVERBS_REG_MR,
	OIB_UVERBS_DEREG_MR,
	OIB_UVERBS_CREATE_QP,
	OIB_UVERBS_MODIFY_QP,
	OIB_UVERBS_DESTROY_QP,
	OIB_UVERBS_POST_SEND,
	OIB_UVERBS_POST_RECV,
	OIB_UVERBS_CREATE_AH,
	OIB_UVERBS_DESTROY_AH,
	OIB_UVERBS_CREATE_SRQ,
	OIB_UVERBS_MODIFY_SRQ,
	OIB_UVERBS_QUERY_SRQ,
	OIB_UVERBS_DESTROY_SRQ,
	OIB_UVERBS_POST_SRQ_RECV,
	OIB_UVERBS_DOORBELL,
	OIB_UVERBS_QUERY_QP,
	OIB_UVERBS_OPEN_XRCD,
	OIB_UVERBS_CLOSE_XRCD,
	OIB_UVERBS_CREATE_XRC_RCV_QP,
	OIB_UVERBS_REG_XRC_RCV_QP,
	OIB_UVERBS_UNREG_XRC_RCV_QP,
	OIB_UVERBS_CMD_MAX,
};

struct oib_uverbs_hdr {
	__u32 size;
	__u32 flags;		/* none defined: 0 */
};

struct oib_uverbs_query_device {
	struct oib_uverbs_hdr hdr;
	/* out */
	__u32 abi_version;
	__u32 node_type;
	__aligned_u64 node_guid;	/* network byte order */
	__aligned_u64 sys_image_guid;	/* network byte order */
	__aligned_u64 fw_ver;
	__aligned_u64 max_mr_size;
	__aligned_u64 page_size_cap;
	__aligned_u64 device_cap_flags;
	__u32 vendor_id;
	__u32 vendor_part_id;
	__u32 hw_ver;
	__u32 phys_port_cnt;
	__u32 max_qp;
	__u32 max_qp_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_cq;
	__u32 max_cqe;
	__u32 max_mr;
	__u32 max_pd;
	__u32 max_qp_rd_atom;
	__u32 max_qp_init_rd_atom;
	__u32 max_srq;
	__u32 max_srq_wr;
	__u32 max_srq_sge;
	__u32 max_ah;
	__u32 max_inline_data;
	__u32 num_comp_vectors;
	__u16 max_pkeys;
	__u8 local_ca_ack_delay;
	__u8 atomic_cap;
	__u32 reserved;
};

struct oib_uverbs_query_port {
	struct oib_uverbs_hdr hdr;
	__u32 port_num;		/* in */
	/* out */
	__u32 state;
	__u32 phys_state;
	__u32 max_mtu;
	__u32 active_mtu;
	__u32 gid_tbl_len;
	__u32 port_cap_flags;
	__u32 max_msg_sz;
	__u32 bad_pkey_cntr;
	__u32 qkey_viol_cntr;
	__u16 pkey_tbl_len;
	__u16 lid;
	__u16 sm_lid;
	__u8 lmc;
	__u8 sm_sl;
	__u8 max_vl_num;
	__u8 active_width;
	__u16 active_speed;
	__u8 link_layer;
	__u8 reserved[7];
};

struct oib_uverbs_query_gid {
	struct oib_uverbs_hdr hdr;
	__u32 port_num;		/* in */
	__u32 index;		/* in */
	__u8 gid[16];		/* out */
	__u32 gid_type;		/* out: 0 IB, 1 RoCE v2 */
	__u32 reserved;
};

/* GET_ASYNC_FD and CREATE_COMP_CHANNEL: a new file descriptor (close-on-exec). */
struct oib_uverbs_new_fd {
	struct oib_uverbs_hdr hdr;
	__s32 fd;		/* out */
	__u32 reserved;
};

/* What read() returns from a completion channel or the async event file, whole events only. */
struct oib_uverbs_event {
	__aligned_u64 user_handle;	/* the object's; the port number for port events */
	__u32 handle;			/* the object's handle; 0 for port and device events */
	__u32 type;			/* OIB_UVERBS_EVENT_COMP or an async event type */
	__u32 cpu;			/* completion events: the CPU the event was raised on */
	__u32 reserved;
};

#define OIB_UVERBS_EVENT_COMP	0xffffffffu

/* Unread events an event file holds at most; newer ones are dropped until it is read. */
#define OIB_UVERBS_EVENTS_MAX	16384

/* ALLOC_PD, and the common shape of every create: user_handle in, handle out. */
struct oib_uverbs_alloc_pd {
	struct oib_uverbs_hdr hdr;
	__aligned_u64 user_handle;	/* in */
	__u32 handle;			/* out */
	__u32 reserved;
};

/* DEALLOC_PD, DEREG_MR. */
struct oib_uverbs_destroy {
	struct oib_uverbs_hdr hdr;
	__u32 handle;		/* in */
	__u32 reserved;
};

/*
 * Mapped rings (OIB_UVERBS_CREATE_MAPPED in a create's ring_flags): the kernel allocates the
 * ring and answers where it is; the process maps it with mmap(NULL, ring.size, PROT_READ |
 * PROT_WRITE, MAP_SHARED, fd, ring.offset) on the context's file.  A ring is a struct
 * oib_uverbs_ring_hdr followed by ring.entries (a power of two) entries of ring.stride bytes;
 * indices are free-running u32s, entry i is at (i & (entries - 1)).  The producer writes
 * entries, then the producer index (a release store); the consumer reads the producer index
 * (an acquire load), the entries, then stores its consumer index.  The kernel never trusts an
 * index or an entry it reads from a ring: it reads each index once, checks it against its own
 * copy of the other index, and copies an entry into its own memory before checking it.  A
 * mapping lives until munmap(), after the object is gone too, and holds the file open; a child
 * made by fork() shares it unless it is marked MADV_DONTFORK.
 */
#define OIB_UVERBS_CREATE_MAPPED	(1u << 0)

struct oib_uverbs_ring {
	__aligned_u64 offset;	/* out: mmap() offset on the context's file */
	__u32 size;		/* out: bytes to map */
	__u32 entries;		/* out: a power of two */
	__u32 stride;		/* out: bytes per entry */
	__u32 reserved;
};

/* The first bytes of a ring; each index alone in its cache line. */
struct oib_uverbs_ring_hdr {
	__u32 producer;
	__u32 reserved0[15];
	__u32 consumer;
	__u32 reserved1[15];
	__u32 flags;		/* written by the kernel: OIB_UVERBS_RING_* */
	__u32 reserved2[15];
	__u32 reserved3[16];
};

/*
 * A mapped CQ: the kernel produces struct oib_uverbs_wc entries, the process consumes them
 * (POLL_CQ is -EINVAL on it); REQ_NOTIFY_CQ and channels work as without a ring.  A full ring,
 * or a consumer index more than ring.entries behind the producer's, loses the completion: the
 * kernel sets OIB_UVERBS_RING_OVERFLOW and raises CQ_ERR once, as a full CQ does.
 */
#define OIB_UVERBS_RING_OVERFLOW	(1u << 0)
/* A receive ring's entry or producer index was bad: the kernel reads that ring no more. */
#define OIB_UVERBS_RING_ERROR		(1u << 1)
/*
 * A QP's receive ring: the QP is in ERR and its ring was flushed; entries written from now on
 * wait for the next flush, which MODIFY_QP to ERR (again) makes (POST_RECV flushes at once).
 * The process publishes its producer index, then a full barrier, then reads this flag.
 */
#define OIB_UVERBS_RING_FLUSH		(1u << 2)

struct oib_uverbs_create_cq {
	struct oib_uverbs_hdr hdr;
	__aligned_u64 user_handle;	/* in */
	__u32 cqe;			/* in: minimum entries; out: actual */
	__u32 comp_vector;		/* in: < num_comp_vectors */
	__s32 channel_fd;		/* in: a completion channel of this context, or -1 */
	__u32 handle;			/* out */
	/* v2 */
	__u32 ring_flags;		/* in: 0 or OIB_UVERBS_CREATE_MAPPED */
	__u32 reserved;
	struct oib_uverbs_ring ring;	/* out: with OIB_UVERBS_CREATE_MAPPED */
};

/*
 * DESTROY_CQ and DESTROY_QP: how many of the object's events user space has read.  Unread ones
 * are dropped; the caller waits until it has acknowledged as many as were read.
 */
struct oib_uverbs_destroy_reported {
	struct oib_uverbs_hdr hdr;
	__u32 handle;			/* in */
	__u32 comp_events_reported;	/* out (CQ) */
	__u32 async_events_reported;	/* out */
	__u32 reserved;
};

#define OIB_UVERBS_NOTIFY_SOLICITED	(1u << 0)

struct oib_uverbs_req_notify_cq {
	struct oib_uverbs_hdr hdr;
	__u32 handle;		/* in */
	__u32 notify;		/* in: 0 next completion, OIB_UVERBS_NOTIFY_SOLICITED */
};

struct oib_uverbs_wc {
	__aligned_u64 wr_id;
	__u32 status;
	__u32 opcode;
	__u32 vendor_err;
	__u32 byte_len;
	__u32 qp_num;
	__u32 src_qp;
	__u32 imm_data;		/* network byte order, as sent */
	__u32 wc_flags;
	__u16 pkey_index;
	__u16 slid;
	__u8 sl;
	__u8 port_num;
	__u8 reserved[2];
};

#define OIB_UVERBS_POLL_MAX	64	/* entries per POLL_CQ */

struct oib_uverbs_poll_cq {
	struct oib_uverbs_hdr hdr;
	__u32 handle;		/* in */
	__u32 count;		/* in: room in wcs, <= OIB_UVERBS_POLL_MAX; out: entries written */
	__aligned_u64 wcs;	/* in: user pointer to struct oib_uverbs_wc[count] */
};

/*
 * Access flags of an MR or a QP (the kernel's OIB_ACCESS_* values).  Remote write and atomics
 * need local write; atomics need a device with atomic_cap.
 */
#define OIB_UVERBS_ACCESS_LOCAL_WRITE	(1u << 0)
#define OIB_UVERBS_ACCESS_REMOTE_WRITE	(1u << 1)
#define OIB_UVERBS_ACCESS_REMOTE_READ	(1u << 2)
#define OIB_UVERBS_ACCESS_REMOTE_ATOMIC	(1u << 3)
#define OIB_UVERBS_ACCESS_ALL		((1u << 4) - 1)

struct oib_uverbs_reg_mr {
	struct oib_uverbs_hdr hdr;
	__aligned_u64 user_handle;	/* in */
	__aligned_u64 addr;		/* in: start of the user memory */
	__aligned_u64 length;		/* in */
	__u32 pd_handle;		/* in */
	__u32 access;			/* in */
	__u32 handle;			/* out */
	__u32 lkey;			/* out */
	__u32 rkey;			/* out: 0 unless a remote access flag was given */
	__u32 reserved;
};

enum oib_uverbs_qp_type {	/* the values of the kernel's enum oib_qp_type */
	OIB_UVERBS_QPT_SMI = 0,	/* QP0: needs CAP_NET_RAW and port_num */
	OIB_UVERBS_QPT_GSI = 1,	/* QP1: needs CAP_NET_RAW and port_num */
	OIB_UVERBS_QPT_RC = 2,
	OIB_UVERBS_QPT_UC = 3,
	OIB_UVERBS_QPT_UD = 4,
	OIB_UVERBS_QPT_XRC_INI = 5,	/* send side: PD, send CQ; no receive CQ, SRQ, caps */
	OIB_UVERBS_QPT_XRC_TGT = 6,	/* an owner's XRC target: xrcd_handle only */
};

struct oib_uverbs_qp_cap {
	__u32 max_send_wr;
	__u32 max_recv_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_inline_data;
	__u32 reserved;
};

struct oib_uverbs_create_qp {
	struct oib_uverbs_hdr hdr;
	__aligned_u64 user_handle;	/* in */
	__u32 pd_handle;		/* in */
	__u32 send_cq_handle;		/* in */
	__u32 recv_cq_handle;		/* in */
	__u32 qp_type;			/* in: enum oib_uverbs_qp_type */
	__u32 sq_sig_all;		/* in: 1 every send completes, 0 only signalled ones */
	__u32 handle;			/* out */
	__u32 qp_num;			/* out */
	__u32 port_num;			/* in: SMI and GSI only, 0 otherwise */
	struct oib_uverbs_qp_cap cap;	/* in: requested; out: granted */
	__u32 srq_handle;		/* in: receives from this SRQ (max_recv_wr 0), or 0 */
	__u32 reserved;
	/* v3 */
	__u32 ring_flags;		/* in: OIB_UVERBS_CREATE_MAPPED (a send ring), _MAPPED_RQ */
	__u32 reserved2;
	struct oib_uverbs_ring sq;	/* out: with OIB_UVERBS_CREATE_MAPPED */
	/* v4 */
	struct oib_uverbs_ring rq;	/* out: with OIB_UVERBS_CREATE_MAPPED_RQ */
	/* v5 */
	__u32 xrcd_handle;		/* in: XRC_TGT only, an open domain of this context */
	__u32 reserved3;
};

/*
 * In CREATE_QP's ring_flags: a receive ring (not with an SRQ; -EOPNOTSUPP if the device cannot
 * pull receives: post them with POST_RECV).
 */
#define OIB_UVERBS_CREATE_MAPPED_RQ	(1u << 1)

struct oib_uverbs_ah_attr {
	__u8 dgid[16];
	__u32 flow_label;
	__u16 dlid;
	__u8 sgid_index;
	__u8 hop_limit;
	__u8 traffic_class;
	__u8 sl;
	__u8 is_global;
	__u8 port_num;
	__u8 reserved[4];
};

/*
 * Shared receive queues.  CREATE_SRQ: max_wr and max_sge requested, granted on return; srq_limit
 * arms the limit event (the kernel's OIB_EVENT_SRQ_LIMIT_REACHED on the async event file, once) or
 * is 0.  MODIFY_SRQ: attr_mask OIB_UVERBS_SRQ_LIMIT (re-arm) and/or OIB_UVERBS_SRQ_MAX_WR
 * (resize, if the device can).  QUERY_SRQ answers all three.  DESTROY_SRQ takes struct
 * oib_uverbs_destroy_reported; -EBUSY while QPs use it.  POST_SRQ_RECV takes struct
 * oib_uverbs_post with the SRQ's handle and receive requests.
 */
struct oib_uverbs_srq_attr {
	__u32 max_wr;
	__u32 max_sge;
	__u32 srq_limit;
	__u32 reserved;
};

struct oib_uverbs_create_srq {
	struct oib_uverbs_hdr hdr;
	__aligned_u64 user_handle;		/* in */
	__u32 pd_handle;			/* in */
	__u32 handle;				/* out */
	struct oib_uverbs_srq_attr attr;	/* in, out */
	/* v2 */
	__u32 ring_flags;		/* in: 0 or OIB_UVERBS_CREATE_MAPPED (a receive ring) */
	__u32 reserved;
	struct oib_uverbs_ring ring;	/* out: with OIB_UVERBS_CREATE_MAPPED */
	/* v3 */
	__u32 srq_type;			/* in: enum oib_uverbs_srq_type */
	__u32 xrcd_handle;		/* in: XRC only, an open domain of this context */
	__u32 cq_handle;		/* in: XRC only, where its receives complete */
	__u32 srq_num;			/* out: XRC only, what initiators name it by */
};

/*
 * An XRC SRQ (srq_type OIB_UVERBS_SRQT_XRC) belongs to a domain and completes on its own CQ;
 * senders reach it through the domain's target QPs by srq_num.  No receive ring (-EINVAL with
 * OIB_UVERBS_CREATE_MAPPED): receives are posted with POST_SRQ_RECV.
 */
enum oib_uverbs_srq_type {	/* the values of the kernel's enum oib_srq_type */
	OIB_UVERBS_SRQT_BASIC = 0,
	OIB_UVERBS_SRQT_XRC = 1,
};

#define OIB_UVERBS_SRQ_MAX_WR	(1u << 0)
#define OIB_UVERBS_SRQ_LIMIT	(1u << 1)

struct oib_uverbs_modify_srq {
	struct oib_uverbs_hdr hdr;
	__u32 handle;				/* in */
	__u32 attr_mask;			/* in */
	struct oib_uverbs_srq_attr attr;	/* in (max_sge ignored), out for QUERY_SRQ */
};

/* An address handle, for UD sends.  DESTROY_AH takes struct oib_uverbs_destroy. */
struct oib_uverbs_create_ah {
	struct oib_uverbs_hdr hdr;
	__aligned_u64 user_handle;	/* in */
	__u32 pd_handle;		/* in */
	__u32 handle;			/* out */
	struct oib_uverbs_ah_attr attr;	/* in */
};

/* attr_mask: the kernel's OIB_QP_* bits; this version takes these: */
#define OIB_UVERBS_QP_STATE		(1u << 0)
#define OIB_UVERBS_QP_ACCESS_FLAGS	(1u << 3)
#define OIB_UVERBS_QP_PKEY_INDEX	(1u << 4)
#define OIB_UVERBS_QP_PORT		(1u << 5)
#define OIB_UVERBS_QP_QKEY		(1u << 6)
#define OIB_UVERBS_QP_AV		(1u << 7)
#define OIB_UVERBS_QP_PATH_MTU		(1u << 8)
#define OIB_UVERBS_QP_TIMEOUT		(1u << 9)
#define OIB_UVERBS_QP_RETRY_CNT		(1u << 10)
#define OIB_UVERBS_QP_RNR_RETRY		(1u << 11)
#define OIB_UVERBS_QP_RQ_PSN		(1u << 12)
#define OIB_UVERBS_QP_MAX_QP_RD_ATOMIC	(1u << 13)
#define OIB_UVERBS_QP_MIN_RNR_TIMER	(1u << 15)
#define OIB_UVERBS_QP_SQ_PSN		(1u << 16)
#define OIB_UVERBS_QP_MAX_DEST_RD_ATOMIC (1u << 17)
#define OIB_UVERBS_QP_DEST_QPN		(1u << 20)

/* A Q_Key with this bit (a QP's, or a UD send's remote_qkey) needs CAP_NET_RAW. */
#define OIB_UVERBS_QKEY_CONTROLLED	0x80000000u

struct oib_uverbs_modify_qp {
	struct oib_uverbs_hdr hdr;
	__u32 handle;
	__u32 attr_mask;
	__u32 qp_state;
	__u32 path_mtu;
	__u32 rq_psn;
	__u32 sq_psn;
	__u32 dest_qp_num;
	__u32 qp_access_flags;	/* OIB_UVERBS_ACCESS_* */
	__u16 pkey_index;
	__u8 port_num;
	__u8 timeout;
	__u8 retry_cnt;
	__u8 rnr_retry;
	__u8 min_rnr_timer;
	__u8 max_rd_atomic;
	__u8 max_dest_rd_atomic;
	__u8 reserved[3];
	__u32 qkey;		/* UD */
	struct oib_uverbs_ah_attr ah_attr;
};

/*
 * QUERY_QP: attr.hdr is the command's header, attr.handle and attr.attr_mask (the attributes
 * wanted, MODIFY_QP's bits; the kernel may answer more) are in; every other field is out: the
 * QP's attributes in MODIFY_QP's fields (attr_mask set to the bits answered), its granted
 * capabilities, its type and signalling.
 */
struct oib_uverbs_query_qp {
	struct oib_uverbs_modify_qp attr;
	struct oib_uverbs_qp_cap cap;	/* out */
	__u32 qp_type;			/* out */
	__u32 sq_sig_all;		/* out */
};

struct oib_uverbs_sge {
	__aligned_u64 addr;	/* user address inside the MR that lkey names */
	__u32 length;
	__u32 lkey;
};

enum oib_uverbs_wr_opcode {	/* the values of the kernel's enum oib_wr_opcode */
	OIB_UVERBS_WR_RDMA_WRITE = 0,
	OIB_UVERBS_WR_RDMA_WRITE_WITH_IMM = 1,
	OIB_UVERBS_WR_SEND = 2,
	OIB_UVERBS_WR_SEND_WITH_IMM = 3,
	OIB_UVERBS_WR_RDMA_READ = 4,		/* RC */
	OIB_UVERBS_WR_ATOMIC_CMP_AND_SWP = 5,	/* RC; one 8-byte SGE, remote_addr 8-aligned */
	OIB_UVERBS_WR_ATOMIC_FETCH_AND_ADD = 6,	/* RC; as CMP_AND_SWP */
};

#define OIB_UVERBS_SEND_SIGNALED	(1u << 1)
#define OIB_UVERBS_SEND_SOLICITED	(1u << 2)

#define OIB_UVERBS_MAX_SGE	16	/* SGEs per work request */
#define OIB_UVERBS_MAX_WR	64	/* work requests per POST_SEND / POST_RECV */

/*
 * A send request.  Fields its opcode and QP type do not use must be zero (-EINVAL): RDMA uses
 * remote_addr and rkey; atomics those and compare_add (and swap for CMP_AND_SWP); UD sends
 * ah_handle (an AH on the QP's PD), remote_qpn and remote_qkey.
 */
struct oib_uverbs_send_wr {
	__aligned_u64 wr_id;
	__aligned_u64 sg_list;	/* user pointer to struct oib_uverbs_sge[num_sge] */
	__u32 num_sge;
	__u32 opcode;
	__u32 send_flags;
	__u32 imm_data;		/* network byte order */
	__aligned_u64 remote_addr;
	__aligned_u64 compare_add;
	__aligned_u64 swap;
	__u32 rkey;
	__u32 ah_handle;
	union {
		__u32 remote_qpn;		/* UD */
		__u32 xrc_remote_srq_num;	/* XRC_INI: the XRC SRQ at the target */
	};
	__u32 remote_qkey;
};

struct oib_uverbs_recv_wr {
	__aligned_u64 wr_id;
	__aligned_u64 sg_list;
	__u32 num_sge;
	__u32 reserved;
};

/* POST_SEND / POST_RECV: bad_wr is the index of the first request not posted when it fails. */
struct oib_uverbs_post {
	struct oib_uverbs_hdr hdr;
	__u32 handle;		/* in: the QP */
	__u32 count;		/* in: <= OIB_UVERBS_MAX_WR */
	__aligned_u64 wrs;	/* in: user pointer to count send or receive WRs */
	__u32 bad_wr;		/* out */
	__u32 reserved;
};

/*
 * A mapped send queue.  Each entry is a struct oib_uverbs_send_wr with sg_list 0, followed by
 * its num_sge SGEs (room for the QP's max_send_sge: sq.stride bytes in all).  The process
 * writes entries and the producer index, then DOORBELL: the kernel posts every entry from its
 * consumer index to the producer index it reads, checking each as POST_SEND does, and
 * publishes its consumer index.  A bad entry (or a full send queue) stops it there: that entry
 * and the ones after it are not posted, the call fails (-EINVAL, -ENOMEM) with bad_wr the index
 * of the entry, and the consumer index names it; the process may rewrite the entries from
 * there, or move its producer index back to the consumer index, and ring again.  A producer
 * index more than sq.entries ahead of the consumer index, or behind it, is -EINVAL and nothing
 * is posted.
 */
/*
 * A mapped receive queue (a QP's, OIB_UVERBS_CREATE_MAPPED_RQ, or an SRQ's).  Each entry is a
 * struct oib_uverbs_recv_wr with sg_list 0 and reserved 0, followed by its num_sge SGEs (room
 * for the granted max_recv_sge or max_sge).  The process writes entries and the producer index;
 * no call follows: the kernel takes entries when a message finds no receive queued (and, on an
 * SRQ, before it decides the limit is reached), checks each as POST_RECV does, and publishes its
 * consumer index; a QP in ERR flushes them.  A bad entry, or a producer index more than
 * entries ahead of the consumer index or behind it, breaks the ring: the kernel sets
 * OIB_UVERBS_RING_ERROR, reads it no more, and a QP goes to ERR with QP_FATAL on the async
 * event file (an SRQ raises SRQ_ERR); the consumer index stays on the bad entry.  Moving the QP
 * to RESET discards what its ring holds (the consumer index goes to the producer index) and
 * clears OIB_UVERBS_RING_ERROR and OIB_UVERBS_RING_FLUSH.
 */

struct oib_uverbs_doorbell {
	struct oib_uverbs_hdr hdr;
	__u32 handle;		/* in: the QP */
	__u32 posted;		/* out: entries posted by this call */
	__u32 bad_wr;		/* out, on failure: the ring index of the entry not posted */
	__u32 reserved;
};

/*
 * XRC domains (Documentation/xrc.md).  OPEN_XRCD: fd -1 makes a private domain (oflags 0 or
 * O_CREAT); otherwise the domain is named by the file fd refers to (its inode), and every
 * context of this device that opens it through the same file gets the same domain: oflags
 * O_CREAT makes it if there is none, 0 opens only an existing one (-ENOENT), O_CREAT | O_EXCL
 * makes only a new one (-EEXIST).  The domain lives while any context holds it open.
 * CLOSE_XRCD takes struct oib_uverbs_destroy: -EBUSY while this context's XRC SRQs or XRC target
 * QPs use the handle; it drops the registrations made through the handle, then the hold.
 *
 * An owner's XRC target QP (CREATE_QP, qp_type OIB_UVERBS_QPT_XRC_TGT, xrcd_handle; no PD, CQ,
 * SRQ, capabilities or rings) is the creator's, as any QP: destroyed with its handle, the
 * context, or the process.  It has no queues: posting to it is -EINVAL.
 */
struct oib_uverbs_open_xrcd {
	struct oib_uverbs_hdr hdr;
	__aligned_u64 user_handle;	/* in */
	__s32 fd;			/* in: a file, or -1 */
	__u32 oflags;			/* in: 0, O_CREAT, O_CREAT | O_EXCL */
	__u32 handle;			/* out */
	__u32 reserved;
};

/*
 * CREATE_XRC_RCV_QP: a receive QP of the domain attr.handle, owned by the kernel (the 2007 XRC
 * receive-QP design): it lives while the domain has holders or registrations, whoever made it.
 * attr carries MODIFY_QP's attributes for RESET->INIT->RTR of an XRC target, which the kernel
 * does (no OIB_UVERBS_QP_STATE, qp_state 0); the answer is its number only.  REG_XRC_RCV_QP
 * takes a reference on one by number (-ENOENT if the domain has none; -EEXIST if this handle
 * already holds one), UNREG_XRC_RCV_QP drops it (-ENOENT if this handle holds none); closing
 * the handle or the context drops what is left.
 */
struct oib_uverbs_create_xrc_rcv_qp {
	struct oib_uverbs_modify_qp attr;	/* in: attr.handle the domain's handle */
	__u32 qp_num;				/* out */
	__u32 reserved;
};

struct oib_uverbs_xrc_rcv_qp_reg {
	struct oib_uverbs_hdr hdr;
	__u32 xrcd_handle;	/* in */
	__u32 qp_num;		/* in */
};

#endif /* _UAPI_OIB_UVERBS_H */
