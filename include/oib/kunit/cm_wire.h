/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CM's wire format (IBTA vol. 1, 12.6; byte-exact with the in-tree ib_cm): every CM message
 * is one 256-byte MAD of class 0x07, class version 2, method SEND, its attribute ID naming the
 * message, followed by a 232-byte body.  Here each message has an unpacked form (plain fields in
 * CPU order) and one pack and one unpack for all of them (cm_wire.c).
 *
 * Facts the callers build on (not checked here, the wire cannot tell):
 * - Communication IDs: each side's 32-bit LocalCommID names its end of the connection; every
 *   message after the REQ carries both (the receiver's as RemoteCommID).  A REJ sent before the
 *   sender had its own ID carries LocalCommID 0.
 * - TIDs: REQ and DREQ carry a new TID (the agent's 32-bit hi_tid over the local comm ID); REP,
 *   MRA, RTU and REJ reuse the REQ's TID, DREP the DREQ's.  Receivers match comm IDs, never TIDs.
 * - AttributeModifier: the ECE value in REQ and REP, 0 in every other message.
 */
#ifndef OIB_CM_WIRE_H
#define OIB_CM_WIRE_H

#include <linux/types.h>
#include <oib/cm.h>
#include <oib/mad.h>
#include <oib/verbs.h>

#define CM_CLASS_VERSION	2
#define CM_BODY_SIZE		(OIB_MAD_SIZE - OIB_MAD_HDR_SIZE)	/* 232 */

/* Attribute IDs (table 104).  ClassPortInfo (0x0001) is the only CM MAD that is not SEND. */
#define CM_ATTR_CLASS_PORT_INFO	0x0001
#define CM_ATTR_REQ		0x0010
#define CM_ATTR_MRA		0x0011
#define CM_ATTR_REJ		0x0012
#define CM_ATTR_REP		0x0013
#define CM_ATTR_RTU		0x0014
#define CM_ATTR_DREQ		0x0015
#define CM_ATTR_DREP		0x0016
#define CM_ATTR_SIDR_REQ	0x0017
#define CM_ATTR_SIDR_REP	0x0018
#define CM_ATTR_LAP		0x0019
#define CM_ATTR_APR		0x001a

/* The messages, in attribute ID order. */
enum cm_msg_type {
	CM_MSG_REQ,
	CM_MSG_MRA,
	CM_MSG_REJ,
	CM_MSG_REP,
	CM_MSG_RTU,
	CM_MSG_DREQ,
	CM_MSG_DREP,
	CM_MSG_SIDR_REQ,
	CM_MSG_SIDR_REP,
	CM_MSG_LAP,
	CM_MSG_APR,
	CM_NMSGS
};

/* Which message an MRA or REJ answers (MRA: MessageMRAed, REJ: MessageRejected; 2 bits). */
enum cm_msg_code {
	CM_MSG_CODE_REQ = 0,
	CM_MSG_CODE_REP = 1,
	CM_MSG_CODE_OTHER = 2,	/* MRA: a LAP; REJ: anything else */
};

/*
 * Why a message was refused: a counter can be keyed by it.  pack() refuses with -EINVAL;
 * unpack() with -EINVAL for bad arguments, -EBADMSG when the MAD is not a CM message of a kind
 * we know (length, header), -EPROTO when its body holds a value the protocol does not have.
 */
enum cm_wire_err {
	CM_WIRE_OK,
	CM_WIRE_ERR_ARG,		/* NULL pointer, unknown message type */
	CM_WIRE_ERR_LENGTH,		/* the MAD is not 256 bytes */
	CM_WIRE_ERR_BASE_VERSION,
	CM_WIRE_ERR_CLASS,
	CM_WIRE_ERR_CLASS_VERSION,
	CM_WIRE_ERR_METHOD,
	CM_WIRE_ERR_ATTR_ID,		/* not one of the eleven messages */
	CM_WIRE_ERR_RANGE,		/* pack: a value wider than its field */
	CM_WIRE_ERR_PDATA_LEN,		/* pack: more private data than the message carries */
	CM_WIRE_ERR_INFO_LEN,		/* ARI or additional information longer than 72 bytes */
	CM_WIRE_ERR_MTU,		/* not 256..4096 */
	CM_WIRE_ERR_TRANSPORT,		/* RD, or a reserved transport or extended type */
	CM_WIRE_ERR_MSG_CODE,		/* MRA or REJ code 3 */
	CM_WIRE_ERR_REJ_REASON,		/* reason 0 */
	CM_WIRE_ERR_FAILOVER,		/* REP failover code 3 */
	CM_WIRE_ERR_SIDR_STATUS,
	CM_WIRE_ERR_APR_STATUS,
	CM_WIRE_NERRS
};

/*
 * Private data: @len bytes at @data.  pack() copies them and zero-fills the rest of the field;
 * unpack() points @data at the field inside the MAD (valid as long as the MAD is) and sets @len
 * to the field's size, as the wire has no length of its own.
 */
struct cm_pdata {
	const void *data;
	u32 len;
};

/* A path as REQ (primary, alternate) and LAP (alternate) carry it. */
struct cm_path {
	u16 local_lid;
	u16 remote_lid;
	union oib_gid local_gid;
	union oib_gid remote_gid;
	u32 flow_label;			/* 20 bits */
	u8 packet_rate;			/* 6 bits */
	u8 traffic_class;
	u8 hop_limit;
	u8 sl;				/* 4 bits */
	bool subnet_local;
	u8 local_ack_timeout;		/* 5 bits */
};

struct cm_req {
	u32 local_comm_id;
	u32 vendor_id;			/* 24 bits */
	u64 service_id;
	u64 local_ca_guid;
	u32 local_qkey;
	u32 local_qpn;			/* 24 bits */
	u8 responder_resources;
	u8 initiator_depth;
	u8 remote_cm_response_timeout;	/* 5 bits */
	u8 transport;			/* enum oib_cm_transport */
	bool end_to_end_flow_control;
	u32 starting_psn;		/* 24 bits */
	u8 local_cm_response_timeout;	/* 5 bits */
	u8 retry_count;			/* 3 bits */
	u16 pkey;
	u8 path_mtu;			/* enum oib_mtu, 1..5 */
	u8 rnr_retry_count;		/* 3 bits */
	u8 max_cm_retries;		/* 4 bits */
	bool srq;
	bool sap_supported;
	struct cm_path primary;
	struct cm_path alternate;	/* all zero: none */
	struct cm_pdata pdata;
};

struct cm_mra {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 msg_mraed;			/* enum cm_msg_code */
	u8 service_timeout;		/* 5 bits */
	struct cm_pdata pdata;
};

struct cm_rej {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 msg_rejected;		/* enum cm_msg_code */
	u8 ari_len;			/* 0..72 */
	u16 reason;			/* enum oib_cm_rej_reason */
	u8 ari[OIB_CM_ARI_LENGTH];	/* bytes past ari_len: zero */
	struct cm_pdata pdata;
};

struct cm_rep {
	u32 local_comm_id;
	u32 remote_comm_id;
	u32 local_qkey;
	u32 local_qpn;			/* 24 bits; 0 from an XRC target */
	u32 local_eecn;			/* 24 bits: an XRC target's QPN goes here */
	u32 vendor_id;			/* 24 bits */
	u32 starting_psn;		/* 24 bits */
	u8 responder_resources;
	u8 initiator_depth;
	u8 target_ack_delay;		/* 5 bits */
	u8 failover_accepted;		/* 0 accepted, 1 unsupported, 2 rejected */
	bool end_to_end_flow_control;
	u8 rnr_retry_count;		/* 3 bits */
	bool srq;
	u64 local_ca_guid;
	struct cm_pdata pdata;
};

/* RTU and DREP carry the comm IDs and private data only. */
struct cm_ids {
	u32 local_comm_id;
	u32 remote_comm_id;
	struct cm_pdata pdata;
};

struct cm_dreq {
	u32 local_comm_id;
	u32 remote_comm_id;
	u32 remote_qpn;			/* 24 bits */
	struct cm_pdata pdata;
};

struct cm_sidr_req {
	u32 request_id;
	u16 pkey;
	u64 service_id;
	struct cm_pdata pdata;
};

struct cm_sidr_rep {
	u32 request_id;
	u8 status;			/* enum oib_cm_sidr_status */
	u8 info_len;			/* 0..72 */
	u32 vendor_id;			/* 24 bits */
	u32 qpn;			/* 24 bits */
	u64 service_id;
	u32 qkey;
	u8 info[OIB_CM_SIDR_INFO_LENGTH];
	struct cm_pdata pdata;
};

struct cm_lap {
	u32 local_comm_id;
	u32 remote_comm_id;
	u32 remote_qpn;			/* 24 bits */
	u8 remote_cm_response_timeout;	/* 5 bits */
	struct cm_path alternate;
	struct cm_pdata pdata;
};

struct cm_apr {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 info_len;			/* 0..72 */
	u8 status;			/* enum oib_cm_apr_status */
	u8 info[OIB_CM_APR_INFO_LENGTH];
	struct cm_pdata pdata;
};

/* One message and the MAD header fields that vary. */
struct cm_msg {
	u8 type;			/* enum cm_msg_type */
	u64 tid;
	u32 attr_mod;
	union {
		struct cm_req req;
		struct cm_mra mra;
		struct cm_rej rej;
		struct cm_rep rep;
		struct cm_ids rtu;
		struct cm_dreq dreq;
		struct cm_ids drep;
		struct cm_sidr_req sidr_req;
		struct cm_sidr_rep sidr_rep;
		struct cm_lap lap;
		struct cm_apr apr;
	};
};

/* Build the 256-byte MAD at @mad (@len bytes of room) from @msg.  0 or -EINVAL, *@why set. */
int oib_cm_wire_pack(const struct cm_msg *msg, void *mad, size_t len, enum cm_wire_err *why);

/*
 * Decode the MAD at @mad (@len bytes received) into @msg, whose type comes from the attribute
 * ID.  0, or -EINVAL, -EBADMSG or -EPROTO with *@why set (see enum cm_wire_err).  Reserved
 * fields are ignored, as IBTA asks of receivers; reserved values of defined fields are refused.
 */
int oib_cm_wire_unpack(const void *mad, size_t len, struct cm_msg *msg, enum cm_wire_err *why);

/* The size of a message's private data, its attribute ID, names for logs and counters. */
u32 oib_cm_wire_pdata_size(enum cm_msg_type type);
u16 oib_cm_wire_attr_id(enum cm_msg_type type);
const char *oib_cm_wire_msg_name(enum cm_msg_type type);
const char *oib_cm_wire_err_name(enum cm_wire_err err);

#endif /* OIB_CM_WIRE_H */
