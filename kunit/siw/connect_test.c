// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for oib_siw: two software iWARP devices on the ends of the veth pair the guest
 * makes in the initial namespace for the KUnit phase (oibsiw0 with 10.0.0.1 and fd00::1,
 * oibsiw1 with 10.0.0.2 and fd00::2; skipped without it), connected through oib_cma and oib_iwcm
 * over real TCP: connect and reject with private data and the counters, SEND, RDMA WRITE and
 * READ of many sizes, and a raw TCP peer that speaks MPA and then sends a malformed FPDU or
 * resets.  oib_cma_connect runs the ULP's view of connecting (no listener, disconnects, destroy
 * in handlers, device removal) over oib_siw too.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/tcp.h>
#include <net/net_namespace.h>
#include <oib/iw_cm.h>
#include <oib/siw.h>
#include "oib_toolkit_siw.h"
#include "raw_peer.h"

/* Two oib_siw devices, a before b (an address both reach resolves on a). */
static struct cmat_ctx *siwt_ctx(struct kunit *test)
{
	return cmat_ctx_of(test, &cmat_siw);
}

/* A connection from a to b's wildcard listener, both ends up. */
static void siwt_connect(struct cmat_ctx *ctx, bool v6, struct cmat_rec **a, struct cmat_rec **b)
{
	struct kunit *test = ctx->test;
	struct sockaddr_storage laddr, dst;
	struct cmat_rec *l;

	cmat_addr(&laddr, true, 0, CMAT_PORT);
	memset(&((struct sockaddr_in6 *)&laddr)->sin6_addr, 0, 16);
	cmat_addr(&dst, v6, 2, CMAT_PORT);
	l = cmat_listen(ctx, &ctx->b, &laddr, CMAT_ACCEPT);
	l->pdata_len = OIB_IW_CM_PRIVATE_DATA_SIZE;
	*a = cmat_connect_from(ctx, &ctx->a, NULL, &dst, OIB_PS_TCP, OIB_IW_CM_PRIVATE_DATA_SIZE);
	KUNIT_ASSERT_TRUE(test, cmat_wait(*a, OIB_CMA_EVENT_ESTABLISHED, 1));
	*b = cmat_spawned(l, 0);
	KUNIT_ASSERT_NOT_NULL(test, *b);
	KUNIT_ASSERT_TRUE(test, cmat_wait(*b, OIB_CMA_EVENT_ESTABLISHED, 1));
}

static void siwt_connect_one(struct kunit *test, bool v6)
{
	static const u32 sizes[] = { 1, 64, 1500, 4096, 20000, 70000, 262144 };
	struct cmat_ctx *ctx = siwt_ctx(test);
	const struct oib_cma_event *req;
	struct cmat_rec *a, *b;
	int i;

	siwt_connect(ctx, v6, &a, &b);
	req = &b->last[OIB_CMA_EVENT_CONNECT_REQUEST];
	KUNIT_EXPECT_EQ(test, req->param.conn.private_data_len, OIB_IW_CM_PRIVATE_DATA_SIZE);
	KUNIT_EXPECT_EQ(test, b->pdata[OIB_CMA_EVENT_CONNECT_REQUEST][251], 0x5a);
	KUNIT_EXPECT_EQ(test, a->last[OIB_CMA_EVENT_ESTABLISHED].param.conn.private_data_len,
			OIB_IW_CM_PRIVATE_DATA_SIZE);
	KUNIT_EXPECT_EQ(test, a->pdata[OIB_CMA_EVENT_ESTABLISHED][251], 0x5a);
	KUNIT_EXPECT_PTR_EQ(test, a->id->device, ctx->a.dev);
	KUNIT_EXPECT_PTR_EQ(test, b->id->device, ctx->b.dev);
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->id->qp->state), OIB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->id->qp->state), OIB_QPS_RTS);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		cmat_exchange(test, a, b, sizes[i], i + 1);
		cmat_exchange(test, b, a, sizes[i], i + 0x41);
	}
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_CONNECTIONS), 1);
	KUNIT_EXPECT_GE(test, oib_siw_stat(ctx->b.dev, OIB_SIW_RX_FPDUS), ARRAY_SIZE(sizes));
	KUNIT_EXPECT_EQ(test, 0, oib_cma_disconnect(a->id));
	KUNIT_EXPECT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_DISCONNECTED, 1));
	KUNIT_EXPECT_TRUE(test, cmat_wait(b, OIB_CMA_EVENT_DISCONNECTED, 1));
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->id->qp->state), OIB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_RX_MALFORMED), 0);
}

static void siwt_connect_v4(struct kunit *test)
{
	siwt_connect_one(test, false);
}

static void siwt_connect_v6(struct kunit *test)
{
	siwt_connect_one(test, true);
}

static void siwt_reject(struct kunit *test)
{
	struct cmat_ctx *ctx = siwt_ctx(test);
	struct sockaddr_storage laddr, dst;
	const struct oib_cma_event *ev;
	struct cmat_rec *l, *a;

	cmat_addr(&laddr, false, 2, CMAT_PORT);
	cmat_addr(&dst, false, 2, CMAT_PORT);
	l = cmat_listen(ctx, &ctx->b, &laddr, CMAT_REJECT);
	l->pdata_len = 100;
	a = cmat_connect_from(ctx, &ctx->a, NULL, &dst, OIB_PS_TCP, 17);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_REJECTED, 1));
	ev = &a->last[OIB_CMA_EVENT_REJECTED];
	KUNIT_EXPECT_EQ(test, ev->status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, ev->param.conn.private_data_len, 100);
	KUNIT_EXPECT_EQ(test, a->pdata[OIB_CMA_EVENT_REJECTED][99], 0x5a);
	KUNIT_EXPECT_EQ(test, l->events[OIB_CMA_EVENT_CONNECT_REQUEST] +
			cmat_count(cmat_spawned(l, 0), OIB_CMA_EVENT_CONNECT_REQUEST), 1);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_MPA_REJECTS), 1);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->a.dev, OIB_SIW_MPA_REJECTS), 1);
}

/* RDMA WRITE and READ of @len bytes from a into b's registered buffer and back. */
static void siwt_rdma(struct kunit *test, struct cmat_rec *a, struct cmat_rec *b, u8 *local,
		      u8 *remote, struct oib_mr *mr, u32 len, u8 seed)
{
	struct oib_sge sge = { .addr = (uintptr_t)local, .length = len,
			       .lkey = a->end->pd->local_dma_lkey };
	struct oib_send_wr wr = { .wr_id = seed, .sg_list = &sge, .num_sge = 1,
				  .opcode = OIB_WR_RDMA_WRITE, .send_flags = OIB_SEND_SIGNALED,
				  .wr.rdma = { .remote_addr = mr->iova + 8, .rkey = mr->rkey } };
	struct oib_wc wc;
	u32 i;

	for (i = 0; i < len; i++)
		local[i] = seed + i * 7;
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(a->id->qp, &wr, NULL));
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(a->end->cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, OIB_WC_RDMA_WRITE);
	/* the WRITE's completion says it left; the READ after it reads what it wrote */
	memset(local, 0, len);
	wr.opcode = OIB_WR_RDMA_READ;
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(a->id->qp, &wr, NULL));
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(a->end->cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, OIB_WC_RDMA_READ);
	KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	for (i = 0; i < len; i++)
		if (local[i] != (u8)(seed + i * 7) || remote[8 + i] != (u8)(seed + i * 7))
			break;
	KUNIT_EXPECT_EQ(test, i, len);
}

static void siwt_write_read(struct kunit *test)
{
	static const u32 sizes[] = { 1, 3, 1024, 4096, 65536, 100000, 300000 };
	struct cmat_ctx *ctx = siwt_ctx(test);
	u8 *local = oib_test_vzalloc(test, 300008);
	u8 *remote = kunit_kzalloc(test, 300016, GFP_KERNEL);
	struct cmat_rec *a, *b;
	struct oib_mr *mr;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, remote);
	siwt_connect(ctx, false, &a, &b);
	mr = oib_test_kernel_mr(test, b->end->pd, remote, 300016, OIB_ACCESS_LOCAL_WRITE |
				OIB_ACCESS_REMOTE_WRITE | OIB_ACCESS_REMOTE_READ);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		siwt_rdma(test, a, b, local, remote, mr, sizes[i], i * 31 + 1);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_RX_ACCESS_ERRORS), 0);
}

/*
 * A peer's SEND_WITH_INV may revoke only a fast-registration MR: naming the STag of a registered
 * (kernel or user) MR is refused at the receiver, whose receive completes in error.
 */
static void siwt_invalidate_refused(struct kunit *test)
{
	struct cmat_ctx *ctx = siwt_ctx(test);
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct oib_sge sge = { .length = 16 };
	struct oib_send_wr wr = { .wr_id = 1, .opcode = OIB_WR_SEND_WITH_INV, .sg_list = &sge,
				  .num_sge = 1, .send_flags = OIB_SEND_SIGNALED };
	struct oib_recv_wr rwr = { .wr_id = 2, .sg_list = &sge, .num_sge = 1 };
	struct cmat_rec *a, *b;
	struct oib_mr *mr;
	struct oib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	siwt_connect(ctx, false, &a, &b);
	mr = oib_test_kernel_mr(test, b->end->pd, buf, 64, OIB_ACCESS_LOCAL_WRITE |
				OIB_ACCESS_REMOTE_WRITE);
	sge.addr = (uintptr_t)buf;
	sge.lkey = b->end->pd->local_dma_lkey;
	KUNIT_ASSERT_EQ(test, 0, oib_post_recv(b->id->qp, &rwr, NULL));
	sge.lkey = a->end->pd->local_dma_lkey;
	wr.ex.invalidate_rkey = mr->rkey;
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(a->id->qp, &wr, NULL));
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(b->end->cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_LOC_PROT_ERR);
	KUNIT_EXPECT_FALSE(test, wc.wc_flags & OIB_WC_WITH_INVALIDATE);
}

/* ---- A raw TCP peer ---- */

static struct cmat_rec *siwt_raw_peer(struct cmat_ctx *ctx, struct socket **sock)
{
	struct sockaddr_storage laddr;
	struct cmat_rec *l, *b;
	u8 frame[SIWT_MPA_HDR + 256];
	size_t n = siwt_mpa_frame(frame, false, SIWT_MPA_E, 2, 1, 1, 4);

	cmat_addr(&laddr, false, 2, CMAT_PORT);
	l = cmat_listen(ctx, &ctx->b, &laddr, CMAT_ACCEPT);
	*sock = siwt_raw_dial(ctx->test, 2, CMAT_PORT);
	KUNIT_ASSERT_EQ(ctx->test, 0, siwt_raw_send(*sock, frame, n));
	siwt_mpa_read(ctx->test, *sock, frame);
	KUNIT_EXPECT_EQ(ctx->test, 0, memcmp(frame, "MPA ID Rep Frame", 16));
	KUNIT_EXPECT_EQ(ctx->test, frame[16], 0x10);	/* no markers, no CRC, enhanced */
	b = cmat_spawned(l, 0);
	KUNIT_ASSERT_NOT_NULL(ctx->test, b);
	KUNIT_ASSERT_TRUE(ctx->test, cmat_wait(b, OIB_CMA_EVENT_ESTABLISHED, 1));
	return b;
}

/* An FPDU with DDP version 2: the QP fails with a TERMINATE, the peer hears it, it is counted. */
static void siwt_malformed(struct kunit *test)
{
	/* length 14, tagged WRITE with DDP version 2, STag, TO, no pad, CRC 0 */
	static const u8 bad[] = { 0x00, 0x0e, 0xc2, 0x40, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				  0, 0, 0, 0 };
	struct cmat_ctx *ctx = siwt_ctx(test);
	struct socket *sock;
	struct cmat_rec *b;
	u8 term[28];

	b = siwt_raw_peer(ctx, &sock);
	KUNIT_EXPECT_EQ(test, 0, siwt_raw_send(sock, bad, sizeof(bad)));
	KUNIT_EXPECT_TRUE(test, cmat_wait(b, OIB_CMA_EVENT_DISCONNECTED, 1));
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_RX_MALFORMED), 1);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_TX_TERMINATES), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->id->qp->state), OIB_QPS_ERR);
	KUNIT_ASSERT_EQ(test, 0, siwt_raw_recv(sock, term, sizeof(term)));
	KUNIT_EXPECT_EQ(test, term[1], 22);			/* ULPDU length */
	KUNIT_EXPECT_EQ(test, term[3] & 0x0f, 7);		/* TERMINATE */
	KUNIT_EXPECT_EQ(test, term[20] >> 4, 1);		/* layer DDP */
}

/* The peer resets: the QP goes to ERR and the posted receive is flushed. */
static void siwt_peer_reset(struct kunit *test)
{
	struct cmat_ctx *ctx = siwt_ctx(test);
	u8 *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct oib_sge sge = { .addr = (uintptr_t)buf, .length = 64 };
	struct oib_recv_wr rwr = { .wr_id = 77, .sg_list = &sge, .num_sge = 1 };
	struct socket *sock;
	struct cmat_rec *b;
	struct oib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	b = siwt_raw_peer(ctx, &sock);
	sge.lkey = b->end->pd->local_dma_lkey;
	KUNIT_ASSERT_EQ(test, 0, oib_post_recv(b->id->qp, &rwr, NULL));
	siwt_raw_release(test, sock);
	KUNIT_EXPECT_TRUE(test, cmat_wait(b, OIB_CMA_EVENT_DISCONNECTED, 1));
	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(b->end->cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 77);
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, oib_siw_stat(ctx->b.dev, OIB_SIW_RESETS), 1);
}

static struct kunit_case siwt_cases[] = {
	KUNIT_CASE(siwt_connect_v4),
	KUNIT_CASE(siwt_connect_v6),
	KUNIT_CASE(siwt_reject),
	KUNIT_CASE(siwt_write_read),
	KUNIT_CASE(siwt_invalidate_refused),
	KUNIT_CASE(siwt_malformed),
	KUNIT_CASE(siwt_peer_reset),
	{}
};

static struct kunit_suite siwt_suite = {
	.name = "oib_siw_connect",
	.test_cases = siwt_cases,
};

kunit_test_suite(siwt_suite);

MODULE_DESCRIPTION("KUnit: oib_siw over TCP through oib_cma and oib_iwcm");
MODULE_LICENSE("GPL");
