// SPDX-License-Identifier: GPL-2.0-only
/*
 * XRC target QPs shared the upstream way: any holder of the domain may open an owner's target QP
 * by its number and get a handle of its own, with its own event handler.
 *
 * References, under xrcd->lock: qp->openers counts the creator (until its oib_destroy_qp()) and
 * every handle (until oib_close_qp()); the QP is destroyed when the count reaches zero, and is in
 * the domain's tgt_qps, where opening finds it, until then.  Handles are on the QP's open_list,
 * which event delivery walks under RCU: closing takes a handle off and waits for a grace period,
 * so no handler of a closed handle (nor the creator's, once it let go) runs afterwards.  A handle
 * is core memory only: modify and query act on the QP, posting is refused.
 */
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include "core_priv.h"

/* A new owner's target QP: openable from now on. */
int oib_xrc_tgt_add(struct oib_qp *qp)
{
	struct oib_xrcd *xrcd = qp->xrcd;
	int ret;

	qp->openers = 1;	/* the creator */
	mutex_lock(&xrcd->lock);
	ret = xa_insert(&xrcd->tgt_qps, qp->qp_num, qp, GFP_KERNEL);
	mutex_unlock(&xrcd->lock);
	return ret;
}

/* Drop one opener of @qp; true if it was the last: the QP is unfindable, the caller destroys. */
static bool oib_xrc_tgt_put_locked(struct oib_qp *qp)
{
	lockdep_assert_held(&qp->xrcd->lock);
	if (--qp->openers)
		return false;
	xa_erase(&qp->xrcd->tgt_qps, qp->qp_num);
	return true;
}

/* The creator's oib_destroy_qp(): the QP goes with its last opener. */
int oib_xrc_tgt_destroy(struct oib_qp *qp)
{
	struct oib_xrcd *xrcd = qp->xrcd;
	bool last;

	mutex_lock(&xrcd->lock);
	last = oib_xrc_tgt_put_locked(qp);
	if (!last)
		WRITE_ONCE(qp->event_handler, NULL);	/* the creator hears no more */
	mutex_unlock(&xrcd->lock);
	if (last)
		return oib_destroy_qp_now(qp);
	synchronize_rcu();	/* its handler is not running either */
	return 0;
}

struct oib_qp *oib_open_qp(struct oib_xrcd *xrcd, const struct oib_qp_open_attr *attr)
{
	struct oib_qp *qp, *real;

	if (IS_ERR_OR_NULL(xrcd) || !attr)
		return ERR_PTR(-EINVAL);
	if (attr->qp_type != OIB_QPT_XRC_TGT)
		return ERR_PTR(-EOPNOTSUPP);
	qp = kzalloc(sizeof(*qp), GFP_KERNEL);
	if (!qp)
		return ERR_PTR(-ENOMEM);

	mutex_lock(&xrcd->lock);
	real = xa_load(&xrcd->tgt_qps, attr->qp_num);
	if (!real) {
		mutex_unlock(&xrcd->lock);
		kfree(qp);
		return ERR_PTR(-ENOENT);
	}
	qp->device = real->device;
	qp->xrcd = xrcd;
	qp->qp_num = real->qp_num;
	qp->qp_type = OIB_QPT_XRC_TGT;
	qp->state = OIB_QPS_RESET;	/* never read: modify and query go to real */
	qp->event_handler = attr->event_handler;
	qp->qp_context = attr->qp_context;
	qp->real_qp = real;
	INIT_LIST_HEAD(&qp->open_list);
	mutex_init(&qp->mutex);
	real->openers++;
	atomic_inc(&xrcd->usecnt);
	list_add_tail_rcu(&qp->open_entry, &real->open_list);
	mutex_unlock(&xrcd->lock);
	return qp;
}
EXPORT_SYMBOL(oib_open_qp);

int oib_close_qp(struct oib_qp *qp)
{
	struct oib_xrcd *xrcd;
	struct oib_qp *real;
	bool last;

	if (IS_ERR_OR_NULL(qp) || !qp->real_qp)
		return -EINVAL;
	real = qp->real_qp;
	xrcd = qp->xrcd;
	mutex_lock(&xrcd->lock);
	list_del_rcu(&qp->open_entry);
	last = oib_xrc_tgt_put_locked(real);
	mutex_unlock(&xrcd->lock);
	synchronize_rcu();	/* no event handler of @qp runs any more */
	mutex_destroy(&qp->mutex);
	kfree(qp);
	if (last)
		oib_destroy_qp_now(real);
	atomic_dec(&xrcd->usecnt);
	return 0;
}
EXPORT_SYMBOL(oib_close_qp);

/* An event of @qp: to its creator, while it has it, and to every handle, each as its own QP. */
void oib_xrc_tgt_event(struct oib_qp *qp, struct oib_event *event)
{
	oib_event_handler_t handler;
	struct oib_event ev;
	struct oib_qp *h;

	rcu_read_lock();
	handler = READ_ONCE(qp->event_handler);
	if (handler)
		handler(event, qp->qp_context);
	list_for_each_entry_rcu(h, &qp->open_list, open_entry) {
		if (!h->event_handler)
			continue;
		ev = *event;
		ev.element.qp = h;
		h->event_handler(&ev, h->qp_context);
	}
	rcu_read_unlock();
}
