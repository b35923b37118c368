// SPDX-License-Identifier: GPL-2.0-only
/*
 * The async event file: at most one per context (GET_ASYNC_FD; a second call is -EEXIST, unless
 * the first one's answer could not be copied out: then its file was never given and the next
 * call makes another).  It carries the context's port and device events (an oib_event_handler
 * on the device, registered from the context's making to its teardown) and its objects' events
 * (CQ errors, QP and SRQ events), each naming the object's handle and user handle.  Its queue is
 * made with the context, before any object can be, and lives as long as the context's memory
 * (struct oib_uverbs_file): until GET_ASYNC_FD gives it a file it drops what it is given.  The
 * context holds a reference on it; its file holds another.
 */
#include <linux/module.h>
#include <kunit/visibility.h>
#include <oib/kunit/uverbs.h>
#include "uverbs.h"

static void oib_uverbs_port_event(struct oib_event_handler *handler, struct oib_event *event)
{
	struct oib_uverbs_file *ufile = container_of(handler, struct oib_uverbs_file,
						     event_handler);
	struct oib_uverbs_event desc = { .type = event->event };

	switch (event->event) {
	case OIB_EVENT_PORT_ACTIVE:
	case OIB_EVENT_PORT_ERR:
	case OIB_EVENT_LID_CHANGE:
	case OIB_EVENT_PKEY_CHANGE:
	case OIB_EVENT_SM_CHANGE:
	case OIB_EVENT_CLIENT_REREGISTER:
	case OIB_EVENT_GID_CHANGE:
		desc.user_handle = event->element.port_num;
		break;
	case OIB_EVENT_DEVICE_FATAL:
		break;
	default:
		return;
	}
	/* The handler is unregistered at teardown, before the context's memory goes. */
	oib_uverbs_event_queue(ufile->async, NULL, NULL, &desc);
}

/* The context's queue, made with it (UNOPENED): 0 or -ENOMEM. */
int oib_uverbs_async_alloc(struct oib_uverbs_file *ufile)
{
	ufile->async = oib_uverbs_event_file_alloc(NULL);
	if (!ufile->async)
		return -ENOMEM;
	ufile->async->state = OIB_UVERBS_EF_UNOPENED;
	return 0;
}

/* The context has its device (under udev->lock, as its teardown is): its port events start. */
void oib_uverbs_async_start(struct oib_uverbs_file *ufile)
{
	ufile->event_handler.device = ufile->ibdev;
	ufile->event_handler.handler = oib_uverbs_port_event;
	oib_register_event_handler(&ufile->event_handler);
}

int oib_uverbs_get_async_fd(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_event_file *ef = call->ufile->async;
	struct oib_uverbs_new_fd *cmd = buf;
	int ret;

	if (cmd->reserved || cmd->fd)
		return -EINVAL;
	if (!oib_uverbs_event_file_start(ef))
		return -EEXIST;
	kref_get(&ef->ref);			/* the file's */
	ret = oib_uverbs_event_file_open(ef, "[oib_uverbs_async]", call, cmd);
	if (ret) {				/* no file after all: UNOPENED again */
		oib_uverbs_event_file_stop(ef, NULL, OIB_UVERBS_EF_UNOPENED);
		oib_uverbs_event_file_put(ef);
	}
	return ret;
}

#if IS_ENABLED(CONFIG_KUNIT)
/* The context's async event file, queuing without a file; the context owns it. */
struct oib_uverbs_event_file *oib_uverbs_test_async(struct oib_uverbs_file *ufile)
{
	int ret;

	down_read(&ufile->hw_rwsem);
	ret = !ufile->ibdev ? -EIO : oib_uverbs_event_file_start(ufile->async) ? 0 : -EEXIST;
	up_read(&ufile->hw_rwsem);
	return ret ? ERR_PTR(ret) : ufile->async;
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_test_async);
#endif /* CONFIG_KUNIT */

/* An object's event (any context but hard-irq): to the async file, dropped if it has no file. */
void oib_uverbs_async_object_event(struct oib_uverbs_uobj *uobj, struct list_head *obj_list,
				   u32 *counter, enum oib_event_type type)
{
	struct oib_uverbs_event desc = {
		.user_handle = uobj->user_handle, .handle = uobj->handle, .type = type,
	};

	oib_uverbs_event_queue(uobj->ufile->async, obj_list, counter, &desc);
}

/* Teardown, after every object is gone (hw_rwsem held exclusive): no more port events. */
void oib_uverbs_async_teardown(struct oib_uverbs_file *ufile)
{
	oib_unregister_event_handler(&ufile->event_handler);
}
