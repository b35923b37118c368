// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running the state table (cm_fsm.c) on a cm_id: look the step up, carry its action out, then
 * change the state and do what every change of state implies, so no action has to:
 * - leaving a state that awaits an answer (a REQ, REP, DREQ or SIDR_REQ in cm_id_priv.msg)
 *   for one that does not await the same message cancels the wait;
 * - entering TIMEWAIT arms the timewait timer and forgets the peer's QP (a new REQ from it is
 *   no longer stale); entering IDLE forgets the peer altogether;
 * - entering a state where the connection is failed or being released puts the QP in ERR;
 * - leaving the states that wait to be established lets the QP watch go (from the id's work).
 * Every step is traced (oib_cm:oib_cm_step) and counted per state (debugfs "states").
 */
#include <linux/minmax.h>
#include <linux/seq_file.h>
#include "cm_action.h"
#include "cm_port.h"
#include "cm_trace.h"

/* The message each state awaits an answer to, plus one; 0: none. */
#define AWAITS(m)	(CM_MSG_##m + 1)
static const u8 cm_awaits[OIB_CM_NSTATES] = {
	[OIB_CM_REQ_SENT] = AWAITS(REQ),
	[OIB_CM_MRA_REQ_RCVD] = AWAITS(REQ),
	[OIB_CM_REP_SENT] = AWAITS(REP),
	[OIB_CM_MRA_REP_RCVD] = AWAITS(REP),
	[OIB_CM_DREQ_SENT] = AWAITS(DREQ),
	[OIB_CM_SIDR_REQ_SENT] = AWAITS(SIDR_REQ),
};

#undef AWAITS

typedef int (*cm_action_fn)(struct cm_id_priv *priv, struct cm_ctx *ctx);

/* NONE, IGNORE, DROP_DUP and DESTROY do nothing but change the state. */
static const cm_action_fn cm_actions[CM_NACTIONS] = {
	[CM_ACT_SPAWN] = cm_act_spawn,
	[CM_ACT_SEND_REQ] = cm_act_send_req,
	[CM_ACT_DELIVER_REQ] = cm_act_deliver_req,
	[CM_ACT_CROSS_PASSIVE] = cm_act_cross_passive,
	[CM_ACT_SEND_MRA_REQ] = cm_act_send_mra_req,
	[CM_ACT_SEND_MRA_REP] = cm_act_send_mra_rep,
	[CM_ACT_RESEND_MRA] = cm_act_resend_kept,
	[CM_ACT_MRA_RCVD] = cm_act_mra_rcvd,
	[CM_ACT_SEND_REP] = cm_act_send_rep,
	[CM_ACT_RESEND_REP] = cm_act_resend_rep,
	[CM_ACT_DELIVER_REP] = cm_act_deliver_rep,
	[CM_ACT_SEND_RTU] = cm_act_send_rtu,
	[CM_ACT_RESEND_RTU] = cm_act_resend_kept,
	[CM_ACT_ESTABLISH] = cm_act_establish,
	[CM_ACT_SEND_REJ] = cm_act_send_rej,
	[CM_ACT_REJ_RCVD] = cm_act_rej_rcvd,
	[CM_ACT_SEND_REJ_STALE] = cm_act_send_rej_stale,
	[CM_ACT_STALE_DREQ] = cm_act_stale_dreq,
	[CM_ACT_SEND_DREQ] = cm_act_send_dreq,
	[CM_ACT_DREQ_RCVD] = cm_act_dreq_rcvd,
	[CM_ACT_DREQ_CROSSED] = cm_act_dreq_crossed,
	[CM_ACT_SEND_DREP] = cm_act_send_drep,
	[CM_ACT_RESEND_DREP] = cm_act_resend_kept,
	[CM_ACT_DREP_RCVD] = cm_act_drep_rcvd,
	[CM_ACT_REQ_TIMEOUT] = cm_act_req_timeout,
	[CM_ACT_REP_TIMEOUT] = cm_act_rep_timeout,
	[CM_ACT_DREQ_TIMEOUT] = cm_act_dreq_timeout,
	[CM_ACT_SEND_SIDR_REQ] = cm_act_send_sidr_req,
	[CM_ACT_DELIVER_SIDR_REQ] = cm_act_deliver_sidr_req,
	[CM_ACT_SEND_SIDR_REP] = cm_act_send_sidr_rep,
	[CM_ACT_SIDR_REP_RCVD] = cm_act_sidr_rep_rcvd,
	[CM_ACT_SIDR_REQ_TIMEOUT] = cm_act_sidr_req_timeout,
	[CM_ACT_SEND_APR_UNSUPPORTED] = cm_act_send_apr_unsupported,
	[CM_ACT_TIMEWAIT_EXIT] = cm_act_timewait_exit,
	[CM_ACT_DESTROY_REJ_TIMEOUT] = cm_act_destroy_rej_timeout,
	[CM_ACT_DESTROY_REJ] = cm_act_destroy_rej,
	[CM_ACT_DESTROY_DREQ] = cm_act_destroy_dreq,
	[CM_ACT_DESTROY_DREP] = cm_act_destroy_drep,
	[CM_ACT_DESTROY_SIDR_REJ] = cm_act_destroy_sidr_rej,
};

static atomic_t cm_state_count[OIB_CM_NSTATES];	/* cm_ids in each state */

/* A 5-bit CM timeout in milliseconds, as the in-tree CM rounds it: 2^(t - 8), at least 1. */
unsigned int cm_timeout_ms(u8 t)
{
	t &= OIB_CM_TIMEOUT_MAX;
	return min_t(unsigned int, 1U << (t > 8 ? t - 8 : 0), OIB_MAD_TIMEOUT_MAX_MS);
}

void cm_cancel_msg_locked(struct cm_id_priv *priv)
{
	lockdep_assert_held(&priv->mutex);
	if (priv->msg)
		oib_cancel_mad(priv->msg);	/* its handler drops the reference */
	priv->msg = NULL;
}

static bool cm_connection_down(enum oib_cm_state s)
{
	return s == OIB_CM_IDLE || s == OIB_CM_TIMEWAIT || s == OIB_CM_DREQ_SENT ||
	       s == OIB_CM_DREQ_RCVD || s == OIB_CM_DESTROYING;
}

static void cm_enter_locked(struct cm_id_priv *priv, enum oib_cm_state from,
			    enum oib_cm_state to)
{
	lockdep_assert_held(&priv->mutex);
	atomic_dec(&cm_state_count[from]);
	atomic_inc(&cm_state_count[to]);
	WRITE_ONCE(priv->id.state, to);
	if (to == OIB_CM_TIMEWAIT) {
		cm_id_forget_qpn(priv);
		queue_delayed_work(cm_wq, &priv->timewait,
				   msecs_to_jiffies(cm_timeout_ms(priv->conn.ack_timeout)));
	}
	if (to == OIB_CM_IDLE)
		cm_id_forget_peer(priv);
	if (cm_connection_down(to) && !cm_connection_down(from))
		cm_qp_error_locked(priv);
	if (priv->watching && !cm_awaits_establishment(to))
		cm_signal(priv, CM_SIG_UNWATCH);
}

int cm_run_locked(struct cm_id_priv *priv, enum cm_event event, struct cm_ctx *ctx)
{
	enum oib_cm_state from = priv->id.state;
	struct oib_mad_send_buf *old = priv->msg;
	struct cm_step step;
	int ret = 0;

	lockdep_assert_held(&priv->mutex);
	step = oib_cm_fsm_step(from, event);
	ctx->action = step.action;
	if (step.action == CM_ACT_PROTOCOL_ERROR)
		ret = -EPROTO;
	else if (cm_actions[step.action])
		ret = cm_actions[step.action](priv, ctx);
	trace_oib_cm_step(priv->id.local_id, priv->id.remote_id, from, event, step.action,
			  ret ? from : step.next, ret);
	if (ret)
		return ret;
	if (old && cm_awaits[from] != cm_awaits[step.next]) {
		oib_cancel_mad(old);
		if (priv->msg == old)
			priv->msg = NULL;
	}
	if (step.next != from)
		cm_enter_locked(priv, from, step.next);
	cm_kick(priv);
	return 0;
}

/*
 * The destroy step; whatever its action could not do, the id ends in DESTROYING.  True if the
 * caller must end the QP watch (cm_qp_unwatch_locked()).
 */
bool cm_destroy_locked(struct cm_id_priv *priv)
{
	enum oib_cm_state from = priv->id.state;

	lockdep_assert_held(&priv->mutex);
	if (cm_run_locked(priv, CM_EV_DESTROY, &(struct cm_ctx){}) &&
	    from != OIB_CM_DESTROYING) {
		cm_cancel_msg_locked(priv);
		cm_enter_locked(priv, from, OIB_CM_DESTROYING);
	}
	return cm_qp_unwatch_locked(priv);
}

int cm_run(struct cm_id_priv *priv, enum cm_event event, struct cm_ctx *ctx)
{
	int ret;

	mutex_lock(&priv->mutex);
	ret = cm_run_locked(priv, event, ctx);
	mutex_unlock(&priv->mutex);
	return ret;
}

/* A consumer's call (@param for its action): -EINVAL when the id's state does not allow it. */
int cm_call(struct oib_cm_id *id, enum cm_event event, const void *param)
{
	struct cm_ctx ctx = { .param = param };
	int ret = cm_run(cm_id_priv(id), event, &ctx);

	return ret == -EPROTO ? -EINVAL : ret;
}

static const u8 cm_timeout_events[CM_NMSGS] = {
	[CM_MSG_REQ] = CM_EV_REQ_TIMEOUT,
	[CM_MSG_REP] = CM_EV_REP_TIMEOUT,
	[CM_MSG_DREQ] = CM_EV_DREQ_TIMEOUT,
	[CM_MSG_SIDR_REQ] = CM_EV_SIDR_REQ_TIMEOUT,
};

/* The send handler of a MAD that awaited an answer: a wait that ended without one. */
void cm_msg_done(struct cm_id_priv *priv, struct oib_mad_send_buf *sb,
		 enum oib_mad_send_status status)
{
	const struct oib_mad_hdr *hdr = sb->mad;
	unsigned int type = be16_to_cpu(hdr->attr_id) - CM_ATTR_REQ;
	struct cm_ctx ctx = {};

	mutex_lock(&priv->mutex);
	if (priv->msg != sb)
		goto out;	/* the step that ended the wait cancelled it */
	priv->msg = NULL;
	if (status == OIB_MAD_SEND_OK || status == OIB_MAD_SEND_CANCELLED ||
	    type >= CM_NMSGS || !cm_timeout_events[type])
		goto out;
	ctx.status = status == OIB_MAD_SEND_RESP_TIMEOUT ? -ETIMEDOUT :
		     status == OIB_MAD_SEND_FLUSHED ? -ENODEV : -EIO;
	cm_run_locked(priv, cm_timeout_events[type], &ctx);
out:
	mutex_unlock(&priv->mutex);
}

void cm_timewait_work(struct work_struct *work)
{
	struct cm_id_priv *priv = container_of(to_delayed_work(work), struct cm_id_priv,
					       timewait);

	cm_run(priv, CM_EV_TIMEWAIT_EXPIRED, &(struct cm_ctx){});
}

void cm_state_count_add(enum oib_cm_state state, int n)
{
	atomic_add(n, &cm_state_count[state]);
}

void cm_state_counts_show(struct seq_file *m)
{
	int s;

	for (s = 0; s < OIB_CM_NSTATES; s++)
		seq_printf(m, "%-14s %d\n", oib_cm_state_name(s), atomic_read(&cm_state_count[s]));
}
