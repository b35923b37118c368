// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared receive queues.  An SRQ is owned by its creator, holds a count on its PD, and its
 * srq->usecnt counts the QPs attached to it: oib_destroy_srq() refuses with -EBUSY while any is.
 * An XRC SRQ also holds a count on its XRC domain and on its CQ; its provider gives it a number.
 */
#include <linux/module.h>
#include "core_priv.h"

static int oib_check_srq_type(struct oib_device *device, const struct oib_srq_init_attr *ia)
{
	switch (ia->srq_type) {
	case OIB_SRQT_BASIC:
		return ia->xrc.xrcd || ia->xrc.cq ? -EINVAL : 0;
	case OIB_SRQT_XRC:
		if (!(device->attrs.device_cap_flags & OIB_DEVICE_XRC))
			return -EOPNOTSUPP;
		if (IS_ERR_OR_NULL(ia->xrc.xrcd) || IS_ERR_OR_NULL(ia->xrc.cq) ||
		    ia->xrc.xrcd->device != device || ia->xrc.cq->device != device)
			return -EINVAL;
		return 0;
	default:
		return -EINVAL;
	}
}

struct oib_srq *oib_create_srq(struct oib_pd *pd, struct oib_srq_init_attr *init_attr)
{
	struct oib_device *device;
	struct oib_srq_attr *a;
	struct oib_srq *srq;
	int ret;

	if (IS_ERR_OR_NULL(pd) || !init_attr)
		return ERR_PTR(-EINVAL);
	device = pd->device;
	a = &init_attr->attr;
	ret = oib_check_srq_type(device, init_attr);
	if (ret)
		return ERR_PTR(ret);
	if (init_attr->recv_source && !device->ops->recv_source)
		return ERR_PTR(-EOPNOTSUPP);
	if ((init_attr->recv_source &&
	     (!init_attr->recv_source->pull || init_attr->srq_type != OIB_SRQT_BASIC)) ||
	    !a->max_wr || a->max_wr > device->attrs.max_srq_wr ||
	    !a->max_sge || a->max_sge > device->attrs.max_srq_sge || a->srq_limit > a->max_wr)
		return ERR_PTR(-EINVAL);

	srq = oib_alloc_object(device, OIB_OBJ_SRQ, device->ops->size_srq);
	if (IS_ERR(srq))
		return srq;
	srq->device = device;
	srq->pd = pd;
	srq->event_handler = init_attr->event_handler;
	srq->srq_context = init_attr->srq_context;
	srq->srq_type = init_attr->srq_type;
	srq->recv_source = init_attr->recv_source;
	srq->xrcd = init_attr->xrc.xrcd;
	srq->cq = init_attr->xrc.cq;
	atomic_set(&srq->usecnt, 0);

	ret = device->ops->create_srq(srq, init_attr);
	if (ret) {
		oib_free_object(device, OIB_OBJ_SRQ, srq);
		return ERR_PTR(ret);
	}
	oib_res_add(device, OIB_OBJ_SRQ, &srq->res, _RET_IP_);
	atomic_inc(&pd->usecnt);
	if (srq->xrcd) {
		atomic_inc(&srq->xrcd->usecnt);
		atomic_inc(&srq->cq->usecnt);
	}
	return srq;
}
EXPORT_SYMBOL(oib_create_srq);

int oib_modify_srq(struct oib_srq *srq, struct oib_srq_attr *attr, enum oib_srq_attr_mask mask)
{
	struct oib_device *device;

	if (IS_ERR_OR_NULL(srq) || !attr || !mask ||
	    (mask & ~(OIB_SRQ_MAX_WR | OIB_SRQ_LIMIT)))
		return -EINVAL;
	device = srq->device;
	if (mask & OIB_SRQ_MAX_WR) {
		if (!(device->attrs.device_cap_flags & OIB_DEVICE_SRQ_RESIZE))
			return -EOPNOTSUPP;
		if (!attr->max_wr || attr->max_wr > device->attrs.max_srq_wr)
			return -EINVAL;
	}
	return device->ops->modify_srq(srq, attr, mask);
}
EXPORT_SYMBOL(oib_modify_srq);

int oib_query_srq(struct oib_srq *srq, struct oib_srq_attr *attr)
{
	if (IS_ERR_OR_NULL(srq) || !attr)
		return -EINVAL;
	return srq->device->ops->query_srq(srq, attr);
}
EXPORT_SYMBOL(oib_query_srq);

int oib_destroy_srq(struct oib_srq *srq)
{
	struct oib_xrcd *xrcd;
	struct oib_cq *cq;
	struct oib_pd *pd;

	if (IS_ERR_OR_NULL(srq))
		return -EINVAL;
	if (atomic_read(&srq->usecnt))
		return -EBUSY;
	pd = srq->pd;
	xrcd = srq->xrcd;
	cq = srq->cq;
	oib_res_del(srq->device, OIB_OBJ_SRQ, &srq->res);
	srq->device->ops->destroy_srq(srq);
	if (xrcd) {
		atomic_dec(&cq->usecnt);
		atomic_dec(&xrcd->usecnt);
	}
	oib_free_object(pd->device, OIB_OBJ_SRQ, srq);
	atomic_dec(&pd->usecnt);
	return 0;
}
EXPORT_SYMBOL(oib_destroy_srq);

int oib_post_srq_recv(struct oib_srq *srq, const struct oib_recv_wr *wr,
		      const struct oib_recv_wr **bad_wr)
{
	return srq->device->ops->post_srq_recv(srq, wr, bad_wr);
}
EXPORT_SYMBOL(oib_post_srq_recv);
