// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tearing a connection down (IBTA vol. 1, 12.9.8): DREQ and DREP, timewait, and the answer to a
 * LAP (alternate paths are not supported).  A DREQ is resent every CM response period until
 * its DREP, up to the max CM retries; then the connection goes to TIMEWAIT anyway, so TIMEWAIT
 * is always reached and always ends: after the QP's local ACK timeout, as the in-tree CM waits.
 */
#include <linux/err.h>
#include <linux/module.h>
#include "cm_action.h"
#include "cm_port.h"

static int cm_send_dreq_locked(struct cm_id_priv *priv, const struct cm_pdata_args *a,
			       bool await)
{
	struct cm_msg msg = { .type = CM_MSG_DREQ };

	lockdep_assert_held(&priv->mutex);
	priv->conn.tid = priv->id.local_id;
	msg.tid = priv->conn.tid;
	msg.dreq.local_comm_id = priv->id.local_id;
	msg.dreq.remote_comm_id = priv->id.remote_id;
	msg.dreq.remote_qpn = priv->conn.remote_qpn;
	if (a)
		msg.dreq.pdata = (struct cm_pdata){ a->pdata, a->len };
	return cm_send_msg_locked(priv, &msg, await);
}

static int cm_send_drep_locked(struct cm_id_priv *priv, const struct cm_pdata_args *a,
			       bool keep)
{
	struct cm_msg msg = { .type = CM_MSG_DREP, .tid = priv->conn.tid };

	lockdep_assert_held(&priv->mutex);
	msg.drep.local_comm_id = priv->id.local_id;
	msg.drep.remote_comm_id = priv->id.remote_id;
	if (a)
		msg.drep.pdata = (struct cm_pdata){ a->pdata, a->len };
	return keep ? cm_send_kept_locked(priv, &msg) : cm_send_msg_locked(priv, &msg, false);
}

CM_ACTION(send_dreq)
{
	return cm_send_dreq_locked(priv, ctx->param, true);
}

int oib_cm_send_dreq(struct oib_cm_id *id, const void *private_data, u8 private_data_len)
{
	struct cm_pdata_args a = { private_data, private_data_len };

	if (!id || !cm_pdata_ok(private_data, private_data_len, CM_MSG_DREQ))
		return -EINVAL;
	return cm_call(id, CM_EV_SEND_DREQ, &a);
}
EXPORT_SYMBOL(oib_cm_send_dreq);

/* A REQ for the QP of this established connection: REJ it, and release ours. */
CM_ACTION(stale_dreq)
{
	int ret = cm_act_send_rej_stale(priv, ctx);

	return ret ?: cm_send_dreq_locked(priv, NULL, true);
}

static int cm_dreq_event(struct cm_id_priv *priv, struct cm_ctx *ctx)
{
	struct oib_cm_event ev = { .type = OIB_CM_EVENT_DREQ_RECEIVED };

	priv->conn.tid = ctx->msg->tid;
	return cm_queue_pdata(priv, &ev, &ctx->msg->dreq.pdata);
}

CM_ACTION(dreq_rcvd)
{
	return cm_dreq_event(priv, ctx);
}

/* Our DREQ crossed the peer's: answer it ourselves; the handler still hears of it. */
CM_ACTION(dreq_crossed)
{
	int ret = cm_dreq_event(priv, ctx);

	return ret ?: cm_send_drep_locked(priv, NULL, true);
}

CM_ACTION(send_drep)
{
	return cm_send_drep_locked(priv, ctx->param, true);
}

int oib_cm_send_drep(struct oib_cm_id *id, const void *private_data, u8 private_data_len)
{
	struct cm_pdata_args a = { private_data, private_data_len };

	if (!id || !cm_pdata_ok(private_data, private_data_len, CM_MSG_DREP))
		return -EINVAL;
	return cm_call(id, CM_EV_SEND_DREP, &a);
}
EXPORT_SYMBOL(oib_cm_send_drep);

CM_ACTION(drep_rcvd)
{
	struct oib_cm_event ev = { .type = OIB_CM_EVENT_DREP_RECEIVED };

	return cm_queue_pdata(priv, &ev, &ctx->msg->drep.pdata);
}

CM_ACTION(dreq_timeout)
{
	return cm_queue_simple(priv, OIB_CM_EVENT_DREQ_ERROR, ctx->status);
}

CM_ACTION(send_apr_unsupported)
{
	struct cm_msg msg = { .type = CM_MSG_APR, .tid = ctx->msg->tid };

	msg.apr.local_comm_id = priv->id.local_id;
	msg.apr.remote_comm_id = priv->id.remote_id;
	msg.apr.status = OIB_CM_APR_UNSUPPORTED;
	return cm_send_msg_locked(priv, &msg, false);
}

CM_ACTION(timewait_exit)
{
	return cm_queue_simple(priv, OIB_CM_EVENT_TIMEWAIT_EXIT, 0);
}

CM_ACTION(destroy_dreq)
{
	return cm_send_dreq_locked(priv, NULL, false);
}

CM_ACTION(destroy_drep)
{
	return cm_send_drep_locked(priv, NULL, false);
}
