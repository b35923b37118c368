// SPDX-License-Identifier: GPL-2.0-only
/*
 * Service ID resolution (IBTA vol. 1, 12.11): a UD client asks which QP and Q_Key serve a
 * service ID; a listener's spawned cm_id answers with SIDR_REP.  The request is resent every
 * timeout the client gave, up to its retries; a destroyed, unanswered request is answered
 * REJECT.
 */
#include <linux/err.h>
#include <linux/module.h>
#include "cm_action.h"
#include "cm_port.h"

CM_ACTION(send_sidr_req)
{
	const struct oib_cm_sidr_req_param *p = ctx->param;
	struct cm_msg msg = { .type = CM_MSG_SIDR_REQ };
	struct cm_conn *c = &priv->conn;
	int ret;

	memset(&c->av, 0, sizeof(c->av));
	ret = cm_bind_port_locked(priv, &p->path->sgid);
	if (ret)
		return ret;
	cm_path_av(&c->av, p->path);
	c->timeout_ms = p->timeout_ms;
	c->max_cm_retries = p->max_cm_retries;
	c->tid = priv->id.local_id;
	priv->id.service_id = p->service_id;
	msg.tid = c->tid;
	msg.sidr_req.request_id = priv->id.local_id;
	msg.sidr_req.pkey = p->path->pkey;
	msg.sidr_req.service_id = p->service_id;
	msg.sidr_req.pdata = (struct cm_pdata){ p->private_data, p->private_data_len };
	return cm_send_msg_locked(priv, &msg, true);
}

int oib_cm_send_sidr_req(struct oib_cm_id *id, const struct oib_cm_sidr_req_param *param)
{
	if (!id || !id->device || !param || !param->path || !param->timeout_ms ||
	    param->timeout_ms > OIB_MAD_TIMEOUT_MAX_MS || param->max_cm_retries >= 16 ||
	    !cm_pdata_ok(param->private_data, param->private_data_len, CM_MSG_SIDR_REQ))
		return -EINVAL;
	return cm_call(id, CM_EV_SEND_SIDR_REQ, param);
}
EXPORT_SYMBOL(oib_cm_send_sidr_req);

CM_ACTION(deliver_sidr_req)
{
	const struct cm_sidr_req *req = &ctx->msg->sidr_req;
	struct oib_cm_event ev = { .type = OIB_CM_EVENT_SIDR_REQ_RECEIVED };
	struct oib_cm_sidr_req_event_param *p = &ev.param.sidr_req;
	int ret;

	ret = cm_port_resp_av(ctx->port, ctx->recv, &priv->conn.av);
	if (ret)
		return ret;
	priv->conn.tid = ctx->msg->tid;
	p->listen_id = &ctx->listener->id;
	p->port_num = ctx->port->port_num;
	p->pkey = req->pkey;
	p->service_id = req->service_id;
	p->ah_attr = priv->conn.av;
	ret = cm_queue_pdata(priv, &ev, &req->pdata);
	if (ret)
		return ret;
	cm_port_get(ctx->port);
	priv->port = ctx->port;
	priv->id.service_id = req->service_id;
	priv->passive = true;
	return 0;
}

static int cm_send_sidr_rep_locked(struct cm_id_priv *priv,
				   const struct oib_cm_sidr_rep_param *p)
{
	struct cm_msg msg = { .type = CM_MSG_SIDR_REP, .tid = priv->conn.tid };
	struct cm_sidr_rep *rep = &msg.sidr_rep;

	lockdep_assert_held(&priv->mutex);
	rep->request_id = priv->id.remote_id;
	rep->status = p->status;
	rep->qpn = p->qpn;
	rep->qkey = p->qkey;
	rep->service_id = priv->id.service_id;
	rep->info_len = p->info_len;
	if (p->info_len)
		memcpy(rep->info, p->info, p->info_len);
	rep->pdata = (struct cm_pdata){ p->private_data, p->private_data_len };
	return cm_send_msg_locked(priv, &msg, false);
}

CM_ACTION(send_sidr_rep)
{
	return cm_send_sidr_rep_locked(priv, ctx->param);
}

int oib_cm_send_sidr_rep(struct oib_cm_id *id, const struct oib_cm_sidr_rep_param *param)
{
	if (!id || !param || param->status >= OIB_CM_SIDR_NSTATUS || param->qpn >= BIT(24) ||
	    param->info_len > OIB_CM_SIDR_INFO_LENGTH || (param->info_len && !param->info) ||
	    !cm_pdata_ok(param->private_data, param->private_data_len, CM_MSG_SIDR_REP))
		return -EINVAL;
	return cm_call(id, CM_EV_SEND_SIDR_REP, param);
}
EXPORT_SYMBOL(oib_cm_send_sidr_rep);

CM_ACTION(sidr_rep_rcvd)
{
	const struct cm_sidr_rep *rep = &ctx->msg->sidr_rep;
	struct oib_cm_event ev = { .type = OIB_CM_EVENT_SIDR_REP_RECEIVED };

	ev.param.sidr_rep.status = rep->status;
	ev.param.sidr_rep.qpn = rep->qpn;
	ev.param.sidr_rep.qkey = rep->qkey;
	ev.param.sidr_rep.info_len = rep->info_len;
	memcpy(ev.param.sidr_rep.info, rep->info, sizeof(rep->info));
	return cm_queue_pdata(priv, &ev, &rep->pdata);
}

CM_ACTION(sidr_req_timeout)
{
	return cm_queue_simple(priv, OIB_CM_EVENT_SIDR_REQ_ERROR, ctx->status);
}

CM_ACTION(destroy_sidr_rej)
{
	struct oib_cm_sidr_rep_param p = { .status = OIB_CM_SIDR_REJECT };

	return cm_send_sidr_rep_locked(priv, &p);
}
