// SPDX-License-Identifier: GPL-2.0-only
/*
 * The async event file: at most one per context (GET_ASYNC_FD; a second call is -EEXIST).  It
 * carries the context's port and device events (an oib_event_handler on the device, registered
 * while the file exists and the context is not torn down) and its objects' events (CQ errors, QP
 * events), each naming the object's handle and user handle.  The context holds a reference on
 * it until teardown; its file holds another.
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
	/* The handler is unregistered before ufile->async is put: it is valid here. */
	oib_uverbs_event_queue(ufile->async, NULL, NULL, &desc);
}

/*
 * Give the context its async event file @ef (taking over the caller's reference) and start
 * its port events; -EEXIST if it has one.  hw_rwsem is held shared: ufile->async is set once,
 * by cmpxchg.
 */
static int oib_uverbs_async_attach(struct oib_uverbs_file *ufile,
				   struct oib_uverbs_event_file *ef)
{
	if (cmpxchg(&ufile->async, NULL, ef))
		return -EEXIST;
	ufile->event_handler.device = ufile->ibdev;
	ufile->event_handler.handler = oib_uverbs_port_event;
	oib_register_event_handler(&ufile->event_handler);
	return 0;
}

int oib_uverbs_get_async_fd(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_new_fd *cmd = buf;
	struct oib_uverbs_event_file *ef;
	int ret;

	if (cmd->reserved || cmd->fd)
		return -EINVAL;
	ef = oib_uverbs_event_file_alloc(NULL);
	if (!ef)
		return -ENOMEM;
	ret = oib_uverbs_async_attach(call->ufile, ef);
	if (ret) {
		oib_uverbs_event_file_put(ef);
		return ret;
	}
	kref_get(&ef->ref);			/* the file's */
	ret = oib_uverbs_event_file_open(ef, "[oib_uverbs_async]", call, cmd);
	if (ret)				/* no file after all: as if it were closed */
		oib_uverbs_event_file_close(ef);
	return ret;
}

#if IS_ENABLED(CONFIG_KUNIT)
/* The context's async event file, without a file; the context owns it. */
struct oib_uverbs_event_file *oib_uverbs_test_async(struct oib_uverbs_file *ufile)
{
	struct oib_uverbs_event_file *ef = oib_uverbs_event_file_alloc(NULL);
	int ret;

	if (!ef)
		return ERR_PTR(-ENOMEM);
	down_read(&ufile->hw_rwsem);
	ret = ufile->ibdev ? oib_uverbs_async_attach(ufile, ef) : -EIO;
	up_read(&ufile->hw_rwsem);
	if (ret) {
		oib_uverbs_event_file_put(ef);
		return ERR_PTR(ret);
	}
	return ef;
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_test_async);
#endif /* CONFIG_KUNIT */

/* An object's event (any context but hard-irq): to the async file, if the context has one. */
void oib_uverbs_async_object_event(struct oib_uverbs_uobj *uobj, struct list_head *obj_list,
				   u32 *counter, enum oib_event_type type)
{
	struct oib_uverbs_event_file *ef = READ_ONCE(uobj->ufile->async);
	struct oib_uverbs_event desc = {
		.user_handle = uobj->user_handle, .handle = uobj->handle, .type = type,
	};

	if (ef)
		oib_uverbs_event_queue(ef, obj_list, counter, &desc);
}

/* Teardown, after every object is gone (hw_rwsem held exclusive). */
void oib_uverbs_async_teardown(struct oib_uverbs_file *ufile)
{
	if (!ufile->async)
		return;
	if (ufile->event_handler.handler)
		oib_unregister_event_handler(&ufile->event_handler);
	oib_uverbs_event_file_put(ufile->async);
	ufile->async = NULL;
}
