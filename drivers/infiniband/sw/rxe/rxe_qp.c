// SPDX-License-Identifier: GPL-2.0-only
/*
 * Queue pairs: numbers, queues, attribute bookkeeping, posting, and flushing on error.
 *
 * Posted requests wait in the rings for the transport (rxe_ud.c for UD and GSI QPs, which send once
 * the QP is in RTS; RC and UC requests wait for the reliable transport).  A QP that enters ERR
 * completes every queued request with OIB_WC_WR_FLUSH_ERR, signalled or not, and so does every
 * request posted to it while it stays there.  RESET discards the rings without completions.
 */
#include <linux/module.h>
#include "rxe.h"

#define RXE_SEND_FLAGS (OIB_SEND_FENCE | OIB_SEND_SIGNALED | OIB_SEND_SOLICITED | OIB_SEND_INLINE)

static size_t rxe_send_wqe_size(const struct oib_qp_cap *cap)
{
	return struct_size_t(struct rxe_send_wqe, sge, cap->max_send_sge) + cap->max_inline_data;
}

static size_t rxe_recv_wqe_size(const struct oib_qp_cap *cap)
{
	return struct_size_t(struct rxe_recv_wqe, sge, cap->max_recv_sge);
}

static bool rxe_qp_special(const struct rxe_qp *qp)
{
	return qp->ib.qp_type == OIB_QPT_SMI || qp->ib.qp_type == OIB_QPT_GSI;
}

static int rxe_qp_take_number(struct rxe_dev *rdev, struct rxe_qp *qp)
{
	struct rxe_qp **slot;
	int ret = 0;

	if (!rxe_qp_special(qp))
		return xa_alloc_cyclic(&rdev->qpns, &qp->ib.qp_num, qp,
				       XA_LIMIT(RXE_QPN_FIRST, RXE_QPN_LAST), &rdev->next_qpn,
				       GFP_KERNEL) < 0 ? -ENOSPC : 0;

	qp->ib.qp_num = qp->ib.qp_type == OIB_QPT_GSI ? 1 : 0;
	slot = &rdev->special_qp[qp->ib.port_num - 1][qp->ib.qp_num];
	spin_lock_irq(&rdev->lock);
	if (*slot)
		ret = -EBUSY;	/* one QP0 and one QP1 per port */
	else
		*slot = qp;
	spin_unlock_irq(&rdev->lock);
	return ret;
}

static void rxe_qp_drop_number(struct rxe_dev *rdev, struct rxe_qp *qp)
{
	if (!rxe_qp_special(qp)) {
		xa_erase(&rdev->qpns, qp->ib.qp_num);
		return;
	}
	spin_lock_irq(&rdev->lock);
	rdev->special_qp[qp->ib.port_num - 1][qp->ib.qp_num] = NULL;
	spin_unlock_irq(&rdev->lock);
}

int rxe_create_qp(struct oib_qp *ibqp, struct oib_qp_init_attr *init)
{
	struct rxe_dev *rdev = to_rdev(ibqp->device);
	struct rxe_qp *qp = to_rqp(ibqp);
	struct oib_qp_cap cap = init->cap;
	u32 n;
	int ret;

	spin_lock_init(&qp->sq_lock);
	spin_lock_init(&qp->rq_lock);
	refcount_set(&qp->ref, 1);
	init_completion(&qp->ref_done);
	qp->state = OIB_QPS_RESET;
	qp->sq_sig_type = init->sq_sig_type;

	n = cap.max_send_wr;
	ret = rxe_queue_init(&qp->sq, &n, rxe_send_wqe_size(&cap));
	if (ret)
		return ret;
	if (cap.max_send_wr)
		cap.max_send_wr = n;

	if (!init->srq) {
		n = cap.max_recv_wr;
		ret = rxe_queue_init(&qp->rq, &n, rxe_recv_wqe_size(&cap));
		if (ret)
			goto err_sq;
		if (cap.max_recv_wr)
			cap.max_recv_wr = n;
	}

	ret = rxe_qp_take_number(rdev, qp);
	if (ret)
		goto err_rq;

	qp->cap = cap;
	init->cap = cap;
	return 0;

err_rq:
	rxe_queue_free(&qp->rq);
err_sq:
	rxe_queue_free(&qp->sq);
	return ret;
}

void rxe_destroy_qp(struct oib_qp *ibqp)
{
	struct rxe_qp *qp = to_rqp(ibqp);

	/* Unfindable first, then wait out the receive path's references. */
	rxe_qp_drop_number(to_rdev(ibqp->device), qp);
	rxe_qp_put(qp);
	wait_for_completion(&qp->ref_done);
	rxe_queue_free(&qp->rq);
	rxe_queue_free(&qp->sq);
}

static enum oib_wc_opcode rxe_wc_opcode(enum oib_wr_opcode op)
{
	switch (op) {
	case OIB_WR_RDMA_WRITE:
	case OIB_WR_RDMA_WRITE_WITH_IMM:
		return OIB_WC_RDMA_WRITE;
	case OIB_WR_RDMA_READ:
		return OIB_WC_RDMA_READ;
	case OIB_WR_ATOMIC_CMP_AND_SWP:
		return OIB_WC_COMP_SWAP;
	case OIB_WR_ATOMIC_FETCH_AND_ADD:
		return OIB_WC_FETCH_ADD;
	case OIB_WR_LOCAL_INV:
		return OIB_WC_LOCAL_INV;
	default:
		return OIB_WC_SEND;
	}
}

/* Complete everything queued with WR_FLUSH_ERR, one request at a time, outside the QP's locks. */
static void rxe_qp_flush(struct rxe_qp *qp)
{
	struct oib_wc wc = { .status = OIB_WC_WR_FLUSH_ERR, .qp = &qp->ib };
	struct rxe_send_wqe *swqe;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&qp->sq_lock, flags);
		if (qp->state != OIB_QPS_ERR || rxe_queue_empty(&qp->sq)) {
			spin_unlock_irqrestore(&qp->sq_lock, flags);
			break;
		}
		swqe = rxe_queue_head(&qp->sq);
		wc.wr_id = swqe->wr.wr_id;
		wc.opcode = rxe_wc_opcode(swqe->wr.opcode);
		rxe_queue_pop(&qp->sq);
		spin_unlock_irqrestore(&qp->sq_lock, flags);
		rxe_cq_post(to_rcq(qp->ib.send_cq), &wc, false);
	}

	if (qp->ib.srq)
		return;
	wc.opcode = OIB_WC_RECV;
	for (;;) {
		spin_lock_irqsave(&qp->rq_lock, flags);
		if (qp->state != OIB_QPS_ERR || rxe_queue_empty(&qp->rq)) {
			spin_unlock_irqrestore(&qp->rq_lock, flags);
			break;
		}
		wc.wr_id = ((struct rxe_recv_wqe *)rxe_queue_head(&qp->rq))->wr_id;
		rxe_queue_pop(&qp->rq);
		spin_unlock_irqrestore(&qp->rq_lock, flags);
		rxe_cq_post(to_rcq(qp->ib.recv_cq), &wc, false);
	}
}

/* Start sending what is queued.  Only datagram QPs have a transport yet. */
static void rxe_qp_kick(struct rxe_qp *qp)
{
	if (qp->ib.qp_type == OIB_QPT_UD || qp->ib.qp_type == OIB_QPT_GSI)
		rxe_ud_send(qp);
}

static void rxe_qp_set_state(struct rxe_qp *qp, enum oib_qp_state state)
{
	spin_lock_irq(&qp->sq_lock);
	spin_lock(&qp->rq_lock);
	qp->state = state;
	if (state == OIB_QPS_RESET) {
		rxe_queue_reset(&qp->sq);
		if (!qp->ib.srq)
			rxe_queue_reset(&qp->rq);
	}
	spin_unlock(&qp->rq_lock);
	spin_unlock_irq(&qp->sq_lock);
}

/* Record the attributes named in @mask; the core has checked them against the state table. */
static void rxe_qp_store_attr(struct rxe_qp *qp, const struct oib_qp_attr *attr, int mask)
{
	struct oib_qp_attr *a = &qp->attr;

	spin_lock_irq(&qp->sq_lock);
	if (mask & OIB_QP_ACCESS_FLAGS)
		a->qp_access_flags = attr->qp_access_flags;
	if (mask & OIB_QP_PKEY_INDEX)
		a->pkey_index = attr->pkey_index;
	if (mask & OIB_QP_PORT)
		a->port_num = attr->port_num;
	if (mask & OIB_QP_QKEY)
		a->qkey = attr->qkey;
	if (mask & OIB_QP_AV)
		a->ah_attr = attr->ah_attr;
	if (mask & OIB_QP_PATH_MTU)
		a->path_mtu = attr->path_mtu;
	if (mask & OIB_QP_TIMEOUT)
		a->timeout = attr->timeout;
	if (mask & OIB_QP_RETRY_CNT)
		a->retry_cnt = attr->retry_cnt;
	if (mask & OIB_QP_RNR_RETRY)
		a->rnr_retry = attr->rnr_retry;
	if (mask & OIB_QP_RQ_PSN)
		a->rq_psn = attr->rq_psn;
	if (mask & OIB_QP_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = attr->max_rd_atomic;
	if (mask & OIB_QP_ALT_PATH) {
		a->alt_ah_attr = attr->alt_ah_attr;
		a->alt_port_num = attr->alt_port_num;
		a->alt_pkey_index = attr->alt_pkey_index;
		a->alt_timeout = attr->alt_timeout;
	}
	if (mask & OIB_QP_MIN_RNR_TIMER)
		a->min_rnr_timer = attr->min_rnr_timer;
	if (mask & OIB_QP_SQ_PSN)
		a->sq_psn = attr->sq_psn;
	if (mask & OIB_QP_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & OIB_QP_PATH_MIG_STATE)
		a->path_mig_state = attr->path_mig_state;
	if (mask & OIB_QP_DEST_QPN)
		a->dest_qp_num = attr->dest_qp_num;
	if (mask & OIB_QP_EN_SQD_ASYNC_NOTIFY)
		a->en_sqd_async_notify = attr->en_sqd_async_notify;
	spin_unlock_irq(&qp->sq_lock);
}

int rxe_modify_qp(struct oib_qp *ibqp, struct oib_qp_attr *attr, int mask)
{
	struct rxe_qp *qp = to_rqp(ibqp);

	rxe_qp_store_attr(qp, attr, mask);
	if (mask & OIB_QP_STATE) {
		if (attr->qp_state == OIB_QPS_RESET)
			memset(&qp->attr, 0, sizeof(qp->attr));
		rxe_qp_set_state(qp, attr->qp_state);
		if (attr->qp_state == OIB_QPS_ERR)
			rxe_qp_flush(qp);
		else if (attr->qp_state == OIB_QPS_RTS)
			rxe_qp_kick(qp);	/* sends posted in RTR leave now */
	}
	return 0;
}

int rxe_query_qp(struct oib_qp *ibqp, struct oib_qp_attr *attr, int mask,
		 struct oib_qp_init_attr *init)
{
	struct rxe_qp *qp = to_rqp(ibqp);

	spin_lock_irq(&qp->sq_lock);
	*attr = qp->attr;
	spin_unlock_irq(&qp->sq_lock);
	attr->cap = qp->cap;
	init->sq_sig_type = qp->sq_sig_type;
	return 0;
}

static bool rxe_opcode_allowed(enum oib_qp_type type, enum oib_wr_opcode op)
{
	switch (type) {
	case OIB_QPT_RC:
		return op < OIB_WR_MAX;
	case OIB_QPT_UC:
		return op == OIB_WR_SEND || op == OIB_WR_SEND_WITH_IMM ||
		       op == OIB_WR_RDMA_WRITE || op == OIB_WR_RDMA_WRITE_WITH_IMM ||
		       op == OIB_WR_LOCAL_INV;
	default:	/* UD, GSI, SMI */
		return op == OIB_WR_SEND || op == OIB_WR_SEND_WITH_IMM;
	}
}

static bool rxe_is_atomic(enum oib_wr_opcode op)
{
	return op == OIB_WR_ATOMIC_CMP_AND_SWP || op == OIB_WR_ATOMIC_FETCH_AND_ADD;
}

static int rxe_check_send_wr(struct rxe_qp *qp, const struct oib_send_wr *wr)
{
	u64 total = 0;
	int i;

	if (!rxe_opcode_allowed(qp->ib.qp_type, wr->opcode) || (wr->send_flags & ~RXE_SEND_FLAGS))
		return -EINVAL;
	if (wr->num_sge < 0 || wr->num_sge > qp->cap.max_send_sge || (wr->num_sge && !wr->sg_list))
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		total += wr->sg_list[i].length;
	if (total > U32_MAX)
		return -EINVAL;

	if (wr->send_flags & OIB_SEND_INLINE) {
		if (total > qp->cap.max_inline_data || wr->opcode == OIB_WR_RDMA_READ ||
		    rxe_is_atomic(wr->opcode))
			return -EINVAL;
	}
	if (rxe_is_atomic(wr->opcode) &&
	    (wr->num_sge != 1 || wr->sg_list[0].length != 8 || (wr->wr.atomic.remote_addr & 7)))
		return -EINVAL;
	if (qp->ib.qp_type == OIB_QPT_UD || rxe_qp_special(qp)) {
		if (!wr->wr.ud.ah || wr->wr.ud.ah->pd != qp->ib.pd ||
		    wr->wr.ud.remote_qpn > RXE_QPN_LAST)
			return -EINVAL;
	}
	return 0;
}

static void rxe_send_wqe_fill(struct rxe_send_wqe *wqe, const struct oib_send_wr *wr)
{
	int i;

	wqe->wr = *wr;
	wqe->wr.next = NULL;
	wqe->wr.sg_list = NULL;
	wqe->inline_len = 0;
	if (!(wr->send_flags & OIB_SEND_INLINE)) {
		memcpy(wqe->sge, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
		return;
	}
	/* Inline data is copied now: the caller may reuse its buffers as soon as we return. */
	wqe->wr.num_sge = 0;
	for (i = 0; i < wr->num_sge; i++) {
		memcpy((u8 *)wqe->sge + wqe->inline_len,
		       (void *)(uintptr_t)wr->sg_list[i].addr, wr->sg_list[i].length);
		wqe->inline_len += wr->sg_list[i].length;
	}
}

int rxe_post_send(struct oib_qp *ibqp, const struct oib_send_wr *wr,
		  const struct oib_send_wr **bad_wr)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	unsigned long flags;
	bool flush;
	int ret = 0;

	spin_lock_irqsave(&qp->sq_lock, flags);
	if (qp->state < OIB_QPS_RTR) {
		ret = -EINVAL;
		goto out;
	}
	for (; wr; wr = wr->next) {
		ret = rxe_check_send_wr(qp, wr);
		if (ret)
			break;
		if (rxe_queue_count(&qp->sq) >= qp->cap.max_send_wr) {
			ret = -ENOMEM;
			break;
		}
		rxe_send_wqe_fill(rxe_queue_tail(&qp->sq), wr);
		rxe_queue_push(&qp->sq);
	}
out:
	flush = qp->state == OIB_QPS_ERR;
	spin_unlock_irqrestore(&qp->sq_lock, flags);
	if (ret)
		*bad_wr = wr;
	if (flush)
		rxe_qp_flush(qp);
	else
		rxe_qp_kick(qp);
	return ret;
}

int rxe_post_recv(struct oib_qp *ibqp, const struct oib_recv_wr *wr,
		  const struct oib_recv_wr **bad_wr)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	unsigned long flags;
	bool flush;
	int ret = 0;

	if (ibqp->srq) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->rq_lock, flags);
	if (qp->state == OIB_QPS_RESET) {
		ret = -EINVAL;
		goto out;
	}
	for (; wr; wr = wr->next) {
		if (rxe_queue_count(&qp->rq) >= qp->cap.max_recv_wr) {
			ret = -ENOMEM;
			break;
		}
		ret = rxe_recv_wqe_copy(rxe_queue_tail(&qp->rq), wr, qp->cap.max_recv_sge);
		if (ret)
			break;
		rxe_queue_push(&qp->rq);
	}
out:
	flush = qp->state == OIB_QPS_ERR;
	spin_unlock_irqrestore(&qp->rq_lock, flags);
	if (ret)
		*bad_wr = wr;
	if (flush)
		rxe_qp_flush(qp);
	return ret;
}
