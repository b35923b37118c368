// SPDX-License-Identifier: GPL-2.0-only
/*
 * UD and GSI datagrams between two oib_rxe devices over a private fabric: data, completions, the
 * GRH, immediate data, Q_Key and P_Key checks, length errors, SRQ receives and the SRQ limit, and
 * sends posted in RTR that leave only once the QP reaches RTS.
 */
#include <linux/module.h>
#include <linux/completion.h>
#include "oib_toolkit.h"

#define GRH 40
#define QKEY 0x1234
#define UD_FABRIC "oib_ud_test"

struct ud_end {
	struct oib_device *dev;
	struct oib_pd *pd;
	struct oib_cq *cq;
	struct oib_qp *qp;
	union oib_gid gid;
	u8 *buf;
};

static void ud_end(struct kunit *test, struct ud_end *e, enum oib_qp_type type)
{
	e->dev = oib_test_rxe_on(test, UD_FABRIC, 1);
	e->pd = oib_test_pd(test, e->dev);
	e->cq = oib_test_cq(test, e->dev, 64);
	e->qp = oib_test_qp(test, e->pd, e->cq, type, 16);
	KUNIT_ASSERT_EQ(test, 0, oib_query_gid(e->dev, 1, 0, &e->gid, NULL));
	e->buf = kunit_kzalloc(test, 8192, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->buf);
}

/* One completion from @cq, waited for. */
static int ud_poll(struct oib_cq *cq, struct oib_wc *wc)
{
	return oib_test_poll_cq(cq, wc, 1);
}

/* Nothing (more) on @cq; callers make sure nothing can be on its way. */
static bool ud_empty(struct oib_cq *cq)
{
	struct oib_wc wc;

	return oib_poll_cq(cq, 1, &wc) == 0;
}

static void ud_post_recv(struct kunit *test, struct ud_end *e, u64 wr_id, u32 len)
{
	struct oib_sge sge = { .addr = (u64)(uintptr_t)e->buf, .length = len,
			       .lkey = e->pd->local_dma_lkey };
	struct oib_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 };

	KUNIT_ASSERT_EQ(test, 0, oib_post_recv(e->qp, &wr, NULL));
}

static struct oib_ah *ud_ah(struct kunit *test, struct ud_end *from, struct ud_end *to)
{
	struct oib_ah_attr attr = { .port_num = 1, .flags = OIB_AH_GRH,
				    .grh = { .dgid = to->gid, .hop_limit = 64 } };
	struct oib_ah *ah = oib_create_ah(from->pd, &attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	return ah;
}

/* Two ends of @type on one fabric, @a in state @a_state and @b in RTS, and an AH from a to b. */
static struct oib_ah *ud_pair(struct kunit *test, struct ud_end *a, struct ud_end *b,
			      enum oib_qp_type type, enum oib_qp_state a_state)
{
	ud_end(test, a, type);
	ud_end(test, b, type);
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(a->qp, a_state));
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(b->qp, OIB_QPS_RTS));
	return ud_ah(test, a, b);
}

static int ud_send(struct ud_end *from, struct oib_ah *ah, u32 qpn, u32 qkey, void *data,
		   u32 len, u32 lkey, enum oib_wr_opcode op)
{
	struct oib_sge sge = { .addr = (u64)(uintptr_t)data, .length = len, .lkey = lkey };
	struct oib_send_wr wr = {
		.wr_id = 7, .opcode = op, .send_flags = OIB_SEND_SIGNALED,
		.sg_list = &sge, .num_sge = len ? 1 : 0,
		.ex.imm_data = cpu_to_be32(0xabcd0123),
		.wr.ud = { .ah = ah, .remote_qpn = qpn, .remote_qkey = qkey },
	};

	return oib_post_send(from->qp, &wr, NULL);
}

static void ud_round_trip(struct kunit *test)
{
	struct ud_end a, b;
	struct oib_wc wc;
	struct oib_ah *ah;
	struct oib_mr *mr;
	int i;

	ah = ud_pair(test, &a, &b, OIB_QPT_UD, OIB_QPS_RTS);
	for (i = 0; i < 1000; i++)
		a.buf[i] = i * 7;

	/* Through the local DMA lkey, then through a registered MR. */
	ud_post_recv(test, &b, 11, 2048);
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, b.qp->qp_num, QKEY, a.buf, 1000,
					 a.pd->local_dma_lkey, OIB_WR_SEND));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(b.cq, &wc));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, wc.status);
	KUNIT_EXPECT_EQ(test, 11ULL, wc.wr_id);
	KUNIT_EXPECT_EQ(test, OIB_WC_RECV, wc.opcode);
	KUNIT_EXPECT_EQ(test, (u32)(GRH + 1000), wc.byte_len);
	KUNIT_EXPECT_EQ(test, a.qp->qp_num, wc.src_qp);
	KUNIT_EXPECT_TRUE(test, wc.wc_flags & OIB_WC_GRH);
	KUNIT_EXPECT_FALSE(test, wc.wc_flags & OIB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, 0, memcmp(b.buf + GRH, a.buf, 1000));
	/* The GRH of an IPv6 frame carries the sender's GID as its source address. */
	KUNIT_EXPECT_EQ(test, 0, memcmp(b.buf + 8, &a.gid, sizeof(a.gid)));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(a.cq, &wc));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, wc.status);
	KUNIT_EXPECT_EQ(test, OIB_WC_SEND, wc.opcode);
	KUNIT_EXPECT_EQ(test, 7ULL, wc.wr_id);

	mr = oib_reg_kernel_mr(a.pd, a.buf, 4096, OIB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	ud_post_recv(test, &b, 12, 2048);
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, b.qp->qp_num, QKEY, a.buf + 10, 500, mr->lkey,
					 OIB_WR_SEND));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(b.cq, &wc));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, wc.status);
	KUNIT_EXPECT_EQ(test, 0, memcmp(b.buf + GRH, a.buf + 10, 500));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(a.cq, &wc));

	/* A bad lkey fails the send locally; nothing leaves. */
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, b.qp->qp_num, QKEY, a.buf, 8, mr->lkey + 1,
					 OIB_WR_SEND));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(a.cq, &wc));
	KUNIT_EXPECT_EQ(test, OIB_WC_LOC_PROT_ERR, wc.status);
	KUNIT_EXPECT_EQ(test, 0, oib_dereg_mr(mr));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_ah(ah));
}

static void ud_keys_checked(struct kunit *test)
{
	struct ud_end a, b;
	struct oib_wc wc;
	struct oib_ah *ah;

	ah = ud_pair(test, &a, &b, OIB_QPT_UD, OIB_QPS_RTS);
	ud_post_recv(test, &b, 1, 256);

	/* Wrong Q_Key, then a QPN nobody has: both dropped at the receiver. */
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, b.qp->qp_num, QKEY + 1, a.buf, 8,
					 a.pd->local_dma_lkey, OIB_WR_SEND));
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, 0xfffff0, QKEY, a.buf, 8,
					 a.pd->local_dma_lkey, OIB_WR_SEND));
	/* b counts each drop once it has handled the frame: then nothing more comes of them. */
	KUNIT_EXPECT_TRUE(test, oib_test_wait_rxe_stat(b.dev, 1, OIB_RXE_RX_DROP_QKEY, 1));
	KUNIT_EXPECT_TRUE(test, oib_test_wait_rxe_stat(b.dev, 1, OIB_RXE_RX_DROP_NO_QP, 1));
	KUNIT_EXPECT_TRUE(test, ud_empty(b.cq));
	KUNIT_EXPECT_EQ(test, 1ULL, oib_rxe_port_stat(b.dev, 1, OIB_RXE_RX_DROP_QKEY));
	KUNIT_EXPECT_EQ(test, 1ULL, oib_rxe_port_stat(b.dev, 1, OIB_RXE_RX_DROP_NO_QP));
	KUNIT_EXPECT_EQ(test, 2ULL, oib_rxe_port_stat(a.dev, 1, OIB_RXE_TX_FRAMES));
	/* The sender's completions say only that they left. */
	KUNIT_ASSERT_EQ(test, 1, ud_poll(a.cq, &wc));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, wc.status);
	KUNIT_ASSERT_EQ(test, 1, ud_poll(a.cq, &wc));

	/* A WR Q_Key with the high bit set takes the sending QP's own (the same QKEY here). */
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, b.qp->qp_num, 0x80000000, a.buf, 8,
					 a.pd->local_dma_lkey, OIB_WR_SEND));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(b.cq, &wc));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, wc.status);
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_ah(ah));
}

static void ud_lengths_and_immediate(struct kunit *test)
{
	struct ud_end a, b;
	struct oib_wc wc;
	struct oib_ah *ah;

	ah = ud_pair(test, &a, &b, OIB_QPT_UD, OIB_QPS_RTS);

	/* Zero bytes with immediate data. */
	ud_post_recv(test, &b, 1, 64);
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, b.qp->qp_num, QKEY, NULL, 0, 0,
					 OIB_WR_SEND_WITH_IMM));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(b.cq, &wc));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, wc.status);
	KUNIT_EXPECT_EQ(test, (u32)GRH, wc.byte_len);
	KUNIT_EXPECT_TRUE(test, wc.wc_flags & OIB_WC_WITH_IMM);
	KUNIT_EXPECT_EQ(test, 0xabcd0123, be32_to_cpu(wc.ex.imm_data));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(a.cq, &wc));

	/* A receive too small for GRH + payload completes in error. */
	ud_post_recv(test, &b, 2, GRH + 10);
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, b.qp->qp_num, QKEY, a.buf, 11,
					 a.pd->local_dma_lkey, OIB_WR_SEND));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(b.cq, &wc));
	KUNIT_EXPECT_EQ(test, OIB_WC_LOC_LEN_ERR, wc.status);
	KUNIT_ASSERT_EQ(test, 1, ud_poll(a.cq, &wc));

	/*
	 * A datagram longer than the path MTU (4096) fails at the sender.  A datagram sent after it
	 * on the same path is the first thing b receives: the long one never left.
	 */
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, b.qp->qp_num, QKEY, a.buf, 4097,
					 a.pd->local_dma_lkey, OIB_WR_SEND));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(a.cq, &wc));
	KUNIT_EXPECT_EQ(test, OIB_WC_LOC_LEN_ERR, wc.status);
	KUNIT_EXPECT_TRUE(test, ud_empty(b.cq));
	ud_post_recv(test, &b, 3, 4096 + GRH);
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, b.qp->qp_num, QKEY, a.buf, 5,
					 a.pd->local_dma_lkey, OIB_WR_SEND));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(b.cq, &wc));
	KUNIT_EXPECT_EQ(test, 3ULL, wc.wr_id);
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, wc.status);
	KUNIT_EXPECT_EQ(test, (u32)(GRH + 5), wc.byte_len);
	KUNIT_ASSERT_EQ(test, 1, ud_poll(a.cq, &wc));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_ah(ah));
}

static void ud_sends_wait_for_rts(struct kunit *test)
{
	struct ud_end a, b;
	struct oib_wc wc;
	struct oib_ah *ah;

	ah = ud_pair(test, &a, &b, OIB_QPT_UD, OIB_QPS_RTR);
	ud_post_recv(test, &b, 1, 256);

	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, b.qp->qp_num, QKEY, a.buf, 16,
					 a.pd->local_dma_lkey, OIB_WR_SEND));
	/*
	 * Datagrams leave, and complete, from the poster's own call (rxe.md): with nothing counted
	 * sent once post returned, nothing left and nothing can reach b.
	 */
	KUNIT_EXPECT_EQ(test, 0ULL, oib_rxe_port_stat(a.dev, 1, OIB_RXE_TX_FRAMES));
	KUNIT_EXPECT_TRUE(test, ud_empty(b.cq));
	KUNIT_EXPECT_TRUE(test, ud_empty(a.cq));

	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(a.qp, OIB_QPS_RTS));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(b.cq, &wc));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, wc.status);
	KUNIT_ASSERT_EQ(test, 1, ud_poll(a.cq, &wc));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_ah(ah));
}

static void gsi_round_trip(struct kunit *test)
{
	struct ud_end a, b;
	struct oib_wc wc;
	struct oib_ah *ah;

	ah = ud_pair(test, &a, &b, OIB_QPT_GSI, OIB_QPS_RTS);
	memset(a.buf, 0x5a, 256);

	ud_post_recv(test, &b, 3, 512);
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, 1, 0x80010000, a.buf, 256,
					 a.pd->local_dma_lkey, OIB_WR_SEND));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(b.cq, &wc));
	KUNIT_EXPECT_EQ(test, OIB_WC_SUCCESS, wc.status);
	KUNIT_EXPECT_EQ(test, 1u, wc.src_qp);
	KUNIT_EXPECT_EQ(test, 0, wc.pkey_index);
	KUNIT_EXPECT_EQ(test, 0, memcmp(b.buf + GRH, a.buf, 256));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(a.cq, &wc));

	/* QP1 takes only the GSI Q_Key. */
	ud_post_recv(test, &b, 4, 512);
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, 1, QKEY, a.buf, 8, a.pd->local_dma_lkey,
					 OIB_WR_SEND));
	KUNIT_EXPECT_TRUE(test, oib_test_wait_rxe_stat(b.dev, 1, OIB_RXE_RX_DROP_QKEY, 1));
	KUNIT_EXPECT_TRUE(test, ud_empty(b.cq));
	KUNIT_EXPECT_EQ(test, 1ULL, oib_rxe_port_stat(b.dev, 1, OIB_RXE_RX_DROP_QKEY));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_ah(ah));
}

struct srq_watch {
	struct completion limit;
};

static void srq_event(struct oib_event *ev, void *ctx)
{
	struct srq_watch *w = ctx;

	if (ev->event == OIB_EVENT_SRQ_LIMIT_REACHED)
		complete(&w->limit);
}

static void ud_srq_and_limit(struct kunit *test)
{
	struct srq_watch w;
	struct oib_srq_init_attr sia = { .event_handler = srq_event, .srq_context = &w,
					 .attr = { .max_wr = 8, .max_sge = 1 } };
	struct oib_srq_attr sattr = { .srq_limit = 2 };
	struct oib_qp_init_attr qia = { .qp_type = OIB_QPT_UD,
					.cap = { .max_send_wr = 1, .max_send_sge = 1 } };
	struct ud_end a, b;
	struct oib_sge sge;
	struct oib_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 };
	struct oib_srq *srq;
	struct oib_wc wc;
	struct oib_ah *ah;
	int i;

	init_completion(&w.limit);
	ud_end(test, &a, OIB_QPT_UD);
	b.dev = oib_test_rxe_on(test, UD_FABRIC, 1);
	b.pd = oib_test_pd(test, b.dev);
	b.cq = oib_test_cq(test, b.dev, 64);
	b.buf = kunit_kzalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b.buf);
	KUNIT_ASSERT_EQ(test, 0, oib_query_gid(b.dev, 1, 0, &b.gid, NULL));
	srq = oib_create_srq(b.pd, &sia);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	qia.send_cq = b.cq;
	qia.recv_cq = b.cq;
	qia.srq = srq;
	b.qp = oib_create_qp(b.pd, &qia);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b.qp);

	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(a.qp, OIB_QPS_RTS));
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(b.qp, OIB_QPS_RTS));
	ah = ud_ah(test, &a, &b);
	for (i = 0; i < 3; i++) {
		sge = (struct oib_sge){ .addr = (u64)(uintptr_t)(b.buf + i * 1024), .length = 1024,
					.lkey = b.pd->local_dma_lkey };
		rwr.wr_id = 100 + i;
		KUNIT_ASSERT_EQ(test, 0, oib_post_srq_recv(srq, &rwr, NULL));
	}
	KUNIT_ASSERT_EQ(test, 0, oib_modify_srq(srq, &sattr, OIB_SRQ_LIMIT));

	/* 3 -> 2 posted: not below the limit yet; 2 -> 1: below, the event fires once. */
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, b.qp->qp_num, QKEY, a.buf, 8,
					 a.pd->local_dma_lkey, OIB_WR_SEND));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(b.cq, &wc));
	KUNIT_EXPECT_EQ(test, 100ULL, wc.wr_id);
	KUNIT_EXPECT_FALSE(test, completion_done(&w.limit));
	KUNIT_ASSERT_EQ(test, 0, ud_send(&a, ah, b.qp->qp_num, QKEY, a.buf, 8,
					 a.pd->local_dma_lkey, OIB_WR_SEND));
	KUNIT_ASSERT_EQ(test, 1, ud_poll(b.cq, &wc));
	KUNIT_EXPECT_EQ(test, 101ULL, wc.wr_id);
	KUNIT_EXPECT_NE(test, 0UL, wait_for_completion_timeout(&w.limit, 5 * HZ));
	KUNIT_ASSERT_EQ(test, 0, oib_query_srq(srq, &sattr));
	KUNIT_EXPECT_EQ(test, 0u, sattr.srq_limit);	/* disarmed */

	KUNIT_EXPECT_EQ(test, 0, oib_destroy_ah(ah));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_qp(b.qp));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_srq(srq));
}

static struct kunit_case oib_ud_cases[] = {
	KUNIT_CASE(ud_round_trip),
	KUNIT_CASE(ud_keys_checked),
	KUNIT_CASE(ud_lengths_and_immediate),
	KUNIT_CASE(ud_sends_wait_for_rts),
	KUNIT_CASE(gsi_round_trip),
	KUNIT_CASE(ud_srq_and_limit),
	{}
};

static struct kunit_suite oib_ud_suite = {
	.name = "oib_rxe_ud",
	.test_cases = oib_ud_cases,
};

kunit_test_suite(oib_ud_suite);

MODULE_DESCRIPTION("KUnit tests for UD and GSI datagrams over the oib_rxe fabric");
MODULE_LICENSE("GPL");
