// SPDX-License-Identifier: GPL-2.0-only
/*
 * A CM MAD received on a port (in the port's MAD work): decoded, matched to the cm_id it is
 * for by the in-tree CM's lookup rules, turned into a table event and run; every MAD ends
 * counted, as received, duplicate or dropped with a reason.
 *
 * - REQ: a duplicate of one taken (same peer comm ID and GID) goes to the id that took it; one
 *   naming the peer QP of a connection we have is stale and goes to that connection's id; one
 *   crossing our own peer-to-peer REQ to its sender for its service goes to our id (which side
 *   turns passive is decided by (CA GUID, QPN)); else the listener for its service ID spawns a
 *   new id; with none it is answered REJ "invalid service ID".
 * - REP, MRA, RTU, DREQ, DREP, LAP, APR: by RemoteCommID, which must be one of ours, with the
 *   sender's LocalCommID equal to the peer's we know (if we know it).  REPs go to active ids
 *   only.  A DREQ must also name our QP; a DREQ for no id of ours still gets a DREP.
 * - REJ: by RemoteCommID, or by (LocalCommID, sender's GID) when it carries none (a REJ of a
 *   REQ whose sender gave up before it learnt our ID).
 * - SIDR_REQ: to a listener's spawned id (or answered "unsupported"); SIDR_REP by request ID.
 */
#include <linux/err.h>
#include "cm_action.h"
#include "cm_port.h"

static bool cm_dup_action(enum cm_action a)
{
	return a == CM_ACT_DROP_DUP || a == CM_ACT_RESEND_MRA || a == CM_ACT_RESEND_REP ||
	       a == CM_ACT_RESEND_RTU || a == CM_ACT_RESEND_DREP;
}

/* Count what became of the message in @ctx, run on some id with result @ret. */
static void cm_recv_count(struct cm_ctx *ctx, int ret)
{
	enum oib_cm_drop why;

	if (!ret) {
		cm_port_count(ctx->port, cm_dup_action(ctx->action) ? OIB_CM_STAT_DUPLICATES :
				      OIB_CM_STAT_RECEIVED, ctx->msg->type);
		return;
	}
	switch (ret) {
	case -EPROTO:
		why = OIB_CM_DROP_PROTOCOL;
		break;
	case -ENOMEM:
		why = OIB_CM_DROP_NOMEM;
		break;
	case -EHOSTUNREACH:
		why = OIB_CM_DROP_NO_ROUTE;
		break;
	default:
		why = OIB_CM_DROP_UNKNOWN_ID;
		break;
	}
	cm_port_drop(ctx->port, why);
}

/* Run @event on @priv for the message in @ctx, count it, drop the lookup's reference. */
static void cm_recv_run(struct cm_id_priv *priv, enum cm_event event, struct cm_ctx *ctx)
{
	cm_recv_count(ctx, cm_run(priv, event, ctx));
	cm_id_put(priv);
}

/* Answer the message in @ctx, which has no cm_id of ours, with @msg. */
static void cm_recv_answer(struct cm_ctx *ctx, struct cm_msg *msg)
{
	struct oib_ah_attr av;

	if (cm_port_resp_av(ctx->port, ctx->recv, &av)) {
		cm_port_drop(ctx->port, OIB_CM_DROP_NO_ROUTE);
		return;
	}
	msg->tid = ctx->msg->tid;
	cm_port_send(ctx->port, &av, msg, NULL, 0, 0);
}

/*
 * Give the message in @ctx (@event, from the peer's @remote_id at @gid) to a new cm_id that
 * @listener spawns for it; with @qpn_guid, also record the peer's QP @qpn.  The count of the
 * message and the listener's reference are taken care of.
 */
static void cm_recv_spawn(struct cm_ctx *ctx, struct cm_id_priv *listener, enum cm_event event,
			  u32 remote_id, const union oib_gid *gid, u64 qpn_guid, u32 qpn)
{
	struct cm_id_priv *child, *other;
	int ret;

	ret = cm_run(listener, event, ctx);	/* SPAWN: ctx->child */
	ctx->listener = listener;
	child = ctx->child;
	if (ret || !child)
		goto out;
	other = cm_id_insert_remote(child, remote_id, gid);
	if (!other && qpn_guid)
		other = cm_id_insert_remote_qpn(child, qpn_guid, qpn);
	if (other) {		/* another port took the same message meanwhile */
		cm_id_put(other);
		ret = -EALREADY;
	} else {
		ret = cm_run(child, event, ctx);
	}
	if (ret)
		cm_id_discard(child);
out:
	cm_recv_count(ctx, ret);
	cm_id_put(listener);
}

/* ---- REQ ---- */

static void cm_recv_req_new(struct cm_ctx *ctx)
{
	const struct cm_req *req = &ctx->msg->req;
	struct cm_id_priv *listener;

	listener = cm_id_find_listener(ctx->port->device, req->service_id);
	if (!listener) {
		struct cm_msg rej = { .type = CM_MSG_REJ };

		rej.rej.remote_comm_id = req->local_comm_id;
		rej.rej.msg_rejected = CM_MSG_CODE_REQ;
		rej.rej.reason = OIB_CM_REJ_INVALID_SERVICE_ID;
		cm_port_drop(ctx->port, OIB_CM_DROP_UNKNOWN_ID);
		cm_recv_answer(ctx, &rej);
		return;
	}
	cm_recv_spawn(ctx, listener, CM_EV_RECV_REQ, req->local_comm_id, &req->primary.local_gid,
		      req->local_ca_guid, req->local_qpn);
}

static void cm_recv_req(struct cm_ctx *ctx)
{
	const struct cm_req *req = &ctx->msg->req;
	struct cm_id_priv *priv;

	priv = cm_id_find_remote(req->local_comm_id, &req->primary.local_gid);
	if (priv) {
		cm_recv_run(priv, CM_EV_RECV_REQ, ctx);
		return;
	}
	priv = cm_id_find_qpn(req->local_ca_guid, req->local_qpn);
	if (priv) {
		cm_recv_run(priv, CM_EV_RECV_REQ_STALE, ctx);
		return;
	}
	priv = cm_id_find_p2p(ctx->port->device, req->service_id, &req->primary.local_gid);
	if (priv) {
		u32 qpn = READ_ONCE(priv->qp_num);

		cm_recv_run(priv, oib_cm_fsm_cross_event(ctx->port->ca_guid, qpn,
							 req->local_ca_guid, req->local_qpn), ctx);
		return;
	}
	cm_recv_req_new(ctx);
}

/* ---- Messages that name our ID ---- */

/* The id @local_id names, if @remote_id is the peer it talks to (or it knows none yet). */
static struct cm_id_priv *cm_recv_find(struct cm_ctx *ctx, u32 local_id, u32 remote_id)
{
	struct cm_id_priv *priv = cm_id_find_local(local_id);
	u32 known;

	if (priv) {
		known = READ_ONCE(priv->id.remote_id);
		if (!known || known == remote_id)
			return priv;
		cm_id_put(priv);
	}
	cm_port_drop(ctx->port, OIB_CM_DROP_UNKNOWN_ID);
	return NULL;
}

static void cm_recv_rep(struct cm_ctx *ctx)
{
	const struct cm_rep *rep = &ctx->msg->rep;
	struct cm_id_priv *priv = cm_recv_find(ctx, rep->remote_comm_id, rep->local_comm_id);
	int ret = -ENOENT;

	if (!priv)
		return;
	mutex_lock(&priv->mutex);
	if (!priv->passive)
		ret = cm_run_locked(priv, CM_EV_RECV_REP, ctx);
	mutex_unlock(&priv->mutex);
	cm_recv_count(ctx, ret);
	cm_id_put(priv);
}

static void cm_recv_mra(struct cm_ctx *ctx)
{
	const struct cm_mra *mra = &ctx->msg->mra;
	struct cm_id_priv *priv = cm_recv_find(ctx, mra->remote_comm_id, mra->local_comm_id);
	enum cm_event ev = mra->msg_mraed == CM_MSG_CODE_REQ ? CM_EV_RECV_MRA_REQ :
			   mra->msg_mraed == CM_MSG_CODE_REP ? CM_EV_RECV_MRA_REP :
			   CM_EV_RECV_MRA_OTHER;

	if (priv)
		cm_recv_run(priv, ev, ctx);
}

static void cm_recv_rej(struct cm_ctx *ctx)
{
	const struct cm_rej *rej = &ctx->msg->rej;
	struct cm_id_priv *priv;
	struct oib_ah_attr av;

	if (rej->remote_comm_id) {
		priv = cm_recv_find(ctx, rej->remote_comm_id, rej->local_comm_id);
	} else if (!cm_port_resp_av(ctx->port, ctx->recv, &av)) {
		priv = cm_id_find_remote(rej->local_comm_id, &av.grh.dgid);
		if (!priv)
			cm_port_drop(ctx->port, OIB_CM_DROP_UNKNOWN_ID);
	} else {
		priv = NULL;
		cm_port_drop(ctx->port, OIB_CM_DROP_NO_ROUTE);
	}
	if (priv)
		cm_recv_run(priv, oib_cm_fsm_rej_event(rej->reason), ctx);
}

static void cm_recv_rtu(struct cm_ctx *ctx)
{
	const struct cm_ids *rtu = &ctx->msg->rtu;
	struct cm_id_priv *priv = cm_recv_find(ctx, rtu->remote_comm_id, rtu->local_comm_id);

	if (priv)
		cm_recv_run(priv, CM_EV_RECV_RTU, ctx);
}

static void cm_recv_dreq(struct cm_ctx *ctx)
{
	const struct cm_dreq *dreq = &ctx->msg->dreq;
	struct cm_id_priv *priv = cm_id_find_local(dreq->remote_comm_id);
	struct cm_msg drep = { .type = CM_MSG_DREP };
	u32 qpn;

	if (priv && READ_ONCE(priv->id.remote_id) == dreq->local_comm_id) {
		qpn = READ_ONCE(priv->qp_num);
		if (!qpn || qpn == dreq->remote_qpn) {
			cm_recv_run(priv, CM_EV_RECV_DREQ, ctx);
			return;
		}
	}
	if (priv)
		cm_id_put(priv);
	cm_port_drop(ctx->port, OIB_CM_DROP_UNKNOWN_ID);
	drep.drep.local_comm_id = dreq->remote_comm_id;
	drep.drep.remote_comm_id = dreq->local_comm_id;
	cm_recv_answer(ctx, &drep);
}

static void cm_recv_drep(struct cm_ctx *ctx)
{
	const struct cm_ids *drep = &ctx->msg->drep;
	struct cm_id_priv *priv = cm_recv_find(ctx, drep->remote_comm_id, drep->local_comm_id);

	if (priv)
		cm_recv_run(priv, CM_EV_RECV_DREP, ctx);
}

static void cm_recv_lap(struct cm_ctx *ctx)
{
	const struct cm_lap *lap = &ctx->msg->lap;
	struct cm_id_priv *priv = cm_recv_find(ctx, lap->remote_comm_id, lap->local_comm_id);

	if (priv)
		cm_recv_run(priv, CM_EV_RECV_LAP, ctx);
}

static void cm_recv_apr(struct cm_ctx *ctx)
{
	const struct cm_apr *apr = &ctx->msg->apr;
	struct cm_id_priv *priv = cm_recv_find(ctx, apr->remote_comm_id, apr->local_comm_id);

	if (priv)
		cm_recv_run(priv, CM_EV_RECV_APR, ctx);
}

/* ---- SIDR ---- */

static void cm_recv_sidr_req(struct cm_ctx *ctx)
{
	const struct cm_sidr_req *req = &ctx->msg->sidr_req;
	struct cm_id_priv *priv;
	struct oib_ah_attr av;

	if (cm_port_resp_av(ctx->port, ctx->recv, &av)) {
		cm_port_drop(ctx->port, OIB_CM_DROP_NO_ROUTE);
		return;
	}
	priv = cm_id_find_remote(req->request_id, &av.grh.dgid);
	if (priv) {
		cm_recv_run(priv, CM_EV_RECV_SIDR_REQ, ctx);
		return;
	}
	priv = cm_id_find_listener(ctx->port->device, req->service_id);
	if (!priv) {
		struct cm_msg rep = { .type = CM_MSG_SIDR_REP };

		rep.sidr_rep.request_id = req->request_id;
		rep.sidr_rep.status = OIB_CM_SIDR_UNSUPPORTED;
		rep.sidr_rep.service_id = req->service_id;
		cm_port_drop(ctx->port, OIB_CM_DROP_UNKNOWN_ID);
		cm_recv_answer(ctx, &rep);
		return;
	}
	cm_recv_spawn(ctx, priv, CM_EV_RECV_SIDR_REQ, req->request_id, &av.grh.dgid, 0, 0);
}

static void cm_recv_sidr_rep(struct cm_ctx *ctx)
{
	const struct cm_sidr_rep *rep = &ctx->msg->sidr_rep;
	struct cm_id_priv *priv = cm_recv_find(ctx, rep->request_id, 0);

	if (priv)
		cm_recv_run(priv, CM_EV_RECV_SIDR_REP, ctx);
}

static void (* const cm_recv_handlers[CM_NMSGS])(struct cm_ctx *ctx) = {
	[CM_MSG_REQ] = cm_recv_req,
	[CM_MSG_MRA] = cm_recv_mra,
	[CM_MSG_REJ] = cm_recv_rej,
	[CM_MSG_REP] = cm_recv_rep,
	[CM_MSG_RTU] = cm_recv_rtu,
	[CM_MSG_DREQ] = cm_recv_dreq,
	[CM_MSG_DREP] = cm_recv_drep,
	[CM_MSG_SIDR_REQ] = cm_recv_sidr_req,
	[CM_MSG_SIDR_REP] = cm_recv_sidr_rep,
	[CM_MSG_LAP] = cm_recv_lap,
	[CM_MSG_APR] = cm_recv_apr,
};

void cm_recv(struct cm_port *port, const struct oib_mad_recv *recv)
{
	struct cm_msg msg;
	struct cm_ctx ctx = { .port = port, .recv = recv, .msg = &msg };

	if (oib_cm_wire_unpack(recv->mad, recv->len, &msg, NULL)) {
		cm_port_drop(port, OIB_CM_DROP_MALFORMED);
		return;
	}
	cm_recv_handlers[msg.type](&ctx);
}
