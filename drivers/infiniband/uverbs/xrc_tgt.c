// SPDX-License-Identifier: GPL-2.0-only
/*
 * Owners' XRC target QPs from user space: CREATE_QP with OIB_UVERBS_QPT_XRC_TGT names an open
 * domain and nothing else (no PD, CQ, SRQ, capabilities or rings).  Unlike the domain's
 * kernel-owned receive QPs (xrc_rcv.c) such a QP is its creator's, as any QP is: an object of the
 * context, modified, queried and destroyed through the QP commands (qp.c), gone with the context
 * or the process.  It counts on its domain handle (CLOSE_XRCD is -EBUSY while it lives).  Its
 * async events go to the context's async event file; the core calls an XRC target's handler
 * under rcu_read_lock(), which the event queue allows (it never sleeps).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "uverbs.h"

static int oib_uverbs_xrc_tgt_make(struct oib_uverbs_call *call, struct oib_uverbs_qp *uqp,
				   struct oib_uverbs_create_qp *cmd, struct oib_uverbs_xrcd *ux)
{
	struct oib_qp_init_attr attr = {
		.event_handler = oib_uverbs_qp_event, .qp_context = uqp,
		.qp_type = OIB_QPT_XRC_TGT, .xrcd = ux->xrcd,
	};
	struct oib_qp *qp;
	int ret;

	ret = oib_uobj_insert(call->ufile, &uqp->uobj, OIB_UVERBS_OBJ_QP, cmd->user_handle);
	if (ret)
		return ret;
	qp = oib_create_qp(NULL, &attr);
	if (IS_ERR(qp)) {
		xa_erase(&call->ufile->handles, uqp->uobj.handle);
		return PTR_ERR(qp);
	}
	uqp->qp = qp;
	uqp->uxrcd = ux;
	atomic_inc(&ux->nusers);
	cmd->handle = uqp->uobj.handle;
	cmd->qp_num = qp->qp_num;
	oib_uobj_commit(&uqp->uobj);
	return 0;
}

/* The common fields are checked (qp.c); an XRC target takes only the domain's handle. */
int oib_uverbs_create_xrc_tgt(struct oib_uverbs_call *call, struct oib_uverbs_create_qp *cmd)
{
	struct oib_uverbs_xrcd *ux;
	struct oib_uverbs_qp *uqp;
	int ret;

	if (cmd->pd_handle || cmd->send_cq_handle || cmd->recv_cq_handle || cmd->srq_handle ||
	    cmd->port_num || cmd->sq_sig_all || cmd->ring_flags ||
	    memchr_inv(&cmd->cap, 0, sizeof(cmd->cap)))
		return -EINVAL;
	uqp = kzalloc(sizeof(*uqp), GFP_KERNEL_ACCOUNT);
	if (!uqp)
		return -ENOMEM;
	INIT_LIST_HEAD(&uqp->async_list);
	ux = oib_uobj_get(call->ufile, cmd->xrcd_handle, OIB_UVERBS_OBJ_XRCD);
	ret = PTR_ERR_OR_ZERO(ux);
	if (!ret) {
		ret = oib_uverbs_xrc_tgt_make(call, uqp, cmd, ux);
		oib_uobj_put(&ux->uobj);
	}
	if (ret)
		kfree(uqp);
	return ret;
}
