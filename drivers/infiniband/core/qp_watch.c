// SPDX-License-Identifier: GPL-2.0-only
/*
 * Watching a QP: how a connection manager learns, without a call from the ULP, that the passive
 * side of a connection has been reached (the 2006 design for the communication-established
 * event).  A QP in RTR becomes usable on whichever comes first of the CM's RTU, the QP's COMM_EST
 * event, or the first receive completion the ULP polls from it; the watch delivers the last two
 * to the CM: every QP event before the QP's own handler sees it, and the first receive
 * completion polled while the core records the QP in RTR.
 *
 * The poll path pays one atomic_read of its CQ's count of armed watches; only a CQ that has some
 * looks at its completions, and finds each one's watch by the QP number the provider recorded
 * (the CQ's watch_qps): a completion may be of a QP destroyed since, which it must not touch.
 * Callbacks run under rcu_read_lock() in the context of the poll or of the event (they must not
 * sleep); oib_qp_unwatch() waits for those in progress.
 */
#include <linux/rcupdate.h>
#include "core_priv.h"

int oib_qp_watch(struct oib_qp *qp, struct oib_qp_watch *watch)
{
	int ret;

	if (IS_ERR_OR_NULL(qp) || !watch || !watch->ops ||
	    (!watch->ops->event && !watch->ops->first_recv))
		return -EINVAL;
	if ((watch->ops->first_recv && !qp->recv_cq) || qp->real_qp)	/* XRC */
		return -EINVAL;
	mutex_lock(&qp->mutex);
	if (rcu_access_pointer(qp->watch)) {
		mutex_unlock(&qp->mutex);
		return -EBUSY;
	}
	watch->qp = qp;
	watch->armed = 0;
	if (watch->ops->first_recv) {
		ret = xa_insert(&qp->recv_cq->watch_qps, qp->qp_num, watch, GFP_KERNEL);
		if (ret) {
			mutex_unlock(&qp->mutex);
			return ret;
		}
		set_bit(0, &watch->armed);
		atomic_inc(&qp->recv_cq->watches);
	}
	rcu_assign_pointer(qp->watch, watch);
	mutex_unlock(&qp->mutex);
	return 0;
}
EXPORT_SYMBOL(oib_qp_watch);

/* Disarm @watch's receive hook; true if this call did (it was armed). */
static bool oib_qp_watch_disarm(struct oib_qp_watch *watch)
{
	if (!test_and_clear_bit(0, &watch->armed))
		return false;
	atomic_dec(&watch->qp->recv_cq->watches);
	return true;
}

void oib_qp_unwatch(struct oib_qp_watch *watch)
{
	struct oib_qp *qp = watch->qp;

	if (!qp)
		return;
	mutex_lock(&qp->mutex);
	if (!WARN_ON(rcu_access_pointer(qp->watch) != watch)) {
		RCU_INIT_POINTER(qp->watch, NULL);
		oib_qp_watch_disarm(watch);
		if (watch->ops->first_recv)
			xa_erase(&qp->recv_cq->watch_qps, qp->qp_num);
	}
	mutex_unlock(&qp->mutex);
	synchronize_rcu();	/* no callback of @watch runs after this */
	watch->qp = NULL;
}
EXPORT_SYMBOL(oib_qp_unwatch);

/* A QP event, to its watch first (oib_dispatch_event()). */
void oib_qp_watch_event(struct oib_qp *qp, const struct oib_event *event)
{
	struct oib_qp_watch *watch;

	rcu_read_lock();
	watch = rcu_dereference(qp->watch);
	if (watch && watch->ops->event)
		watch->ops->event(watch, event);
	rcu_read_unlock();
}

/*
 * Completions polled from @cq, which has armed watches: the first good receive of a QP in RTR.
 * The watch is the one of the completion's QP number, and of its very QP (compared, never read:
 * a number may have been given again to a QP made since).
 */
void oib_qp_watch_polled(struct oib_cq *cq, const struct oib_wc *wc, int n)
{
	struct oib_qp_watch *watch;
	int i;

	rcu_read_lock();
	for (i = 0; i < n; i++) {
		if (wc[i].status != OIB_WC_SUCCESS || !(wc[i].opcode & OIB_WC_RECV))
			continue;
		watch = xa_load(&cq->watch_qps, wc[i].qp_num);
		if (watch && watch->qp == wc[i].qp && test_bit(0, &watch->armed) &&
		    READ_ONCE(watch->qp->state) == OIB_QPS_RTR && oib_qp_watch_disarm(watch))
			watch->ops->first_recv(watch);
	}
	rcu_read_unlock();
}
