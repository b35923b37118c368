// SPDX-License-Identifier: GPL-2.0-only
/*
 * Queue pairs from user space: RC, UC and UD, XRC initiators (send side only: no receive CQ,
 * SRQ or receive queue) and owners' XRC targets (xrc_tgt.c), and with CAP_NET_RAW the special
 * QPs of a port (SMI, GSI), with an SRQ or not, created, modified, queried and destroyed through
 * ioctls, their events on the context's async event file.  Work requests are posted through ioctls
 * (post.c) or, with OIB_UVERBS_CREATE_MAPPED, written into a send ring mapped into the process
 * (sq_ring.c); with OIB_UVERBS_CREATE_MAPPED_RQ receives are written into a receive ring the
 * provider pulls from (rq_ring.c).
 */
#include <linux/capability.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "uverbs.h"

void oib_uverbs_qp_event(struct oib_event *event, void *context)
{
	struct oib_uverbs_qp *uqp = context;

	oib_uverbs_async_object_event(&uqp->uobj, &uqp->async_list, &uqp->async_reported,
				      event->event);
}

OIB_UVERBS_SAME(OIB_UVERBS_QPT_XRC_INI, OIB_QPT_XRC_INI);
OIB_UVERBS_SAME(OIB_UVERBS_QPT_XRC_TGT, OIB_QPT_XRC_TGT);

struct oib_uverbs_qp_deps {
	struct oib_uverbs_pd *upd;
	struct oib_uverbs_cq *scq, *rcq;
	struct oib_uverbs_srq *usrq;	/* or NULL */
};

/* The QP's SRQ, if it names one (held in @d). */
static int oib_uverbs_qp_srq_get(struct oib_uverbs_file *ufile, u32 handle,
				 struct oib_uverbs_qp_deps *d)
{
	d->usrq = NULL;
	if (!handle)
		return 0;
	d->usrq = oib_uobj_get(ufile, handle, OIB_UVERBS_OBJ_SRQ);
	return PTR_ERR_OR_ZERO(d->usrq);
}

static int oib_uverbs_qp_deps_get(struct oib_uverbs_file *ufile,
				  const struct oib_uverbs_create_qp *cmd,
				  struct oib_uverbs_qp_deps *d)
{
	int ret = oib_uverbs_qp_srq_get(ufile, cmd->srq_handle, d);

	if (ret)
		return ret;
	d->upd = oib_uobj_get(ufile, cmd->pd_handle, OIB_UVERBS_OBJ_PD);
	if (IS_ERR(d->upd)) {
		ret = PTR_ERR(d->upd);
		goto put_srq;
	}
	d->scq = oib_uobj_get(ufile, cmd->send_cq_handle, OIB_UVERBS_OBJ_CQ);
	if (IS_ERR(d->scq))
		goto put_pd;
	if (cmd->qp_type == OIB_UVERBS_QPT_XRC_INI) {
		d->rcq = NULL;
		return 0;
	}
	if (cmd->recv_cq_handle == cmd->send_cq_handle) {
		d->rcq = d->scq;
		return 0;
	}
	d->rcq = oib_uobj_get(ufile, cmd->recv_cq_handle, OIB_UVERBS_OBJ_CQ);
	if (!IS_ERR(d->rcq))
		return 0;
	oib_uobj_put(&d->scq->uobj);
	d->scq = d->rcq;
put_pd:
	ret = PTR_ERR(d->scq);
	oib_uobj_put(&d->upd->uobj);
put_srq:
	if (d->usrq)
		oib_uobj_put(&d->usrq->uobj);
	return ret;
}

static void oib_uverbs_qp_deps_put(struct oib_uverbs_qp_deps *d)
{
	if (d->rcq && d->rcq != d->scq)
		oib_uobj_put(&d->rcq->uobj);
	oib_uobj_put(&d->scq->uobj);
	oib_uobj_put(&d->upd->uobj);
	if (d->usrq)
		oib_uobj_put(&d->usrq->uobj);
}

/* The rings @cmd asks for, for the granted capabilities in cmd->cap. */
static int oib_uverbs_qp_rings_init(struct oib_uverbs_file *ufile, struct oib_uverbs_qp *uqp,
				    struct oib_uverbs_create_qp *cmd, struct oib_qp *qp)
{
	int ret = oib_uverbs_sq_ring_init(ufile, uqp, cmd);

	if (ret || !(cmd->ring_flags & OIB_UVERBS_CREATE_MAPPED_RQ))
		return ret;
	return oib_uverbs_rq_ring_init(&uqp->rq, qp->pd, cmd->cap.max_recv_wr,
				       cmd->cap.max_recv_sge, &cmd->rq);
}

static int oib_uverbs_qp_make(struct oib_uverbs_call *call, struct oib_uverbs_qp *uqp,
			      struct oib_uverbs_create_qp *cmd, struct oib_uverbs_qp_deps *d)
{
	struct oib_qp_init_attr attr = {
		.event_handler = oib_uverbs_qp_event, .qp_context = uqp,
		.send_cq = d->scq->cq, .recv_cq = d->rcq ? d->rcq->cq : NULL,
		.qp_type = cmd->qp_type,
		.port_num = cmd->port_num, .srq = d->usrq ? d->usrq->srq : NULL,
		.sq_sig_type = cmd->sq_sig_all ? OIB_SIGNAL_ALL_WR : OIB_SIGNAL_REQ_WR,
		.recv_source = cmd->ring_flags & OIB_UVERBS_CREATE_MAPPED_RQ ?
			       oib_uverbs_rq_source(&uqp->rq, call->ufile) : NULL,
		.cap = {
			.max_send_wr = cmd->cap.max_send_wr, .max_recv_wr = cmd->cap.max_recv_wr,
			.max_send_sge = cmd->cap.max_send_sge,
			.max_recv_sge = cmd->cap.max_recv_sge,
			.max_inline_data = cmd->cap.max_inline_data,
		},
	};
	struct oib_qp *qp;
	int ret;

	ret = oib_uobj_insert(call->ufile, &uqp->uobj, OIB_UVERBS_OBJ_QP, cmd->user_handle);
	if (ret)
		return ret;
	qp = oib_create_qp(d->upd->pd, &attr);
	if (IS_ERR(qp)) {
		ret = PTR_ERR(qp);
		goto erase;
	}
	cmd->cap = (struct oib_uverbs_qp_cap){
		.max_send_wr = attr.cap.max_send_wr, .max_recv_wr = attr.cap.max_recv_wr,
		.max_send_sge = attr.cap.max_send_sge, .max_recv_sge = attr.cap.max_recv_sge,
		.max_inline_data = attr.cap.max_inline_data,
	};
	ret = oib_uverbs_qp_rings_init(call->ufile, uqp, cmd, qp);
	if (ret) {
		oib_destroy_qp(qp);
		oib_uverbs_sq_ring_free(uqp);
		goto erase;
	}
	uqp->qp = qp;
	uqp->upd = d->upd;
	oib_uverbs_pd_qp_add(d->upd);
	cmd->handle = uqp->uobj.handle;
	cmd->qp_num = qp->qp_num;
	oib_uobj_commit(&uqp->uobj);
	return 0;
erase:
	xa_erase(&call->ufile->handles, uqp->uobj.handle);
	return ret;
}

int oib_uverbs_create_qp(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_create_qp *cmd = buf;
	struct oib_uverbs_qp_deps deps;
	struct oib_uverbs_qp *uqp;
	int ret;

	if (cmd->handle || cmd->qp_num || cmd->cap.reserved || cmd->reserved ||
	    cmd->sq_sig_all > 1 || cmd->reserved2 || cmd->reserved3 ||
	    (cmd->xrcd_handle && cmd->qp_type != OIB_UVERBS_QPT_XRC_TGT) ||
	    (cmd->ring_flags & ~(OIB_UVERBS_CREATE_MAPPED | OIB_UVERBS_CREATE_MAPPED_RQ)) ||
	    ((cmd->ring_flags & OIB_UVERBS_CREATE_MAPPED_RQ) && cmd->srq_handle) ||
	    memchr_inv(&cmd->sq, 0, sizeof(cmd->sq)) || memchr_inv(&cmd->rq, 0, sizeof(cmd->rq)))
		return -EINVAL;
	switch (cmd->qp_type) {
	case OIB_UVERBS_QPT_SMI:
	case OIB_UVERBS_QPT_GSI:
		if (!capable(CAP_NET_RAW))
			return -EPERM;
		break;
	case OIB_UVERBS_QPT_RC:
	case OIB_UVERBS_QPT_UC:
	case OIB_UVERBS_QPT_UD:
		break;
	case OIB_UVERBS_QPT_XRC_INI:
		if (cmd->recv_cq_handle || cmd->srq_handle || cmd->cap.max_recv_wr ||
		    cmd->cap.max_recv_sge || (cmd->ring_flags & OIB_UVERBS_CREATE_MAPPED_RQ))
			return -EINVAL;
		break;
	case OIB_UVERBS_QPT_XRC_TGT:
		return oib_uverbs_create_xrc_tgt(call, cmd);
	default:
		return -EOPNOTSUPP;
	}
	if (cmd->cap.max_send_sge > OIB_UVERBS_MAX_SGE ||
	    cmd->cap.max_recv_sge > OIB_UVERBS_MAX_SGE)
		return -EINVAL;
	uqp = kzalloc(sizeof(*uqp), GFP_KERNEL_ACCOUNT);
	if (!uqp)
		return -ENOMEM;
	INIT_LIST_HEAD(&uqp->async_list);
	ret = oib_uverbs_qp_deps_get(call->ufile, cmd, &deps);
	if (!ret) {
		ret = oib_uverbs_qp_make(call, uqp, cmd, &deps);
		oib_uverbs_qp_deps_put(&deps);
	}
	if (ret)
		kfree(uqp);
	return ret;
}

int oib_uverbs_qp_destroy(struct oib_uverbs_uobj *uobj, void *resp)
{
	struct oib_uverbs_qp *uqp = container_of(uobj, struct oib_uverbs_qp, uobj);
	struct oib_uverbs_destroy_reported *cmd = resp;
	int ret;

	oib_uverbs_qp_release_user(uqp);
	ret = oib_destroy_qp(uqp->qp);
	if (ret)
		return ret;
	oib_uverbs_sq_ring_free(uqp);
	oib_uverbs_rq_ring_free(&uqp->rq);
	/* No handler runs any more: drop what was not read, report what was. */
	cmd->async_events_reported = oib_uverbs_event_drop_unread(uobj->ufile->async,
								  &uqp->async_list,
								  &uqp->async_reported);
	if (uqp->upd)
		oib_uverbs_pd_qp_del(uqp->upd);
	if (uqp->uxrcd)
		atomic_dec(&uqp->uxrcd->nusers);
	return 0;
}

int oib_uverbs_destroy_qp(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_destroy_reported *cmd = buf;

	if (cmd->reserved || cmd->comp_events_reported || cmd->async_events_reported)
		return -EINVAL;
	return oib_uobj_destroy(call->ufile, cmd->handle, OIB_UVERBS_OBJ_QP, cmd);
}

#define OIB_UVERBS_QP_MASK							\
	(OIB_UVERBS_QP_STATE | OIB_UVERBS_QP_ACCESS_FLAGS | OIB_UVERBS_QP_PKEY_INDEX |	\
	 OIB_UVERBS_QP_PORT | OIB_UVERBS_QP_QKEY | OIB_UVERBS_QP_AV | OIB_UVERBS_QP_PATH_MTU |	\
	 OIB_UVERBS_QP_TIMEOUT | OIB_UVERBS_QP_RETRY_CNT | OIB_UVERBS_QP_RNR_RETRY |	\
	 OIB_UVERBS_QP_RQ_PSN | OIB_UVERBS_QP_MAX_QP_RD_ATOMIC |				\
	 OIB_UVERBS_QP_MIN_RNR_TIMER | OIB_UVERBS_QP_SQ_PSN |				\
	 OIB_UVERBS_QP_MAX_DEST_RD_ATOMIC | OIB_UVERBS_QP_DEST_QPN)

int oib_uverbs_qp_attr(const struct oib_uverbs_modify_qp *cmd, struct oib_qp_attr *a)
{
	if ((cmd->attr_mask & ~OIB_UVERBS_QP_MASK) ||
	    (cmd->qp_access_flags & ~OIB_UVERBS_ACCESS_ALL) ||
	    memchr_inv(cmd->reserved, 0, sizeof(cmd->reserved)) || cmd->qp_state >= OIB_QPS_MAX)
		return -EINVAL;
	*a = (struct oib_qp_attr){
		.qp_state = cmd->qp_state, .path_mtu = cmd->path_mtu, .rq_psn = cmd->rq_psn,
		.sq_psn = cmd->sq_psn, .dest_qp_num = cmd->dest_qp_num,
		.qp_access_flags = cmd->qp_access_flags, .qkey = cmd->qkey,
		.pkey_index = cmd->pkey_index, .port_num = cmd->port_num,
		.timeout = cmd->timeout, .retry_cnt = cmd->retry_cnt, .rnr_retry = cmd->rnr_retry,
		.min_rnr_timer = cmd->min_rnr_timer, .max_rd_atomic = cmd->max_rd_atomic,
		.max_dest_rd_atomic = cmd->max_dest_rd_atomic,
	};
	return oib_uverbs_ah_attr(&cmd->ah_attr, &a->ah_attr);
}

int oib_uverbs_modify_qp(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_modify_qp *cmd = buf;
	struct oib_uverbs_qp *uqp;
	struct oib_qp_attr attr;
	int ret;

	ret = oib_uverbs_qp_attr(cmd, &attr);
	if (ret)
		return ret;
	/* a controlled Q_Key (bit 31) is the special QPs': privileged, as a raw QP */
	if ((cmd->attr_mask & OIB_UVERBS_QP_QKEY) && (cmd->qkey & OIB_UVERBS_QKEY_CONTROLLED) &&
	    !capable(CAP_NET_RAW))
		return -EPERM;
	uqp = oib_uobj_get(call->ufile, cmd->handle, OIB_UVERBS_OBJ_QP);
	if (IS_ERR(uqp))
		return PTR_ERR(uqp);
	ret = oib_modify_qp(uqp->qp, &attr, cmd->attr_mask);
	if (!ret && (cmd->attr_mask & OIB_UVERBS_QP_STATE) && attr.qp_state == OIB_QPS_RESET)
		oib_uverbs_rq_ring_reset(&uqp->rq);
	oib_uobj_put(&uqp->uobj);
	return ret;
}

static void oib_uverbs_qp_attr_to_user(const struct oib_qp_attr *a,
				       struct oib_uverbs_modify_qp *u)
{
	u->attr_mask = OIB_UVERBS_QP_MASK;
	u->qp_state = a->qp_state;
	u->path_mtu = a->path_mtu;
	u->rq_psn = a->rq_psn;
	u->sq_psn = a->sq_psn;
	u->dest_qp_num = a->dest_qp_num;
	u->qp_access_flags = a->qp_access_flags;
	u->pkey_index = a->pkey_index;
	u->port_num = a->port_num;
	u->timeout = a->timeout;
	u->retry_cnt = a->retry_cnt;
	u->rnr_retry = a->rnr_retry;
	u->min_rnr_timer = a->min_rnr_timer;
	u->max_rd_atomic = a->max_rd_atomic;
	u->max_dest_rd_atomic = a->max_dest_rd_atomic;
	u->qkey = a->qkey;
	oib_uverbs_ah_attr_to_user(&a->ah_attr, &u->ah_attr);
}

/* Everything but the header and the handle is an answer: it is built from zero. */
int oib_uverbs_query_qp(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_query_qp *cmd = buf;
	struct oib_uverbs_hdr hdr = cmd->attr.hdr;
	u32 handle = cmd->attr.handle;
	struct oib_qp_init_attr init;
	struct oib_uverbs_qp *uqp;
	struct oib_qp_attr attr;
	int ret;

	if (cmd->attr.attr_mask & ~OIB_UVERBS_QP_MASK)
		return -EINVAL;
	uqp = oib_uobj_get(call->ufile, handle, OIB_UVERBS_OBJ_QP);
	if (IS_ERR(uqp))
		return PTR_ERR(uqp);
	ret = oib_query_qp(uqp->qp, &attr, OIB_UVERBS_QP_MASK, &init);
	oib_uobj_put(&uqp->uobj);
	if (ret)
		return ret;
	memset(cmd, 0, sizeof(*cmd));
	cmd->attr.hdr = hdr;
	cmd->attr.handle = handle;
	oib_uverbs_qp_attr_to_user(&attr, &cmd->attr);
	cmd->cap = (struct oib_uverbs_qp_cap){
		.max_send_wr = init.cap.max_send_wr, .max_recv_wr = init.cap.max_recv_wr,
		.max_send_sge = init.cap.max_send_sge, .max_recv_sge = init.cap.max_recv_sge,
		.max_inline_data = init.cap.max_inline_data,
	};
	cmd->qp_type = init.qp_type;
	cmd->sq_sig_all = init.sq_sig_type == OIB_SIGNAL_ALL_WR;
	return 0;
}
