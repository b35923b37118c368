// SPDX-License-Identifier: GPL-2.0-only
/*
 * RNICs: connections through oib_iwcm.  The calls map one to one (connect, accept, reject,
 * disconnect: the QP to ERR); what oib_iwcm reports is turned into the table's events as the
 * rdma_cm turns iw_cm's: a reply is ESTABLISHED, REJECTED (-ECONNREFUSED, -ECONNRESET: the
 * status is the errno) or UNREACHABLE; DISCONNECT and a CLOSE nobody announced are the peer's
 * release, a CLOSE after our disconnect its end.  There is no cma header on iWARP: the ULP's
 * private data goes into the MPA frame as it is, and a request finds its listener by the
 * address it came to.  Each port of the TCP port space with listeners has an oib_iwcm
 * listener on the wildcard address on every RNIC (cma_bind.c keeps them).
 */
#include "cma_priv.h"

static void cma_iw_param(struct oib_cma_event *out, const struct oib_iwcm_event *ev)
{
	out->param.conn.private_data = ev->private_data;
	out->param.conn.private_data_len = ev->private_data_len;
	out->param.conn.responder_resources = min_t(u32, ev->ird, U8_MAX);
	out->param.conn.initiator_depth = min_t(u32, ev->ord, U8_MAX);
}

static enum cma_event cma_iw_event(struct cma_id_priv *priv, const struct oib_iwcm_event *ev,
				   struct oib_cma_event *out)
{
	cma_iw_param(out, ev);
	switch (ev->event) {
	case OIB_IW_CM_EVENT_CONNECT_REPLY:
		out->status = ev->status;
		if (!ev->status)
			return CMA_EV_CM_ESTABLISHED;
		if (ev->status == -ECONNREFUSED || ev->status == -ECONNRESET)
			return CMA_EV_CM_REJ;
		return CMA_EV_CM_REQ_ERR;
	case OIB_IW_CM_EVENT_ESTABLISHED:
		return CMA_EV_CM_ESTABLISHED;
	case OIB_IW_CM_EVENT_DISCONNECT:
		return CMA_EV_CM_DREQ;
	case OIB_IW_CM_EVENT_CLOSE:
		switch (READ_ONCE(priv->state)) {
		case CMA_ESTABLISHED:	/* reset, no DISCONNECT first */
			return CMA_EV_CM_DREQ;
		case CMA_DISCONNECT:	/* after ours */
			return CMA_EV_CM_DREQ_DONE;
		case CMA_ACCEPTED:	/* accepted, never up */
			out->status = -ECONNRESET;
			return CMA_EV_CM_REP_ERR;
		default:		/* already told */
			return CMA_NEVENTS;
		}
	default:
		return CMA_NEVENTS;
	}
}

/* The owner's handler answered non-zero: the id goes, its iwcm id by oib_iwcm's hand. */
static int cma_iw_destroy_from_iwcm(struct cma_id_priv *priv)
{
	priv->iw_destroyed = true;
	cma_destroy(priv);
	return 1;
}

/* The new id for a request a listener takes: addresses and device from the iwcm id. */
static struct cma_id_priv *cma_iw_spawn(struct cma_id_priv *listener, struct oib_iwcm_id *iw,
					u32 port)
{
	struct cma_id_priv *child;

	child = cma_id_alloc(listener->net, listener->id.event_handler, listener->id.context,
			     listener->id.ps, listener->id.qp_type, listener->res.caller);
	if (!child)
		return NULL;
	memcpy(&child->id.route.addr.src_addr, &iw->local_addr, sizeof(iw->local_addr));
	memcpy(&child->id.route.addr.dst_addr, &iw->remote_addr, sizeof(iw->remote_addr));
	child->role = CMA_ROLE_PASSIVE;
	mutex_lock(&child->lock);
	if (cma_attach_dev(child, iw->device, port)) {
		mutex_unlock(&child->lock);
		cma_id_put(child);
		return NULL;
	}
	mutex_unlock(&child->lock);
	child->iw_id = iw;
	iw->context = child;
	kref_get(&listener->ref);
	child->listener = listener;
	atomic_inc(&listener->pending);
	return child;
}

/*
 * A request on a new iwcm id: find the listener of the address it came to, make the new id,
 * deliver CONNECT_REQUEST while the listener cannot go.  Non-zero: oib_iwcm refuses it.
 */
static int cma_iw_req(struct oib_iwcm_id *iw, const struct oib_iwcm_event *ev)
{
	struct oib_cma_event out = { .event = OIB_CMA_EVENT_CONNECT_REQUEST };
	const struct sockaddr *dst = (const struct sockaddr *)&iw->local_addr;
	struct cma_id_priv *listener, *child = NULL;
	union oib_gid gid;
	u32 port;
	int ret;

	cma_addr_to_gid(dst, &gid);
	if (oib_find_gid(iw->device, &gid, &port, NULL))
		return 1;
	listener = cma_listen_match(cma_service_id(OIB_PS_TCP, cma_addr_port(dst)), dst,
				    iw->device, port);
	if (!listener)
		return 1;
	mutex_lock(&listener->handler_mutex);
	ret = 1;
	if (READ_ONCE(listener->state) != CMA_LISTEN ||
	    atomic_read(&listener->pending) >= listener->backlog)
		goto out;
	child = cma_iw_spawn(listener, iw, port);
	if (!child)
		goto out;
	cma_iw_param(&out, ev);
	WRITE_ONCE(listener->handler_task, current);
	ret = cma_deliver_nested(child, CMA_EV_CM_REQ, &out, SINGLE_DEPTH_NESTING);
	WRITE_ONCE(listener->handler_task, NULL);
out:
	mutex_unlock(&listener->handler_mutex);
	if (child && ret)	/* not under the listener's handler_mutex: destroy takes child's */
		cma_iw_destroy_from_iwcm(child);
	cma_id_put(listener);
	return ret;
}

int cma_iw_handler(struct oib_iwcm_id *iw, const struct oib_iwcm_event *ev)
{
	struct cma_id_priv *priv = iw->context;
	struct oib_cma_event out = {};
	enum cma_event event;

	if (ev->event == OIB_IW_CM_EVENT_CONNECT_REQUEST)
		return cma_iw_req(iw, ev);
	event = cma_iw_event(priv, ev, &out);
	if (event == CMA_NEVENTS || !cma_deliver(priv, event, &out))
		return 0;
	return cma_iw_destroy_from_iwcm(priv);
}

static void cma_iw_conn_param(struct cma_id_priv *priv, const struct oib_cma_conn_param *p,
			      struct oib_iw_cm_conn_param *iwp)
{
	u8 ird, ord;

	cma_rd_depths(priv, p, &ird, &ord);
	*iwp = (struct oib_iw_cm_conn_param){
		.private_data = p->private_data,
		.private_data_len = p->private_data_len,
		.ird = ird,
		.ord = ord,
		.qp = priv->id.qp,
	};
}

/*
 * Connect on an RNIC, the step taken.  On failure the iwcm id is handed back in @undo for the
 * caller to destroy outside the id's lock (destroy waits for oib_iwcm's work, which takes it).
 */
int cma_iw_connect_locked(struct cma_id_priv *priv, const struct oib_cma_conn_param *p,
			  struct oib_iwcm_id **undo)
{
	struct oib_iw_cm_conn_param iwp;
	struct oib_iwcm_id *iw;
	int ret;

	lockdep_assert_held(&priv->lock);
	iw = oib_iwcm_create_id(priv->id.device, cma_iw_handler, priv);
	if (IS_ERR(iw))
		return PTR_ERR(iw);
	priv->iw_id = iw;
	cma_iw_conn_param(priv, p, &iwp);
	ret = oib_iwcm_connect(iw, oib_cma_src_addr(&priv->id), oib_cma_dst_addr(&priv->id),
			       &iwp);
	if (ret) {
		priv->iw_id = NULL;
		*undo = iw;
	}
	return ret;
}

int cma_iw_accept_locked(struct cma_id_priv *priv, const struct oib_cma_conn_param *p)
{
	struct oib_iw_cm_conn_param iwp;

	lockdep_assert_held(&priv->lock);
	if (priv->state != CMA_REQ_RCVD || !p || !priv->id.qp ||
	    p->private_data_len > OIB_IW_CM_PRIVATE_DATA_SIZE)
		return -EINVAL;
	cma_iw_conn_param(priv, p, &iwp);
	return oib_iwcm_accept(priv->iw_id, &iwp);
}
