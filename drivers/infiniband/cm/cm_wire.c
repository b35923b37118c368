// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CM's wire format: the eleven message bodies as packed structs of big-endian fields at the
 * offsets of IBTA vol. 1 tables 106-121 (checked at build time below), and one pack and one
 * unpack that move every field between them and the unpacked forms of
 * <oib/kunit/cm_wire.h>.  Fields narrower than a byte or a word share a big-endian word with
 * their neighbours; cm_bits() and cm_unbits() put and take them by shift and width, most
 * significant bits first as the tables number them.
 */
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include <oib/names.h>
#include <oib/kunit/cm_wire.h>

/* ---- The bodies, after the 24-byte MAD header ---- */

/* A path in a REQ (primary at 52, alternate at 96). */
struct cm_path_req_wire {
	__be16 local_lid;
	__be16 remote_lid;
	u8 local_gid[16];
	u8 remote_gid[16];
	__be32 flow_rate;		/* flow label:20, reserved:6, packet rate:6 */
	u8 traffic_class;
	u8 hop_limit;
	u8 sl_subnet;			/* SL:4, subnet local:1, reserved:3 */
	u8 ack_timeout;			/* local ACK timeout:5, then (alternate) SAP:1, reserved */
} __packed;

/* The alternate path of a LAP (at 20): the same fields in another order. */
struct cm_path_lap_wire {
	__be16 local_lid;
	__be16 remote_lid;
	u8 local_gid[16];
	u8 remote_gid[16];
	__be32 flow_tclass;		/* flow label:20, reserved:4, traffic class:8 */
	u8 hop_limit;
	u8 packet_rate;			/* reserved:2, packet rate:6 */
	u8 sl_subnet;			/* SL:4, subnet local:1, reserved:3 */
	u8 ack_timeout;			/* local ACK timeout:5, reserved:3 */
} __packed;

struct cm_req_wire {
	__be32 local_comm_id;
	__be32 vendor_id;		/* reserved:8, vendor ID:24 */
	__be64 service_id;
	__be64 local_ca_guid;
	__be32 reserved24;
	__be32 local_qkey;
	__be32 qpn_rres;		/* local QPN:24, responder resources:8 */
	__be32 eecn_idepth;		/* local EECN:24, initiator depth:8 */
	__be32 reecn_flags;		/* remote EECN:24, remote CM timeout:5, transport:2, e2e */
	__be32 psn_flags;		/* starting PSN:24, local CM timeout:5, retry count:3 */
	__be16 pkey;
	u8 mtu_flags;			/* path MTU:4, RDC exists:1, RNR retry count:3 */
	u8 retry_flags;			/* max CM retries:4, SRQ:1, extended transport:3 */
	struct cm_path_req_wire primary;
	struct cm_path_req_wire alternate;
	u8 pdata[OIB_CM_REQ_PRIVATE_DATA_SIZE];
} __packed;

struct cm_mra_wire {
	__be32 local_comm_id;
	__be32 remote_comm_id;
	u8 msg_mraed;			/* message MRAed:2, reserved:6 */
	u8 service_timeout;		/* service timeout:5, reserved:3 */
	u8 pdata[OIB_CM_MRA_PRIVATE_DATA_SIZE];
} __packed;

struct cm_rej_wire {
	__be32 local_comm_id;
	__be32 remote_comm_id;
	u8 msg_rejected;		/* message rejected:2, reserved:6 */
	u8 ari_len;			/* rejection info length:7, reserved:1 */
	__be16 reason;
	u8 ari[OIB_CM_ARI_LENGTH];
	u8 pdata[OIB_CM_REJ_PRIVATE_DATA_SIZE];
} __packed;

struct cm_rep_wire {
	__be32 local_comm_id;
	__be32 remote_comm_id;
	__be32 local_qkey;
	__be32 qpn_vendor_hi;		/* local QPN:24, vendor ID bits 23-16 */
	__be32 eecn_vendor_mid;		/* local EECN:24, vendor ID bits 15-8 */
	__be32 psn_vendor_lo;		/* starting PSN:24, vendor ID bits 7-0 */
	u8 responder_resources;
	u8 initiator_depth;
	u8 ack_flags;			/* target ACK delay:5, failover:2, e2e:1 */
	u8 rnr_srq;			/* RNR retry count:3, SRQ:1, reserved:4 */
	__be64 local_ca_guid;
	u8 pdata[OIB_CM_REP_PRIVATE_DATA_SIZE];
} __packed;

struct cm_ids_wire {			/* RTU, DREP */
	__be32 local_comm_id;
	__be32 remote_comm_id;
	u8 pdata[OIB_CM_RTU_PRIVATE_DATA_SIZE];
} __packed;

struct cm_dreq_wire {
	__be32 local_comm_id;
	__be32 remote_comm_id;
	__be32 remote_qpn;		/* remote QPN/EECN:24, reserved:8 */
	u8 pdata[OIB_CM_DREQ_PRIVATE_DATA_SIZE];
} __packed;

struct cm_sidr_req_wire {
	__be32 request_id;
	__be16 pkey;
	__be16 reserved;
	__be64 service_id;
	u8 pdata[OIB_CM_SIDR_REQ_PRIVATE_DATA_SIZE];
} __packed;

struct cm_sidr_rep_wire {
	__be32 request_id;
	u8 status;
	u8 info_len;
	__be16 vendor_hi;		/* vendor ID bits 23-8 */
	__be32 qpn_vendor_lo;		/* QPN:24, vendor ID bits 7-0 */
	__be64 service_id;
	__be32 qkey;
	u8 info[OIB_CM_SIDR_INFO_LENGTH];
	u8 pdata[OIB_CM_SIDR_REP_PRIVATE_DATA_SIZE];
} __packed;

struct cm_lap_wire {
	__be32 local_comm_id;
	__be32 remote_comm_id;
	__be32 reserved8;
	__be32 qpn_timeout;		/* remote QPN/EECN:24, remote CM timeout:5, reserved:3 */
	__be32 reserved16;
	struct cm_path_lap_wire alternate;
	u8 pdata[OIB_CM_LAP_PRIVATE_DATA_SIZE];
} __packed;

struct cm_apr_wire {
	__be32 local_comm_id;
	__be32 remote_comm_id;
	u8 info_len;
	u8 status;
	__be16 reserved;
	u8 info[OIB_CM_APR_INFO_LENGTH];
	u8 pdata[OIB_CM_APR_PRIVATE_DATA_SIZE];
} __packed;

struct cm_mad_wire {
	struct oib_mad_hdr hdr;
	union {
		struct cm_req_wire req;
		struct cm_mra_wire mra;
		struct cm_rej_wire rej;
		struct cm_rep_wire rep;
		struct cm_ids_wire ids;
		struct cm_dreq_wire dreq;
		struct cm_sidr_req_wire sidr_req;
		struct cm_sidr_rep_wire sidr_rep;
		struct cm_lap_wire lap;
		struct cm_apr_wire apr;
		u8 raw[CM_BODY_SIZE];
	};
} __packed;

/* The tables' offsets, counted from the end of the MAD header. */
#define CM_AT(type, field, off)	static_assert(offsetof(type, field) == (off))
CM_AT(struct cm_req_wire, service_id, 8);
CM_AT(struct cm_req_wire, local_qkey, 28);
CM_AT(struct cm_req_wire, qpn_rres, 32);
CM_AT(struct cm_req_wire, reecn_flags, 40);
CM_AT(struct cm_req_wire, pkey, 48);
CM_AT(struct cm_req_wire, primary.local_gid, 56);
CM_AT(struct cm_req_wire, primary.flow_rate, 88);
CM_AT(struct cm_req_wire, primary.ack_timeout, 95);
CM_AT(struct cm_req_wire, alternate.ack_timeout, 139);
CM_AT(struct cm_req_wire, pdata, 140);
CM_AT(struct cm_mra_wire, pdata, 10);
CM_AT(struct cm_rej_wire, ari, 12);
CM_AT(struct cm_rej_wire, pdata, 84);
CM_AT(struct cm_rep_wire, responder_resources, 24);
CM_AT(struct cm_rep_wire, local_ca_guid, 28);
CM_AT(struct cm_rep_wire, pdata, 36);
CM_AT(struct cm_ids_wire, pdata, 8);
CM_AT(struct cm_dreq_wire, pdata, 12);
CM_AT(struct cm_sidr_req_wire, pdata, 16);
CM_AT(struct cm_sidr_rep_wire, service_id, 12);
CM_AT(struct cm_sidr_rep_wire, info, 24);
CM_AT(struct cm_sidr_rep_wire, pdata, 96);
CM_AT(struct cm_lap_wire, alternate.flow_tclass, 56);
CM_AT(struct cm_lap_wire, pdata, 64);
CM_AT(struct cm_apr_wire, pdata, 84);
CM_AT(struct cm_mad_wire, req, OIB_MAD_HDR_SIZE);
static_assert(sizeof(struct cm_req_wire) == CM_BODY_SIZE);
static_assert(sizeof(struct cm_mra_wire) == CM_BODY_SIZE);
static_assert(sizeof(struct cm_rej_wire) == CM_BODY_SIZE);
static_assert(sizeof(struct cm_rep_wire) == CM_BODY_SIZE);
static_assert(sizeof(struct cm_ids_wire) == CM_BODY_SIZE);
static_assert(sizeof(struct cm_dreq_wire) == CM_BODY_SIZE);
static_assert(sizeof(struct cm_sidr_req_wire) == CM_BODY_SIZE);
static_assert(sizeof(struct cm_sidr_rep_wire) == CM_BODY_SIZE);
static_assert(sizeof(struct cm_lap_wire) == CM_BODY_SIZE);
static_assert(sizeof(struct cm_apr_wire) == CM_BODY_SIZE);
static_assert(sizeof(struct cm_mad_wire) == OIB_MAD_SIZE);
static_assert(OIB_CM_DREP_PRIVATE_DATA_SIZE == OIB_CM_RTU_PRIVATE_DATA_SIZE);

/* ---- The messages: attribute ID, private data size, name ---- */

static const struct {
	u16 attr_id;
	u8 pdata_size;
} cm_msgs[CM_NMSGS] = {
	[CM_MSG_REQ] = { CM_ATTR_REQ, OIB_CM_REQ_PRIVATE_DATA_SIZE },
	[CM_MSG_MRA] = { CM_ATTR_MRA, OIB_CM_MRA_PRIVATE_DATA_SIZE },
	[CM_MSG_REJ] = { CM_ATTR_REJ, OIB_CM_REJ_PRIVATE_DATA_SIZE },
	[CM_MSG_REP] = { CM_ATTR_REP, OIB_CM_REP_PRIVATE_DATA_SIZE },
	[CM_MSG_RTU] = { CM_ATTR_RTU, OIB_CM_RTU_PRIVATE_DATA_SIZE },
	[CM_MSG_DREQ] = { CM_ATTR_DREQ, OIB_CM_DREQ_PRIVATE_DATA_SIZE },
	[CM_MSG_DREP] = { CM_ATTR_DREP, OIB_CM_DREP_PRIVATE_DATA_SIZE },
	[CM_MSG_SIDR_REQ] = { CM_ATTR_SIDR_REQ, OIB_CM_SIDR_REQ_PRIVATE_DATA_SIZE },
	[CM_MSG_SIDR_REP] = { CM_ATTR_SIDR_REP, OIB_CM_SIDR_REP_PRIVATE_DATA_SIZE },
	[CM_MSG_LAP] = { CM_ATTR_LAP, OIB_CM_LAP_PRIVATE_DATA_SIZE },
	[CM_MSG_APR] = { CM_ATTR_APR, OIB_CM_APR_PRIVATE_DATA_SIZE },
};

static const char * const cm_msg_names[CM_NMSGS] = {
	[CM_MSG_REQ] = "req", [CM_MSG_MRA] = "mra", [CM_MSG_REJ] = "rej", [CM_MSG_REP] = "rep",
	[CM_MSG_RTU] = "rtu", [CM_MSG_DREQ] = "dreq", [CM_MSG_DREP] = "drep",
	[CM_MSG_SIDR_REQ] = "sidr_req", [CM_MSG_SIDR_REP] = "sidr_rep", [CM_MSG_LAP] = "lap",
	[CM_MSG_APR] = "apr",
};

static const char * const cm_wire_err_names[CM_WIRE_NERRS] = {
	[CM_WIRE_OK] = "ok", [CM_WIRE_ERR_ARG] = "arg", [CM_WIRE_ERR_LENGTH] = "length",
	[CM_WIRE_ERR_BASE_VERSION] = "base_version", [CM_WIRE_ERR_CLASS] = "class",
	[CM_WIRE_ERR_CLASS_VERSION] = "class_version", [CM_WIRE_ERR_METHOD] = "method",
	[CM_WIRE_ERR_ATTR_ID] = "attr_id", [CM_WIRE_ERR_RANGE] = "range",
	[CM_WIRE_ERR_PDATA_LEN] = "pdata_len", [CM_WIRE_ERR_INFO_LEN] = "info_len",
	[CM_WIRE_ERR_MTU] = "mtu", [CM_WIRE_ERR_TRANSPORT] = "transport",
	[CM_WIRE_ERR_MSG_CODE] = "msg_code", [CM_WIRE_ERR_REJ_REASON] = "rej_reason",
	[CM_WIRE_ERR_FAILOVER] = "failover", [CM_WIRE_ERR_SIDR_STATUS] = "sidr_status",
	[CM_WIRE_ERR_APR_STATUS] = "apr_status",
};

u32 oib_cm_wire_pdata_size(enum cm_msg_type type)
{
	return type < CM_NMSGS ? cm_msgs[type].pdata_size : 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_wire_pdata_size);

u16 oib_cm_wire_attr_id(enum cm_msg_type type)
{
	return type < CM_NMSGS ? cm_msgs[type].attr_id : 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_wire_attr_id);

const char *oib_cm_wire_msg_name(enum cm_msg_type type)
{
	return oib_enum_name(cm_msg_names, type);
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_wire_msg_name);

const char *oib_cm_wire_err_name(enum cm_wire_err err)
{
	return oib_enum_name(cm_wire_err_names, err);
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_wire_err_name);

/* ---- Sub-word fields ---- */

static bool cm_fits(u64 val, unsigned int width)
{
	return width >= 64 || val < BIT_ULL(width);
}

/* @val (already known to fit) into bits shift..shift+width-1 of a word. */
static u32 cm_bits(u32 val, unsigned int shift, unsigned int width)
{
	return (val & (BIT(width) - 1)) << shift;
}

static u32 cm_unbits(u32 word, unsigned int shift, unsigned int width)
{
	return (word >> shift) & (BIT(width) - 1);
}

/* ---- Checks shared by pack and unpack: reserved encodings of defined fields ---- */

static enum cm_wire_err cm_check_mtu(u8 mtu)
{
	return mtu >= OIB_MTU_256 && mtu <= OIB_MTU_4096 ? CM_WIRE_OK : CM_WIRE_ERR_MTU;
}

static enum cm_wire_err cm_check_msg_code(u8 code)
{
	return code <= CM_MSG_CODE_OTHER ? CM_WIRE_OK : CM_WIRE_ERR_MSG_CODE;
}

/* The wire's transport service type (2 bits) and extended type (3 bits), or an error. */
static enum cm_wire_err cm_transport_decode(u8 type, u8 ext, u8 *transport)
{
	if (type == OIB_CM_TRANSPORT_RC || type == OIB_CM_TRANSPORT_UC ||
	    (type == OIB_CM_TRANSPORT_XRC && ext == 1)) {
		*transport = type;
		return CM_WIRE_OK;
	}
	return CM_WIRE_ERR_TRANSPORT;
}

/* ---- Paths ---- */

static enum cm_wire_err cm_check_path(const struct cm_path *p)
{
	if (!cm_fits(p->flow_label, 20) || !cm_fits(p->packet_rate, 6) || !cm_fits(p->sl, 4) ||
	    !cm_fits(p->local_ack_timeout, 5))
		return CM_WIRE_ERR_RANGE;
	return CM_WIRE_OK;
}

static void cm_pack_path_req(const struct cm_path *p, struct cm_path_req_wire *w)
{
	w->local_lid = cpu_to_be16(p->local_lid);
	w->remote_lid = cpu_to_be16(p->remote_lid);
	memcpy(w->local_gid, p->local_gid.raw, sizeof(w->local_gid));
	memcpy(w->remote_gid, p->remote_gid.raw, sizeof(w->remote_gid));
	w->flow_rate = cpu_to_be32(cm_bits(p->flow_label, 12, 20) | cm_bits(p->packet_rate, 0, 6));
	w->traffic_class = p->traffic_class;
	w->hop_limit = p->hop_limit;
	w->sl_subnet = cm_bits(p->sl, 4, 4) | cm_bits(p->subnet_local, 3, 1);
	w->ack_timeout = cm_bits(p->local_ack_timeout, 3, 5);
}

static void cm_unpack_path_req(const struct cm_path_req_wire *w, struct cm_path *p)
{
	u32 flow_rate = be32_to_cpu(w->flow_rate);

	p->local_lid = be16_to_cpu(w->local_lid);
	p->remote_lid = be16_to_cpu(w->remote_lid);
	memcpy(p->local_gid.raw, w->local_gid, sizeof(w->local_gid));
	memcpy(p->remote_gid.raw, w->remote_gid, sizeof(w->remote_gid));
	p->flow_label = cm_unbits(flow_rate, 12, 20);
	p->packet_rate = cm_unbits(flow_rate, 0, 6);
	p->traffic_class = w->traffic_class;
	p->hop_limit = w->hop_limit;
	p->sl = cm_unbits(w->sl_subnet, 4, 4);
	p->subnet_local = cm_unbits(w->sl_subnet, 3, 1);
	p->local_ack_timeout = cm_unbits(w->ack_timeout, 3, 5);
}

static void cm_pack_path_lap(const struct cm_path *p, struct cm_path_lap_wire *w)
{
	w->local_lid = cpu_to_be16(p->local_lid);
	w->remote_lid = cpu_to_be16(p->remote_lid);
	memcpy(w->local_gid, p->local_gid.raw, sizeof(w->local_gid));
	memcpy(w->remote_gid, p->remote_gid.raw, sizeof(w->remote_gid));
	w->flow_tclass = cpu_to_be32(cm_bits(p->flow_label, 12, 20) |
				     cm_bits(p->traffic_class, 0, 8));
	w->hop_limit = p->hop_limit;
	w->packet_rate = cm_bits(p->packet_rate, 0, 6);
	w->sl_subnet = cm_bits(p->sl, 4, 4) | cm_bits(p->subnet_local, 3, 1);
	w->ack_timeout = cm_bits(p->local_ack_timeout, 3, 5);
}

static void cm_unpack_path_lap(const struct cm_path_lap_wire *w, struct cm_path *p)
{
	u32 flow_tclass = be32_to_cpu(w->flow_tclass);

	p->local_lid = be16_to_cpu(w->local_lid);
	p->remote_lid = be16_to_cpu(w->remote_lid);
	memcpy(p->local_gid.raw, w->local_gid, sizeof(w->local_gid));
	memcpy(p->remote_gid.raw, w->remote_gid, sizeof(w->remote_gid));
	p->flow_label = cm_unbits(flow_tclass, 12, 20);
	p->traffic_class = cm_unbits(flow_tclass, 0, 8);
	p->hop_limit = w->hop_limit;
	p->packet_rate = cm_unbits(w->packet_rate, 0, 6);
	p->sl = cm_unbits(w->sl_subnet, 4, 4);
	p->subnet_local = cm_unbits(w->sl_subnet, 3, 1);
	p->local_ack_timeout = cm_unbits(w->ack_timeout, 3, 5);
}

/* ---- REQ ---- */

static enum cm_wire_err cm_check_req(const struct cm_req *m)
{
	enum cm_wire_err err;
	u8 transport;

	if (!cm_fits(m->vendor_id, 24) || !cm_fits(m->local_qpn, 24) ||
	    !cm_fits(m->starting_psn, 24) || !cm_fits(m->remote_cm_response_timeout, 5) ||
	    !cm_fits(m->local_cm_response_timeout, 5) || !cm_fits(m->retry_count, 3) ||
	    !cm_fits(m->rnr_retry_count, 3) || !cm_fits(m->max_cm_retries, 4))
		return CM_WIRE_ERR_RANGE;
	err = cm_check_path(&m->primary);
	if (err == CM_WIRE_OK)
		err = cm_check_path(&m->alternate);
	if (err == CM_WIRE_OK)
		err = cm_transport_decode(m->transport, m->transport == OIB_CM_TRANSPORT_XRC,
					  &transport);
	return err == CM_WIRE_OK ? cm_check_mtu(m->path_mtu) : err;
}

static enum cm_wire_err cm_pack_req(const struct cm_req *m, struct cm_req_wire *w)
{
	enum cm_wire_err err = cm_check_req(m);
	bool xrc = m->transport == OIB_CM_TRANSPORT_XRC;

	if (err)
		return err;
	w->local_comm_id = cpu_to_be32(m->local_comm_id);
	w->vendor_id = cpu_to_be32(m->vendor_id);
	w->service_id = cpu_to_be64(m->service_id);
	w->local_ca_guid = cpu_to_be64(m->local_ca_guid);
	w->local_qkey = cpu_to_be32(m->local_qkey);
	w->qpn_rres = cpu_to_be32(cm_bits(m->local_qpn, 8, 24) | m->responder_resources);
	w->eecn_idepth = cpu_to_be32(m->initiator_depth);
	w->reecn_flags = cpu_to_be32(cm_bits(m->remote_cm_response_timeout, 3, 5) |
				     cm_bits(m->transport, 1, 2) |
				     cm_bits(m->end_to_end_flow_control, 0, 1));
	w->psn_flags = cpu_to_be32(cm_bits(m->starting_psn, 8, 24) |
				   cm_bits(m->local_cm_response_timeout, 3, 5) |
				   cm_bits(m->retry_count, 0, 3));
	w->pkey = cpu_to_be16(m->pkey);
	w->mtu_flags = cm_bits(m->path_mtu, 4, 4) | cm_bits(m->rnr_retry_count, 0, 3);
	w->retry_flags = cm_bits(m->max_cm_retries, 4, 4) | cm_bits(m->srq, 3, 1) |
			 cm_bits(xrc, 0, 3);
	cm_pack_path_req(&m->primary, &w->primary);
	cm_pack_path_req(&m->alternate, &w->alternate);
	w->alternate.ack_timeout |= cm_bits(m->sap_supported, 2, 1);
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_unpack_req(const struct cm_req_wire *w, struct cm_req *m)
{
	u32 qpn_rres = be32_to_cpu(w->qpn_rres), reecn = be32_to_cpu(w->reecn_flags);
	u32 psn_flags = be32_to_cpu(w->psn_flags);
	enum cm_wire_err err;

	err = cm_transport_decode(cm_unbits(reecn, 1, 2), cm_unbits(w->retry_flags, 0, 3),
				  &m->transport);
	if (err)
		return err;
	m->path_mtu = cm_unbits(w->mtu_flags, 4, 4);
	err = cm_check_mtu(m->path_mtu);
	if (err)
		return err;
	m->local_comm_id = be32_to_cpu(w->local_comm_id);
	m->vendor_id = cm_unbits(be32_to_cpu(w->vendor_id), 0, 24);
	m->service_id = be64_to_cpu(w->service_id);
	m->local_ca_guid = be64_to_cpu(w->local_ca_guid);
	m->local_qkey = be32_to_cpu(w->local_qkey);
	m->local_qpn = cm_unbits(qpn_rres, 8, 24);
	m->responder_resources = cm_unbits(qpn_rres, 0, 8);
	m->initiator_depth = cm_unbits(be32_to_cpu(w->eecn_idepth), 0, 8);
	m->remote_cm_response_timeout = cm_unbits(reecn, 3, 5);
	m->end_to_end_flow_control = cm_unbits(reecn, 0, 1);
	m->starting_psn = cm_unbits(psn_flags, 8, 24);
	m->local_cm_response_timeout = cm_unbits(psn_flags, 3, 5);
	m->retry_count = cm_unbits(psn_flags, 0, 3);
	m->pkey = be16_to_cpu(w->pkey);
	m->rnr_retry_count = cm_unbits(w->mtu_flags, 0, 3);
	m->max_cm_retries = cm_unbits(w->retry_flags, 4, 4);
	m->srq = cm_unbits(w->retry_flags, 3, 1);
	cm_unpack_path_req(&w->primary, &m->primary);
	cm_unpack_path_req(&w->alternate, &m->alternate);
	m->sap_supported = cm_unbits(w->alternate.ack_timeout, 2, 1);
	m->pdata = (struct cm_pdata){ w->pdata, sizeof(w->pdata) };
	return CM_WIRE_OK;
}

/* ---- MRA, REJ ---- */

static enum cm_wire_err cm_pack_mra(const struct cm_mra *m, struct cm_mra_wire *w)
{
	if (!cm_fits(m->msg_mraed, 2) || !cm_fits(m->service_timeout, 5))
		return CM_WIRE_ERR_RANGE;
	if (cm_check_msg_code(m->msg_mraed))
		return CM_WIRE_ERR_MSG_CODE;
	w->local_comm_id = cpu_to_be32(m->local_comm_id);
	w->remote_comm_id = cpu_to_be32(m->remote_comm_id);
	w->msg_mraed = cm_bits(m->msg_mraed, 6, 2);
	w->service_timeout = cm_bits(m->service_timeout, 3, 5);
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_unpack_mra(const struct cm_mra_wire *w, struct cm_mra *m)
{
	m->msg_mraed = cm_unbits(w->msg_mraed, 6, 2);
	if (cm_check_msg_code(m->msg_mraed))
		return CM_WIRE_ERR_MSG_CODE;
	m->local_comm_id = be32_to_cpu(w->local_comm_id);
	m->remote_comm_id = be32_to_cpu(w->remote_comm_id);
	m->service_timeout = cm_unbits(w->service_timeout, 3, 5);
	m->pdata = (struct cm_pdata){ w->pdata, sizeof(w->pdata) };
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_pack_rej(const struct cm_rej *m, struct cm_rej_wire *w)
{
	if (!cm_fits(m->msg_rejected, 2))
		return CM_WIRE_ERR_RANGE;
	if (cm_check_msg_code(m->msg_rejected))
		return CM_WIRE_ERR_MSG_CODE;
	if (m->ari_len > OIB_CM_ARI_LENGTH)
		return CM_WIRE_ERR_INFO_LEN;
	if (!m->reason)
		return CM_WIRE_ERR_REJ_REASON;
	w->local_comm_id = cpu_to_be32(m->local_comm_id);
	w->remote_comm_id = cpu_to_be32(m->remote_comm_id);
	w->msg_rejected = cm_bits(m->msg_rejected, 6, 2);
	w->ari_len = cm_bits(m->ari_len, 1, 7);
	w->reason = cpu_to_be16(m->reason);
	memcpy(w->ari, m->ari, m->ari_len);
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_unpack_rej(const struct cm_rej_wire *w, struct cm_rej *m)
{
	m->msg_rejected = cm_unbits(w->msg_rejected, 6, 2);
	if (cm_check_msg_code(m->msg_rejected))
		return CM_WIRE_ERR_MSG_CODE;
	m->ari_len = cm_unbits(w->ari_len, 1, 7);
	if (m->ari_len > OIB_CM_ARI_LENGTH)
		return CM_WIRE_ERR_INFO_LEN;
	m->reason = be16_to_cpu(w->reason);
	if (!m->reason)
		return CM_WIRE_ERR_REJ_REASON;
	m->local_comm_id = be32_to_cpu(w->local_comm_id);
	m->remote_comm_id = be32_to_cpu(w->remote_comm_id);
	memcpy(m->ari, w->ari, m->ari_len);
	m->pdata = (struct cm_pdata){ w->pdata, sizeof(w->pdata) };
	return CM_WIRE_OK;
}

/* ---- REP ---- */

static enum cm_wire_err cm_pack_rep(const struct cm_rep *m, struct cm_rep_wire *w)
{
	if (!cm_fits(m->local_qpn, 24) || !cm_fits(m->local_eecn, 24) ||
	    !cm_fits(m->vendor_id, 24) || !cm_fits(m->starting_psn, 24) ||
	    !cm_fits(m->target_ack_delay, 5) || !cm_fits(m->failover_accepted, 2) ||
	    !cm_fits(m->rnr_retry_count, 3))
		return CM_WIRE_ERR_RANGE;
	if (m->failover_accepted > 2)
		return CM_WIRE_ERR_FAILOVER;
	w->local_comm_id = cpu_to_be32(m->local_comm_id);
	w->remote_comm_id = cpu_to_be32(m->remote_comm_id);
	w->local_qkey = cpu_to_be32(m->local_qkey);
	w->qpn_vendor_hi = cpu_to_be32(cm_bits(m->local_qpn, 8, 24) |
				       cm_unbits(m->vendor_id, 16, 8));
	w->eecn_vendor_mid = cpu_to_be32(cm_bits(m->local_eecn, 8, 24) |
					 cm_unbits(m->vendor_id, 8, 8));
	w->psn_vendor_lo = cpu_to_be32(cm_bits(m->starting_psn, 8, 24) |
				       cm_unbits(m->vendor_id, 0, 8));
	w->responder_resources = m->responder_resources;
	w->initiator_depth = m->initiator_depth;
	w->ack_flags = cm_bits(m->target_ack_delay, 3, 5) | cm_bits(m->failover_accepted, 1, 2) |
		       cm_bits(m->end_to_end_flow_control, 0, 1);
	w->rnr_srq = cm_bits(m->rnr_retry_count, 5, 3) | cm_bits(m->srq, 4, 1);
	w->local_ca_guid = cpu_to_be64(m->local_ca_guid);
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_unpack_rep(const struct cm_rep_wire *w, struct cm_rep *m)
{
	u32 qpn_hi = be32_to_cpu(w->qpn_vendor_hi), psn_lo = be32_to_cpu(w->psn_vendor_lo);
	u32 mid = be32_to_cpu(w->eecn_vendor_mid);

	m->failover_accepted = cm_unbits(w->ack_flags, 1, 2);
	if (m->failover_accepted > 2)
		return CM_WIRE_ERR_FAILOVER;
	m->local_comm_id = be32_to_cpu(w->local_comm_id);
	m->remote_comm_id = be32_to_cpu(w->remote_comm_id);
	m->local_qkey = be32_to_cpu(w->local_qkey);
	m->local_qpn = cm_unbits(qpn_hi, 8, 24);
	m->local_eecn = cm_unbits(mid, 8, 24);
	m->vendor_id = cm_unbits(qpn_hi, 0, 8) << 16 | cm_unbits(mid, 0, 8) << 8 |
		       cm_unbits(psn_lo, 0, 8);
	m->starting_psn = cm_unbits(psn_lo, 8, 24);
	m->responder_resources = w->responder_resources;
	m->initiator_depth = w->initiator_depth;
	m->target_ack_delay = cm_unbits(w->ack_flags, 3, 5);
	m->end_to_end_flow_control = cm_unbits(w->ack_flags, 0, 1);
	m->rnr_retry_count = cm_unbits(w->rnr_srq, 5, 3);
	m->srq = cm_unbits(w->rnr_srq, 4, 1);
	m->local_ca_guid = be64_to_cpu(w->local_ca_guid);
	m->pdata = (struct cm_pdata){ w->pdata, sizeof(w->pdata) };
	return CM_WIRE_OK;
}

/* ---- RTU, DREP, DREQ ---- */

static enum cm_wire_err cm_pack_ids(const struct cm_ids *m, struct cm_ids_wire *w)
{
	w->local_comm_id = cpu_to_be32(m->local_comm_id);
	w->remote_comm_id = cpu_to_be32(m->remote_comm_id);
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_unpack_ids(const struct cm_ids_wire *w, struct cm_ids *m)
{
	m->local_comm_id = be32_to_cpu(w->local_comm_id);
	m->remote_comm_id = be32_to_cpu(w->remote_comm_id);
	m->pdata = (struct cm_pdata){ w->pdata, sizeof(w->pdata) };
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_pack_dreq(const struct cm_dreq *m, struct cm_dreq_wire *w)
{
	if (!cm_fits(m->remote_qpn, 24))
		return CM_WIRE_ERR_RANGE;
	w->local_comm_id = cpu_to_be32(m->local_comm_id);
	w->remote_comm_id = cpu_to_be32(m->remote_comm_id);
	w->remote_qpn = cpu_to_be32(cm_bits(m->remote_qpn, 8, 24));
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_unpack_dreq(const struct cm_dreq_wire *w, struct cm_dreq *m)
{
	m->local_comm_id = be32_to_cpu(w->local_comm_id);
	m->remote_comm_id = be32_to_cpu(w->remote_comm_id);
	m->remote_qpn = cm_unbits(be32_to_cpu(w->remote_qpn), 8, 24);
	m->pdata = (struct cm_pdata){ w->pdata, sizeof(w->pdata) };
	return CM_WIRE_OK;
}

/* ---- SIDR ---- */

static enum cm_wire_err cm_pack_sidr_req(const struct cm_sidr_req *m, struct cm_sidr_req_wire *w)
{
	w->request_id = cpu_to_be32(m->request_id);
	w->pkey = cpu_to_be16(m->pkey);
	w->service_id = cpu_to_be64(m->service_id);
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_unpack_sidr_req(const struct cm_sidr_req_wire *w,
					   struct cm_sidr_req *m)
{
	m->request_id = be32_to_cpu(w->request_id);
	m->pkey = be16_to_cpu(w->pkey);
	m->service_id = be64_to_cpu(w->service_id);
	m->pdata = (struct cm_pdata){ w->pdata, sizeof(w->pdata) };
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_pack_sidr_rep(const struct cm_sidr_rep *m, struct cm_sidr_rep_wire *w)
{
	if (!cm_fits(m->vendor_id, 24) || !cm_fits(m->qpn, 24))
		return CM_WIRE_ERR_RANGE;
	if (m->status >= OIB_CM_SIDR_NSTATUS)
		return CM_WIRE_ERR_SIDR_STATUS;
	if (m->info_len > OIB_CM_SIDR_INFO_LENGTH)
		return CM_WIRE_ERR_INFO_LEN;
	w->request_id = cpu_to_be32(m->request_id);
	w->status = m->status;
	w->info_len = m->info_len;
	w->vendor_hi = cpu_to_be16(cm_unbits(m->vendor_id, 8, 16));
	w->qpn_vendor_lo = cpu_to_be32(cm_bits(m->qpn, 8, 24) | cm_unbits(m->vendor_id, 0, 8));
	w->service_id = cpu_to_be64(m->service_id);
	w->qkey = cpu_to_be32(m->qkey);
	memcpy(w->info, m->info, m->info_len);
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_unpack_sidr_rep(const struct cm_sidr_rep_wire *w,
					   struct cm_sidr_rep *m)
{
	u32 qpn_lo = be32_to_cpu(w->qpn_vendor_lo);

	if (w->status >= OIB_CM_SIDR_NSTATUS)
		return CM_WIRE_ERR_SIDR_STATUS;
	if (w->info_len > OIB_CM_SIDR_INFO_LENGTH)
		return CM_WIRE_ERR_INFO_LEN;
	m->request_id = be32_to_cpu(w->request_id);
	m->status = w->status;
	m->info_len = w->info_len;
	m->vendor_id = (u32)be16_to_cpu(w->vendor_hi) << 8 | cm_unbits(qpn_lo, 0, 8);
	m->qpn = cm_unbits(qpn_lo, 8, 24);
	m->service_id = be64_to_cpu(w->service_id);
	m->qkey = be32_to_cpu(w->qkey);
	memcpy(m->info, w->info, m->info_len);
	m->pdata = (struct cm_pdata){ w->pdata, sizeof(w->pdata) };
	return CM_WIRE_OK;
}

/* ---- LAP, APR ---- */

static enum cm_wire_err cm_pack_lap(const struct cm_lap *m, struct cm_lap_wire *w)
{
	if (!cm_fits(m->remote_qpn, 24) || !cm_fits(m->remote_cm_response_timeout, 5))
		return CM_WIRE_ERR_RANGE;
	if (cm_check_path(&m->alternate))
		return CM_WIRE_ERR_RANGE;
	w->local_comm_id = cpu_to_be32(m->local_comm_id);
	w->remote_comm_id = cpu_to_be32(m->remote_comm_id);
	w->qpn_timeout = cpu_to_be32(cm_bits(m->remote_qpn, 8, 24) |
				     cm_bits(m->remote_cm_response_timeout, 3, 5));
	cm_pack_path_lap(&m->alternate, &w->alternate);
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_unpack_lap(const struct cm_lap_wire *w, struct cm_lap *m)
{
	u32 qpn_timeout = be32_to_cpu(w->qpn_timeout);

	m->local_comm_id = be32_to_cpu(w->local_comm_id);
	m->remote_comm_id = be32_to_cpu(w->remote_comm_id);
	m->remote_qpn = cm_unbits(qpn_timeout, 8, 24);
	m->remote_cm_response_timeout = cm_unbits(qpn_timeout, 3, 5);
	cm_unpack_path_lap(&w->alternate, &m->alternate);
	m->pdata = (struct cm_pdata){ w->pdata, sizeof(w->pdata) };
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_pack_apr(const struct cm_apr *m, struct cm_apr_wire *w)
{
	if (m->info_len > OIB_CM_APR_INFO_LENGTH)
		return CM_WIRE_ERR_INFO_LEN;
	if (m->status >= OIB_CM_APR_NSTATUS)
		return CM_WIRE_ERR_APR_STATUS;
	w->local_comm_id = cpu_to_be32(m->local_comm_id);
	w->remote_comm_id = cpu_to_be32(m->remote_comm_id);
	w->info_len = m->info_len;
	w->status = m->status;
	memcpy(w->info, m->info, m->info_len);
	return CM_WIRE_OK;
}

static enum cm_wire_err cm_unpack_apr(const struct cm_apr_wire *w, struct cm_apr *m)
{
	if (w->info_len > OIB_CM_APR_INFO_LENGTH)
		return CM_WIRE_ERR_INFO_LEN;
	if (w->status >= OIB_CM_APR_NSTATUS)
		return CM_WIRE_ERR_APR_STATUS;
	m->local_comm_id = be32_to_cpu(w->local_comm_id);
	m->remote_comm_id = be32_to_cpu(w->remote_comm_id);
	m->info_len = w->info_len;
	m->status = w->status;
	memcpy(m->info, w->info, m->info_len);
	m->pdata = (struct cm_pdata){ w->pdata, sizeof(w->pdata) };
	return CM_WIRE_OK;
}

/* ---- Pack ---- */

static const struct cm_pdata *cm_msg_pdata(const struct cm_msg *msg)
{
	switch (msg->type) {
	case CM_MSG_REQ: return &msg->req.pdata;
	case CM_MSG_MRA: return &msg->mra.pdata;
	case CM_MSG_REJ: return &msg->rej.pdata;
	case CM_MSG_REP: return &msg->rep.pdata;
	case CM_MSG_RTU: return &msg->rtu.pdata;
	case CM_MSG_DREQ: return &msg->dreq.pdata;
	case CM_MSG_DREP: return &msg->drep.pdata;
	case CM_MSG_SIDR_REQ: return &msg->sidr_req.pdata;
	case CM_MSG_SIDR_REP: return &msg->sidr_rep.pdata;
	case CM_MSG_LAP: return &msg->lap.pdata;
	default: return &msg->apr.pdata;
	}
}

static enum cm_wire_err cm_pack_body(const struct cm_msg *msg, struct cm_mad_wire *w)
{
	switch (msg->type) {
	case CM_MSG_REQ: return cm_pack_req(&msg->req, &w->req);
	case CM_MSG_MRA: return cm_pack_mra(&msg->mra, &w->mra);
	case CM_MSG_REJ: return cm_pack_rej(&msg->rej, &w->rej);
	case CM_MSG_REP: return cm_pack_rep(&msg->rep, &w->rep);
	case CM_MSG_RTU: return cm_pack_ids(&msg->rtu, &w->ids);
	case CM_MSG_DREQ: return cm_pack_dreq(&msg->dreq, &w->dreq);
	case CM_MSG_DREP: return cm_pack_ids(&msg->drep, &w->ids);
	case CM_MSG_SIDR_REQ: return cm_pack_sidr_req(&msg->sidr_req, &w->sidr_req);
	case CM_MSG_SIDR_REP: return cm_pack_sidr_rep(&msg->sidr_rep, &w->sidr_rep);
	case CM_MSG_LAP: return cm_pack_lap(&msg->lap, &w->lap);
	default: return cm_pack_apr(&msg->apr, &w->apr);
	}
}

/* Every message's private data ends the body. */
static u8 *cm_body_pdata(struct cm_mad_wire *w, enum cm_msg_type type)
{
	return w->raw + CM_BODY_SIZE - cm_msgs[type].pdata_size;
}

static enum cm_wire_err cm_pack(const struct cm_msg *msg, struct cm_mad_wire *w)
{
	const struct cm_pdata *pdata;
	enum cm_wire_err err;

	if (msg->type >= CM_NMSGS)
		return CM_WIRE_ERR_ARG;
	pdata = cm_msg_pdata(msg);
	if (pdata->len > cm_msgs[msg->type].pdata_size)
		return CM_WIRE_ERR_PDATA_LEN;
	if (pdata->len && !pdata->data)
		return CM_WIRE_ERR_ARG;
	memset(w, 0, sizeof(*w));
	err = cm_pack_body(msg, w);
	if (err)
		return err;
	if (pdata->len)
		memcpy(cm_body_pdata(w, msg->type), pdata->data, pdata->len);
	w->hdr.base_version = OIB_MAD_BASE_VERSION;
	w->hdr.mgmt_class = OIB_MGMT_CLASS_CM;
	w->hdr.class_version = CM_CLASS_VERSION;
	w->hdr.method = OIB_MGMT_METHOD_SEND;
	w->hdr.tid = cpu_to_be64(msg->tid);
	w->hdr.attr_id = cpu_to_be16(cm_msgs[msg->type].attr_id);
	w->hdr.attr_mod = cpu_to_be32(msg->attr_mod);
	return CM_WIRE_OK;
}

int oib_cm_wire_pack(const struct cm_msg *msg, void *mad, size_t len, enum cm_wire_err *why)
{
	enum cm_wire_err err;

	if (!msg || !mad)
		err = CM_WIRE_ERR_ARG;
	else if (len < OIB_MAD_SIZE)
		err = CM_WIRE_ERR_LENGTH;
	else
		err = cm_pack(msg, mad);
	if (why)
		*why = err;
	return err ? -EINVAL : 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_wire_pack);

/* ---- Unpack ---- */

static enum cm_wire_err cm_check_hdr(const struct oib_mad_hdr *hdr, u8 *type)
{
	u16 attr_id = be16_to_cpu(hdr->attr_id);
	unsigned int i;

	if (hdr->base_version != OIB_MAD_BASE_VERSION)
		return CM_WIRE_ERR_BASE_VERSION;
	if (hdr->mgmt_class != OIB_MGMT_CLASS_CM)
		return CM_WIRE_ERR_CLASS;
	if (hdr->class_version != CM_CLASS_VERSION)
		return CM_WIRE_ERR_CLASS_VERSION;
	if (hdr->method != OIB_MGMT_METHOD_SEND)
		return CM_WIRE_ERR_METHOD;
	for (i = 0; i < CM_NMSGS; i++) {
		if (cm_msgs[i].attr_id == attr_id) {
			*type = i;
			return CM_WIRE_OK;
		}
	}
	return CM_WIRE_ERR_ATTR_ID;
}

static enum cm_wire_err cm_unpack_body(const struct cm_mad_wire *w, struct cm_msg *msg)
{
	switch (msg->type) {
	case CM_MSG_REQ: return cm_unpack_req(&w->req, &msg->req);
	case CM_MSG_MRA: return cm_unpack_mra(&w->mra, &msg->mra);
	case CM_MSG_REJ: return cm_unpack_rej(&w->rej, &msg->rej);
	case CM_MSG_REP: return cm_unpack_rep(&w->rep, &msg->rep);
	case CM_MSG_RTU: return cm_unpack_ids(&w->ids, &msg->rtu);
	case CM_MSG_DREQ: return cm_unpack_dreq(&w->dreq, &msg->dreq);
	case CM_MSG_DREP: return cm_unpack_ids(&w->ids, &msg->drep);
	case CM_MSG_SIDR_REQ: return cm_unpack_sidr_req(&w->sidr_req, &msg->sidr_req);
	case CM_MSG_SIDR_REP: return cm_unpack_sidr_rep(&w->sidr_rep, &msg->sidr_rep);
	case CM_MSG_LAP: return cm_unpack_lap(&w->lap, &msg->lap);
	default: return cm_unpack_apr(&w->apr, &msg->apr);
	}
}

static enum cm_wire_err cm_unpack(const struct cm_mad_wire *w, struct cm_msg *msg)
{
	enum cm_wire_err err;
	u8 type;

	err = cm_check_hdr(&w->hdr, &type);
	if (err)
		return err;
	memset(msg, 0, sizeof(*msg));
	msg->type = type;
	msg->tid = be64_to_cpu(w->hdr.tid);
	msg->attr_mod = be32_to_cpu(w->hdr.attr_mod);
	err = cm_unpack_body(w, msg);
	if (err)
		memset(msg, 0, sizeof(*msg));
	return err;
}

static int cm_unpack_errno(enum cm_wire_err err)
{
	switch (err) {
	case CM_WIRE_OK:
		return 0;
	case CM_WIRE_ERR_ARG:
		return -EINVAL;
	case CM_WIRE_ERR_LENGTH:
	case CM_WIRE_ERR_BASE_VERSION:
	case CM_WIRE_ERR_CLASS:
	case CM_WIRE_ERR_CLASS_VERSION:
	case CM_WIRE_ERR_METHOD:
	case CM_WIRE_ERR_ATTR_ID:
		return -EBADMSG;
	default:
		return -EPROTO;
	}
}

int oib_cm_wire_unpack(const void *mad, size_t len, struct cm_msg *msg, enum cm_wire_err *why)
{
	enum cm_wire_err err;

	if (!mad || !msg)
		err = CM_WIRE_ERR_ARG;
	else if (len != OIB_MAD_SIZE)
		err = CM_WIRE_ERR_LENGTH;
	else
		err = cm_unpack(mad, msg);
	if (why)
		*why = err;
	return cm_unpack_errno(err);
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_wire_unpack);
