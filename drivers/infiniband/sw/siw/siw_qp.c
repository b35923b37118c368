// SPDX-License-Identifier: GPL-2.0-only
/*
 * QPs (RC only): creation, state, posting, completions in order, and failure.  The send queue
 * is a ring with three indices: posted (sq_prod), taken by the tx work (sq_next), completed
 * (sq_cons); a WQE completes when it is done and every one before it has completed (an RDMA
 * READ is done when its last response came).  A QP that fails goes to ERR at once; its tx work
 * then tells the peer (TERMINATE, when there is something to say and someone to say it to),
 * stops the rx work, flushes both queues and closes the connection: the only place that
 * flushes, so no WQE is flushed while the data path still copies into or out of its buffers.
 */
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include "siw.h"

#define SIW_TX_PAYLOAD_MAX	16384	/* fits SIW_TX_BUF with any header */

int siw_create_qp(struct oib_qp *ib, struct oib_qp_init_attr *attr)
{
	struct siw_qp *qp = to_sqp(ib);
	struct siw_dev *sdev = to_sdev(ib->device);
	u32 ns = roundup_pow_of_two(max(attr->cap.max_send_wr, 1U));
	u32 nr = roundup_pow_of_two(max(attr->cap.max_recv_wr, 1U));

	if (attr->qp_type != OIB_QPT_RC || attr->srq)
		return -EOPNOTSUPP;
	if (attr->cap.max_send_wr > SIW_MAX_QP_WR || attr->cap.max_recv_wr > SIW_MAX_QP_WR ||
	    attr->cap.max_send_sge > SIW_MAX_SGE || attr->cap.max_recv_sge > SIW_MAX_SGE ||
	    attr->cap.max_inline_data > SIW_MAX_INLINE)
		return -EINVAL;
	qp->sq = kvcalloc(ns, sizeof(*qp->sq), GFP_KERNEL);
	qp->rq = kvcalloc(nr, sizeof(*qp->rq), GFP_KERNEL);
	qp->txbuf = kvmalloc(SIW_TX_BUF, GFP_KERNEL);
	qp->rxbuf = kvmalloc(siw_fpdu_size(SIW_ULPDU_MAX + 3), GFP_KERNEL);
	qp->rxstream = kvmalloc(SIW_RX_STREAM, GFP_KERNEL);
	if (!qp->sq || !qp->rq || !qp->txbuf || !qp->rxbuf || !qp->rxstream) {
		kvfree(qp->sq);
		kvfree(qp->rq);
		kvfree(qp->txbuf);
		kvfree(qp->rxbuf);
		kvfree(qp->rxstream);
		return -ENOMEM;
	}
	qp->sdev = sdev;
	spin_lock_init(&qp->lock);
	qp->sq_mask = ns - 1;
	qp->rq_mask = nr - 1;
	qp->max_send_sge = attr->cap.max_send_sge;
	qp->max_recv_sge = attr->cap.max_recv_sge;
	qp->max_inline = attr->cap.max_inline_data;
	qp->sig_all = attr->sq_sig_type == OIB_SIGNAL_ALL_WR;
	qp->ord = 1;
	qp->ird = 1;
	INIT_WORK(&qp->tx_work, siw_tx_work);
	INIT_WORK(&qp->rx_work, siw_rx_work);
	ib->qp_num = atomic_inc_return(&sdev->next_qpn) + 1;
	attr->cap.max_send_wr = ns;
	attr->cap.max_recv_wr = nr;
	return 0;
}

/*
 * To ERR: under @lock.  @transport: the transport's own decision (the core's record follows),
 * not the consumer's modify.
 */
static bool siw_qp_fail_locked(struct siw_qp *qp, u32 term, bool peer_gone, bool transport)
{
	lockdep_assert_held(&qp->lock);
	qp->peer_gone |= peer_gone;
	if (qp->state == SIW_QP_ERR)
		return false;
	qp->state = SIW_QP_ERR;
	if (term && !qp->peer_gone && qp->sock)
		qp->term = term;
	if (transport)
		oib_qp_transport_error(&qp->ib);
	return true;
}

/* Stop the socket: the tx work's sends fail at once, unless a TERMINATE waits to go. */
static void siw_qp_stop_sock(struct siw_qp *qp, struct socket *sock, bool term)
{
	if (!sock)
		return;
	if (term)
		WRITE_ONCE(sock->sk->sk_sndtimeo, HZ);
	else
		kernel_sock_shutdown(sock, SHUT_RDWR);
}

void siw_qp_fail(struct siw_qp *qp, u32 term, bool peer_gone)
{
	struct socket *sock;
	unsigned long flags;
	bool now;

	spin_lock_irqsave(&qp->lock, flags);
	now = siw_qp_fail_locked(qp, term, peer_gone, true);
	sock = qp->sock;
	term = qp->term;
	spin_unlock_irqrestore(&qp->lock, flags);
	if (!now)
		return;
	siw_qp_stop_sock(qp, sock, term);
	siw_qp_kick(qp);
}

int siw_modify_qp(struct oib_qp *ib, struct oib_qp_attr *attr, int mask)
{
	struct siw_qp *qp = to_sqp(ib);
	struct socket *sock = NULL;
	bool now = false;

	if (mask & OIB_QP_MAX_QP_RD_ATOMIC)
		qp->ord = clamp_t(u32, attr->max_rd_atomic, 1, SIW_MAX_ORD);
	if (mask & OIB_QP_MAX_DEST_RD_ATOMIC)
		qp->ird = clamp_t(u32, attr->max_dest_rd_atomic, 1, SIW_MAX_IRD);
	if (mask & OIB_QP_ACCESS_FLAGS)
		WRITE_ONCE(qp->access, attr->qp_access_flags);
	if (!(mask & OIB_QP_STATE))
		return 0;
	if (attr->qp_state == OIB_QPS_ERR) {
		spin_lock_irq(&qp->lock);
		now = siw_qp_fail_locked(qp, 0, false, false);
		sock = qp->sock;
		spin_unlock_irq(&qp->lock);
		if (now) {
			siw_qp_stop_sock(qp, sock, false);
			siw_qp_kick(qp);
		}
	} else if (attr->qp_state == OIB_QPS_RESET && ib->state != OIB_QPS_RESET) {
		flush_work(&qp->tx_work);	/* the flush, if the QP failed */
		spin_lock_irq(&qp->lock);
		if (qp->state == SIW_QP_ERR && !qp->conn)
			qp->state = SIW_QP_IDLE;	/* a connection is never reused */
		qp->sq_prod = qp->sq_cons;
		qp->sq_next = qp->sq_cons;
		qp->rq_prod = qp->rq_cons;
		spin_unlock_irq(&qp->lock);
	}
	return 0;
}

int siw_query_qp(struct oib_qp *ib, struct oib_qp_attr *attr, int mask,
		 struct oib_qp_init_attr *init)
{
	struct siw_qp *qp = to_sqp(ib);

	attr->cap.max_send_wr = qp->sq_mask + 1;
	attr->cap.max_recv_wr = qp->rq_mask + 1;
	attr->cap.max_send_sge = qp->max_send_sge;
	attr->cap.max_recv_sge = qp->max_recv_sge;
	attr->cap.max_inline_data = qp->max_inline;
	attr->max_rd_atomic = qp->ord;
	attr->max_dest_rd_atomic = qp->ird;
	attr->qp_access_flags = READ_ONCE(qp->access);
	init->cap = attr->cap;
	init->qp_type = OIB_QPT_RC;
	init->sq_sig_type = qp->sig_all ? OIB_SIGNAL_ALL_WR : OIB_SIGNAL_REQ_WR;
	return 0;
}

void siw_destroy_qp(struct oib_qp *ib)
{
	struct siw_qp *qp = to_sqp(ib);
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_ERR };

	siw_modify_qp(ib, &attr, OIB_QP_STATE);
	flush_work(&qp->tx_work);	/* flushed, the connection closed */
	cancel_work_sync(&qp->rx_work);
	cancel_work_sync(&qp->tx_work);
	if (qp->conn)
		siw_cm_qp_gone(qp->conn);
	kvfree(qp->sq);
	kvfree(qp->rq);
	kvfree(qp->txbuf);
	kvfree(qp->rxbuf);
	kvfree(qp->rxstream);
}

void siw_qp_up(struct siw_qp *qp, struct siw_conn *conn, struct socket *sock, bool crc,
	       u32 ird, u32 ord)
{
	u32 mss = tcp_sk(sock->sk)->mss_cache;
	u32 max = mss - SIW_FPDU_LEN_SIZE - SIW_UNTAGGED_LEN - 3 - SIW_CRC_SIZE;

	spin_lock_irq(&qp->lock);
	if (qp->state == SIW_QP_IDLE) {
		qp->state = SIW_QP_RTS;
		qp->sock = sock;
		qp->crc = crc;
		qp->ird = clamp_t(u32, ird, 1, SIW_MAX_IRD);
		qp->ord = clamp_t(u32, ord, 1, SIW_MAX_ORD);
		qp->payload_max = ALIGN_DOWN(clamp_t(u32, max, 256, SIW_TX_PAYLOAD_MAX), 4);
		qp->send_msn = 1;
		qp->read_msn = 1;
		qp->recv_msn = 1;
		qp->rreq_msn = 1;
	}
	spin_unlock_irq(&qp->lock);
	queue_work(siw_wq, &qp->rx_work);
	siw_qp_kick(qp);
}

/* ---- Completions ---- */

static enum oib_wc_opcode siw_wc_opcode(enum oib_wr_opcode op)
{
	switch (op) {
	case OIB_WR_RDMA_WRITE:
		return OIB_WC_RDMA_WRITE;
	case OIB_WR_RDMA_READ:
		return OIB_WC_RDMA_READ;
	case OIB_WR_LOCAL_INV:
		return OIB_WC_LOCAL_INV;
	case OIB_WR_REG_MR:
		return OIB_WC_REG_MR;
	default:
		return OIB_WC_SEND;
	}
}

static void siw_qp_sq_wc(struct siw_qp *qp, const struct siw_wqe *wqe)
{
	struct oib_wc wc = {
		.wr_id = wqe->wr_id,
		.status = wqe->status,
		.opcode = siw_wc_opcode(wqe->op),
		.qp = &qp->ib,
		.byte_len = wqe->op == OIB_WR_RDMA_READ ? wqe->len : 0,
	};

	if (wqe->status || qp->sig_all || (wqe->flags & OIB_SEND_SIGNALED))
		oib_sw_cq_post(oib_sw_cq(qp->ib.send_cq), &wc, false);
}

/* Complete the done WQEs at the head of the send queue. */
void siw_qp_complete_sq(struct siw_qp *qp)
{
	unsigned long flags;
	struct siw_wqe *wqe;

	spin_lock_irqsave(&qp->lock, flags);
	while (qp->sq_cons != qp->sq_next) {
		wqe = &qp->sq[qp->sq_cons & qp->sq_mask];
		if (!wqe->done)
			break;
		siw_qp_sq_wc(qp, wqe);
		qp->sq_cons++;
	}
	spin_unlock_irqrestore(&qp->lock, flags);
}

void siw_qp_recv_done(struct siw_qp *qp, struct siw_wqe *rqe, enum oib_wc_status status,
		      u32 len, bool solicited, u32 inv)
{
	struct oib_wc wc = {
		.wr_id = rqe->wr_id,
		.status = status,
		.opcode = OIB_WC_RECV,
		.qp = &qp->ib,
		.byte_len = len,
	};

	if (inv && !status) {
		wc.wc_flags = OIB_WC_WITH_INVALIDATE;
		wc.ex.invalidate_rkey = inv;
	}
	oib_sw_cq_post(oib_sw_cq(qp->ib.recv_cq), &wc, solicited);
}

bool siw_qp_take_recv(struct siw_qp *qp, struct siw_wqe *rqe)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&qp->lock, flags);
	ok = qp->rq_cons != qp->rq_prod && qp->state == SIW_QP_RTS;
	if (ok)
		*rqe = qp->rq[qp->rq_cons++ & qp->rq_mask];
	spin_unlock_irqrestore(&qp->lock, flags);
	return ok;
}

void siw_qp_flush(struct siw_qp *qp)
{
	struct siw_wqe *wqe;
	u32 i;

	spin_lock_irq(&qp->lock);
	for (i = qp->sq_cons; i != qp->sq_prod; i++) {
		wqe = &qp->sq[i & qp->sq_mask];
		if (!wqe->done)
			wqe->status = OIB_WC_WR_FLUSH_ERR;
		siw_qp_sq_wc(qp, wqe);
	}
	qp->sq_cons = i;
	qp->sq_next = i;
	qp->orq_cons = qp->orq_prod;
	qp->irq_cons = qp->irq_prod;
	if (qp->recv_active) {
		qp->recv_active = false;
		siw_qp_recv_done(qp, &qp->recv, OIB_WC_WR_FLUSH_ERR, 0, false, 0);
	}
	for (i = qp->rq_cons; i != qp->rq_prod; i++)
		siw_qp_recv_done(qp, &qp->rq[i & qp->rq_mask], OIB_WC_WR_FLUSH_ERR, 0, false, 0);
	qp->rq_cons = i;
	spin_unlock_irq(&qp->lock);
}

/* ---- Posting ---- */

static u32 siw_sgl_len(const struct oib_sge *sge, int n)
{
	u32 len = 0;

	while (n--)
		len += sge[n].length;
	return len;
}

static int siw_wqe_from_send(struct siw_qp *qp, struct siw_wqe *wqe,
			     const struct oib_send_wr *wr)
{
	switch (wr->opcode) {
	case OIB_WR_SEND:
	case OIB_WR_SEND_WITH_INV:
	case OIB_WR_RDMA_WRITE:
	case OIB_WR_RDMA_READ:
	case OIB_WR_LOCAL_INV:
	case OIB_WR_REG_MR:
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (wr->num_sge < 0 || wr->num_sge > qp->max_send_sge ||
	    (wr->opcode == OIB_WR_RDMA_READ && wr->num_sge > 1 && !wr->sg_list))
		return -EINVAL;
	memset(wqe, 0, offsetof(struct siw_wqe, inline_data));
	wqe->wr_id = wr->wr_id;
	wqe->op = wr->opcode;
	wqe->flags = wr->send_flags;
	wqe->num_sge = wr->num_sge;
	if (wr->num_sge)
		memcpy(wqe->sge, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
	wqe->len = siw_sgl_len(wqe->sge, wqe->num_sge);
	wqe->inv = wr->ex.invalidate_rkey;
	if (wr->opcode == OIB_WR_RDMA_WRITE || wr->opcode == OIB_WR_RDMA_READ) {
		wqe->raddr = wr->wr.rdma.remote_addr;
		wqe->rkey = wr->wr.rdma.rkey;
	} else if (wr->opcode == OIB_WR_REG_MR) {
		wqe->mr = wr->wr.reg.mr;
		wqe->key = wr->wr.reg.key;
		wqe->access = wr->wr.reg.access;
	}
	if ((wr->send_flags & OIB_SEND_INLINE) && wr->opcode != OIB_WR_RDMA_READ && wqe->len) {
		if (wqe->len > qp->max_inline ||
		    siw_sgl_copy(qp, wqe, 0, wqe->inline_data, wqe->len, false))
			return -EINVAL;
		wqe->num_sge = 1;
		wqe->sge[0].addr = (u64)(uintptr_t)wqe->inline_data;
		wqe->sge[0].length = wqe->len;
		wqe->sge[0].lkey = qp->ib.pd->local_dma_lkey;
	}
	return 0;
}

int siw_post_send(struct oib_qp *ib, const struct oib_send_wr *wr,
		  const struct oib_send_wr **bad)
{
	struct siw_qp *qp = to_sqp(ib);
	unsigned long flags;
	int ret = 0;

	if (READ_ONCE(ib->state) == OIB_QPS_RESET) {
		*bad = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		if (qp->sq_prod - qp->sq_cons > qp->sq_mask) {
			ret = -ENOMEM;
			break;
		}
		ret = siw_wqe_from_send(qp, &qp->sq[qp->sq_prod & qp->sq_mask], wr);
		if (ret)
			break;
		qp->sq_prod++;
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	if (ret)
		*bad = wr;
	siw_qp_kick(qp);
	return ret;
}

int siw_post_recv(struct oib_qp *ib, const struct oib_recv_wr *wr,
		  const struct oib_recv_wr **bad)
{
	struct siw_qp *qp = to_sqp(ib);
	struct siw_wqe *rqe;
	unsigned long flags;
	bool err;
	int ret = 0;

	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		if (qp->rq_prod - qp->rq_cons > qp->rq_mask) {
			ret = -ENOMEM;
			break;
		}
		if (wr->num_sge < 0 || wr->num_sge > qp->max_recv_sge) {
			ret = -EINVAL;
			break;
		}
		rqe = &qp->rq[qp->rq_prod++ & qp->rq_mask];
		rqe->wr_id = wr->wr_id;
		rqe->num_sge = wr->num_sge;
		if (wr->num_sge)
			memcpy(rqe->sge, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
		rqe->len = siw_sgl_len(rqe->sge, rqe->num_sge);
	}
	err = qp->state == SIW_QP_ERR;
	spin_unlock_irqrestore(&qp->lock, flags);
	if (ret)
		*bad = wr;
	if (err)
		siw_qp_kick(qp);	/* flushed there */
	return ret;
}
