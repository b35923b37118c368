/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_cma, the RDMA connection manager: connections between IP addresses, the way a ULP writes
 * them with the in-tree rdma_cm (create an id, resolve the address and the route, connect or
 * listen and accept, disconnect), under oib_ names.  IB and RoCE devices connect through oib_cm;
 * the wire is that of the Linux rdma_cm (Documentation/cma.md).
 *
 * Addresses are struct sockaddr_in or sockaddr_in6.  A RoCE port has the IP addresses it was
 * given as RoCEv2 GIDs (IPv4 as ::ffff:a.b.c.d); an address resolves to the device and port that
 * has it (a source) or that reaches it (a destination).
 */
#ifndef OIB_RDMA_CM_H
#define OIB_RDMA_CM_H

#include <linux/socket.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <oib/verbs.h>
#include <oib/cm.h>

struct net;

/* Port spaces (the rdma_cm's): the protocol byte of the service ID, and the QP type they take. */
enum oib_cma_port_space {
	OIB_PS_SDP = 0x0001,	/* RC: SDP's Hello is a REQ's whole private data, no CMA header */
	OIB_PS_IPOIB = 0x0002,
	OIB_PS_TCP = 0x0106,	/* RC and UC: connections through REQ/REP/RTU */
	OIB_PS_UDP = 0x0111,	/* UD: the peer's QP number and Q_Key through SIDR */
	OIB_PS_IB = 0x013f,
};

/* The Q_Key of every UD QP in the UDP port space, as the rdma_cm uses. */
#define OIB_CMA_UDP_QKEY	0x01234567

enum oib_cma_event_type {
	OIB_CMA_EVENT_ADDR_RESOLVED,
	OIB_CMA_EVENT_ADDR_ERROR,
	OIB_CMA_EVENT_ROUTE_RESOLVED,
	OIB_CMA_EVENT_ROUTE_ERROR,
	OIB_CMA_EVENT_CONNECT_REQUEST,	/* to a new id, spawned by a listener */
	OIB_CMA_EVENT_CONNECT_RESPONSE,	/* active side, OIB_CMA_CONFIRM_REP: the REP, to accept */
	OIB_CMA_EVENT_CONNECT_ERROR,	/* set-up failed after the peer answered (REP timed out) */
	OIB_CMA_EVENT_UNREACHABLE,	/* no answer to the REQ or SIDR_REQ */
	OIB_CMA_EVENT_REJECTED,		/* status: the REJ reason, or the SIDR status */
	OIB_CMA_EVENT_ESTABLISHED,
	OIB_CMA_EVENT_DISCONNECTED,
	OIB_CMA_EVENT_DEVICE_REMOVAL,	/* the owner must destroy the id (and its QP) */
	OIB_CMA_EVENT_TIMEWAIT_EXIT,
	OIB_CMA_EVENT_ADDR_CHANGE,	/* the bound address left the id's port */
	OIB_CMA_NEVENTS
};

/* What a connection carries, both ways.  Private data is the ULP's own: at most the sizes below. */
/* The rdma_cm's header, first in a REQ's private data. */
#define OIB_CMA_HDR_SIZE		36
#define OIB_CMA_REQ_PRIVATE_DATA_SIZE	(OIB_CM_REQ_PRIVATE_DATA_SIZE - OIB_CMA_HDR_SIZE)
#define OIB_CMA_SIDR_PRIVATE_DATA_SIZE	(OIB_CM_SIDR_REQ_PRIVATE_DATA_SIZE - OIB_CMA_HDR_SIZE)
/*
 * OIB_PS_SDP: the REQ's private data is the owner's alone, an SDP Hello (struct oib_sdp_hh,
 * include/oib/sdp.h), whose IP version, source port and addresses the passive side's CMA reads
 * in place of its header's.
 */
#define OIB_CMA_SDP_PRIVATE_DATA_SIZE	OIB_CM_REQ_PRIVATE_DATA_SIZE

enum oib_cma_conn_flags {
	/*
	 * connect: deliver CONNECT_RESPONSE with the REP and let the owner answer it with
	 * oib_cma_accept() (RTU, ESTABLISHED) or oib_cma_reject(), instead of sending the RTU at
	 * once.
	 */
	OIB_CMA_CONFIRM_REP = BIT(0),
};

struct oib_cma_conn_param {
	const void *private_data;
	u8 private_data_len;
	u8 responder_resources;		/* RDMA reads and atomics the peer may have at us */
	u8 initiator_depth;		/* ours at the peer */
	u8 retry_count;			/* 0..7 (larger: 7) */
	u8 rnr_retry_count;		/* 0..7 (larger: 7) */
	bool srq;			/* accept: the QP receives from an SRQ */
	u32 flags;			/* enum oib_cma_conn_flags */
};

struct oib_cma_ud_param {
	const void *private_data;
	u8 private_data_len;
	struct oib_ah_attr ah_attr;	/* ESTABLISHED and CONNECT_REQUEST: to the peer */
	u32 qp_num;			/* ESTABLISHED: the peer's UD QP */
	u32 qkey;
};

struct oib_cma_event {
	enum oib_cma_event_type event;
	int status;			/* errors: -errno; REJECTED: the reason (positive) */
	union {
		struct oib_cma_conn_param conn;	/* connected port spaces */
		struct oib_cma_ud_param ud;	/* UDP */
	} param;
};

struct oib_cma_id;

/*
 * An id's handler runs in process context, one call at a time per id, in the order things
 * happened.  It may call any oib_cma function on this id but destroy (return non-zero instead:
 * the id is destroyed once the handler returns, and its owner must not touch it again) and may
 * not destroy the listener that spawned it.  Private data in @event is valid during the call.
 * A CONNECT_REQUEST goes to a new id with the listener's handler and context, while the listener
 * cannot be destroyed (its destroy waits).
 */
typedef int (*oib_cma_handler)(struct oib_cma_id *id, struct oib_cma_event *event);

struct oib_cma_addr {
	struct sockaddr_storage src_addr;
	struct sockaddr_storage dst_addr;
};

struct oib_cma_route {
	struct oib_cma_addr addr;
	struct oib_cm_path path;	/* valid from ROUTE_RESOLVED (or CONNECT_REQUEST) on */
};

/*
 * The id.  Fields are the CMA's to write but @context; the owner reads them in its handler or
 * after the event that set them (device and port_num from ADDR_RESOLVED or a bind to a device's
 * address).
 */
struct oib_cma_id {
	struct oib_device *device;
	u32 port_num;
	void *context;			/* the owner's: a spawned id starts with its listener's */
	struct oib_qp *qp;		/* from oib_cma_create_qp() */
	oib_cma_handler event_handler;
	struct oib_cma_route route;
	enum oib_cma_port_space ps;
	enum oib_qp_type qp_type;
};

/*
 * A new id in @net (only init_net has ports today), for @ps with @qp_type (TCP: RC or UC; UDP:
 * UD).  ERR_PTR: -EINVAL (no handler, a wrong pair), -EAFNOSUPPORT (OIB_PS_IB, OIB_PS_IPOIB),
 * -ENOMEM.
 */
struct oib_cma_id *oib_cma_create_id(struct net *net, oib_cma_handler handler, void *context,
				     enum oib_cma_port_space ps, enum oib_qp_type qp_type);

/*
 * Destroy @id, telling the peer what its state asks for (REJ or DREQ); its QP, if any, must be
 * destroyed first (oib_cma_destroy_qp).  Synchronous: no handler of @id runs after it returns.
 */
void oib_cma_destroy_id(struct oib_cma_id *id);

/*
 * Bind to a local address and port (port 0: one is chosen).  A specific address binds the id to
 * the device and port that has it.  -EINVAL: already bound, a bad address; -EADDRNOTAVAIL: no
 * port has it; -EADDRINUSE: the port is taken for that address.
 */
int oib_cma_bind_addr(struct oib_cma_id *id, const struct sockaddr *addr);

/*
 * Find the device and port for @dst (from @src if given, which binds the id): ADDR_RESOLVED or
 * ADDR_ERROR (-EHOSTUNREACH: no port reaches it; -ETIMEDOUT) follows, within @timeout_ms.
 */
int oib_cma_resolve_addr(struct oib_cma_id *id, const struct sockaddr *src,
			 const struct sockaddr *dst, unsigned long timeout_ms);

/*
 * An address of @device's @port to reach @dst from (of its family; link-local for a link-local
 * IPv6 @dst), port 0: as @src of oib_cma_resolve_addr(), it makes the id leave from that port.
 * -EADDRNOTAVAIL: the port has none; -EINVAL: no such port; -EAFNOSUPPORT: @dst not IP.
 */
int oib_cma_port_addr(struct oib_device *device, u32 port, const struct sockaddr *dst,
		      struct sockaddr_storage *src);

/* Build the path between the GIDs (RoCE has no SA): ROUTE_RESOLVED or ROUTE_ERROR follows. */
int oib_cma_resolve_route(struct oib_cma_id *id, unsigned long timeout_ms);

/*
 * A QP on the id's device and port for @pd.  The id's CM drives it: connected QPs start in INIT
 * (receives may be posted before connecting or accepting) and move with the connection (the
 * owner never moves them); UD QPs go straight to RTS with the port space's Q_Key.
 * The owner's event handler in @init_attr still sees every QP event.  -EINVAL: no device yet, a
 * QP already, the wrong QP type.
 */
int oib_cma_create_qp(struct oib_cma_id *id, struct oib_pd *pd,
		      struct oib_qp_init_attr *init_attr);
void oib_cma_destroy_qp(struct oib_cma_id *id);

/*
 * The same for a QP the owner made (a process's, through oib_uverbs): @qp, in RESET, of the
 * id's QP type and device, is moved and driven as oib_cma_create_qp()'s are, but stays the
 * owner's.  -EINVAL: no device yet, a QP already, the wrong type, device or state.
 */
int oib_cma_attach_qp(struct oib_cma_id *id, struct oib_qp *qp);

/* The connection lets go of the id's QP (to ERR) and gives it back (NULL: it had none). */
struct oib_qp *oib_cma_detach_qp(struct oib_cma_id *id);

/*
 * Connect (after ROUTE_RESOLVED): a REQ for connected port spaces, a SIDR_REQ for UDP.
 * ESTABLISHED, REJECTED, UNREACHABLE or CONNECT_ERROR follows.  -EINVAL: wrong state, no QP (RC,
 * UC), private data too long.
 */
int oib_cma_connect(struct oib_cma_id *id, const struct oib_cma_conn_param *param);

/*
 * Listen on the bound address (bind it first, or a wildcard address on port 0 is bound here):
 * a wildcard address listens on every device, present and future.  At most @backlog connection
 * requests wait for accept or reject (beyond: REJ "no resources"); @backlog <= 0: a default.
 */
int oib_cma_listen(struct oib_cma_id *id, int backlog);

/*
 * Passive side, after CONNECT_REQUEST (from its handler or later): REP or SIDR_REP.  Active side
 * with OIB_CMA_CONFIRM_REP, after CONNECT_RESPONSE: the RTU (@param NULL).  -EINVAL.
 */
int oib_cma_accept(struct oib_cma_id *id, const struct oib_cma_conn_param *param);

/* Refuse a CONNECT_REQUEST or a CONNECT_RESPONSE with private data (REJ 28, or SIDR REJECT). */
int oib_cma_reject(struct oib_cma_id *id, const void *private_data, u8 private_data_len);

/* Move the QP to ERR and send a DREQ (or the DREP to the peer's DREQ).  -EINVAL: not connected. */
int oib_cma_disconnect(struct oib_cma_id *id);

/* For owners moving a QP themselves: the attributes to reach @attr->qp_state.  -EINVAL. */
int oib_cma_init_qp_attr(struct oib_cma_id *id, struct oib_qp_attr *attr, int *mask);

/* Tell the CM about traffic (COMM_EST); never needed: see oib_cm_notify(). */
int oib_cma_notify(struct oib_cma_id *id, enum oib_event_type event);

/* Readable names for logs ("ESTABLISHED"). */
const char *oib_cma_event_msg(enum oib_cma_event_type event);

static inline struct sockaddr *oib_cma_src_addr(struct oib_cma_id *id)
{
	return (struct sockaddr *)&id->route.addr.src_addr;
}

static inline struct sockaddr *oib_cma_dst_addr(struct oib_cma_id *id)
{
	return (struct sockaddr *)&id->route.addr.dst_addr;
}

#endif /* OIB_RDMA_CM_H */
