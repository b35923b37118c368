// SPDX-License-Identifier: GPL-2.0-only
/*
 * A connection's verbs objects: its PD, its CQ (whose completion handler schedules the socket's
 * work), the RC QP on its cma id, and its buffers, every receive posted at once; and their end.
 * The buffers are the socket's until it is freed; the objects go with the connection.
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include "sdp_priv.h"

static void sdp_cq_comp(struct oib_cq *cq, void *ctx)
{
	sdp_schedule(ctx);
}

int sdp_post_recv(struct sdp_sock *ssk, unsigned int i)
{
	struct oib_sge sge = { .addr = (uintptr_t)ssk->rx_buf[i], .length = SDP_BUF_SIZE,
			       .lkey = ssk->pd->local_dma_lkey };
	struct oib_recv_wr wr = { .wr_id = SDP_RX_WR | i, .sg_list = &sge, .num_sge = 1 };
	int ret = oib_post_recv(ssk->id->qp, &wr, NULL);

	if (!ret)
		sdp_credit_posted(&ssk->credit, 1);
	return ret;
}

static int sdp_alloc_bufs(struct sdp_sock *ssk)
{
	int i;

	for (i = 0; i < ssk->nrx; i++) {
		ssk->rx_buf[i] = ssk->rx_buf[i] ?: kmalloc(SDP_BUF_SIZE, GFP_KERNEL);
		if (!ssk->rx_buf[i])
			return -ENOMEM;
	}
	for (i = 0; i < ssk->ntx; i++) {
		ssk->tx_buf[i] = ssk->tx_buf[i] ?: kmalloc(SDP_BUF_SIZE, GFP_KERNEL);
		if (!ssk->tx_buf[i])
			return -ENOMEM;
	}
	return 0;
}

void sdp_conn_free_bufs(struct sdp_sock *ssk)
{
	int i;

	for (i = 0; i < SDP_BUFS_MAX; i++) {
		kfree(ssk->rx_buf[i]);
		ssk->rx_buf[i] = NULL;
	}
	for (i = 0; i < SDP_BUFS_MAX; i++) {
		kfree(ssk->tx_buf[i]);
		ssk->tx_buf[i] = NULL;
	}
}

/* A ring's size: @dflt, or the buffers SO_RCVBUF or SO_SNDBUF (@set) asked for in @bytes. */
static unsigned int sdp_ring_size(bool set, int bytes, unsigned int dflt)
{
	if (!set)
		return dflt;
	return rounddown_pow_of_two(clamp_t(int, bytes / SDP_BUF_SIZE, SDP_BUFS_MIN,
					    SDP_BUFS_MAX));
}

/* After the address and route: the rings' sizes, PD, CQ, QP (in INIT), every receive posted. */
int sdp_conn_create(struct sdp_sock *ssk)
{
	struct sock *sk = &ssk->sk;
	struct oib_cq_init_attr cq_attr = {};
	struct oib_qp_init_attr qp_attr = {
		.qp_type = OIB_QPT_RC, .sq_sig_type = OIB_SIGNAL_ALL_WR,
		.cap = { .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct oib_device *dev = ssk->id->device;
	int ret, i;

	ssk->nrx = sdp_ring_size(sk->sk_userlocks & SOCK_RCVBUF_LOCK, READ_ONCE(sk->sk_rcvbuf),
				 SDP_RX_BUFS);
	ssk->ntx = sdp_ring_size(sk->sk_userlocks & SOCK_SNDBUF_LOCK, READ_ONCE(sk->sk_sndbuf),
				 SDP_TX_BUFS);
	cq_attr.cqe = ssk->nrx + ssk->ntx;
	qp_attr.cap.max_send_wr = ssk->ntx;
	qp_attr.cap.max_recv_wr = ssk->nrx;
	ret = sdp_alloc_bufs(ssk);
	if (ret)
		return ret;
	ssk->pd = oib_alloc_pd(dev);
	if (IS_ERR(ssk->pd)) {
		ret = PTR_ERR(ssk->pd);
		ssk->pd = NULL;
		return ret;
	}
	ssk->cq = oib_create_cq(dev, sdp_cq_comp, NULL, ssk, &cq_attr);
	if (IS_ERR(ssk->cq)) {
		ret = PTR_ERR(ssk->cq);
		ssk->cq = NULL;
		return ret;
	}
	qp_attr.send_cq = ssk->cq;
	qp_attr.recv_cq = ssk->cq;
	ret = oib_cma_create_qp(ssk->id, ssk->pd, &qp_attr);
	if (ret)
		return ret;
	sdp_credit_init(&ssk->credit, 0, 0);
	for (i = 0; i < ssk->nrx && !ret; i++)
		ret = sdp_post_recv(ssk, i);
	ssk->credit.remote_credits = ssk->credit.rx_posted;	/* the Hello(Ack) says so */
	if (!ret)
		ret = oib_req_notify_cq(ssk->cq, OIB_CQ_NEXT_COMP);
	return ret;
}

/*
 * The connection's end, under the socket lock (the handlers never take it): its QP, id, CQ and
 * PD go, never from a CMA handler (the id's destroy waits for them).  Its buffers stay with the
 * socket, its data unread included, and its addresses for getsockname and getpeername.
 */
void sdp_conn_release(struct sdp_sock *ssk)
{
	struct oib_cma_id *id = ssk->id;

	sdp_keepalive_stop(ssk);
	ssk->tx_fill = 0;		/* what was never sent goes with the connection */
	if (id) {
		ssk->local = id->route.addr.src_addr;
		ssk->remote = id->route.addr.dst_addr;
		if (id->qp)
			oib_cma_destroy_qp(id);
		ssk->id = NULL;
		oib_cma_destroy_id(id);
		sock_put(&ssk->sk);		/* the id's reference */
	}
	if (ssk->cq)
		WARN_ON(oib_destroy_cq(ssk->cq));
	ssk->cq = NULL;
	if (ssk->pd)
		WARN_ON(oib_dealloc_pd(ssk->pd));
	ssk->pd = NULL;
}
