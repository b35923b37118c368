// SPDX-License-Identifier: GPL-2.0-only
/*
 * What oib_cm tells the CMA, turned into the owner's events.  One handler serves every cm_id the
 * CMA makes: a cm_id whose context is NULL was just spawned by a port's shared listener and
 * brings a request; any other carries its id as context.
 */
#include <linux/slab.h>
#include "cma_priv.h"

/* The REP's values and private data, kept for ESTABLISHED (or given with CONNECT_RESPONSE). */
static void cma_keep_rep(struct cma_id_priv *priv, const struct oib_cm_event *ev)
{
	const struct oib_cm_rep_event_param *rep = &ev->param.rep;
	struct oib_cma_conn_param *p = &priv->rep_param;

	memset(p, 0, sizeof(*p));
	p->responder_resources = rep->responder_resources;
	p->initiator_depth = rep->initiator_depth;
	p->rnr_retry_count = rep->rnr_retry_count;
	p->srq = rep->srq;
	memcpy(priv->rep_pdata, ev->private_data, ev->private_data_len);
	p->private_data = priv->rep_pdata;
	p->private_data_len = ev->private_data_len;
}

/* The address vector to the peer of a UD exchange, from the route. */
static void cma_ud_ah(struct cma_id_priv *priv, struct oib_ah_attr *ah)
{
	const struct oib_cm_path *path = &priv->id.route.path;
	int index = 0;

	memset(ah, 0, sizeof(*ah));
	ah->port_num = priv->id.port_num;
	ah->flags = OIB_AH_GRH;
	ah->grh.dgid = path->dgid;
	ah->grh.flow_label = path->flow_label;
	ah->grh.hop_limit = path->hop_limit;
	ah->grh.traffic_class = path->traffic_class;
	oib_find_gid(priv->id.device, &path->sgid, NULL, &index);
	ah->grh.sgid_index = index;
}

/* Sort an oib_cm event into the table's event, with what the owner hears filled in. */
static enum cma_event cma_cm_event(struct cma_id_priv *priv, const struct oib_cm_event *ev,
				   struct oib_cma_event *out)
{
	out->param.conn.private_data = ev->private_data;
	out->param.conn.private_data_len = ev->private_data_len;
	switch (ev->type) {
	case OIB_CM_EVENT_REP_RECEIVED:
		cma_keep_rep(priv, ev);
		out->param.conn = priv->rep_param;
		if (priv->conn_flags & OIB_CMA_CONFIRM_REP)
			return CMA_EV_CM_REP_CONFIRM;
		return oib_cm_send_rtu(priv->cm_id, NULL, 0) ? CMA_EV_CM_REJ : CMA_EV_CM_REP;
	case OIB_CM_EVENT_ESTABLISHED:
		if (priv->role == CMA_ROLE_ACTIVE)
			out->param.conn = priv->rep_param;
		return CMA_EV_CM_ESTABLISHED;
	case OIB_CM_EVENT_REJ_RECEIVED:
		out->status = ev->param.rej.reason;
		return CMA_EV_CM_REJ;
	case OIB_CM_EVENT_REQ_ERROR:
	case OIB_CM_EVENT_SIDR_REQ_ERROR:
		out->status = ev->param.status ?: -ETIMEDOUT;
		return CMA_EV_CM_REQ_ERR;
	case OIB_CM_EVENT_REP_ERROR:
		out->status = ev->param.status ?: -ETIMEDOUT;
		return CMA_EV_CM_REP_ERR;
	case OIB_CM_EVENT_DREQ_RECEIVED:
		return CMA_EV_CM_DREQ;
	case OIB_CM_EVENT_DREP_RECEIVED:
		return CMA_EV_CM_DREQ_DONE;
	case OIB_CM_EVENT_DREQ_ERROR:
		out->status = ev->param.status ?: -ETIMEDOUT;
		return CMA_EV_CM_DREQ_DONE;
	case OIB_CM_EVENT_TIMEWAIT_EXIT:
		return CMA_EV_CM_TIMEWAIT_EXIT;
	case OIB_CM_EVENT_SIDR_REP_RECEIVED:
		if (ev->param.sidr_rep.status != OIB_CM_SIDR_SUCCESS ||
		    ev->param.sidr_rep.qkey != priv->qkey) {
			out->status = ev->param.sidr_rep.status ?: OIB_CM_SIDR_REJECT;
			return CMA_EV_CM_REJ;
		}
		cma_ud_ah(priv, &out->param.ud.ah_attr);
		out->param.ud.qp_num = ev->param.sidr_rep.qpn;
		out->param.ud.qkey = ev->param.sidr_rep.qkey;
		return CMA_EV_CM_SIDR_OK;
	default:		/* MRA: oib_cm waits longer by itself */
		return CMA_NEVENTS;
	}
}

/* The owner's handler answered non-zero: the id goes, its cm_id by oib_cm's hand. */
static int cma_destroy_from_cm(struct cma_id_priv *priv)
{
	priv->cm_destroyed = true;
	cma_destroy(priv);
	return 1;
}

/* ---- A request for a listener ---- */

/* The new id for a request a listener takes: addresses from the header, the request's path. */
static struct cma_id_priv *cma_spawn(struct cma_id_priv *listener, struct oib_cm_id *cm_id,
				     const struct cma_hdr_info *hdr, const struct oib_cm_event *ev)
{
	bool sidr = ev->type == OIB_CM_EVENT_SIDR_REQ_RECEIVED;
	u32 port = sidr ? ev->param.sidr_req.port_num : ev->param.req.port_num;
	struct cma_id_priv *child;

	child = cma_id_alloc(listener->net, listener->id.event_handler, listener->id.context,
			     listener->id.ps, listener->id.qp_type, listener->res.caller);
	if (!child)
		return NULL;
	memcpy(&child->id.route.addr.src_addr, &hdr->dst, sizeof(hdr->dst));
	cma_addr_set_port(oib_cma_src_addr(&child->id), cm_id->service_id & 0xffff);
	memcpy(&child->id.route.addr.dst_addr, &hdr->src, sizeof(hdr->src));
	if (!sidr)
		child->id.route.path = ev->param.req.path;
	child->role = CMA_ROLE_PASSIVE;
	mutex_lock(&child->lock);
	if (cma_attach_dev(child, cm_id->device, port)) {
		mutex_unlock(&child->lock);
		cma_id_put(child);
		return NULL;
	}
	mutex_unlock(&child->lock);
	child->cm_id = cm_id;
	child->cm_local_id = cm_id->local_id;
	cm_id->context = child;
	kref_get(&listener->ref);
	child->listener = listener;
	atomic_inc(&listener->pending);
	return child;
}

static void cma_req_param(const struct oib_cm_event *ev, struct oib_cma_event *out,
			  struct cma_id_priv *child)
{
	u8 hdr = child->id.ps == OIB_PS_SDP ? 0 : OIB_CMA_HDR_SIZE;
	const u8 *pdata = (const u8 *)ev->private_data + hdr;
	u8 len = ev->private_data_len - hdr;

	if (ev->type == OIB_CM_EVENT_SIDR_REQ_RECEIVED) {
		out->param.ud.private_data = pdata;
		out->param.ud.private_data_len = len;
		out->param.ud.ah_attr = ev->param.sidr_req.ah_attr;
		out->param.ud.qkey = child->qkey;
		return;
	}
	out->param.conn.private_data = pdata;
	out->param.conn.private_data_len = len;
	out->param.conn.responder_resources = ev->param.req.responder_resources;
	out->param.conn.initiator_depth = ev->param.req.initiator_depth;
	out->param.conn.retry_count = ev->param.req.retry_count;
	out->param.conn.rnr_retry_count = ev->param.req.rnr_retry_count;
	out->param.conn.srq = ev->param.req.srq;
}

/*
 * A REQ or SIDR_REQ on a spawned cm_id: find its listener, make the new id, deliver
 * CONNECT_REQUEST while the listener cannot go.  Non-zero: oib_cm refuses the request (REJ
 * "consumer defined", as the rdma_cm does for one nobody matches) and destroys the cm_id.
 */
static int cma_req_handler(struct oib_cm_id *cm_id, const struct oib_cm_event *ev)
{
	bool sidr = ev->type == OIB_CM_EVENT_SIDR_REQ_RECEIVED;
	u32 port = sidr ? ev->param.sidr_req.port_num : ev->param.req.port_num;
	struct oib_cma_event out = { .event = OIB_CMA_EVENT_CONNECT_REQUEST };
	struct cma_id_priv *listener, *child = NULL;
	struct cma_hdr_info hdr;
	int ret;

	if (!sidr && ev->type != OIB_CM_EVENT_REQ_RECEIVED)
		return 1;
	if (cm_id->service_id >> 16 == OIB_PS_SDP ?
	    cma_sdp_hello_parse(ev->private_data, ev->private_data_len, &hdr) :
	    cma_hdr_parse(ev->private_data, ev->private_data_len, &hdr))
		return 1;
	cma_addr_set_port((struct sockaddr *)&hdr.dst, cm_id->service_id & 0xffff);
	listener = cma_listen_match(cm_id->service_id, (struct sockaddr *)&hdr.dst,
				    cm_id->device, port);
	if (!listener)
		return 1;
	mutex_lock(&listener->handler_mutex);
	ret = 1;
	if (READ_ONCE(listener->state) != CMA_LISTEN)
		goto out;
	if (atomic_read(&listener->pending) >= listener->backlog) {
		if (!sidr)
			oib_cm_send_rej(cm_id, OIB_CM_REJ_NO_RESOURCES, NULL, 0, NULL, 0);
		goto out;
	}
	child = cma_spawn(listener, cm_id, &hdr, ev);
	if (!child)
		goto out;
	cma_req_param(ev, &out, child);
	WRITE_ONCE(listener->handler_task, current);
	ret = cma_deliver_nested(child, CMA_EV_CM_REQ, &out, SINGLE_DEPTH_NESTING);
	WRITE_ONCE(listener->handler_task, NULL);
out:
	mutex_unlock(&listener->handler_mutex);
	if (child && ret)	/* not under the listener's handler_mutex: destroy takes child's */
		cma_destroy_from_cm(child);
	cma_id_put(listener);
	return ret;
}

int cma_cm_handler(struct oib_cm_id *cm_id, const struct oib_cm_event *ev)
{
	struct cma_id_priv *priv = cm_id->context;
	struct oib_cma_event out = {};
	enum cma_event event;

	if (!priv)
		return cma_req_handler(cm_id, ev);
	event = cma_cm_event(priv, ev, &out);
	if (event == CMA_NEVENTS || !cma_deliver(priv, event, &out))
		return 0;
	return cma_destroy_from_cm(priv);
}
