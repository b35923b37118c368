// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_bench_intree's connection phases (oib_bench_cma_core.h) over the in-tree rdma_cm: a listener
 * on the device's address, port OIB_BENCH_CMA_PORT, and cma_iters connections to it from the same
 * device (loopback, as the RC phases), each made as a kernel ULP makes one: create the id, resolve
 * the address and the route, create the QP, connect; the listener's handler creates a QP on the new
 * id and accepts.  One PD and one CQ serve every QP (no WR is ever posted).
 */
#include <linux/err.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include "oib_bench_cma_core.h"
#include "oib_bench_intree_cma.h"

static unsigned int cma_iters = 500;
module_param(cma_iters, uint, 0444);
MODULE_PARM_DESC(cma_iters, "connections made in each connection phase (0: none)");

struct bic;

struct bic_conn {
	struct bic *b;
	struct rdma_cm_id *id[2];	/* client, server */
};

/*
 * The handlers' actions hold @rwsem for reading and check @closing; reset sets @closing under it
 * for writing, so no handler makes a QP or stores an id while reset takes them apart.
 */
struct bic {
	struct oib_bench_cma_count cnt;
	struct sockaddr_in sin;
	const char *stack;
	unsigned int timeout_ms;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct rdma_cm_id *listener;
	struct rw_semaphore rwsem;
	bool closing;
	struct bic_conn lconn;		/* the listener's context: b only */
	struct bic_conn *conns;
	u32 n;
};

static int bic_create_qp(struct bic *b, struct rdma_cm_id *id)
{
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC, .sq_sig_type = IB_SIGNAL_ALL_WR,
		.send_cq = b->cq, .recv_cq = b->cq,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	if (id->device != b->pd->device)
		return -EXDEV;
	return rdma_create_qp(id, b->pd, &attr);
}

static void bic_param(struct rdma_conn_param *p, const u32 *idx)
{
	*p = (struct rdma_conn_param){
		.private_data = idx, .private_data_len = idx ? sizeof(*idx) : 0,
		.responder_resources = 1, .initiator_depth = 1,
		.retry_count = 7, .rnr_retry_count = 7,
	};
}

/* A listener's CONNECT_REQUEST: non-zero has the rdma_cm destroy the new id. */
static int bic_accept(struct bic *b, struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rdma_conn_param param;
	struct bic_conn *c;
	u32 i;
	int ret = -ECONNREFUSED;

	if (ev->param.conn.private_data_len < sizeof(i))
		return ret;
	memcpy(&i, ev->param.conn.private_data, sizeof(i));
	down_read(&b->rwsem);
	if (b->closing || i >= b->n || b->conns[i].id[1])
		goto out;
	c = &b->conns[i];
	id->context = c;
	ret = bic_create_qp(b, id);
	if (ret)
		goto out;
	bic_param(&param, NULL);
	ret = rdma_accept(id, &param);
	if (ret)
		rdma_destroy_qp(id);
	else
		WRITE_ONCE(c->id[1], id);
out:
	up_read(&b->rwsem);
	if (ret)
		oib_bench_cma_event(&b->cnt, false);
	return ret;
}

/* The client's steps: route on ADDR_RESOLVED, QP and REQ on ROUTE_RESOLVED. */
static int bic_step(struct bic_conn *c, struct rdma_cm_id *id, enum rdma_cm_event_type ev)
{
	struct bic *b = c->b;
	struct rdma_conn_param param;
	u32 i = c - b->conns;
	int ret = -ESHUTDOWN;

	down_read(&b->rwsem);
	if (b->closing)
		goto out;
	if (ev == RDMA_CM_EVENT_ADDR_RESOLVED) {
		ret = rdma_resolve_route(id, b->timeout_ms);
		goto out;
	}
	ret = bic_create_qp(b, id);
	if (ret)
		goto out;
	bic_param(&param, &i);
	ret = rdma_connect_locked(id, &param);
out:
	up_read(&b->rwsem);
	return ret;
}

static int bic_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct bic_conn *c = id->context;
	int ret = 0;

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return bic_accept(c->b, id, ev);
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		ret = bic_step(c, id, ev->event);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		oib_bench_cma_event(&c->b->cnt, true);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
		break;
	default:
		ret = ev->status ? ev->status : -EIO;
		break;
	}
	if (ret) {
		pr_info("oib-bench: %s: connection %td: %s (%d)\n", c->b->stack, c - c->b->conns,
			rdma_event_msg(ev->event), ret);
		oib_bench_cma_event(&c->b->cnt, false);
	}
	return 0;	/* the ids are the owner's to destroy (reset) */
}

static int bic_start(void *ctx, u32 i)
{
	struct bic *b = ctx;
	struct bic_conn *c = &b->conns[i];
	struct rdma_cm_id *id;

	id = rdma_create_id(&init_net, bic_handler, c, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	c->id[0] = id;
	return rdma_resolve_addr(id, NULL, (struct sockaddr *)&b->sin, b->timeout_ms);
}

static void bic_destroy(struct rdma_cm_id *id)
{
	if (!id)
		return;
	if (id->qp)
		rdma_destroy_qp(id);
	rdma_destroy_id(id);
}

static void bic_reset(void *ctx)
{
	struct bic *b = ctx;
	u32 i;

	down_write(&b->rwsem);
	b->closing = true;
	up_write(&b->rwsem);
	for (i = 0; i < b->n; i++) {
		bic_destroy(b->conns[i].id[0]);
		bic_destroy(b->conns[i].id[1]);
		b->conns[i].id[0] = NULL;
		b->conns[i].id[1] = NULL;
	}
	atomic_set(&b->cnt.failed, 0);
	down_write(&b->rwsem);
	b->closing = false;
	up_write(&b->rwsem);
}

static const struct oib_bench_cma_ops bic_ops = {
	.start = bic_start,
	.reset = bic_reset,
};

/* The listener on @sin's address (which binds it to the device), then the PD and the CQ. */
static int bic_setup(struct bic *b)
{
	struct ib_cq_init_attr cq_attr = { .cqe = 256 };
	struct rdma_cm_id *l;
	int ret;

	b->lconn.b = b;
	l = rdma_create_id(&init_net, bic_handler, &b->lconn, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(l))
		return PTR_ERR(l);
	b->listener = l;
	ret = rdma_bind_addr(l, (struct sockaddr *)&b->sin);
	if (!ret)
		ret = rdma_listen(l, OIB_BENCH_CMA_DEPTH);
	if (ret)
		return ret;
	if (!l->device)
		return -ENODEV;
	b->pd = ib_alloc_pd(l->device, 0);
	if (IS_ERR(b->pd)) {
		ret = PTR_ERR(b->pd);
		b->pd = NULL;
		return ret;
	}
	b->cq = ib_create_cq(l->device, NULL, NULL, NULL, &cq_attr);
	if (IS_ERR(b->cq)) {
		ret = PTR_ERR(b->cq);
		b->cq = NULL;
	}
	return ret;
}

void oib_bench_intree_cma_run(const char *stack, const struct sockaddr_in *addr,
			      unsigned int timeout_ms)
{
	struct oib_bench_cma_ops ops = bic_ops;
	struct bic *b;
	int ret;

	if (!cma_iters)
		return;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return;
	ops.stack = stack;
	oib_bench_cma_count_init(&b->cnt);
	init_rwsem(&b->rwsem);
	b->stack = stack;
	b->timeout_ms = timeout_ms;
	b->sin = *addr;
	b->sin.sin_port = htons(OIB_BENCH_CMA_PORT);
	b->n = cma_iters;
	b->conns = vzalloc(array_size(b->n, sizeof(*b->conns)));
	ret = b->conns ? bic_setup(b) : -ENOMEM;
	if (ret) {
		pr_info("oib-bench: n/a %s cma_connect_1 setup_failed (%d)\n", stack, ret);
	} else {
		for (ret = 0; ret < b->n; ret++)
			b->conns[ret].b = b;
		oib_bench_cma_phases(&ops, b, &b->cnt, b->n, timeout_ms);
	}
	if (b->listener)
		rdma_destroy_id(b->listener);
	if (b->cq)
		ib_destroy_cq(b->cq);
	if (b->pd)
		ib_dealloc_pd(b->pd);
	vfree(b->conns);
	kfree(b);
}
