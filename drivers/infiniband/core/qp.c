// SPDX-License-Identifier: GPL-2.0-only
/*
 * Queue pairs: creation, the checked path through the state table, query and destroy.
 *
 * A QP is owned by its creator and holds counts on its PD, its CQs, its SRQ and (an XRC target)
 * its XRC domain until oib_destroy_qp(); a kernel-owned XRC receive QP is its domain's
 * (xrc_rcv.c) and holds no count on it.  qp->mutex serialises modify and query and protects
 * qp->port_num; the provider's modify op runs under it with qp->state still the current state.
 * qp->state changes under it too, but for the transport's own move to ERR
 * (oib_qp_transport_error()), which may come from any context and wins over a concurrent modify
 * to anything but RESET and ERR.
 * The caller must not race destroy against other calls on the same QP.
 */
#include <linux/module.h>
#include <linux/rcupdate.h>
#include "core_priv.h"

#define OIB_GSI_QKEY	0x80010000
#define OIB_MAX_PSN	0xffffff
#define OIB_MAX_QPN	0xffffff

static int oib_check_qp_caps(struct oib_device *device, const struct oib_qp_init_attr *ia)
{
	const struct oib_device_attr *d = &device->attrs;
	const struct oib_qp_cap *c = &ia->cap;

	if (c->max_send_wr > d->max_qp_wr || c->max_recv_wr > d->max_qp_wr ||
	    c->max_send_sge > d->max_send_sge || c->max_recv_sge > d->max_recv_sge ||
	    c->max_inline_data > d->max_inline_data)
		return -EINVAL;
	if (ia->srq && (c->max_recv_wr || c->max_recv_sge))
		return -EINVAL;
	return 0;
}

/* An XRC QP: an initiator sends only, a target receives only and has a domain instead of a PD. */
static int oib_check_xrc_qp_init_attr(struct oib_device *device, struct oib_pd *pd,
				      const struct oib_qp_init_attr *ia)
{
	const struct oib_qp_cap *c = &ia->cap;

	if (!(device->attrs.device_cap_flags & OIB_DEVICE_XRC))
		return -EOPNOTSUPP;
	if (ia->port_num || ia->srq || ia->recv_cq || c->max_recv_wr || c->max_recv_sge)
		return -EINVAL;
	if (ia->qp_type == OIB_QPT_XRC_TGT)
		return pd || ia->send_cq || c->max_send_wr || c->max_send_sge ||
		       c->max_inline_data ? -EINVAL : 0;
	if (!pd || ia->xrcd || !ia->send_cq || ia->send_cq->device != device)
		return -EINVAL;
	return 0;
}

static int oib_check_qp_init_attr(struct oib_device *device, struct oib_pd *pd,
				  const struct oib_qp_init_attr *ia)
{
	const struct oib_port_immutable *imm;
	int ret;

	if (ia->sq_sig_type != OIB_SIGNAL_ALL_WR && ia->sq_sig_type != OIB_SIGNAL_REQ_WR)
		return -EINVAL;
	if (ia->create_flags)
		return -EINVAL;
	/* a receive source feeds a QP's own receive queue: not an SRQ's, not XRC's */
	if (ia->recv_source && (ia->srq || !ia->recv_source->pull ||
				ia->qp_type == OIB_QPT_XRC_INI || ia->qp_type == OIB_QPT_XRC_TGT))
		return -EINVAL;
	if (ia->recv_source && !device->ops->recv_source)
		return -EOPNOTSUPP;
	switch (ia->qp_type) {
	case OIB_QPT_RC:
	case OIB_QPT_UC:
	case OIB_QPT_UD:
		if (ia->port_num)
			return -EINVAL;
		break;
	case OIB_QPT_SMI:
	case OIB_QPT_GSI:
		imm = oib_port_immutable(device, ia->port_num);
		if (!imm || ia->srq)
			return -EINVAL;
		if (!(imm->core_cap_flags &
		      (ia->qp_type == OIB_QPT_SMI ? OIB_CORE_CAP_IB_SMI : OIB_CORE_CAP_IB_MAD)))
			return -EOPNOTSUPP;
		break;
	case OIB_QPT_XRC_INI:
	case OIB_QPT_XRC_TGT:
		ret = oib_check_xrc_qp_init_attr(device, pd, ia);
		return ret ?: oib_check_qp_caps(device, ia);
	default:
		return -EINVAL;
	}

	if (!pd || ia->xrcd)
		return -EINVAL;
	if (!ia->send_cq || !ia->recv_cq || ia->send_cq->device != device ||
	    ia->recv_cq->device != device || (ia->srq && ia->srq->device != device))
		return -EINVAL;
	if (ia->srq && ia->srq->srq_type != OIB_SRQT_BASIC)
		return -EINVAL;
	return oib_check_qp_caps(device, ia);
}

/* The device a QP is made on: its PD's, or for an XRC target its domain's. */
static struct oib_device *oib_qp_device(struct oib_pd *pd, const struct oib_qp_init_attr *ia)
{
	if (!IS_ERR_OR_NULL(pd))
		return pd->device;
	if (ia->qp_type == OIB_QPT_XRC_TGT && !IS_ERR_OR_NULL(ia->xrcd))
		return ia->xrcd->device;
	return NULL;
}

static void oib_qp_put_deps(const struct oib_qp *qp)
{
	if (qp->xrcd && !qp->xrc_rcv)
		atomic_dec(&qp->xrcd->usecnt);
	if (qp->srq)
		atomic_dec(&qp->srq->usecnt);
	if (qp->recv_cq)
		atomic_dec(&qp->recv_cq->usecnt);
	if (qp->send_cq)
		atomic_dec(&qp->send_cq->usecnt);
	if (qp->pd)
		atomic_dec(&qp->pd->usecnt);
}

static void oib_qp_get_deps(struct oib_qp *qp)
{
	if (qp->pd)
		atomic_inc(&qp->pd->usecnt);
	if (qp->send_cq)
		atomic_inc(&qp->send_cq->usecnt);
	if (qp->recv_cq)
		atomic_inc(&qp->recv_cq->usecnt);
	if (qp->srq)
		atomic_inc(&qp->srq->usecnt);
	if (qp->xrcd && !qp->xrc_rcv)
		atomic_inc(&qp->xrcd->usecnt);
}

/*
 * Make a QP; @xrc_rcv: a kernel-owned XRC receive QP (xrc_rcv.c), which its domain owns and so
 * does not count in the domain's usecnt.
 */
struct oib_qp *oib_create_qp_owned(struct oib_pd *pd, struct oib_qp_init_attr *init_attr,
				   bool xrc_rcv)
{
	struct oib_device *device;
	struct oib_qp *qp;
	int ret;

	if (IS_ERR(pd) || !init_attr)
		return ERR_PTR(-EINVAL);
	device = oib_qp_device(pd, init_attr);
	if (!device)
		return ERR_PTR(-EINVAL);
	if (READ_ONCE(device->reg_state) != OIB_DEV_REGISTERED)
		return ERR_PTR(-ENODEV);
	ret = oib_check_qp_init_attr(device, pd, init_attr);
	if (ret)
		return ERR_PTR(ret);

	qp = oib_alloc_object(device, OIB_OBJ_QP, device->ops->size_qp);
	if (IS_ERR(qp))
		return qp;
	qp->device = device;
	qp->pd = pd;
	qp->send_cq = init_attr->send_cq;
	qp->recv_cq = init_attr->recv_cq;
	qp->srq = init_attr->srq;
	qp->recv_source = init_attr->recv_source;
	qp->xrcd = init_attr->xrcd;
	qp->xrc_rcv = xrc_rcv;
	qp->event_handler = init_attr->event_handler;
	qp->qp_context = init_attr->qp_context;
	qp->qp_type = init_attr->qp_type;
	qp->state = OIB_QPS_RESET;
	if (qp->qp_type == OIB_QPT_SMI || qp->qp_type == OIB_QPT_GSI)
		qp->port_num = init_attr->port_num;
	mutex_init(&qp->mutex);
	INIT_LIST_HEAD(&qp->open_list);

	ret = device->ops->create_qp(qp, init_attr);
	if (ret) {
		mutex_destroy(&qp->mutex);
		oib_free_object(device, OIB_OBJ_QP, qp);
		return ERR_PTR(ret);
	}
	oib_qp_get_deps(qp);
	oib_res_add(device, OIB_OBJ_QP, &qp->res, 0);
	if (oib_qp_shared(qp)) {
		ret = oib_xrc_tgt_add(qp);
		if (ret) {
			oib_destroy_qp_now(qp);
			return ERR_PTR(ret);
		}
	}
	return qp;
}

struct oib_qp *oib_create_qp(struct oib_pd *pd, struct oib_qp_init_attr *init_attr)
{
	struct oib_qp *qp = oib_create_qp_owned(pd, init_attr, false);

	if (!IS_ERR(qp))
		oib_res_caller(&qp->res, _RET_IP_);
	return qp;
}
EXPORT_SYMBOL(oib_create_qp);

static int oib_check_path(struct oib_qp *qp, const struct oib_ah_attr *ah, u32 port)
{
	if (ah->port_num != port)
		return -EINVAL;
	return oib_check_ah_attr(qp->device, ah);
}

static int oib_check_pkey_index(struct oib_qp *qp, u32 port, u16 index)
{
	const struct oib_port_immutable *imm = oib_port_immutable(qp->device, port);

	return imm && index < imm->pkey_tbl_len ? 0 : -EINVAL;
}

/* The values of the attributes in @mask, once the table has said the mask itself is legal. */
static int oib_check_qp_attr_values(struct oib_qp *qp, const struct oib_qp_attr *attr, int mask)
{
	struct oib_device *device = qp->device;
	const struct oib_device_attr *d = &device->attrs;
	u32 port = (mask & OIB_QP_PORT) ? attr->port_num : qp->port_num;
	struct oib_port_attr pattr;
	int ret;

	if ((mask & OIB_QP_PORT) && !oib_port_valid(device, attr->port_num))
		return -EINVAL;
	if ((mask & OIB_QP_PKEY_INDEX) && oib_check_pkey_index(qp, port, attr->pkey_index))
		return -EINVAL;
	if (mask & OIB_QP_QKEY) {
		if (qp->qp_type == OIB_QPT_GSI && attr->qkey != OIB_GSI_QKEY)
			return -EINVAL;
		if (qp->qp_type == OIB_QPT_SMI && attr->qkey)
			return -EINVAL;
	}
	if (mask & OIB_QP_AV) {
		ret = oib_check_path(qp, &attr->ah_attr, port);
		if (ret)
			return ret;
	}
	if (mask & OIB_QP_ALT_PATH) {
		if (!oib_port_valid(device, attr->alt_port_num) || attr->alt_timeout > 31 ||
		    oib_check_pkey_index(qp, attr->alt_port_num, attr->alt_pkey_index) ||
		    oib_check_path(qp, &attr->alt_ah_attr, attr->alt_port_num))
			return -EINVAL;
	}
	if (mask & OIB_QP_PATH_MTU) {
		if (attr->path_mtu < OIB_MTU_256 || attr->path_mtu > OIB_MTU_4096)
			return -EINVAL;
		ret = oib_query_port(device, port, &pattr);
		if (ret)
			return ret;
		if (attr->path_mtu > pattr.max_mtu)
			return -EINVAL;
	}
	if ((mask & OIB_QP_ACCESS_FLAGS) && (attr->qp_access_flags & ~OIB_ACCESS_ALL))
		return -EINVAL;
	if ((mask & OIB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	if ((mask & OIB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & OIB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & OIB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & OIB_QP_RQ_PSN) && attr->rq_psn > OIB_MAX_PSN)
		return -EINVAL;
	if ((mask & OIB_QP_SQ_PSN) && attr->sq_psn > OIB_MAX_PSN)
		return -EINVAL;
	if ((mask & OIB_QP_DEST_QPN) && attr->dest_qp_num > OIB_MAX_QPN)
		return -EINVAL;
	if ((mask & OIB_QP_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic > d->max_qp_init_rd_atom)
		return -EINVAL;
	if ((mask & OIB_QP_MAX_DEST_RD_ATOMIC) && attr->max_dest_rd_atomic > d->max_qp_rd_atom)
		return -EINVAL;
	if ((mask & OIB_QP_PATH_MIG_STATE) && attr->path_mig_state > OIB_MIG_ARMED)
		return -EINVAL;
	return 0;
}

int oib_modify_qp(struct oib_qp *qp, struct oib_qp_attr *attr, int attr_mask)
{
	enum oib_qp_state cur, next;
	int ret;

	if (IS_ERR_OR_NULL(qp) || !attr || (attr_mask & ~OIB_QP_ATTR_ALL))
		return -EINVAL;
	qp = qp->real_qp ?: qp;		/* an opened XRC target: the QP itself */

	mutex_lock(&qp->mutex);
	cur = qp->state;
	next = (attr_mask & OIB_QP_STATE) ? attr->qp_state : cur;
	ret = -EINVAL;
	if ((attr_mask & OIB_QP_CUR_STATE) && attr->cur_qp_state != cur)
		goto out;
	if (qp->device->node_type == OIB_NODE_RNIC ?
	    !oib_iw_modify_qp_is_ok(cur, next, qp->qp_type, attr_mask) :
	    !oib_modify_qp_is_ok(cur, next, qp->qp_type, attr_mask))
		goto out;
	ret = oib_check_qp_attr_values(qp, attr, attr_mask);
	if (ret)
		goto out;

	ret = qp->device->ops->modify_qp(qp, attr, attr_mask);
	if (ret)
		goto out;
	/* Unless the transport entered ERR meanwhile: then the QP stays there. */
	if (next == OIB_QPS_RESET || next == OIB_QPS_ERR)
		WRITE_ONCE(qp->state, next);
	else
		try_cmpxchg(&qp->state, &cur, next);
	if (attr_mask & OIB_QP_PORT)
		qp->port_num = attr->port_num;
out:
	mutex_unlock(&qp->mutex);
	return ret;
}
EXPORT_SYMBOL(oib_modify_qp);

int oib_query_qp(struct oib_qp *qp, struct oib_qp_attr *attr, int attr_mask,
		 struct oib_qp_init_attr *init_attr)
{
	int ret;

	if (IS_ERR_OR_NULL(qp) || !attr || !init_attr || (attr_mask & ~OIB_QP_ATTR_ALL))
		return -EINVAL;
	qp = qp->real_qp ?: qp;
	memset(attr, 0, sizeof(*attr));
	memset(init_attr, 0, sizeof(*init_attr));

	mutex_lock(&qp->mutex);
	ret = qp->device->ops->query_qp(qp, attr, attr_mask, init_attr);
	attr->qp_state = READ_ONCE(qp->state);
	attr->cur_qp_state = attr->qp_state;
	attr->port_num = qp->port_num;
	mutex_unlock(&qp->mutex);

	init_attr->event_handler = qp->event_handler;
	init_attr->qp_context = qp->qp_context;
	init_attr->send_cq = qp->send_cq;
	init_attr->recv_cq = qp->recv_cq;
	init_attr->srq = qp->srq;
	init_attr->xrcd = qp->xrcd;
	init_attr->qp_type = qp->qp_type;
	init_attr->cap = attr->cap;
	return ret;
}
EXPORT_SYMBOL(oib_query_qp);

void oib_qp_transport_error(struct oib_qp *qp)
{
	enum oib_qp_state cur = READ_ONCE(qp->state);

	do {
		if (cur == OIB_QPS_RESET || cur == OIB_QPS_ERR)
			return;
	} while (!try_cmpxchg(&qp->state, &cur, OIB_QPS_ERR));
}
EXPORT_SYMBOL(oib_qp_transport_error);

int oib_destroy_qp(struct oib_qp *qp)
{
	if (IS_ERR_OR_NULL(qp) || qp->real_qp)	/* a handle: oib_close_qp() */
		return -EINVAL;
	if (rcu_access_pointer(qp->watch))
		return -EBUSY;
	if (oib_qp_shared(qp))
		return oib_xrc_tgt_destroy(qp);
	return oib_destroy_qp_now(qp);
}
EXPORT_SYMBOL(oib_destroy_qp);

/* Destroy @qp, which nothing else holds. */
int oib_destroy_qp_now(struct oib_qp *qp)
{
	struct oib_device *device;
	struct oib_qp deps;

	device = qp->device;
	deps = (struct oib_qp){ .pd = qp->pd, .send_cq = qp->send_cq, .recv_cq = qp->recv_cq,
				.srq = qp->srq, .xrcd = qp->xrcd, .xrc_rcv = qp->xrc_rcv };

	oib_res_del(device, OIB_OBJ_QP, &qp->res);
	device->ops->destroy_qp(qp);
	mutex_destroy(&qp->mutex);
	oib_free_object(device, OIB_OBJ_QP, qp);
	oib_qp_put_deps(&deps);
	return 0;
}

int oib_post_send(struct oib_qp *qp, const struct oib_send_wr *wr,
		  const struct oib_send_wr **bad_wr)
{
	const struct oib_send_wr *dummy;

	if (unlikely(qp->real_qp)) {	/* an opened XRC target sends nothing */
		*(bad_wr ?: &dummy) = wr;
		return -EINVAL;
	}
	return qp->device->ops->post_send(qp, wr, bad_wr ?: &dummy);
}
EXPORT_SYMBOL(oib_post_send);

int oib_post_recv(struct oib_qp *qp, const struct oib_recv_wr *wr,
		  const struct oib_recv_wr **bad_wr)
{
	const struct oib_recv_wr *dummy;

	if (unlikely(qp->real_qp)) {	/* its receives are the SRQs' */
		*(bad_wr ?: &dummy) = wr;
		return -EINVAL;
	}
	return qp->device->ops->post_recv(qp, wr, bad_wr ?: &dummy);
}
EXPORT_SYMBOL(oib_post_recv);
