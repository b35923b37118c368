// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared receive queues from user space: created on a PD, modified (limit, size), queried and
 * destroyed through ioctls; receives posted with POST_SRQ_RECV (post.c) or, with
 * OIB_UVERBS_CREATE_MAPPED, written into a receive ring the provider pulls from (rq_ring.c).
 * QPs name one at creation (qp.c), and the core refuses destroying it while they do (-EBUSY).
 * Its limit event and SRQ_ERR (a bad ring entry) go to the context's async event file.  An XRC
 * SRQ names an open domain (xrcd.c) and a CQ, counts on the domain's handle until destroyed,
 * and answers its number; it has no receive ring.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "uverbs.h"

static void oib_uverbs_srq_event(struct oib_event *event, void *context)
{
	struct oib_uverbs_srq *usrq = context;

	oib_uverbs_async_object_event(&usrq->uobj, &usrq->async_list, &usrq->async_reported,
				      event->event);
}

OIB_UVERBS_SAME(OIB_UVERBS_SRQT_BASIC, OIB_SRQT_BASIC);
OIB_UVERBS_SAME(OIB_UVERBS_SRQT_XRC, OIB_SRQT_XRC);

/* What an SRQ is made on: its PD and, for XRC, its domain's handle and its CQ (held). */
struct oib_uverbs_srq_deps {
	struct oib_uverbs_pd *upd;
	struct oib_uverbs_xrcd *ux;	/* XRC only, else NULL */
	struct oib_uverbs_cq *ucq;	/* XRC only, else NULL */
};

static void oib_uverbs_srq_deps_put(struct oib_uverbs_srq_deps *d)
{
	if (d->ucq)
		oib_uobj_put(&d->ucq->uobj);
	if (d->ux)
		oib_uobj_put(&d->ux->uobj);
	if (d->upd)
		oib_uobj_put(&d->upd->uobj);
}

static int oib_uverbs_srq_deps_get(struct oib_uverbs_file *ufile,
				   const struct oib_uverbs_create_srq *cmd,
				   struct oib_uverbs_srq_deps *d)
{
	void *p;

	*d = (struct oib_uverbs_srq_deps){ 0 };
	p = oib_uobj_get(ufile, cmd->pd_handle, OIB_UVERBS_OBJ_PD);
	if (IS_ERR(p))
		return PTR_ERR(p);
	d->upd = p;
	if (cmd->srq_type != OIB_UVERBS_SRQT_XRC)
		return 0;
	p = oib_uobj_get(ufile, cmd->xrcd_handle, OIB_UVERBS_OBJ_XRCD);
	if (IS_ERR(p))
		goto put;
	d->ux = p;
	p = oib_uobj_get(ufile, cmd->cq_handle, OIB_UVERBS_OBJ_CQ);
	if (IS_ERR(p))
		goto put;
	d->ucq = p;
	return 0;
put:
	oib_uverbs_srq_deps_put(d);
	return PTR_ERR(p);
}

static int oib_uverbs_srq_make(struct oib_uverbs_call *call, struct oib_uverbs_srq *usrq,
			       struct oib_uverbs_create_srq *cmd, struct oib_uverbs_srq_deps *d)
{
	struct oib_uverbs_pd *upd = d->upd;
	struct oib_srq_init_attr attr = {
		.event_handler = oib_uverbs_srq_event, .srq_context = usrq,
		.srq_type = cmd->srq_type,
		.xrc = { .xrcd = d->ux ? d->ux->xrcd : NULL, .cq = d->ucq ? d->ucq->cq : NULL },
		.recv_source = cmd->ring_flags & OIB_UVERBS_CREATE_MAPPED ?
			       oib_uverbs_rq_source(&usrq->rq, call->ufile) : NULL,
		.attr = {
			.max_wr = cmd->attr.max_wr, .max_sge = cmd->attr.max_sge,
			.srq_limit = cmd->attr.srq_limit,
		},
	};
	struct oib_srq *srq;
	int ret;

	ret = oib_uobj_insert(call->ufile, &usrq->uobj, OIB_UVERBS_OBJ_SRQ, cmd->user_handle);
	if (ret)
		return ret;
	srq = oib_create_srq(upd->pd, &attr);
	if (IS_ERR(srq)) {
		xa_erase(&call->ufile->handles, usrq->uobj.handle);
		return PTR_ERR(srq);
	}
	usrq->srq = srq;
	cmd->handle = usrq->uobj.handle;
	cmd->attr.max_wr = attr.attr.max_wr;
	cmd->attr.max_sge = attr.attr.max_sge;
	ret = attr.recv_source ? oib_uverbs_rq_ring_init(&usrq->rq, upd->pd, attr.attr.max_wr,
							 attr.attr.max_sge, &cmd->ring) : 0;
	if (ret) {
		oib_destroy_srq(srq);
		xa_erase(&call->ufile->handles, usrq->uobj.handle);
		return ret;
	}
	cmd->srq_num = d->ux ? srq->srq_num : 0;
	usrq->uxrcd = d->ux;
	if (d->ux)
		atomic_inc(&d->ux->nusers);
	oib_uobj_commit(&usrq->uobj);
	return 0;
}

int oib_uverbs_create_srq(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_create_srq *cmd = buf;
	bool xrc = cmd->srq_type == OIB_UVERBS_SRQT_XRC;
	struct oib_uverbs_srq_deps deps;
	struct oib_uverbs_srq *usrq;
	int ret;

	if (cmd->handle || cmd->attr.reserved || cmd->attr.max_sge > OIB_UVERBS_MAX_SGE ||
	    cmd->reserved || (cmd->ring_flags & ~OIB_UVERBS_CREATE_MAPPED) ||
	    memchr_inv(&cmd->ring, 0, sizeof(cmd->ring)) || cmd->srq_num ||
	    cmd->srq_type > OIB_UVERBS_SRQT_XRC || (xrc && cmd->ring_flags) ||
	    (!xrc && (cmd->xrcd_handle || cmd->cq_handle)))
		return -EINVAL;
	usrq = kzalloc(sizeof(*usrq), GFP_KERNEL_ACCOUNT);
	if (!usrq)
		return -ENOMEM;
	INIT_LIST_HEAD(&usrq->async_list);
	ret = oib_uverbs_srq_deps_get(call->ufile, cmd, &deps);
	if (!ret) {
		ret = oib_uverbs_srq_make(call, usrq, cmd, &deps);
		oib_uverbs_srq_deps_put(&deps);
	}
	if (ret)
		kfree(usrq);
	return ret;
}

int oib_uverbs_modify_srq(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_modify_srq *cmd = buf;
	struct oib_srq_attr attr = {
		.max_wr = cmd->attr.max_wr, .srq_limit = cmd->attr.srq_limit,
	};
	struct oib_uverbs_srq *usrq;
	int ret;

	if (cmd->attr.reserved || cmd->attr.max_sge || !cmd->attr_mask ||
	    cmd->attr_mask & ~(OIB_UVERBS_SRQ_MAX_WR | OIB_UVERBS_SRQ_LIMIT))
		return -EINVAL;
	usrq = oib_uobj_get(call->ufile, cmd->handle, OIB_UVERBS_OBJ_SRQ);
	if (IS_ERR(usrq))
		return PTR_ERR(usrq);
	ret = oib_modify_srq(usrq->srq, &attr, cmd->attr_mask);
	oib_uobj_put(&usrq->uobj);
	return ret;
}

int oib_uverbs_query_srq(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_modify_srq *cmd = buf;
	struct oib_uverbs_srq *usrq;
	struct oib_srq_attr attr;
	int ret;

	if (cmd->attr_mask || memchr_inv(&cmd->attr, 0, sizeof(cmd->attr)))
		return -EINVAL;
	usrq = oib_uobj_get(call->ufile, cmd->handle, OIB_UVERBS_OBJ_SRQ);
	if (IS_ERR(usrq))
		return PTR_ERR(usrq);
	ret = oib_query_srq(usrq->srq, &attr);
	oib_uobj_put(&usrq->uobj);
	if (!ret)
		cmd->attr = (struct oib_uverbs_srq_attr){
			.max_wr = attr.max_wr, .max_sge = attr.max_sge,
			.srq_limit = attr.srq_limit,
		};
	return ret;
}

int oib_uverbs_srq_destroy(struct oib_uverbs_uobj *uobj, void *resp)
{
	struct oib_uverbs_srq *usrq = container_of(uobj, struct oib_uverbs_srq, uobj);
	struct oib_uverbs_destroy_reported *cmd = resp;
	int ret;

	ret = oib_destroy_srq(usrq->srq);	/* -EBUSY while QPs use it */
	if (ret)
		return ret;
	oib_uverbs_rq_ring_free(&usrq->rq);
	if (usrq->uxrcd)
		atomic_dec(&usrq->uxrcd->nusers);
	/* No handler runs any more: drop what was not read, report what was. */
	cmd->async_events_reported = oib_uverbs_event_drop_unread(uobj->ufile->async,
								  &usrq->async_list,
								  &usrq->async_reported);
	return 0;
}

int oib_uverbs_destroy_srq(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_destroy_reported *cmd = buf;

	if (cmd->reserved || cmd->comp_events_reported || cmd->async_events_reported)
		return -EINVAL;
	return oib_uobj_destroy(call->ufile, cmd->handle, OIB_UVERBS_OBJ_SRQ, cmd);
}
