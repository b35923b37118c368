// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CQ of a software provider (struct oib_sw_cq in <oib/sw.h>): the ring the transport posts
 * completions into and the consumer polls, the arming, and overflow into the CQ's error state.
 * Posting and polling take the CQ's lock only; the handlers run from the CQ's work item.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <oib/sw.h>

/* The CQ's event and handler call, in process context, outside the lock. */
static void oib_sw_cq_work(struct work_struct *work)
{
	struct oib_sw_cq *cq = container_of(work, struct oib_sw_cq, work);
	struct oib_event ev = { .device = cq->ib.device, .element.cq = &cq->ib,
				.event = OIB_EVENT_CQ_ERR };
	u8 pending;

	spin_lock_irq(&cq->lock);
	pending = cq->pending;
	cq->pending = 0;
	spin_unlock_irq(&cq->lock);

	if (pending & OIB_SW_CQ_ERROR)
		oib_dispatch_event(&ev);
	if ((pending & OIB_SW_CQ_WAKE) && cq->ib.comp_handler)
		cq->ib.comp_handler(&cq->ib, cq->ib.cq_context);
}

int oib_sw_cq_init(struct oib_sw_cq *cq, const struct oib_cq_init_attr *attr,
		   struct workqueue_struct *wq, int cpu)
{
	u32 n = roundup_pow_of_two(max(attr->cqe, 1U));

	cq->ring = kvcalloc(n, sizeof(*cq->ring), GFP_KERNEL);
	if (!cq->ring)
		return -ENOMEM;
	cq->mask = n - 1;
	cq->prod = 0;
	cq->cons = 0;
	cq->notify = 0;
	cq->overflow = false;
	cq->pending = 0;
	cq->cpu = cpu;
	cq->wq = wq;
	spin_lock_init(&cq->lock);
	INIT_WORK(&cq->work, oib_sw_cq_work);
	cq->ib.cqe = n;
	return 0;
}
EXPORT_SYMBOL(oib_sw_cq_init);

void oib_sw_destroy_cq(struct oib_cq *ib)
{
	struct oib_sw_cq *cq = oib_sw_cq(ib);

	spin_lock_irq(&cq->lock);
	cq->notify = 0;
	cq->pending = 0;
	spin_unlock_irq(&cq->lock);
	cancel_work_sync(&cq->work);
	kvfree(cq->ring);
	cq->ring = NULL;
}
EXPORT_SYMBOL(oib_sw_destroy_cq);

int oib_sw_poll_cq(struct oib_cq *ib, int num_entries, struct oib_wc *wc)
{
	struct oib_sw_cq *cq = oib_sw_cq(ib);
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&cq->lock, flags);
	while (n < num_entries && cq->cons != cq->prod)
		wc[n++] = cq->ring[cq->cons++ & cq->mask];
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}
EXPORT_SYMBOL(oib_sw_poll_cq);

/* 1 with OIB_CQ_REPORT_MISSED_EVENTS if completions wait already, else 0. */
int oib_sw_req_notify_cq(struct oib_cq *ib, enum oib_cq_notify_flags flags)
{
	struct oib_sw_cq *cq = oib_sw_cq(ib);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	/* NEXT_COMP covers SOLICITED: never downgrade an arming. */
	if (cq->notify != OIB_CQ_NEXT_COMP)
		cq->notify = flags & OIB_CQ_SOLICITED_MASK;
	if ((flags & OIB_CQ_REPORT_MISSED_EVENTS) && cq->cons != cq->prod)
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}
EXPORT_SYMBOL(oib_sw_req_notify_cq);

void oib_sw_cq_post(struct oib_sw_cq *cq, const struct oib_wc *wc, bool solicited)
{
	unsigned long flags;
	u8 was;

	spin_lock_irqsave(&cq->lock, flags);
	was = cq->pending;
	if (cq->overflow) {
		/* in error already: the completion is lost */
	} else if (cq->prod - cq->cons > cq->mask) {
		cq->overflow = true;
		cq->pending |= OIB_SW_CQ_ERROR;
	} else {
		struct oib_wc *e = &cq->ring[cq->prod++ & cq->mask];

		*e = *wc;
		e->qp_num = wc->qp ? wc->qp->qp_num : 0;
		if (solicited)
			e->wc_flags |= OIB_WC_SOLICITED;
		if (cq->notify == OIB_CQ_NEXT_COMP ||
		    (cq->notify == OIB_CQ_SOLICITED && (solicited || wc->status))) {
			cq->notify = 0;
			cq->pending |= OIB_SW_CQ_WAKE;
		}
	}
	if (cq->pending != was)
		queue_work_on(cq->cpu, cq->wq, &cq->work);
	spin_unlock_irqrestore(&cq->lock, flags);
}
EXPORT_SYMBOL(oib_sw_cq_post);

void oib_sw_cq_flush(struct oib_sw_cq *cq)
{
	flush_work(&cq->work);
}
EXPORT_SYMBOL(oib_sw_cq_flush);
