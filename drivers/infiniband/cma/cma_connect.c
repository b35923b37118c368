// SPDX-License-Identifier: GPL-2.0-only
/*
 * The calls that set up and take down a connection: the QP on the id, connect, accept, reject,
 * disconnect.  Each checks its arguments, takes the table's step, and asks oib_cm for the
 * message; the REQ's fields are those the rdma_cm fills on RoCE (wire-interop.md A4, A6).
 */
#include <linux/random.h>
#include "cma_priv.h"

#define CMA_CM_RESPONSE_TIMEOUT		20	/* 4.3 s */
#define CMA_MAX_CM_RETRIES		15
#define CMA_SIDR_TIMEOUT_MS		4096	/* 2^(20 - 8) */

static u64 cma_dst_service_id(struct cma_id_priv *priv)
{
	return cma_service_id(priv->id.ps, cma_addr_port(oib_cma_dst_addr(&priv->id)));
}

/* RDMA read depths as asked, but no deeper than the device goes (the rdma_cm clamps too). */
void cma_rd_depths(struct cma_id_priv *priv, const struct oib_cma_conn_param *p,
		   u8 *responder_resources, u8 *initiator_depth)
{
	struct oib_device_attr attr;

	*responder_resources = p->responder_resources;
	*initiator_depth = p->initiator_depth;
	if (oib_query_device(priv->id.device, &attr))
		return;
	*responder_resources = min_t(u32, *responder_resources, attr.max_qp_rd_atom);
	*initiator_depth = min_t(u32, *initiator_depth, attr.max_qp_init_rd_atom);
}

static bool cma_pdata_ok(const void *pdata, u8 len, u8 max)
{
	return len <= max && (pdata || !len);
}

/* ---- The QP ---- */

/* RC and UC: to INIT, as the rdma_cm does, so the owner may post receives before connecting. */
static int cma_conn_qp_init(struct cma_id_priv *priv, struct oib_qp *qp)
{
	struct oib_qp_attr attr = {
		.qp_state = OIB_QPS_INIT,
		.port_num = priv->id.port_num,
		.qp_access_flags = OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE |
				   (qp->qp_type == OIB_QPT_RC ? OIB_ACCESS_REMOTE_READ : 0),
	};

	return oib_modify_qp(qp, &attr, OIB_QP_STATE | OIB_QP_PKEY_INDEX | OIB_QP_PORT |
			     OIB_QP_ACCESS_FLAGS);
}

static int cma_ud_qp_ready(struct cma_id_priv *priv, struct oib_qp *qp)
{
	struct oib_qp_attr attr = {
		.qp_state = OIB_QPS_INIT,
		.port_num = priv->id.port_num,
		.qkey = priv->qkey,
	};
	int ret;

	ret = oib_modify_qp(qp, &attr,
			    OIB_QP_STATE | OIB_QP_PKEY_INDEX | OIB_QP_PORT | OIB_QP_QKEY);
	attr.qp_state = OIB_QPS_RTR;
	ret = ret ?: oib_modify_qp(qp, &attr, OIB_QP_STATE);
	attr.qp_state = OIB_QPS_RTS;
	attr.sq_psn = get_random_u32() & 0xffffff;
	return ret ?: oib_modify_qp(qp, &attr, OIB_QP_STATE | OIB_QP_SQ_PSN);
}

/* @qp on the id, moved as oib_cma_create_qp() moves a new one; priv->lock held. */
static int cma_take_qp_locked(struct cma_id_priv *priv, struct oib_qp *qp)
{
	struct oib_cma_id *id = &priv->id;
	int ret;

	ret = id->qp_type == OIB_QPT_UD ? cma_ud_qp_ready(priv, qp) : cma_conn_qp_init(priv, qp);
	if (ret)
		return ret;
	id->qp = qp;
	WRITE_ONCE(priv->qpn, qp->qp_num);
	return 0;
}

int oib_cma_attach_qp(struct oib_cma_id *id, struct oib_qp *qp)
{
	struct cma_id_priv *priv;
	int ret = -EINVAL;

	if (!id || !qp || qp->qp_type != id->qp_type)
		return -EINVAL;
	priv = to_cma(id);
	mutex_lock(&priv->lock);
	if (id->device && qp->device == id->device && !id->qp &&
	    READ_ONCE(qp->state) == OIB_QPS_RESET)
		ret = cma_take_qp_locked(priv, qp);
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_cma_attach_qp);

int oib_cma_create_qp(struct oib_cma_id *id, struct oib_pd *pd,
		      struct oib_qp_init_attr *init_attr)
{
	struct cma_id_priv *priv;
	struct oib_qp *qp;
	int ret;

	if (!id || !pd || !init_attr || init_attr->qp_type != id->qp_type)
		return -EINVAL;
	priv = to_cma(id);
	mutex_lock(&priv->lock);
	ret = -EINVAL;
	if (!id->device || pd->device != id->device || id->qp)
		goto out;
	qp = oib_create_qp(pd, init_attr);
	ret = PTR_ERR_OR_ZERO(qp);
	if (ret)
		goto out;
	ret = cma_take_qp_locked(priv, qp);
	if (ret)
		oib_destroy_qp(qp);
out:
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_cma_create_qp);

/* The connection lets go of the QP (to ERR first): the owner's again. */
struct oib_qp *oib_cma_detach_qp(struct oib_cma_id *id)
{
	struct cma_id_priv *priv;
	struct oib_qp *qp;

	if (!id)
		return NULL;
	priv = to_cma(id);
	mutex_lock(&priv->lock);
	qp = id->qp;
	id->qp = NULL;
	WRITE_ONCE(priv->qpn, 0);
	if (qp && priv->cm_id && !priv->cm_destroyed)
		oib_cm_release_qp(priv->cm_id);
	if (qp && priv->iw_id && !priv->iw_destroyed)
		oib_iwcm_release_qp(priv->iw_id);
	mutex_unlock(&priv->lock);
	return qp;
}
EXPORT_SYMBOL(oib_cma_detach_qp);

/* The connection lets go of the QP (to ERR first), then it is destroyed. */
void oib_cma_destroy_qp(struct oib_cma_id *id)
{
	struct oib_qp *qp = oib_cma_detach_qp(id);

	if (qp)
		WARN_ON(oib_destroy_qp(qp));
}
EXPORT_SYMBOL(oib_cma_destroy_qp);

/* ---- Active side ---- */

static int cma_new_cm_id_locked(struct cma_id_priv *priv)
{
	struct oib_cm_id *cm = oib_cm_create_id(priv->id.device, cma_cm_handler, priv);

	if (IS_ERR(cm))
		return PTR_ERR(cm);
	priv->cm_id = cm;
	WRITE_ONCE(priv->cm_local_id, cm->local_id);
	return 0;
}

/* The REQ's private data: the CMA's header and the owner's, or (SDP) the owner's alone. */
static u8 cma_req_pdata(struct cma_id_priv *priv, const struct oib_cma_conn_param *p, u8 *pdata)
{
	u8 hdr = priv->id.ps == OIB_PS_SDP ? 0 : OIB_CMA_HDR_SIZE;

	if (hdr)
		cma_hdr_pack(pdata, oib_cma_src_addr(&priv->id), oib_cma_dst_addr(&priv->id));
	if (p->private_data_len)
		memcpy(pdata + hdr, p->private_data, p->private_data_len);
	return hdr + p->private_data_len;
}

static int cma_send_req_locked(struct cma_id_priv *priv, const struct oib_cma_conn_param *p)
{
	u8 pdata[OIB_CM_REQ_PRIVATE_DATA_SIZE] = {};
	struct oib_cm_req_param req = {
		.qp = priv->id.qp,
		.path = &priv->id.route.path,
		.service_id = cma_dst_service_id(priv),
		.starting_psn = get_random_u32() & 0xffffff,
		.private_data = pdata,
		.private_data_len = cma_req_pdata(priv, p, pdata),
		.remote_cm_response_timeout = CMA_CM_RESPONSE_TIMEOUT,
		.local_cm_response_timeout = CMA_CM_RESPONSE_TIMEOUT,
		.retry_count = min_t(u8, p->retry_count, 7),
		.rnr_retry_count = min_t(u8, p->rnr_retry_count, 7),
		.max_cm_retries = CMA_MAX_CM_RETRIES,
	};

	cma_rd_depths(priv, p, &req.responder_resources, &req.initiator_depth);
	return oib_cm_send_req(priv->cm_id, &req);
}

static int cma_send_sidr_req_locked(struct cma_id_priv *priv, const struct oib_cma_conn_param *p)
{
	u8 pdata[OIB_CM_SIDR_REQ_PRIVATE_DATA_SIZE] = {};
	struct oib_cm_sidr_req_param req = {
		.path = &priv->id.route.path,
		.service_id = cma_dst_service_id(priv),
		.timeout_ms = CMA_SIDR_TIMEOUT_MS,
		.max_cm_retries = CMA_MAX_CM_RETRIES,
		.private_data = pdata,
		.private_data_len = OIB_CMA_HDR_SIZE + p->private_data_len,
	};

	cma_hdr_pack(pdata, oib_cma_src_addr(&priv->id), oib_cma_dst_addr(&priv->id));
	if (p->private_data_len)
		memcpy(pdata + OIB_CMA_HDR_SIZE, p->private_data, p->private_data_len);
	return oib_cm_send_sidr_req(priv->cm_id, &req);
}

int oib_cma_connect(struct oib_cma_id *id, const struct oib_cma_conn_param *param)
{
	struct oib_iwcm_id *undo = NULL;
	struct cma_id_priv *priv;
	bool ud, iw;
	int ret;

	if (!id || !param || param->flags & ~OIB_CMA_CONFIRM_REP)
		return -EINVAL;
	ud = id->qp_type == OIB_QPT_UD;
	iw = id->device && !cma_over_ib_cm(id->device);	/* set once, before connect */
	if (iw && (ud || param->flags || id->ps == OIB_PS_SDP))
		return -EOPNOTSUPP;	/* no SIDR, no REP to confirm and no SDP on iWARP */
	if (!cma_pdata_ok(param->private_data, param->private_data_len,
			  ud ? OIB_CMA_SIDR_PRIVATE_DATA_SIZE : iw ? OIB_IW_CM_PRIVATE_DATA_SIZE :
			  id->ps == OIB_PS_SDP ? OIB_CMA_SDP_PRIVATE_DATA_SIZE :
			  OIB_CMA_REQ_PRIVATE_DATA_SIZE))
		return -EINVAL;
	priv = to_cma(id);
	mutex_lock(&priv->lock);
	ret = -EINVAL;
	if ((ud || id->qp) && !priv->cm_id && !priv->iw_id)
		ret = cma_step_locked(priv, CMA_EV_CONNECT, NULL);
	if (ret)
		goto out;
	priv->role = CMA_ROLE_ACTIVE;
	priv->conn_flags = param->flags;
	if (iw) {
		ret = cma_iw_connect_locked(priv, param, &undo);
	} else {
		ret = cma_new_cm_id_locked(priv);
		if (!ret)
			ret = ud ? cma_send_sidr_req_locked(priv, param) :
				   cma_send_req_locked(priv, param);
	}
	if (ret) {
		if (priv->cm_id)
			oib_cm_destroy_id(priv->cm_id);
		priv->cm_id = NULL;
		priv->role = CMA_ROLE_NONE;
		priv->state = CMA_ROUTE_RESOLVED;	/* the step is taken back */
	}
out:
	mutex_unlock(&priv->lock);
	oib_iwcm_destroy_id(undo);
	return ret;
}
EXPORT_SYMBOL(oib_cma_connect);

/* ---- Answers ---- */

static int cma_send_rep_locked(struct cma_id_priv *priv, const struct oib_cma_conn_param *p)
{
	struct oib_device_attr dattr;
	struct oib_cm_rep_param rep = {
		.qp = priv->id.qp,
		.starting_psn = get_random_u32() & 0xffffff,
		.private_data = p->private_data,
		.private_data_len = p->private_data_len,
		.rnr_retry_count = min_t(u8, p->rnr_retry_count, 7),
		.srq = p->srq,
	};

	if (!rep.qp || !cma_pdata_ok(p->private_data, p->private_data_len,
				     OIB_CM_REP_PRIVATE_DATA_SIZE))
		return -EINVAL;
	cma_rd_depths(priv, p, &rep.responder_resources, &rep.initiator_depth);
	if (!oib_query_device(priv->id.device, &dattr))
		rep.target_ack_delay = dattr.local_ca_ack_delay;
	return oib_cm_send_rep(priv->cm_id, &rep);
}

static int cma_send_sidr_rep_locked(struct cma_id_priv *priv, const struct oib_cma_conn_param *p)
{
	struct oib_cm_sidr_rep_param rep = {
		.status = OIB_CM_SIDR_SUCCESS,
		.qpn = priv->id.qp ? priv->id.qp->qp_num : 0,
		.qkey = priv->qkey,
		.private_data = p->private_data,
		.private_data_len = p->private_data_len,
	};

	if (!priv->id.qp || !cma_pdata_ok(p->private_data, p->private_data_len,
					  OIB_CM_SIDR_REP_PRIVATE_DATA_SIZE))
		return -EINVAL;
	return oib_cm_send_sidr_rep(priv->cm_id, &rep);
}

static int cma_accept_locked(struct cma_id_priv *priv, const struct oib_cma_conn_param *p)
{
	if (priv->state == CMA_REP_RCVD)	/* the active side confirms the REP */
		return p ? -EINVAL : oib_cm_send_rtu(priv->cm_id, NULL, 0);
	if (priv->state != CMA_REQ_RCVD || !p)
		return -EINVAL;
	if (priv->id.qp_type == OIB_QPT_UD)
		return cma_send_sidr_rep_locked(priv, p);
	return cma_send_rep_locked(priv, p);
}

int oib_cma_accept(struct oib_cma_id *id, const struct oib_cma_conn_param *param)
{
	struct cma_id_priv *priv;
	int ret;

	if (!id)
		return -EINVAL;
	priv = to_cma(id);
	mutex_lock(&priv->lock);
	ret = priv->cm_id ? cma_accept_locked(priv, param) :
	      priv->iw_id ? cma_iw_accept_locked(priv, param) : -EINVAL;
	if (!ret)
		cma_step_locked(priv, CMA_EV_ACCEPT, NULL);
	mutex_unlock(&priv->lock);
	if (!ret)
		cma_release_listener(priv);
	return ret;
}
EXPORT_SYMBOL(oib_cma_accept);

int oib_cma_reject(struct oib_cma_id *id, const void *private_data, u8 private_data_len)
{
	struct oib_cm_sidr_rep_param sidr = {
		.status = OIB_CM_SIDR_REJECT,
		.private_data = private_data,
		.private_data_len = private_data_len,
	};
	struct cma_id_priv *priv;
	bool ud;
	int ret;

	if (!id)
		return -EINVAL;
	ud = id->qp_type == OIB_QPT_UD;
	if (!cma_pdata_ok(private_data, private_data_len, ud ? OIB_CM_SIDR_REP_PRIVATE_DATA_SIZE :
			  OIB_CM_REJ_PRIVATE_DATA_SIZE))
		return -EINVAL;
	priv = to_cma(id);
	mutex_lock(&priv->lock);
	ret = -EINVAL;
	if (priv->cm_id && (priv->state == CMA_REQ_RCVD || priv->state == CMA_REP_RCVD))
		ret = ud ? oib_cm_send_sidr_rep(priv->cm_id, &sidr) :
			   oib_cm_send_rej(priv->cm_id, OIB_CM_REJ_CONSUMER_DEFINED, NULL, 0,
					   private_data, private_data_len);
	else if (priv->iw_id && priv->state == CMA_REQ_RCVD)
		ret = oib_iwcm_reject(priv->iw_id, private_data, private_data_len);
	if (!ret)
		cma_step_locked(priv, CMA_EV_REJECT, NULL);
	mutex_unlock(&priv->lock);
	if (!ret)
		cma_release_listener(priv);
	return ret;
}
EXPORT_SYMBOL(oib_cma_reject);

/* ---- Release ---- */

static int cma_iw_disconnect_locked(struct cma_id_priv *priv)
{
	switch (priv->state) {
	case CMA_ESTABLISHED:
	case CMA_DREQ_RCVD:
	case CMA_ACCEPTED:
		return oib_iwcm_disconnect(priv->iw_id);
	case CMA_DISCONNECT:
	case CMA_DISCONNECTED:
		return 0;
	default:
		return -EINVAL;
	}
}

static int cma_disconnect_locked(struct cma_id_priv *priv)
{
	int ret;

	if (priv->iw_id)
		return cma_iw_disconnect_locked(priv);
	switch (priv->state) {
	case CMA_ESTABLISHED:
		/*
		 * -EINVAL: oib_cm holds the peer's DREQ, its event not handled here yet, and waits
		 * for our DREP (only DREQs that cross are answered by oib_cm itself).
		 */
		ret = oib_cm_send_dreq(priv->cm_id, NULL, 0);
		return ret == -EINVAL ? oib_cm_send_drep(priv->cm_id, NULL, 0) : ret;
	case CMA_DREQ_RCVD:
		return oib_cm_send_drep(priv->cm_id, NULL, 0);
	case CMA_ACCEPTED:	/* not established yet: the REP is taken back */
		return oib_cm_send_rej(priv->cm_id, OIB_CM_REJ_CONSUMER_DEFINED, NULL, 0, NULL, 0);
	case CMA_DISCONNECT:
	case CMA_DISCONNECTED:
		return 0;
	default:
		return -EINVAL;
	}
}

int oib_cma_disconnect(struct oib_cma_id *id)
{
	struct cma_id_priv *priv;
	int ret;

	if (!id || id->qp_type == OIB_QPT_UD)
		return -EINVAL;
	priv = to_cma(id);
	mutex_lock(&priv->lock);
	ret = priv->cm_id || priv->iw_id ? cma_disconnect_locked(priv) : -EINVAL;
	/*
	 * oib_cm (oib_iwcm) may have moved on by itself meanwhile (DREQs crossed, a DREP out; the
	 * connection closed): it is being released either way, which is what the owner asked for.
	 */
	if (ret == -EINVAL && (priv->cm_id || priv->iw_id) &&
	    (priv->state == CMA_ESTABLISHED || priv->state == CMA_DREQ_RCVD))
		ret = 0;
	if (!ret)
		cma_step_locked(priv, CMA_EV_DISCONNECT, NULL);
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_cma_disconnect);

int oib_cma_init_qp_attr(struct oib_cma_id *id, struct oib_qp_attr *attr, int *mask)
{
	struct cma_id_priv *priv;
	int ret;

	if (!id || !attr || !mask)
		return -EINVAL;
	priv = to_cma(id);
	mutex_lock(&priv->lock);
	if (id->qp_type == OIB_QPT_UD) {
		ret = -EINVAL;
		if (attr->qp_state == OIB_QPS_INIT && id->device) {
			attr->port_num = id->port_num;
			attr->pkey_index = 0;
			attr->qkey = priv->qkey;
			*mask = OIB_QP_STATE | OIB_QP_PKEY_INDEX | OIB_QP_PORT | OIB_QP_QKEY;
			ret = 0;
		}
	} else {
		ret = priv->cm_id ? oib_cm_init_qp_attr(priv->cm_id, attr, mask) : -EINVAL;
	}
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_cma_init_qp_attr);

int oib_cma_notify(struct oib_cma_id *id, enum oib_event_type event)
{
	struct cma_id_priv *priv;
	int ret;

	if (!id)
		return -EINVAL;
	priv = to_cma(id);
	mutex_lock(&priv->lock);
	ret = priv->cm_id ? oib_cm_notify(priv->cm_id, event) : -EINVAL;
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_cma_notify);
