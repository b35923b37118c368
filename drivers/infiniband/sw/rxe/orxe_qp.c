// SPDX-License-Identifier: GPL-2.0-only
/*
 * Queue pairs: numbers, queues, attribute bookkeeping, posting, and flushing on error.
 *
 * Posted requests wait in the rings for the transport: orxe_ud.c for UD and GSI QPs, orxe_req.c for
 * RC and UC; both send only in RTS, so requests posted in RTR leave when the QP gets there.  A QP
 * that enters ERR, by modify or by a transport error, completes every queued request with
 * OIB_WC_WR_FLUSH_ERR, signalled or not, and so does every request posted to it while it stays
 * there.  RESET discards the rings without completions.
 */
#include <linux/module.h>
#include "orxe.h"

#define ORXE_SEND_FLAGS (OIB_SEND_FENCE | OIB_SEND_SIGNALED | OIB_SEND_SOLICITED | OIB_SEND_INLINE)

static size_t orxe_send_wqe_size(const struct oib_qp_cap *cap)
{
	return struct_size_t(struct orxe_send_wqe, sge, cap->max_send_sge) + cap->max_inline_data;
}

static size_t orxe_recv_wqe_size(const struct oib_qp_cap *cap)
{
	return struct_size_t(struct orxe_recv_wqe, sge, cap->max_recv_sge);
}

static bool orxe_qp_special(const struct orxe_qp *qp)
{
	return qp->ib.qp_type == OIB_QPT_SMI || qp->ib.qp_type == OIB_QPT_GSI;
}

static int orxe_qp_take_number(struct orxe_dev *rdev, struct orxe_qp *qp)
{
	struct orxe_qp **slot;
	int ret = 0;

	if (!orxe_qp_special(qp))
		return xa_alloc_cyclic(&rdev->qpns, &qp->ib.qp_num, qp,
				       XA_LIMIT(ORXE_QPN_FIRST, ORXE_QPN_LAST), &rdev->next_qpn,
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

static void orxe_qp_drop_number(struct orxe_dev *rdev, struct orxe_qp *qp)
{
	if (!orxe_qp_special(qp)) {
		xa_erase(&rdev->qpns, qp->ib.qp_num);
		return;
	}
	spin_lock_irq(&rdev->lock);
	rdev->special_qp[qp->ib.port_num - 1][qp->ib.qp_num] = NULL;
	spin_unlock_irq(&rdev->lock);
}

int orxe_create_qp(struct oib_qp *ibqp, struct oib_qp_init_attr *init)
{
	struct orxe_dev *rdev = to_rdev(ibqp->device);
	struct orxe_qp *qp = to_rqp(ibqp);
	struct oib_qp_cap cap = init->cap;
	u32 n;
	int ret;

	spin_lock_init(&qp->sq_lock);
	spin_lock_init(&qp->rq_lock);
	refcount_set(&qp->ref, 1);
	init_completion(&qp->ref_done);
	orxe_req_init(qp);
	qp->state = OIB_QPS_RESET;
	qp->sq_sig_type = init->sq_sig_type;

	n = cap.max_send_wr;
	ret = orxe_queue_init(&qp->sq, &n, orxe_send_wqe_size(&cap));
	if (ret)
		return ret;
	if (cap.max_send_wr)
		cap.max_send_wr = n;

	if (!init->srq && !orxe_qp_xrc(qp)) {	/* XRC: no receive queue of its own */
		n = cap.max_recv_wr;
		ret = orxe_queue_init(&qp->rq, &n, orxe_recv_wqe_size(&cap));
		if (ret)
			goto err_sq;
		if (cap.max_recv_wr)
			cap.max_recv_wr = n;
	}

	ret = orxe_qp_take_number(rdev, qp);
	if (ret)
		goto err_rq;

	qp->cap = cap;
	init->cap = cap;
	return 0;

err_rq:
	orxe_queue_free(&qp->rq);
err_sq:
	orxe_queue_free(&qp->sq);
	return ret;
}

void orxe_destroy_qp(struct oib_qp *ibqp)
{
	struct orxe_qp *qp = to_rqp(ibqp);

	/* Unfindable first, then wait out the receive path's references. */
	orxe_qp_drop_number(to_rdev(ibqp->device), qp);
	orxe_qp_put(qp);
	wait_for_completion(&qp->ref_done);
	orxe_req_stop(qp);
	kfree(qp->resp.rsrc);
	orxe_queue_free(&qp->rq);
	orxe_queue_free(&qp->sq);
}

static enum oib_wc_opcode orxe_wc_opcode(enum oib_wr_opcode op)
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
	case OIB_WR_REG_MR:
		return OIB_WC_REG_MR;
	default:
		return OIB_WC_SEND;
	}
}

/*
 * Complete the oldest request on the SQ with @status and take it off; under sq_lock.  Successes of
 * unsignalled requests make no completion.
 */
void orxe_sq_complete(struct orxe_qp *qp, enum oib_wc_status status)
{
	struct orxe_send_wqe *wqe = orxe_queue_head(&qp->sq);
	struct oib_wc wc = {
		.wr_id = wqe->wr.wr_id,
		.status = status,
		.opcode = orxe_wc_opcode(wqe->wr.opcode),
		.byte_len = wqe->len,
		.qp = &qp->ib,
	};

	if (status || qp->sq_sig_type == OIB_SIGNAL_ALL_WR ||
	    (wqe->wr.send_flags & OIB_SEND_SIGNALED))
		oib_sw_cq_post(oib_sw_cq(qp->ib.send_cq), &wc, false);
	orxe_queue_pop(&qp->sq);
}

/* What a receive source still has, flushed too: at most the queue's capacity a flush. */
static void orxe_rq_flush_source_locked(struct orxe_qp *qp, struct oib_wc *wc)
{
	struct oib_recv_source *src = qp->ib.recv_source;
	struct orxe_recv_wqe *wqe = orxe_queue_tail(&qp->rq);
	struct oib_recv_wr wr;
	u32 n;

	lockdep_assert_held(&qp->rq_lock);
	for (n = 0; src && n < qp->cap.max_recv_wr; n++) {
		if (src->pull(src, &wr, wqe->sge, qp->cap.max_recv_sge, OIB_RECV_PULL_FLUSH) <= 0)
			break;	/* a bad receive: the QP is in ERR already */
		wc->wr_id = wr.wr_id;
		oib_sw_cq_post(oib_sw_cq(qp->ib.recv_cq), wc, false);
	}
}

/*
 * An XRC target's receive taken by a message that will not finish now: flushed to its SRQ's CQ,
 * if the SRQ is still there (else it went with it).
 */
static void orxe_xrc_recv_flush_locked(struct orxe_qp *qp, struct oib_wc *wc)
{
	struct orxe_srq *srq = orxe_xrc_srq_get(to_rdev(qp->ib.device), qp->resp.xsrqn);

	lockdep_assert_held(&qp->rq_lock);
	if (srq && srq->ib.xrcd == qp->ib.xrcd)
		oib_sw_cq_post(oib_sw_cq(srq->ib.cq), wc, false);
	orxe_xrc_srq_put(srq);
}

static void orxe_rq_flush_locked(struct orxe_qp *qp)
{
	struct oib_wc wc = { .status = OIB_WC_WR_FLUSH_ERR, .opcode = OIB_WC_RECV, .qp = &qp->ib };

	lockdep_assert_held(&qp->rq_lock);
	if (qp->resp.have_recv) {	/* taken by a message that will not finish now */
		wc.wr_id = qp->resp.recv.wqe.wr_id;
		if (qp->ib.qp_type == OIB_QPT_XRC_TGT)
			orxe_xrc_recv_flush_locked(qp, &wc);
		else
			oib_sw_cq_post(oib_sw_cq(qp->ib.recv_cq), &wc, false);
		qp->resp.have_recv = false;
	}
	if (qp->ib.srq || orxe_qp_xrc(qp))
		return;
	while (!orxe_queue_empty(&qp->rq)) {
		wc.wr_id = ((struct orxe_recv_wqe *)orxe_queue_head(&qp->rq))->wr_id;
		orxe_queue_pop(&qp->rq);
		oib_sw_cq_post(oib_sw_cq(qp->ib.recv_cq), &wc, false);
	}
	orxe_rq_flush_source_locked(qp, &wc);
}

static void orxe_sq_flush_locked(struct orxe_qp *qp)
{
	lockdep_assert_held(&qp->sq_lock);
	while (!orxe_queue_empty(&qp->sq))
		orxe_sq_complete(qp, OIB_WC_WR_FLUSH_ERR);
	qp->req.next = qp->sq.cons;
	qp->req.hw_next = qp->sq.cons;
	qp->req.hw_psn = qp->req.psn;
	qp->req.hw_off = 0;
	qp->req.off = 0;
	qp->req.rd_atomic = 0;
}

/* If the QP is in ERR, complete everything queued with WR_FLUSH_ERR. */
static void orxe_qp_flush(struct orxe_qp *qp)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->sq_lock, flags);
	spin_lock(&qp->rq_lock);
	if (qp->state == OIB_QPS_ERR) {
		orxe_sq_flush_locked(qp);
		orxe_rq_flush_locked(qp);
	}
	spin_unlock(&qp->rq_lock);
	spin_unlock_irqrestore(&qp->sq_lock, flags);
}

/*
 * A transport error: under sq_lock, the QP enters ERR (unless it is in RESET or there already) and
 * everything queued is flushed.  True if it entered ERR now; the caller raises any event.
 */
bool orxe_qp_err_locked(struct orxe_qp *qp)
{
	bool now;

	lockdep_assert_held(&qp->sq_lock);
	spin_lock(&qp->rq_lock);
	now = qp->state != OIB_QPS_ERR && qp->state != OIB_QPS_RESET;
	if (now) {
		qp->state = OIB_QPS_ERR;
		oib_qp_transport_error(&qp->ib);
		hrtimer_try_to_cancel(&qp->req.timer);	/* its work would find ERR anyway */
	}
	if (qp->state == OIB_QPS_ERR) {
		orxe_sq_flush_locked(qp);
		orxe_rq_flush_locked(qp);
	}
	spin_unlock(&qp->rq_lock);
	return now;
}

/* The same without sq_lock held: the responder's errors. */
bool orxe_qp_err(struct orxe_qp *qp)
{
	unsigned long flags;
	bool now;

	spin_lock_irqsave(&qp->sq_lock, flags);
	now = orxe_qp_err_locked(qp);
	spin_unlock_irqrestore(&qp->sq_lock, flags);
	return now;
}

/* Raise an affiliated event on the QP; no QP lock held. */
void orxe_qp_event(struct orxe_qp *qp, enum oib_event_type type)
{
	struct oib_event ev = { .device = qp->ib.device, .element.qp = &qp->ib, .event = type };

	oib_dispatch_event(&ev);
}

/* Start sending what is queued. */
static void orxe_qp_kick(struct orxe_qp *qp)
{
	if (qp->ib.qp_type == OIB_QPT_UD || qp->ib.qp_type == OIB_QPT_GSI)
		orxe_ud_send(qp);
	else if (orxe_qp_connected(qp))
		orxe_req_kick(qp);
}

/* Record the attributes named in @mask; the core has checked them against the state table. */
static void orxe_qp_attr_update(struct oib_qp_attr *a, const struct oib_qp_attr *attr, int mask)
{
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
}

#define ORXE_PATH_MASK (OIB_QP_AV | OIB_QP_PORT | OIB_QP_PKEY_INDEX | OIB_QP_DEST_QPN)

/*
 * The transport's side of a state change, with both locks held: RESET forgets everything, RTR
 * starts the responder at rq_psn, RTS the requester at sq_psn.
 */
static void orxe_qp_enter(struct orxe_qp *qp, enum oib_qp_state state)
{
	enum oib_qp_state old = qp->state;

	qp->state = state;
	switch (state) {
	case OIB_QPS_RESET:
		orxe_queue_reset(&qp->sq);
		if (!qp->ib.srq && !orxe_qp_xrc(qp))
			orxe_queue_reset(&qp->rq);
		memset(&qp->attr, 0, sizeof(qp->attr));
		memset(&qp->path, 0, sizeof(qp->path));
		orxe_resp_reset(qp);
		qp->req.next = 0;
		qp->req.hw_next = 0;
		qp->req.hw_off = 0;
		qp->req.off = 0;
		qp->req.rd_atomic = 0;
		break;
	case OIB_QPS_RTR:
		if (old != OIB_QPS_RTR) {
			orxe_resp_reset(qp);
			qp->resp.epsn = qp->attr.rq_psn;
			qp->resp.ack_psn = orxe_psn_add(qp->attr.rq_psn, ORXE_PSN_MASK);
		}
		break;
	case OIB_QPS_RTS:
		if (old == OIB_QPS_RTR)
			orxe_req_start(qp);
		break;
	case OIB_QPS_ERR:
		hrtimer_try_to_cancel(&qp->req.timer);
		break;
	default:
		break;
	}
}

int orxe_modify_qp(struct oib_qp *ibqp, struct oib_qp_attr *attr, int mask)
{
	struct orxe_qp *qp = to_rqp(ibqp);
	enum oib_qp_state state = mask & OIB_QP_STATE ? attr->qp_state : ibqp->state;
	bool new_path = orxe_qp_connected(qp) && (mask & ORXE_PATH_MASK);
	struct orxe_rsrc *rsrc = NULL, *old_rsrc = NULL;
	struct orxe_path path = {};
	struct oib_qp_attr next;
	int ret;

	/* The transport may have put the QP in ERR: from there only RESET and ERR lead. */
	if (READ_ONCE(qp->state) == OIB_QPS_ERR && state != OIB_QPS_RESET && state != OIB_QPS_ERR)
		return -EINVAL;

	if (new_path && state >= OIB_QPS_RTR && state != OIB_QPS_ERR) {
		spin_lock_irq(&qp->sq_lock);
		next = qp->attr;
		spin_unlock_irq(&qp->sq_lock);
		orxe_qp_attr_update(&next, attr, mask);
		ret = orxe_path_resolve(qp, &next, &path);
		if (ret)
			return ret;
	}
	if (orxe_qp_connected(qp) && (mask & OIB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic) {
		rsrc = kcalloc(attr->max_dest_rd_atomic, sizeof(*rsrc), GFP_KERNEL);
		if (!rsrc)
			return -ENOMEM;
	}

	spin_lock_irq(&qp->sq_lock);
	spin_lock(&qp->rq_lock);
	orxe_qp_attr_update(&qp->attr, attr, mask);
	if (new_path)
		qp->path = path;
	if (mask & OIB_QP_MAX_DEST_RD_ATOMIC) {
		old_rsrc = qp->resp.rsrc;
		qp->resp.rsrc = rsrc;
		qp->resp.nrsrc = rsrc ? attr->max_dest_rd_atomic : 0;
		qp->resp.rsrc_next = 0;
	}
	if (mask & OIB_QP_STATE)
		orxe_qp_enter(qp, attr->qp_state);
	spin_unlock(&qp->rq_lock);
	spin_unlock_irq(&qp->sq_lock);
	kfree(old_rsrc);

	if (mask & OIB_QP_STATE) {
		if (attr->qp_state == OIB_QPS_ERR)
			orxe_qp_flush(qp);
		else if (attr->qp_state == OIB_QPS_RTS)
			orxe_qp_kick(qp);	/* sends posted in RTR leave now */
	}
	return 0;
}

int orxe_query_qp(struct oib_qp *ibqp, struct oib_qp_attr *attr, int mask,
		  struct oib_qp_init_attr *init)
{
	struct orxe_qp *qp = to_rqp(ibqp);

	spin_lock_irq(&qp->sq_lock);
	*attr = qp->attr;
	if (orxe_qp_connected(qp) && qp->state >= OIB_QPS_RTS && qp->state != OIB_QPS_ERR)
		attr->sq_psn = qp->req.psn;
	spin_unlock_irq(&qp->sq_lock);
	attr->cap = qp->cap;
	init->sq_sig_type = qp->sq_sig_type;
	return 0;
}

static bool orxe_opcode_allowed(enum oib_qp_type type, enum oib_wr_opcode op)
{
	switch (type) {
	case OIB_QPT_RC:
	case OIB_QPT_XRC_INI:
		return op < OIB_WR_MAX;
	case OIB_QPT_XRC_TGT:
		return false;	/* it does not send */
	case OIB_QPT_UC:
		return op == OIB_WR_SEND || op == OIB_WR_SEND_WITH_IMM ||
		       op == OIB_WR_RDMA_WRITE || op == OIB_WR_RDMA_WRITE_WITH_IMM ||
		       op == OIB_WR_LOCAL_INV || op == OIB_WR_REG_MR;
	default:	/* UD, GSI, SMI */
		return op == OIB_WR_SEND || op == OIB_WR_SEND_WITH_IMM;
	}
}

static bool orxe_is_atomic(enum oib_wr_opcode op)
{
	return op == OIB_WR_ATOMIC_CMP_AND_SWP || op == OIB_WR_ATOMIC_FETCH_AND_ADD;
}

/* What a REG_MR may grant: remote write and atomics need local write (IBTA o10-35). */
static bool orxe_reg_access_valid(int access)
{
	return !(access & ~OIB_ACCESS_ALL) &&
	       (!(access & (OIB_ACCESS_REMOTE_WRITE | OIB_ACCESS_REMOTE_ATOMIC)) ||
		(access & OIB_ACCESS_LOCAL_WRITE));
}

static int orxe_check_send_wr(struct orxe_qp *qp, const struct oib_send_wr *wr)
{
	u64 total = 0;
	int i;

	if (!orxe_opcode_allowed(qp->ib.qp_type, wr->opcode) || (wr->send_flags & ~ORXE_SEND_FLAGS))
		return -EINVAL;
	if (wr->num_sge < 0 || wr->num_sge > qp->cap.max_send_sge || (wr->num_sge && !wr->sg_list))
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		total += wr->sg_list[i].length;
	if (total > U32_MAX)
		return -EINVAL;

	if (wr->send_flags & OIB_SEND_INLINE) {
		if (total > qp->cap.max_inline_data || wr->opcode == OIB_WR_RDMA_READ ||
		    orxe_is_atomic(wr->opcode))
			return -EINVAL;
	}
	if (orxe_is_atomic(wr->opcode) &&
	    (wr->num_sge != 1 || wr->sg_list[0].length != 8 || (wr->wr.atomic.remote_addr & 7)))
		return -EINVAL;
	if (wr->opcode == OIB_WR_REG_MR &&
	    (!wr->wr.reg.mr || wr->wr.reg.mr->device != qp->ib.device ||
	     wr->wr.reg.mr->type != OIB_MR_TYPE_MEM_REG ||
	     !orxe_reg_access_valid(wr->wr.reg.access)))
		return -EINVAL;
	if (qp->ib.qp_type == OIB_QPT_XRC_INI && wr->xrc_remote_srq_num > ORXE_QPN_MASK)
		return -EINVAL;
	if (qp->ib.qp_type == OIB_QPT_UD || orxe_qp_special(qp)) {
		if (!wr->wr.ud.ah || wr->wr.ud.ah->pd != qp->ib.pd ||
		    wr->wr.ud.remote_qpn > ORXE_QPN_LAST)
			return -EINVAL;
	}
	return 0;
}

static void orxe_send_wqe_fill(struct orxe_send_wqe *wqe, const struct oib_send_wr *wr)
{
	int i;

	wqe->wr = *wr;
	wqe->wr.next = NULL;
	wqe->wr.sg_list = NULL;
	wqe->inline_len = 0;
	wqe->len = 0;
	wqe->status = OIB_WC_SUCCESS;
	wqe->rd_atomic = false;
	for (i = 0; i < wr->num_sge; i++)
		wqe->len += wr->sg_list[i].length;
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

int orxe_post_send(struct oib_qp *ibqp, const struct oib_send_wr *wr,
		   const struct oib_send_wr **bad_wr)
{
	struct orxe_qp *qp = to_rqp(ibqp);
	unsigned long flags;
	bool flush;
	int ret = 0;

	spin_lock_irqsave(&qp->sq_lock, flags);
	if (qp->state < OIB_QPS_RTR) {
		ret = -EINVAL;
		goto out;
	}
	for (; wr; wr = wr->next) {
		ret = orxe_check_send_wr(qp, wr);
		if (ret)
			break;
		if (orxe_queue_count(&qp->sq) >= qp->cap.max_send_wr) {
			ret = -ENOMEM;
			break;
		}
		orxe_send_wqe_fill(orxe_queue_tail(&qp->sq), wr);
		orxe_queue_push(&qp->sq);
	}
out:
	flush = qp->state == OIB_QPS_ERR;
	spin_unlock_irqrestore(&qp->sq_lock, flags);
	if (ret)
		*bad_wr = wr;
	if (flush)
		orxe_qp_flush(qp);
	else
		orxe_qp_kick(qp);
	return ret;
}

int orxe_post_recv(struct oib_qp *ibqp, const struct oib_recv_wr *wr,
		   const struct oib_recv_wr **bad_wr)
{
	struct orxe_qp *qp = to_rqp(ibqp);
	unsigned long flags;
	bool flush;
	int ret = 0;

	if (ibqp->srq || orxe_qp_xrc(qp)) {	/* receives are the SRQs' */
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->rq_lock, flags);
	if (qp->state == OIB_QPS_RESET) {
		ret = -EINVAL;
		goto out;
	}
	for (; wr; wr = wr->next) {
		if (orxe_queue_count(&qp->rq) >= qp->cap.max_recv_wr) {
			ret = -ENOMEM;
			break;
		}
		ret = orxe_recv_wqe_copy(orxe_queue_tail(&qp->rq), wr, qp->cap.max_recv_sge);
		if (ret)
			break;
		orxe_queue_push(&qp->rq);
	}
out:
	flush = qp->state == OIB_QPS_ERR;
	spin_unlock_irqrestore(&qp->rq_lock, flags);
	if (ret)
		*bad_wr = wr;
	if (flush)
		orxe_qp_flush(qp);
	return ret;
}

/* Pop the head of @q into @out, with at most @max_sge SGEs; false if @q is empty. */
static bool orxe_recv_pop(struct orxe_queue *q, struct orxe_recv_wqe *out, u32 max_sge)
{
	struct orxe_recv_wqe *wqe;

	if (orxe_queue_empty(q))
		return false;
	wqe = orxe_queue_head(q);
	out->wr_id = wqe->wr_id;
	out->num_sge = min(wqe->num_sge, max_sge);
	memcpy(out->sge, wqe->sge, out->num_sge * sizeof(out->sge[0]));
	orxe_queue_pop(q);
	return true;
}

/* Receives pulled from a source at a time, when the queue ran empty. */
#define ORXE_RECV_PULL		16

/*
 * Queue receives from @src (the consumer's: oib_recv_source) into @q until it holds @want, or
 * @cap, or the source has no more.  False if the source found a bad receive.
 */
static bool orxe_recv_pull(struct orxe_queue *q, u32 cap, u32 max_sge,
			   struct oib_recv_source *src, u32 want)
{
	struct orxe_recv_wqe *wqe;
	struct oib_recv_wr wr;
	int ret;

	while (orxe_queue_count(q) < min(want, cap)) {
		wqe = orxe_queue_tail(q);
		ret = src->pull(src, &wr, wqe->sge, max_sge, 0);
		if (ret <= 0)
			return !ret;
		wqe->wr_id = wr.wr_id;
		wqe->num_sge = wr.num_sge;
		orxe_queue_push(q);
	}
	return true;
}

/*
 * An SRQ's next receive.  With a source, the queue is refilled when it is empty or at its armed
 * limit, before the limit is checked: a limit is reached only when the queue and the source
 * together hold fewer receives (the limit is at most the capacity).
 */
static bool orxe_srq_take(struct orxe_srq *srq, struct orxe_recv_wqe *out, u32 max_sge, u8 *ev)
{
	struct oib_recv_source *src = srq->ib.recv_source;
	struct orxe_queue *q = &srq->queue;
	bool taken;

	spin_lock(&srq->lock);
	if (src && (orxe_queue_empty(q) || orxe_queue_count(q) <= srq->limit) &&
	    !orxe_recv_pull(q, orxe_queue_capacity(q), srq->max_sge, src,
			    max(srq->limit + 1, ORXE_RECV_PULL)))
		*ev |= ORXE_RECV_SRC_ERR;
	taken = orxe_recv_pop(q, out, max_sge);
	if (taken && srq->limit && orxe_queue_count(q) < srq->limit) {
		srq->limit = 0;		/* the event disarms the limit */
		*ev |= ORXE_RECV_LIMIT;
	}
	spin_unlock(&srq->lock);
	return taken;
}

/*
 * The next receive for @qp, from its SRQ (an XRC target's: the one the message names, held by
 * orxe_xrc_steer()) or RQ (refilled from a receive source when empty), copied out with at most
 * @max_sge SGEs; false if none is posted.  Under rq_lock.  *@ev says what orxe_recv_events()
 * must report once the caller has let go of the QP's locks.
 */
bool orxe_recv_take(struct orxe_qp *qp, struct orxe_recv_wqe *out, u32 max_sge, u8 *ev)
{
	struct oib_recv_source *src = qp->ib.recv_source;

	lockdep_assert_held(&qp->rq_lock);
	*ev = 0;
	if (qp->ib.qp_type == OIB_QPT_XRC_TGT)
		return orxe_srq_take(qp->resp.xsrq, out, max_sge, ev);	/* orxe_xrc_check()ed */
	if (qp->ib.srq)
		return orxe_srq_take(to_rsrq(qp->ib.srq), out, max_sge, ev);
	if (src && orxe_queue_empty(&qp->rq) &&
	    !orxe_recv_pull(&qp->rq, qp->cap.max_recv_wr, qp->cap.max_recv_sge, src,
			    ORXE_RECV_PULL))
		*ev |= ORXE_RECV_SRC_ERR;
	return orxe_recv_pop(&qp->rq, out, max_sge);
}

/* After orxe_recv_take(), without the QP's locks; @srq: the SRQ it took from, or NULL. */
void orxe_recv_events(struct orxe_qp *qp, struct oib_srq *srq, u8 ev)
{
	struct oib_event srq_ev = { .device = qp->ib.device, .element.srq = srq };

	if (ev & ORXE_RECV_LIMIT) {
		srq_ev.event = OIB_EVENT_SRQ_LIMIT_REACHED;
		oib_dispatch_event(&srq_ev);
	}
	if (!(ev & ORXE_RECV_SRC_ERR))
		return;
	if (srq) {
		srq_ev.event = OIB_EVENT_SRQ_ERR;
		oib_dispatch_event(&srq_ev);
	} else if (orxe_qp_err(qp)) {
		orxe_qp_event(qp, OIB_EVENT_QP_FATAL);
	}
}
