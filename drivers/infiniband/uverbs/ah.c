// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address handles from user space, for UD sends.  A posted UD request names its AH until the
 * provider has sent it, so the core's AH outlives the handle: DESTROY_AH retires it on its PD
 * (pd.c), which frees it once the PD has no user QP.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "uverbs.h"

int oib_uverbs_ah_attr(const struct oib_uverbs_ah_attr *u, struct oib_ah_attr *k)
{
	if (memchr_inv(u->reserved, 0, sizeof(u->reserved)) || u->is_global > 1)
		return -EINVAL;
	*k = (struct oib_ah_attr){
		.port_num = u->port_num, .sl = u->sl, .dlid = u->dlid,
		.flags = u->is_global ? OIB_AH_GRH : 0,
		.grh = {
			.flow_label = u->flow_label, .sgid_index = u->sgid_index,
			.hop_limit = u->hop_limit, .traffic_class = u->traffic_class,
		},
	};
	memcpy(k->grh.dgid.raw, u->dgid, sizeof(u->dgid));
	return 0;
}

/* The user's address vector from the kernel's (what QUERY_QP answers). */
void oib_uverbs_ah_attr_to_user(const struct oib_ah_attr *k, struct oib_uverbs_ah_attr *u)
{
	*u = (struct oib_uverbs_ah_attr){
		.port_num = k->port_num, .sl = k->sl, .dlid = k->dlid,
		.is_global = !!(k->flags & OIB_AH_GRH), .flow_label = k->grh.flow_label,
		.sgid_index = k->grh.sgid_index, .hop_limit = k->grh.hop_limit,
		.traffic_class = k->grh.traffic_class,
	};
	memcpy(u->dgid, k->grh.dgid.raw, sizeof(u->dgid));
}

static void oib_uverbs_ah_free(struct oib_uverbs_retired *r)
{
	struct oib_uverbs_ah_keep *keep = container_of(r, struct oib_uverbs_ah_keep, retired);

	oib_destroy_ah(keep->ah);
	kfree(keep);
}

static int oib_uverbs_ah_make(struct oib_uverbs_call *call, struct oib_uverbs_ah *uah,
			      struct oib_uverbs_create_ah *cmd, const struct oib_ah_attr *attr)
{
	struct oib_ah *ah;
	int ret;

	ah = oib_create_ah(uah->upd->pd, attr);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	uah->keep->ah = ah;
	ret = oib_uobj_insert(call->ufile, &uah->uobj, OIB_UVERBS_OBJ_AH, cmd->user_handle);
	if (ret) {
		oib_destroy_ah(ah);
		return ret;
	}
	cmd->handle = uah->uobj.handle;
	oib_uobj_commit(&uah->uobj);
	return 0;
}

int oib_uverbs_create_ah(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_create_ah *cmd = buf;
	struct oib_uverbs_ah *uah;
	struct oib_uverbs_pd *upd;
	struct oib_ah_attr attr;
	int ret;

	if (cmd->handle)
		return -EINVAL;
	ret = oib_uverbs_ah_attr(&cmd->attr, &attr);
	if (ret)
		return ret;
	upd = oib_uobj_get(call->ufile, cmd->pd_handle, OIB_UVERBS_OBJ_PD);
	if (IS_ERR(upd))
		return PTR_ERR(upd);
	uah = kzalloc(sizeof(*uah), GFP_KERNEL_ACCOUNT);
	if (uah)
		uah->keep = kzalloc(sizeof(*uah->keep), GFP_KERNEL_ACCOUNT);
	ret = -ENOMEM;
	if (uah && uah->keep) {
		uah->upd = upd;
		uah->keep->retired.free = oib_uverbs_ah_free;
		ret = oib_uverbs_ah_make(call, uah, cmd, &attr);
	}
	oib_uobj_put(&upd->uobj);
	if (ret && uah) {
		kfree(uah->keep);
		kfree(uah);
	}
	return ret;
}

int oib_uverbs_ah_destroy(struct oib_uverbs_uobj *uobj, void *resp)
{
	struct oib_uverbs_ah *uah = container_of(uobj, struct oib_uverbs_ah, uobj);

	oib_uverbs_pd_retire(uah->upd, &uah->keep->retired);
	return 0;
}

int oib_uverbs_destroy_ah(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_destroy *cmd = buf;

	if (cmd->reserved)
		return -EINVAL;
	return oib_uobj_destroy(call->ufile, cmd->handle, OIB_UVERBS_OBJ_AH, NULL);
}
