// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_bench's connection phases (oib_bench_cma_core.h) over oib_cma, between two devices with
 * IPv4 addresses: after the CM phases two oib_rxe devices on the bench fabric, port 1 of the
 * first with 10.77.0.1, of the second with 10.77.0.2 (RoCEv2 GIDs); after the iWARP RC phases
 * the two oib_siw devices.  A listener on the second address, and cma_iters connections to it
 * from the first, each made as oib_bench_intree_cma.c makes them over the in-tree rdma_cm: create
 * the id, resolve the address and the route, create the QP, connect; the listener's handler
 * creates a QP on the new id and accepts.  One PD and one CQ per device serve every QP.
 */
#include <linux/err.h>
#include <linux/inet.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <oib/provider.h>
#include <oib/rdma_cm.h>
#include <oib/rxe.h>
#include "oib_bench_cma.h"
#include "oib_bench_cma_core.h"

static unsigned int cma_iters = 500;
module_param(cma_iters, uint, 0444);
MODULE_PARM_DESC(cma_iters, "connections made in each oib_cma connection phase (0: none)");

struct boc;

struct boc_conn {
	struct boc *b;
	struct oib_cma_id *id[2];	/* client, server */
};

struct boc_side {
	struct oib_device *device;
	struct oib_pd *pd;
	struct oib_cq *cq;
};

/* As struct bic in oib_bench_intree_cma.c: @rwsem and @closing keep handlers off reset. */
struct boc {
	struct oib_bench_cma_ops ops;
	struct oib_bench_cma_count cnt;
	struct sockaddr_in src, sin;
	unsigned int timeout_ms;
	struct boc_side side[2];
	struct oib_cma_id *listener;
	struct rw_semaphore rwsem;
	bool closing;
	struct boc_conn lconn;		/* the listener's context (and its spawned ids'): b only */
	struct boc_conn *conns;
	u32 n;
};

static int boc_create_qp(struct boc *b, struct oib_cma_id *id)
{
	struct boc_side *s = &b->side[id->device == b->side[1].device];
	struct oib_qp_init_attr attr = {
		.qp_type = OIB_QPT_RC, .sq_sig_type = OIB_SIGNAL_ALL_WR,
		.send_cq = s->cq, .recv_cq = s->cq,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	return oib_cma_create_qp(id, s->pd, &attr);
}

static void boc_param(struct oib_cma_conn_param *p, const u32 *idx)
{
	*p = (struct oib_cma_conn_param){
		.private_data = idx, .private_data_len = idx ? sizeof(*idx) : 0,
		.responder_resources = 1, .initiator_depth = 1,
		.retry_count = 7, .rnr_retry_count = 7,
	};
}

/* A listener's CONNECT_REQUEST: the private data names the connection; non-zero refuses it. */
static int boc_accept(struct boc *b, struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct oib_cma_conn_param param;
	u32 i;
	int ret = -ECONNREFUSED;

	if (ev->param.conn.private_data_len < sizeof(i))
		return ret;
	memcpy(&i, ev->param.conn.private_data, sizeof(i));
	down_read(&b->rwsem);
	if (b->closing || i >= b->n || b->conns[i].id[1])
		goto out;
	ret = boc_create_qp(b, id);
	if (ret)
		goto out;
	boc_param(&param, NULL);
	ret = oib_cma_accept(id, &param);
	if (ret)
		oib_cma_destroy_qp(id);
	else
		WRITE_ONCE(b->conns[i].id[1], id);
out:
	up_read(&b->rwsem);
	if (ret)
		oib_bench_cma_event(&b->cnt, false);
	return ret;
}

static int boc_step(struct boc_conn *c, struct oib_cma_id *id, enum oib_cma_event_type ev)
{
	struct boc *b = c->b;
	struct oib_cma_conn_param param;
	u32 i = c - b->conns;
	int ret = -ESHUTDOWN;

	down_read(&b->rwsem);
	if (b->closing)
		goto out;
	if (ev == OIB_CMA_EVENT_ADDR_RESOLVED) {
		ret = oib_cma_resolve_route(id, b->timeout_ms);
		goto out;
	}
	ret = boc_create_qp(b, id);
	if (ret)
		goto out;
	boc_param(&param, &i);
	ret = oib_cma_connect(id, &param);
out:
	up_read(&b->rwsem);
	return ret;
}

static int boc_handler(struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct boc_conn *c = id->context;
	int ret = 0;

	switch (ev->event) {
	case OIB_CMA_EVENT_CONNECT_REQUEST:
		return boc_accept(c->b, id, ev);
	case OIB_CMA_EVENT_ADDR_RESOLVED:
	case OIB_CMA_EVENT_ROUTE_RESOLVED:
		ret = boc_step(c, id, ev->event);
		break;
	case OIB_CMA_EVENT_ESTABLISHED:
		oib_bench_cma_event(&c->b->cnt, true);
		break;
	case OIB_CMA_EVENT_DISCONNECTED:
	case OIB_CMA_EVENT_TIMEWAIT_EXIT:
		break;
	default:
		ret = ev->status ? ev->status : -EIO;
		break;
	}
	if (ret) {
		pr_info("oib-bench: %s: connection %td: %s (%d)\n", c->b->ops.stack,
			c - c->b->conns, oib_cma_event_msg(ev->event), ret);
		oib_bench_cma_event(&c->b->cnt, false);
	}
	return 0;	/* the ids are the owner's to destroy (reset) */
}

static int boc_start(void *ctx, u32 i)
{
	struct boc *b = ctx;
	struct boc_conn *c = &b->conns[i];
	struct oib_cma_id *id;

	id = oib_cma_create_id(&init_net, boc_handler, c, OIB_PS_TCP, OIB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	c->id[0] = id;
	return oib_cma_resolve_addr(id, (struct sockaddr *)&b->src, (struct sockaddr *)&b->sin,
				    b->timeout_ms);
}

static void boc_destroy(struct oib_cma_id *id)
{
	if (!id)
		return;
	if (id->qp)
		oib_cma_destroy_qp(id);
	oib_cma_destroy_id(id);
}

static void boc_reset(void *ctx)
{
	struct boc *b = ctx;
	u32 i;

	down_write(&b->rwsem);
	b->closing = true;
	up_write(&b->rwsem);
	for (i = 0; i < b->n; i++) {
		boc_destroy(b->conns[i].id[0]);
		boc_destroy(b->conns[i].id[1]);
		b->conns[i].id[0] = NULL;
		b->conns[i].id[1] = NULL;
	}
	atomic_set(&b->cnt.failed, 0);
	down_write(&b->rwsem);
	b->closing = false;
	up_write(&b->rwsem);
}

/* An IPv4 address and port from @addr. */
static int boc_addr(struct sockaddr_in *sin, const char *addr, u16 port)
{
	*sin = (struct sockaddr_in){ .sin_family = AF_INET, .sin_port = htons(port) };
	return in4_pton(addr, -1, (u8 *)&sin->sin_addr.s_addr, -1, NULL) ? 0 : -EINVAL;
}

/* A PD and a CQ on @device, which has the side's address. */
static int boc_side_init(struct boc_side *s, struct oib_device *device)
{
	s->device = device;
	s->pd = oib_alloc_pd(s->device);
	if (IS_ERR(s->pd))
		return PTR_ERR(s->pd);
	s->cq = oib_create_cq(s->device, NULL, NULL, NULL,
			      &(struct oib_cq_init_attr){ .cqe = 256 });
	return PTR_ERR_OR_ZERO(s->cq);
}

static void boc_side_fini(struct boc_side *s)
{
	if (!IS_ERR_OR_NULL(s->cq))
		oib_destroy_cq(s->cq);
	if (!IS_ERR_OR_NULL(s->pd))
		oib_dealloc_pd(s->pd);
}

static int boc_setup(struct boc *b, struct oib_device *const dev[2], const char *const addr[2])
{
	struct oib_cma_id *l;
	int ret;

	ret = boc_side_init(&b->side[0], dev[0]) ?: boc_side_init(&b->side[1], dev[1]) ?:
	      boc_addr(&b->src, addr[0], 0) ?: boc_addr(&b->sin, addr[1], OIB_BENCH_CMA_PORT);
	if (ret)
		return ret;
	l = oib_cma_create_id(&init_net, boc_handler, &b->lconn, OIB_PS_TCP, OIB_QPT_RC);
	if (IS_ERR(l))
		return PTR_ERR(l);
	b->listener = l;
	ret = oib_cma_bind_addr(l, (struct sockaddr *)&b->sin);
	return ret ?: oib_cma_listen(l, OIB_BENCH_CMA_DEPTH);
}

void oib_bench_cma_run(const char *stack, struct oib_device *const dev[2],
		       const char *const addr[2], unsigned int timeout_ms)
{
	struct boc *b;
	u32 i;
	int ret;

	if (!cma_iters)
		return;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return;
	b->ops = (struct oib_bench_cma_ops){
		.stack = stack, .start = boc_start, .reset = boc_reset,
	};
	oib_bench_cma_count_init(&b->cnt);
	init_rwsem(&b->rwsem);
	b->timeout_ms = timeout_ms;
	b->lconn.b = b;
	b->n = cma_iters;
	b->conns = vzalloc(array_size(b->n, sizeof(*b->conns)));
	ret = b->conns ? boc_setup(b, dev, addr) : -ENOMEM;
	if (ret) {
		pr_info("oib-bench: n/a %s cma_connect_1 setup_failed (%d)\n", stack, ret);
	} else {
		for (i = 0; i < b->n; i++)
			b->conns[i].b = b;
		oib_bench_cma_phases(&b->ops, b, &b->cnt, b->n, timeout_ms);
	}
	if (b->listener)
		oib_cma_destroy_id(b->listener);
	boc_side_fini(&b->side[1]);
	boc_side_fini(&b->side[0]);
	vfree(b->conns);
	kfree(b);
}

/* A device on @fabric with @addr on port 1 (a RoCEv2 GID); NULL if it could not be made. */
static struct oib_device *boc_rxe(const char *fabric, const char *addr)
{
	struct oib_rxe_params params = { .fabric = fabric, .num_ports = 1 };
	struct oib_device *device;
	union oib_gid gid = {};
	struct sockaddr_in sin;

	if (boc_addr(&sin, addr, 0))
		return NULL;
	device = oib_rxe_add(&params);
	if (IS_ERR(device))
		return NULL;
	ipv6_addr_set_v4mapped(sin.sin_addr.s_addr, &gid.in6);
	if (oib_add_gid(device, 1, &gid, OIB_GID_TYPE_ROCE_V2) < 0) {
		oib_rxe_remove(device);
		return NULL;
	}
	return device;
}

void oib_bench_cma_rxe(const char *fabric, unsigned int timeout_ms)
{
	static const char *const addr[2] = { "10.77.0.1", "10.77.0.2" };
	struct oib_device *dev[2];

	if (!cma_iters)
		return;
	dev[0] = boc_rxe(fabric, addr[0]);
	dev[1] = boc_rxe(fabric, addr[1]);
	if (dev[0] && dev[1])
		oib_bench_cma_run("oib", dev, addr, timeout_ms);
	else
		pr_info("oib-bench: n/a oib cma_connect_1 setup_failed (devices)\n");
	if (dev[1])
		oib_rxe_remove(dev[1]);
	if (dev[0])
		oib_rxe_remove(dev[0]);
}
