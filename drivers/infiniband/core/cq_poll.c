// SPDX-License-Identifier: GPL-2.0-only
/*
 * CQs the core polls: a poll context per CQ, completions delivered to the struct oib_cqe each
 * request carries, and the per-device pool of such CQs.
 *
 * A CQ made by oib_alloc_cq() is an oib_create_cq() CQ whose completion handler hands the polling
 * to its poll context: SOFTIRQ schedules the CQ's irq_poll, the WORKQUEUE contexts queue its work
 * item; DIRECT has no handler (the ULP polls).  A round polls at most cq->budget completions; when
 * the budget ran out it is scheduled again, else the CQ is re-armed with
 * OIB_CQ_REPORT_MISSED_EVENTS and polled again if completions slipped in before the arming.
 *
 * Lifetime: the owner frees an oib_alloc_cq() CQ with oib_free_cq(); a pool CQ belongs to the
 * pool (device->cq_pools) and is freed at unregistration; neither has a refcount.  The pool's users
 * are counted in entries (cqe_used), not references: a put that gives back more than was taken
 * is refused.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include <oib/kunit/core.h>
#include "core_priv.h"

#define OIB_POLL_BATCH		16	/* completions taken from the provider per poll call */
#define OIB_POLL_BUDGET_SOFTIRQ	256
#define OIB_POLL_BUDGET_WQ	65536
#define OIB_CQ_POOL_CQE		1024	/* the least a pool CQ has */

static struct workqueue_struct *oib_comp_wq;
static struct workqueue_struct *oib_comp_unbound_wq;

/* Poll @cq for at most @budget completions into @wcs (@batch at a time) and deliver them. */
static int oib_cq_process(struct oib_cq *cq, struct oib_wc *wcs, int batch, int budget)
{
	int i, n, done = 0;

	while (done < budget) {
		n = oib_poll_cq(cq, min(batch, budget - done), wcs);
		for (i = 0; i < n; i++) {
			if (likely(wcs[i].wr_cqe))
				wcs[i].wr_cqe->done(cq, &wcs[i]);
			else	/* a ULP bug: a request posted without its callback */
				WARN_ON_ONCE(wcs[i].status == OIB_WC_SUCCESS);
		}
		if (n <= 0)
			break;
		done += n;
		if (n < batch)
			break;
	}
	return done;
}

/* Arm @cq again; true if completions may have come in before the arming (poll again). */
static bool oib_cq_rearm(struct oib_cq *cq)
{
	return oib_req_notify_cq(cq, OIB_CQ_NEXT_COMP | OIB_CQ_REPORT_MISSED_EVENTS) > 0;
}

int oib_process_cq_direct(struct oib_cq *cq, int budget)
{
	struct oib_wc wcs[8];

	if (IS_ERR_OR_NULL(cq) || !cq->managed || cq->poll_ctx != OIB_POLL_DIRECT || budget <= 0)
		return -EINVAL;
	return oib_cq_process(cq, wcs, ARRAY_SIZE(wcs), budget);
}
EXPORT_SYMBOL(oib_process_cq_direct);

static int oib_cq_poll_softirq(struct irq_poll *iop, int budget)
{
	struct oib_cq *cq = container_of(iop, struct oib_cq, iop);
	int done;

	atomic_inc(&cq->rounds);
	done = oib_cq_process(cq, cq->wc, OIB_POLL_BATCH, budget);
	if (done < budget) {
		irq_poll_complete(&cq->iop);
		if (oib_cq_rearm(cq))
			irq_poll_sched(&cq->iop);
	}
	return done;
}

/* The provider's handler runs in process context: let the softirq run when it is scheduled. */
static void oib_cq_comp_softirq(struct oib_cq *cq, void *private)
{
	local_bh_disable();
	irq_poll_sched(&cq->iop);
	local_bh_enable();
}

static void oib_cq_poll_work(struct work_struct *work)
{
	struct oib_cq *cq = container_of(work, struct oib_cq, work);
	int done;

	if (READ_ONCE(cq->dying))
		return;
	atomic_inc(&cq->rounds);
	done = oib_cq_process(cq, cq->wc, OIB_POLL_BATCH, cq->budget);
	if (done >= cq->budget || oib_cq_rearm(cq))
		queue_work(cq->comp_wq, &cq->work);
}

static void oib_cq_comp_wq(struct oib_cq *cq, void *private)
{
	queue_work(cq->comp_wq, &cq->work);
}

static int oib_cq_poller_init(struct oib_cq *cq, enum oib_poll_context poll_ctx)
{
	cq->poll_ctx = poll_ctx;
	atomic_set(&cq->rounds, 0);
	INIT_LIST_HEAD(&cq->pool_entry);
	if (poll_ctx == OIB_POLL_DIRECT)
		return 0;

	cq->wc = kmalloc_array(OIB_POLL_BATCH, sizeof(*cq->wc), GFP_KERNEL);
	if (!cq->wc)
		return -ENOMEM;
	if (poll_ctx == OIB_POLL_SOFTIRQ) {
		cq->budget = OIB_POLL_BUDGET_SOFTIRQ;
		irq_poll_init(&cq->iop, cq->budget, oib_cq_poll_softirq);
	} else {
		cq->budget = OIB_POLL_BUDGET_WQ;
		cq->comp_wq = poll_ctx == OIB_POLL_WORKQUEUE ? oib_comp_wq : oib_comp_unbound_wq;
		INIT_WORK(&cq->work, oib_cq_poll_work);
	}
	return 0;
}

struct oib_cq *oib_alloc_cq(struct oib_device *device, void *private, u32 nr_cqe, u32 comp_vector,
			    enum oib_poll_context poll_ctx)
{
	static const oib_comp_handler_t handlers[] = {
		[OIB_POLL_SOFTIRQ] = oib_cq_comp_softirq,
		[OIB_POLL_WORKQUEUE] = oib_cq_comp_wq,
		[OIB_POLL_UNBOUND_WORKQUEUE] = oib_cq_comp_wq,
		[OIB_POLL_DIRECT] = NULL,
	};
	struct oib_cq_init_attr attr = { .cqe = nr_cqe, .comp_vector = comp_vector };
	struct oib_cq *cq;
	int ret;

	if (poll_ctx > OIB_POLL_DIRECT)
		return ERR_PTR(-EINVAL);
	cq = oib_create_cq(device, handlers[poll_ctx], NULL, private, &attr);
	if (IS_ERR(cq))
		return cq;
	ret = oib_cq_poller_init(cq, poll_ctx);
	if (ret) {
		oib_destroy_cq(cq);
		return ERR_PTR(ret);
	}
	cq->managed = true;
	oib_res_caller(&cq->res, _RET_IP_);
	if (poll_ctx != OIB_POLL_DIRECT)
		oib_req_notify_cq(cq, OIB_CQ_NEXT_COMP);
	return cq;
}
EXPORT_SYMBOL(oib_alloc_cq);

/*
 * Stop the poller, then destroy: the provider's handler may start the poller until its destroy
 * returns, so SOFTIRQ's irq_poll is disabled for good first (it cannot be scheduled again), and a
 * WORKQUEUE work item queued from here on finds cq->dying and does nothing.
 */
static void oib_cq_release(struct oib_cq *cq)
{
	if (cq->poll_ctx == OIB_POLL_SOFTIRQ) {
		irq_poll_disable(&cq->iop);
	} else if (cq->poll_ctx != OIB_POLL_DIRECT) {
		WRITE_ONCE(cq->dying, true);
		cancel_work_sync(&cq->work);
	}
	oib_cq_destroy(cq);
}

/* oib_cq_destroy(), once the provider's handler is gone: the last work item a handler queued. */
void oib_cq_poller_stop(struct oib_cq *cq)
{
	if (cq->poll_ctx == OIB_POLL_WORKQUEUE || cq->poll_ctx == OIB_POLL_UNBOUND_WORKQUEUE)
		cancel_work_sync(&cq->work);
	kfree(cq->wc);
}

int oib_free_cq(struct oib_cq *cq)
{
	if (IS_ERR_OR_NULL(cq) || !cq->managed || cq->shared)
		return -EINVAL;
	if (atomic_read(&cq->usecnt))
		return -EBUSY;
	oib_cq_release(cq);
	return 0;
}
EXPORT_SYMBOL(oib_free_cq);

/* Take @nr_cqe entries of a pool CQ of @list on @vector, if one has room; under cq_pools_lock. */
static struct oib_cq *oib_cq_pool_take_locked(struct oib_device *device, struct list_head *list,
					      u32 vector, u32 nr_cqe)
{
	struct oib_cq *cq;

	lockdep_assert_held(&device->cq_pools_lock);
	list_for_each_entry(cq, list, pool_entry) {
		if (cq->comp_vector == vector && cq->cqe - cq->cqe_used >= nr_cqe) {
			cq->cqe_used += nr_cqe;
			return cq;
		}
	}
	return NULL;
}

static u32 oib_cq_pool_vector(struct oib_device *device, int hint)
{
	u32 n = device->attrs.num_comp_vectors;

	if (hint < 0)
		hint = atomic_inc_return(&device->cq_pool_next) & INT_MAX;
	return (u32)hint % n;
}

struct oib_cq *oib_cq_pool_get(struct oib_device *device, u32 nr_cqe, int comp_vector_hint,
			       enum oib_poll_context poll_ctx)
{
	struct list_head *list;
	struct oib_cq *cq;
	u32 vector;

	if (IS_ERR_OR_NULL(device) || poll_ctx > OIB_POLL_LAST_POOL_TYPE || !nr_cqe ||
	    nr_cqe > device->attrs.max_cqe || !device->attrs.num_comp_vectors)
		return ERR_PTR(-EINVAL);
	list = &device->cq_pools[poll_ctx];
	vector = oib_cq_pool_vector(device, comp_vector_hint);

	spin_lock_irq(&device->cq_pools_lock);
	cq = oib_cq_pool_take_locked(device, list, vector, nr_cqe);
	spin_unlock_irq(&device->cq_pools_lock);
	if (cq)
		return cq;

	cq = oib_alloc_cq(device, NULL, min(max(nr_cqe, OIB_CQ_POOL_CQE), device->attrs.max_cqe),
			  vector, poll_ctx);
	if (IS_ERR(cq))
		return cq;
	cq->shared = true;
	cq->cqe_used = nr_cqe;
	spin_lock_irq(&device->cq_pools_lock);
	list_add_tail(&cq->pool_entry, list);
	spin_unlock_irq(&device->cq_pools_lock);
	return cq;
}
EXPORT_SYMBOL(oib_cq_pool_get);

int oib_cq_pool_put(struct oib_cq *cq, u32 nr_cqe)
{
	struct oib_device *device;
	unsigned long flags;
	int ret = 0;

	if (IS_ERR_OR_NULL(cq) || !cq->shared || !nr_cqe)
		return -EINVAL;
	device = cq->device;
	spin_lock_irqsave(&device->cq_pools_lock, flags);
	if (nr_cqe > cq->cqe_used)
		ret = -EINVAL;
	else
		cq->cqe_used -= nr_cqe;
	spin_unlock_irqrestore(&device->cq_pools_lock, flags);
	return ret;
}
EXPORT_SYMBOL(oib_cq_pool_put);

/* Unregistration, after the clients are gone: free every pool CQ. */
void oib_cq_pool_destroy(struct oib_device *device)
{
	struct oib_cq *cq, *next;
	LIST_HEAD(all);
	int i;

	spin_lock_irq(&device->cq_pools_lock);
	for (i = 0; i < ARRAY_SIZE(device->cq_pools); i++)
		list_splice_init(&device->cq_pools[i], &all);
	spin_unlock_irq(&device->cq_pools_lock);

	list_for_each_entry_safe(cq, next, &all, pool_entry) {
		list_del(&cq->pool_entry);
		if (cq->cqe_used || atomic_read(&cq->usecnt)) {
			dev_err(&device->dev, "pool CQ still in use (%u entries, %d QPs)\n",
				cq->cqe_used, atomic_read(&cq->usecnt));
			continue;	/* its QPs are reported as leftovers */
		}
		oib_cq_release(cq);
	}
}

int oib_cq_poll_init(void)
{
	oib_comp_wq = alloc_workqueue("oib_comp_wq", WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	if (!oib_comp_wq)
		return -ENOMEM;
	oib_comp_unbound_wq = alloc_workqueue("oib_comp_unbound_wq",
					      WQ_UNBOUND | WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	if (!oib_comp_unbound_wq) {
		destroy_workqueue(oib_comp_wq);
		return -ENOMEM;
	}
	return 0;
}

void oib_cq_poll_exit(void)
{
	destroy_workqueue(oib_comp_unbound_wq);
	destroy_workqueue(oib_comp_wq);
}

#if IS_ENABLED(CONFIG_KUNIT)
int oib_cq_set_budget(struct oib_cq *cq, u32 budget)
{
	if (IS_ERR_OR_NULL(cq) || !cq->managed || cq->poll_ctx == OIB_POLL_DIRECT || !budget ||
	    budget > INT_MAX)
		return -EINVAL;
	cq->budget = budget;
	if (cq->poll_ctx == OIB_POLL_SOFTIRQ)
		WRITE_ONCE(cq->iop.weight, budget);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_cq_set_budget);
#endif
