// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_bench_intree: the comparison for oib_bench.  On insmod, runs the phases of oib_bench_core.h
 * (the same code as oib_bench) over the in-tree verbs on an in-tree software RDMA device, rdma_rxe
 * or siw, connecting its QP pairs through the in-tree rdma_cm (siw's QPs connect only through
 * iw_cm).  Module parameters: stack (the name printed: rxe or siw) and addr (the IPv4 address of
 * the device's netdev, set up by the guest with `rdma link add`).  Neither stack can carry traffic
 * between two of its devices on one host, so both sides of every pair sit on the one device and
 * connect to its own address: rxe takes its loopback path (no network stack in between), siw its
 * TCP connection through the kernel's lo.  Remote access uses the PD's global rkey over the kernel
 * (virtual DMA) addresses of the buffers.  Then the connection phases (oib_bench_intree_cma.c):
 * connections per second through the rdma_cm.  Results go to the kernel log; rmmod when done.
 * Only make bench builds it.
 */
#include <linux/module.h>
#include <linux/completion.h>
#include <linux/inet.h>
#include <linux/in.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include "oib_bench_core.h"
#include "oib_bench_intree_cma.h"

#define OIB_BENCH_CM_PORT	18515
#define OIB_BENCH_CM_WAIT_MS	5000

static char *stack = "rxe";
module_param(stack, charp, 0444);
MODULE_PARM_DESC(stack, "the name printed for the stack (rxe, siw)");
static char *addr = "10.0.0.1";
module_param(addr, charp, 0444);
MODULE_PARM_DESC(addr, "the IPv4 address of the in-tree device's netdev");

/*
 * One side of a pair: its rdma_cm id, QP, CQ and buffer.  The cm handler writes ev and status and
 * completes ev_done; the loading thread waits for it (the completion orders the accesses).
 */
struct oib_bench_side {
	struct rdma_cm_id *id;
	struct ib_cq *cq;
	void *buf;
	u64 dma;
	struct completion ev_done;
	enum rdma_cm_event_type ev;
	int status;
};

/*
 * The listener's context: the server side the next CONNECT_REQUEST is for (set by the loading
 * thread before it connects, one connection at a time).
 */
struct oib_bench_listen {
	struct rdma_cm_id *id;
	struct oib_bench_side *next;
	struct completion req;
};

struct oib_bench_conn {
	struct ib_device *device;
	struct ib_pd *pd;
	u32 rd_atom;
	struct sockaddr_in sin;
	struct oib_bench_listen listen;
	struct oib_bench_side side[OIB_BENCH_PAIRS][2];
	struct oib_bench_ops ops;
};

static int oib_bench_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct oib_bench_listen *l;
	struct oib_bench_side *s;

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		l = id->context;
		s = xchg(&l->next, NULL);
		if (!s)
			return -ECONNREFUSED;	/* not ours: the cm destroys the new id */
		id->context = s;
		s->id = id;
		complete(&l->req);
		return 0;
	}
	s = id->context;
	s->ev = ev->event;
	s->status = ev->status;
	complete(&s->ev_done);
	return 0;
}

/* Wait for the next cm event of @s; -ETIMEDOUT, or -ECONNREFUSED if it is not @want. */
static int oib_bench_cm_wait(struct oib_bench_side *s, enum rdma_cm_event_type want)
{
	if (!wait_for_completion_timeout(&s->ev_done, msecs_to_jiffies(OIB_BENCH_CM_WAIT_MS)))
		return -ETIMEDOUT;
	if (s->ev != want || s->status) {
		pr_info("oib-bench: %s: cm event %s (status %d), waiting for %s\n", stack,
			rdma_event_msg(s->ev), s->status, rdma_event_msg(want));
		return -ECONNREFUSED;
	}
	return 0;
}

static int oib_bench_post_send(void *ctx, int pair, int side, enum oib_bench_op op, u32 len)
{
	struct oib_bench_conn *c = ctx;
	struct oib_bench_side *me = &c->side[pair][side], *peer = &c->side[pair][!side];
	struct ib_sge sge = { .addr = me->dma, .length = len, .lkey = c->pd->local_dma_lkey };
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = op, .sg_list = &sge, .num_sge = 1,
			.send_flags = IB_SEND_SIGNALED },
	};
	const struct ib_send_wr *bad;

	switch (op) {
	case OIB_BENCH_SEND:
		wr.wr.opcode = IB_WR_SEND;
		break;
	case OIB_BENCH_WRITE:
		wr.wr.opcode = IB_WR_RDMA_WRITE;
		break;
	case OIB_BENCH_READ:
		wr.wr.opcode = IB_WR_RDMA_READ;
		break;
	}
	wr.remote_addr = peer->dma;
	wr.rkey = c->pd->unsafe_global_rkey;
	return ib_post_send(me->id->qp, &wr.wr, &bad);
}

static int oib_bench_post_recv(void *ctx, int pair, int side)
{
	struct oib_bench_conn *c = ctx;
	struct oib_bench_side *me = &c->side[pair][side];
	struct ib_sge sge = {
		.addr = me->dma, .length = OIB_BENCH_BUF, .lkey = c->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .sg_list = &sge, .num_sge = 1 };
	const struct ib_recv_wr *bad;

	return ib_post_recv(me->id->qp, &wr, &bad);
}

static int oib_bench_poll_cq(void *ctx, int pair, int side, unsigned int *sends,
			     unsigned int *recvs)
{
	struct oib_bench_conn *c = ctx;
	struct ib_wc wc[16];
	int n, i;

	n = ib_poll_cq(c->side[pair][side].cq, ARRAY_SIZE(wc), wc);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (wc[i].status != IB_WC_SUCCESS) {
			pr_info("oib-bench: %s pair %d side %d: completion %s (opcode %d)\n", stack,
				pair, side, ib_wc_status_msg(wc[i].status), wc[i].opcode);
			return -EIO;
		}
		if (wc[i].opcode & IB_WC_RECV)
			(*recvs)++;
		else
			(*sends)++;
	}
	return 0;
}

/* The buffer of @s, and its CQ and QP on @s->id (whose device is c->device). */
static int oib_bench_side_create(struct oib_bench_conn *c, struct oib_bench_side *s)
{
	struct ib_cq_init_attr cq_attr = { .cqe = OIB_BENCH_CQ_DEPTH };
	struct ib_qp_init_attr qp_attr = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = OIB_BENCH_SQ_DEPTH, .max_recv_wr = OIB_BENCH_RQ_DEPTH,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	int ret;

	s->buf = alloc_pages_exact(OIB_BENCH_BIG, GFP_KERNEL | __GFP_ZERO);
	if (!s->buf)
		return -ENOMEM;
	s->dma = ib_dma_map_single(c->device, s->buf, OIB_BENCH_BIG, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(c->device, s->dma)) {
		free_pages_exact(s->buf, OIB_BENCH_BIG);
		s->buf = NULL;
		return -ENOMEM;
	}
	s->cq = ib_create_cq(c->device, NULL, NULL, NULL, &cq_attr);
	if (IS_ERR(s->cq)) {
		ret = PTR_ERR(s->cq);
		s->cq = NULL;
		return ret;
	}
	qp_attr.send_cq = s->cq;
	qp_attr.recv_cq = s->cq;
	return rdma_create_qp(s->id, c->pd, &qp_attr);
}

/* Tear down whatever was made for @s: the QP goes to ERR first to flush its WRs. */
static void oib_bench_side_destroy(struct oib_bench_conn *c, struct oib_bench_side *s)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_wc wc[16];

	if (s->id && s->id->qp) {
		rdma_disconnect(s->id);
		ib_modify_qp(s->id->qp, &attr, IB_QP_STATE);
		while (ib_poll_cq(s->cq, ARRAY_SIZE(wc), wc) > 0)
			;
		rdma_destroy_qp(s->id);
	}
	if (s->id)
		rdma_destroy_id(s->id);
	if (s->cq)
		ib_destroy_cq(s->cq);
	if (s->buf) {
		ib_dma_unmap_single(c->device, s->dma, OIB_BENCH_BIG, DMA_BIDIRECTIONAL);
		free_pages_exact(s->buf, OIB_BENCH_BIG);
	}
}

/* The listener on addr; the device and the PD come with the first client's route. */
static int oib_bench_listen(struct oib_bench_conn *c)
{
	struct oib_bench_listen *l = &c->listen;
	int ret;

	init_completion(&l->req);
	l->id = rdma_create_id(&init_net, oib_bench_cm_handler, l, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(l->id)) {
		ret = PTR_ERR(l->id);
		l->id = NULL;
		return ret;
	}
	ret = rdma_bind_addr(l->id, (struct sockaddr *)&c->sin);
	return ret ? ret : rdma_listen(l->id, OIB_BENCH_PAIRS);
}

/* The client's id, resolved to its device; the PD is made on the first. */
static int oib_bench_client(struct oib_bench_conn *c, struct oib_bench_side *s)
{
	int ret;

	init_completion(&s->ev_done);
	s->id = rdma_create_id(&init_net, oib_bench_cm_handler, s, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(s->id)) {
		ret = PTR_ERR(s->id);
		s->id = NULL;
		return ret;
	}
	ret = rdma_resolve_addr(s->id, NULL, (struct sockaddr *)&c->sin, OIB_BENCH_CM_WAIT_MS);
	if (!ret)
		ret = oib_bench_cm_wait(s, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (!ret)
		ret = rdma_resolve_route(s->id, OIB_BENCH_CM_WAIT_MS);
	if (!ret)
		ret = oib_bench_cm_wait(s, RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (ret || c->pd)
		return ret;
	c->device = s->id->device;
	c->rd_atom = min3(c->device->attrs.max_qp_rd_atom,
			  c->device->attrs.max_qp_init_rd_atom, 16);
	c->pd = ib_alloc_pd(c->device, IB_PD_UNSAFE_GLOBAL_RKEY);
	if (IS_ERR(c->pd)) {
		ret = PTR_ERR(c->pd);
		c->pd = NULL;
	}
	return ret;
}

/* Connect pair @p: the client connects, the server side is made on its request and accepts. */
static int oib_bench_pair(struct oib_bench_conn *c, int p)
{
	struct oib_bench_side *cl = &c->side[p][0], *sv = &c->side[p][1];
	struct rdma_conn_param param = { .retry_count = 7, .rnr_retry_count = 7 };
	int ret;

	ret = oib_bench_client(c, cl);
	if (!ret)
		ret = oib_bench_side_create(c, cl);
	if (ret)
		return ret;
	/* known once the first client's route gave the device */
	param.responder_resources = c->rd_atom;
	param.initiator_depth = c->rd_atom;
	init_completion(&sv->ev_done);
	WRITE_ONCE(c->listen.next, sv);
	ret = rdma_connect(cl->id, &param);
	if (ret)
		return ret;
	if (!wait_for_completion_timeout(&c->listen.req, msecs_to_jiffies(OIB_BENCH_CM_WAIT_MS)))
		return -ETIMEDOUT;
	if (sv->id->device != c->device)
		return -EXDEV;
	ret = oib_bench_side_create(c, sv);
	if (ret)
		return ret;
	rdma_lock_handler(sv->id);
	ret = rdma_accept(sv->id, &param);
	rdma_unlock_handler(sv->id);
	if (!ret)
		ret = oib_bench_cm_wait(cl, RDMA_CM_EVENT_ESTABLISHED);
	return ret ? ret : oib_bench_cm_wait(sv, RDMA_CM_EVENT_ESTABLISHED);
}

static int __init oib_bench_init(void)
{
	struct ib_qp_attr qattr;
	struct ib_qp_init_attr qinit;
	struct oib_bench_conn *c;
	const char *step = "address";
	int ret, i, p, mtu = 0;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->ops = (struct oib_bench_ops){
		.stack = stack,
		.post_send = oib_bench_post_send,
		.post_recv = oib_bench_post_recv,
		.poll = oib_bench_poll_cq,
	};
	c->sin.sin_family = AF_INET;
	c->sin.sin_port = htons(OIB_BENCH_CM_PORT);
	ret = in4_pton(addr, -1, (u8 *)&c->sin.sin_addr.s_addr, -1, NULL) ? 0 : -EINVAL;
	if (!ret) {
		step = "listen";
		ret = oib_bench_listen(c);
	}
	for (p = 0; p < OIB_BENCH_PAIRS && !ret; p++) {
		step = "connect";
		ret = oib_bench_pair(c, p);
	}
	if (ret) {
		pr_info("oib-bench: n/a %s all setup_failed_at_%s (%d)\n", stack, step, ret);
	} else {
		if (!ib_query_qp(c->side[0][0].id->qp, &qattr, IB_QP_PATH_MTU, &qinit) &&
		    rdma_protocol_roce(c->device, 1))
			mtu = ib_mtu_enum_to_int(qattr.path_mtu);
		pr_info("oib-bench: %s: %s, loopback: rdma_cm to its own address %pI4 (%s), %d QP pairs, path MTU %d, %u reads outstanding\n",
			stack, dev_name(&c->device->dev), &c->sin.sin_addr,
			mtu ? "rxe's loopback path" : "TCP through lo", OIB_BENCH_PAIRS, mtu,
			c->rd_atom);
		oib_bench_run(&c->ops, c);
	}
	/* no connection request after this: the sides' ids stay as they are */
	if (c->listen.id)
		rdma_destroy_id(c->listen.id);
	for (p = OIB_BENCH_PAIRS - 1; p >= 0; p--)
		for (i = 1; i >= 0; i--)
			oib_bench_side_destroy(c, &c->side[p][i]);
	if (c->pd)
		ib_dealloc_pd(c->pd);
	if (!ret)
		oib_bench_intree_cma_run(stack, &c->sin, timeout_ms);
	kfree(c);
	pr_info("oib-bench: %s done\n", stack);
	return 0;
}

static void __exit oib_bench_exit(void)
{
}

module_init(oib_bench_init);
module_exit(oib_bench_exit);
MODULE_DESCRIPTION("oib benchmark: the same phases on the in-tree rdma_rxe or siw, over rdma_cm");
MODULE_LICENSE("GPL");
