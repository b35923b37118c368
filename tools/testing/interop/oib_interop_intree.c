// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_interop_intree: the interop exchange of interop_core.h over the in-tree verbs and rdma_cm,
 * the other end of oib_interop.  insmod starts a thread that plays the role the parameters name
 * (a server serves one connection) and sets the result parameter when it is done; rmmod stops it.
 * The server's window is a fast-registration MR (the in-tree PD's global rkey grants no atomics),
 * registered by a REG_MR posted once the connection is up, ahead of every echo on the send queue,
 * so before the client's RDMA phase.  Local buffers use the PD's local DMA lkey.
 */
#include <linux/module.h>
#include <linux/completion.h>
#include <linux/inet.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include "interop_core.h"

#define IOP_ACK_TIMEOUT	14	/* 4.096 us << 14: 67 ms before a retransmission */

/*
 * The connection.  The cm handler writes ev, status, pdata and disconnected and completes
 * ev_done; the thread reads them after the completion (disconnected at any time: READ_ONCE).
 */
struct iop_conn {
	struct rdma_cm_id *listen_id;
	struct rdma_cm_id *id;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_mr *mr;		/* server: the window */
	struct scatterlist win_sg;
	u64 dma;
	u64 raddr;			/* client: the server's window */
	u32 rkey;
	struct completion ev_done;
	enum rdma_cm_event_type ev;
	int status;
	u8 pdata[IOP_PRIV_MAX];
	u8 pdata_len;
	bool disconnected;
	struct iop x;
};

static int iop_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct iop_conn *c = id->context;

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		if (c->id)
			return -ECONNREFUSED;	/* one connection: the cm destroys this id */
		c->id = id;
	}
	if (ev->event == RDMA_CM_EVENT_DISCONNECTED)
		WRITE_ONCE(c->disconnected, true);
	if (ev->event == RDMA_CM_EVENT_TIMEWAIT_EXIT)
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
static int iop_cm_next(struct iop_conn *c, enum rdma_cm_event_type want)
{
	if (!wait_for_completion_timeout(&c->ev_done, msecs_to_jiffies(timeout_ms)))
		return iop_fail(&c->x, "no %s in %u ms", rdma_event_msg(want), timeout_ms);
	return 0;
}

/* The next cm event, which must be @want with status 0. */
static int iop_cm_wait(struct iop_conn *c, enum rdma_cm_event_type want)
{
	if (iop_cm_next(c, want))
		return c->x.err;
	if (c->ev != want || c->status)
		return iop_fail(&c->x, "%s (status %d), not %s", rdma_event_msg(c->ev), c->status,
				rdma_event_msg(want));
	return 0;
}

static int iop_post_send(void *ctx, const struct iop_wr *w)
{
	static const enum ib_wr_opcode opcode[] = {
		[IOP_OP_SEND] = IB_WR_SEND,
		[IOP_OP_WRITE] = IB_WR_RDMA_WRITE,
		[IOP_OP_READ] = IB_WR_RDMA_READ,
		[IOP_OP_FADD] = IB_WR_ATOMIC_FETCH_AND_ADD,
		[IOP_OP_CSWAP] = IB_WR_ATOMIC_CMP_AND_SWP,
	};
	struct iop_conn *c = ctx;
	struct ib_sge sge = { .addr = c->dma + w->off, .length = w->len,
			      .lkey = c->pd->local_dma_lkey };
	struct ib_atomic_wr wr = {
		.wr = { .wr_id = (u64)w->op << 32 | w->index, .sg_list = &sge, .num_sge = 1,
			.opcode = opcode[w->op], .send_flags = IB_SEND_SIGNALED },
		.remote_addr = c->raddr + w->remote_off, .rkey = c->rkey,
		.compare_add = w->compare_add, .swap = w->swap,
	};
	struct ib_rdma_wr rdma = { .wr = wr.wr, .remote_addr = wr.remote_addr, .rkey = c->rkey };

	if (w->op == IOP_OP_WRITE || w->op == IOP_OP_READ)
		return ib_post_send(c->id->qp, &rdma.wr, NULL);
	return ib_post_send(c->id->qp, &wr.wr, NULL);
}

static int iop_post_recv(void *ctx, u32 slot)
{
	struct iop_conn *c = ctx;
	struct ib_sge sge = { .addr = c->dma + slot * IOP_SLOT, .length = IOP_SLOT,
			      .lkey = c->pd->local_dma_lkey };
	struct ib_recv_wr wr = { .wr_id = (u64)IOP_OP_RECV << 32 | slot, .sg_list = &sge,
				 .num_sge = 1 };

	return ib_post_recv(c->id->qp, &wr, NULL);
}

static int iop_poll(void *ctx, struct iop_wc *out)
{
	struct iop_conn *c = ctx;
	struct ib_wc wc;
	int n = ib_poll_cq(c->cq, 1, &wc);

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
	return rdma_disconnect(((struct iop_conn *)ctx)->id);
}

static bool iop_disconnected(void *ctx)
{
	return READ_ONCE(((struct iop_conn *)ctx)->disconnected);
}

static const struct iop_ops iop_intree_ops = {
	.post_send = iop_post_send,
	.post_recv = iop_post_recv,
	.poll = iop_poll,
	.disconnect = iop_disconnect,
	.disconnected = iop_disconnected,
};

/* PD, CQ, QP and the mapped buffer on c->id's device; the server's window MR too. */
static int iop_resources(struct iop_conn *c, bool server)
{
	struct ib_device *dev = c->id->device;
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = IOP_QP_DEPTH, .max_recv_wr = IOP_SLOTS,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	c->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(c->pd))
		return PTR_ERR(c->pd);
	c->cq = ib_alloc_cq(dev, c, IOP_CQ_DEPTH, 0, IB_POLL_DIRECT);
	if (IS_ERR(c->cq))
		return PTR_ERR(c->cq);
	c->dma = ib_dma_map_single(dev, c->x.buf, IOP_BUF, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(dev, c->dma)) {
		c->dma = 0;
		return -ENOMEM;
	}
	if (server) {
		c->mr = ib_alloc_mr(c->pd, IB_MR_TYPE_MEM_REG, IOP_WIN_LEN >> PAGE_SHIFT);
		if (IS_ERR(c->mr))
			return PTR_ERR(c->mr);
		sg_init_one(&c->win_sg, c->x.buf + IOP_WIN_OFF, IOP_WIN_LEN);
		if (ib_dma_map_sg(dev, &c->win_sg, 1, DMA_BIDIRECTIONAL) != 1)
			return -ENOMEM;
		if (ib_map_mr_sg(c->mr, &c->win_sg, 1, NULL, PAGE_SIZE) != 1)
			return -EINVAL;
	}
	attr.send_cq = c->cq;
	attr.recv_cq = c->cq;
	return rdma_create_qp(c->id, c->pd, &attr);
}

static void iop_release(void *conn)
{
	struct iop_conn *c = conn;
	struct ib_device *dev = c->id ? c->id->device : NULL;

	if (c->id && c->id->qp)
		rdma_destroy_qp(c->id);
	if (c->mr && !IS_ERR(c->mr)) {
		if (sg_dma_address(&c->win_sg))
			ib_dma_unmap_sg(dev, &c->win_sg, 1, DMA_BIDIRECTIONAL);
		ib_dereg_mr(c->mr);
	}
	if (c->dma)
		ib_dma_unmap_single(dev, c->dma, IOP_BUF, DMA_BIDIRECTIONAL);
	if (c->cq && !IS_ERR(c->cq))
		ib_free_cq(c->cq);
	if (c->pd && !IS_ERR(c->pd))
		ib_dealloc_pd(c->pd);
	if (c->id)
		rdma_destroy_id(c->id);
	if (c->listen_id)
		rdma_destroy_id(c->listen_id);
}

static struct rdma_conn_param iop_conn_param(const void *pdata, u8 len)
{
	return (struct rdma_conn_param){
		.private_data = pdata, .private_data_len = len, .responder_resources = IOP_DEPTH,
		.initiator_depth = IOP_DEPTH, .retry_count = 7, .rnr_retry_count = 7,
	};
}

/* The window's registration, first on the send queue. */
static int iop_register_window(struct iop_conn *c)
{
	struct ib_reg_wr wr = {
		.wr = { .opcode = IB_WR_REG_MR },
		.mr = c->mr,
		.key = c->mr->rkey,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
			  IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC,
	};

	return ib_post_send(c->id->qp, &wr.wr, NULL);
}

static int iop_serve(void *conn, const struct sockaddr *sa)
{
	struct iop_conn *c = conn;
	struct iop_window win = { .magic = cpu_to_be32(IOP_MAGIC) };
	struct rdma_conn_param param;
	int ret;

	c->listen_id = rdma_create_id(&init_net, iop_cm_handler, c, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(c->listen_id)) {
		ret = PTR_ERR(c->listen_id);
		c->listen_id = NULL;
		return iop_fail(&c->x, "rdma_create_id: %d", ret);
	}
	ret = rdma_bind_addr(c->listen_id, (struct sockaddr *)sa) ?:
	      rdma_listen(c->listen_id, 1);
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

		ret = rdma_reject(c->id, &back, sizeof(back), IB_CM_REJ_CONSUMER_DEFINED);
		if (ret)
			return iop_fail(&c->x, "rdma_reject: %d", ret);
		scnprintf(result, sizeof(result), "ok rejected");
		return 0;
	}
	ret = iop_resources(c, true);
	if (ret)
		return iop_fail(&c->x, "resources: %d", ret);
	if (iop_server_ready(&c->x))
		return c->x.err;
	win.rkey = cpu_to_be32(c->mr->rkey);
	win.addr = cpu_to_be64(c->mr->iova);
	param = iop_conn_param(&win, sizeof(win));
	rdma_set_ack_timeout(c->id, IOP_ACK_TIMEOUT);
	rdma_lock_handler(c->id);
	ret = rdma_accept(c->id, &param);
	rdma_unlock_handler(c->id);
	if (ret)
		return iop_fail(&c->x, "rdma_accept: %d", ret);
	if (iop_cm_wait(c, RDMA_CM_EVENT_ESTABLISHED))
		return c->x.err;
	ret = iop_register_window(c);
	if (ret)
		return iop_fail(&c->x, "posting the window's REG_MR: %d", ret);
	return iop_server_run(&c->x);
}

static int iop_connect(void *conn, const struct sockaddr *sa)
{
	struct iop_conn *c = conn;
	struct iop_hello hello = iop_hello(flags, seed);
	struct rdma_conn_param param = iop_conn_param(&hello, sizeof(hello));
	int ret;

	c->id = rdma_create_id(&init_net, iop_cm_handler, c, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(c->id)) {
		ret = PTR_ERR(c->id);
		c->id = NULL;
		return iop_fail(&c->x, "rdma_create_id: %d", ret);
	}
	ret = rdma_resolve_addr(c->id, NULL, (struct sockaddr *)sa, timeout_ms);
	if (ret || iop_cm_wait(c, RDMA_CM_EVENT_ADDR_RESOLVED))
		return iop_fail(&c->x, "resolving the address: %d", ret);
	ret = rdma_resolve_route(c->id, timeout_ms);
	if (ret || iop_cm_wait(c, RDMA_CM_EVENT_ROUTE_RESOLVED))
		return iop_fail(&c->x, "resolving the route: %d", ret);
	ret = iop_resources(c, false);
	if (ret)
		return iop_fail(&c->x, "resources: %d", ret);
	if (iop_post_recvs(&c->x))
		return c->x.err;
	rdma_set_ack_timeout(c->id, IOP_ACK_TIMEOUT);
	ret = rdma_connect(c->id, &param);
	if (ret)
		return iop_fail(&c->x, "rdma_connect: %d", ret);
	if (flags & IOP_REJECT) {
		if (iop_cm_next(c, RDMA_CM_EVENT_REJECTED))
			return c->x.err;
		return iop_check_reject(&c->x, c->ev == RDMA_CM_EVENT_REJECTED, c->status, c->pdata,
					c->pdata_len);
	}
	if (iop_cm_wait(c, RDMA_CM_EVENT_ESTABLISHED))
		return c->x.err;
	if (iop_take_window(&c->x, c->pdata, c->pdata_len, &c->raddr, &c->rkey))
		return c->x.err;
	return iop_client_run(&c->x);
}

static struct iop *iop_setup(void *conn, u8 *buf)
{
	struct iop_conn *c = conn;

	init_completion(&c->ev_done);
	iop_init(&c->x, &iop_intree_ops, c, buf);
	return &c->x;
}

static const struct iop_module iop_intree = {
	.stack = "in-tree",
	.conn_size = sizeof(struct iop_conn),
	.setup = iop_setup,
	.serve = iop_serve,
	.connect = iop_connect,
	.release = iop_release,
};

static int __init iop_module_init(void)
{
	return iop_start(&iop_intree);
}

static void __exit iop_module_exit(void)
{
	iop_stop();
}

module_init(iop_module_init);
module_exit(iop_module_exit);
MODULE_DESCRIPTION("oib interop test: the exchange over the in-tree verbs and rdma_cm");
MODULE_LICENSE("GPL");
