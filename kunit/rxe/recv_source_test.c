// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_rxe's side of struct oib_recv_source (include/oib/provider.h), with a source of the test's
 * own: receives pulled in order when a message finds the queue empty, next to posted ones; a bad
 * receive puts a QP in ERR with QP_FATAL, or raises SRQ_ERR on an SRQ; a QP in ERR flushes what
 * the source holds; the SRQ limit counts the source's receives; the core's checks of the field.
 */
#include <linux/module.h>
#include <linux/wait.h>
#include "oib_toolkit.h"

#define RS_BUF		SZ_64K

/* A source of @left receives with wr_ids from 1 on; the one numbered @bad_at is bad. */
struct rs_src {
	struct oib_recv_source src;
	spinlock_t lock;	/* protects every field below */
	u64 next;
	int left;
	u64 bad_at;
	bool broken;
	int flush_pulls;	/* pulls with OIB_RECV_PULL_FLUSH */
	struct oib_sge sge;	/* each receive's one SGE */
};

struct rs {
	struct oib_device *dev;
	struct oib_pd *pd;
	struct oib_cq *cqa, *cqb;
	struct oib_qp *a, *b;
	struct oib_srq *srq;
	struct oib_mr *mr;
	struct rs_src *src;
	atomic_t events[OIB_EVENT_GID_CHANGE + 1];
	wait_queue_head_t wq;
};

static int rs_pull(struct oib_recv_source *src, struct oib_recv_wr *wr, struct oib_sge *sge,
		   u32 max_sge, u32 flags)
{
	struct rs_src *s = container_of(src, struct rs_src, src);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&s->lock, irqflags);
	s->flush_pulls += !!(flags & OIB_RECV_PULL_FLUSH);
	if (!s->broken && s->left && s->next == s->bad_at) {
		s->broken = true;
		ret = -EINVAL;
	} else if (!s->broken && s->left && max_sge) {
		*sge = s->sge;
		*wr = (struct oib_recv_wr){ .wr_id = s->next++, .sg_list = sge, .num_sge = 1 };
		s->left--;
		ret = 1;
	}
	spin_unlock_irqrestore(&s->lock, irqflags);
	return ret;
}

static void rs_event(struct oib_event *ev, void *ctx)
{
	struct rs *r = ctx;

	if (ev->event <= OIB_EVENT_GID_CHANGE)
		atomic_inc(&r->events[ev->event]);
	wake_up(&r->wq);
}

/* A connected RC pair on one device; b's receives from the source (an SRQ's if @srq). */
static struct rs *rs_setup(struct kunit *test, bool srq, int left, u64 bad_at, u32 limit)
{
	struct rs *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct oib_qp_init_attr ia = {
		.event_handler = rs_event, .qp_type = OIB_QPT_RC, .sq_sig_type = OIB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 16, .max_recv_wr = srq ? 0 : 64, .max_send_sge = 1,
			 .max_recv_sge = srq ? 0 : 1 },
	};
	struct oib_srq_init_attr sa = {
		.event_handler = rs_event, .srq_type = OIB_SRQT_BASIC,
		.attr = { .max_wr = 64, .max_sge = 1, .srq_limit = limit },
	};
	void *buf;

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->src = kunit_kzalloc(test, sizeof(*r->src), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->src);
	init_waitqueue_head(&r->wq);
	r->dev = oib_test_rxe_ports(test, 1);
	r->pd = oib_test_pd(test, r->dev);
	r->cqa = oib_test_cq(test, r->dev, 256);
	r->cqb = oib_test_cq(test, r->dev, 256);
	buf = oib_test_vzalloc(test, RS_BUF);
	r->mr = oib_test_kernel_mr(test, r->pd, buf, RS_BUF, OIB_ACCESS_LOCAL_WRITE);
	spin_lock_init(&r->src->lock);
	r->src->src.pull = rs_pull;
	r->src->next = 1;
	r->src->left = left;
	r->src->bad_at = bad_at;
	r->src->sge = (struct oib_sge){ .addr = r->mr->iova, .length = 64, .lkey = r->mr->lkey };
	if (srq) {
		sa.srq_context = r;
		sa.recv_source = &r->src->src;
		r->srq = oib_test_srq(test, r->pd, &sa);
	}
	r->a = oib_test_qp(test, r->pd, r->cqa, OIB_QPT_RC, 64);
	ia.qp_context = r;
	ia.send_cq = r->cqb;
	ia.recv_cq = r->cqb;
	ia.srq = r->srq;
	ia.recv_source = srq ? NULL : &r->src->src;
	r->b = oib_test_qp_attr(test, r->pd, &ia);
	KUNIT_ASSERT_EQ(test, oib_test_rc_connect(r->a, r->b, 0), 0);
	return r;
}

/* @n signalled 8-byte SENDs from a, each completed. */
static void rs_send(struct kunit *test, struct rs *r, int n)
{
	struct oib_sge sge = { .addr = r->mr->iova + RS_BUF / 2, .length = 8, .lkey = r->mr->lkey };
	struct oib_send_wr wr = { .opcode = OIB_WR_SEND, .send_flags = OIB_SEND_SIGNALED,
				  .sg_list = &sge, .num_sge = 1 };
	const struct oib_send_wr *bad;
	struct oib_wc wc;
	int i;

	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_EQ(test, oib_post_send(r->a, &wr, &bad), 0);
		KUNIT_ASSERT_EQ(test, oib_test_poll_cq(r->cqa, &wc, 1), 1);
		KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	}
}

/* b's next completion: @wr_id with @status. */
static void rs_expect_recv(struct kunit *test, struct rs *r, u64 wr_id, enum oib_wc_status status)
{
	struct oib_wc wc;

	KUNIT_ASSERT_EQ(test, oib_test_poll_cq(r->cqb, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, wr_id);
	KUNIT_EXPECT_EQ(test, wc.status, status);
}

/* Pulled in order, one message at a time; a posted receive is taken as well. */
static void source_rc(struct kunit *test)
{
	struct rs *r = rs_setup(test, false, 5, 0, 0);
	struct oib_sge sge = r->src->sge;
	struct oib_recv_wr rwr = { .wr_id = 100, .sg_list = &sge, .num_sge = 1 };
	const struct oib_recv_wr *bad;
	int i;

	rs_send(test, r, 5);
	for (i = 1; i <= 5; i++)
		rs_expect_recv(test, r, i, OIB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, r->src->left, 0);
	KUNIT_EXPECT_EQ(test, r->src->flush_pulls, 0);
	KUNIT_ASSERT_EQ(test, oib_post_recv(r->b, &rwr, &bad), 0);
	rs_send(test, r, 1);
	rs_expect_recv(test, r, 100, OIB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->events[OIB_EVENT_QP_FATAL]), 0);
}

/* A bad receive after a good one: the good one takes the message, then QP_FATAL and ERR. */
static void source_bad_qp(struct kunit *test)
{
	struct rs *r = rs_setup(test, false, 3, 2, 0);

	rs_send(test, r, 1);
	rs_expect_recv(test, r, 1, OIB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_count(&r->wq, &r->events[OIB_EVENT_QP_FATAL], 1));
	KUNIT_EXPECT_EQ(test, READ_ONCE(r->b->state), OIB_QPS_ERR);
	KUNIT_EXPECT_TRUE(test, r->src->broken);
}

/* A QP moved to ERR flushes the source's receives, in order. */
static void source_flush(struct kunit *test)
{
	struct rs *r = rs_setup(test, false, 5, 0, 0);
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_ERR };
	int i;

	KUNIT_ASSERT_EQ(test, oib_modify_qp(r->b, &attr, OIB_QP_STATE), 0);
	for (i = 1; i <= 5; i++)
		rs_expect_recv(test, r, i, OIB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, r->src->left, 0);
	KUNIT_EXPECT_GE(test, r->src->flush_pulls, 6);	/* the last found none */
	/* in ERR, another move to ERR flushes what came since */
	spin_lock_irq(&r->src->lock);
	r->src->left = 2;
	spin_unlock_irq(&r->src->lock);
	KUNIT_ASSERT_EQ(test, oib_modify_qp(r->b, &attr, OIB_QP_STATE), 0);
	rs_expect_recv(test, r, 6, OIB_WC_WR_FLUSH_ERR);
	rs_expect_recv(test, r, 7, OIB_WC_WR_FLUSH_ERR);
}

/*
 * The SRQ limit armed at 8 with 24 receives in the source: no event while 8 or more are left
 * (in the SRQ and the source together), one when fewer, none after.
 */
static void source_srq_limit(struct kunit *test)
{
	struct rs *r = rs_setup(test, true, 24, 0, 8);
	atomic_t *limit = &r->events[OIB_EVENT_SRQ_LIMIT_REACHED];
	struct oib_srq_attr sa;
	int i;

	rs_send(test, r, 16);
	for (i = 1; i <= 16; i++)
		rs_expect_recv(test, r, i, OIB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(limit), 0);
	rs_send(test, r, 1);
	rs_expect_recv(test, r, 17, OIB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_count(&r->wq, limit, 1));
	rs_send(test, r, 1);
	rs_expect_recv(test, r, 18, OIB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(limit), 1);
	KUNIT_ASSERT_EQ(test, oib_query_srq(r->srq, &sa), 0);
	KUNIT_EXPECT_EQ(test, sa.srq_limit, 0);
}

/* An SRQ's source with a bad receive: SRQ_ERR, the QP on it unchanged. */
static void source_bad_srq(struct kunit *test)
{
	struct rs *r = rs_setup(test, true, 3, 2, 0);

	rs_send(test, r, 1);
	rs_expect_recv(test, r, 1, OIB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_count(&r->wq, &r->events[OIB_EVENT_SRQ_ERR], 1));
	KUNIT_EXPECT_EQ(test, READ_ONCE(r->b->state), OIB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->events[OIB_EVENT_QP_FATAL]), 0);
}

/* The core: not with an SRQ, not without a pull. */
static void source_core_checks(struct kunit *test)
{
	struct rs *r = rs_setup(test, true, 0, 0, 0);
	struct oib_recv_source none = { 0 };
	struct oib_qp_init_attr ia = {
		.send_cq = r->cqa, .recv_cq = r->cqa, .qp_type = OIB_QPT_RC, .srq = r->srq,
		.sq_sig_type = OIB_SIGNAL_REQ_WR, .recv_source = &r->src->src,
		.cap = { .max_send_wr = 1, .max_send_sge = 1 },
	};
	struct oib_srq_init_attr sa = {
		.srq_type = OIB_SRQT_BASIC, .attr = { .max_wr = 4, .max_sge = 1 },
		.recv_source = &none,
	};

	KUNIT_EXPECT_EQ(test, PTR_ERR(oib_create_qp(r->pd, &ia)), -EINVAL);
	ia.srq = NULL;
	ia.cap.max_recv_wr = 1;
	ia.cap.max_recv_sge = 1;
	ia.recv_source = &none;
	KUNIT_EXPECT_EQ(test, PTR_ERR(oib_create_qp(r->pd, &ia)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(oib_create_srq(r->pd, &sa)), -EINVAL);
}

static struct kunit_case recv_source_cases[] = {
	KUNIT_CASE(source_rc),
	KUNIT_CASE(source_bad_qp),
	KUNIT_CASE(source_flush),
	KUNIT_CASE(source_srq_limit),
	KUNIT_CASE(source_bad_srq),
	KUNIT_CASE(source_core_checks),
	{}
};

static struct kunit_suite recv_source_suite = {
	.name = "oib_rxe_recv_source",
	.test_cases = recv_source_cases,
};

kunit_test_suite(recv_source_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit checks of oib_rxe's receive sources: pulls, bad receives, flush, SRQ limit");
