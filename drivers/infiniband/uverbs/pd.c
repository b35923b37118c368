// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protection domains, and what a PD keeps for its QPs' requests: a UD request names its AH until
 * it is sent (ah.c), until the QP that carries it is destroyed.  Such things are retired on their
 * PD and freed once the PD has no user QP (QPs of a PD are the only users of its AHs, and a
 * destroyed QP is done with its requests).  A deregistered MR's memory is not among them: the
 * provider is done with it when oib_dereg_mr() returns (mr.c), whichever QP, SRQ or XRC target
 * a request used it through.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "uverbs.h"

int oib_uverbs_alloc_pd(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_alloc_pd *cmd = buf;
	struct oib_uverbs_pd *upd;
	struct oib_pd *pd;
	int ret;

	if (cmd->reserved || cmd->handle)
		return -EINVAL;
	upd = kzalloc(sizeof(*upd), GFP_KERNEL_ACCOUNT);
	if (!upd)
		return -ENOMEM;
	mutex_init(&upd->lock);
	INIT_LIST_HEAD(&upd->retired);
	pd = oib_alloc_pd(call->ufile->ibdev);
	if (IS_ERR(pd)) {
		kfree(upd);
		return PTR_ERR(pd);
	}
	upd->pd = pd;
	ret = oib_uobj_insert(call->ufile, &upd->uobj, OIB_UVERBS_OBJ_PD, cmd->user_handle);
	if (ret) {
		oib_dealloc_pd(pd);
		kfree(upd);
		return ret;
	}
	cmd->handle = upd->uobj.handle;
	oib_uobj_commit(&upd->uobj);
	return 0;
}

int oib_uverbs_pd_destroy(struct oib_uverbs_uobj *uobj, void *resp)
{
	struct oib_uverbs_pd *upd = container_of(uobj, struct oib_uverbs_pd, uobj);
	int ret;

	ret = oib_dealloc_pd(upd->pd);	/* -EBUSY while QPs or MRs use it */
	if (ret)
		return ret;
	/* No QP is left on it, so nothing is retired either. */
	mutex_destroy(&upd->lock);
	return 0;
}

int oib_uverbs_dealloc_pd(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_destroy *cmd = buf;

	if (cmd->reserved)
		return -EINVAL;
	return oib_uobj_destroy(call->ufile, cmd->handle, OIB_UVERBS_OBJ_PD, NULL);
}

void oib_uverbs_pd_qp_add(struct oib_uverbs_pd *upd)
{
	mutex_lock(&upd->lock);
	upd->nqps++;
	mutex_unlock(&upd->lock);
}

/* A QP of @upd was destroyed: if it was the last, free what was retired. */
void oib_uverbs_pd_qp_del(struct oib_uverbs_pd *upd)
{
	struct oib_uverbs_retired *r, *tmp;
	LIST_HEAD(free);

	mutex_lock(&upd->lock);
	if (!--upd->nqps)
		list_splice_init(&upd->retired, &free);
	mutex_unlock(&upd->lock);
	list_for_each_entry_safe(r, tmp, &free, list)
		r->free(r);
}

/* Something user space destroyed: freed now if @upd has no QP, else when its last QP goes. */
void oib_uverbs_pd_retire(struct oib_uverbs_pd *upd, struct oib_uverbs_retired *r)
{
	bool now;

	mutex_lock(&upd->lock);
	now = !upd->nqps;
	if (!now)
		list_add_tail(&r->list, &upd->retired);
	mutex_unlock(&upd->lock);
	if (now)
		r->free(r);
}
