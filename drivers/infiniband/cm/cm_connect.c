// SPDX-License-Identifier: GPL-2.0-only
/*
 * Setting a connection up (IBTA vol. 1, 12.9.5-12.9.7): the calls REQ, REP, RTU, MRA and REJ,
 * and the actions that send and take those messages.  What each side negotiates lands in
 * cm_id_priv.conn (from this side's point of view), from which cm_qp.c moves the QP.
 *
 * Timers (the in-tree CM's, from the 5-bit values on the wire): the active side resends its
 * REQ every 2 * packet life time + the peer's CM response time; the passive side its REP every
 * CM response time the REQ announced; each up to the REQ's max CM retries.  An MRA stretches
 * the wait it answers by its service timeout plus the packet life time.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "cm_action.h"
#include "cm_port.h"

/* ---- Sending, shared by the actions of every file ---- */

/* Send @msg to the peer; @await: keep it in priv->msg, resent until answered. */
int cm_send_msg_locked(struct cm_id_priv *priv, struct cm_msg *msg, bool await)
{
	struct oib_mad_send_buf *sb;

	lockdep_assert_held(&priv->mutex);
	sb = cm_port_send(priv->port, &priv->conn.av, msg, await ? priv : NULL,
			  priv->conn.timeout_ms, priv->conn.max_cm_retries);
	if (IS_ERR(sb))
		return PTR_ERR(sb);
	if (await)
		priv->msg = sb;
	return 0;
}

/* Send @msg once and keep it, packed, for the duplicates that will ask for it again. */
int cm_send_kept_locked(struct cm_id_priv *priv, struct cm_msg *msg)
{
	int ret;

	lockdep_assert_held(&priv->mutex);
	if (!priv->kept) {
		priv->kept = kzalloc(OIB_MAD_SIZE, GFP_KERNEL);
		if (!priv->kept)
			return -ENOMEM;
	}
	ret = oib_cm_wire_pack(msg, priv->kept, OIB_MAD_SIZE, NULL);
	if (!ret)
		ret = cm_send_msg_locked(priv, msg, false);
	return ret;
}

CM_ACTION(resend_kept)
{
	if (!priv->kept)
		return 0;
	return cm_port_resend(priv->port, &priv->conn.av, priv->kept);
}

/* Queue an event that carries no message. */
int cm_queue_simple(struct cm_id_priv *priv, enum oib_cm_event_type type, int status)
{
	struct oib_cm_event ev = { .type = type, .param.status = status };

	return cm_queue_event(priv, &ev);
}

int cm_queue_pdata(struct cm_id_priv *priv, struct oib_cm_event *event, const struct cm_pdata *pd)
{
	event->private_data = pd->data;
	event->private_data_len = pd->len;
	return cm_queue_event(priv, event);
}

/* Our end of a path: the port and GID index of @sgid (into conn.av), the port taken. */
int cm_bind_port_locked(struct cm_id_priv *priv, const union oib_gid *sgid)
{
	u32 port_num, index;
	struct cm_port *port;

	lockdep_assert_held(&priv->mutex);
	if (oib_find_gid(priv->id.device, sgid, &port_num, &index))
		return -EADDRNOTAVAIL;
	port = cm_port_find(priv->id.device, port_num);
	if (!port)
		return -ENODEV;
	if (priv->port)
		cm_port_put(priv->port);
	priv->port = port;
	priv->conn.av.port_num = port_num;
	priv->conn.av.grh.sgid_index = index;
	return 0;
}

/* The address vector of @path (its port bound already). */
void cm_path_av(struct oib_ah_attr *av, const struct oib_cm_path *path)
{
	av->flags = OIB_AH_GRH;
	av->sl = path->sl;
	av->static_rate = path->rate;
	av->dlid = path->dlid;
	av->grh.dgid = path->dgid;
	av->grh.flow_label = path->flow_label;
	av->grh.hop_limit = path->hop_limit;
	av->grh.traffic_class = path->traffic_class;
}

/* ---- REQ ---- */

static bool cm_req_param_ok(const struct oib_cm_id *id, const struct oib_cm_req_param *p)
{
	const struct oib_cm_path *path = p ? p->path : NULL;

	return id->device && path && !IS_ERR_OR_NULL(p->qp) && oib_mtu_to_int(path->mtu) > 0 &&
	       path->packet_life_time <= OIB_CM_TIMEOUT_MAX && path->sl < 16 &&
	       path->rate < 64 && path->flow_label < BIT(20) && p->starting_psn < BIT(24) &&
	       p->remote_cm_response_timeout <= OIB_CM_TIMEOUT_MAX &&
	       p->local_cm_response_timeout <= OIB_CM_TIMEOUT_MAX && p->retry_count < 8 &&
	       p->rnr_retry_count < 8 && p->max_cm_retries < 16 &&
	       !(p->peer_to_peer && p->qp->qp_type == OIB_QPT_XRC_INI) &&
	       cm_pdata_ok(p->private_data, p->private_data_len, CM_MSG_REQ);
}

static void cm_format_req(struct cm_id_priv *priv, const struct oib_cm_req_param *p,
			  struct cm_msg *msg)
{
	const struct oib_cm_path *path = p->path;
	struct cm_req *req = &msg->req;

	memset(msg, 0, sizeof(*msg));
	msg->type = CM_MSG_REQ;
	msg->tid = priv->conn.tid;
	req->local_comm_id = priv->id.local_id;
	req->service_id = p->service_id;
	req->local_ca_guid = priv->port->ca_guid;
	req->local_qpn = p->qp->qp_num;
	req->initiator_depth = p->initiator_depth;
	req->remote_cm_response_timeout = p->remote_cm_response_timeout;
	req->transport = priv->conn.transport;
	req->starting_psn = p->starting_psn;
	req->local_cm_response_timeout = p->local_cm_response_timeout;
	req->pkey = path->pkey;
	req->path_mtu = path->mtu;
	req->max_cm_retries = p->max_cm_retries;
	if (req->transport != OIB_CM_TRANSPORT_XRC) {
		/* an XRC initiator has no receive side: what only a responder uses stays 0 */
		req->responder_resources = p->responder_resources;
		req->retry_count = p->retry_count;
		req->rnr_retry_count = p->rnr_retry_count;
		req->srq = p->qp->srq;
	}
	req->primary = (struct cm_path){
		.local_lid = path->slid, .remote_lid = path->dlid,
		.local_gid = path->sgid, .remote_gid = path->dgid,
		.flow_label = path->flow_label, .packet_rate = path->rate,
		.traffic_class = path->traffic_class, .hop_limit = path->hop_limit,
		.sl = path->sl, .subnet_local = path->hop_limit <= 1,
		.local_ack_timeout = priv->conn.ack_timeout,
	};
	req->pdata = (struct cm_pdata){ p->private_data, p->private_data_len };
}

CM_ACTION(send_req)
{
	const struct oib_cm_req_param *p = ctx->param;
	const struct oib_cm_path *path = p->path;
	struct cm_conn *c = &priv->conn;
	struct cm_msg msg;
	u16 pkey_index;
	int ret;

	ret = cm_qp_transport(p->qp);
	if (ret < 0)
		return ret;
	c->transport = ret;
	ret = cm_bind_port_locked(priv, &path->sgid);
	if (ret)
		return ret;
	if (oib_find_pkey(priv->id.device, c->av.port_num, path->pkey, &pkey_index))
		return -EINVAL;
	ret = cm_qp_attach_locked(priv, p->qp);
	if (ret)
		return ret;
	cm_path_av(&c->av, path);
	c->pkey_index = pkey_index;
	c->mtu = path->mtu;
	c->rq_psn = p->starting_psn;	/* the REQ's PSN is what the peer sends from */
	c->max_rd_atomic = p->initiator_depth;
	c->max_dest_rd_atomic = c->transport == OIB_CM_TRANSPORT_XRC ? 0 : p->responder_resources;
	c->packet_life_time = path->packet_life_time;
	c->ack_timeout = min_t(u8, path->packet_life_time + 1, OIB_CM_TIMEOUT_MAX);
	c->retry_count = p->retry_count;
	c->rnr_retry = p->rnr_retry_count;
	c->max_cm_retries = p->max_cm_retries;
	c->timeout_ms = 2 * cm_timeout_ms(path->packet_life_time) +
			cm_timeout_ms(p->remote_cm_response_timeout);
	c->remote_known = false;
	c->tid = priv->id.local_id;
	priv->id.service_id = p->service_id;
	ret = cm_qp_move_locked(priv, OIB_QPS_INIT);
	if (ret)
		return ret;
	cm_format_req(priv, p, &msg);
	ret = cm_send_msg_locked(priv, &msg, true);
	if (!ret && p->peer_to_peer)
		cm_id_add_p2p(priv);
	return ret;
}

int oib_cm_send_req(struct oib_cm_id *id, const struct oib_cm_req_param *param)
{
	if (!id || !cm_req_param_ok(id, param))
		return -EINVAL;
	return cm_call(id, CM_EV_SEND_REQ, param);
}
EXPORT_SYMBOL(oib_cm_send_req);

/* A listener's REQ (or SIDR_REQ): the new cm_id that will take it, in ctx->child. */
CM_ACTION(spawn)
{
	struct cm_id_priv *child;

	child = cm_id_alloc(ctx->port->device, priv->id.handler, priv->id.context);
	if (IS_ERR(child))
		return PTR_ERR(child);
	ctx->child = child;
	return 0;
}

/* The passive side's view of the REQ's path. */
static void cm_req_path(const struct cm_req *req, struct oib_cm_path *path)
{
	path->sgid = req->primary.remote_gid;
	path->dgid = req->primary.local_gid;
	path->slid = req->primary.remote_lid;
	path->dlid = req->primary.local_lid;
	path->flow_label = req->primary.flow_label;
	path->traffic_class = req->primary.traffic_class;
	path->hop_limit = req->primary.hop_limit;
	path->sl = req->primary.sl;
	path->rate = req->primary.packet_rate;
	path->mtu = req->path_mtu;
	path->packet_life_time = req->primary.local_ack_timeout ?
				 req->primary.local_ack_timeout - 1 : 0;
	path->pkey = req->pkey;
}

static int cm_req_event(struct cm_id_priv *priv, struct cm_ctx *ctx)
{
	const struct cm_req *req = &ctx->msg->req;
	struct oib_cm_event ev = { .type = OIB_CM_EVENT_REQ_RECEIVED };
	struct oib_cm_req_event_param *p = &ev.param.req;

	p->listen_id = ctx->listener ? &ctx->listener->id : NULL;
	p->port_num = ctx->port->port_num;
	cm_req_path(req, &p->path);
	p->remote_ca_guid = req->local_ca_guid;
	p->remote_qpn = req->local_qpn;
	p->remote_qkey = req->local_qkey;
	p->starting_psn = req->starting_psn;
	p->responder_resources = req->responder_resources;
	p->initiator_depth = req->initiator_depth;
	p->local_cm_response_timeout = req->local_cm_response_timeout;
	p->remote_cm_response_timeout = req->remote_cm_response_timeout;
	p->retry_count = req->retry_count;
	p->rnr_retry_count = req->rnr_retry_count;
	p->max_cm_retries = req->max_cm_retries;
	p->transport = req->transport;
	p->srq = req->srq;
	return cm_queue_pdata(priv, &ev, &req->pdata);
}

/* Take the REQ in @ctx: the connection as it asks, REQ_RECEIVED queued. */
static int cm_take_req(struct cm_id_priv *priv, struct cm_ctx *ctx)
{
	const struct cm_req *req = &ctx->msg->req;
	struct cm_conn *c = &priv->conn;
	u16 pkey_index = 0;
	int ret;

	ret = cm_port_resp_av(ctx->port, ctx->recv, &c->av);
	if (ret)
		return ret;
	c->av.sl = req->primary.sl;
	c->av.grh.flow_label = req->primary.flow_label;
	c->av.grh.traffic_class = req->primary.traffic_class;
	oib_find_pkey(ctx->port->device, ctx->port->port_num, req->pkey, &pkey_index);
	c->pkey_index = pkey_index;
	c->mtu = req->path_mtu;
	c->transport = req->transport;
	c->remote_qpn = req->local_qpn;
	c->sq_psn = req->starting_psn;
	c->max_rd_atomic = req->responder_resources;
	c->max_dest_rd_atomic = req->initiator_depth;
	c->ack_timeout = req->primary.local_ack_timeout;
	c->packet_life_time = c->ack_timeout ? c->ack_timeout - 1 : 0;
	c->retry_count = req->retry_count;
	c->rnr_retry = req->rnr_retry_count;
	c->max_cm_retries = req->max_cm_retries;
	c->timeout_ms = cm_timeout_ms(req->local_cm_response_timeout);
	c->remote_known = true;
	c->tid = ctx->msg->tid;
	ret = cm_req_event(priv, ctx);
	if (!ret)
		priv->passive = true;
	return ret;
}

/* A listener's new cm_id takes its REQ. */
CM_ACTION(deliver_req)
{
	int ret = cm_take_req(priv, ctx);

	if (ret)
		return ret;
	cm_port_get(ctx->port);
	priv->port = ctx->port;
	priv->id.service_id = ctx->msg->req.service_id;
	return 0;
}

/*
 * The peer's REQ crossed our peer-to-peer REQ and it won: our REQ's wait ends (the step
 * leaves REQ_SENT), we take its REQ on our cm_id and answer as a passive side.
 */
CM_ACTION(cross_passive)
{
	const struct cm_req *req = &ctx->msg->req;
	struct cm_id_priv *other;

	other = cm_id_insert_remote(priv, req->local_comm_id, &req->primary.local_gid);
	if (!other)
		other = cm_id_insert_remote_qpn(priv, req->local_ca_guid, req->local_qpn);
	if (other) {
		cm_id_put(other);
		cm_id_forget_peer(priv);
		return -EALREADY;
	}
	return cm_take_req(priv, ctx);
}

/* ---- MRA ---- */

struct cm_mra_args {
	u8 service_timeout;
	const void *pdata;
	u8 len;
};

static int cm_send_mra_locked(struct cm_id_priv *priv, struct cm_ctx *ctx, u8 msg_mraed)
{
	const struct cm_mra_args *a = ctx->param;
	struct cm_msg msg = { .type = CM_MSG_MRA, .tid = priv->conn.tid };

	lockdep_assert_held(&priv->mutex);
	msg.mra.local_comm_id = priv->id.local_id;
	msg.mra.remote_comm_id = priv->id.remote_id;
	msg.mra.msg_mraed = msg_mraed;
	msg.mra.service_timeout = a->service_timeout;
	msg.mra.pdata = (struct cm_pdata){ a->pdata, a->len };
	return cm_send_kept_locked(priv, &msg);
}

CM_ACTION(send_mra_req)
{
	return cm_send_mra_locked(priv, ctx, CM_MSG_CODE_REQ);
}

CM_ACTION(send_mra_rep)
{
	return cm_send_mra_locked(priv, ctx, CM_MSG_CODE_REP);
}

int oib_cm_send_mra(struct oib_cm_id *id, u8 service_timeout, const void *private_data,
		    u8 private_data_len)
{
	struct cm_mra_args a = { service_timeout, private_data, private_data_len };

	if (!id || service_timeout > OIB_CM_TIMEOUT_MAX ||
	    !cm_pdata_ok(private_data, private_data_len, CM_MSG_MRA))
		return -EINVAL;
	return cm_call(id, CM_EV_SEND_MRA, &a);
}
EXPORT_SYMBOL(oib_cm_send_mra);

CM_ACTION(mra_rcvd)
{
	const struct cm_mra *mra = &ctx->msg->mra;
	struct oib_cm_event ev = { .type = OIB_CM_EVENT_MRA_RECEIVED };

	if (priv->msg)
		oib_modify_mad(priv->msg, cm_timeout_ms(mra->service_timeout) +
					  cm_timeout_ms(priv->conn.packet_life_time));
	ev.param.mra_service_timeout = mra->service_timeout;
	return cm_queue_pdata(priv, &ev, &mra->pdata);
}

/* ---- REP ---- */

CM_ACTION(send_rep)
{
	const struct oib_cm_rep_param *p = ctx->param;
	struct cm_conn *c = &priv->conn;
	struct cm_msg msg = { .type = CM_MSG_REP };
	struct cm_rep *rep = &msg.rep;
	bool xrc = c->transport == OIB_CM_TRANSPORT_XRC;
	u32 qpn;
	int ret;

	/* a kernel-owned XRC receive QP (no @p->qp) is the owner's: not driven, not watched */
	ret = p->qp ? cm_qp_attach_locked(priv, p->qp) : xrc ? 0 : -EINVAL;
	if (ret)
		return ret;
	qpn = p->qp ? p->qp->qp_num : p->xrc_rcv_qpn;
	WRITE_ONCE(priv->qp_num, qpn);
	c->rq_psn = p->starting_psn;	/* the REP's PSN is what the peer sends from */
	c->max_rd_atomic = xrc ? 0 : min(c->max_rd_atomic, p->initiator_depth);
	c->max_dest_rd_atomic = min(c->max_dest_rd_atomic, p->responder_resources);
	ret = cm_qp_move_locked(priv, OIB_QPS_RTR);
	if (!ret)
		ret = cm_qp_watch_locked(priv);
	if (ret)
		return ret;
	msg.tid = c->tid;
	rep->local_comm_id = priv->id.local_id;
	rep->remote_comm_id = priv->id.remote_id;
	/* an XRC target's number goes in the EECN field, and it always has SRQs */
	rep->local_qpn = xrc ? 0 : qpn;
	rep->local_eecn = xrc ? qpn : 0;
	rep->srq = xrc || p->srq;
	rep->starting_psn = p->starting_psn;
	rep->responder_resources = c->max_dest_rd_atomic;
	rep->initiator_depth = c->max_rd_atomic;
	rep->target_ack_delay = p->target_ack_delay;
	rep->rnr_retry_count = p->rnr_retry_count;
	rep->local_ca_guid = priv->port->ca_guid;
	rep->pdata = (struct cm_pdata){ p->private_data, p->private_data_len };
	return cm_send_msg_locked(priv, &msg, true);
}

int oib_cm_send_rep(struct oib_cm_id *id, const struct oib_cm_rep_param *param)
{
	if (!id || !param || !param->qp == !param->xrc_rcv_qpn ||
	    param->xrc_rcv_qpn >= BIT(24) || param->starting_psn >= BIT(24) ||
	    param->target_ack_delay > OIB_CM_TIMEOUT_MAX || param->rnr_retry_count >= 8 ||
	    !cm_pdata_ok(param->private_data, param->private_data_len, CM_MSG_REP))
		return -EINVAL;
	return cm_call(id, CM_EV_SEND_REP, param);
}
EXPORT_SYMBOL(oib_cm_send_rep);

CM_ACTION(resend_rep)
{
	if (!priv->msg)
		return 0;
	return cm_port_resend(priv->port, &priv->conn.av, priv->msg->mad);
}

CM_ACTION(deliver_rep)
{
	const struct cm_rep *rep = &ctx->msg->rep;
	struct oib_cm_event ev = { .type = OIB_CM_EVENT_REP_RECEIVED };
	struct oib_cm_rep_event_param *p = &ev.param.rep;
	struct cm_conn *c = &priv->conn;
	struct cm_id_priv *other;
	u32 qpn;
	int ret;

	qpn = c->transport == OIB_CM_TRANSPORT_XRC ? rep->local_eecn : rep->local_qpn;
	other = cm_id_insert_remote(priv, rep->local_comm_id, &c->av.grh.dgid);
	if (!other)
		other = cm_id_insert_remote_qpn(priv, rep->local_ca_guid, qpn);
	if (other) {
		cm_id_put(other);
		return -EALREADY;	/* that peer or QP is another connection's */
	}
	c->remote_qpn = qpn;
	c->sq_psn = rep->starting_psn;
	c->max_rd_atomic = min(c->max_rd_atomic, rep->responder_resources);
	c->max_dest_rd_atomic = min(c->max_dest_rd_atomic, rep->initiator_depth);
	c->rnr_retry = rep->rnr_retry_count;
	c->remote_known = true;
	ret = cm_qp_move_locked(priv, OIB_QPS_RTR);
	if (ret)
		goto err;
	p->remote_ca_guid = rep->local_ca_guid;
	p->remote_qpn = qpn;
	p->remote_qkey = rep->local_qkey;
	p->starting_psn = rep->starting_psn;
	p->responder_resources = rep->responder_resources;
	p->initiator_depth = rep->initiator_depth;
	p->target_ack_delay = rep->target_ack_delay;
	p->failover_accepted = rep->failover_accepted;
	p->rnr_retry_count = rep->rnr_retry_count;
	p->srq = rep->srq;
	ret = cm_queue_pdata(priv, &ev, &rep->pdata);
	if (!ret)
		return 0;
err:
	cm_id_forget_peer(priv);
	c->remote_known = false;
	return ret;
}

/* ---- RTU and establishment ---- */

CM_ACTION(send_rtu)
{
	const struct cm_pdata_args *a = ctx->param;
	struct cm_msg msg = { .type = CM_MSG_RTU, .tid = priv->conn.tid };
	int ret;

	ret = cm_qp_move_locked(priv, OIB_QPS_RTS);
	if (ret)
		return ret;
	msg.rtu.local_comm_id = priv->id.local_id;
	msg.rtu.remote_comm_id = priv->id.remote_id;
	msg.rtu.pdata = (struct cm_pdata){ a->pdata, a->len };
	ret = cm_send_kept_locked(priv, &msg);
	if (!ret)
		ret = cm_queue_simple(priv, OIB_CM_EVENT_ESTABLISHED, 0);
	return ret;
}

int oib_cm_send_rtu(struct oib_cm_id *id, const void *private_data, u8 private_data_len)
{
	struct cm_pdata_args a = { private_data, private_data_len };

	if (!id || !cm_pdata_ok(private_data, private_data_len, CM_MSG_RTU))
		return -EINVAL;
	return cm_call(id, CM_EV_SEND_RTU, &a);
}
EXPORT_SYMBOL(oib_cm_send_rtu);

/* The passive side is established (RTU, COMM_EST, first receive or notify). */
CM_ACTION(establish)
{
	int ret = cm_qp_move_locked(priv, OIB_QPS_RTS);

	if (!ret)
		ret = cm_queue_simple(priv, OIB_CM_EVENT_ESTABLISHED, 0);
	return ret;
}

int oib_cm_notify(struct oib_cm_id *id, enum oib_event_type event)
{
	if (!id || event != OIB_EVENT_COMM_EST)
		return -EINVAL;
	return cm_call(id, CM_EV_NOTIFY, NULL);
}
EXPORT_SYMBOL(oib_cm_notify);

/* ---- REJ ---- */

struct cm_rej_args {
	u16 reason;
	const void *ari;
	u8 ari_len;
	const void *pdata;
	u8 len;
};

static u8 cm_rej_code(enum oib_cm_state state)
{
	switch (state) {
	case OIB_CM_REQ_RCVD:
	case OIB_CM_MRA_REQ_SENT:
		return CM_MSG_CODE_REQ;
	case OIB_CM_REP_RCVD:
	case OIB_CM_MRA_REP_SENT:
		return CM_MSG_CODE_REP;
	default:
		return CM_MSG_CODE_OTHER;
	}
}

static int cm_send_rej_locked(struct cm_id_priv *priv, const struct cm_rej_args *a)
{
	struct cm_msg msg = { .type = CM_MSG_REJ, .tid = priv->conn.tid };

	lockdep_assert_held(&priv->mutex);
	if (!priv->port)
		return 0;	/* nothing was ever sent: nobody to tell */
	msg.rej.local_comm_id = priv->id.local_id;
	msg.rej.remote_comm_id = priv->id.remote_id;
	msg.rej.msg_rejected = cm_rej_code(priv->id.state);
	msg.rej.reason = a->reason;
	msg.rej.ari_len = a->ari_len;
	if (a->ari_len)
		memcpy(msg.rej.ari, a->ari, a->ari_len);
	msg.rej.pdata = (struct cm_pdata){ a->pdata, a->len };
	return cm_send_msg_locked(priv, &msg, false);
}

CM_ACTION(send_rej)
{
	return cm_send_rej_locked(priv, ctx->param);
}

int oib_cm_send_rej(struct oib_cm_id *id, enum oib_cm_rej_reason reason, const void *ari,
		    u8 ari_len, const void *private_data, u8 private_data_len)
{
	struct cm_rej_args a = { reason, ari, ari_len, private_data, private_data_len };

	if (!id || !reason || ari_len > OIB_CM_ARI_LENGTH || (ari_len && !ari) ||
	    !cm_pdata_ok(private_data, private_data_len, CM_MSG_REJ))
		return -EINVAL;
	return cm_call(id, CM_EV_SEND_REJ, &a);
}
EXPORT_SYMBOL(oib_cm_send_rej);

CM_ACTION(rej_rcvd)
{
	const struct cm_rej *rej = &ctx->msg->rej;
	struct oib_cm_event ev = { .type = OIB_CM_EVENT_REJ_RECEIVED };

	ev.param.rej.reason = rej->reason;
	ev.param.rej.ari_len = rej->ari_len;
	memcpy(ev.param.rej.ari, rej->ari, sizeof(rej->ari));
	return cm_queue_pdata(priv, &ev, &rej->pdata);
}

/* Answer the REQ in @ctx, for a connection we believe exists, with REJ "stale connection". */
CM_ACTION(send_rej_stale)
{
	const struct cm_req *req = &ctx->msg->req;
	struct cm_msg msg = { .type = CM_MSG_REJ, .tid = ctx->msg->tid };
	struct oib_ah_attr av;
	void *sb;

	if (cm_port_resp_av(ctx->port, ctx->recv, &av))
		return 0;
	msg.rej.remote_comm_id = req->local_comm_id;
	msg.rej.msg_rejected = CM_MSG_CODE_REQ;
	msg.rej.reason = OIB_CM_REJ_STALE_CONN;
	sb = cm_port_send(ctx->port, &av, &msg, NULL, 0, 0);
	return PTR_ERR_OR_ZERO(sb);
}

CM_ACTION(req_timeout)
{
	return cm_queue_simple(priv, OIB_CM_EVENT_REQ_ERROR, ctx->status);
}

CM_ACTION(rep_timeout)
{
	return cm_queue_simple(priv, OIB_CM_EVENT_REP_ERROR, ctx->status);
}

CM_ACTION(destroy_rej_timeout)
{
	__be64 guid = cpu_to_be64(priv->port ? priv->port->ca_guid : 0);
	struct cm_rej_args a = { .reason = OIB_CM_REJ_TIMEOUT, .ari = &guid,
				 .ari_len = sizeof(guid) };

	return cm_send_rej_locked(priv, &a);
}

CM_ACTION(destroy_rej)
{
	struct cm_rej_args a = { .reason = OIB_CM_REJ_CONSUMER_DEFINED };

	return cm_send_rej_locked(priv, &a);
}
