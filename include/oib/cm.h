/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_cm, the InfiniBand communication manager (IBTA vol. 1, chapter 12): what a ULP needs to
 * speak about connections: the protocol's constants, the cm_id and its events, and the calls that
 * set up, tear down and resolve connections (Documentation/cm.md).  Upstream ib_cm semantics
 * under oib_ names, except that the CM drives the QP of a connection itself.
 */
#ifndef OIB_CM_H
#define OIB_CM_H

#include <linux/types.h>
#include <oib/verbs.h>

/* Private data: how much each message carries, always all of it on the wire (table 106 ff.). */
enum {
	OIB_CM_REQ_PRIVATE_DATA_SIZE = 92,
	OIB_CM_MRA_PRIVATE_DATA_SIZE = 222,
	OIB_CM_REJ_PRIVATE_DATA_SIZE = 148,
	OIB_CM_REP_PRIVATE_DATA_SIZE = 196,
	OIB_CM_RTU_PRIVATE_DATA_SIZE = 224,
	OIB_CM_DREQ_PRIVATE_DATA_SIZE = 220,
	OIB_CM_DREP_PRIVATE_DATA_SIZE = 224,
	OIB_CM_SIDR_REQ_PRIVATE_DATA_SIZE = 216,
	OIB_CM_SIDR_REP_PRIVATE_DATA_SIZE = 136,
	OIB_CM_LAP_PRIVATE_DATA_SIZE = 168,
	OIB_CM_APR_PRIVATE_DATA_SIZE = 148,
	OIB_CM_MAX_PRIVATE_DATA_SIZE = 224,
};

/* Additional rejection information (REJ), additional information (SIDR_REP, APR): bytes. */
#define OIB_CM_ARI_LENGTH		72
#define OIB_CM_SIDR_INFO_LENGTH		72
#define OIB_CM_APR_INFO_LENGTH		72

/* REJ reasons (table 109).  34 is not assigned. */
enum oib_cm_rej_reason {
	OIB_CM_REJ_NO_QP = 1,
	OIB_CM_REJ_NO_EEC = 2,
	OIB_CM_REJ_NO_RESOURCES = 3,
	OIB_CM_REJ_TIMEOUT = 4,			/* ARI: the sender's CA GUID */
	OIB_CM_REJ_UNSUPPORTED = 5,
	OIB_CM_REJ_INVALID_COMM_ID = 6,
	OIB_CM_REJ_INVALID_COMM_INSTANCE = 7,
	OIB_CM_REJ_INVALID_SERVICE_ID = 8,
	OIB_CM_REJ_INVALID_TRANSPORT_TYPE = 9,
	OIB_CM_REJ_STALE_CONN = 10,
	OIB_CM_REJ_RDC_NOT_EXIST = 11,
	OIB_CM_REJ_INVALID_GID = 12,
	OIB_CM_REJ_INVALID_LID = 13,
	OIB_CM_REJ_INVALID_SL = 14,
	OIB_CM_REJ_INVALID_TRAFFIC_CLASS = 15,
	OIB_CM_REJ_INVALID_HOP_LIMIT = 16,
	OIB_CM_REJ_INVALID_PACKET_RATE = 17,
	OIB_CM_REJ_INVALID_ALT_GID = 18,
	OIB_CM_REJ_INVALID_ALT_LID = 19,
	OIB_CM_REJ_INVALID_ALT_SL = 20,
	OIB_CM_REJ_INVALID_ALT_TRAFFIC_CLASS = 21,
	OIB_CM_REJ_INVALID_ALT_HOP_LIMIT = 22,
	OIB_CM_REJ_INVALID_ALT_PACKET_RATE = 23,
	OIB_CM_REJ_PORT_CM_REDIRECT = 24,
	OIB_CM_REJ_PORT_REDIRECT = 25,
	OIB_CM_REJ_INVALID_MTU = 26,
	OIB_CM_REJ_INSUFFICIENT_RESP_RESOURCES = 27,
	OIB_CM_REJ_CONSUMER_DEFINED = 28,
	OIB_CM_REJ_INVALID_RNR_RETRY = 29,
	OIB_CM_REJ_DUPLICATE_LOCAL_COMM_ID = 30,
	OIB_CM_REJ_INVALID_CLASS_VERSION = 31,
	OIB_CM_REJ_INVALID_FLOW_LABEL = 32,
	OIB_CM_REJ_INVALID_ALT_FLOW_LABEL = 33,
	OIB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED = 35,
};

/* SIDR_REP status (table 121). */
enum oib_cm_sidr_status {
	OIB_CM_SIDR_SUCCESS = 0,
	OIB_CM_SIDR_UNSUPPORTED = 1,	/* service ID not supported */
	OIB_CM_SIDR_REJECT = 2,
	OIB_CM_SIDR_NO_QP = 3,
	OIB_CM_SIDR_REDIRECT = 4,
	OIB_CM_SIDR_UNSUPPORTED_VERSION = 5,
	OIB_CM_SIDR_NSTATUS
};

/* APR status (table 117): how a LAP was answered.  oib_cm answers every LAP UNSUPPORTED. */
enum oib_cm_apr_status {
	OIB_CM_APR_SUCCESS = 0,
	OIB_CM_APR_INVALID_COMM_ID = 1,
	OIB_CM_APR_UNSUPPORTED = 2,
	OIB_CM_APR_REJECT = 3,
	OIB_CM_APR_REDIRECT = 4,
	OIB_CM_APR_IS_CURRENT = 5,
	OIB_CM_APR_INVALID_QPN_EECN = 6,
	OIB_CM_APR_INVALID_LID = 7,
	OIB_CM_APR_INVALID_GID = 8,
	OIB_CM_APR_INVALID_FLOW_LABEL = 9,
	OIB_CM_APR_INVALID_TCLASS = 10,
	OIB_CM_APR_INVALID_HOP_LIMIT = 11,
	OIB_CM_APR_INVALID_PACKET_RATE = 12,
	OIB_CM_APR_INVALID_SL = 13,
	OIB_CM_APR_NSTATUS
};

/* The transport a REQ asks for (its transport service type; XRC is type 3, extended type 1). */
enum oib_cm_transport {
	OIB_CM_TRANSPORT_RC = 0,
	OIB_CM_TRANSPORT_UC = 1,
	OIB_CM_TRANSPORT_XRC = 3,
};

/*
 * Service IDs (IBTA annex A3): the top byte says who assigned it.  IP-based services (annex
 * A11, and the RDMA CM) use 0x00000000_01PP_pppp: PP the port space's protocol, pppp the port.
 */
#define OIB_CM_SID_AGN_MASK		0xff00000000000000ULL
#define OIB_CM_SID_IBTA			0x0000000000000000ULL	/* IBTA assigned */
#define OIB_CM_SID_LOCAL		0x0200000000000000ULL	/* assigned by the local CM */
#define OIB_CM_SID_IP_BASE		0x0000000001000000ULL

static inline u64 oib_cm_ip_service_id(u8 protocol, u16 port)
{
	return OIB_CM_SID_IP_BASE | (u64)protocol << 16 | port;
}

/*
 * The 5-bit time encoding of every CM timeout (response timeouts, service timeout, packet
 * life time, ACK timeouts): t means 4.096 us * 2^t, t in 0..31 (taken modulo 32 here).
 */
#define OIB_CM_TIMEOUT_MAX		31

static inline u64 oib_cm_timeout_ns(u8 t)
{
	return 4096ULL << (t & OIB_CM_TIMEOUT_MAX);
}

/* The states of a cm_id (IBTA 12.9, figures 155 ff.). */
enum oib_cm_state {
	OIB_CM_IDLE,
	OIB_CM_LISTEN,
	OIB_CM_REQ_SENT,
	OIB_CM_REQ_RCVD,
	OIB_CM_MRA_REQ_SENT,
	OIB_CM_MRA_REQ_RCVD,
	OIB_CM_REP_SENT,
	OIB_CM_REP_RCVD,
	OIB_CM_MRA_REP_SENT,
	OIB_CM_MRA_REP_RCVD,
	OIB_CM_ESTABLISHED,
	OIB_CM_DREQ_SENT,
	OIB_CM_DREQ_RCVD,
	OIB_CM_TIMEWAIT,
	OIB_CM_SIDR_REQ_SENT,
	OIB_CM_SIDR_REQ_RCVD,
	OIB_CM_DESTROYING,	/* terminal: destroy was called */
	OIB_CM_NSTATES
};

/* What a cm_id's handler is told.  Private data is a copy, valid during the handler call. */
enum oib_cm_event_type {
	OIB_CM_EVENT_REQ_RECEIVED,	/* to a new cm_id, spawned by a listener */
	OIB_CM_EVENT_REQ_ERROR,		/* no REP (nor REJ) after the REQ's retries */
	OIB_CM_EVENT_REP_RECEIVED,
	OIB_CM_EVENT_REP_ERROR,		/* no RTU (nor any other sign of life) after the REP's */
	OIB_CM_EVENT_ESTABLISHED,	/* both sides; the QP is in RTS */
	OIB_CM_EVENT_MRA_RECEIVED,
	OIB_CM_EVENT_REJ_RECEIVED,
	OIB_CM_EVENT_DREQ_RECEIVED,
	OIB_CM_EVENT_DREQ_ERROR,	/* no DREP after the DREQ's retries: in TIMEWAIT anyway */
	OIB_CM_EVENT_DREP_RECEIVED,
	OIB_CM_EVENT_TIMEWAIT_EXIT,	/* the connection's IDs may be reused: back in IDLE */
	OIB_CM_EVENT_SIDR_REQ_RECEIVED,	/* to a new cm_id, spawned by a listener */
	OIB_CM_EVENT_SIDR_REQ_ERROR,
	OIB_CM_EVENT_SIDR_REP_RECEIVED,
	OIB_CM_NEVENTS
};

/*
 * A path between two ports, as a REQ carries it, from the sender's side: @sgid is one of this
 * device's GIDs and picks the port.  RoCE needs the GIDs, hop limit, traffic class and flow
 * label; the LIDs go on the wire as given.  Timeouts in the 5-bit encoding.
 */
struct oib_cm_path {
	union oib_gid sgid;
	union oib_gid dgid;
	u16 slid;
	u16 dlid;
	u32 flow_label;			/* 20 bits */
	u8 traffic_class;
	u8 hop_limit;
	u8 sl;				/* 4 bits */
	u8 rate;			/* 6 bits, 0: any */
	u8 mtu;				/* enum oib_mtu */
	u8 packet_life_time;		/* 5 bits */
	u16 pkey;
};

struct oib_cm_req_event_param {
	struct oib_cm_id *listen_id;	/* the listener that spawned this id */
	u32 port_num;			/* the port the REQ came in on */
	struct oib_cm_path path;	/* from this side: sgid ours, dgid the peer's */
	u64 remote_ca_guid;
	u32 remote_qpn;
	u32 remote_qkey;
	u32 starting_psn;		/* the PSN our sends start from */
	u8 responder_resources;		/* the peer's: the most RDMA reads we may have at it */
	u8 initiator_depth;		/* the peer's: the most it will have at us */
	u8 local_cm_response_timeout;
	u8 remote_cm_response_timeout;
	u8 retry_count;
	u8 rnr_retry_count;
	u8 max_cm_retries;
	u8 transport;			/* enum oib_cm_transport */
	bool srq;
};

struct oib_cm_rep_event_param {
	u64 remote_ca_guid;
	u32 remote_qpn;
	u32 remote_qkey;
	u32 starting_psn;		/* the PSN our sends start from */
	u8 responder_resources;
	u8 initiator_depth;
	u8 target_ack_delay;
	u8 failover_accepted;
	u8 rnr_retry_count;
	bool srq;
};

struct oib_cm_rej_event_param {
	u16 reason;			/* enum oib_cm_rej_reason */
	u8 ari_len;
	u8 ari[OIB_CM_ARI_LENGTH];
};

struct oib_cm_sidr_req_event_param {
	struct oib_cm_id *listen_id;
	u32 port_num;
	u16 pkey;
	u64 service_id;
	struct oib_ah_attr ah_attr;	/* back to the requester */
};

struct oib_cm_sidr_rep_event_param {
	u8 status;			/* enum oib_cm_sidr_status */
	u32 qpn;
	u32 qkey;
	u8 info_len;
	u8 info[OIB_CM_SIDR_INFO_LENGTH];
};

struct oib_cm_event {
	enum oib_cm_event_type type;
	union {
		struct oib_cm_req_event_param req;		/* REQ_RECEIVED */
		struct oib_cm_rep_event_param rep;		/* REP_RECEIVED */
		struct oib_cm_rej_event_param rej;		/* REJ_RECEIVED */
		u8 mra_service_timeout;				/* MRA_RECEIVED */
		struct oib_cm_sidr_req_event_param sidr_req;	/* SIDR_REQ_RECEIVED */
		struct oib_cm_sidr_rep_event_param sidr_rep;	/* SIDR_REP_RECEIVED */
		int status;		/* *_ERROR: -ETIMEDOUT, or the send's -EIO/-ENODEV */
	} param;
	const void *private_data;	/* NULL for events no message carried */
	u8 private_data_len;
};

struct oib_cm_id;
struct oib_device;

/*
 * A cm_id's handler, called in process context (the CM's workqueue), one call at a time per
 * cm_id, in the order things happened.  It may call any oib_cm function on this or another
 * cm_id except destroying its own: returning non-zero destroys the cm_id after the handler
 * returns (as oib_cm_destroy_id() would, telling the peer), and the owner must not touch it
 * again.  A new cm_id spawned by a listener starts with the listener's handler and context.
 */
typedef int (*oib_cm_handler)(struct oib_cm_id *id, const struct oib_cm_event *event);

/*
 * One end of a connection, or a listener.  The fields are the CM's to write; a ULP reads them in
 * its handler or while it knows the state cannot change.  Comm IDs are as the wire carries them.
 */
struct oib_cm_id {
	struct oib_device *device;	/* NULL: a listener on every device */
	oib_cm_handler handler;
	void *context;			/* the owner's, never touched by the CM */
	enum oib_cm_state state;
	u64 service_id;
	u64 service_mask;		/* listeners: the bits of service_id that must match */
	u32 local_id;
	u32 remote_id;			/* 0 until the peer's is known */
	struct oib_qp *qp;		/* the QP the CM connects (send_req/send_rep), or NULL */
};

/*
 * A cm_id in IDLE on @device (NULL: may only listen, on every device).  ERR_PTR on failure:
 * -EINVAL without a handler, -ENOMEM.  The owner destroys it before @device goes.
 */
struct oib_cm_id *oib_cm_create_id(struct oib_device *device, oib_cm_handler handler,
				   void *context);

/*
 * Destroy @id, telling the peer what its state asks for (a REJ, DREQ or DREP) and leaving its
 * QP (the owner's) watched no more.  Synchronous: when it returns no handler of @id runs or will
 * run.  Must not be called from @id's own handler (return non-zero there instead).
 */
void oib_cm_destroy_id(struct oib_cm_id *id);

/*
 * Listen on @id's device (or every device) for REQs and SIDR_REQs whose service ID matches
 * @service_id in the bits of @service_mask (0: all bits).  -EINVAL: @id not IDLE, or
 * @service_id has bits outside the mask; -EBUSY: an overlapping listener on the same device.
 */
int oib_cm_listen(struct oib_cm_id *id, u64 service_id, u64 service_mask);

/*
 * Connecting.  The cm_id takes @qp (RC, UC or XRC_INI, in RESET or INIT, on the cm_id's device)
 * and drives it: to INIT when the REQ goes out or the REQ_RECEIVED handler sends the REP, to RTR
 * when the REP comes in (active) or goes out (passive), to RTS when the connection is
 * established, and to ERR when it is rejected, times out or is disconnected.  The REP's QP is of
 * the REQ's transport: an XRC REQ is answered with an XRC_TGT QP (or a kernel-owned receive QP's
 * number, see oib_cm_rep_param).  The owner keeps the QP and destroys it after the cm_id (while
 * the passive side waits to be established the CM watches the QP, and a watched QP cannot be
 * destroyed).
 *
 * The passive side is established by whichever comes first: the RTU, the QP's
 * communication-established event, or the first receive completion the owner polls from the QP
 * in RTR (an XRC target's receives complete on its SRQs' CQs: not that one); no call is needed
 * (oib_cm_notify() is there for owners that want it).  The owner may post receives and sends
 * as soon as the REP is sent: sends leave when the QP reaches RTS.
 */
struct oib_cm_req_param {
	struct oib_qp *qp;
	const struct oib_cm_path *path;
	u64 service_id;
	u32 starting_psn;		/* 24 bits: the PSN our QP receives from first */
	const void *private_data;
	u8 private_data_len;		/* <= OIB_CM_REQ_PRIVATE_DATA_SIZE */
	u8 responder_resources;		/* RDMA reads/atomics the peer may have at us */
	u8 initiator_depth;		/* ours at the peer */
	u8 remote_cm_response_timeout;	/* 5 bits: how long the peer may take to answer */
	u8 local_cm_response_timeout;	/* 5 bits: how long we take */
	u8 retry_count;			/* 3 bits */
	u8 rnr_retry_count;		/* 3 bits */
	u8 max_cm_retries;		/* 4 bits: REQ, REP and DREQ resends */
	/*
	 * Peer to peer: the peer may send us a REQ for the same service at the same time.  If it
	 * crosses ours, the side with the lower (CA GUID, QPN) becomes passive: its cm_id gets
	 * REQ_RECEIVED (listen_id NULL) and answers with send_rep, as a listener's would.
	 */
	bool peer_to_peer;
};

/*
 * -EINVAL: a field out of range, private data too long, the id not IDLE or not on a device, the
 * QP not RC/UC/XRC_INI (an XRC initiator not peer to peer), not on the id's device or past
 * INIT; -EADDRNOTAVAIL: @path's sgid is not this device's; -ENODEV: its port has no CM; -ENOMEM.
 */
int oib_cm_send_req(struct oib_cm_id *id, const struct oib_cm_req_param *param);

struct oib_cm_rep_param {
	struct oib_qp *qp;		/* NULL only with @xrc_rcv_qpn */
	/*
	 * XRC: instead of @qp, the number of a kernel-owned receive QP (oib_create_xrc_rcv_qp())
	 * the owner made in the REQ_RECEIVED handler from oib_cm_init_qp_attr()'s INIT and RTR
	 * attributes (with rq_psn = @starting_psn).  The CM neither drives nor watches it: this
	 * side is established by the RTU.
	 */
	u32 xrc_rcv_qpn;
	u32 starting_psn;		/* 24 bits: the PSN our QP receives from first */
	const void *private_data;
	u8 private_data_len;		/* <= OIB_CM_REP_PRIVATE_DATA_SIZE */
	u8 responder_resources;		/* at most the REQ's initiator depth is used */
	u8 initiator_depth;		/* at most the REQ's responder resources is used */
	u8 target_ack_delay;		/* 5 bits */
	u8 rnr_retry_count;		/* 3 bits: the peer's RNR retries */
	bool srq;			/* XRC: always set on the wire */
};

/*
 * The owner is about to destroy the connection's QP before the cm_id: the QP goes to ERR (unless
 * in RESET) and the CM forgets it; the connection's messages go on without it.
 */
void oib_cm_release_qp(struct oib_cm_id *id);

/* In REQ_RCVD or MRA_REQ_SENT: QP to RTR, REP out.  -EINVAL as for send_req. */
int oib_cm_send_rep(struct oib_cm_id *id, const struct oib_cm_rep_param *param);

/* In REP_RCVD or MRA_REP_SENT: QP to RTS, RTU out, ESTABLISHED delivered.  -EINVAL. */
int oib_cm_send_rtu(struct oib_cm_id *id, const void *private_data, u8 private_data_len);

/*
 * Ask for more time to answer the REQ or REP just received: the peer waits @service_timeout
 * (5 bits) longer, and a duplicate of its message gets this MRA again.  -EINVAL.
 */
int oib_cm_send_mra(struct oib_cm_id *id, u8 service_timeout, const void *private_data,
		    u8 private_data_len);

/*
 * Refuse the connection being set up (any state before ESTABLISHED but IDLE and LISTEN), with
 * @reason and up to OIB_CM_ARI_LENGTH bytes of additional information.  -EINVAL.
 */
int oib_cm_send_rej(struct oib_cm_id *id, enum oib_cm_rej_reason reason, const void *ari,
		    u8 ari_len, const void *private_data, u8 private_data_len);

/* In ESTABLISHED: QP to ERR, DREQ out (resent until DREP or retries; then TIMEWAIT). */
int oib_cm_send_dreq(struct oib_cm_id *id, const void *private_data, u8 private_data_len);

/* In DREQ_RCVD: DREP out, TIMEWAIT.  -EINVAL. */
int oib_cm_send_drep(struct oib_cm_id *id, const void *private_data, u8 private_data_len);

/*
 * Tell the CM the connection carries traffic: OIB_EVENT_COMM_EST establishes a passive side
 * waiting for the RTU (any other event: -EINVAL).  Never needed: see oib_cm_req_param.
 */
int oib_cm_notify(struct oib_cm_id *id, enum oib_event_type event);

/*
 * The attributes and mask that move a QP of this connection to @attr->qp_state (INIT, RTR or
 * RTS), from what was negotiated: for owners who move a QP themselves.  -EINVAL: another state,
 * or the connection is not far enough along.
 */
int oib_cm_init_qp_attr(struct oib_cm_id *id, struct oib_qp_attr *attr, int *mask);

/* Service ID resolution, for UD: ask the peer for the QPN and Q_Key serving @service_id. */
struct oib_cm_sidr_req_param {
	const struct oib_cm_path *path;
	u64 service_id;
	unsigned int timeout_ms;	/* per try, 1..OIB_MAD_TIMEOUT_MAX_MS */
	u8 max_cm_retries;		/* 4 bits */
	const void *private_data;
	u8 private_data_len;		/* <= OIB_CM_SIDR_REQ_PRIVATE_DATA_SIZE */
};

int oib_cm_send_sidr_req(struct oib_cm_id *id, const struct oib_cm_sidr_req_param *param);

struct oib_cm_sidr_rep_param {
	u8 status;			/* enum oib_cm_sidr_status */
	u32 qpn;			/* SUCCESS: the serving QP */
	u32 qkey;
	const void *info;
	u8 info_len;			/* <= OIB_CM_SIDR_INFO_LENGTH */
	const void *private_data;
	u8 private_data_len;		/* <= OIB_CM_SIDR_REP_PRIVATE_DATA_SIZE */
};

/* In SIDR_REQ_RCVD: answer, back to IDLE.  -EINVAL. */
int oib_cm_send_sidr_rep(struct oib_cm_id *id, const struct oib_cm_sidr_rep_param *param);

/*
 * Per-port counters, also in /sys/kernel/debug/oib_cm/<device>/port<N>: per message, named by
 * its attribute ID (0x10 REQ ... 0x1a APR), and drops by reason.
 */
enum oib_cm_port_stat {
	OIB_CM_STAT_SENT,		/* sent for the first time */
	OIB_CM_STAT_RESENT,		/* sent again: the answer to a duplicate */
	OIB_CM_STAT_RECEIVED,		/* taken by the state machine */
	OIB_CM_STAT_DUPLICATES,		/* received again, answered or dropped */
	OIB_CM_STAT_NTYPES
};

enum oib_cm_drop {
	OIB_CM_DROP_MALFORMED,		/* not a CM message we can read */
	OIB_CM_DROP_UNKNOWN_ID,		/* names no cm_id of ours, or not with that peer */
	OIB_CM_DROP_PROTOCOL,		/* not allowed in the cm_id's state */
	OIB_CM_DROP_NO_ROUTE,		/* no way back to the sender (no GRH, GID not ours) */
	OIB_CM_DROP_NOMEM,
	OIB_CM_NDROPS
};

u64 oib_cm_port_stat(struct oib_device *device, u32 port, enum oib_cm_port_stat stat,
		     u16 attr_id);
u64 oib_cm_port_drops(struct oib_device *device, u32 port, enum oib_cm_drop why);

#endif /* OIB_CM_H */
