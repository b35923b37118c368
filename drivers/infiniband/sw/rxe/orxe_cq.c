// SPDX-License-Identifier: GPL-2.0-only
/* Completion queues: the ring, arming, the completion handler, and overflow. */
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/topology.h>
#include "orxe.h"

/* The CQ's events and handler calls, in process context, outside every lock of the data path. */
static void orxe_cq_comp_work(struct work_struct *work)
{
	struct orxe_cq *cq = container_of(work, struct orxe_cq, comp_work);
	struct oib_event ev = { .device = cq->ib.device, .element.cq = &cq->ib,
				.event = OIB_EVENT_CQ_ERR };
	u8 pending;

	spin_lock_irq(&cq->lock);
	pending = cq->pending;
	cq->pending = 0;
	spin_unlock_irq(&cq->lock);

	if (pending & ORXE_CQ_ERR_EVENT)
		oib_dispatch_event(&ev);
	if ((pending & ORXE_CQ_WAKE) && cq->ib.comp_handler)
		cq->ib.comp_handler(&cq->ib, cq->ib.cq_context);
}

/* Tests: wait until a handler call or event the CQ had queued has run. */
void oib_rxe_cq_flush(struct oib_cq *ibcq)
{
	flush_work(&to_rcq(ibcq)->comp_work);
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_cq_flush);

int orxe_create_cq(struct oib_cq *ibcq, const struct oib_cq_init_attr *attr)
{
	struct orxe_cq *cq = to_rcq(ibcq);
	u32 n = attr->cqe;
	int ret;

	ret = orxe_queue_init(&cq->queue, &n, sizeof(struct oib_wc));
	if (ret)
		return ret;
	spin_lock_init(&cq->lock);
	INIT_WORK(&cq->comp_work, orxe_cq_comp_work);
	cq->cpu = cpumask_local_spread(attr->comp_vector, NUMA_NO_NODE);
	ibcq->cqe = n;
	return 0;
}

void orxe_destroy_cq(struct oib_cq *ibcq)
{
	struct orxe_cq *cq = to_rcq(ibcq);

	spin_lock_irq(&cq->lock);
	cq->notify = 0;
	spin_unlock_irq(&cq->lock);
	cancel_work_sync(&cq->comp_work);
	orxe_queue_free(&cq->queue);
}

int orxe_poll_cq(struct oib_cq *ibcq, int num_entries, struct oib_wc *wc)
{
	struct orxe_cq *cq = to_rcq(ibcq);
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&cq->lock, flags);
	while (n < num_entries && !orxe_queue_empty(&cq->queue)) {
		wc[n++] = *(struct oib_wc *)orxe_queue_head(&cq->queue);
		orxe_queue_pop(&cq->queue);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

int orxe_req_notify_cq(struct oib_cq *ibcq, enum oib_cq_notify_flags flags)
{
	struct orxe_cq *cq = to_rcq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	/* NEXT_COMP covers SOLICITED: never downgrade an arming. */
	if (cq->notify != OIB_CQ_NEXT_COMP)
		cq->notify = flags & OIB_CQ_SOLICITED_MASK;
	if ((flags & OIB_CQ_REPORT_MISSED_EVENTS) && !orxe_queue_empty(&cq->queue))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

/*
 * Add a completion.  A full CQ loses it, raises OIB_EVENT_CQ_ERR once, and stays in error: the
 * consumer's only recovery is to destroy it (IBTA: CQ overrun is an affiliated error).  Callable
 * under the QP's locks: the event and the handler run later, from comp_work.
 */
void orxe_cq_post(struct orxe_cq *cq, const struct oib_wc *wc, bool solicited)
{
	unsigned long flags;
	u8 was;

	spin_lock_irqsave(&cq->lock, flags);
	was = cq->pending;
	if (cq->overflow) {
		/* already in error: completions are lost silently */
	} else if (orxe_queue_full(&cq->queue)) {
		cq->overflow = true;
		cq->pending |= ORXE_CQ_ERR_EVENT;
	} else {
		struct oib_wc *e = orxe_queue_tail(&cq->queue);

		*e = *wc;
		e->qp_num = wc->qp ? wc->qp->qp_num : 0;
		if (solicited)
			e->wc_flags |= OIB_WC_SOLICITED;
		orxe_queue_push(&cq->queue);
		if (cq->notify == OIB_CQ_NEXT_COMP ||
		    (cq->notify == OIB_CQ_SOLICITED && (solicited || wc->status))) {
			cq->notify = 0;
			cq->pending |= ORXE_CQ_WAKE;
		}
	}
	if (cq->pending != was)
		queue_work_on(cq->cpu, to_rdev(cq->ib.device)->comp_wq, &cq->comp_work);
	spin_unlock_irqrestore(&cq->lock, flags);
}
