// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel-owned XRC receive QPs from user space (the 2007 XRC receive-QP design,
 * Documentation/xrc.md): CREATE_XRC_RCV_QP makes one in an open domain and answers only its
 * number; the QP is the domain's, not the caller's, so it outlives the process that made it for
 * as long as the domain has holders or registrations.  REG/UNREG_XRC_RCV_QP take and drop a
 * reference by number, at most one per handle and QP, recorded in the handle's @regs so that
 * closing the handle (or the context, or killing the process) drops what is left (xrcd.c).
 */
#include <linux/module.h>
#include "uverbs.h"

int oib_uverbs_create_xrc_rcv_qp(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_create_xrc_rcv_qp *cmd = buf;
	struct oib_uverbs_xrcd *ux;
	struct oib_qp_attr attr;
	int ret;

	if (cmd->reserved || cmd->qp_num || cmd->attr.qp_state ||
	    (cmd->attr.attr_mask & OIB_UVERBS_QP_STATE))
		return -EINVAL;
	ret = oib_uverbs_qp_attr(&cmd->attr, &attr);
	if (ret)
		return ret;
	ux = oib_uobj_get(call->ufile, cmd->attr.handle, OIB_UVERBS_OBJ_XRCD);
	if (IS_ERR(ux))
		return PTR_ERR(ux);
	ret = oib_create_xrc_rcv_qp(ux->xrcd, &attr, cmd->attr.attr_mask, &cmd->qp_num);
	oib_uobj_put(&ux->uobj);
	return ret;
}

int oib_uverbs_reg_xrc_rcv_qp(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_xrc_rcv_qp_reg *cmd = buf;
	struct oib_uverbs_xrcd *ux;
	int ret;

	ux = oib_uobj_get(call->ufile, cmd->xrcd_handle, OIB_UVERBS_OBJ_XRCD);
	if (IS_ERR(ux))
		return PTR_ERR(ux);
	mutex_lock(&ux->lock);
	ret = xa_insert(&ux->regs, cmd->qp_num, xa_mk_value(1), GFP_KERNEL);
	if (ret == -EBUSY)
		ret = -EEXIST;			/* registered through this handle already */
	if (!ret) {
		/* -ENOENT: not a receive QP of the domain's */
		ret = oib_reg_xrc_rcv_qp(ux->xrcd, cmd->qp_num);
		if (ret)
			xa_erase(&ux->regs, cmd->qp_num);
	}
	mutex_unlock(&ux->lock);
	oib_uobj_put(&ux->uobj);
	return ret;
}

int oib_uverbs_unreg_xrc_rcv_qp(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_xrc_rcv_qp_reg *cmd = buf;
	struct oib_uverbs_xrcd *ux;
	int ret = -ENOENT;

	ux = oib_uobj_get(call->ufile, cmd->xrcd_handle, OIB_UVERBS_OBJ_XRCD);
	if (IS_ERR(ux))
		return PTR_ERR(ux);
	mutex_lock(&ux->lock);
	if (xa_erase(&ux->regs, cmd->qp_num))
		ret = oib_unreg_xrc_rcv_qp(ux->xrcd, cmd->qp_num);
	mutex_unlock(&ux->lock);
	oib_uobj_put(&ux->uobj);
	return ret;
}
