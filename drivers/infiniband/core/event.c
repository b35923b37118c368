// SPDX-License-Identifier: GPL-2.0-only
/*
 * Async events.  Object events (QP, CQ, SRQ) go straight to the object's handler in the caller's
 * context.  Port and device events are copied into a work item on the device's ordered workqueue so
 * that registered handlers run in process context, one at a time, in dispatch order.  The handler
 * list is protected by device->event_rwsem: the work holds it for reading while it calls handlers,
 * so oib_unregister_event_handler() (which takes it for writing) returns only when the handler is
 * no longer running and can never be called again.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <uapi/oib/netlink.h>
#include "core_priv.h"

struct oib_event_work {
	struct work_struct work;
	struct oib_event event;
};

static const char * const oib_event_names[] = {
	[OIB_EVENT_CQ_ERR] = "CQ error",
	[OIB_EVENT_QP_FATAL] = "QP fatal error",
	[OIB_EVENT_QP_REQ_ERR] = "QP request error",
	[OIB_EVENT_QP_ACCESS_ERR] = "QP access error",
	[OIB_EVENT_COMM_EST] = "communication established",
	[OIB_EVENT_SQ_DRAINED] = "send queue drained",
	[OIB_EVENT_PATH_MIG] = "path migration successful",
	[OIB_EVENT_PATH_MIG_ERR] = "path migration error",
	[OIB_EVENT_QP_LAST_WQE_REACHED] = "last WQE reached",
	[OIB_EVENT_SRQ_ERR] = "SRQ error",
	[OIB_EVENT_SRQ_LIMIT_REACHED] = "SRQ limit reached",
	[OIB_EVENT_DEVICE_FATAL] = "device fatal error",
	[OIB_EVENT_PORT_ACTIVE] = "port active",
	[OIB_EVENT_PORT_ERR] = "port error",
	[OIB_EVENT_LID_CHANGE] = "LID change",
	[OIB_EVENT_PKEY_CHANGE] = "P_Key change",
	[OIB_EVENT_SM_CHANGE] = "SM change",
	[OIB_EVENT_CLIENT_REREGISTER] = "client reregister",
	[OIB_EVENT_GID_CHANGE] = "GID table change",
};

const char *oib_event_msg(enum oib_event_type event)
{
	if (event < ARRAY_SIZE(oib_event_names) && oib_event_names[event])
		return oib_event_names[event];
	return "unknown event";
}
EXPORT_SYMBOL(oib_event_msg);

int oib_register_event_handler(struct oib_event_handler *handler)
{
	if (!handler || !handler->device || !handler->handler)
		return -EINVAL;
	down_write(&handler->device->event_rwsem);
	list_add_tail(&handler->list, &handler->device->event_handlers);
	up_write(&handler->device->event_rwsem);
	return 0;
}
EXPORT_SYMBOL(oib_register_event_handler);

void oib_unregister_event_handler(struct oib_event_handler *handler)
{
	down_write(&handler->device->event_rwsem);
	list_del(&handler->list);
	up_write(&handler->device->event_rwsem);
}
EXPORT_SYMBOL(oib_unregister_event_handler);

static void oib_event_work_fn(struct work_struct *work)
{
	struct oib_event_work *ew = container_of(work, struct oib_event_work, work);
	struct oib_device *device = ew->event.device;
	struct oib_event_handler *h;

	down_read(&device->event_rwsem);
	list_for_each_entry(h, &device->event_handlers, list)
		h->handler(h, &ew->event);
	up_read(&device->event_rwsem);
	if (ew->event.event == OIB_EVENT_PORT_ACTIVE || ew->event.event == OIB_EVENT_PORT_ERR ||
	    ew->event.event == OIB_EVENT_GID_CHANGE)
		oib_nl_notify(device, ew->event.element.port_num, OIB_NL_CMD_PORT_CHANGE);
	kfree(ew);
}

static void oib_queue_device_event(struct oib_event *event)
{
	struct oib_device *device = event->device;
	struct oib_event_work *ew;
	unsigned long flags;

	ew = kmalloc(sizeof(*ew), GFP_ATOMIC);
	if (!ew)
		return;		/* the allocator has already said so */
	ew->event = *event;
	INIT_WORK(&ew->work, oib_event_work_fn);

	spin_lock_irqsave(&device->event_lock, flags);
	if (device->event_wq)
		queue_work(device->event_wq, &ew->work);
	else		/* not registered (yet or any more): nobody is listening */
		kfree(ew);
	spin_unlock_irqrestore(&device->event_lock, flags);
}

void oib_dispatch_event(struct oib_event *event)
{
	switch (event->event) {
	case OIB_EVENT_CQ_ERR:
		if (event->element.cq->event_handler)
			event->element.cq->event_handler(event, event->element.cq->cq_context);
		break;
	case OIB_EVENT_QP_FATAL:
	case OIB_EVENT_QP_REQ_ERR:
	case OIB_EVENT_QP_ACCESS_ERR:
	case OIB_EVENT_COMM_EST:
	case OIB_EVENT_SQ_DRAINED:
	case OIB_EVENT_PATH_MIG:
	case OIB_EVENT_PATH_MIG_ERR:
	case OIB_EVENT_QP_LAST_WQE_REACHED:
		oib_qp_watch_event(event->element.qp, event);
		if (oib_qp_shared(event->element.qp))
			oib_xrc_tgt_event(event->element.qp, event);
		else if (event->element.qp->event_handler)
			event->element.qp->event_handler(event, event->element.qp->qp_context);
		break;
	case OIB_EVENT_SRQ_ERR:
	case OIB_EVENT_SRQ_LIMIT_REACHED:
		if (event->element.srq->event_handler)
			event->element.srq->event_handler(event, event->element.srq->srq_context);
		break;
	default:
		oib_queue_device_event(event);
		break;
	}
}
EXPORT_SYMBOL(oib_dispatch_event);

void oib_dispatch_port_event(struct oib_device *device, u32 port, enum oib_event_type type)
{
	struct oib_event event = {
		.device = device,
		.element.port_num = port,
		.event = type,
	};

	oib_dispatch_event(&event);
}
EXPORT_SYMBOL(oib_dispatch_port_event);

int oib_events_start(struct oib_device *device)
{
	struct workqueue_struct *wq;

	wq = alloc_ordered_workqueue("%s_ev", 0, oib_dev_name(device));
	if (!wq)
		return -ENOMEM;
	spin_lock_irq(&device->event_lock);
	device->event_wq = wq;
	spin_unlock_irq(&device->event_lock);
	return 0;
}

/* Stop accepting device events, run the queued ones, and free the workqueue. */
void oib_events_stop(struct oib_device *device)
{
	struct workqueue_struct *wq;

	spin_lock_irq(&device->event_lock);
	wq = device->event_wq;
	device->event_wq = NULL;
	spin_unlock_irq(&device->event_lock);
	if (wq)
		destroy_workqueue(wq);
}
