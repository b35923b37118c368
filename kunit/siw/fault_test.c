// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for oib_siw against a raw TCP peer that misbehaves (raw_peer.h): garbage instead
 * of an MPA request, a close in the middle of one, a stall in the middle of a request or of a
 * reply (mpa_timeout_ms made short), READ requests each sent the moment the response to the
 * one before is in (an IRD of 1), a reset in the middle of an FPDU, a peer that
 * stops reading (our sender waits, then completes everything or, on a reset, flushes), and a
 * seeded fuzz of FPDUs.  Each fuzz round connects, posts a receive, sends one mutated SEND,
 * WRITE or READ request FPDU and closes its side; the frame is placed (the receive completes),
 * refused (a TERMINATE, counted, reaches the peer), or cut short (the close, counted as the
 * peer's, ends it).  The QP ends in ERR every time.  The seed is printed; fuzz_seed=N (module
 * parameter) replays a run.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/unaligned.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <oib/siw.h>
#include <oib/kunit/siw.h>
#include "oib_toolkit_siw.h"
#include "raw_peer.h"

static ulong fuzz_seed;
module_param(fuzz_seed, ulong, 0444);
MODULE_PARM_DESC(fuzz_seed, "seed of the FPDU fuzz (0: a random one, printed)");

#define SIWT_FUZZ_ROUNDS	40

/* The counters of frames refused on arrival. */
static u64 siwt_bad(struct oib_device *dev)
{
	return oib_siw_stat(dev, OIB_SIW_RX_MALFORMED) + oib_siw_stat(dev, OIB_SIW_RX_CRC_ERRORS) +
	       oib_siw_stat(dev, OIB_SIW_RX_ACCESS_ERRORS) + oib_siw_stat(dev, OIB_SIW_RX_NO_RECV);
}

/* b's listener and the raw peer's connection to it, before any MPA frame. */
static struct socket *siwt_dial_b(struct kunit *test, struct cmat_ctx **ctx)
{
	struct sockaddr_storage laddr;

	*ctx = cmat_ctx_of(test, &cmat_siw);
	cmat_addr(&laddr, false, 2, CMAT_PORT);
	cmat_listen(*ctx, &(*ctx)->b, &laddr, CMAT_ACCEPT);
	return siwt_raw_dial(test, 2, CMAT_PORT);
}

/*
 * Not an MPA request: closed, nobody told, counted as an MPA error on the device whose listener
 * it reached (the count comes before the close); the other device counts nothing.
 */
static void siwt_garbage_request(struct kunit *test)
{
	static const u8 junk[32] = "GET / HTTP/1.1\r\nHost: siw\r\n\r\n";
	struct cmat_ctx *ctx;
	struct socket *sock = siwt_dial_b(test, &ctx);
	u8 byte;

	KUNIT_ASSERT_EQ(test, 0, siwt_raw_send(sock, junk, sizeof(junk)));
	KUNIT_EXPECT_EQ(test, siwt_raw_recv(sock, &byte, 1), -ECONNRESET);	/* closed */
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_MPA_ERRORS), 1);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->a.dev, OIB_SIW_MPA_ERRORS), 0);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_MPA_REQUESTS), 0);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_CONNECTIONS), 0);
}

/* Half a request, then a close: the connection goes, no request reaches the listener. */
static void siwt_close_in_request(struct kunit *test)
{
	struct cmat_ctx *ctx;
	struct socket *sock = siwt_dial_b(test, &ctx);
	u8 req[SIWT_MPA_HDR + 256];
	size_t n = siwt_mpa_frame(req, false, SIWT_MPA_E, 2, 1, 1, 100);

	KUNIT_ASSERT_EQ(test, 0, siwt_raw_send(sock, req, n / 2));
	siwt_raw_release(test, sock);
	/* a second peer is served: the first one's end left nothing behind */
	sock = siwt_raw_dial(test, 2, CMAT_PORT);
	KUNIT_ASSERT_EQ(test, 0, siwt_raw_send(sock, req, n));
	KUNIT_EXPECT_EQ(test, siwt_mpa_read(test, sock, req), SIWT_MPA_HDR + 4 + 0);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_MPA_REQUESTS), 1);
}

static void siwt_timeout_restore(void *old)
{
	oib_siw_set_mpa_timeout_ms((uintptr_t)old);
}

/* oib_siw waits @ms for an MPA frame during this case. */
static void siwt_mpa_timeout(struct kunit *test, unsigned int ms)
{
	uintptr_t old = oib_siw_set_mpa_timeout_ms(ms);

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, siwt_timeout_restore,
							   (void *)old));
}

/* Half a request, then nothing: closed after the timeout, an MPA error of the listening device. */
static void siwt_stall_in_request(struct kunit *test)
{
	struct cmat_ctx *ctx;
	struct socket *sock;
	u8 req[SIWT_MPA_HDR + 256], byte;
	size_t n = siwt_mpa_frame(req, false, SIWT_MPA_E, 2, 1, 1, 100);

	siwt_mpa_timeout(test, 300);
	sock = siwt_dial_b(test, &ctx);
	KUNIT_ASSERT_EQ(test, 0, siwt_raw_send(sock, req, n / 2));
	KUNIT_EXPECT_EQ(test, siwt_raw_recv(sock, &byte, 1), -ECONNRESET);	/* closed */
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_MPA_ERRORS), 1);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_MPA_REQUESTS), 0);
}

/*
 * Our connect, answered with half a reply, then nothing: after the timeout the connection is
 * UNREACHABLE, its QP in ERR, an MPA error of a, and the peer's socket closed.
 */
static void siwt_stall_in_reply(struct kunit *test)
{
	u8 frame[SIWT_MPA_HDR + 256], byte;
	struct sockaddr_storage dst;
	struct cmat_ctx *ctx;
	struct cmat_rec *rec;
	struct socket *l, *sock;
	size_t n;

	siwt_mpa_timeout(test, 300);
	ctx = cmat_ctx_of(test, &cmat_siw);
	l = siwt_raw_listen(test, 2, SIWT_RAW_PORT);
	cmat_addr(&dst, false, 2, SIWT_RAW_PORT);
	rec = cmat_id(ctx, &ctx->a, OIB_PS_TCP);
	rec->auto_connect = true;
	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_addr(rec->id, NULL, (struct sockaddr *)&dst,
						      2000));
	sock = siwt_raw_accept(test, l);
	siwt_mpa_read(test, sock, frame);
	KUNIT_ASSERT_EQ(test, 0, memcmp(frame, "MPA ID Req Frame", 16));
	n = siwt_mpa_frame(frame, true, SIWT_MPA_E, 2, 1, 1, 0);
	KUNIT_ASSERT_EQ(test, 0, siwt_raw_send(sock, frame, n / 2));
	KUNIT_EXPECT_TRUE(test, cmat_wait(rec, OIB_CMA_EVENT_UNREACHABLE, 1));
	KUNIT_EXPECT_EQ(test, siwt_raw_recv(sock, &byte, 1), -ECONNRESET);	/* closed */
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->a.dev, OIB_SIW_MPA_ERRORS), 1);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->a.dev, OIB_SIW_CONNECTIONS), 0);
}

/* Half an FPDU, then a reset: the QP goes to ERR, the receive is flushed, the reset counted. */
static void siwt_reset_in_fpdu(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	struct oib_sge sge = { .addr = (uintptr_t)buf, .length = 512 };
	struct oib_recv_wr wr = { .wr_id = 5, .sg_list = &sge, .num_sge = 1 };
	u8 fpdu[SIWT_SEND_HDR + 256 + 4];
	struct siwt_raw r;
	struct oib_wc wc;
	size_t n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	siwt_raw_initiates(test, &r, SIWT_MPA_E, 2, 1, 1, 0, 1, 1);
	sge.lkey = r.rec->end->pd->local_dma_lkey;
	KUNIT_ASSERT_EQ(test, 0, oib_post_recv(r.rec->id->qp, &wr, NULL));
	n = siwt_send_fpdu(fpdu, 1, 0x44, 256, false);
	KUNIT_ASSERT_EQ(test, 0, siwt_raw_send(r.sock, fpdu, n / 2));
	sock_no_linger(r.sock->sk);	/* the release resets */
	siwt_raw_release(test, r.sock);
	KUNIT_EXPECT_TRUE(test, cmat_wait(r.rec, OIB_CMA_EVENT_DISCONNECTED, 1));
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(r.rec->end->cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(r.ctx->b.dev, OIB_SIW_RESETS), 1);
	KUNIT_EXPECT_EQ(test, siwt_bad(r.ctx->b.dev), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(r.rec->id->qp->state), OIB_QPS_ERR);
}

/* ---- Back pressure: the peer stops reading ---- */

#define SIWT_BP_LEN	(1024 * 1024)	/* each of CMAT_WR WRITEs: more than TCP buffers hold */

/* b's QP with CMAT_WR WRITEs of SIWT_BP_LEN posted to a raw peer that reads nothing. */
static void siwt_bp_post(struct kunit *test, struct siwt_raw *r)
{
	struct oib_sge sge = { .length = SIWT_BP_LEN };
	struct oib_send_wr wr = { .sg_list = &sge, .num_sge = 1, .opcode = OIB_WR_RDMA_WRITE,
				  .send_flags = OIB_SEND_SIGNALED,
				  .wr.rdma = { .remote_addr = 0x1000, .rkey = 0x100 } };
	int i;

	siwt_raw_initiates(test, r, SIWT_MPA_E, 2, 1, 1, 0, 1, 1);
	sock_set_rcvbuf(r->sock->sk, 65536);
	sge.addr = (uintptr_t)oib_test_vzalloc(test, SIWT_BP_LEN);
	sge.lkey = r->rec->end->pd->local_dma_lkey;
	for (i = 0; i < CMAT_WR; i++) {
		wr.wr_id = i;
		KUNIT_ASSERT_EQ(test, 0, oib_post_send(r->rec->id->qp, &wr, NULL));
	}
	/* what the peer's socket holds: the sender is sending, and nobody reads */
	KUNIT_ASSERT_TRUE(test, oib_test_wait_for(tcp_inq(r->sock->sk) >= 32768));
}

/* The peer reads at last: every WRITE completes, the stream is whole FPDUs, every byte there. */
static void siwt_back_pressure_drain(struct kunit *test)
{
	u8 *fpdu = kunit_kzalloc(test, 65536, GFP_KERNEL);
	u64 payload = 0, want = (u64)CMAT_WR * SIWT_BP_LEN;
	struct oib_wc wc[CMAT_WR];
	struct siwt_raw r;
	u16 ulpdu;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, fpdu);
	siwt_bp_post(test, &r);
	while (payload < want) {
		KUNIT_ASSERT_EQ(test, 0, siwt_raw_recv(r.sock, fpdu, 2));
		ulpdu = get_unaligned_be16(fpdu);
		KUNIT_ASSERT_GE(test, ulpdu, 14);	/* a tagged header */
		KUNIT_ASSERT_EQ(test, 0, siwt_raw_recv(r.sock, fpdu + 2,
						       ALIGN(ulpdu + 2, 4) - 2 + 4));
		KUNIT_ASSERT_EQ(test, fpdu[2] & 0xbf, 0x81);	/* tagged, DDP version 1 */
		KUNIT_ASSERT_EQ(test, fpdu[3], 0x40);		/* RDMAP version 1, WRITE */
		payload += ulpdu - 14;
	}
	KUNIT_EXPECT_EQ(test, payload, want);
	KUNIT_ASSERT_EQ(test, CMAT_WR, oib_test_poll_cq(r.rec->end->cq, wc, CMAT_WR));
	for (i = 0; i < CMAT_WR; i++)
		KUNIT_EXPECT_EQ(test, wc[i].status, OIB_WC_SUCCESS);
}

/* The peer resets instead: the blocked sender gives up, the rest is flushed, the QP in ERR. */
static void siwt_back_pressure_reset(struct kunit *test)
{
	struct oib_wc wc[CMAT_WR];
	struct siwt_raw r;
	int i, ok = 0;

	siwt_bp_post(test, &r);
	sock_no_linger(r.sock->sk);
	siwt_raw_release(test, r.sock);
	KUNIT_EXPECT_TRUE(test, cmat_wait(r.rec, OIB_CMA_EVENT_DISCONNECTED, 1));
	KUNIT_ASSERT_EQ(test, CMAT_WR, oib_test_poll_cq(r.rec->end->cq, wc, CMAT_WR));
	for (i = 0; i < CMAT_WR; i++)
		ok += wc[i].status == OIB_WC_SUCCESS;
	KUNIT_EXPECT_LT(test, ok, CMAT_WR);	/* 8 MiB cannot have left */
	KUNIT_EXPECT_EQ(test, wc[CMAT_WR - 1].status, OIB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, READ_ONCE(r.rec->id->qp->state), OIB_QPS_ERR);
}

/* ---- READ requests at the IRD ---- */

#define SIWT_READS		200
#define SIWT_READ_LEN		64
#define SIWT_READ_REQ		(SIWT_SEND_HDR + 28 + 4)	/* header, request, CRC */
#define SIWT_READ_RESP		(2 + 14 + SIWT_READ_LEN + 4)	/* length, tagged header, CRC */

static void siwt_dereg(void *mr)
{
	oib_dereg_mr(mr);
}

/* A READ request FPDU of SIWT_READ_LEN bytes at @mr (MSN @msn, into the peer's STag 0x77). */
static void siwt_read_req(u8 *buf, u32 msn, const struct oib_mr *mr)
{
	siwt_send_fpdu(buf, msn, 0, 28, false);
	buf[3] = 0x41;				/* RDMAP version 1, READ request */
	put_unaligned_be32(1, buf + 8);		/* QN 1 */
	put_unaligned_be32(0x77, buf + SIWT_SEND_HDR);			/* sink STag */
	put_unaligned_be64(0, buf + SIWT_SEND_HDR + 4);			/* sink TO */
	put_unaligned_be32(SIWT_READ_LEN, buf + SIWT_SEND_HDR + 12);	/* size */
	put_unaligned_be32(mr->rkey, buf + SIWT_SEND_HDR + 16);		/* source STag */
	put_unaligned_be64(mr->iova, buf + SIWT_SEND_HDR + 20);		/* source TO */
}

/*
 * With an IRD of 1, the raw peer sends each READ request the moment it has the last FPDU of the
 * response to the one before: the request must find the IRD slot free (the responder gives it
 * back before it sends that FPDU), so no TERMINATE, nothing counted malformed, the QP in RTS.
 */
static void siwt_read_at_ird(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, SIWT_READ_LEN, GFP_KERNEL);
	u8 req[SIWT_READ_REQ], resp[SIWT_READ_RESP];
	struct oib_device *dev;
	struct siwt_raw r;
	struct oib_mr *mr;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, 0x3c, SIWT_READ_LEN);
	siwt_raw_initiates(test, &r, SIWT_MPA_E, 2, 1, 1, 0, 1, 1);
	dev = r.ctx->b.dev;
	mr = oib_reg_kernel_mr(r.rec->end->pd, buf, SIWT_READ_LEN, OIB_ACCESS_REMOTE_READ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, siwt_dereg, mr));
	for (i = 0; i < SIWT_READS; i++) {
		siwt_read_req(req, i + 1, mr);
		KUNIT_ASSERT_EQ(test, 0, siwt_raw_send(r.sock, req, sizeof(req)));
		KUNIT_ASSERT_EQ_MSG(test, 0, siwt_raw_recv(r.sock, resp, sizeof(resp)),
				    "read %d", i);
		KUNIT_ASSERT_EQ_MSG(test, resp[3] & 0x0f, 2, "read %d: not a READ response", i);
		KUNIT_ASSERT_EQ(test, resp[2 + 14], 0x3c);
	}
	KUNIT_EXPECT_EQ(test, oib_siw_stat(dev, OIB_SIW_TX_TERMINATES), 0);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(dev, OIB_SIW_RX_MALFORMED), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(r.rec->id->qp->state), OIB_QPS_RTS);
	siwt_raw_release(test, r.sock);
}

/* ---- Fuzz ---- */

/* A valid SEND, WRITE or READ request FPDU into @buf, then 1 to 4 random mutations. */
static size_t siwt_fuzz_frame(struct rnd_state *rs, u8 *buf)
{
	u16 len = prandom_u32_state(rs) % 200;
	size_t n = siwt_send_fpdu(buf, 1, 0x66, len, false);
	int i, m = 1 + prandom_u32_state(rs) % 4;

	switch (prandom_u32_state(rs) % 3) {
	case 1:			/* WRITE: tagged, STag and TO where the untagged fields were */
		buf[2] = 0xc1;
		buf[3] = 0x40;
		break;
	case 2:			/* READ request: 28 bytes after the untagged header */
		put_unaligned_be16(SIWT_SEND_HDR - 2 + 28, buf);
		buf[3] = 0x41;
		put_unaligned_be32(1, buf + 8);		/* QN 1 */
		memset(buf + SIWT_SEND_HDR, 0, 28);
		put_unaligned_be32(64, buf + SIWT_SEND_HDR + 12);	/* size */
		n = SIWT_SEND_HDR + 28 + 4;
		memset(buf + n - 4, 0, 4);
		break;
	}
	for (i = 0; i < m; i++) {
		u32 at = prandom_u32_state(rs) % (n < 24 ? n : 24);

		buf[at] ^= 1 << (prandom_u32_state(rs) % 8);
	}
	return n;
}

/*
 * One round on @r's listener.  The frame has an outcome (placed, refused with a TERMINATE, the
 * peer's TERMINATE or close ending it), every TERMINATE we send is counted and reaches the peer,
 * and the QP ends in ERR.
 */
static void siwt_fuzz_round(struct kunit *test, struct siwt_raw *r, struct rnd_state *rs,
			    int round)
{
	struct oib_device *dev = r->ctx->b.dev;
	u64 terms = oib_siw_stat(dev, OIB_SIW_TX_TERMINATES);
	u64 ended = oib_siw_stat(dev, OIB_SIW_RESETS) + oib_siw_stat(dev, OIB_SIW_RX_TERMINATES);
	u8 fpdu[SIWT_SEND_HDR + 256 + 4], term[28];
	struct oib_sge sge = { .length = 256 };
	struct oib_recv_wr wr = { .wr_id = round, .sg_list = &sge, .num_sge = 1 };
	bool placed, refused;
	struct oib_wc wc;
	size_t n;

	sge.addr = (uintptr_t)kunit_kzalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_NE(test, sge.addr, 0);
	siwt_raw_request(test, r, SIWT_MPA_E, 2, 1, 1, 0);
	sge.lkey = r->rec->end->pd->local_dma_lkey;
	KUNIT_ASSERT_EQ(test, 0, oib_post_recv(r->rec->id->qp, &wr, NULL));
	n = siwt_fuzz_frame(rs, fpdu);
	KUNIT_ASSERT_EQ(test, 0, siwt_raw_send(r->sock, fpdu, n));
	kernel_sock_shutdown(r->sock, SHUT_WR);
	KUNIT_ASSERT_TRUE(test, cmat_wait(r->rec, OIB_CMA_EVENT_DISCONNECTED, 1));
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(r->rec->end->cq, &wc, 1));
	placed = wc.status == OIB_WC_SUCCESS;
	refused = !siwt_raw_recv(r->sock, term, sizeof(term)) && (term[3] & 0x0f) == 7;
	terms = oib_siw_stat(dev, OIB_SIW_TX_TERMINATES) - terms;
	ended = oib_siw_stat(dev, OIB_SIW_RESETS) + oib_siw_stat(dev, OIB_SIW_RX_TERMINATES) -
		ended;
	KUNIT_EXPECT_EQ_MSG(test, terms, refused, "round %d", round);
	KUNIT_EXPECT_TRUE_MSG(test, placed || refused || ended,
			      "round %d: %zu bytes, no outcome (status %d)", round, n, wc.status);
	KUNIT_EXPECT_EQ(test, READ_ONCE(r->rec->id->qp->state), OIB_QPS_ERR);
	cmat_destroy(r->rec);
	siwt_raw_release(test, r->sock);
}

static void siwt_fuzz(struct kunit *test)
{
	u64 seed = fuzz_seed ?: get_random_u64() | 1;
	struct siwt_raw r;
	struct rnd_state rs;
	int i;

	kunit_info(test, "fuzz_seed=%llu", seed);
	prandom_seed_state(&rs, seed);
	siwt_raw_listener(test, &r, 1, 1);
	for (i = 0; i < SIWT_FUZZ_ROUNDS && test->status != KUNIT_FAILURE; i++)
		siwt_fuzz_round(test, &r, &rs, i);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(r.ctx->b.dev, OIB_SIW_CONNECTIONS), SIWT_FUZZ_ROUNDS);
	oib_test_fuzz_inputs(test, "siw_fpdus", i);
}

static struct kunit_case siwt_fault_cases[] = {
	KUNIT_CASE(siwt_garbage_request),
	KUNIT_CASE(siwt_stall_in_request),
	KUNIT_CASE(siwt_stall_in_reply),
	KUNIT_CASE(siwt_read_at_ird),
	KUNIT_CASE(siwt_close_in_request),
	KUNIT_CASE(siwt_reset_in_fpdu),
	KUNIT_CASE(siwt_back_pressure_drain),
	KUNIT_CASE(siwt_back_pressure_reset),
	KUNIT_CASE_SLOW(siwt_fuzz),
	{}
};

static struct kunit_suite siwt_fault_suite = {
	.name = "oib_siw_fault",
	.test_cases = siwt_fault_cases,
};

kunit_test_suite(siwt_fault_suite);

MODULE_DESCRIPTION("KUnit: oib_siw against a misbehaving raw TCP peer, and a seeded FPDU fuzz");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
