// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for oib_siw's connection setup against a raw TCP peer (raw_peer.h) on the guest's
 * test netdevs: IRD/ORD negotiation as responder and as initiator (RFC 6581 section 5: our ORD
 * never exceeds the peer's IRD; each side's IRD is its own), MPA revision 1 peers both ways
 * (the in-tree siw with mpa_version=1), and the CRC path: asked for by the peer, asked for by us
 * (mpa_crc), between two oib_siw devices, and a corrupted CRC, which ends the connection with a
 * TERMINATE and is counted.
 */
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/module.h>
#include <linux/unaligned.h>
#include <oib/iw_cm.h>
#include <oib/kunit/siw.h>
#include <oib/siw.h>
#include "oib_toolkit_siw.h"
#include "raw_peer.h"

#define SIWT_FPDU_MAX	(SIWT_SEND_HDR + 256 + 4)

/* The raw peer sends a SEND of @len bytes of @fill; our end receives it whole. */
static void siwt_raw_to_us(struct kunit *test, struct siwt_raw *r, u32 msn, u8 fill, u16 len,
			   bool crc)
{
	struct cmat_rec *me = r->rec;
	u8 *buf = kunit_kzalloc(test, len, GFP_KERNEL);
	u8 fpdu[SIWT_FPDU_MAX];
	struct oib_sge sge = { .addr = (uintptr_t)buf, .length = len,
			       .lkey = me->end->pd->local_dma_lkey };
	struct oib_recv_wr wr = { .wr_id = msn, .sg_list = &sge, .num_sge = 1 };
	struct oib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, 0, oib_post_recv(me->id->qp, &wr, NULL));
	KUNIT_ASSERT_EQ(test, 0, siwt_raw_send(r->sock, fpdu,
					       siwt_send_fpdu(fpdu, msn, fill, len, crc)));
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(me->end->cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	KUNIT_EXPECT_EQ(test, buf[len - 1], fill);
}

/* Our end sends @len bytes of @fill; the raw peer reads the FPDU: SEND, @msn, its CRC. */
static void siwt_us_to_raw(struct kunit *test, struct siwt_raw *r, u32 msn, u8 fill, u16 len,
			   bool crc)
{
	struct cmat_rec *me = r->rec;
	u8 *buf = kunit_kzalloc(test, len, GFP_KERNEL);
	u8 fpdu[SIWT_FPDU_MAX], want[SIWT_FPDU_MAX];
	struct oib_sge sge = { .addr = (uintptr_t)buf, .length = len,
			       .lkey = me->end->pd->local_dma_lkey };
	struct oib_send_wr wr = { .wr_id = msn, .sg_list = &sge, .num_sge = 1,
				  .opcode = OIB_WR_SEND, .send_flags = OIB_SEND_SIGNALED };
	size_t n = siwt_send_fpdu(want, msn, fill, len, crc);
	struct oib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, fill, len);
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(me->id->qp, &wr, NULL));
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(me->end->cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, 0, siwt_raw_recv(r->sock, fpdu, n));
	KUNIT_EXPECT_EQ(test, 0, memcmp(fpdu, want, n));	/* header, data, pad, CRC */
}

/* ---- IRD/ORD ---- */

struct siwt_ird_case {
	const char *name;
	u16 peer_ird, peer_ord;
	u8 our_ird, our_ord;	/* what our ULP asks for */
	u16 ird, ord;		/* negotiated: ours, and our ORD no more than the peer's IRD */
};

static const struct siwt_ird_case siwt_ird_cases[] = {
	{ "peer_above", 16, 16, 2, 2, 2, 2 },
	{ "peer_below", 1, 1, 4, 4, 4, 1 },
	{ "peer_no_reads", 0, 3, 4, 4, 4, 0 },
	{ "peer_mixed", 8, 0, 2, 6, 2, 6 },
};

KUNIT_ARRAY_PARAM_DESC(siwt_ird, siwt_ird_cases, name);

/* The raw peer initiates: the request's IRD/ORD reach our ULP, the reply has the result. */
static void siwt_ird_ord_responder(struct kunit *test)
{
	const struct siwt_ird_case *c = test->param_value;
	const struct oib_cma_conn_param *req, *est;
	struct siwt_raw r;

	siwt_raw_initiates(test, &r, SIWT_MPA_E, 2, c->peer_ird, c->peer_ord, 0, c->our_ird,
			   c->our_ord);
	req = &r.rec->last[OIB_CMA_EVENT_CONNECT_REQUEST].param.conn;
	KUNIT_EXPECT_EQ(test, req->responder_resources, c->peer_ord);	/* the peer would read */
	KUNIT_EXPECT_EQ(test, req->initiator_depth, c->peer_ird);
	KUNIT_EXPECT_EQ(test, siwt_bits(&r), SIWT_MPA_E | 2);
	KUNIT_EXPECT_EQ(test, siwt_mpa_word(r.frame, 0), c->ird);
	KUNIT_EXPECT_EQ(test, siwt_mpa_word(r.frame, 1), c->ord);
	est = &r.rec->last[OIB_CMA_EVENT_ESTABLISHED].param.conn;
	KUNIT_EXPECT_EQ(test, est->responder_resources, c->ird);
	KUNIT_EXPECT_EQ(test, est->initiator_depth, c->ord);
}

/* We initiate: the request has our IRD/ORD, ESTABLISHED the result of the peer's reply. */
static void siwt_ird_ord_initiator(struct kunit *test)
{
	const struct siwt_ird_case *c = test->param_value;
	const struct oib_cma_conn_param *est;
	struct siwt_raw r;

	siwt_raw_responds(test, &r, SIWT_MPA_E, 2, c->peer_ird, c->peer_ord, 0, c->our_ird,
			  c->our_ord);
	KUNIT_EXPECT_EQ(test, siwt_bits(&r), SIWT_MPA_E | 2);
	KUNIT_EXPECT_EQ(test, siwt_mpa_word(r.frame, 0), c->our_ird);	/* no P2P, no RTR */
	KUNIT_EXPECT_EQ(test, siwt_mpa_word(r.frame, 1), c->our_ord);
	KUNIT_EXPECT_EQ(test, r.frame_len, SIWT_MPA_HDR + 4 + 9);
	est = &r.rec->last[OIB_CMA_EVENT_ESTABLISHED].param.conn;
	KUNIT_EXPECT_EQ(test, est->responder_resources, c->ird);
	KUNIT_EXPECT_EQ(test, est->initiator_depth, c->ord);
}

/* ---- MPA revision 1 ---- */

/* A revision 1 request: a revision 1 reply, no IRD/ORD words; SENDs both ways. */
static void siwt_v1_responder(struct kunit *test)
{
	struct siwt_raw r;

	siwt_raw_initiates(test, &r, 0, 1, SIWT_NO_IRD, 0, 10, 1, 1);
	KUNIT_EXPECT_EQ(test, siwt_bits(&r), 1);
	KUNIT_EXPECT_EQ(test, r.frame_len, SIWT_MPA_HDR + 7);
	KUNIT_EXPECT_EQ(test,
			r.rec->last[OIB_CMA_EVENT_CONNECT_REQUEST].param.conn.private_data_len, 10);
	siwt_raw_to_us(test, &r, 1, 0x77, 100, false);
	siwt_us_to_raw(test, &r, 1, 0x33, 64, false);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(r.ctx->b.dev, OIB_SIW_MPA_ERRORS), 0);
}

/* We ask in revision 2; a revision 1 reply is taken as it is (RFC 6581 section 9). */
static void siwt_v1_initiator(struct kunit *test)
{
	struct siwt_raw r;

	siwt_raw_responds(test, &r, 0, 1, SIWT_NO_IRD, 0, 5, 1, 1);
	KUNIT_EXPECT_EQ(test, r.rec->last[OIB_CMA_EVENT_ESTABLISHED].param.conn.private_data_len,
			5);
	siwt_raw_to_us(test, &r, 1, 0x78, 200, false);
	siwt_us_to_raw(test, &r, 1, 0x34, 3, false);
	siwt_raw_to_us(test, &r, 2, 0x79, 1, false);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(r.ctx->a.dev, OIB_SIW_MPA_ERRORS), 0);
}

/* ---- CRC ---- */

/* The peer asks for CRCs: the reply says so, both ways carry them; a bad one ends it all. */
static void siwt_crc_responder(struct kunit *test)
{
	struct siwt_raw r;
	u8 fpdu[SIWT_FPDU_MAX], term[32];
	size_t n;

	siwt_raw_initiates(test, &r, SIWT_MPA_E | SIWT_MPA_C, 2, 1, 1, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, siwt_bits(&r), SIWT_MPA_E | SIWT_MPA_C | 2);
	siwt_raw_to_us(test, &r, 1, 0x11, 33, true);
	siwt_us_to_raw(test, &r, 1, 0x22, 250, true);

	n = siwt_send_fpdu(fpdu, 2, 0x12, 40, true);
	fpdu[n - 1] ^= 0x80;
	KUNIT_ASSERT_EQ(test, 0, siwt_raw_send(r.sock, fpdu, n));
	KUNIT_EXPECT_TRUE(test, cmat_wait(r.rec, OIB_CMA_EVENT_DISCONNECTED, 1));
	KUNIT_EXPECT_EQ(test, oib_siw_stat(r.ctx->b.dev, OIB_SIW_RX_CRC_ERRORS), 1);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(r.ctx->b.dev, OIB_SIW_TX_TERMINATES), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(r.rec->id->qp->state), OIB_QPS_ERR);
	/* the TERMINATE: 28 bytes of FPDU, layer LLP (MPA), with its own CRC */
	KUNIT_ASSERT_EQ(test, 0, siwt_raw_recv(r.sock, term, 28));
	KUNIT_EXPECT_EQ(test, term[3] & 0x0f, 7);
	KUNIT_EXPECT_EQ(test, term[20] >> 4, 2);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(term + 24),
			~__crc32c_le(~0U, term, 24));
}

static void siwt_crc_off(void *unused)
{
	oib_siw_set_mpa_crc(false);
}

/* mpa_crc: we ask for CRCs, and send and check them. */
static void siwt_crc_initiator(struct kunit *test)
{
	struct siwt_raw r;

	oib_siw_set_mpa_crc(true);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, siwt_crc_off, NULL));
	siwt_raw_responds(test, &r, SIWT_MPA_E | SIWT_MPA_C, 2, 1, 1, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, siwt_bits(&r), SIWT_MPA_E | SIWT_MPA_C | 2);
	siwt_raw_to_us(test, &r, 1, 0x13, 77, true);
	siwt_us_to_raw(test, &r, 1, 0x23, 128, true);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(r.ctx->a.dev, OIB_SIW_RX_CRC_ERRORS), 0);
}

/* mpa_crc between two oib_siw devices: SENDs of every size both ways, no CRC error. */
static void siwt_crc_both(struct kunit *test)
{
	static const u32 sizes[] = { 1, 100, 4096, 70000 };
	struct sockaddr_storage dst;
	struct cmat_rec *l, *a, *b;
	struct cmat_ctx *ctx;
	int i;

	oib_siw_set_mpa_crc(true);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, siwt_crc_off, NULL));
	ctx = cmat_ctx_of(test, &cmat_siw);
	cmat_addr(&dst, false, 2, CMAT_PORT);
	l = cmat_listen(ctx, &ctx->b, &dst, CMAT_ACCEPT);
	a = cmat_connect(ctx, &dst, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
	b = cmat_spawned(l, 0);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_TRUE(test, cmat_wait(b, OIB_CMA_EVENT_ESTABLISHED, 1));
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		cmat_exchange(test, a, b, sizes[i], i + 1);
		cmat_exchange(test, b, a, sizes[i], i + 0x41);
	}
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->a.dev, OIB_SIW_RX_CRC_ERRORS), 0);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_RX_CRC_ERRORS), 0);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_RX_MALFORMED), 0);
}

static struct kunit_case siwt_mpa_cases[] = {
	KUNIT_CASE_PARAM(siwt_ird_ord_responder, siwt_ird_gen_params),
	KUNIT_CASE_PARAM(siwt_ird_ord_initiator, siwt_ird_gen_params),
	KUNIT_CASE(siwt_v1_responder),
	KUNIT_CASE(siwt_v1_initiator),
	KUNIT_CASE(siwt_crc_responder),
	KUNIT_CASE(siwt_crc_initiator),
	KUNIT_CASE(siwt_crc_both),
	{}
};

static struct kunit_suite siwt_mpa_suite = {
	.name = "oib_siw_mpa",
	.test_cases = siwt_mpa_cases,
};

kunit_test_suite(siwt_mpa_suite);

MODULE_DESCRIPTION("KUnit: oib_siw's MPA setup against a raw TCP peer: IRD/ORD, revision 1, CRC");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
