// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_interop: the interop exchange of interop_core.h over oib's verbs and oib_cma, the other end
 * of oib_interop_intree.  insmod starts a thread that plays the role the parameters name (a server
 * serves one connection) and sets the result parameter when it is done; rmmod stops it.  The
 * buffer has a local MR; the server's window a second one, for remote read, write and atomics,
 * addressed by kernel virtual address.
 */
#include <linux/module.h>
#include <linux/completion.h>
#include <linux/inet.h>
#include <linux/slab.h>
#include <oib/verbs.h>
#include <oib/rdma_cm.h>
#include "interop_core.h"

/*
 * The connection.  The cm handler writes ev, status, pdata and disconnected and completes
 * ev_done; the thread reads them after the completion (disconnected at any time: READ_ONCE).
 */
struct iop_conn {
	struct oib_cma_id *listen_id;
	struct oib_cma_id *id;
	struct oib_pd *pd;
	struct oib_cq *cq;
	struct oib_mr *mr;		/* the buffer, local access */
	struct oib_mr *win_mr;		/* server: the window */
	u64 raddr;			/* client: the server's window */
	u32 rkey;
	struct completion ev_done;
	enum oib_cma_event_type ev;
	int status;
	u8 pdata[IOP_PRIV_MAX];
	u8 pdata_len;
	bool disconnected;
	struct iop x;
};

static int iop_cm_handler(struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct iop_conn *c = id->context;

	if (ev->event == OIB_CMA_EVENT_CONNECT_REQUEST) {
		if (c->id)
			return -ECONNREFUSED;	/* one connection: oib_cma destroys this id */
		c->id = id;
	}
	if (ev->event == OIB_CMA_EVENT_DISCONNECTED)
		WRITE_ONCE(c->disconnected, true);
	if (ev->event == OIB_CMA_EVENT_TIMEWAIT_EXIT)
		return 0;
	c->ev = ev->event;
	c->status = ev->status;
	c->pdata_len = min_t(u8, ev->param.conn.private_data_len, IOP_PRIV_MAX);
	if (ev->param.conn.private_data)
		memcpy(c->pdata, ev->param.conn.private_data, c->pdata_len);
	complete(&c->ev_done);
	return 0;
}

/* The next cm event, within timeout_ms. */
static int iop_cm_next(struct iop_conn *c, enum oib_cma_event_type want)
{
	if (!wait_for_completion_timeout(&c->ev_done, msecs_to_jiffies(timeout_ms)))
		return iop_fail(&c->x, "no %s in %u ms", oib_cma_event_msg(want), timeout_ms);
	return 0;
}

/* The next cm event, which must be @want with status 0. */
static int iop_cm_wait(struct iop_conn *c, enum oib_cma_event_type want)
{
	if (iop_cm_next(c, want))
		return c->x.err;
	if (c->ev != want || c->status)
		return iop_fail(&c->x, "%s (status %d), not %s", oib_cma_event_msg(c->ev),
				c->status, oib_cma_event_msg(want));
	return 0;
}

static int iop_post_send(void *ctx, const struct iop_wr *w)
{
	static const enum oib_wr_opcode opcode[] = {
		[IOP_OP_SEND] = OIB_WR_SEND,
		[IOP_OP_WRITE] = OIB_WR_RDMA_WRITE,
		[IOP_OP_READ] = OIB_WR_RDMA_READ,
		[IOP_OP_FADD] = OIB_WR_ATOMIC_FETCH_AND_ADD,
		[IOP_OP_CSWAP] = OIB_WR_ATOMIC_CMP_AND_SWP,
	};
	struct iop_conn *c = ctx;
	struct oib_sge sge = { .addr = (uintptr_t)c->x.buf + w->off, .length = w->len,
			       .lkey = c->mr->lkey };
	struct oib_send_wr wr = {
		.wr_id = (u64)w->op << 32 | w->index, .sg_list = &sge, .num_sge = 1,
		.opcode = opcode[w->op], .send_flags = OIB_SEND_SIGNALED,
	};

	if (w->op == IOP_OP_FADD || w->op == IOP_OP_CSWAP) {
		wr.wr.atomic.remote_addr = c->raddr + w->remote_off;
		wr.wr.atomic.rkey = c->rkey;
		wr.wr.atomic.compare_add = w->compare_add;
		wr.wr.atomic.swap = w->swap;
	} else {
		wr.wr.rdma.remote_addr = c->raddr + w->remote_off;
		wr.wr.rdma.rkey = c->rkey;
	}
	return oib_post_send(c->id->qp, &wr, NULL);
}

static int iop_post_recv(void *ctx, u32 slot)
{
	struct iop_conn *c = ctx;
	struct oib_sge sge = { .addr = (uintptr_t)c->x.buf + slot * IOP_SLOT, .length = IOP_SLOT,
			       .lkey = c->mr->lkey };
	struct oib_recv_wr wr = { .wr_id = (u64)IOP_OP_RECV << 32 | slot, .sg_list = &sge,
				  .num_sge = 1 };

	return oib_post_recv(c->id->qp, &wr, NULL);
}

static int iop_poll(void *ctx, struct iop_wc *out)
{
	struct iop_conn *c = ctx;
	struct oib_wc wc;
	int n = oib_poll_cq(c->cq, 1, &wc);

	if (n <= 0)
		return n;
	out->op = wc.wr_id >> 32;
	out->index = (u32)wc.wr_id;
	out->byte_len = wc.byte_len;
	out->status = wc.status;
	return 1;
}

static int iop_disconnect(void *ctx)
{
	return oib_cma_disconnect(((struct iop_conn *)ctx)->id);
}

static bool iop_disconnected(void *ctx)
{
	return READ_ONCE(((struct iop_conn *)ctx)->disconnected);
}

static const struct iop_ops iop_oib_ops = {
	.post_send = iop_post_send,
	.post_recv = iop_post_recv,
	.poll = iop_poll,
	.disconnect = iop_disconnect,
	.disconnected = iop_disconnected,
};

/* PD, CQ, MRs and QP on c->id's device. */
static int iop_resources(struct iop_conn *c, bool server)
{
	struct oib_cq_init_attr cq_attr = { .cqe = IOP_CQ_DEPTH };
	struct oib_qp_init_attr attr = {
		.qp_type = OIB_QPT_RC,
		.sq_sig_type = OIB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = IOP_QP_DEPTH, .max_recv_wr = IOP_SLOTS,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	c->pd = oib_alloc_pd(c->id->device);
	if (IS_ERR(c->pd))
		return PTR_ERR(c->pd);
	c->cq = oib_create_cq(c->id->device, NULL, NULL, NULL, &cq_attr);
	if (IS_ERR(c->cq))
		return PTR_ERR(c->cq);
	c->mr = oib_reg_kernel_mr(c->pd, c->x.buf, IOP_BUF, OIB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(c->mr))
		return PTR_ERR(c->mr);
	if (server) {
		c->win_mr = oib_reg_kernel_mr(c->pd, c->x.buf + IOP_WIN_OFF, IOP_WIN_LEN,
					      OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_READ |
					      OIB_ACCESS_REMOTE_WRITE | OIB_ACCESS_REMOTE_ATOMIC);
		if (IS_ERR(c->win_mr))
			return PTR_ERR(c->win_mr);
	}
	attr.send_cq = c->cq;
	attr.recv_cq = c->cq;
	return oib_cma_create_qp(c->id, c->pd, &attr);
}

static void iop_release(void *conn)
{
	struct iop_conn *c = conn;

	if (c->id && c->id->qp)
		oib_cma_destroy_qp(c->id);
	if (c->win_mr && !IS_ERR(c->win_mr))
		oib_dereg_mr(c->win_mr);
	if (c->mr && !IS_ERR(c->mr))
		oib_dereg_mr(c->mr);
	if (c->cq && !IS_ERR(c->cq))
		oib_destroy_cq(c->cq);
	if (c->pd && !IS_ERR(c->pd))
		oib_dealloc_pd(c->pd);
	if (c->id)
		oib_cma_destroy_id(c->id);
	if (c->listen_id)
		oib_cma_destroy_id(c->listen_id);
}

static struct oib_cma_conn_param iop_conn_param(const void *pdata, u8 len)
{
	return (struct oib_cma_conn_param){
		.private_data = pdata, .private_data_len = len, .responder_resources = IOP_DEPTH,
		.initiator_depth = IOP_DEPTH, .retry_count = 7, .rnr_retry_count = 7,
	};
}

static int iop_serve(void *conn, const struct sockaddr *sa)
{
	struct iop_conn *c = conn;
	struct iop_window win = { .magic = cpu_to_be32(IOP_MAGIC) };
	struct oib_cma_conn_param param;
	int ret;

	c->listen_id = oib_cma_create_id(&init_net, iop_cm_handler, c, OIB_PS_TCP, OIB_QPT_RC);
	if (IS_ERR(c->listen_id)) {
		ret = PTR_ERR(c->listen_id);
		c->listen_id = NULL;
		return iop_fail(&c->x, "oib_cma_create_id: %d", ret);
	}
	ret = oib_cma_bind_addr(c->listen_id, sa) ?: oib_cma_listen(c->listen_id, 1);
	if (ret)
		return iop_fail(&c->x, "listening: %d", ret);
	scnprintf(result, sizeof(result), "listening");
	while (!wait_for_completion_timeout(&c->ev_done, HZ / 10))
		if (kthread_should_stop())
			return iop_fail(&c->x, "stopped before a connection request");
	if (iop_take_hello(&c->x, c->pdata, c->pdata_len))
		return c->x.err;
	if (c->x.flags & IOP_REJECT) {
		struct iop_hello back = iop_hello(c->x.flags, c->x.seed);

		ret = oib_cma_reject(c->id, &back, sizeof(back));
		if (ret)
			return iop_fail(&c->x, "oib_cma_reject: %d", ret);
		scnprintf(result, sizeof(result), "ok rejected");
		return 0;
	}
	ret = iop_resources(c, true);
	if (ret)
		return iop_fail(&c->x, "resources: %d", ret);
	if (iop_server_ready(&c->x))
		return c->x.err;
	win.rkey = cpu_to_be32(c->win_mr->rkey);
	win.addr = cpu_to_be64((uintptr_t)c->x.buf + IOP_WIN_OFF);
	param = iop_conn_param(&win, sizeof(win));
	ret = oib_cma_accept(c->id, &param);
	if (ret)
		return iop_fail(&c->x, "oib_cma_accept: %d", ret);
	if (iop_cm_wait(c, OIB_CMA_EVENT_ESTABLISHED))
		return c->x.err;
	return iop_server_run(&c->x);
}

static int iop_connect(void *conn, const struct sockaddr *sa)
{
	struct iop_conn *c = conn;
	struct iop_hello hello = iop_hello(flags, seed);
	struct oib_cma_conn_param param = iop_conn_param(&hello, sizeof(hello));
	int ret;

	c->id = oib_cma_create_id(&init_net, iop_cm_handler, c, OIB_PS_TCP, OIB_QPT_RC);
	if (IS_ERR(c->id)) {
		ret = PTR_ERR(c->id);
		c->id = NULL;
		return iop_fail(&c->x, "oib_cma_create_id: %d", ret);
	}
	ret = oib_cma_resolve_addr(c->id, NULL, sa, timeout_ms);
	if (ret || iop_cm_wait(c, OIB_CMA_EVENT_ADDR_RESOLVED))
		return iop_fail(&c->x, "resolving the address: %d", ret);
	ret = oib_cma_resolve_route(c->id, timeout_ms);
	if (ret || iop_cm_wait(c, OIB_CMA_EVENT_ROUTE_RESOLVED))
		return iop_fail(&c->x, "resolving the route: %d", ret);
	ret = iop_resources(c, false);
	if (ret)
		return iop_fail(&c->x, "resources: %d", ret);
	if (iop_post_recvs(&c->x))
		return c->x.err;
	ret = oib_cma_connect(c->id, &param);
	if (ret)
		return iop_fail(&c->x, "oib_cma_connect: %d", ret);
	if (flags & IOP_REJECT) {
		if (iop_cm_next(c, OIB_CMA_EVENT_REJECTED))
			return c->x.err;
		return iop_check_reject(&c->x, c->ev == OIB_CMA_EVENT_REJECTED, c->status, c->pdata,
					c->pdata_len);
	}
	if (iop_cm_wait(c, OIB_CMA_EVENT_ESTABLISHED))
		return c->x.err;
	if (iop_take_window(&c->x, c->pdata, c->pdata_len, &c->raddr, &c->rkey))
		return c->x.err;
	return iop_client_run(&c->x);
}

static struct iop *iop_setup(void *conn, u8 *buf)
{
	struct iop_conn *c = conn;

	init_completion(&c->ev_done);
	iop_init(&c->x, &iop_oib_ops, c, buf);
	return &c->x;
}

static const struct iop_module iop_oib = {
	.stack = "oib",
	.conn_size = sizeof(struct iop_conn),
	.setup = iop_setup,
	.serve = iop_serve,
	.connect = iop_connect,
	.release = iop_release,
};

static int __init iop_module_init(void)
{
	return iop_start(&iop_oib);
}

static void __exit iop_module_exit(void)
{
	iop_stop();
}

module_init(iop_module_init);
module_exit(iop_module_exit);
MODULE_DESCRIPTION("oib interop test: the exchange over oib's verbs and oib_cma");
MODULE_LICENSE("GPL");
