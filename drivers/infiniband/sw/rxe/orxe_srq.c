// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared receive queues, and the receive WQE format they share with QP receive queues.  XRC SRQs
 * are numbered for the wire (orxe_xrc.c).
 */
#include <linux/module.h>
#include "orxe.h"

static size_t orxe_recv_wqe_size(u32 max_sge)
{
	return struct_size_t(struct orxe_recv_wqe, sge, max_sge);
}

int orxe_recv_wqe_copy(struct orxe_recv_wqe *wqe, const struct oib_recv_wr *wr, u32 max_sge)
{
	if (wr->num_sge < 0 || wr->num_sge > max_sge || (wr->num_sge && !wr->sg_list))
		return -EINVAL;
	wqe->wr_id = wr->wr_id;
	wqe->num_sge = wr->num_sge;
	memcpy(wqe->sge, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
	return 0;
}

int orxe_create_srq(struct oib_srq *ibsrq, struct oib_srq_init_attr *init)
{
	struct orxe_srq *srq = to_rsrq(ibsrq);
	u32 n = init->attr.max_wr;
	int ret;

	ret = orxe_queue_init(&srq->queue, &n, orxe_recv_wqe_size(init->attr.max_sge));
	if (ret)
		return ret;
	spin_lock_init(&srq->lock);
	srq->max_sge = init->attr.max_sge;
	srq->limit = init->attr.srq_limit;
	if (ibsrq->srq_type == OIB_SRQT_XRC) {
		ret = orxe_xrc_srq_number(to_rdev(ibsrq->device), srq);
		if (ret) {
			orxe_queue_free(&srq->queue);
			return ret;
		}
	}
	init->attr.max_wr = n;
	return 0;
}

int orxe_modify_srq(struct oib_srq *ibsrq, struct oib_srq_attr *attr, enum oib_srq_attr_mask mask)
{
	struct orxe_srq *srq = to_rsrq(ibsrq);
	int ret = 0;

	if (mask & OIB_SRQ_MAX_WR)	/* we do not advertise OIB_DEVICE_SRQ_RESIZE */
		return -EOPNOTSUPP;

	spin_lock_irq(&srq->lock);
	if (attr->srq_limit > orxe_queue_capacity(&srq->queue))
		ret = -EINVAL;
	else
		srq->limit = attr->srq_limit;
	spin_unlock_irq(&srq->lock);
	return ret;
}

int orxe_query_srq(struct oib_srq *ibsrq, struct oib_srq_attr *attr)
{
	struct orxe_srq *srq = to_rsrq(ibsrq);

	spin_lock_irq(&srq->lock);
	attr->max_wr = orxe_queue_capacity(&srq->queue);
	attr->max_sge = srq->max_sge;
	attr->srq_limit = srq->limit;
	spin_unlock_irq(&srq->lock);
	return 0;
}

void orxe_destroy_srq(struct oib_srq *ibsrq)
{
	if (ibsrq->srq_type == OIB_SRQT_XRC)
		orxe_xrc_srq_unnumber(to_rdev(ibsrq->device), to_rsrq(ibsrq));
	orxe_queue_free(&to_rsrq(ibsrq)->queue);
}

int orxe_post_srq_recv(struct oib_srq *ibsrq, const struct oib_recv_wr *wr,
		       const struct oib_recv_wr **bad_wr)
{
	struct orxe_srq *srq = to_rsrq(ibsrq);
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&srq->lock, flags);
	for (; wr; wr = wr->next) {
		if (orxe_queue_full(&srq->queue)) {
			ret = -ENOMEM;
			break;
		}
		ret = orxe_recv_wqe_copy(orxe_queue_tail(&srq->queue), wr, srq->max_sge);
		if (ret)
			break;
		orxe_queue_push(&srq->queue);
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	if (ret)
		*bad_wr = wr;
	return ret;
}
