// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the oib_rxe wire format (orxe_hdr.c, orxe_icrc.c).
 *
 * The expectations come from outside the code under test: the opcode oracle is written from the
 * IBTA opcode tables; the known-answer frames were made by a separate userspace implementation of
 * the RoCEv2 rules, whose IPv4 ICRC agrees with scapy's RoCE layer and whose headers and IP/UDP
 * checksums tshark decodes and accepts; the bits the ICRC leaves out are listed here from the
 * RoCEv2 annex.  Every frame handed to the parser sits in an allocation of exactly its length, so
 * KASAN sees any read past its end.
 */
#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <linux/unaligned.h>
#include <net/checksum.h>
#include <net/ip6_checksum.h>
#include <oib/kunit/rxe.h>
#include "oib_toolkit.h"

#define WIRE_SEED		0x0b1e5eedULL
#define WIRE_BUF		8192	/* room for any frame built here */
#define WIRE_IP4		ETH_HLEN
#define WIRE_UDP4		(ETH_HLEN + 20)
#define WIRE_BTH4		(ETH_HLEN + 20 + 8)
#define WIRE_UDP6		(ETH_HLEN + 40)
#define WIRE_BTH6		(ETH_HLEN + 40 + 8)

/* ---- The oracle: IBTA opcodes and the headers each carries, in wire order ---- */

enum {
	W_DETH = BIT(0), W_RETH = BIT(1), W_ATMETH = BIT(2), W_AETH = BIT(3),
	W_ATMACK = BIT(4), W_IMMDT = BIT(5), W_IETH = BIT(6), W_XRCETH = BIT(7),
};

/* Wire order, size and the implementation's index for each extension header. */
static const struct {
	u8 bit;
	u8 size;
	enum orxe_ext ext;
} wire_exts[] = {
	{ W_XRCETH, 4, ORXE_EXT_XRCETH },
	{ W_DETH, 8, ORXE_EXT_DETH },
	{ W_RETH, 16, ORXE_EXT_RETH },
	{ W_ATMETH, 28, ORXE_EXT_ATMETH },
	{ W_AETH, 4, ORXE_EXT_AETH },
	{ W_ATMACK, 8, ORXE_EXT_ATMACK },
	{ W_IMMDT, 4, ORXE_EXT_IMMDT },
	{ W_IETH, 4, ORXE_EXT_IETH },
};

enum wire_pos { F = 1, M, L, O };	/* first, middle, last, only */

static const struct wire_op {
	u8 opcode;
	const char *name;
	u8 hdrs;
	bool payload;
	enum wire_pos pos;
	bool resp;
} wire_ops[] = {
	{ 0x00, "RC_SEND_FIRST", 0, true, F },
	{ 0x01, "RC_SEND_MIDDLE", 0, true, M },
	{ 0x02, "RC_SEND_LAST", 0, true, L },
	{ 0x03, "RC_SEND_LAST_WITH_IMMEDIATE", W_IMMDT, true, L },
	{ 0x04, "RC_SEND_ONLY", 0, true, O },
	{ 0x05, "RC_SEND_ONLY_WITH_IMMEDIATE", W_IMMDT, true, O },
	{ 0x06, "RC_RDMA_WRITE_FIRST", W_RETH, true, F },
	{ 0x07, "RC_RDMA_WRITE_MIDDLE", 0, true, M },
	{ 0x08, "RC_RDMA_WRITE_LAST", 0, true, L },
	{ 0x09, "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", W_IMMDT, true, L },
	{ 0x0a, "RC_RDMA_WRITE_ONLY", W_RETH, true, O },
	{ 0x0b, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", W_RETH | W_IMMDT, true, O },
	{ 0x0c, "RC_RDMA_READ_REQUEST", W_RETH, false, O },
	{ 0x0d, "RC_RDMA_READ_RESPONSE_FIRST", W_AETH, true, F, true },
	{ 0x0e, "RC_RDMA_READ_RESPONSE_MIDDLE", 0, true, M, true },
	{ 0x0f, "RC_RDMA_READ_RESPONSE_LAST", W_AETH, true, L, true },
	{ 0x10, "RC_RDMA_READ_RESPONSE_ONLY", W_AETH, true, O, true },
	{ 0x11, "RC_ACKNOWLEDGE", W_AETH, false, O, true },
	{ 0x12, "RC_ATOMIC_ACKNOWLEDGE", W_AETH | W_ATMACK, false, O, true },
	{ 0x13, "RC_COMPARE_SWAP", W_ATMETH, false, O },
	{ 0x14, "RC_FETCH_ADD", W_ATMETH, false, O },
	{ 0x16, "RC_SEND_LAST_WITH_INVALIDATE", W_IETH, true, L },
	{ 0x17, "RC_SEND_ONLY_WITH_INVALIDATE", W_IETH, true, O },
	{ 0x20, "UC_SEND_FIRST", 0, true, F },
	{ 0x21, "UC_SEND_MIDDLE", 0, true, M },
	{ 0x22, "UC_SEND_LAST", 0, true, L },
	{ 0x23, "UC_SEND_LAST_WITH_IMMEDIATE", W_IMMDT, true, L },
	{ 0x24, "UC_SEND_ONLY", 0, true, O },
	{ 0x25, "UC_SEND_ONLY_WITH_IMMEDIATE", W_IMMDT, true, O },
	{ 0x26, "UC_RDMA_WRITE_FIRST", W_RETH, true, F },
	{ 0x27, "UC_RDMA_WRITE_MIDDLE", 0, true, M },
	{ 0x28, "UC_RDMA_WRITE_LAST", 0, true, L },
	{ 0x29, "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", W_IMMDT, true, L },
	{ 0x2a, "UC_RDMA_WRITE_ONLY", W_RETH, true, O },
	{ 0x2b, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", W_RETH | W_IMMDT, true, O },
	/* XRC: the RC operations, each request with the XRCETH first (IBTA annex A14) */
	{ 0xa0, "XRC_SEND_FIRST", W_XRCETH, true, F },
	{ 0xa1, "XRC_SEND_MIDDLE", W_XRCETH, true, M },
	{ 0xa2, "XRC_SEND_LAST", W_XRCETH, true, L },
	{ 0xa3, "XRC_SEND_LAST_WITH_IMMEDIATE", W_XRCETH | W_IMMDT, true, L },
	{ 0xa4, "XRC_SEND_ONLY", W_XRCETH, true, O },
	{ 0xa5, "XRC_SEND_ONLY_WITH_IMMEDIATE", W_XRCETH | W_IMMDT, true, O },
	{ 0xa6, "XRC_RDMA_WRITE_FIRST", W_XRCETH | W_RETH, true, F },
	{ 0xa7, "XRC_RDMA_WRITE_MIDDLE", W_XRCETH, true, M },
	{ 0xa8, "XRC_RDMA_WRITE_LAST", W_XRCETH, true, L },
	{ 0xa9, "XRC_RDMA_WRITE_LAST_WITH_IMMEDIATE", W_XRCETH | W_IMMDT, true, L },
	{ 0xaa, "XRC_RDMA_WRITE_ONLY", W_XRCETH | W_RETH, true, O },
	{ 0xab, "XRC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", W_XRCETH | W_RETH | W_IMMDT, true, O },
	{ 0xac, "XRC_RDMA_READ_REQUEST", W_XRCETH | W_RETH, false, O },
	{ 0xad, "XRC_RDMA_READ_RESPONSE_FIRST", W_AETH, true, F, true },
	{ 0xae, "XRC_RDMA_READ_RESPONSE_MIDDLE", 0, true, M, true },
	{ 0xaf, "XRC_RDMA_READ_RESPONSE_LAST", W_AETH, true, L, true },
	{ 0xb0, "XRC_RDMA_READ_RESPONSE_ONLY", W_AETH, true, O, true },
	{ 0xb1, "XRC_ACKNOWLEDGE", W_AETH, false, O, true },
	{ 0xb2, "XRC_ATOMIC_ACKNOWLEDGE", W_AETH | W_ATMACK, false, O, true },
	{ 0xb3, "XRC_COMPARE_SWAP", W_XRCETH | W_ATMETH, false, O },
	{ 0xb4, "XRC_FETCH_ADD", W_XRCETH | W_ATMETH, false, O },
	{ 0xb6, "XRC_SEND_LAST_WITH_INVALIDATE", W_XRCETH | W_IETH, true, L },
	{ 0xb7, "XRC_SEND_ONLY_WITH_INVALIDATE", W_XRCETH | W_IETH, true, O },
	{ 0x64, "UD_SEND_ONLY", W_DETH, true, O },
	{ 0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", W_DETH | W_IMMDT, true, O },
};

static const struct wire_op *wire_op_find(u8 opcode)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(wire_ops); i++)
		if (wire_ops[i].opcode == opcode)
			return &wire_ops[i];
	return NULL;
}

static void wire_test_opcode_table(struct kunit *test)
{
	const struct orxe_opcode_info *info;
	const struct wire_op *op;
	u32 off, hdrs, flags, pos;
	int opcode, i, valid = 0;

	for (opcode = 0; opcode < 256; opcode++) {
		info = oib_rxe_opcode(opcode);
		op = wire_op_find(opcode);
		if (!op) {
			KUNIT_EXPECT_PTR_EQ_MSG(test, info, NULL, "opcode %#x", opcode);
			continue;
		}
		valid++;
		KUNIT_ASSERT_NOT_NULL_MSG(test, info, "opcode %#x", opcode);
		KUNIT_EXPECT_STREQ(test, info->name, op->name);

		off = sizeof(struct orxe_bth);
		hdrs = 0;
		for (i = 0; i < ARRAY_SIZE(wire_exts); i++) {
			if (!(op->hdrs & wire_exts[i].bit)) {
				KUNIT_EXPECT_EQ_MSG(test, info->offset[wire_exts[i].ext], 0, "%s",
						    op->name);
				continue;
			}
			hdrs |= BIT(wire_exts[i].ext);
			KUNIT_EXPECT_EQ_MSG(test, info->offset[wire_exts[i].ext], off, "%s ext %d",
					    op->name, i);
			off += wire_exts[i].size;
		}
		KUNIT_EXPECT_EQ_MSG(test, info->hdrs, hdrs, "%s", op->name);
		KUNIT_EXPECT_EQ_MSG(test, info->hdr_len, off, "%s", op->name);

		flags = info->flags;
		KUNIT_EXPECT_EQ_MSG(test, !!(flags & ORXE_OPF_PAYLOAD), op->payload, "%s",
				    op->name);
		KUNIT_EXPECT_EQ_MSG(test, !!(flags & ORXE_OPF_RESP), op->resp, "%s", op->name);
		KUNIT_EXPECT_EQ_MSG(test, !!(flags & ORXE_OPF_REQ), !op->resp, "%s", op->name);
		pos = flags & (ORXE_OPF_FIRST | ORXE_OPF_MIDDLE | ORXE_OPF_LAST);
		KUNIT_EXPECT_EQ_MSG(test, pos, op->pos == F ? ORXE_OPF_FIRST :
				    op->pos == M ? ORXE_OPF_MIDDLE :
				    op->pos == L ? ORXE_OPF_LAST : ORXE_OPF_FIRST | ORXE_OPF_LAST,
				    "%s", op->name);
		KUNIT_EXPECT_EQ_MSG(test, !!(flags & ORXE_OPF_IMM), !!(op->hdrs & W_IMMDT), "%s",
				    op->name);
		KUNIT_EXPECT_EQ_MSG(test, !!(flags & ORXE_OPF_INV), !!(op->hdrs & W_IETH), "%s",
				    op->name);
		KUNIT_EXPECT_EQ_MSG(test, !!(flags & ORXE_OPF_ACKED),
				    (opcode < 0x20 || (opcode >= 0xa0 && opcode < 0xc0)) &&
				    !op->resp, "%s", op->name);
	}
	KUNIT_EXPECT_EQ(test, valid, ARRAY_SIZE(wire_ops));
	KUNIT_EXPECT_EQ(test, valid, 37 + 23);
}

/* ---- Making frames ---- */

static u32 wire_rand(struct rnd_state *rnd, u32 n)
{
	return prandom_u32_state(rnd) % n;
}

static u64 wire_rand64(struct rnd_state *rnd)
{
	return (u64)prandom_u32_state(rnd) << 32 | prandom_u32_state(rnd);
}

/* Every field random (in range), for @opcode over IPv4 or IPv6 with @paylen bytes. */
static void wire_random_hdr(struct rnd_state *rnd, struct orxe_tx_hdr *h, u8 opcode, bool ipv6,
			    u32 paylen)
{
	memset(h, 0, sizeof(*h));
	prandom_bytes_state(rnd, h->dmac, ETH_ALEN);
	prandom_bytes_state(rnd, h->smac, ETH_ALEN);
	prandom_bytes_state(rnd, h->sgid.raw, sizeof(h->sgid));
	prandom_bytes_state(rnd, h->dgid.raw, sizeof(h->dgid));
	if (ipv6) {
		h->sgid.raw[0] = 0x20;	/* 2000::/3, never IPv4-mapped */
		h->dgid.raw[0] = 0x20;
	} else {
		memset(h->sgid.raw, 0, 10);
		memset(h->dgid.raw, 0, 10);
		memset(&h->sgid.raw[10], 0xff, 2);
		memset(&h->dgid.raw[10], 0xff, 2);
	}
	h->tos = prandom_u32_state(rnd);
	h->hop_limit = prandom_u32_state(rnd);
	h->flow_label = prandom_u32_state(rnd) & 0xfffff;
	h->udp_sport = prandom_u32_state(rnd);
	h->opcode = opcode;
	h->solicited = wire_rand(rnd, 2);
	h->migreq = wire_rand(rnd, 2);
	h->ack_req = wire_rand(rnd, 2);
	h->pkey = prandom_u32_state(rnd);
	h->dest_qpn = prandom_u32_state(rnd) & ORXE_QPN_MASK;
	h->psn = prandom_u32_state(rnd) & ORXE_PSN_MASK;
	h->xrc_srqn = prandom_u32_state(rnd) & ORXE_QPN_MASK;
	h->deth.qkey = prandom_u32_state(rnd);
	h->deth.src_qpn = prandom_u32_state(rnd) & ORXE_QPN_MASK;
	h->reth.va = wire_rand64(rnd);
	h->reth.rkey = prandom_u32_state(rnd);
	h->reth.len = prandom_u32_state(rnd);
	h->atmeth.va = wire_rand64(rnd);
	h->atmeth.rkey = prandom_u32_state(rnd);
	h->atmeth.swap_add = wire_rand64(rnd);
	h->atmeth.compare = wire_rand64(rnd);
	h->aeth.syndrome = prandom_u32_state(rnd);
	h->aeth.msn = prandom_u32_state(rnd) & ORXE_MSN_MASK;
	h->atmack_orig = wire_rand64(rnd);
	h->imm = (__force __be32)prandom_u32_state(rnd);
	h->ieth_rkey = prandom_u32_state(rnd);
	h->paylen = paylen;
}

/* Can @paylen bytes go in one @op packet?  First and middle packets carry whole words. */
static bool wire_paylen_ok(const struct wire_op *op, u32 paylen)
{
	if (!op->payload)
		return !paylen;
	return op->pos == L || op->pos == O || !(paylen % 4);
}

/* A random valid frame into @buf (WIRE_BUF bytes); returns its length. */
static int wire_random_frame(struct kunit *test, struct rnd_state *rnd, u8 *buf,
			     struct orxe_tx_hdr *h, u8 *payload)
{
	const struct wire_op *op = &wire_ops[wire_rand(rnd, ARRAY_SIZE(wire_ops))];
	u32 paylen = 0;
	int len;

	if (op->payload)
		paylen = op->pos == L || op->pos == O ? wire_rand(rnd, 65) : 4 * wire_rand(rnd, 17);
	wire_random_hdr(rnd, h, op->opcode, wire_rand(rnd, 2), paylen);
	prandom_bytes_state(rnd, payload, paylen);
	len = oib_rxe_frame_build(h, payload, buf, WIRE_BUF);
	KUNIT_ASSERT_GT(test, len, 0);
	return len;
}

/* Parse @len bytes of @frame from an allocation of exactly that size. */
static int wire_parse_exact(struct kunit *test, const u8 *frame, u32 len, struct orxe_pkt *pkt,
			    u8 **copy)
{
	u8 *p = kmemdup(frame, len, GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_TRUE(test, p || !len);
	ret = oib_rxe_pkt_parse(p ?: (u8 *)ZERO_SIZE_PTR, len, pkt);
	if (copy)
		*copy = p;	/* the caller looks at pkt's pointers, then frees */
	else
		kfree(p);
	return ret;
}

static bool wire_is_reason(int ret)
{
	return ret < 0 && -ret < ORXE_NUM_DROP_REASONS &&
	       strcmp(oib_rxe_drop_reason_name(ret), "?");
}

/* Where extension header @e of a packet at @bth should be: NULL if it has none. */
static const void *wire_ext_at(const struct orxe_opcode_info *info, const u8 *bth, enum orxe_ext e)
{
	return info->hdrs & BIT(e) ? bth + info->offset[e] : NULL;
}

/* Every field @pkt reports against what the frame was built from. */
static void wire_expect_pkt(struct kunit *test, const struct orxe_tx_hdr *h, const u8 *payload,
			    const struct orxe_pkt *pkt, const u8 *frame)
{
	const struct orxe_opcode_info *info = oib_rxe_opcode(h->opcode);
	bool ipv6 = !orxe_gid_is_v4mapped(&h->dgid);
	const char *n = info->name;
	const u8 *bth = frame + (ipv6 ? WIRE_BTH6 : WIRE_BTH4);

	KUNIT_EXPECT_MEMEQ(test, pkt->dmac, h->dmac, ETH_ALEN);
	KUNIT_EXPECT_MEMEQ(test, pkt->smac, h->smac, ETH_ALEN);
	KUNIT_EXPECT_EQ_MSG(test, pkt->ipv6, ipv6, "%s", n);
	KUNIT_EXPECT_MEMEQ(test, pkt->sgid.raw, h->sgid.raw, 16);
	KUNIT_EXPECT_MEMEQ(test, pkt->dgid.raw, h->dgid.raw, 16);
	KUNIT_EXPECT_EQ_MSG(test, pkt->tos, h->tos, "%s", n);
	KUNIT_EXPECT_EQ_MSG(test, pkt->hop_limit, h->hop_limit, "%s", n);
	KUNIT_EXPECT_EQ_MSG(test, pkt->flow_label, ipv6 ? h->flow_label : 0, "%s", n);
	KUNIT_EXPECT_EQ_MSG(test, pkt->udp_sport, h->udp_sport, "%s", n);

	KUNIT_EXPECT_EQ_MSG(test, pkt->opcode, h->opcode, "%s", n);
	KUNIT_EXPECT_PTR_EQ(test, pkt->info, info);
	KUNIT_EXPECT_EQ_MSG(test, pkt->solicited, h->solicited, "%s", n);
	KUNIT_EXPECT_EQ_MSG(test, pkt->migreq, h->migreq, "%s", n);
	KUNIT_EXPECT_EQ_MSG(test, pkt->ack_req, h->ack_req, "%s", n);
	KUNIT_EXPECT_EQ_MSG(test, pkt->pad, -h->paylen & 3, "%s", n);
	KUNIT_EXPECT_EQ_MSG(test, pkt->pkey, h->pkey, "%s", n);
	KUNIT_EXPECT_EQ_MSG(test, pkt->dest_qpn, h->dest_qpn, "%s", n);
	KUNIT_EXPECT_EQ_MSG(test, pkt->psn, h->psn, "%s", n);
	KUNIT_EXPECT_PTR_EQ(test, (const u8 *)pkt->bth, bth);

	KUNIT_EXPECT_PTR_EQ(test, (const void *)pkt->xrceth,
			    wire_ext_at(info, bth, ORXE_EXT_XRCETH));
	KUNIT_EXPECT_PTR_EQ(test, (const void *)pkt->deth, wire_ext_at(info, bth, ORXE_EXT_DETH));
	KUNIT_EXPECT_PTR_EQ(test, (const void *)pkt->reth, wire_ext_at(info, bth, ORXE_EXT_RETH));
	KUNIT_EXPECT_PTR_EQ(test, (const void *)pkt->atmeth,
			    wire_ext_at(info, bth, ORXE_EXT_ATMETH));
	KUNIT_EXPECT_PTR_EQ(test, (const void *)pkt->aeth, wire_ext_at(info, bth, ORXE_EXT_AETH));
	KUNIT_EXPECT_PTR_EQ(test, (const void *)pkt->atmack,
			    wire_ext_at(info, bth, ORXE_EXT_ATMACK));
	KUNIT_EXPECT_PTR_EQ(test, (const void *)pkt->immdt, wire_ext_at(info, bth, ORXE_EXT_IMMDT));
	KUNIT_EXPECT_PTR_EQ(test, (const void *)pkt->ieth, wire_ext_at(info, bth, ORXE_EXT_IETH));

	if (pkt->xrceth) {
		KUNIT_EXPECT_EQ(test, orxe_xrceth_srqn(pkt->xrceth), h->xrc_srqn);
		/* the 8 reserved bits */
		KUNIT_EXPECT_EQ(test, be32_to_cpu(pkt->xrceth->srqn) >> 24, 0u);
	}
	if (pkt->deth) {
		KUNIT_EXPECT_EQ(test, be32_to_cpu(pkt->deth->qkey), h->deth.qkey);
		KUNIT_EXPECT_EQ(test, orxe_deth_src_qpn(pkt->deth), h->deth.src_qpn);
	}
	if (pkt->reth) {
		KUNIT_EXPECT_EQ(test, be64_to_cpu(pkt->reth->va), h->reth.va);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(pkt->reth->rkey), h->reth.rkey);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(pkt->reth->len), h->reth.len);
	}
	if (pkt->atmeth) {
		KUNIT_EXPECT_EQ(test, be64_to_cpu(pkt->atmeth->va), h->atmeth.va);
		KUNIT_EXPECT_EQ(test, be32_to_cpu(pkt->atmeth->rkey), h->atmeth.rkey);
		KUNIT_EXPECT_EQ(test, be64_to_cpu(pkt->atmeth->swap_add), h->atmeth.swap_add);
		KUNIT_EXPECT_EQ(test, be64_to_cpu(pkt->atmeth->compare), h->atmeth.compare);
	}
	if (pkt->aeth) {
		KUNIT_EXPECT_EQ(test, orxe_aeth_syndrome(pkt->aeth), h->aeth.syndrome);
		KUNIT_EXPECT_EQ(test, orxe_aeth_msn(pkt->aeth), h->aeth.msn);
	}
	if (pkt->atmack)
		KUNIT_EXPECT_EQ(test, be64_to_cpu(pkt->atmack->orig), h->atmack_orig);
	if (pkt->immdt)
		KUNIT_EXPECT_EQ(test, be32_to_cpu(pkt->immdt->imm), be32_to_cpu(h->imm));
	if (pkt->ieth)
		KUNIT_EXPECT_EQ(test, be32_to_cpu(pkt->ieth->rkey), h->ieth_rkey);

	KUNIT_EXPECT_PTR_EQ(test, pkt->payload, bth + info->hdr_len);
	KUNIT_EXPECT_EQ_MSG(test, pkt->paylen, h->paylen, "%s", n);
	if (pkt->paylen == h->paylen)
		KUNIT_EXPECT_MEMEQ(test, pkt->payload, payload, h->paylen);
}

/* ---- Round trips ---- */

static const u32 wire_paylens[] = { 0, 1, 3, 4, 4096 };

static void wire_round_trip(struct kunit *test, bool ipv6)
{
	u8 *buf = kunit_kmalloc(test, WIRE_BUF, GFP_KERNEL);
	u8 *payload = kunit_kmalloc(test, 4096, GFP_KERNEL);
	struct orxe_tx_hdr h;
	struct orxe_pkt pkt;
	struct rnd_state rnd;
	int i, j, len, ret, built = 0, expected = 0;
	u8 *copy;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, payload);
	prandom_seed_state(&rnd, WIRE_SEED + ipv6);

	for (i = 0; i < ARRAY_SIZE(wire_ops); i++) {
		for (j = 0; j < ARRAY_SIZE(wire_paylens); j++) {
			const struct wire_op *op = &wire_ops[i];
			u32 paylen = wire_paylens[j];

			wire_random_hdr(&rnd, &h, op->opcode, ipv6, paylen);
			prandom_bytes_state(&rnd, payload, paylen);
			len = oib_rxe_frame_build(&h, payload, buf, WIRE_BUF);
			if (!wire_paylen_ok(op, paylen)) {
				KUNIT_EXPECT_EQ_MSG(test, len, -EINVAL, "%s paylen %u", op->name,
						    paylen);
				continue;
			}
			expected++;
			KUNIT_ASSERT_GT_MSG(test, len, 0, "%s paylen %u", op->name, paylen);
			KUNIT_EXPECT_EQ(test, len, (ipv6 ? WIRE_BTH6 : WIRE_BTH4) +
					oib_rxe_opcode(op->opcode)->hdr_len + ALIGN(paylen, 4) + 4);

			ret = wire_parse_exact(test, buf, len, &pkt, &copy);
			KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s paylen %u: %s", op->name, paylen,
					    oib_rxe_drop_reason_name(ret));
			if (!ret) {
				wire_expect_pkt(test, &h, payload, &pkt, copy);
				built++;
			}
			kfree(copy);
		}
	}
	KUNIT_EXPECT_EQ(test, built, expected);
	kunit_info(test, "%s: %d frames built and parsed back", ipv6 ? "IPv6" : "IPv4", built);
}

static void wire_test_round_trip_ipv4(struct kunit *test)
{
	wire_round_trip(test, false);
}

static void wire_test_round_trip_ipv6(struct kunit *test)
{
	wire_round_trip(test, true);
}

/* Building in two steps (payload written later, then sealed) gives the same frame. */
static void wire_test_build_deferred_payload(struct kunit *test)
{
	u8 *a = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	u8 *b = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	u8 payload[37];
	struct orxe_tx_hdr h;
	struct rnd_state rnd;
	int la, lb, ipv6;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	prandom_seed_state(&rnd, WIRE_SEED);
	for (ipv6 = 0; ipv6 < 2; ipv6++) {
		wire_random_hdr(&rnd, &h, ORXE_RC_SEND_ONLY_WITH_IMMEDIATE, ipv6, sizeof(payload));
		prandom_bytes_state(&rnd, payload, sizeof(payload));
		la = oib_rxe_frame_build(&h, payload, a, WIRE_BUF);
		lb = oib_rxe_frame_build(&h, NULL, b, WIRE_BUF);
		KUNIT_ASSERT_GT(test, la, 0);
		KUNIT_ASSERT_EQ(test, lb, la);
		memcpy(b + (ipv6 ? WIRE_BTH6 : WIRE_BTH4) + 16, payload, sizeof(payload));
		oib_rxe_frame_seal(b, lb);
		KUNIT_EXPECT_MEMEQ(test, a, b, la);
	}
}

/* Each frame of @frames, sealed, is the builder's copy of the packet of @h its turn names. */
static void wire_expect_frames(struct kunit *test, struct sk_buff_head *frames,
			       const struct orxe_tx_hdr *h, const u8 *kva, const u32 *off)
{
	struct sk_buff *frame, *copy;
	int i;

	for (i = 0; (frame = __skb_dequeue(frames)); i++) {
		copy = alloc_skb(WIRE_BUF, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, copy);
		KUNIT_EXPECT_EQ(test, 0, oib_rxe_frame_build_skb(&h[i], kva + off[i], copy));
		KUNIT_EXPECT_EQ(test, 2, skb_shinfo(frame)->nr_frags);
		KUNIT_EXPECT_TRUE(test, oib_rxe_fabric_seal(frame));
		KUNIT_EXPECT_FALSE(test, skb_is_nonlinear(frame));
		KUNIT_EXPECT_EQ(test, copy->len, frame->len);
		if (copy->len == frame->len)
			KUNIT_EXPECT_MEMEQ(test, copy->data, frame->data, copy->len);
		kfree_skb(frame);
		kfree_skb(copy);
	}
}

/*
 * The fragment path and the copy path give the same bytes: a frame whose payload is a page
 * fragment (oib_rxe_frame_frag()), sealed as the fabric seals it, equals the frame the builder
 * copies the payload into, for IPv4 and IPv6, lengths that need a pad or fill the page, at the
 * page's start and end.  A payload crossing a page boundary is refused (the caller copies).
 */
static void wire_test_frag_equals_copy(struct kunit *test)
{
	static const u32 lens[] = { 1, 3, 4, 61, 1024, 4093, 4096 };
	struct page *page = alloc_page(GFP_KERNEL);
	struct sk_buff_head frames;
	struct sk_buff *frag;
	struct orxe_tx_hdr h;
	struct rnd_state rnd;
	int i, ipv6;
	u8 *kva;

	KUNIT_ASSERT_NOT_NULL(test, page);
	kva = page_address(page);
	prandom_seed_state(&rnd, WIRE_SEED);
	prandom_bytes_state(&rnd, kva, PAGE_SIZE);
	for (ipv6 = 0; ipv6 < 2; ipv6++) {
		for (i = 0; i < ARRAY_SIZE(lens) * 2; i++) {
			u32 len = lens[i / 2], off = i % 2 ? PAGE_SIZE - len : 0;

			wire_random_hdr(&rnd, &h, ORXE_RC_SEND_ONLY, ipv6, len);
			frag = oib_rxe_frame_frag(&h, kva + off);
			KUNIT_ASSERT_NOT_NULL(test, frag);
			KUNIT_EXPECT_TRUE(test, frag->ip_summed == CHECKSUM_PARTIAL);
			__skb_queue_head_init(&frames);
			__skb_queue_tail(&frames, frag);
			wire_expect_frames(test, &frames, &h, kva, &off);
		}
		/* across the page's end: no fragment frame */
		wire_random_hdr(&rnd, &h, ORXE_RC_SEND_ONLY, ipv6, 8);
		KUNIT_EXPECT_NULL(test, oib_rxe_frame_frag(&h, kva + PAGE_SIZE - 4));
	}
	__free_page(page);
}

/* A full train of random packets (each kind of @ops in turn) with payloads in @kva, and @h. */
static struct sk_buff *wire_train(struct kunit *test, struct rnd_state *rnd, const u8 *kva,
				  bool ipv6, struct orxe_tx_hdr *h, u32 *off)
{
	static const u8 ops[] = { ORXE_RC_RDMA_WRITE_FIRST, ORXE_RC_SEND_MIDDLE,
				  ORXE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, ORXE_UC_SEND_ONLY,
				  ORXE_XRC_RDMA_WRITE_ONLY_WITH_IMMEDIATE,
				  ORXE_RC_RDMA_READ_RESPONSE_FIRST, ORXE_RC_SEND_LAST };
	struct orxe_train t;
	u32 i, len;
	u8 op;

	oib_rxe_train_init(&t, NULL, ORXE_TRAIN_MAX);
	for (i = 0; i < ORXE_TRAIN_MAX; i++) {
		op = ops[i % ARRAY_SIZE(ops)];
		/* only a message's last packet may leave words incomplete */
		if (oib_rxe_opcode(op)->flags & ORXE_OPF_LAST)
			len = 1 + wire_rand(rnd, 256);
		else
			len = 4 * (1 + wire_rand(rnd, 64));
		off[i] = wire_rand(rnd, PAGE_SIZE - len + 1);
		wire_random_hdr(rnd, &h[i], op, ipv6, len);
		KUNIT_EXPECT_TRUE(test, oib_rxe_train_add(&t, &h[i], kva + off[i]));
	}
	return oib_rxe_train_close(&t);
}

/*
 * A train split as the fabric splits it gives its packets' fragment frames, each, once sealed,
 * the frame the builder copies the payload into: a full train of random headers of every kind
 * that carries a payload (a RETH, an XRCETH, an AETH, immediate data, a pad), IPv4 and IPv6.  A
 * train whose packets' bounds do not add up (an IP length changed) is lost whole.
 */
static void wire_test_train_split(struct kunit *test)
{
	struct orxe_tx_hdr *h = kunit_kcalloc(test, ORXE_TRAIN_MAX, sizeof(*h), GFP_KERNEL);
	struct page *page = alloc_page(GFP_KERNEL);
	struct sk_buff_head frames;
	u32 off[ORXE_TRAIN_MAX];
	struct sk_buff *train;
	struct rnd_state rnd;
	int ipv6, bad;
	u8 *kva;

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_NOT_NULL(test, page);
	kva = page_address(page);
	prandom_seed_state(&rnd, WIRE_SEED);
	prandom_bytes_state(&rnd, kva, PAGE_SIZE);
	for (bad = 0; bad < 2; bad++) {
		for (ipv6 = 0; ipv6 < 2; ipv6++) {
			train = wire_train(test, &rnd, kva, ipv6, h, off);
			KUNIT_ASSERT_NOT_NULL(test, train);
			KUNIT_EXPECT_EQ(test, ORXE_TRAIN_MAX, skb_shinfo(train)->gso_segs);
			KUNIT_EXPECT_EQ(test, ORXE_TRAIN_MAX + 1, skb_shinfo(train)->nr_frags);
			if (bad)	/* the first packet's IP length (its low byte), changed */
				train->data[ETH_HLEN + (ipv6 ? 5 : 3)] += 4;
			__skb_queue_head_init(&frames);
			KUNIT_EXPECT_EQ(test, bad ? ORXE_TRAIN_MAX : 0,
					oib_rxe_train_split(train, &frames));
			KUNIT_EXPECT_EQ(test, bad ? 0 : ORXE_TRAIN_MAX, skb_queue_len(&frames));
			wire_expect_frames(test, &frames, h, kva, off);
		}
	}
	__free_page(page);
}

static void wire_test_build_skb(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	u8 payload[100];
	struct orxe_tx_hdr h;
	struct rnd_state rnd;
	struct sk_buff *skb;
	struct orxe_pkt pkt;
	int len, ipv6;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	prandom_seed_state(&rnd, WIRE_SEED);
	for (ipv6 = 0; ipv6 < 2; ipv6++) {
		wire_random_hdr(&rnd, &h, ORXE_RC_RDMA_WRITE_ONLY, ipv6, sizeof(payload));
		prandom_bytes_state(&rnd, payload, sizeof(payload));
		len = oib_rxe_frame_build(&h, payload, buf, WIRE_BUF);
		KUNIT_ASSERT_GT(test, len, 0);

		skb = alloc_skb(NET_IP_ALIGN + len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		skb_reserve(skb, NET_IP_ALIGN);
		KUNIT_EXPECT_EQ(test, oib_rxe_frame_build_skb(&h, payload, skb), 0);
		KUNIT_EXPECT_EQ(test, skb->len, len);
		KUNIT_EXPECT_MEMEQ(test, skb->data, buf, len);
		KUNIT_EXPECT_EQ(test, ntohs(skb->protocol), ipv6 ? ETH_P_IPV6 : ETH_P_IP);
		KUNIT_EXPECT_EQ(test, skb_network_offset(skb), ETH_HLEN);
		KUNIT_EXPECT_EQ(test, skb_transport_offset(skb), ipv6 ? WIRE_UDP6 : WIRE_UDP4);
		KUNIT_EXPECT_EQ(test, oib_rxe_pkt_parse(skb->data, skb->len, &pkt), 0);
		/* Not empty any more; and no room at all. */
		KUNIT_EXPECT_EQ(test, oib_rxe_frame_build_skb(&h, payload, skb), -EINVAL);
		kfree_skb(skb);

		skb = alloc_skb(len - 1, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		skb_reserve(skb, skb_tailroom(skb) - (len - 1));
		KUNIT_EXPECT_EQ(test, oib_rxe_frame_build_skb(&h, payload, skb), -ENOSPC);
		KUNIT_EXPECT_EQ(test, skb->len, 0);
		kfree_skb(skb);
	}
}

/* IPv4 UD: 20 + 8 + 20 (BTH, DETH) + payload and pad + 4 <= 65535. */
#define WIRE_MAX_UD4	65480

static void wire_test_build_errors(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	struct orxe_tx_hdr h, bad;
	u8 *big;
	struct rnd_state rnd;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	prandom_seed_state(&rnd, WIRE_SEED);
	wire_random_hdr(&rnd, &h, ORXE_UD_SEND_ONLY, false, 8);
	len = oib_rxe_frame_build(&h, buf, buf, WIRE_BUF);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, oib_rxe_frame_build(&h, buf, buf, len - 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, oib_rxe_frame_build(&h, buf, buf, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, oib_rxe_frame_build(&h, buf, buf, len), len);

#define WIRE_EXPECT_BUILD(err, change) do {						\
		bad = h;								\
		change;									\
		KUNIT_EXPECT_EQ_MSG(test, oib_rxe_frame_build(&bad, NULL, buf, WIRE_BUF),	\
				    err, #change);					\
	} while (0)
	WIRE_EXPECT_BUILD(-EINVAL, bad.opcode = 0x15);
	WIRE_EXPECT_BUILD(-EINVAL, bad.opcode = 0x60);
	WIRE_EXPECT_BUILD(-EINVAL, bad.opcode = 0xff);
	WIRE_EXPECT_BUILD(-EINVAL, bad.sgid.raw[10] = 0);		/* IPv6 to IPv4 */
	WIRE_EXPECT_BUILD(-EINVAL, bad.dgid.raw[0] = 0x20);		/* IPv4 to IPv6 */
	WIRE_EXPECT_BUILD(-EINVAL, bad.dest_qpn = ORXE_QPN_MASK + 1);
	WIRE_EXPECT_BUILD(-EINVAL, bad.psn = ORXE_PSN_MASK + 1);
	WIRE_EXPECT_BUILD(-EINVAL, bad.flow_label = 0x100000);
	WIRE_EXPECT_BUILD(-EINVAL, bad.deth.src_qpn = ORXE_QPN_MASK + 1);
	WIRE_EXPECT_BUILD(-EINVAL, (bad.opcode = ORXE_XRC_SEND_ONLY,
				    bad.xrc_srqn = ORXE_QPN_MASK + 1));
	WIRE_EXPECT_BUILD(-EINVAL, bad.opcode = 0xb5);			/* XRC's reserved one */
	WIRE_EXPECT_BUILD(-EINVAL, (bad.opcode = ORXE_RC_ACKNOWLEDGE, bad.aeth.msn = 1 << 24));
	WIRE_EXPECT_BUILD(-EINVAL, (bad.opcode = ORXE_RC_ACKNOWLEDGE, bad.paylen = 4));
	WIRE_EXPECT_BUILD(-EINVAL, (bad.opcode = ORXE_RC_RDMA_READ_REQUEST, bad.paylen = 1));
	WIRE_EXPECT_BUILD(-EINVAL, (bad.opcode = ORXE_RC_SEND_FIRST, bad.paylen = 6));
	WIRE_EXPECT_BUILD(-EINVAL, (bad.opcode = ORXE_UC_RDMA_WRITE_MIDDLE, bad.paylen = 3));
	WIRE_EXPECT_BUILD(-EMSGSIZE, bad.paylen = U16_MAX + 1);
	WIRE_EXPECT_BUILD(-EMSGSIZE, bad.paylen = WIRE_MAX_UD4 + 1);
	WIRE_EXPECT_BUILD(-EMSGSIZE, bad.paylen = U32_MAX);
#undef WIRE_EXPECT_BUILD

	/* The longest: 65532 bytes of IPv4 datagram, for the ICRC keeps it whole words. */
	big = kunit_kmalloc(test, U16_MAX + ETH_HLEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	h.paylen = WIRE_MAX_UD4;
	KUNIT_EXPECT_EQ(test, oib_rxe_frame_build(&h, NULL, big, U16_MAX + ETH_HLEN),
			ETH_HLEN + 65532);
}

/* ---- Known answers ---- */

/*
 * IPv4, RC RDMA WRITE ONLY with immediate, 5 bytes of payload ("hello") and 3 of pad.  SE, M and
 * AckReq set, P_Key 0xffff, QP 0x123, PSN 0xabcdef; VA 0x7f0012345678, R_Key 0x11223344, DMA
 * length 5; immediate 0xdeadbeef; DSCP 26 with ECT(0), TTL 64, source port 0xc0de.
 */
static const u8 wire_kat_ipv4[] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00,
	0x45, 0x6a, 0x00, 0x48, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xa4, 0xe7,
	0xc0, 0xa8, 0x0a, 0x01, 0xc0, 0xa8, 0x0a, 0x02,
	0xc0, 0xde, 0x12, 0xb7, 0x00, 0x34, 0x00, 0x00,
	0x0b, 0xf0, 0xff, 0xff, 0x00, 0x00, 0x01, 0x23, 0x80, 0xab, 0xcd, 0xef,
	0x00, 0x00, 0x7f, 0x00, 0x12, 0x34, 0x56, 0x78,
	0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x00, 0x05,
	0xde, 0xad, 0xbe, 0xef,
	0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x00, 0x00, 0x00,
	0x4a, 0x81, 0x06, 0xdf,
};

/*
 * IPv6, UD SEND ONLY with immediate to QP1 from QP1 (GSI Q_Key), 7 bytes of payload ("RoCEv2!")
 * and 1 of pad.  P_Key 0x8001, PSN 0; immediate 0x01020304; traffic class 0xa5, flow label
 * 0x12345, hop limit 255, source port 0xd00d; UDP checksum computed.
 */
static const u8 wire_kat_ipv6[] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00, 0x03, 0x86, 0xdd,
	0x6a, 0x51, 0x23, 0x45, 0x00, 0x2c, 0x11, 0xff,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	0xd0, 0x0d, 0x12, 0xb7, 0x00, 0x2c, 0xc4, 0xa3,
	0x65, 0x10, 0x80, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x01, 0x02, 0x03, 0x04,
	0x52, 0x6f, 0x43, 0x45, 0x76, 0x32, 0x21, 0x00,
	0x2e, 0xd7, 0x37, 0xdf,
};

static void wire_mac(u8 *mac, u8 last)
{
	static const u8 base[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0 };

	memcpy(mac, base, ETH_ALEN);
	mac[5] = last;
}

static void wire_gid6_doc(union oib_gid *gid, u8 last)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[0] = 0x20;	/* 2001:db8::/32, the documentation prefix */
	gid->raw[1] = 0x01;
	gid->raw[2] = 0x0d;
	gid->raw[3] = 0xb8;
	gid->raw[15] = last;
}

static void wire_test_known_answer(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	struct orxe_tx_hdr h = {};
	struct orxe_pkt pkt;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, buf);

	wire_mac(h.dmac, 2);
	wire_mac(h.smac, 1);
	oib_test_gid_v4(&h.sgid, 192, 168, 10, 1);
	oib_test_gid_v4(&h.dgid, 192, 168, 10, 2);
	h.tos = 0x6a;
	h.hop_limit = 64;
	h.udp_sport = 0xc0de;
	h.opcode = ORXE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE;
	h.solicited = true;
	h.migreq = true;
	h.ack_req = true;
	h.pkey = 0xffff;
	h.dest_qpn = 0x123;
	h.psn = 0xabcdef;
	h.reth.va = 0x7f0012345678ULL;
	h.reth.rkey = 0x11223344;
	h.reth.len = 5;
	h.imm = cpu_to_be32(0xdeadbeef);
	h.paylen = 5;
	len = oib_rxe_frame_build(&h, "hello", buf, WIRE_BUF);
	KUNIT_ASSERT_EQ(test, len, sizeof(wire_kat_ipv4));
	KUNIT_EXPECT_MEMEQ(test, buf, wire_kat_ipv4, len);
	KUNIT_EXPECT_EQ(test, wire_parse_exact(test, wire_kat_ipv4, len, &pkt, NULL), 0);

	memset(&h, 0, sizeof(h));
	wire_mac(h.dmac, 4);
	wire_mac(h.smac, 3);
	wire_gid6_doc(&h.sgid, 1);
	wire_gid6_doc(&h.dgid, 2);
	h.tos = 0xa5;
	h.flow_label = 0x12345;
	h.hop_limit = 255;
	h.udp_sport = 0xd00d;
	h.opcode = ORXE_UD_SEND_ONLY_WITH_IMMEDIATE;
	h.pkey = 0x8001;
	h.dest_qpn = 1;
	h.deth.qkey = ORXE_GSI_QKEY;
	h.deth.src_qpn = 1;
	h.imm = cpu_to_be32(0x01020304);
	h.paylen = 7;
	len = oib_rxe_frame_build(&h, "RoCEv2!", buf, WIRE_BUF);
	KUNIT_ASSERT_EQ(test, len, sizeof(wire_kat_ipv6));
	KUNIT_EXPECT_MEMEQ(test, buf, wire_kat_ipv6, len);
	KUNIT_EXPECT_EQ(test, wire_parse_exact(test, wire_kat_ipv6, len, &pkt, NULL), 0);
}

/* AETH syndromes and the constants, as the IBTA numbers them. */
static void wire_test_constants(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ORXE_UDP_PORT, 4791);
	KUNIT_EXPECT_EQ(test, ORXE_GSI_QKEY, 0x80010000);
	KUNIT_EXPECT_EQ(test, ORXE_PSN_MASK, 0xffffff);
	KUNIT_EXPECT_EQ(test, ORXE_BTH_TVER, 0);
	KUNIT_EXPECT_EQ(test, orxe_aeth_syn_ack(0), 0x00);
	KUNIT_EXPECT_EQ(test, orxe_aeth_syn_ack(5), 0x05);
	KUNIT_EXPECT_EQ(test, orxe_aeth_syn_ack(ORXE_AETH_NO_CREDITS), 0x1f);
	KUNIT_EXPECT_EQ(test, orxe_aeth_syn_rnr_nak(0), 0x20);
	KUNIT_EXPECT_EQ(test, orxe_aeth_syn_rnr_nak(31), 0x3f);
	KUNIT_EXPECT_EQ(test, orxe_aeth_syn_nak(ORXE_NAK_PSN_SEQ_ERROR), 0x60);
	KUNIT_EXPECT_EQ(test, orxe_aeth_syn_nak(ORXE_NAK_INVALID_REQUEST), 0x61);
	KUNIT_EXPECT_EQ(test, orxe_aeth_syn_nak(ORXE_NAK_REMOTE_ACCESS_ERROR), 0x62);
	KUNIT_EXPECT_EQ(test, orxe_aeth_syn_nak(ORXE_NAK_REMOTE_OP_ERROR), 0x63);
	KUNIT_EXPECT_EQ(test, orxe_aeth_syn_nak(ORXE_NAK_INVALID_RD_REQUEST), 0x64);
	KUNIT_EXPECT_EQ(test, orxe_aeth_syn_nak(ORXE_NAK_REMOTE_OP_ERROR) & ORXE_AETH_KIND_MASK,
			ORXE_AETH_NAK);
}

/* An ACK's AETH on the wire: syndrome, then the 24-bit MSN. */
static void wire_test_aeth_bytes(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	static const u8 aeth[] = { 0x62, 0x12, 0x34, 0x56 };
	struct orxe_tx_hdr h;
	struct rnd_state rnd;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	prandom_seed_state(&rnd, WIRE_SEED);
	wire_random_hdr(&rnd, &h, ORXE_RC_ACKNOWLEDGE, false, 0);
	h.aeth.syndrome = orxe_aeth_syn_nak(ORXE_NAK_REMOTE_ACCESS_ERROR);
	h.aeth.msn = 0x123456;
	KUNIT_ASSERT_EQ(test, oib_rxe_frame_build(&h, buf, buf, WIRE_BUF), WIRE_BTH4 + 16 + 4);
	KUNIT_EXPECT_MEMEQ(test, buf + WIRE_BTH4 + 12, aeth, sizeof(aeth));
}

/* ---- The ICRC ---- */

/*
 * Is bit @bit of the byte @off bytes into the IP header one the ICRC leaves out?  IPv4: TOS, TTL,
 * header checksum.  IPv6: traffic class, flow label, hop limit.  Both: UDP checksum, BTH resv8a.
 */
static bool wire_icrc_masked(bool ipv6, u32 off, int bit)
{
	u32 udp = ipv6 ? 40 : 20, bth = udp + 8;

	if (off == udp + 6 || off == udp + 7 || off == bth + 4)
		return true;
	if (ipv6)
		return (off == 0 && bit < 4) || off == 1 || off == 2 || off == 3 || off == 7;
	return off == 1 || off == 8 || off == 10 || off == 11;
}

static u32 wire_icrc_of(const u8 *frame, u32 len)
{
	return get_unaligned_le32(frame + len - 4);
}

static void wire_icrc_bits(struct kunit *test, u8 opcode, bool ipv6, u32 paylen)
{
	u8 *orig = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	u8 *buf = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	u8 payload[8];
	struct orxe_tx_hdr h;
	struct rnd_state rnd;
	struct orxe_pkt pkt;
	int len, i, bit, masked = 0, covered = 0, ret;
	u32 icrc;

	KUNIT_ASSERT_NOT_NULL(test, orig);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	prandom_seed_state(&rnd, WIRE_SEED + opcode);
	wire_random_hdr(&rnd, &h, opcode, ipv6, paylen);
	prandom_bytes_state(&rnd, payload, sizeof(payload));
	len = oib_rxe_frame_build(&h, payload, orig, WIRE_BUF);
	KUNIT_ASSERT_GT(test, len, 0);
	icrc = wire_icrc_of(orig, len);

	for (i = ETH_HLEN; i < len - 4; i++) {
		for (bit = 0; bit < 8; bit++) {
			bool skip = wire_icrc_masked(ipv6, i - ETH_HLEN, bit);

			memcpy(buf, orig, len);
			buf[i] ^= BIT(bit);
			/* As received: a flip anywhere the ICRC covers is a drop. */
			ret = wire_parse_exact(test, buf, len, &pkt, NULL);
			if (!skip)
				KUNIT_EXPECT_TRUE_MSG(test, wire_is_reason(ret),
						      "byte %d bit %d: %d", i, bit, ret);
			/* As resent: the ICRC changes, but not for the variant bits. */
			oib_rxe_frame_seal(buf, len);
			if (skip) {
				masked++;
				KUNIT_EXPECT_EQ_MSG(test, wire_icrc_of(buf, len), icrc,
						    "byte %d bit %d", i, bit);
			} else {
				covered++;
				KUNIT_EXPECT_NE_MSG(test, wire_icrc_of(buf, len), icrc,
						    "byte %d bit %d", i, bit);
			}
		}
	}
	/* IPv4: 4 bytes of IP, 2 of UDP, 1 of BTH; IPv6: 3.5 + 1 of IP, 2 of UDP, 1 of BTH. */
	KUNIT_EXPECT_EQ(test, masked, ipv6 ? 60 : 56);
	KUNIT_EXPECT_EQ(test, masked + covered, (len - ETH_HLEN - 4) * 8);

	/* A flipped ICRC bit is a bad ICRC and nothing else (past IPv6's UDP checksum). */
	for (bit = 0; bit < 32; bit++) {
		memcpy(buf, orig, len);
		buf[len - 4 + bit / 8] ^= BIT(bit % 8);
		if (ipv6)
			put_unaligned_be16(0, buf + WIRE_UDP6 + 6);
		ret = wire_parse_exact(test, buf, len, &pkt, NULL);
		KUNIT_EXPECT_EQ(test, ret, -ORXE_DROP_BAD_ICRC);
	}
}

static void wire_test_icrc_bit_flips(struct kunit *test)
{
	int ipv6;

	for (ipv6 = 0; ipv6 < 2; ipv6++) {
		wire_icrc_bits(test, ORXE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, ipv6, 3);
		wire_icrc_bits(test, ORXE_UD_SEND_ONLY_WITH_IMMEDIATE, ipv6, 8);
		wire_icrc_bits(test, ORXE_RC_ATOMIC_ACKNOWLEDGE, ipv6, 0);
	}
}

/* Whole variant fields rewritten: the ICRC stays, and the parser reports the new values. */
static void wire_test_icrc_variant_fields(struct kunit *test)
{
	u8 *orig = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	u8 *buf = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	struct orxe_tx_hdr h;
	struct rnd_state rnd;
	struct orxe_pkt pkt;
	u8 payload[13];
	int len, ipv6, round;
	u32 icrc;

	KUNIT_ASSERT_NOT_NULL(test, orig);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	prandom_seed_state(&rnd, WIRE_SEED);
	for (ipv6 = 0; ipv6 < 2; ipv6++) {
		wire_random_hdr(&rnd, &h, ORXE_RC_SEND_ONLY, ipv6, sizeof(payload));
		prandom_bytes_state(&rnd, payload, sizeof(payload));
		len = oib_rxe_frame_build(&h, payload, orig, WIRE_BUF);
		KUNIT_ASSERT_GT(test, len, 0);
		icrc = wire_icrc_of(orig, len);

		for (round = 0; round < 64; round++) {
			u8 tos = prandom_u32_state(&rnd), hop = prandom_u32_state(&rnd);
			u32 flow = prandom_u32_state(&rnd) & 0xfffff;
			u8 resv8a = prandom_u32_state(&rnd);
			u16 ucheck = prandom_u32_state(&rnd);
			u8 *ip = buf + ETH_HLEN;
			u8 *bth = buf + (ipv6 ? WIRE_BTH6 : WIRE_BTH4);
			u8 *udp = buf + (ipv6 ? WIRE_UDP6 : WIRE_UDP4);

			memcpy(buf, orig, len);
			if (ipv6) {
				ip[0] = 0x60 | tos >> 4;
				ip[1] = (tos & 0xf) << 4 | flow >> 16;
				ip[2] = flow >> 8;
				ip[3] = flow;
				ip[7] = hop;
			} else {
				ip[1] = tos;
				ip[8] = hop;
				put_unaligned_be16(ucheck, ip + 10);	/* the IP checksum */
			}
			put_unaligned_be16(ucheck, udp + 6);
			bth[4] = resv8a;
			/* The ICRC seal computes over this frame must be the one it had. */
			memset(buf + len - 4, 0, 4);
			oib_rxe_frame_seal(buf, len);
			KUNIT_EXPECT_EQ(test, wire_icrc_of(buf, len), icrc);

			/* A router's rewrite (checksums made right again) still parses. */
			put_unaligned_be16(0, udp + 6);
			if (!ipv6) {
				put_unaligned_be16(0, ip + 10);
				put_unaligned_be16(ntohs((__force __be16)ip_fast_csum(ip, 5)),
						   ip + 10);
			}
			KUNIT_EXPECT_EQ(test, wire_parse_exact(test, buf, len, &pkt, NULL), 0);
			KUNIT_EXPECT_EQ(test, pkt.tos, tos);
			KUNIT_EXPECT_EQ(test, pkt.hop_limit, hop);
			KUNIT_EXPECT_EQ(test, pkt.flow_label, ipv6 ? flow : 0);
		}
	}
}

/* ---- Refusals ---- */

/* Make the IP and UDP lengths fit a frame of @len bytes, fix the IPv4 checksum, reseal. */
static void wire_refit(u8 *frame, u32 len)
{
	bool ipv6 = get_unaligned_be16(frame + 12) == ETH_P_IPV6;
	u8 *ip = frame + ETH_HLEN;
	u32 l4 = len - ETH_HLEN - (ipv6 ? 40 : 20);

	put_unaligned_be16(l4, (ipv6 ? frame + WIRE_UDP6 : frame + WIRE_UDP4) + 4);
	if (ipv6) {
		put_unaligned_be16(l4, ip + 4);
	} else {
		put_unaligned_be16(20 + l4, ip + 2);
		put_unaligned_be16(0, ip + 10);
		put_unaligned_be16(ntohs((__force __be16)ip_fast_csum(ip, 5)), ip + 10);
	}
	/* Too short for an ICRC: no seal, and IPv6's UDP checksum goes (0 is allowed). */
	if (len >= (ipv6 ? WIRE_BTH6 : WIRE_BTH4) + 16)
		oib_rxe_frame_seal(frame, len);
	else if (ipv6)
		put_unaligned_be16(0, frame + WIRE_UDP6 + 6);
}

static void wire_fix_ip4_csum(u8 *frame)
{
	u8 *ip = frame + ETH_HLEN;

	put_unaligned_be16(0, ip + 10);
	put_unaligned_be16(ntohs((__force __be16)ip_fast_csum(ip, 5)), ip + 10);
}

struct wire_drop_ctx {
	struct kunit *test;
	u8 *base;		/* a valid frame */
	u8 *buf;		/* its copy, to spoil */
	int len;
	bool ipv6;
	unsigned long seen;	/* BIT(reason) for each reason produced */
};

static void wire_build_base(struct wire_drop_ctx *c, u8 opcode, bool ipv6, u32 paylen)
{
	struct orxe_tx_hdr h;
	struct rnd_state rnd;
	u8 payload[16] = {};

	prandom_seed_state(&rnd, WIRE_SEED + opcode);
	wire_random_hdr(&rnd, &h, opcode, ipv6, paylen);
	c->len = oib_rxe_frame_build(&h, payload, c->base, WIRE_BUF);
	KUNIT_ASSERT_GT(c->test, c->len, 0);
	c->ipv6 = ipv6;
	memcpy(c->buf, c->base, c->len);
}

static void wire_expect_drop(struct wire_drop_ctx *c, u32 len, int reason, const char *what)
{
	struct orxe_pkt pkt;
	int ret = wire_parse_exact(c->test, c->buf, len, &pkt, NULL);

	KUNIT_EXPECT_EQ_MSG(c->test, ret, -reason, "%s (%s): got %s", what,
			    c->ipv6 ? "IPv6" : "IPv4", oib_rxe_drop_reason_name(ret));
	if (ret == -reason)
		c->seen |= BIT(reason);
	memcpy(c->buf, c->base, c->len);	/* ready for the next spoiling */
}

static void wire_test_drop_reasons(struct kunit *test)
{
	struct wire_drop_ctx c = { .test = test };
	struct orxe_pkt pkt;
	u8 *ip, *udp, *bth;
	int opcode, ipv6, r;

	c.base = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	c.buf = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c.base);
	KUNIT_ASSERT_NOT_NULL(test, c.buf);
	ip = c.buf + ETH_HLEN;

	for (ipv6 = 0; ipv6 < 2; ipv6++) {
		wire_build_base(&c, ORXE_RC_SEND_ONLY, ipv6, 8);
		udp = c.buf + (ipv6 ? WIRE_UDP6 : WIRE_UDP4);
		bth = c.buf + (ipv6 ? WIRE_BTH6 : WIRE_BTH4);

		wire_expect_drop(&c, ETH_HLEN - 1, ORXE_DROP_TOO_SHORT, "no Ethernet header");
		wire_expect_drop(&c, ETH_HLEN + (ipv6 ? 39 : 19), ORXE_DROP_TOO_SHORT,
				 "part of an IP header");

		put_unaligned_be16(ETH_P_8021Q, c.buf + 12);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_ETHERTYPE, "VLAN tag");
		put_unaligned_be16(ETH_P_ARP, c.buf + 12);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_ETHERTYPE, "ARP");
		put_unaligned_be16(ipv6 ? ETH_P_IP : ETH_P_IPV6, c.buf + 12);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_IP_VERSION, "other family's ethertype");

		ip[0] = ipv6 ? 0x40 | (ip[0] & 0xf) : 0x65;
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_IP_VERSION, "IP version");

		if (ipv6) {
			put_unaligned_be16(c.len - WIRE_UDP6 + 1, ip + 4);
			wire_expect_drop(&c, c.len, ORXE_DROP_BAD_IP_LEN, "payload length > frame");
			put_unaligned_be16(7, ip + 4);
			wire_expect_drop(&c, c.len, ORXE_DROP_BAD_IP_LEN, "payload length < UDP");
			ip[6] = IPPROTO_TCP;
			wire_expect_drop(&c, c.len, ORXE_DROP_NOT_UDP, "TCP");
			ip[6] = IPPROTO_FRAGMENT;
			wire_expect_drop(&c, c.len, ORXE_DROP_NOT_UDP, "extension header");
		} else {
			ip[0] = 0x46;
			wire_expect_drop(&c, c.len, ORXE_DROP_BAD_IP_HDR_LEN, "IP options");
			ip[0] = 0x44;
			wire_expect_drop(&c, c.len, ORXE_DROP_BAD_IP_HDR_LEN, "IHL 4");
			ip[8] ^= 1;
			wire_expect_drop(&c, c.len, ORXE_DROP_BAD_IP_CSUM, "TTL, stale checksum");
			ip[10] ^= 0x80;
			wire_expect_drop(&c, c.len, ORXE_DROP_BAD_IP_CSUM, "IP checksum");
			put_unaligned_be16(c.len - ETH_HLEN + 1, ip + 2);
			wire_fix_ip4_csum(c.buf);
			wire_expect_drop(&c, c.len, ORXE_DROP_BAD_IP_LEN, "total length > frame");
			put_unaligned_be16(27, ip + 2);
			wire_fix_ip4_csum(c.buf);
			wire_expect_drop(&c, c.len, ORXE_DROP_BAD_IP_LEN, "total length < UDP");
			ip[6] |= 0x20;	/* more fragments */
			wire_fix_ip4_csum(c.buf);
			wire_expect_drop(&c, c.len, ORXE_DROP_IP_FRAGMENT, "MF");
			ip[7] = 1;	/* fragment offset 8 */
			wire_fix_ip4_csum(c.buf);
			wire_expect_drop(&c, c.len, ORXE_DROP_IP_FRAGMENT, "fragment offset");
			ip[9] = IPPROTO_TCP;
			wire_fix_ip4_csum(c.buf);
			wire_expect_drop(&c, c.len, ORXE_DROP_NOT_UDP, "TCP");
		}

		put_unaligned_be16(ORXE_UDP_PORT - 1, udp + 2);
		oib_rxe_frame_seal(c.buf, c.len);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_UDP_PORT, "UDP port 4790");
		put_unaligned_be16(get_unaligned_be16(udp + 4) - 4, udp + 4);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_UDP_LEN, "UDP length short");
		put_unaligned_be16(get_unaligned_be16(udp + 4) + 4, udp + 4);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_UDP_LEN, "UDP length long");
		put_unaligned_be16(get_unaligned_be16(udp + 6) ^ 0x1234, udp + 6);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_UDP_CSUM, "UDP checksum");

		/* 12 bytes of IB: not even a BTH and an ICRC. */
		wire_refit(c.buf, c.len - 12);
		wire_expect_drop(&c, c.len - 12, ORXE_DROP_SHORT_BTH, "short of BTH + ICRC");
		wire_refit(c.buf, bth - c.buf);
		wire_expect_drop(&c, bth - c.buf, ORXE_DROP_SHORT_BTH, "no IB packet");

		/* Past IPv6's UDP checksum, which would see them first. */
		bth[12] ^= 0x10;
		put_unaligned_be16(0, udp + 6);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_ICRC, "payload bit");
		bth[5] ^= 0x01;
		put_unaligned_be16(0, udp + 6);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_ICRC, "QPN bit");

		bth[1] |= 1;
		oib_rxe_frame_seal(c.buf, c.len);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_TVER, "transport version 1");

		for (opcode = 0; opcode < 256; opcode++) {
			if (wire_op_find(opcode))
				continue;
			bth[0] = opcode;
			oib_rxe_frame_seal(c.buf, c.len);
			wire_expect_drop(&c, c.len, ORXE_DROP_BAD_OPCODE, "unknown opcode");
		}

		/* SEND ONLY's 8 bytes of payload: short of an RDMA WRITE ONLY's RETH. */
		bth[0] = ORXE_RC_RDMA_WRITE_ONLY;
		oib_rxe_frame_seal(c.buf, c.len);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_OPCODE_LEN, "short of a RETH");
		bth[0] = ORXE_RC_ATOMIC_ACKNOWLEDGE;
		oib_rxe_frame_seal(c.buf, c.len);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_OPCODE_LEN, "short of an AtomicAckETH");
		bth[0] = ORXE_RC_ACKNOWLEDGE;
		oib_rxe_frame_seal(c.buf, c.len);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_OPCODE_LEN, "ACK with payload");

		/* One byte more: not whole words. */
		c.buf[c.len] = 0;
		wire_refit(c.buf, c.len + 1);
		wire_expect_drop(&c, c.len + 1, ORXE_DROP_BAD_PAD, "odd length");
		bth[0] = ORXE_RC_SEND_FIRST;
		bth[1] |= 1 << ORXE_BTH_PAD_SHIFT;
		oib_rxe_frame_seal(c.buf, c.len);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_PAD, "pad on a first packet");
		bth[0] = ORXE_RC_SEND_MIDDLE;
		bth[1] |= 3 << ORXE_BTH_PAD_SHIFT;
		oib_rxe_frame_seal(c.buf, c.len);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_PAD, "pad on a middle packet");

		wire_build_base(&c, ORXE_RC_ACKNOWLEDGE, ipv6, 0);
		bth = c.buf + (ipv6 ? WIRE_BTH6 : WIRE_BTH4);
		bth[1] |= 1 << ORXE_BTH_PAD_SHIFT;
		oib_rxe_frame_seal(c.buf, c.len);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_PAD, "pad with no payload");
		wire_build_base(&c, ORXE_RC_SEND_LAST, ipv6, 0);
		bth[1] |= 3 << ORXE_BTH_PAD_SHIFT;
		oib_rxe_frame_seal(c.buf, c.len);
		wire_expect_drop(&c, c.len, ORXE_DROP_BAD_PAD, "pad longer than the payload");
	}
	for (r = 1; r < ORXE_NUM_DROP_REASONS; r++)
		KUNIT_EXPECT_TRUE_MSG(test, c.seen & BIT(r), "reason %s never produced",
				      oib_rxe_drop_reason_name(r));

	/* A receiver takes Ethernet padding, a right IPv4 UDP checksum and a zero IPv6 one. */
	for (ipv6 = 0; ipv6 < 2; ipv6++) {
		wire_build_base(&c, ORXE_RC_SEND_ONLY, ipv6, 0);
		memset(c.buf + c.len, 0xee, 16);
		KUNIT_EXPECT_EQ(test, wire_parse_exact(test, c.buf, c.len + 16, &pkt, NULL), 0);
		KUNIT_EXPECT_EQ(test, pkt.paylen, 0);
		udp = c.buf + (ipv6 ? WIRE_UDP6 : WIRE_UDP4);
		if (ipv6) {
			put_unaligned_be16(0, udp + 6);
		} else {
			u32 l4 = c.len - WIRE_UDP4;
			__sum16 sum = csum_tcpudp_magic(get_unaligned((__be32 *)(c.buf + 26)),
							get_unaligned((__be32 *)(c.buf + 30)), l4,
							IPPROTO_UDP, csum_partial(udp, l4, 0));

			put_unaligned((__force u16)(sum ?: CSUM_MANGLED_0), (u16 *)(udp + 6));
		}
		KUNIT_EXPECT_EQ(test, wire_parse_exact(test, c.buf, c.len, &pkt, NULL), 0);
	}
}

static void wire_test_reason_names(struct kunit *test)
{
	const char *names[ORXE_NUM_DROP_REASONS] = {};
	int r, s;

	for (r = 1; r < ORXE_NUM_DROP_REASONS; r++) {
		names[r] = oib_rxe_drop_reason_name(r);
		KUNIT_EXPECT_STRNEQ(test, names[r], "?");
		KUNIT_EXPECT_STREQ(test, oib_rxe_drop_reason_name(-r), names[r]);
		for (s = 1; s < r; s++)
			KUNIT_EXPECT_STRNEQ(test, names[r], names[s]);
	}
	KUNIT_EXPECT_STREQ(test, oib_rxe_drop_reason_name(ORXE_DROP_TOO_SHORT), "too_short");
	KUNIT_EXPECT_STREQ(test, oib_rxe_drop_reason_name(ORXE_DROP_BAD_ICRC), "bad_icrc");
	KUNIT_EXPECT_STREQ(test, oib_rxe_drop_reason_name(0), "?");
	KUNIT_EXPECT_STREQ(test, oib_rxe_drop_reason_name(ORXE_NUM_DROP_REASONS), "?");
	KUNIT_EXPECT_STREQ(test, oib_rxe_drop_reason_name(-ORXE_NUM_DROP_REASONS), "?");
	KUNIT_EXPECT_STREQ(test, oib_rxe_drop_reason_name(INT_MIN), "?");
}

/* Every prefix of every kind of frame is refused, with a reason, reading only what is there. */
static void wire_test_truncated(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	u8 payload[5] = { 1, 2, 3, 4, 5 };
	u32 counts[ORXE_NUM_DROP_REASONS] = {};
	struct orxe_tx_hdr h;
	struct rnd_state rnd;
	struct orxe_pkt pkt;
	int i, ipv6, len, n, ret, frames = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	prandom_seed_state(&rnd, WIRE_SEED);
	for (ipv6 = 0; ipv6 < 2; ipv6++) {
		for (i = 0; i < ARRAY_SIZE(wire_ops); i++) {
			const struct wire_op *op = &wire_ops[i];
			u32 paylen = !op->payload ? 0 : op->pos == F || op->pos == M ? 4 : 5;

			wire_random_hdr(&rnd, &h, op->opcode, ipv6, paylen);
			len = oib_rxe_frame_build(&h, payload, buf, WIRE_BUF);
			KUNIT_ASSERT_GT(test, len, 0);
			for (n = 0; n < len; n++) {
				ret = wire_parse_exact(test, buf, n, &pkt, NULL);
				KUNIT_EXPECT_TRUE_MSG(test, wire_is_reason(ret), "%s, %d of %d",
						      op->name, n, len);
				if (wire_is_reason(ret))
					counts[-ret]++;
				frames++;
			}
			KUNIT_EXPECT_EQ(test, wire_parse_exact(test, buf, len, &pkt, NULL), 0);
		}
	}
	kunit_info(test, "%d truncated frames: too_short %u, bad_ip_len %u, others %u", frames,
		   counts[ORXE_DROP_TOO_SHORT], counts[ORXE_DROP_BAD_IP_LEN],
		   frames - counts[ORXE_DROP_TOO_SHORT] - counts[ORXE_DROP_BAD_IP_LEN]);
}

/* ---- Fuzz ---- */

#define WIRE_FUZZ_ROUNDS	4000

/*
 * Would a change to bit @bit of byte @i go unnoticed?  Only where nothing checks it: the MAC
 * addresses, IPv6's variant fields, and resv8a (FECN, BECN), which the ICRC leaves out.  IPv4's
 * variant fields are under its header checksum; the UDP checksum is judged separately.
 */
static bool wire_bit_free(bool ipv6, u32 i, int bit)
{
	if (i < 2 * ETH_ALEN)
		return true;
	if (i < ETH_HLEN)
		return false;
	i -= ETH_HLEN;
	if (i == (ipv6 ? 40 : 20) + 8 + 4)
		return true;
	return ipv6 && wire_icrc_masked(ipv6, i, bit) && i < 40;
}

/* The UDP checksum a receiver accepts: zero, or right. */
static bool wire_udp_csum_ok(const u8 *frame, u32 len, bool ipv6)
{
	const u8 *ip = frame + ETH_HLEN;
	const u8 *udp = ip + (ipv6 ? 40 : 20);
	u32 l4 = get_unaligned_be16(udp + 4);

	if (!get_unaligned_be16(udp + 6))
		return true;
	if (ipv6)
		return !csum_ipv6_magic((const struct in6_addr *)(ip + 8),
					(const struct in6_addr *)(ip + 24), l4, IPPROTO_UDP,
					csum_partial(udp, l4, 0));
	return !csum_tcpudp_magic(get_unaligned((__be32 *)(ip + 12)),
				  get_unaligned((__be32 *)(ip + 16)), l4, IPPROTO_UDP,
				  csum_partial(udp, l4, 0));
}

/* Should the mutated @buf (same length as @orig) still parse? */
static bool wire_still_valid(const u8 *orig, const u8 *buf, u32 len, bool ipv6)
{
	u32 udp = ETH_HLEN + (ipv6 ? 40 : 20);
	u32 i;
	int bit;

	for (i = 0; i < len; i++) {
		u8 diff = orig[i] ^ buf[i];

		if (i == udp + 6 || i == udp + 7)
			continue;
		for (bit = 0; bit < 8; bit++)
			if ((diff & BIT(bit)) && !wire_bit_free(ipv6, i, bit))
				return false;
	}
	return wire_udp_csum_ok(buf, len, ipv6);
}

static void wire_test_fuzz(struct kunit *test)
{
	u8 *orig = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	u8 *buf = kunit_kzalloc(test, WIRE_BUF, GFP_KERNEL);
	u8 *payload = kunit_kzalloc(test, 256, GFP_KERNEL);
	u32 counts[ORXE_NUM_DROP_REASONS] = {};
	int round, len, n, k, ret, accepted = 0, kept = 0;
	struct orxe_tx_hdr h;
	struct rnd_state rnd;
	struct orxe_pkt pkt;
	bool ipv6, valid;

	KUNIT_ASSERT_NOT_NULL(test, orig);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, payload);
	prandom_seed_state(&rnd, WIRE_SEED);

	for (round = 0; round < WIRE_FUZZ_ROUNDS; round++) {
		len = wire_random_frame(test, &rnd, orig, &h, payload);
		ipv6 = !orxe_gid_is_v4mapped(&h.dgid);
		memcpy(buf, orig, len);
		n = len;

		switch (round % 4) {
		case 0:		/* noise */
			n = wire_rand(&rnd, 256);
			prandom_bytes_state(&rnd, buf, n);
			valid = false;
			break;
		case 1:		/* believable outer headers, noise from the BTH on */
			prandom_bytes_state(&rnd, buf + (ipv6 ? WIRE_BTH6 : WIRE_BTH4),
					    len - (ipv6 ? WIRE_BTH6 : WIRE_BTH4));
			valid = false;
			break;
		case 2:		/* a few bits or bytes changed */
			for (k = 1 + wire_rand(&rnd, 4); k; k--) {
				if (wire_rand(&rnd, 2))
					buf[wire_rand(&rnd, len)] ^= BIT(wire_rand(&rnd, 8));
				else
					buf[wire_rand(&rnd, len)] = prandom_u32_state(&rnd);
			}
			valid = wire_still_valid(orig, buf, len, ipv6);
			break;
		default:	/* cut short, or with trailing bytes (Ethernet padding) */
			if (wire_rand(&rnd, 2)) {
				n = wire_rand(&rnd, len);
				valid = false;
			} else {
				n = len + 1 + wire_rand(&rnd, 64);
				prandom_bytes_state(&rnd, buf + len, n - len);
				valid = true;
			}
			break;
		}

		ret = wire_parse_exact(test, buf, n, &pkt, NULL);
		if (valid) {
			KUNIT_EXPECT_EQ_MSG(test, ret, 0, "round %d: %s", round,
					    oib_rxe_drop_reason_name(ret));
			kept++;
		} else {
			KUNIT_EXPECT_TRUE_MSG(test, wire_is_reason(ret), "round %d: %d", round,
					      ret);
		}
		if (!ret)
			accepted++;
		else if (wire_is_reason(ret))
			counts[-ret]++;
	}
	KUNIT_EXPECT_EQ(test, accepted, kept);
	kunit_info(test, "%d frames: %d accepted; bad_icrc %u, bad_ip_len %u, bad_ethertype %u",
		   WIRE_FUZZ_ROUNDS, accepted, counts[ORXE_DROP_BAD_ICRC],
		   counts[ORXE_DROP_BAD_IP_LEN], counts[ORXE_DROP_BAD_ETHERTYPE]);
	oib_test_fuzz_inputs(test, "rxe_wire", WIRE_FUZZ_ROUNDS);
}

static struct kunit_case oib_rxe_wire_test_cases[] = {
	KUNIT_CASE(wire_test_opcode_table),
	KUNIT_CASE(wire_test_constants),
	KUNIT_CASE(wire_test_round_trip_ipv4),
	KUNIT_CASE(wire_test_round_trip_ipv6),
	KUNIT_CASE(wire_test_build_deferred_payload),
	KUNIT_CASE(wire_test_frag_equals_copy),
	KUNIT_CASE(wire_test_train_split),
	KUNIT_CASE(wire_test_build_skb),
	KUNIT_CASE(wire_test_build_errors),
	KUNIT_CASE(wire_test_known_answer),
	KUNIT_CASE(wire_test_aeth_bytes),
	KUNIT_CASE(wire_test_icrc_bit_flips),
	KUNIT_CASE(wire_test_icrc_variant_fields),
	KUNIT_CASE(wire_test_drop_reasons),
	KUNIT_CASE(wire_test_reason_names),
	KUNIT_CASE_SLOW(wire_test_truncated),
	KUNIT_CASE_SLOW(wire_test_fuzz),
	{}
};

static struct kunit_suite oib_rxe_wire_test_suite = {
	.name = "oib_rxe_wire",
	.test_cases = oib_rxe_wire_test_cases,
};

kunit_test_suite(oib_rxe_wire_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the oib_rxe RoCEv2 wire format");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
