/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_cm, the InfiniBand communication manager (IBTA vol. 1, chapter 12): what a ULP needs to
 * speak about connections.  So far: the protocol's constants (private data sizes, reject
 * reasons, SIDR and APR status codes, service IDs, the 5-bit timeout encoding), the connection
 * states, and the cm_id: create, destroy and listen.  The calls that connect and tear down a
 * connection come with the MAD glue; none is exported before it works (Documentation/cm.md).
 */
#ifndef OIB_CM_H
#define OIB_CM_H

#include <linux/types.h>

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

/* What a cm_id's handler is told.  Private data points into the received MAD, valid in the call. */
enum oib_cm_event_type {
	OIB_CM_EVENT_REQ_RECEIVED,
	OIB_CM_EVENT_REQ_ERROR,
	OIB_CM_EVENT_REP_RECEIVED,
	OIB_CM_EVENT_REP_ERROR,
	OIB_CM_EVENT_ESTABLISHED,
	OIB_CM_EVENT_MRA_RECEIVED,
	OIB_CM_EVENT_REJ_RECEIVED,
	OIB_CM_EVENT_DREQ_RECEIVED,
	OIB_CM_EVENT_DREQ_ERROR,
	OIB_CM_EVENT_DREP_RECEIVED,
	OIB_CM_EVENT_TIMEWAIT_EXIT,
	OIB_CM_EVENT_SEND_ERROR,
	OIB_CM_NEVENTS
};

struct oib_cm_event {
	enum oib_cm_event_type type;
	u16 rej_reason;			/* REJ_RECEIVED: enum oib_cm_rej_reason */
	const void *private_data;
	u8 private_data_len;
};

struct oib_cm_id;
struct oib_device;

/*
 * A cm_id's handler, called in process context, one call at a time per cm_id.  Returning
 * non-zero destroys the cm_id after the handler returns: the owner must not touch it again.
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
};

/*
 * A cm_id in IDLE on @device (NULL: may only listen, on every device).  ERR_PTR on failure:
 * -EINVAL without a handler, -ENOMEM.  The id does not pin @device: destroy it before the device
 * goes (the MAD glue, when it lands, will take that over).
 */
struct oib_cm_id *oib_cm_create_id(struct oib_device *device, oib_cm_handler handler,
				   void *context);

/*
 * Destroy @id.  Synchronous: when it returns no handler of @id runs or will run.  Must not be
 * called from @id's own handler (return non-zero there instead).
 */
void oib_cm_destroy_id(struct oib_cm_id *id);

/*
 * Listen on @id's device (or every device) for REQs whose service ID matches @service_id in
 * the bits of @service_mask (0: all bits).  -EINVAL: @id not IDLE, or @service_id has bits
 * outside the mask; -EBUSY: an overlapping listener on the same device.
 */
int oib_cm_listen(struct oib_cm_id *id, u64 service_id, u64 service_mask);

#endif /* OIB_CM_H */
