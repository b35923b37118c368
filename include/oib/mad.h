/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The oib MAD layer (module oib_mad): management datagrams over each port's GSI QP (QP1).
 *
 * A client registers an agent on a port for a management class, class version and set of methods
 * (and, for vendor classes 0x30-0x4f, an OUI); requests of that kind arriving on the port go to its
 * receive handler.  It sends MADs with send buffers: a send buffer with a timeout expects a
 * response, which the layer matches by transaction ID and class and delivers to the receive handler
 * together with the request it answers; without a response in time it is resent up to its retry
 * count.  Every posted send buffer completes to the send handler exactly once, with a status.
 * A port lets at most 128 requests wait for responses at once; later ones are held, in order,
 * and their timeouts start only when they are sent.
 *
 * Handlers of all agents on one port run in process context from that port's work, one at a time.
 * They may post, cancel, modify and free send buffers; they must not unregister an agent of the
 * same port.  After oib_unregister_mad_agent() returns, no handler of that agent runs again.
 *
 * Send buffer lifetime: oib_create_send_mad() allocates it; the owner fills the MAD and may post
 * it once; the layer owns it from a successful post until the send handler is called for it;
 * oib_free_send_mad() frees it before its post or from (or after) its send handler.
 *
 * Wire layout facts from the IBTA specification, volume 1, chapter 13.4.
 */
#ifndef OIB_MAD_H
#define OIB_MAD_H

#include <linux/types.h>
#include <linux/bitmap.h>
#include <linux/sizes.h>
#include <oib/device.h>

#define OIB_MAD_SIZE		256	/* every MAD on QP1 is exactly this long */
#define OIB_MAD_HDR_SIZE	24
#define OIB_MAD_BASE_VERSION	1
#define OIB_GSI_QKEY		0x80010000
#define OIB_MAD_GRH_SIZE	40	/* in front of every received datagram */

/* Management classes (the mgmt_class field). */
#define OIB_MGMT_CLASS_SUBN_LID_ROUTED	0x01	/* QP0 only */
#define OIB_MGMT_CLASS_SUBN_ADM		0x03
#define OIB_MGMT_CLASS_PERF_MGMT	0x04
#define OIB_MGMT_CLASS_BM		0x05
#define OIB_MGMT_CLASS_DEVICE_MGMT	0x06
#define OIB_MGMT_CLASS_CM		0x07
#define OIB_MGMT_CLASS_SNMP		0x08
#define OIB_MGMT_CLASS_VENDOR_START	0x09	/* vendor range 1: 0x09-0x0f */
#define OIB_MGMT_CLASS_VENDOR_END	0x0f
#define OIB_MGMT_CLASS_OUI_START	0x30	/* vendor range 2: 0x30-0x4f, with an OUI */
#define OIB_MGMT_CLASS_OUI_END		0x4f
#define OIB_MGMT_CLASS_SUBN_DIRECTED	0x81	/* QP0 only */
#define OIB_MGMT_CLASS_RESERVED_START	0x50	/* 0x50-0x80 and 0x82-0xff are reserved, as is 0 */

/* Methods.  A response has the request's method with OIB_MGMT_METHOD_RESP set. */
#define OIB_MGMT_METHOD_GET		0x01
#define OIB_MGMT_METHOD_SET		0x02
#define OIB_MGMT_METHOD_SEND		0x03
#define OIB_MGMT_METHOD_TRAP		0x05
#define OIB_MGMT_METHOD_REPORT		0x06
#define OIB_MGMT_METHOD_TRAP_REPRESS	0x07
#define OIB_MGMT_METHOD_RESP		0x80
#define OIB_MGMT_METHOD_GET_RESP	0x81
#define OIB_MGMT_MAX_METHODS		128

/* Status field: the "invalid field" code in bits 2-4. */
#define OIB_MAD_STATUS_BAD_VERSION	0x0004	/* base or class version (or class) not supported */
#define OIB_MAD_STATUS_UNSUPPORTED_METHOD	0x0008
#define OIB_MAD_STATUS_UNSUPPORTED_METHOD_ATTR	0x000c

/* The common MAD header, big-endian on the wire. */
struct oib_mad_hdr {
	u8 base_version;
	u8 mgmt_class;
	u8 class_version;
	u8 method;
	__be16 status;
	__be16 class_specific;
	__be64 tid;
	__be16 attr_id;
	__be16 resv;
	__be32 attr_mod;
} __packed;

/* Vendor range 2 MADs carry their OUI here (after the RMPP header and a reserved byte). */
#define OIB_MAD_OUI_OFFSET	37

/*
 * RMPP (chapter 13.6): in the classes that use it, the 12 bytes after the common header.  A
 * message longer than one MAD travels as DATA segments, each repeating the common and class
 * headers, acknowledged by window (ACK); either side may end the transfer (STOP, ABORT).
 */
struct oib_rmpp_hdr {
	u8 rmpp_version;
	u8 rmpp_type;
	u8 rmpp_rtime_flags;		/* RRespTime in bits 7-3, flags in bits 2-0 */
	u8 rmpp_status;
	__be32 seg_num;			/* DATA: this segment; ACK: the last one received */
	__be32 paylen_newwin;		/* DATA: payload length (first, last); ACK: window end */
} __packed;

#define OIB_RMPP_VERSION		1
#define OIB_RMPP_TYPE_DATA		1
#define OIB_RMPP_TYPE_ACK		2
#define OIB_RMPP_TYPE_STOP		3
#define OIB_RMPP_TYPE_ABORT		4
#define OIB_RMPP_FLAG_ACTIVE		0x01
#define OIB_RMPP_FLAG_FIRST		0x02
#define OIB_RMPP_FLAG_LAST		0x04
#define OIB_RMPP_NO_RESPTIME		0x1f	/* RRespTime: no value given */

/* rmpp_status of STOP and ABORT */
#define OIB_RMPP_STATUS_RESX		1	/* STOP: the receiver's resources are exhausted */
#define OIB_RMPP_STATUS_T2L		118	/* total time too long */
#define OIB_RMPP_STATUS_BAD_LEN		119	/* inconsistent last segment and payload length */
#define OIB_RMPP_STATUS_BAD_SEG		120	/* inconsistent first segment and number */
#define OIB_RMPP_STATUS_BADT		121	/* bad RMPP type */
#define OIB_RMPP_STATUS_W2S		122	/* NewWindowLast too small */
#define OIB_RMPP_STATUS_S2B		123	/* segment number too big */
#define OIB_RMPP_STATUS_BAD_STATUS	124	/* illegal status */
#define OIB_RMPP_STATUS_UNV		125	/* unsupported version */
#define OIB_RMPP_STATUS_TMR		126	/* too many retries */
#define OIB_RMPP_STATUS_UNSPEC		127	/* unspecified */

#define OIB_MAD_RMPP_HDR_SIZE		36	/* common + RMPP headers */
#define OIB_MAD_VENDOR_HDR_SIZE		40	/* ... + reserved byte + OUI (vendor range 2) */
#define OIB_MAD_SA_HDR_SIZE		56	/* ... + SA header (SM_Key, offset, comp. mask) */
#define OIB_MAD_RMPP_SEG_PAYLOAD	(OIB_MAD_SIZE - OIB_MAD_RMPP_HDR_SIZE)	/* 220 */

/* Does @mgmt_class carry an RMPP header (subnet administration and vendor range 2)? */
static inline bool oib_mad_class_uses_rmpp(u8 mgmt_class)
{
	return mgmt_class == OIB_MGMT_CLASS_SUBN_ADM ||
	       (mgmt_class >= OIB_MGMT_CLASS_OUI_START && mgmt_class <= OIB_MGMT_CLASS_OUI_END);
}

/* The headers every segment of an RMPP message of @mgmt_class repeats, in bytes. */
static inline size_t oib_mad_rmpp_hdr_len(u8 mgmt_class)
{
	if (mgmt_class == OIB_MGMT_CLASS_SUBN_ADM)
		return OIB_MAD_SA_HDR_SIZE;
	if (mgmt_class >= OIB_MGMT_CLASS_OUI_START && mgmt_class <= OIB_MGMT_CLASS_OUI_END)
		return OIB_MAD_VENDOR_HDR_SIZE;
	return OIB_MAD_RMPP_HDR_SIZE;
}

static inline bool oib_mad_is_response(const struct oib_mad_hdr *hdr)
{
	return (hdr->method & OIB_MGMT_METHOD_RESP) || hdr->method == OIB_MGMT_METHOD_TRAP_REPRESS;
}

struct oib_mad_agent;

/* How a send buffer ended. */
enum oib_mad_send_status {
	OIB_MAD_SEND_OK,		/* sent, and the response (if one was awaited) delivered */
	OIB_MAD_SEND_RESP_TIMEOUT,	/* no response after the last retry */
	OIB_MAD_SEND_CANCELLED,		/* oib_cancel_mad() */
	OIB_MAD_SEND_FLUSHED,		/* agent unregistered, port removed, or QP recovered */
	OIB_MAD_SEND_ERROR,		/* its work request completed in error: see wc_status */
	OIB_MAD_SEND_ABORTED,		/* RMPP: the receiver sent STOP or ABORT (rmpp_status) */
};

struct oib_mad_send_buf {
	struct oib_mad_agent *agent;
	void *mad;			/* hdr_len + data_len bytes, headers first, zeroed */
	size_t hdr_len;			/* RMPP: headers each segment repeats; else OIB_MAD_SIZE */
	size_t data_len;		/* RMPP: the message's data after the headers; else 0 */
	struct oib_ah *ah;		/* from oib_mad_create_ah() or _resp_ah() */
	u32 remote_qpn;			/* default 1 */
	u32 remote_qkey;		/* default OIB_GSI_QKEY */
	u16 pkey_index;
	unsigned int timeout_ms;	/* > 0: a response is expected within it, per try */
	unsigned int retries;		/* resends after a timeout (needs a timeout) */
	void *context[2];		/* the owner's */
};

struct oib_mad_send_wc {
	struct oib_mad_send_buf *send_buf;
	enum oib_mad_send_status status;
	enum oib_wc_status wc_status;	/* OIB_MAD_SEND_ERROR: the work completion's status */
	u8 rmpp_status;			/* OIB_MAD_SEND_ABORTED: the receiver's reason */
};

/* A received MAD; valid only during the receive handler call. */
struct oib_mad_recv {
	const struct oib_mad_hdr *mad;	/* len bytes */
	size_t len;			/* OIB_MAD_SIZE, or an RMPP message's headers and data */
	const u8 *grh;			/* OIB_MAD_GRH_SIZE bytes (RoCE: always present) */
	u32 port_num;
	u32 src_qp;
	u16 pkey_index;
};

/*
 * send_handler: one call per posted send buffer.  recv_handler: a request for the agent
 * (send_buf NULL), or the response to send_buf (whose send_handler follows with OIB_MAD_SEND_OK).
 */
typedef void (*oib_mad_send_handler)(struct oib_mad_agent *agent, struct oib_mad_send_wc *wc);
typedef void (*oib_mad_recv_handler)(struct oib_mad_agent *agent,
				     struct oib_mad_send_buf *send_buf,
				     const struct oib_mad_recv *recv);

/*
 * What an agent receives.  mgmt_class 0: a send-only agent (it still gets its responses; no
 * methods).  Otherwise a class of the GSI (not 0x01 or 0x81, QP0's, nor a reserved one), a class
 * version from 1, request methods only (not 0, not TrapRepress), and for vendor range 2 a non-zero
 * OUI.  rmpp_version OIB_RMPP_VERSION, for a send-only agent or a class with an RMPP header: the
 * layer segments the agent's RMPP sends and reassembles RMPP messages for it (requests it takes,
 * responses to its requests), holding at most rmpp_max_bytes (0: OIB_MAD_RMPP_DEFAULT_MAX) of
 * partial messages at once, and answering STOP beyond; 0: the agent sees every segment as a MAD
 * of its own and speaks RMPP itself (and sets no rmpp_max_bytes).
 */
#define OIB_MAD_RMPP_DEFAULT_MAX	SZ_1M

struct oib_mad_reg_req {
	u8 mgmt_class;
	u8 class_version;
	u8 oui[3];			/* vendor range 2 classes only */
	u8 rmpp_version;
	u32 rmpp_max_bytes;
	DECLARE_BITMAP(method_mask, OIB_MGMT_MAX_METHODS);	/* request methods, < 0x80 */
};

struct oib_mad_agent {
	struct oib_device *device;
	u32 port_num;
	u32 hi_tid;			/* high 32 bits of the TIDs of this agent's requests */
	oib_mad_send_handler send_handler;
	oib_mad_recv_handler recv_handler;
	void *context;
};

/*
 * Register an agent on @port's GSI QP (@qp_type must be OIB_QPT_GSI; QP0 does not exist on RoCE).
 * -EINVAL for bad arguments, -ENODEV if the port has no MAD service, -EBUSY if another agent has
 * any of the same methods for the class, version (and OUI).
 */
struct oib_mad_agent *oib_register_mad_agent(struct oib_device *device, u32 port,
					     enum oib_qp_type qp_type,
					     const struct oib_mad_reg_req *req,
					     oib_mad_send_handler send_handler,
					     oib_mad_recv_handler recv_handler, void *context);
/* Synchronous: flushes the agent's MADs, waits for their work requests and its handlers. */
void oib_unregister_mad_agent(struct oib_mad_agent *agent);

/* Address handles on the MAD QP's PD; destroy them with oib_destroy_ah(). */
struct oib_ah *oib_mad_create_ah(struct oib_mad_agent *agent, const struct oib_ah_attr *attr);
/* The address a received MAD came from, to answer it. */
struct oib_ah *oib_mad_create_resp_ah(struct oib_mad_agent *agent, const struct oib_mad_recv *recv);

struct oib_mad_send_buf *oib_create_send_mad(struct oib_mad_agent *agent, struct oib_ah *ah,
					     gfp_t gfp);
/*
 * An RMPP send buffer for a message of @mgmt_class with @data_len bytes of data (up to
 * OIB_MAD_RMPP_MAX_DATA): the owner fills the headers (the RMPP header is the layer's) and the
 * data after them; the layer sends it in segments of OIB_MAD_SIZE - hdr_len data bytes.  The
 * agent must have registered with rmpp_version; -EINVAL otherwise.
 */
#define OIB_MAD_RMPP_MAX_DATA		SZ_16M
struct oib_mad_send_buf *oib_create_rmpp_send_mad(struct oib_mad_agent *agent,
						  struct oib_ah *ah, u8 mgmt_class,
						  size_t data_len, gfp_t gfp);
/*
 * Post: the layer writes the agent's hi_tid into the top of the TID of a request that awaits a
 * response.  -EINVAL: posted before; a buffer whose mad, hdr_len or data_len changed; no AH, or
 * one not from oib_mad_create_ah() on this agent's device; a MAD header of another base version
 * or a class the agent may not send (see struct oib_mad_reg_req); remote_qpn 0 or past 24 bits; a
 * P_Key index past the port's table; a timeout past OIB_MAD_TIMEOUT_MAX_MS, retries without a
 * timeout, or a timeout on a response or from an agent without a receive handler.  -ENODEV: the
 * port is gone or the agent is unregistering.  Any context but hard-irq.
 */
#define OIB_MAD_TIMEOUT_MAX_MS		(60 * 60 * 1000)
int oib_post_send_mad(struct oib_mad_send_buf *send_buf);
void oib_free_send_mad(struct oib_mad_send_buf *send_buf);
/* -ENOENT if it already completed (or is completing). */
int oib_cancel_mad(struct oib_mad_send_buf *send_buf);
/*
 * New timeout for a MAD awaiting its response, counted from now (0 cancels it); a MAD not yet
 * waiting takes it for its next wait.  -ENOENT if it already completed; -EINVAL past
 * OIB_MAD_TIMEOUT_MAX_MS or for a MAD that awaits no response.
 */
int oib_modify_mad(struct oib_mad_send_buf *send_buf, unsigned int timeout_ms);

/* Counters, also in /sys/kernel/debug/oib_mad/<device>/port<N>. */
enum oib_mad_port_stat {
	OIB_MAD_PORT_SENT,		/* work requests posted */
	OIB_MAD_PORT_SEND_ERRORS,	/* work requests completed in error */
	OIB_MAD_PORT_RECEIVED,		/* receive completions with data */
	OIB_MAD_PORT_DISPATCHED,	/* requests given to an agent */
	OIB_MAD_PORT_RESPONSES,		/* responses matched to their request */
	OIB_MAD_PORT_ANSWERED,		/* requests answered with an unsupported status */
	OIB_MAD_PORT_DROP_MALFORMED,	/* wrong size, base version, or QP0-only class */
	OIB_MAD_PORT_DROP_UNMATCHED,	/* responses to nothing we are waiting for */
	OIB_MAD_PORT_DROP_NO_AGENT,	/* requests nobody takes that need no answer */
	OIB_MAD_PORT_TIMEOUTS,		/* waits that expired */
	OIB_MAD_PORT_RETRIES,		/* resends after a timeout */
	OIB_MAD_PORT_RECOVERIES,	/* QP error recoveries */
	OIB_MAD_PORT_MAX_OUTSTANDING,	/* high-water mark of posted work requests */
	OIB_MAD_PORT_HELD,		/* requests held back: too many awaited responses */
	OIB_MAD_PORT_MAX_AWAITING,	/* high-water mark of requests awaiting responses */
	OIB_MAD_PORT_RMPP,		/* received MADs the RMPP layer took (rmpp_* below) */
	OIB_MAD_PORT_RMPP_SEGS_SENT,	/* RMPP DATA segments posted, resends included */
	OIB_MAD_PORT_RMPP_SEGS_RECV,	/* RMPP DATA segments taken in order */
	OIB_MAD_PORT_RMPP_DUPLICATES,	/* RMPP DATA segments received before */
	OIB_MAD_PORT_RMPP_OUT_OF_WINDOW,	/* RMPP DATA segments past a gap or the window */
	OIB_MAD_PORT_RMPP_ACKS_SENT,
	OIB_MAD_PORT_RMPP_ACKS_RECV,
	OIB_MAD_PORT_RMPP_STOPS_SENT,	/* STOP and ABORT sent */
	OIB_MAD_PORT_RMPP_STOPS_RECV,	/* STOP and ABORT received for a transfer of ours */
	OIB_MAD_PORT_RMPP_REASSEMBLED,	/* messages delivered whole */
	OIB_MAD_PORT_RMPP_DISCARDED,	/* partial messages dropped: aborted, idle, agent gone */
	OIB_MAD_PORT_NSTATS,
};

u64 oib_mad_port_stat(struct oib_device *device, u32 port, enum oib_mad_port_stat stat);

#endif /* OIB_MAD_H */
