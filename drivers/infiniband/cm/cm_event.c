// SPDX-License-Identifier: GPL-2.0-only
/*
 * A cm_id's work: what the state machine decided to tell the owner is queued as events (with a
 * copy of the message's private data) and delivered by the id's work on cm_wq, in order, one
 * handler call at a time; a handler returning non-zero has the work destroy the id.  The same
 * work takes the QP watch's signals, raised in atomic context, into the state machine.
 */
#include <linux/slab.h>
#include "cm_id.h"

struct cm_event_item {
	struct list_head entry;		/* in cm_id_priv.events */
	struct oib_cm_event event;
	u8 pdata[OIB_CM_MAX_PRIVATE_DATA_SIZE];
};

/*
 * Queue @event for @priv's handler (a dead id's is dropped).  -ENOMEM: the step fails.  The
 * work is kicked by cm_kick() once the step has changed the state, so a handler never sees an
 * event before the state it leads to.
 */
int cm_queue_event(struct cm_id_priv *priv, const struct oib_cm_event *event)
{
	struct cm_event_item *item;
	unsigned long flags;

	item = kmalloc(sizeof(*item), GFP_KERNEL);
	if (!item)
		return -ENOMEM;
	item->event = *event;
	if (event->private_data) {
		memcpy(item->pdata, event->private_data,
		       min_t(size_t, event->private_data_len, sizeof(item->pdata)));
		item->event.private_data = item->pdata;
	}
	spin_lock_irqsave(&priv->lock, flags);
	if (priv->dead)
		kfree(item);
	else
		list_add_tail(&item->entry, &priv->events);
	spin_unlock_irqrestore(&priv->lock, flags);
	return 0;
}

/* Deliver the events queued so far. */
void cm_kick(struct cm_id_priv *priv)
{
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	if (!priv->dead && !list_empty(&priv->events))
		queue_work(cm_wq, &priv->work);
	spin_unlock_irqrestore(&priv->lock, flags);
}

/* From any context: the QP watch saw @sig (CM_SIG_*). */
void cm_signal(struct cm_id_priv *priv, int sig)
{
	unsigned long flags;

	set_bit(sig, &priv->signals);
	spin_lock_irqsave(&priv->lock, flags);
	if (!priv->dead)
		queue_work(cm_wq, &priv->work);
	spin_unlock_irqrestore(&priv->lock, flags);
}

/*
 * Act on the QP watch's signals.  True if the watch must still be ended, after the events are
 * delivered: ESTABLISHED should not wait for the RCU grace period that takes (a failed
 * connection's events do wait, so that its owner may destroy the QP when it hears).
 */
static bool cm_take_signals(struct cm_id_priv *priv)
{
	unsigned long sigs = xchg(&priv->signals, 0);
	bool unwatch = false, later;

	if (!sigs)
		return false;
	mutex_lock(&priv->mutex);
	if (test_bit(CM_SIG_COMM_EST, &sigs))
		cm_run_locked(priv, CM_EV_COMM_EST, &(struct cm_ctx){});
	if (test_bit(CM_SIG_FIRST_RECV, &sigs))
		cm_run_locked(priv, CM_EV_FIRST_RECV, &(struct cm_ctx){});
	if (!cm_awaits_establishment(priv->id.state))
		unwatch = cm_qp_unwatch_locked(priv);
	later = priv->id.state == OIB_CM_ESTABLISHED;
	mutex_unlock(&priv->mutex);
	if (unwatch && !later)
		cm_qp_unwatch(priv);
	return unwatch && later;
}

static struct cm_event_item *cm_next_event(struct cm_id_priv *priv)
{
	struct cm_event_item *item;
	unsigned long flags;

	spin_lock_irqsave(&priv->lock, flags);
	item = list_first_entry_or_null(&priv->events, struct cm_event_item, entry);
	if (item)
		list_del(&item->entry);
	spin_unlock_irqrestore(&priv->lock, flags);
	return item;
}

void cm_id_work(struct work_struct *work)
{
	struct cm_id_priv *priv = container_of(work, struct cm_id_priv, work);
	bool destroy, unwatch = cm_take_signals(priv);
	struct cm_event_item *item;

	while ((item = cm_next_event(priv))) {
		destroy = cm_id_deliver(priv, &item->event);
		kfree(item);
		if (destroy) {
			if (unwatch)
				cm_qp_unwatch(priv);
			cm_id_destroy(priv, true);
			return;
		}
	}
	if (unwatch)
		cm_qp_unwatch(priv);
}

void cm_events_purge(struct cm_id_priv *priv)
{
	struct cm_event_item *item;

	while ((item = cm_next_event(priv)))
		kfree(item);
}
