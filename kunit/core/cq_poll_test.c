// SPDX-License-Identifier: GPL-2.0-only
/*
 * CQs the core polls (oib_alloc_cq()), the CQ pool and QP drain, over two oib_rxe devices on a
 * fabric of their own: every poll context delivers each request's done callback exactly once, in
 * its context, with budgets small enough that rounds run out and are scheduled again; the pool
 * spreads over vectors, reuses and is freed with the device; a drain with sends and receives in
 * flight on both sides returns only when every callback has run; bad arguments and allocation
 * failures give clean errors.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <oib/kunit/core.h>
#include "oib_toolkit.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define CP_FABRIC	"oib_cq_poll_test"
#define CP_N		64		/* requests of each kind per side */
#define CP_LEN		4096
#define CP_ACCESS	(OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE | \
			 OIB_ACCESS_REMOTE_READ)

struct cp_test;

/* One request: its callback counts the calls and records the completion. */
struct cp_req {
	struct oib_cqe cqe;
	struct cp_test *t;
	atomic_t calls;
	enum oib_wc_status status;
	enum oib_wc_opcode opcode;
};

struct cp_end {
	struct oib_device *dev;
	struct oib_pd *pd;
	struct oib_cq *cq;		/* send and receive */
	struct oib_qp *qp;
	struct oib_mr *mr;
	u8 *buf;			/* CP_N * CP_LEN bytes */
	struct cp_req send[CP_N], recv[CP_N];
};

struct cp_test {
	enum oib_poll_context ctx;
	struct task_struct *task;	/* DIRECT: the test's own thread polls */
	wait_queue_head_t wq;
	atomic_t done;			/* callbacks, all requests */
	atomic_t again;			/* callbacks of a request already called */
	atomic_t wrong_ctx;		/* callbacks in another context than the CQ's */
	struct cp_end a, b;
};

static bool cp_in_ctx(struct cp_test *t)
{
	switch (t->ctx) {
	case OIB_POLL_SOFTIRQ:
		return in_serving_softirq();
	case OIB_POLL_WORKQUEUE:
	case OIB_POLL_UNBOUND_WORKQUEUE:
		return !in_interrupt() && (current->flags & PF_WQ_WORKER);
	default:
		return current == t->task;
	}
}

static void cp_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct cp_req *r = container_of(wc->wr_cqe, struct cp_req, cqe);
	struct cp_test *t = r->t;

	r->status = wc->status;
	r->opcode = wc->opcode;
	if (atomic_inc_return(&r->calls) != 1)
		atomic_inc(&t->again);
	if (!cp_in_ctx(t))
		atomic_inc(&t->wrong_ctx);
	atomic_inc(&t->done);
	wake_up(&t->wq);
}

/* Where an end's CQ comes from, if not oib_alloc_cq(). */
typedef struct oib_cq *(*cp_get_cq_t)(struct kunit *test, struct cp_end *e);

/* @e on a device of its own with @get_cq's CQ (NULL: oib_alloc_cq() in t->ctx, budget 4). */
static void cp_end_init(struct kunit *test, struct cp_test *t, struct cp_end *e,
			cp_get_cq_t get_cq)
{
	struct oib_qp_init_attr ia = {
		.qp_type = OIB_QPT_RC, .sq_sig_type = OIB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = CP_N, .max_recv_wr = CP_N, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	int i;

	e->dev = oib_test_rxe_on(test, CP_FABRIC, 1);
	e->pd = oib_test_pd(test, e->dev);
	if (get_cq) {
		e->cq = get_cq(test, e);
	} else {
		e->cq = oib_test_alloc_cq(test, e->dev, 4 * CP_N, 0, t->ctx);
		if (t->ctx != OIB_POLL_DIRECT)
			KUNIT_ASSERT_EQ(test, 0, oib_cq_set_budget(e->cq, 4));
	}
	ia.send_cq = e->cq;
	ia.recv_cq = e->cq;
	e->qp = oib_test_qp_attr(test, e->pd, &ia);
	e->buf = oib_test_vzalloc(test, CP_N * CP_LEN);
	e->mr = oib_test_kernel_mr(test, e->pd, e->buf, CP_N * CP_LEN, CP_ACCESS);
	for (i = 0; i < CP_N; i++) {
		e->send[i] = (struct cp_req){ .cqe.done = cp_done, .t = t };
		e->recv[i] = (struct cp_req){ .cqe.done = cp_done, .t = t };
	}
}

static struct cp_test *cp_setup_with(struct kunit *test, enum oib_poll_context ctx,
				     cp_get_cq_t get_cq)
{
	struct cp_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->ctx = ctx;
	t->task = current;
	init_waitqueue_head(&t->wq);
	oib_test_fabric(test, CP_FABRIC, 0);
	cp_end_init(test, t, &t->a, get_cq);
	cp_end_init(test, t, &t->b, get_cq);
	KUNIT_ASSERT_EQ(test, 0, oib_test_rc_connect(t->a.qp, t->b.qp, CP_ACCESS));
	return t;
}

static struct cp_test *cp_setup(struct kunit *test, enum oib_poll_context ctx)
{
	return cp_setup_with(test, ctx, NULL);
}

static void cp_post_recvs(struct kunit *test, struct cp_end *e, int n)
{
	struct oib_sge sge = { .length = CP_LEN, .lkey = e->mr->lkey };
	struct oib_recv_wr wr = { .sg_list = &sge, .num_sge = 1 };
	int i;

	for (i = 0; i < n; i++) {
		sge.addr = (u64)(uintptr_t)(e->buf + i * CP_LEN);
		wr.wr_cqe = &e->recv[i].cqe;
		KUNIT_ASSERT_EQ(test, 0, oib_post_recv(e->qp, &wr, NULL));
	}
}

/* @n signalled requests of @op from @e, each CP_LEN bytes (16 for sends) to the same slot. */
static void cp_post_sends(struct kunit *test, struct cp_end *e, struct cp_end *peer,
			  enum oib_wr_opcode op, int n)
{
	struct oib_sge sge = { .length = op == OIB_WR_SEND ? 16 : CP_LEN, .lkey = e->mr->lkey };
	struct oib_send_wr wr = { .opcode = op, .send_flags = OIB_SEND_SIGNALED,
				  .sg_list = &sge, .num_sge = 1, .wr.rdma.rkey = peer->mr->rkey };
	int i;

	for (i = 0; i < n; i++) {
		sge.addr = (u64)(uintptr_t)(e->buf + i * CP_LEN);
		wr.wr.rdma.remote_addr = (u64)(uintptr_t)(peer->buf + i * CP_LEN);
		wr.wr_cqe = &e->send[i].cqe;
		KUNIT_ASSERT_EQ(test, 0, oib_post_send(e->qp, &wr, NULL));
	}
}

/* Poll a DIRECT test's CQs; true once @n callbacks ran. */
static bool cp_direct_reached(struct cp_test *t, int n)
{
	oib_process_cq_direct(t->a.cq, 5);
	oib_process_cq_direct(t->b.cq, 5);
	return atomic_read(&t->done) >= n;
}

static bool cp_wait_done(struct cp_test *t, int n)
{
	if (t->ctx == OIB_POLL_DIRECT)
		return oib_test_wait_for(cp_direct_reached(t, n));
	return oib_test_wait_count(&t->wq, &t->done, n);
}

static void cp_expect_reqs(struct kunit *test, struct cp_req *r, int n,
			   enum oib_wc_status status, enum oib_wc_opcode opcode)
{
	int i;

	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&r[i].calls), 1, "request %d", i);
		KUNIT_EXPECT_EQ_MSG(test, r[i].status, status, "request %d", i);
		if (status == OIB_WC_SUCCESS)
			KUNIT_EXPECT_EQ_MSG(test, r[i].opcode, opcode, "request %d", i);
	}
}

static const enum oib_poll_context cp_ctxs[] = {
	OIB_POLL_SOFTIRQ, OIB_POLL_WORKQUEUE, OIB_POLL_UNBOUND_WORKQUEUE, OIB_POLL_DIRECT,
};

static const char * const cp_ctx_names[] = {
	[OIB_POLL_SOFTIRQ] = "softirq", [OIB_POLL_WORKQUEUE] = "workqueue",
	[OIB_POLL_UNBOUND_WORKQUEUE] = "unbound_workqueue", [OIB_POLL_DIRECT] = "direct",
};

static void cp_ctx_desc(const enum oib_poll_context *ctx, char *desc)
{
	strscpy(desc, cp_ctx_names[*ctx], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cp_ctx, cp_ctxs, cp_ctx_desc);

/*
 * CP_N SENDs each way and CP_N RDMA WRITEs from a: every callback once, in the CQ's context;
 * with a budget of 4 the pollers needed at least a round per 4 completions.
 */
static void cq_poll_callbacks(struct kunit *test)
{
	const enum oib_poll_context *ctx = test->param_value;
	struct cp_test *t = cp_setup(test, *ctx);
	int n = 4 * CP_N;

	cp_post_recvs(test, &t->a, CP_N);
	cp_post_recvs(test, &t->b, CP_N);
	cp_post_sends(test, &t->a, &t->b, OIB_WR_SEND, CP_N);
	cp_post_sends(test, &t->b, &t->a, OIB_WR_SEND, CP_N);
	KUNIT_ASSERT_TRUE(test, cp_wait_done(t, n));
	cp_expect_reqs(test, t->a.send, CP_N, OIB_WC_SUCCESS, OIB_WC_SEND);
	cp_expect_reqs(test, t->b.send, CP_N, OIB_WC_SUCCESS, OIB_WC_SEND);
	cp_expect_reqs(test, t->a.recv, CP_N, OIB_WC_SUCCESS, OIB_WC_RECV);
	cp_expect_reqs(test, t->b.recv, CP_N, OIB_WC_SUCCESS, OIB_WC_RECV);

	/* the same requests again as RDMA WRITEs: their callbacks a second time */
	cp_post_sends(test, &t->a, &t->b, OIB_WR_RDMA_WRITE, CP_N);
	KUNIT_ASSERT_TRUE(test, cp_wait_done(t, n + CP_N));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->again), CP_N);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->wrong_ctx), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->done), n + CP_N);
	if (*ctx != OIB_POLL_DIRECT) {
		KUNIT_EXPECT_GE(test, atomic_read(&t->a.cq->rounds), 3 * CP_N / 4);
		KUNIT_EXPECT_GE(test, atomic_read(&t->b.cq->rounds), 2 * CP_N / 4);
	}
}

/*
 * Drain with requests in flight on both sides: sends, writes and receives.  When each drain
 * returns, every request of its QP has had its callback, once: a success or a flush.
 */
static void cq_poll_drain(struct kunit *test)
{
	const enum oib_poll_context *ctx = test->param_value;
	struct cp_test *t = cp_setup(test, *ctx);
	int i, flushed = 0;

	cp_post_recvs(test, &t->a, CP_N);
	cp_post_recvs(test, &t->b, CP_N);
	cp_post_sends(test, &t->a, &t->b, OIB_WR_RDMA_WRITE, CP_N);
	cp_post_sends(test, &t->b, &t->a, OIB_WR_SEND, CP_N / 2);

	KUNIT_ASSERT_EQ(test, 0, oib_drain_qp(t->a.qp));
	for (i = 0; i < CP_N; i++) {
		KUNIT_EXPECT_EQ(test, atomic_read(&t->a.send[i].calls), 1);
		KUNIT_EXPECT_EQ(test, atomic_read(&t->a.recv[i].calls), 1);
		KUNIT_EXPECT_TRUE(test, t->a.send[i].status == OIB_WC_SUCCESS ||
				  t->a.send[i].status == OIB_WC_WR_FLUSH_ERR);
		flushed += t->a.recv[i].status == OIB_WC_WR_FLUSH_ERR;
	}
	KUNIT_EXPECT_GE(test, flushed, CP_N / 2);
	KUNIT_ASSERT_EQ(test, 0, oib_drain_qp(t->b.qp));
	for (i = 0; i < CP_N; i++) {
		KUNIT_EXPECT_EQ(test, atomic_read(&t->b.recv[i].calls), 1);
		KUNIT_EXPECT_TRUE(test, t->b.recv[i].status == OIB_WC_WR_FLUSH_ERR);
		if (i < CP_N / 2)
			KUNIT_EXPECT_EQ(test, atomic_read(&t->b.send[i].calls), 1);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&t->done), 3 * CP_N + CP_N / 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->again), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->wrong_ctx), 0);

	/* drained again: nothing in flight, still fine; the QP stays in ERR */
	KUNIT_EXPECT_EQ(test, 0, oib_drain_qp(t->a.qp));
	KUNIT_EXPECT_EQ(test, READ_ONCE(t->a.qp->state), OIB_QPS_ERR);
}

/* Drain's refusals, and the QPs it has nothing to do for. */
static void cq_poll_drain_errors(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct oib_cq *cq = oib_test_alloc_cq(test, dev, 64, 0, OIB_POLL_WORKQUEUE);
	struct oib_cq *plain = oib_test_cq(test, dev, 64);
	struct oib_srq_init_attr sia = { .attr = { .max_wr = 4, .max_sge = 1 } };
	struct oib_qp_init_attr ia = {
		.qp_type = OIB_QPT_RC, .send_cq = cq, .recv_cq = cq,
		.cap = { .max_send_wr = 4, .max_send_sge = 1 },
	};
	struct oib_qp *qp;

	KUNIT_EXPECT_EQ(test, -EINVAL, oib_drain_qp(NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_drain_sq(ERR_PTR(-ENOMEM)));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_drain_rq(NULL));

	/* on an SRQ: the receive side is the SRQ's */
	ia.srq = oib_test_srq(test, pd, &sia);
	qp = oib_test_qp_attr(test, pd, &ia);
	KUNIT_EXPECT_EQ(test, 0, oib_drain_qp(qp));	/* RESET: nothing to do */
	KUNIT_EXPECT_EQ(test, READ_ONCE(qp->state), OIB_QPS_RESET);
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(qp, OIB_QPS_RTS));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_drain_rq(qp));
	KUNIT_EXPECT_EQ(test, 0, oib_drain_qp(qp));
	KUNIT_EXPECT_EQ(test, READ_ONCE(qp->state), OIB_QPS_ERR);

	/* a CQ the core does not poll */
	qp = oib_test_qp(test, pd, plain, OIB_QPT_RC, 4);
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(qp, OIB_QPS_RTS));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_drain_sq(qp));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_drain_rq(qp));

	/* UD: no marker to post */
	qp = oib_test_qp(test, pd, cq, OIB_QPT_UD, 4);
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, oib_drain_qp(qp));
}

/* The pool: a CQ per vector, shared while it has room, freed when the device goes. */
static void cq_poll_pool(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	u32 nvec = dev->attrs.num_comp_vectors, i;
	struct oib_cq *cq[4], *more, *other;
	u32 extra;

	KUNIT_ASSERT_GE(test, nvec, 1u);
	for (i = 0; i < ARRAY_SIZE(cq); i++) {
		cq[i] = oib_cq_pool_get(dev, 16, i, OIB_POLL_WORKQUEUE);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq[i]);
		KUNIT_EXPECT_EQ(test, cq[i]->comp_vector, i % nvec);
		KUNIT_EXPECT_TRUE(test, cq[i]->shared);
		KUNIT_EXPECT_EQ(test, cq[i]->poll_ctx, OIB_POLL_WORKQUEUE);
		if (i >= nvec)	/* the same vector again: the same CQ */
			KUNIT_EXPECT_PTR_EQ(test, cq[i], cq[i - nvec]);
		else if (i)
			KUNIT_EXPECT_PTR_NE(test, cq[i], cq[i - 1]);
	}
	KUNIT_EXPECT_EQ(test, oib_object_count(dev, OIB_OBJ_CQ), (int)min(nvec, 4u));

	/* more than the CQ has room for: another CQ on the same vector */
	extra = cq[0]->cqe - cq[0]->cqe_used + 1;
	more = oib_cq_pool_get(dev, extra, 0, OIB_POLL_WORKQUEUE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, more);
	KUNIT_EXPECT_PTR_NE(test, more, cq[0]);
	KUNIT_EXPECT_EQ(test, more->comp_vector, 0u);
	/* another poll context: another list; a negative hint picks a vector itself */
	other = oib_cq_pool_get(dev, 16, -1, OIB_POLL_SOFTIRQ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);
	KUNIT_EXPECT_EQ(test, other->poll_ctx, OIB_POLL_SOFTIRQ);
	KUNIT_EXPECT_LT(test, other->comp_vector, nvec);

	for (i = 0; i < ARRAY_SIZE(cq); i++)
		KUNIT_EXPECT_EQ(test, 0, oib_cq_pool_put(cq[i], 16));
	KUNIT_EXPECT_EQ(test, cq[0]->cqe_used, 0u);
	/* given back, taken again: reused */
	KUNIT_EXPECT_PTR_EQ(test, oib_cq_pool_get(dev, 16, 0, OIB_POLL_WORKQUEUE), cq[0]);
	KUNIT_EXPECT_EQ(test, 0, oib_cq_pool_put(cq[0], 16));

	/* refusals */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cq_pool_put(cq[0], 1));	/* more than taken */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cq_pool_put(NULL, 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_free_cq(cq[0]));		/* the pool's */
	KUNIT_EXPECT_PTR_EQ(test, oib_cq_pool_get(dev, 16, 0, OIB_POLL_DIRECT), ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, oib_cq_pool_get(dev, 0, 0, OIB_POLL_SOFTIRQ), ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, oib_cq_pool_get(dev, dev->attrs.max_cqe + 1, 0,
						  OIB_POLL_SOFTIRQ), ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, oib_cq_pool_get(NULL, 16, 0, OIB_POLL_SOFTIRQ),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_EQ(test, 0, oib_cq_pool_put(more, extra));
	KUNIT_EXPECT_EQ(test, 0, oib_cq_pool_put(other, 16));

	/* the device goes: its pool with it (the memory kept to read the count) */
	get_device(&dev->dev);
	oib_test_rxe_remove(test, dev);
	KUNIT_EXPECT_EQ(test, oib_object_count(dev, OIB_OBJ_CQ), 0);
	put_device(&dev->dev);
}

static void cp_pool_put(void *cq)
{
	oib_cq_pool_put(cq, 2 * CP_N);
}

/* A SOFTIRQ pool CQ for @e, its entries given back when the test ends. */
static struct oib_cq *cp_pool_cq(struct kunit *test, struct cp_end *e)
{
	struct oib_cq *cq = oib_cq_pool_get(e->dev, 2 * CP_N, -1, OIB_POLL_SOFTIRQ);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, cp_pool_put, cq));
	return cq;
}

/* A pool CQ carries traffic like any other, and drains like one. */
static void cq_poll_pool_traffic(struct kunit *test)
{
	struct cp_test *t = cp_setup_with(test, OIB_POLL_SOFTIRQ, cp_pool_cq);

	cp_post_recvs(test, &t->b, CP_N);
	cp_post_sends(test, &t->a, &t->b, OIB_WR_SEND, CP_N);
	KUNIT_ASSERT_TRUE(test, cp_wait_done(t, 2 * CP_N));
	cp_expect_reqs(test, t->b.recv, CP_N, OIB_WC_SUCCESS, OIB_WC_RECV);
	KUNIT_ASSERT_EQ(test, 0, oib_drain_qp(t->a.qp));
	KUNIT_ASSERT_EQ(test, 0, oib_drain_qp(t->b.qp));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->wrong_ctx), 0);
	/* teardown: the QPs, the pool entries given back, the pool CQs with their devices */
}

static void cq_poll_errors(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct oib_cq *plain = oib_test_cq(test, dev, 16);
	struct oib_cq *wq = oib_test_alloc_cq(test, dev, 16, 0, OIB_POLL_WORKQUEUE);
	struct oib_cq *direct = oib_test_alloc_cq(test, dev, 16, 0, OIB_POLL_DIRECT);
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct oib_qp *qp = oib_test_qp(test, pd, direct, OIB_QPT_RC, 4);

	KUNIT_EXPECT_PTR_EQ(test, oib_alloc_cq(NULL, NULL, 16, 0, OIB_POLL_SOFTIRQ),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, oib_alloc_cq(dev, NULL, 0, 0, OIB_POLL_SOFTIRQ),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, oib_alloc_cq(dev, NULL, 16, dev->attrs.num_comp_vectors,
					       OIB_POLL_SOFTIRQ), ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, oib_alloc_cq(dev, NULL, 16, 0, OIB_POLL_DIRECT + 1),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_free_cq(NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_free_cq(plain));
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_free_cq(direct));	/* qp uses it */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_destroy_cq(wq));	/* oib_free_cq()'s */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_process_cq_direct(wq, 8));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_process_cq_direct(plain, 8));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_process_cq_direct(direct, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_process_cq_direct(NULL, 8));
	KUNIT_EXPECT_EQ(test, 0, oib_process_cq_direct(direct, 8));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cq_set_budget(direct, 8));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cq_set_budget(wq, 0));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_qp(qp));
	oib_test_disown(test, qp);
}

struct cp_sweep {
	struct oib_device *dev;
	enum oib_poll_context ctx;
	struct oib_cq *cq;
};

static int cp_sweep_alloc(struct kunit *test, void *ctx)
{
	struct cp_sweep *s = ctx;

	s->cq = oib_alloc_cq(s->dev, NULL, 16, 0, s->ctx);
	return PTR_ERR_OR_ZERO(s->cq);
}

static void cp_sweep_free(struct kunit *test, void *ctx)
{
	KUNIT_EXPECT_EQ(test, 0, oib_free_cq(((struct cp_sweep *)ctx)->cq));
}

static int cp_sweep_pool_get(struct kunit *test, void *ctx)
{
	struct cp_sweep *s = ctx;

	s->cq = oib_cq_pool_get(s->dev, 16, 1, s->ctx);
	return PTR_ERR_OR_ZERO(s->cq);
}

static void cp_sweep_pool_put(struct kunit *test, void *ctx)
{
	KUNIT_EXPECT_EQ(test, 0, oib_cq_pool_put(((struct cp_sweep *)ctx)->cq, 16));
}

/* Allocation failures in oib_alloc_cq() for every context and in the pool's first get. */
static void cq_poll_failslab(struct kunit *test)
{
	struct cp_sweep s = { .dev = oib_test_rxe_ports(test, 1) };
	int i;

	for (i = 0; i < ARRAY_SIZE(cp_ctxs); i++) {
		s.ctx = cp_ctxs[i];
		KUNIT_EXPECT_GT(test, oib_test_failslab_sweep(test, s.dev, cp_sweep_alloc,
							      cp_sweep_free, &s), 0);
	}
	s.ctx = OIB_POLL_UNBOUND_WORKQUEUE;
	KUNIT_EXPECT_GT(test, oib_test_failslab_sweep(test, s.dev, cp_sweep_pool_get,
						      cp_sweep_pool_put, &s), 0);
}

static struct kunit_case cq_poll_cases[] = {
	KUNIT_CASE_PARAM(cq_poll_callbacks, cp_ctx_gen_params),
	KUNIT_CASE_PARAM(cq_poll_drain, cp_ctx_gen_params),
	KUNIT_CASE(cq_poll_drain_errors),
	KUNIT_CASE(cq_poll_pool),
	KUNIT_CASE(cq_poll_pool_traffic),
	KUNIT_CASE(cq_poll_errors),
	KUNIT_CASE(cq_poll_failslab),
	{}
};

static struct kunit_suite cq_poll_suite = {
	.name = "oib_core_cq_poll",
	.test_cases = cq_poll_cases,
};

kunit_test_suite(cq_poll_suite);

MODULE_DESCRIPTION("KUnit: oib_core CQ poll contexts, the CQ pool and QP drain");
MODULE_LICENSE("GPL");
