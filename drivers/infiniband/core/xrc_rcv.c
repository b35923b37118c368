// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel-owned XRC receive QPs: the 2007 XRC receive-QP design.  A process that made the XRC
 * target QP its peers send to may exit while other processes still receive on their XRC SRQs
 * behind it; so the QP is made by, and belongs to, the domain: no process owns it, the caller
 * gets only its number, and the domain destroys it.
 *
 * References, under xrcd->lock: the domain holds one on each of its receive QPs while it has
 * holders, and every registration (oib_reg_xrc_rcv_qp()) holds one; the last one destroys the
 * QP.  Each live receive QP holds the domain's memory (xrcd->memref), so a registration that
 * outlives the domain's holders still finds it.  The QP is brought to RTR here, from the modify
 * table's own rows, and never sends: errors put it in ERR, and then the remote requester's
 * retries run out (RETRY_EXC_ERR).  Its async events go to oib_xrc_rcv_event(): logged and
 * counted in xrcd->rcv_events.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "core_priv.h"

struct oib_xrc_rcv_qp {
	struct oib_qp *qp;
	unsigned int refs;	/* under xrcd->lock: the domain's, and one per registration */
};

static void oib_xrc_rcv_event(struct oib_event *event, void *context)
{
	struct oib_xrcd *xrcd = context;
	struct oib_qp *qp = event->element.qp;

	atomic_inc(&xrcd->rcv_events);
	dev_info_ratelimited(&xrcd->device->dev, "XRC receive QP %u: async event %s\n",
			     qp->qp_num, oib_event_msg(event->event));
}

/* The bits of @mask the @cur -> @next row of the table takes, required or optional. */
static int oib_xrc_rcv_step(struct oib_qp *qp, const struct oib_qp_attr *attr, int mask,
			    enum oib_qp_state next)
{
	struct oib_qp_attr a = *attr;
	u32 req, opt;

	oib_qp_table_masks(qp->state, next, OIB_QPT_XRC_TGT, &req, &opt);
	a.qp_state = next;
	return oib_modify_qp(qp, &a, (mask & (req | opt)) | OIB_QP_STATE);
}

/* Every bit @mask has must be taken by RESET->INIT or INIT->RTR. */
static bool oib_xrc_rcv_mask_ok(int mask)
{
	u32 req1, opt1, req2, opt2;

	oib_qp_table_masks(OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPT_XRC_TGT, &req1, &opt1);
	oib_qp_table_masks(OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPT_XRC_TGT, &req2, &opt2);
	return !(mask & ~(req1 | opt1 | req2 | opt2));
}

static int oib_xrc_rcv_insert(struct oib_xrcd *xrcd, struct oib_qp *qp)
{
	struct oib_xrc_rcv_qp *rq = kzalloc(sizeof(*rq), GFP_KERNEL);
	int ret;

	if (!rq)
		return -ENOMEM;
	rq->qp = qp;
	rq->refs = 1;		/* the domain's */
	ret = xa_insert(&xrcd->device->xrc_rcv_qps, qp->qp_num, xrcd, GFP_KERNEL);
	if (ret) {
		kfree(rq);
		return ret;
	}
	mutex_lock(&xrcd->lock);
	ret = xa_insert(&xrcd->rcv_qps, qp->qp_num, rq, GFP_KERNEL);
	if (!ret)
		refcount_inc(&xrcd->memref);
	mutex_unlock(&xrcd->lock);
	if (ret) {
		xa_erase(&xrcd->device->xrc_rcv_qps, qp->qp_num);
		kfree(rq);
	}
	return ret;
}

int oib_create_xrc_rcv_qp(struct oib_xrcd *xrcd, const struct oib_qp_attr *attr, int attr_mask,
			  u32 *qp_num)
{
	struct oib_qp_init_attr ia = {
		.event_handler = oib_xrc_rcv_event,
		.qp_type = OIB_QPT_XRC_TGT,
		.xrcd = xrcd,
	};
	struct oib_qp *qp;
	int ret;

	if (IS_ERR_OR_NULL(xrcd) || !attr || !qp_num || !oib_xrc_rcv_mask_ok(attr_mask))
		return -EINVAL;
	ia.qp_context = xrcd;
	qp = oib_create_qp_owned(NULL, &ia, true);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	ret = oib_xrc_rcv_step(qp, attr, attr_mask, OIB_QPS_INIT);
	if (!ret)
		ret = oib_xrc_rcv_step(qp, attr, attr_mask, OIB_QPS_RTR);
	if (!ret)
		ret = oib_xrc_rcv_insert(xrcd, qp);
	if (ret) {
		oib_destroy_qp(qp);
		return ret;
	}
	*qp_num = qp->qp_num;
	return 0;
}
EXPORT_SYMBOL(oib_create_xrc_rcv_qp);

/*
 * Drop a reference on @rq; the last destroys its QP.  True if it did: the caller then drops the
 * QP's hold on the domain's memory once it has let go of xrcd->lock.
 */
static bool oib_xrc_rcv_put_locked(struct oib_xrcd *xrcd, struct oib_xrc_rcv_qp *rq)
{
	lockdep_assert_held(&xrcd->lock);
	if (--rq->refs)
		return false;
	xa_erase(&xrcd->rcv_qps, rq->qp->qp_num);
	xa_erase(&xrcd->device->xrc_rcv_qps, rq->qp->qp_num);
	WARN_ON(oib_destroy_qp(rq->qp));
	kfree(rq);
	return true;
}

int oib_reg_xrc_rcv_qp(struct oib_xrcd *xrcd, u32 qp_num)
{
	struct oib_xrc_rcv_qp *rq;
	int ret = -ENOENT;

	if (IS_ERR_OR_NULL(xrcd))
		return -EINVAL;
	mutex_lock(&xrcd->lock);
	rq = xa_load(&xrcd->rcv_qps, qp_num);
	if (rq) {
		rq->refs++;
		ret = 0;
	}
	mutex_unlock(&xrcd->lock);
	return ret;
}
EXPORT_SYMBOL(oib_reg_xrc_rcv_qp);

int oib_unreg_xrc_rcv_qp(struct oib_xrcd *xrcd, u32 qp_num)
{
	struct oib_xrc_rcv_qp *rq;
	bool gone = false;
	int ret = -ENOENT;

	if (IS_ERR_OR_NULL(xrcd))
		return -EINVAL;
	mutex_lock(&xrcd->lock);
	rq = xa_load(&xrcd->rcv_qps, qp_num);
	/* the domain's own reference is not a registration's to drop */
	if (rq && rq->refs > (refcount_read(&xrcd->users) ? 1 : 0)) {
		gone = oib_xrc_rcv_put_locked(xrcd, rq);
		ret = 0;
	}
	mutex_unlock(&xrcd->lock);
	if (gone)
		oib_xrcd_mem_put(xrcd);
	return ret;
}
EXPORT_SYMBOL(oib_unreg_xrc_rcv_qp);

/*
 * The domain's last holder went: drop its reference on each receive QP.  The holders' hold on the
 * memory is still there, so none of the QPs' puts of it here is the last.
 */
void oib_xrc_rcv_close_locked(struct oib_xrcd *xrcd)
{
	struct oib_xrc_rcv_qp *rq;
	unsigned long index;

	lockdep_assert_held(&xrcd->lock);
	xa_for_each(&xrcd->rcv_qps, index, rq) {
		if (oib_xrc_rcv_put_locked(xrcd, rq))
			WARN_ON(refcount_dec_and_test(&xrcd->memref));
	}
}
