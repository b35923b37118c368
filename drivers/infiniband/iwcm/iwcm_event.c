// SPDX-License-Identifier: GPL-2.0-only
/*
 * The provider's events: copied and queued on their id (the provider may report them under its
 * own locks), then delivered one at a time, in order, by the id's work.  A listener's request
 * makes a new id and moves to that id's queue, so everything about one connection reaches its
 * owner from one place, in order.
 */
#include "iwcm_priv.h"

void iwcm_provider_event(struct oib_iw_cm_id *iw, const struct oib_iw_cm_event *ev)
{
	struct iwcm_id_priv *priv = iw_to_iwcm(iw);
	struct iwcm_queued *q = iwcm_queued_alloc();
	u8 len = ev->private_data_len;

	might_sleep();
	q->ev = *ev;
	if (len > OIB_IW_CM_PRIVATE_DATA_SIZE || (len && !ev->private_data)) {
		iwcm_count_dropped();	/* a provider bug: the private data is not passed on */
		len = 0;
	}
	memcpy(q->pdata, ev->private_data, len);
	q->ev.private_data = q->pdata;
	q->ev.private_data_len = len;
	spin_lock_irq(&priv->events_lock);
	list_add_tail(&q->entry, &priv->events);
	if (!priv->work_busy) {
		priv->work_busy = true;
		kref_get(&priv->ref);	/* the work's, until it finds the queue empty */
		queue_work(iwcm_wq, &priv->work);
	}
	spin_unlock_irq(&priv->events_lock);
}

static enum iwcm_event iwcm_event_of(const struct oib_iw_cm_event *ev)
{
	switch (ev->event) {
	case OIB_IW_CM_EVENT_CONNECT_REQUEST:
		return IWCM_EV_CONNECT_REQUEST;
	case OIB_IW_CM_EVENT_CONNECT_REPLY:
		return ev->status ? IWCM_EV_CONNECT_REPLY_ERR : IWCM_EV_CONNECT_REPLY_OK;
	case OIB_IW_CM_EVENT_ESTABLISHED:
		return IWCM_EV_ESTABLISHED;
	case OIB_IW_CM_EVENT_DISCONNECT:
		return IWCM_EV_DISCONNECT_IN;
	case OIB_IW_CM_EVENT_CLOSE:
		return IWCM_EV_CLOSE;
	default:
		return IWCM_NEVENTS;
	}
}

/* The provider's last event for this id: it lets go of it, and of its QP. */
static bool iwcm_event_last(enum iwcm_event event)
{
	return event == IWCM_EV_CLOSE || event == IWCM_EV_CONNECT_REPLY_ERR;
}

/* Call the owner's handler; non-zero from it destroys the id, here in its own work. */
static void iwcm_call_owner(struct iwcm_id_priv *priv, const struct oib_iw_cm_event *ev,
			    struct oib_iwcm_id *listen_id)
{
	struct oib_iwcm_event out = {
		.event = ev->event,
		.status = ev->status,
		.private_data = ev->private_data,
		.private_data_len = ev->private_data_len,
		.ird = ev->ird,
		.ord = ev->ord,
		.listen_id = listen_id,
	};
	int ret;

	WRITE_ONCE(priv->handler_task, current);
	ret = priv->id.handler(&priv->id, &out);
	WRITE_ONCE(priv->handler_task, NULL);
	if (ret)
		iwcm_destroy(priv);
}

/* A listener's request: a new id for it, the request queued there; refused if the listener went. */
static void iwcm_spawn(struct iwcm_id_priv *listener, struct iwcm_queued *q)
{
	struct oib_iw_cm_id refuse = {
		.device = listener->id.device,
		.provider_data = q->ev.provider_data,
	};
	struct iwcm_id_priv *child = NULL;

	mutex_lock(&listener->lock);
	if (listener->state == IWCM_LISTEN)
		child = iwcm_id_alloc(listener->id.device, listener->id.handler,
				      listener->id.context);
	mutex_unlock(&listener->lock);
	if (!child) {
		listener->id.device->ops->iw_reject(&refuse, NULL, 0);
		return;
	}
	child->id.local_addr = q->ev.local_addr;
	child->id.remote_addr = q->ev.remote_addr;
	child->iw.local_addr = q->ev.local_addr;
	child->iw.remote_addr = q->ev.remote_addr;
	child->iw.provider_data = q->ev.provider_data;
	kref_get(&listener->ref);
	child->listener = listener;
	iwcm_provider_event(&child->iw, &q->ev);	/* its own copy, in its own queue */
}

/*
 * The request on the new id: delivered while its listener cannot go, or refused if it went.
 * Until then the id is iwcm's own; from CONNECT_REQUEST on, its owner's (the reference alloc
 * gave it).
 */
static void iwcm_deliver_request(struct iwcm_id_priv *priv, const struct oib_iw_cm_event *ev)
{
	struct iwcm_id_priv *listener = priv->listener;
	struct iwcm_step st;
	int ret;

	mutex_lock(&listener->listen_mutex);
	mutex_lock(&listener->lock);
	ret = listener->state == IWCM_LISTEN ? 0 : -ENOTCONN;
	mutex_unlock(&listener->lock);
	if (ret)	/* the listener went: nobody is told, the peer is refused */
		priv->id.device->ops->iw_reject(&priv->iw, NULL, 0);
	if (!ret) {
		mutex_lock(&priv->lock);
		ret = iwcm_step_locked(priv, IWCM_EV_CONNECT_REQUEST, &st);
		mutex_unlock(&priv->lock);
	}
	if (!ret) {
		WRITE_ONCE(priv->handler_task, current);
		ret = priv->id.handler(&priv->id, &(struct oib_iwcm_event){
			.event = ev->event,
			.private_data = ev->private_data,
			.private_data_len = ev->private_data_len,
			.ird = ev->ird,
			.ord = ev->ord,
			.listen_id = &listener->id,
		});
		WRITE_ONCE(priv->handler_task, NULL);
	}
	mutex_unlock(&listener->listen_mutex);
	if (ret)	/* the handler returned non-zero: rejected unless answered */
		iwcm_destroy(priv);
}

/*
 * The connection is up: the QP's record follows the provider's QP from INIT through RTR to RTS
 * (the provider's modify takes these as news of what it has done).  A QP the transport already
 * moved to ERR stays there: CLOSE is on its way.
 */
static void iwcm_qp_rts_locked(struct iwcm_id_priv *priv)
{
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_RTR };

	lockdep_assert_held(&priv->lock);
	if (!priv->qp || oib_modify_qp(priv->qp, &attr, OIB_QP_STATE))
		return;
	attr.qp_state = OIB_QPS_RTS;
	oib_modify_qp(priv->qp, &attr, OIB_QP_STATE);
}

static void iwcm_process(struct iwcm_id_priv *priv, struct iwcm_queued *q)
{
	enum iwcm_event event = iwcm_event_of(&q->ev);
	struct iwcm_step st;
	int ret;

	if (event == IWCM_EV_CONNECT_REQUEST && priv->listener) {
		iwcm_deliver_request(priv, &q->ev);
		return;
	}
	if (event == IWCM_EV_CONNECT_REQUEST) {
		iwcm_spawn(priv, q);
		return;
	}
	mutex_lock(&priv->lock);
	ret = iwcm_step_locked(priv, event, &st);
	if (!ret && (event == IWCM_EV_CONNECT_REPLY_OK || event == IWCM_EV_ESTABLISHED))
		iwcm_qp_rts_locked(priv);
	if (iwcm_event_last(event)) {
		if (event == IWCM_EV_CONNECT_REPLY_ERR)
			iwcm_qp_error_locked(priv);	/* refused, unreachable: as on IB */
		priv->qp = NULL;
		iwcm_provider_put_locked(priv);
	}
	mutex_unlock(&priv->lock);
	if (ret)
		iwcm_count_dropped();
	else if (st.deliver != IWCM_NO_EVENT)
		iwcm_call_owner(priv, &q->ev, NULL);
}

void iwcm_event_work(struct work_struct *work)
{
	struct iwcm_id_priv *priv = container_of(work, struct iwcm_id_priv, work);
	struct iwcm_queued *q;

	for (;;) {
		spin_lock_irq(&priv->events_lock);
		q = list_first_entry_or_null(&priv->events, struct iwcm_queued, entry);
		if (q)
			list_del(&q->entry);
		else
			priv->work_busy = false;
		spin_unlock_irq(&priv->events_lock);
		if (!q)
			break;
		iwcm_process(priv, q);
		iwcm_queued_free(q);
	}
	iwcm_id_put(priv);
}
