// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the CM wire format (drivers/infiniband/cm/cm_wire.c).
 *
 * The expectations do not come from the code under test: wire_fields[] below is the layout of
 * IBTA vol. 1 tables 106-121 as ../shared/notes/wire-interop.md (section A3) and the 6.12
 * ibta_vol1_c12.h give it, one row per field (byte and bit position, most significant bit
 * first, and width), and wire_image() builds the MAD a message must pack into from that table
 * alone, bit by bit.  Every MAD handed to unpack sits in an allocation of exactly 256 bytes, so
 * KASAN sees any read past it.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <oib/kunit/cm.h>
#include "oib_toolkit.h"

#define WIRE_SEED	0xc0ffee07ULL
#define WIRE_FUZZ	100000		/* MADs per fuzz mode and run */
#define HDR		OIB_MAD_HDR_SIZE
#define B(byte)		((byte) * 8)	/* bit position of a byte in the body */

/* ---- The oracle: every field of every message, where the tables put it ---- */

enum wire_kind { W_U8, W_U16, W_U32, W_U64, W_BOOL, W_BYTES, W_PDATA };

struct wire_field {
	const char *name;
	u8 msg;				/* enum cm_msg_type */
	u8 kind;			/* enum wire_kind: the member's type */
	u16 off;			/* in struct cm_msg */
	u16 size;			/* W_BYTES, W_PDATA: bytes on the wire */
	struct { u16 bit; u8 width; } part[3];	/* the value's bits, most significant first */
	u64 min, max;			/* valid values; max 0: all ones of the width */
	u8 over;			/* why max + 1 or min - 1 is refused (cm_wire_err) */
	s16 len_off;			/* W_BYTES: the member counting the bytes used, or -1 */
};

#define OFF(mem)	offsetof(struct cm_msg, mem)
#define FX(m, mem, k, b, w, mn, mx, er)						\
	{ .name = #mem, .msg = CM_MSG_##m, .kind = W_##k, .off = OFF(mem),		\
	  .part = { { b, w } }, .min = mn, .max = mx, .over = er, .len_off = -1 }
#define FI(m, mem, k, b, w)	FX(m, mem, k, b, w, 0, 0, CM_WIRE_ERR_RANGE)
#define FB(m, mem, b)		FX(m, mem, BOOL, b, 1, 0, 0, CM_WIRE_ERR_RANGE)
#define FS(m, mem, b1, w1, b2, w2, b3, w3)						\
	{ .name = #mem, .msg = CM_MSG_##m, .kind = W_U32, .off = OFF(mem),		\
	  .part = { { b1, w1 }, { b2, w2 }, { b3, w3 } }, .over = CM_WIRE_ERR_RANGE,	\
	  .len_off = -1 }
#define FG(m, mem, b, n, len)								\
	{ .name = #mem, .msg = CM_MSG_##m, .kind = W_BYTES, .off = OFF(mem), .size = n,	\
	  .part = { { b, 0 } }, .len_off = len }
#define FP(m, mem, b, n)								\
	{ .name = #mem, .msg = CM_MSG_##m, .kind = W_PDATA, .off = OFF(mem), .size = n,	\
	  .part = { { b, 0 } }, .len_off = -1 }

static const struct wire_field wire_fields[] = {
	/* REQ, table 106 */
	FI(REQ, req.local_comm_id, U32, B(0), 32),
	FI(REQ, req.vendor_id, U32, B(5), 24),
	FI(REQ, req.service_id, U64, B(8), 64),
	FI(REQ, req.local_ca_guid, U64, B(16), 64),
	FI(REQ, req.local_qkey, U32, B(28), 32),
	FI(REQ, req.local_qpn, U32, B(32), 24),
	FI(REQ, req.responder_resources, U8, B(35), 8),
	FI(REQ, req.initiator_depth, U8, B(39), 8),
	FI(REQ, req.remote_cm_response_timeout, U8, B(43), 5),
	FX(REQ, req.transport, U8, B(43) + 5, 2, 0, OIB_CM_TRANSPORT_UC, CM_WIRE_ERR_TRANSPORT),
	FB(REQ, req.end_to_end_flow_control, B(43) + 7),
	FI(REQ, req.starting_psn, U32, B(44), 24),
	FI(REQ, req.local_cm_response_timeout, U8, B(47), 5),
	FI(REQ, req.retry_count, U8, B(47) + 5, 3),
	FI(REQ, req.pkey, U16, B(48), 16),
	FX(REQ, req.path_mtu, U8, B(50), 4, OIB_MTU_256, OIB_MTU_4096, CM_WIRE_ERR_MTU),
	FI(REQ, req.rnr_retry_count, U8, B(50) + 5, 3),
	FI(REQ, req.max_cm_retries, U8, B(51), 4),
	FB(REQ, req.srq, B(51) + 4),
	FI(REQ, req.primary.local_lid, U16, B(52), 16),
	FI(REQ, req.primary.remote_lid, U16, B(54), 16),
	FG(REQ, req.primary.local_gid, B(56), 16, -1),
	FG(REQ, req.primary.remote_gid, B(72), 16, -1),
	FI(REQ, req.primary.flow_label, U32, B(88), 20),
	FI(REQ, req.primary.packet_rate, U8, B(91) + 2, 6),
	FI(REQ, req.primary.traffic_class, U8, B(92), 8),
	FI(REQ, req.primary.hop_limit, U8, B(93), 8),
	FI(REQ, req.primary.sl, U8, B(94), 4),
	FB(REQ, req.primary.subnet_local, B(94) + 4),
	FI(REQ, req.primary.local_ack_timeout, U8, B(95), 5),
	FI(REQ, req.alternate.local_lid, U16, B(96), 16),
	FI(REQ, req.alternate.remote_lid, U16, B(98), 16),
	FG(REQ, req.alternate.local_gid, B(100), 16, -1),
	FG(REQ, req.alternate.remote_gid, B(116), 16, -1),
	FI(REQ, req.alternate.flow_label, U32, B(132), 20),
	FI(REQ, req.alternate.packet_rate, U8, B(135) + 2, 6),
	FI(REQ, req.alternate.traffic_class, U8, B(136), 8),
	FI(REQ, req.alternate.hop_limit, U8, B(137), 8),
	FI(REQ, req.alternate.sl, U8, B(138), 4),
	FB(REQ, req.alternate.subnet_local, B(138) + 4),
	FI(REQ, req.alternate.local_ack_timeout, U8, B(139), 5),
	FB(REQ, req.sap_supported, B(139) + 5),
	FP(REQ, req.pdata, B(140), 92),
	/* MRA, table 107 */
	FI(MRA, mra.local_comm_id, U32, B(0), 32),
	FI(MRA, mra.remote_comm_id, U32, B(4), 32),
	FX(MRA, mra.msg_mraed, U8, B(8), 2, 0, CM_MSG_CODE_OTHER, CM_WIRE_ERR_MSG_CODE),
	FI(MRA, mra.service_timeout, U8, B(9), 5),
	FP(MRA, mra.pdata, B(10), 222),
	/* REJ, table 108 */
	FI(REJ, rej.local_comm_id, U32, B(0), 32),
	FI(REJ, rej.remote_comm_id, U32, B(4), 32),
	FX(REJ, rej.msg_rejected, U8, B(8), 2, 0, CM_MSG_CODE_OTHER, CM_WIRE_ERR_MSG_CODE),
	FX(REJ, rej.ari_len, U8, B(9), 7, 0, 72, CM_WIRE_ERR_INFO_LEN),
	FX(REJ, rej.reason, U16, B(10), 16, 1, 0, CM_WIRE_ERR_REJ_REASON),
	FG(REJ, rej.ari, B(12), 72, OFF(rej.ari_len)),
	FP(REJ, rej.pdata, B(84), 148),
	/* REP, table 110: the vendor ID is split over bytes 15, 19 and 23 */
	FI(REP, rep.local_comm_id, U32, B(0), 32),
	FI(REP, rep.remote_comm_id, U32, B(4), 32),
	FI(REP, rep.local_qkey, U32, B(8), 32),
	FI(REP, rep.local_qpn, U32, B(12), 24),
	FI(REP, rep.local_eecn, U32, B(16), 24),
	FS(REP, rep.vendor_id, B(15), 8, B(19), 8, B(23), 8),
	FI(REP, rep.starting_psn, U32, B(20), 24),
	FI(REP, rep.responder_resources, U8, B(24), 8),
	FI(REP, rep.initiator_depth, U8, B(25), 8),
	FI(REP, rep.target_ack_delay, U8, B(26), 5),
	FX(REP, rep.failover_accepted, U8, B(26) + 5, 2, 0, 2, CM_WIRE_ERR_FAILOVER),
	FB(REP, rep.end_to_end_flow_control, B(26) + 7),
	FI(REP, rep.rnr_retry_count, U8, B(27), 3),
	FB(REP, rep.srq, B(27) + 3),
	FI(REP, rep.local_ca_guid, U64, B(28), 64),
	FP(REP, rep.pdata, B(36), 196),
	/* RTU, table 111 */
	FI(RTU, rtu.local_comm_id, U32, B(0), 32),
	FI(RTU, rtu.remote_comm_id, U32, B(4), 32),
	FP(RTU, rtu.pdata, B(8), 224),
	/* DREQ, table 112 */
	FI(DREQ, dreq.local_comm_id, U32, B(0), 32),
	FI(DREQ, dreq.remote_comm_id, U32, B(4), 32),
	FI(DREQ, dreq.remote_qpn, U32, B(8), 24),
	FP(DREQ, dreq.pdata, B(12), 220),
	/* DREP, table 113 */
	FI(DREP, drep.local_comm_id, U32, B(0), 32),
	FI(DREP, drep.remote_comm_id, U32, B(4), 32),
	FP(DREP, drep.pdata, B(8), 224),
	/* SIDR_REQ, table 119 */
	FI(SIDR_REQ, sidr_req.request_id, U32, B(0), 32),
	FI(SIDR_REQ, sidr_req.pkey, U16, B(4), 16),
	FI(SIDR_REQ, sidr_req.service_id, U64, B(8), 64),
	FP(SIDR_REQ, sidr_req.pdata, B(16), 216),
	/* SIDR_REP, table 120: the vendor ID is split over bytes 6-7 and 11 */
	FI(SIDR_REP, sidr_rep.request_id, U32, B(0), 32),
	FX(SIDR_REP, sidr_rep.status, U8, B(4), 8, 0, OIB_CM_SIDR_UNSUPPORTED_VERSION,
	   CM_WIRE_ERR_SIDR_STATUS),
	FX(SIDR_REP, sidr_rep.info_len, U8, B(5), 8, 0, 72, CM_WIRE_ERR_INFO_LEN),
	FS(SIDR_REP, sidr_rep.vendor_id, B(6), 16, B(11), 8, 0, 0),
	FI(SIDR_REP, sidr_rep.qpn, U32, B(8), 24),
	FI(SIDR_REP, sidr_rep.service_id, U64, B(12), 64),
	FI(SIDR_REP, sidr_rep.qkey, U32, B(20), 32),
	FG(SIDR_REP, sidr_rep.info, B(24), 72, OFF(sidr_rep.info_len)),
	FP(SIDR_REP, sidr_rep.pdata, B(96), 136),
	/* LAP, table 115: the alternate path in an order of its own */
	FI(LAP, lap.local_comm_id, U32, B(0), 32),
	FI(LAP, lap.remote_comm_id, U32, B(4), 32),
	FI(LAP, lap.remote_qpn, U32, B(12), 24),
	FI(LAP, lap.remote_cm_response_timeout, U8, B(15), 5),
	FI(LAP, lap.alternate.local_lid, U16, B(20), 16),
	FI(LAP, lap.alternate.remote_lid, U16, B(22), 16),
	FG(LAP, lap.alternate.local_gid, B(24), 16, -1),
	FG(LAP, lap.alternate.remote_gid, B(40), 16, -1),
	FI(LAP, lap.alternate.flow_label, U32, B(56), 20),
	FI(LAP, lap.alternate.traffic_class, U8, B(59), 8),
	FI(LAP, lap.alternate.hop_limit, U8, B(60), 8),
	FI(LAP, lap.alternate.packet_rate, U8, B(61) + 2, 6),
	FI(LAP, lap.alternate.sl, U8, B(62), 4),
	FB(LAP, lap.alternate.subnet_local, B(62) + 4),
	FI(LAP, lap.alternate.local_ack_timeout, U8, B(63), 5),
	FP(LAP, lap.pdata, B(64), 168),
	/* APR, table 116 */
	FI(APR, apr.local_comm_id, U32, B(0), 32),
	FI(APR, apr.remote_comm_id, U32, B(4), 32),
	FX(APR, apr.info_len, U8, B(8), 8, 0, 72, CM_WIRE_ERR_INFO_LEN),
	FX(APR, apr.status, U8, B(9), 8, 0, OIB_CM_APR_INVALID_SL, CM_WIRE_ERR_APR_STATUS),
	FG(APR, apr.info, B(12), 72, OFF(apr.info_len)),
	FP(APR, apr.pdata, B(84), 148),
};

/* Attribute IDs (table 104) and private data sizes, as the note lists them. */
static const struct { u16 attr_id; u8 pdata; const char *name; } wire_msgs[CM_NMSGS] = {
	[CM_MSG_REQ] = { 0x10, 92, "req" }, [CM_MSG_MRA] = { 0x11, 222, "mra" },
	[CM_MSG_REJ] = { 0x12, 148, "rej" }, [CM_MSG_REP] = { 0x13, 196, "rep" },
	[CM_MSG_RTU] = { 0x14, 224, "rtu" }, [CM_MSG_DREQ] = { 0x15, 220, "dreq" },
	[CM_MSG_DREP] = { 0x16, 224, "drep" }, [CM_MSG_SIDR_REQ] = { 0x17, 216, "sidr_req" },
	[CM_MSG_SIDR_REP] = { 0x18, 136, "sidr_rep" }, [CM_MSG_LAP] = { 0x19, 168, "lap" },
	[CM_MSG_APR] = { 0x1a, 148, "apr" },
};

/* ---- Reading and writing a field of struct cm_msg ---- */

static void *wire_member(const struct cm_msg *msg, u16 off)
{
	return (u8 *)msg + off;
}

static bool wire_is_int(const struct wire_field *f)
{
	return f->kind <= W_BOOL;
}

static u64 wire_get(const struct cm_msg *msg, const struct wire_field *f)
{
	void *p = wire_member(msg, f->off);

	switch (f->kind) {
	case W_BOOL:
		return *(bool *)p;
	case W_U8:
		return *(u8 *)p;
	case W_U16:
		return *(u16 *)p;
	case W_U32:
		return *(u32 *)p;
	default:
		return *(u64 *)p;
	}
}

static void wire_set(struct cm_msg *msg, const struct wire_field *f, u64 v)
{
	void *p = wire_member(msg, f->off);

	switch (f->kind) {
	case W_BOOL:
		*(bool *)p = v;
		break;
	case W_U8:
		*(u8 *)p = v;
		break;
	case W_U16:
		*(u16 *)p = v;
		break;
	case W_U32:
		*(u32 *)p = v;
		break;
	default:
		*(u64 *)p = v;
		break;
	}
}

/* The largest value the field takes: its own limit, or all ones of its width. */
static u64 wire_max(const struct wire_field *f)
{
	return f->max ?: GENMASK_ULL(f->part[0].width + f->part[1].width + f->part[2].width - 1, 0);
}

/* The largest value its member holds. */
static u64 wire_type_max(const struct wire_field *f)
{
	static const u64 maxes[] = { [W_U8] = U8_MAX, [W_U16] = U16_MAX, [W_U32] = U32_MAX,
				     [W_U64] = U64_MAX, [W_BOOL] = 1 };

	return maxes[f->kind];
}

/* How many bytes of a W_BYTES field are in use. */
static u32 wire_bytes_used(const struct cm_msg *msg, const struct wire_field *f)
{
	return f->len_off < 0 ? f->size : *((u8 *)msg + f->len_off);
}

/* ---- The expected MAD, built from the table alone ---- */

static void wire_put_bits(u8 *body, u32 bit, u32 width, u64 val)
{
	u32 i;

	for (i = 0; i < width; i++, bit++)
		if ((val >> (width - 1 - i)) & 1)
			body[bit / 8] |= 0x80 >> (bit % 8);
}

static void wire_put_field(u8 *body, const struct cm_msg *msg, const struct wire_field *f)
{
	const struct cm_pdata *pd = wire_member(msg, f->off);
	u32 width = f->part[0].width + f->part[1].width + f->part[2].width;
	u64 v = wire_get(msg, f);
	int i;

	switch (f->kind) {
	case W_BYTES:
		memcpy(body + f->part[0].bit / 8, wire_member(msg, f->off),
		       wire_bytes_used(msg, f));
		return;
	case W_PDATA:
		if (pd->len)
			memcpy(body + f->part[0].bit / 8, pd->data, pd->len);
		return;
	}
	for (i = 0; i < 3 && f->part[i].width; i++) {
		width -= f->part[i].width;
		wire_put_bits(body, f->part[i].bit, f->part[i].width,
			      (v >> width) & GENMASK_ULL(f->part[i].width - 1, 0));
	}
}

static void wire_image(const struct cm_msg *msg, u8 *img)
{
	unsigned int i;

	memset(img, 0, OIB_MAD_SIZE);
	img[0] = 1;		/* base version */
	img[1] = 0x07;		/* class: CM */
	img[2] = 2;		/* class version */
	img[3] = 0x03;		/* method: SEND */
	for (i = 0; i < 8; i++)
		img[8 + i] = msg->tid >> (56 - 8 * i);
	img[16] = wire_msgs[msg->type].attr_id >> 8;
	img[17] = wire_msgs[msg->type].attr_id;
	for (i = 0; i < 4; i++)
		img[20 + i] = msg->attr_mod >> (24 - 8 * i);
	for (i = 0; i < ARRAY_SIZE(wire_fields); i++)
		if (wire_fields[i].msg == msg->type)
			wire_put_field(img + HDR, msg, &wire_fields[i]);
}

/* Every bit a message's fields occupy, header included. */
static void wire_mask(u8 type, u8 *mask)
{
	const struct wire_field *f;
	int i;

	memset(mask, 0, OIB_MAD_SIZE);
	memset(mask, 0xff, HDR);
	for (f = wire_fields; f < wire_fields + ARRAY_SIZE(wire_fields); f++) {
		if (f->msg != type)
			continue;
		if (f->kind == W_BYTES || f->kind == W_PDATA) {
			memset(mask + HDR + f->part[0].bit / 8, 0xff, f->size);
			continue;
		}
		for (i = 0; i < 3 && f->part[i].width; i++)
			wire_put_bits(mask + HDR, f->part[i].bit, f->part[i].width, U64_MAX);
	}
}

/* ---- Building messages at boundary values ---- */

enum wire_fill { FILL_MIN, FILL_MAX, FILL_PATTERN };

struct wire_ctx {
	u8 pdata[OIB_CM_MAX_PRIVATE_DATA_SIZE + 1];
	u8 *mad;			/* exactly 256 bytes */
	u8 img[OIB_MAD_SIZE];
};

static u64 wire_value(const struct wire_field *f, enum wire_fill fill, unsigned int idx)
{
	u64 h = 0x9e3779b97f4a7c15ULL * (idx + 1);

	if (fill == FILL_MIN)
		return f->min;
	if (fill == FILL_MAX)
		return wire_max(f);
	h ^= h >> 29;
	if (wire_max(f) - f->min == U64_MAX)
		return h;
	return f->min + h % (wire_max(f) - f->min + 1);
}

static void wire_fill_bytes(struct cm_msg *msg, const struct wire_field *f,
			    enum wire_fill fill, struct wire_ctx *ctx)
{
	struct cm_pdata *pd = wire_member(msg, f->off);
	u8 *p = wire_member(msg, f->off);
	u32 n, i;

	if (f->kind == W_PDATA) {
		n = fill == FILL_MIN ? 0 : fill == FILL_MAX ? f->size : f->size / 2 + 1;
		for (i = 0; i < n; i++)
			ctx->pdata[i] = fill == FILL_MAX ? 0xff : 0x5a ^ i;
		*pd = (struct cm_pdata){ n ? ctx->pdata : NULL, n };
		return;
	}
	n = fill == FILL_MIN ? 0 : wire_bytes_used(msg, f);
	memset(p, 0, f->size);
	for (i = 0; i < n; i++)
		p[i] = fill == FILL_MAX ? 0xff : 0xa7 + 13 * i;
}

/* A message of @type, every field at its minimum, maximum or a pattern value. */
static void wire_build(struct cm_msg *msg, u8 type, enum wire_fill fill, struct wire_ctx *ctx)
{
	unsigned int i;

	memset(msg, 0, sizeof(*msg));
	msg->type = type;
	msg->tid = fill == FILL_MIN ? 0 : fill == FILL_MAX ? U64_MAX : 0x0123456789abcdefULL;
	msg->attr_mod = fill == FILL_MIN ? 0 : fill == FILL_MAX ? U32_MAX : 0x89abcdef;
	for (i = 0; i < ARRAY_SIZE(wire_fields); i++) {
		const struct wire_field *f = &wire_fields[i];

		if (f->msg == type && wire_is_int(f))
			wire_set(msg, f, wire_value(f, fill, i));
	}
	for (i = 0; i < ARRAY_SIZE(wire_fields); i++) {
		const struct wire_field *f = &wire_fields[i];

		if (f->msg == type && (f->kind == W_BYTES || f->kind == W_PDATA))
			wire_fill_bytes(msg, f, fill, ctx);
	}
}

static struct wire_ctx *wire_ctx(struct kunit *test)
{
	struct wire_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->mad = kunit_kzalloc(test, OIB_MAD_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->mad);
	return ctx;
}

/* Does @out, unpacked, hold every field of @in? */
static void wire_expect_same(struct kunit *test, const struct cm_msg *in, const struct cm_msg *out)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, out->type, in->type);
	KUNIT_EXPECT_EQ(test, out->tid, in->tid);
	KUNIT_EXPECT_EQ(test, out->attr_mod, in->attr_mod);
	for (i = 0; i < ARRAY_SIZE(wire_fields); i++) {
		const struct wire_field *f = &wire_fields[i];
		const struct cm_pdata *pi = wire_member(in, f->off), *po = wire_member(out, f->off);

		if (f->msg != in->type)
			continue;
		if (wire_is_int(f)) {
			KUNIT_EXPECT_EQ_MSG(test, wire_get(out, f), wire_get(in, f), "%s", f->name);
		} else if (f->kind == W_BYTES) {
			KUNIT_EXPECT_MEMEQ_MSG(test, wire_member(out, f->off),
					       wire_member(in, f->off), f->size, "%s", f->name);
		} else {
			KUNIT_ASSERT_EQ_MSG(test, po->len, (u32)f->size, "%s", f->name);
			KUNIT_EXPECT_TRUE(test, !pi->len || !memcmp(po->data, pi->data, pi->len));
			KUNIT_EXPECT_TRUE(test, !memchr_inv((u8 *)po->data + pi->len, 0,
							    po->len - pi->len));
		}
	}
}

/* Pack @msg, compare with the table's image, unpack and compare with @msg. */
static void wire_check(struct kunit *test, const struct cm_msg *msg, struct wire_ctx *ctx)
{
	enum cm_wire_err why = CM_WIRE_NERRS;
	struct cm_msg out;

	KUNIT_ASSERT_EQ(test, oib_cm_wire_pack(msg, ctx->mad, OIB_MAD_SIZE, &why), 0);
	KUNIT_EXPECT_EQ(test, why, CM_WIRE_OK);
	wire_image(msg, ctx->img);
	KUNIT_EXPECT_MEMEQ(test, ctx->mad, ctx->img, OIB_MAD_SIZE);
	KUNIT_ASSERT_EQ(test, oib_cm_wire_unpack(ctx->mad, OIB_MAD_SIZE, &out, &why), 0);
	wire_expect_same(test, msg, &out);
}

/* ---- Cases ---- */

/* The message table matches the note: attribute IDs, private data sizes, names. */
static void wire_test_messages(struct kunit *test)
{
	unsigned int m;

	for (m = 0; m < CM_NMSGS; m++) {
		KUNIT_EXPECT_EQ(test, oib_cm_wire_attr_id(m), wire_msgs[m].attr_id);
		KUNIT_EXPECT_EQ(test, oib_cm_wire_pdata_size(m), (u32)wire_msgs[m].pdata);
		KUNIT_EXPECT_STREQ(test, oib_cm_wire_msg_name(m), wire_msgs[m].name);
	}
	KUNIT_EXPECT_EQ(test, oib_cm_wire_pdata_size(CM_NMSGS), 0U);
	KUNIT_EXPECT_STREQ(test, oib_cm_wire_msg_name(CM_NMSGS), "?");
	KUNIT_EXPECT_STREQ(test, oib_cm_wire_err_name(CM_WIRE_ERR_MTU), "mtu");
	KUNIT_EXPECT_STREQ(test, oib_cm_wire_err_name(CM_WIRE_NERRS), "?");
}

/* 4.096 us * 2^t; the IP service IDs of the RDMA CM (rping's default: TCP port 7174). */
static void wire_test_constants(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, oib_cm_timeout_ns(0), 4096ULL);
	KUNIT_EXPECT_EQ(test, oib_cm_timeout_ns(8), 1048576ULL);
	KUNIT_EXPECT_EQ(test, oib_cm_timeout_ns(20), 4294967296ULL);
	KUNIT_EXPECT_EQ(test, oib_cm_timeout_ns(31), 8796093022208ULL);
	KUNIT_EXPECT_EQ(test, oib_cm_ip_service_id(0x06, 7174), 0x0000000001061c06ULL);
	KUNIT_EXPECT_EQ(test, OIB_CM_REJ_STALE_CONN, 10);
	KUNIT_EXPECT_EQ(test, OIB_CM_REJ_CONSUMER_DEFINED, 28);
	KUNIT_EXPECT_EQ(test, OIB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED, 35);
}

/* One DREQ written out byte by byte, by hand. */
static void wire_test_golden_dreq(struct kunit *test)
{
	static const u8 golden[32] = {
		0x01, 0x07, 0x02, 0x03, 0x00, 0x00, 0x00, 0x00,		/* versions, SEND */
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,		/* TID */
		0x00, 0x15, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,		/* DREQ, attr_mod 0 */
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,		/* comm IDs */
	};
	struct wire_ctx *ctx = wire_ctx(test);
	struct cm_msg msg = { .type = CM_MSG_DREQ, .tid = 0x0102030405060708ULL };

	msg.dreq = (struct cm_dreq){ 0x11223344, 0x55667788, 0xabcdef, { "hi", 2 } };
	KUNIT_ASSERT_EQ(test, oib_cm_wire_pack(&msg, ctx->mad, OIB_MAD_SIZE, NULL), 0);
	KUNIT_EXPECT_MEMEQ(test, ctx->mad, golden, sizeof(golden));
	KUNIT_EXPECT_EQ(test, ctx->mad[32], 0xab);
	KUNIT_EXPECT_EQ(test, ctx->mad[33], 0xcd);
	KUNIT_EXPECT_EQ(test, ctx->mad[34], 0xef);
	KUNIT_EXPECT_EQ(test, ctx->mad[35], 0x00);
	KUNIT_EXPECT_EQ(test, ctx->mad[36], 'h');
	KUNIT_EXPECT_EQ(test, ctx->mad[37], 'i');
	KUNIT_EXPECT_TRUE(test, !memchr_inv(ctx->mad + 38, 0, OIB_MAD_SIZE - 38));
}

/* Round trips: every message with every field at its minimum, maximum and a pattern. */
static const u8 wire_msg_params[] = {
	CM_MSG_REQ, CM_MSG_MRA, CM_MSG_REJ, CM_MSG_REP, CM_MSG_RTU, CM_MSG_DREQ, CM_MSG_DREP,
	CM_MSG_SIDR_REQ, CM_MSG_SIDR_REP, CM_MSG_LAP, CM_MSG_APR,
};

static void wire_msg_desc(const u8 *m, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", wire_msgs[*m].name);
}

KUNIT_ARRAY_PARAM(wire_msg, wire_msg_params, wire_msg_desc);

static void wire_test_round_trip(struct kunit *test)
{
	const u8 *m = test->param_value;
	struct wire_ctx *ctx = wire_ctx(test);
	enum wire_fill fill;
	struct cm_msg msg;

	for (fill = FILL_MIN; fill <= FILL_PATTERN; fill++) {
		wire_build(&msg, *m, fill, ctx);
		wire_check(test, &msg, ctx);
	}
}

/* XRC is transport 3 with extended transport type 1 (byte 51, low 3 bits). */
static void wire_test_xrc(struct kunit *test)
{
	struct wire_ctx *ctx = wire_ctx(test);
	struct cm_msg msg, out;

	wire_build(&msg, CM_MSG_REQ, FILL_PATTERN, ctx);
	msg.req.transport = OIB_CM_TRANSPORT_XRC;
	KUNIT_ASSERT_EQ(test, oib_cm_wire_pack(&msg, ctx->mad, OIB_MAD_SIZE, NULL), 0);
	KUNIT_EXPECT_EQ(test, (ctx->mad[HDR + 43] >> 1) & 3, 3);
	KUNIT_EXPECT_EQ(test, ctx->mad[HDR + 51] & 7, 1);
	KUNIT_ASSERT_EQ(test, oib_cm_wire_unpack(ctx->mad, OIB_MAD_SIZE, &out, NULL), 0);
	KUNIT_EXPECT_EQ(test, out.req.transport, OIB_CM_TRANSPORT_XRC);
}

/* Each field alone at its maximum lands in its own bits and nowhere else. */
static void wire_field_desc(const struct wire_field *f, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", f->name);
}

KUNIT_ARRAY_PARAM(wire_field, wire_fields, wire_field_desc);

static void wire_test_no_spill(struct kunit *test)
{
	const struct wire_field *f = test->param_value;
	struct wire_ctx *ctx = wire_ctx(test);
	struct cm_msg msg;

	wire_build(&msg, f->msg, FILL_MIN, ctx);
	if (wire_is_int(f)) {
		wire_set(&msg, f, wire_max(f));
	} else {
		if (f->len_off >= 0)
			*((u8 *)&msg + f->len_off) = f->size;
		wire_fill_bytes(&msg, f, FILL_MAX, ctx);
	}
	wire_check(test, &msg, ctx);
}

/* A value past a field's maximum is refused by pack, with the field's reason. */
static const void *wire_over_gen(const void *prev, char *desc)
{
	const struct wire_field *f = prev ? (const struct wire_field *)prev + 1 : wire_fields;

	for (; f < wire_fields + ARRAY_SIZE(wire_fields); f++) {
		if (wire_is_int(f) && (f->min || wire_max(f) < wire_type_max(f))) {
			wire_field_desc(f, desc);
			return f;
		}
	}
	return NULL;
}

static void wire_test_over_max(struct kunit *test)
{
	const struct wire_field *f = test->param_value;
	struct wire_ctx *ctx = wire_ctx(test);
	enum cm_wire_err why;
	struct cm_msg msg;

	wire_build(&msg, f->msg, FILL_PATTERN, ctx);
	if (wire_max(f) < wire_type_max(f)) {
		wire_set(&msg, f, wire_max(f) + 1);
		KUNIT_EXPECT_EQ(test, oib_cm_wire_pack(&msg, ctx->mad, OIB_MAD_SIZE, &why),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, why, f->over);
	}
	if (f->min) {
		wire_set(&msg, f, f->min - 1);
		KUNIT_EXPECT_EQ(test, oib_cm_wire_pack(&msg, ctx->mad, OIB_MAD_SIZE, &why),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, why, f->over);
	}
}

/* Private data: the message's size is accepted, one byte more is not; data NULL is not. */
static void wire_test_pdata_limits(struct kunit *test)
{
	struct wire_ctx *ctx = wire_ctx(test);
	const size_t len = OIB_MAD_SIZE;
	enum cm_wire_err why;
	struct cm_msg msg;
	unsigned int m, i;

	for (m = 0; m < CM_NMSGS; m++) {
		const struct wire_field *f = NULL;
		struct cm_pdata *pd;

		for (i = 0; i < ARRAY_SIZE(wire_fields); i++)
			if (wire_fields[i].msg == m && wire_fields[i].kind == W_PDATA)
				f = &wire_fields[i];
		KUNIT_ASSERT_NOT_NULL(test, f);
		wire_build(&msg, m, FILL_PATTERN, ctx);
		pd = wire_member(&msg, f->off);
		*pd = (struct cm_pdata){ ctx->pdata, wire_msgs[m].pdata };
		wire_check(test, &msg, ctx);
		pd->len++;
		KUNIT_EXPECT_EQ(test, oib_cm_wire_pack(&msg, ctx->mad, len, &why), -EINVAL);
		KUNIT_EXPECT_EQ(test, why, CM_WIRE_ERR_PDATA_LEN);
		*pd = (struct cm_pdata){ NULL, 1 };
		KUNIT_EXPECT_EQ(test, oib_cm_wire_pack(&msg, ctx->mad, len, &why), -EINVAL);
		KUNIT_EXPECT_EQ(test, why, CM_WIRE_ERR_ARG);
	}
}

/* Bad arguments and lengths, on both sides. */
static void wire_test_args(struct kunit *test)
{
	struct wire_ctx *ctx = wire_ctx(test);
	enum cm_wire_err why;
	struct cm_msg msg;

	wire_build(&msg, CM_MSG_RTU, FILL_PATTERN, ctx);
	KUNIT_EXPECT_EQ(test, oib_cm_wire_pack(NULL, ctx->mad, OIB_MAD_SIZE, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, why, CM_WIRE_ERR_ARG);
	KUNIT_EXPECT_EQ(test, oib_cm_wire_pack(&msg, NULL, OIB_MAD_SIZE, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, why, CM_WIRE_ERR_ARG);
	KUNIT_EXPECT_EQ(test, oib_cm_wire_pack(&msg, ctx->mad, OIB_MAD_SIZE - 1, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, why, CM_WIRE_ERR_LENGTH);
	msg.type = CM_NMSGS;
	KUNIT_EXPECT_EQ(test, oib_cm_wire_pack(&msg, ctx->mad, OIB_MAD_SIZE, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, why, CM_WIRE_ERR_ARG);

	wire_build(&msg, CM_MSG_RTU, FILL_PATTERN, ctx);
	KUNIT_ASSERT_EQ(test, oib_cm_wire_pack(&msg, ctx->mad, OIB_MAD_SIZE, NULL), 0);
	KUNIT_EXPECT_EQ(test, oib_cm_wire_unpack(NULL, OIB_MAD_SIZE, &msg, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, why, CM_WIRE_ERR_ARG);
	KUNIT_EXPECT_EQ(test, oib_cm_wire_unpack(ctx->mad, OIB_MAD_SIZE, NULL, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, why, CM_WIRE_ERR_ARG);
	KUNIT_EXPECT_EQ(test, oib_cm_wire_unpack(ctx->mad, OIB_MAD_SIZE - 1, &msg, &why),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, why, CM_WIRE_ERR_LENGTH);
	KUNIT_EXPECT_EQ(test, oib_cm_wire_unpack(ctx->mad, OIB_MAD_SIZE + 1, &msg, &why),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, why, CM_WIRE_ERR_LENGTH);
	KUNIT_EXPECT_EQ(test, oib_cm_wire_unpack(ctx->mad, 0, &msg, NULL), -EBADMSG);
}

/* Received MADs with one thing wrong: (message, up to two byte edits, errno, reason). */
struct wire_bad {
	const char *desc;
	u8 msg;
	u8 nedits;
	struct { u8 at, keep, set; } edit[2];	/* mad[at] = (mad[at] & keep) | set */
	int err;
	u8 why;
};

#define HB(d, m, at, keep, set, e, w)	{ d, CM_MSG_##m, 1, { { at, keep, set } }, e, w }
#define BAD(d, m, at, keep, set, w)	HB(d, m, HDR + (at), keep, set, -EPROTO, w)

static const struct wire_bad wire_bads[] = {
	HB("base_version_2", RTU, 0, 0, 2, -EBADMSG, CM_WIRE_ERR_BASE_VERSION),
	HB("class_sa", RTU, 1, 0, 0x03, -EBADMSG, CM_WIRE_ERR_CLASS),
	HB("class_version_1", RTU, 2, 0, 1, -EBADMSG, CM_WIRE_ERR_CLASS_VERSION),
	HB("class_version_3", RTU, 2, 0, 3, -EBADMSG, CM_WIRE_ERR_CLASS_VERSION),
	HB("method_get", RTU, 3, 0, 0x01, -EBADMSG, CM_WIRE_ERR_METHOD),
	HB("method_get_resp", RTU, 3, 0, 0x81, -EBADMSG, CM_WIRE_ERR_METHOD),
	HB("attr_class_port_info", RTU, 17, 0, 0x01, -EBADMSG, CM_WIRE_ERR_ATTR_ID),
	HB("attr_0x0f", RTU, 17, 0, 0x0f, -EBADMSG, CM_WIRE_ERR_ATTR_ID),
	HB("attr_0x1b", RTU, 17, 0, 0x1b, -EBADMSG, CM_WIRE_ERR_ATTR_ID),
	HB("attr_0x0114", RTU, 16, 0, 0x01, -EBADMSG, CM_WIRE_ERR_ATTR_ID),
	BAD("req_mtu_0", REQ, 50, 0x0f, 0x00, CM_WIRE_ERR_MTU),
	BAD("req_mtu_6", REQ, 50, 0x0f, 0x60, CM_WIRE_ERR_MTU),
	BAD("req_mtu_15", REQ, 50, 0x0f, 0xf0, CM_WIRE_ERR_MTU),
	BAD("req_transport_rd", REQ, 43, 0xf9, 0x04, CM_WIRE_ERR_TRANSPORT),
	BAD("req_transport_3_ext_0", REQ, 43, 0xf9, 0x06, CM_WIRE_ERR_TRANSPORT),
	{ "req_transport_3_ext_2", CM_MSG_REQ, 2,
	  { { HDR + 43, 0xf9, 0x06 }, { HDR + 51, 0xf8, 0x02 } }, -EPROTO,
	  CM_WIRE_ERR_TRANSPORT },
	BAD("mra_code_3", MRA, 8, 0x3f, 0xc0, CM_WIRE_ERR_MSG_CODE),
	BAD("rej_code_3", REJ, 8, 0x3f, 0xc0, CM_WIRE_ERR_MSG_CODE),
	BAD("rej_ari_73", REJ, 9, 0x01, 73 << 1, CM_WIRE_ERR_INFO_LEN),
	BAD("rej_ari_127", REJ, 9, 0x01, 127 << 1, CM_WIRE_ERR_INFO_LEN),
	{ "rej_reason_0", CM_MSG_REJ, 2, { { HDR + 10, 0, 0 }, { HDR + 11, 0, 0 } }, -EPROTO,
	  CM_WIRE_ERR_REJ_REASON },
	BAD("rep_failover_3", REP, 26, 0xf9, 0x06, CM_WIRE_ERR_FAILOVER),
	BAD("sidr_status_6", SIDR_REP, 4, 0, 6, CM_WIRE_ERR_SIDR_STATUS),
	BAD("sidr_status_255", SIDR_REP, 4, 0, 255, CM_WIRE_ERR_SIDR_STATUS),
	BAD("sidr_info_73", SIDR_REP, 5, 0, 73, CM_WIRE_ERR_INFO_LEN),
	BAD("apr_info_73", APR, 8, 0, 73, CM_WIRE_ERR_INFO_LEN),
	BAD("apr_status_14", APR, 9, 0, 14, CM_WIRE_ERR_APR_STATUS),
};

static void wire_bad_desc(const struct wire_bad *b, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", b->desc);
}

KUNIT_ARRAY_PARAM(wire_bad, wire_bads, wire_bad_desc);

static void wire_test_refused(struct kunit *test)
{
	const struct wire_bad *b = test->param_value;
	struct wire_ctx *ctx = wire_ctx(test);
	enum cm_wire_err why;
	struct cm_msg msg;
	int i;

	wire_build(&msg, b->msg, FILL_MIN, ctx);
	KUNIT_ASSERT_EQ(test, oib_cm_wire_pack(&msg, ctx->mad, OIB_MAD_SIZE, NULL), 0);
	for (i = 0; i < b->nedits; i++)
		ctx->mad[b->edit[i].at] = (ctx->mad[b->edit[i].at] & b->edit[i].keep) |
					  b->edit[i].set;
	KUNIT_EXPECT_EQ(test, oib_cm_wire_unpack(ctx->mad, OIB_MAD_SIZE, &msg, &why), b->err);
	KUNIT_EXPECT_EQ_MSG(test, why, b->why, "got %s", oib_cm_wire_err_name(why));
}

/* Reserved bits set by a sender are ignored (IBTA: receivers ignore reserved fields). */
static void wire_test_reserved_ignored(struct kunit *test)
{
	struct wire_ctx *ctx = wire_ctx(test);
	struct cm_msg msg, out;
	u8 used[OIB_MAD_SIZE];
	unsigned int m, i;

	for (m = 0; m < CM_NMSGS; m++) {
		wire_build(&msg, m, FILL_PATTERN, ctx);
		wire_mask(m, used);
		memset(used + 4, 0, 4);		/* status, class specific */
		memset(used + 18, 0, 2);	/* reserved */
		KUNIT_ASSERT_EQ(test, oib_cm_wire_pack(&msg, ctx->mad, OIB_MAD_SIZE, NULL), 0);
		for (i = 0; i < OIB_MAD_SIZE; i++)
			ctx->mad[i] |= (u8)~used[i];
		KUNIT_ASSERT_EQ_MSG(test, oib_cm_wire_unpack(ctx->mad, OIB_MAD_SIZE, &out, NULL), 0,
				    "%s", wire_msgs[m].name);
		wire_expect_same(test, &msg, &out);
	}
}

/* ---- Fuzz: random MADs through unpack; anything unpacked packs again ---- */

struct wire_counts {
	u32 n[CM_NMSGS + 1][CM_WIRE_NERRS];	/* [message or CM_NMSGS: none][outcome] */
};

static void wire_fuzz_one(struct kunit *test, struct rnd_state *rnd, bool good_hdr, u8 *mad,
			  u8 *again, struct wire_counts *c)
{
	enum cm_wire_err why;
	struct cm_msg msg;
	int ret;

	prandom_bytes_state(rnd, mad, OIB_MAD_SIZE);
	if (good_hdr) {
		u32 m = prandom_u32_state(rnd) % CM_NMSGS;

		memcpy(mad, "\x01\x07\x02\x03", 4);
		mad[16] = 0;
		mad[17] = wire_msgs[m].attr_id;
	}
	ret = oib_cm_wire_unpack(mad, OIB_MAD_SIZE, &msg, &why);
	KUNIT_ASSERT_LT(test, (unsigned int)why, (unsigned int)CM_WIRE_NERRS);
	/* A body refused: the header named the message (0x0010 + its index). */
	c->n[ret ? (why > CM_WIRE_ERR_ATTR_ID ? mad[17] - 0x10 : CM_NMSGS) : msg.type][why]++;
	if (ret)
		return;
	KUNIT_ASSERT_EQ(test, oib_cm_wire_pack(&msg, again, OIB_MAD_SIZE, &why), 0);
	KUNIT_ASSERT_EQ(test, oib_cm_wire_unpack(again, OIB_MAD_SIZE, &msg, &why), 0);
}

static void wire_fuzz_run(struct kunit *test, u64 seed, struct wire_counts *c)
{
	struct rnd_state rnd;
	u8 *mad, *again;
	int i;

	mad = kunit_kmalloc(test, OIB_MAD_SIZE, GFP_KERNEL);
	again = kunit_kmalloc(test, OIB_MAD_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mad);
	KUNIT_ASSERT_NOT_NULL(test, again);
	memset(c, 0, sizeof(*c));
	prandom_seed_state(&rnd, seed);
	for (i = 0; i < 2 * WIRE_FUZZ; i++) {
		wire_fuzz_one(test, &rnd, i % 2, mad, again, c);
		if (!(i % 4096))
			cond_resched();
	}
	kunit_kfree(test, mad);
	kunit_kfree(test, again);
}

static void wire_test_fuzz(struct kunit *test)
{
	struct wire_counts *a, *b;
	unsigned int m, e, ok = 0, total = 0;

	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	wire_fuzz_run(test, WIRE_SEED, a);
	wire_fuzz_run(test, WIRE_SEED, b);
	KUNIT_EXPECT_MEMEQ(test, a, b, sizeof(*a));
	for (m = 0; m <= CM_NMSGS; m++) {
		for (e = 0; e < CM_WIRE_NERRS; e++) {
			total += a->n[m][e];
			if (a->n[m][e])
				kunit_info(test, "seed %#llx: %s %s: %u\n", WIRE_SEED,
					   m < CM_NMSGS ? wire_msgs[m].name : "-",
					   oib_cm_wire_err_name(e), a->n[m][e]);
		}
		if (m < CM_NMSGS) {
			ok += a->n[m][CM_WIRE_OK];
			KUNIT_EXPECT_GT_MSG(test, a->n[m][CM_WIRE_OK], 0U, "%s", wire_msgs[m].name);
		}
	}
	KUNIT_EXPECT_EQ(test, total, 2U * WIRE_FUZZ);
	KUNIT_EXPECT_GT(test, a->n[CM_NMSGS][CM_WIRE_ERR_BASE_VERSION], 0U);
	kunit_info(test, "%u of %u random MADs unpacked\n", ok, total);
	oib_test_fuzz_inputs(test, "cm_wire", total);	/* the second run repeats the first */
}

static struct kunit_case wire_test_cases[] = {
	KUNIT_CASE(wire_test_messages),
	KUNIT_CASE(wire_test_constants),
	KUNIT_CASE(wire_test_golden_dreq),
	KUNIT_CASE_PARAM(wire_test_round_trip, wire_msg_gen_params),
	KUNIT_CASE(wire_test_xrc),
	KUNIT_CASE_PARAM(wire_test_no_spill, wire_field_gen_params),
	KUNIT_CASE_PARAM(wire_test_over_max, wire_over_gen),
	KUNIT_CASE(wire_test_pdata_limits),
	KUNIT_CASE(wire_test_args),
	KUNIT_CASE_PARAM(wire_test_refused, wire_bad_gen_params),
	KUNIT_CASE(wire_test_reserved_ignored),
	KUNIT_CASE(wire_test_fuzz),
	{}
};

static struct kunit_suite wire_test_suite = {
	.name = "oib_cm_wire",
	.test_cases = wire_test_cases,
};

kunit_test_suite(wire_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the oib_cm wire format");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
