// SPDX-License-Identifier: GPL-2.0-only
/*
 * Completion queues and their completion channels, as the completion-channel design thread
 * (openib-general, "[RFC] libibverbs completion event handling", 2005) lays them out: a process
 * makes any number of channels (file descriptors); each CQ picks one or none, and a completion
 * vector (< the device's count) that the kernel owns; CQs on different vectors may share a
 * channel and vice versa.  Arming is REQ_NOTIFY_CQ; the next completion (solicited one) raises
 * one event on the CQ's channel, which names the CQ's handle and user handle and the CPU it was
 * raised on.  A CQ holds a reference on its channel.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "uverbs.h"

int oib_uverbs_create_comp_channel(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_new_fd *cmd = buf;
	struct oib_uverbs_event_file *ef;
	int ret;

	if (cmd->reserved || cmd->fd)
		return -EINVAL;
	ef = oib_uverbs_event_file_alloc(call->ufile);
	if (!ef)
		return -ENOMEM;
	ret = oib_uverbs_event_file_open(ef, "[oib_uverbs_comp]", call, cmd);
	if (ret)
		oib_uverbs_event_file_put(ef);
	return ret;
}

/* Queue a completion event on @ucq's channel, if it has one. */
void oib_uverbs_cq_comp_event(struct oib_uverbs_cq *ucq)
{
	struct oib_uverbs_event desc = {
		.user_handle = ucq->uobj.user_handle, .handle = ucq->uobj.handle,
		.type = OIB_UVERBS_EVENT_COMP, .cpu = raw_smp_processor_id(),
	};

	if (ucq->channel)
		oib_uverbs_event_queue(ucq->channel, &ucq->comp_list, &ucq->comp_reported, &desc);
}

/* The CQ's completion handler: one event per arming, never after oib_destroy_cq() returns. */
static void oib_uverbs_cq_comp(struct oib_cq *cq, void *context)
{
	oib_uverbs_cq_comp_event(context);
}

static void oib_uverbs_cq_event(struct oib_event *event, void *context)
{
	struct oib_uverbs_cq *ucq = context;

	oib_uverbs_async_object_event(&ucq->uobj, &ucq->async_list, &ucq->async_reported,
				      event->event);
}

static int oib_uverbs_cq_make(struct oib_uverbs_call *call, struct oib_uverbs_cq *ucq,
			      struct oib_uverbs_create_cq *cmd)
{
	struct oib_cq_init_attr attr = { .cqe = cmd->cqe, .comp_vector = cmd->comp_vector };
	struct oib_cq *cq;
	int ret;

	/* The handle is taken first: events name it from the first completion on. */
	ret = oib_uobj_insert(call->ufile, &ucq->uobj, OIB_UVERBS_OBJ_CQ, cmd->user_handle);
	if (ret)
		return ret;
	cq = oib_create_cq(call->ufile->ibdev, cmd->ring_flags ? oib_uverbs_cq_ring_comp :
			   oib_uverbs_cq_comp, oib_uverbs_cq_event, ucq, &attr);
	if (IS_ERR(cq)) {
		ret = PTR_ERR(cq);
		goto erase;
	}
	ucq->cq = cq;
	ret = oib_uverbs_cq_ring_init(ucq, cmd);
	if (ret) {
		oib_destroy_cq(cq);
		goto erase;
	}
	cmd->handle = ucq->uobj.handle;
	cmd->cqe = cq->cqe;
	oib_uobj_commit(&ucq->uobj);
	return 0;
erase:
	xa_erase(&call->ufile->handles, ucq->uobj.handle);
	return ret;
}

int oib_uverbs_create_cq(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_create_cq *cmd = buf;
	struct oib_uverbs_cq *ucq;
	int ret;

	if (cmd->handle || cmd->reserved || (cmd->ring_flags & ~OIB_UVERBS_CREATE_MAPPED) ||
	    memchr_inv(&cmd->ring, 0, sizeof(cmd->ring)))
		return -EINVAL;
	ucq = kzalloc(sizeof(*ucq), GFP_KERNEL_ACCOUNT);
	if (!ucq)
		return -ENOMEM;
	INIT_LIST_HEAD(&ucq->comp_list);
	INIT_LIST_HEAD(&ucq->async_list);
	if (cmd->channel_fd != -1) {
		ucq->channel = oib_uverbs_channel_get(call->ufile, cmd->channel_fd);
		if (IS_ERR(ucq->channel)) {
			ret = PTR_ERR(ucq->channel);
			kfree(ucq);
			return ret;
		}
	}
	ret = oib_uverbs_cq_make(call, ucq, cmd);
	if (ret) {
		if (ucq->channel)
			oib_uverbs_event_file_put(ucq->channel);
		kfree(ucq);
	}
	return ret;
}

int oib_uverbs_cq_destroy(struct oib_uverbs_uobj *uobj, void *resp)
{
	struct oib_uverbs_cq *ucq = container_of(uobj, struct oib_uverbs_cq, uobj);
	struct oib_uverbs_destroy_reported *cmd = resp;
	u32 n;
	int ret;

	ret = oib_destroy_cq(ucq->cq);	/* -EBUSY while QPs use it */
	if (ret)
		return ret;
	oib_uverbs_kring_free(ucq->mapped.ring);
	/* No handler runs any more: drop what was not read, report what was. */
	if (ucq->channel) {
		n = oib_uverbs_event_drop_unread(ucq->channel, &ucq->comp_list,
						 &ucq->comp_reported);
		cmd->comp_events_reported = n;
		oib_uverbs_event_file_put(ucq->channel);
	}
	cmd->async_events_reported = oib_uverbs_event_drop_unread(uobj->ufile->async,
								  &ucq->async_list,
								  &ucq->async_reported);
	return 0;
}

int oib_uverbs_destroy_cq(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_destroy_reported *cmd = buf;

	if (cmd->reserved || cmd->comp_events_reported || cmd->async_events_reported)
		return -EINVAL;
	return oib_uobj_destroy(call->ufile, cmd->handle, OIB_UVERBS_OBJ_CQ, cmd);
}

int oib_uverbs_req_notify_cq(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_req_notify_cq *cmd = buf;
	enum oib_cq_notify_flags flags;
	struct oib_uverbs_cq *ucq;
	int ret;

	if (cmd->notify & ~OIB_UVERBS_NOTIFY_SOLICITED)
		return -EINVAL;
	ucq = oib_uobj_get(call->ufile, cmd->handle, OIB_UVERBS_OBJ_CQ);
	if (IS_ERR(ucq))
		return PTR_ERR(ucq);
	flags = cmd->notify & OIB_UVERBS_NOTIFY_SOLICITED ? OIB_CQ_SOLICITED : OIB_CQ_NEXT_COMP;
	ret = 0;
	if (ucq->mapped.ring)
		oib_uverbs_cq_ring_arm(ucq, flags);
	else
		ret = oib_req_notify_cq(ucq->cq, flags);
	oib_uobj_put(&ucq->uobj);
	return ret < 0 ? ret : 0;
}

#define OIB_UVERBS_POLL_BATCH	16

/* Polls @count completions at most into @u, in batches; how many, or an -errno. */
static int oib_uverbs_poll_batches(struct oib_cq *cq, u32 count, struct oib_uverbs_wc *u)
{
	struct oib_wc wc[OIB_UVERBS_POLL_BATCH];
	u32 done = 0;
	int n, i;

	while (done < count) {
		n = oib_poll_cq(cq, min_t(u32, count - done, OIB_UVERBS_POLL_BATCH), wc);
		if (n <= 0)
			return n < 0 ? n : done;
		for (i = 0; i < n; i++, done++)
			oib_uverbs_wc_to_user(&u[done], &wc[i]);
	}
	return done;
}

/* Room for the completions, which the handler fills and oib_uverbs_poll_cq_after() copies out. */
int oib_uverbs_poll_cq_before(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_poll_cq *cmd = buf;

	if (cmd->count > OIB_UVERBS_POLL_MAX)
		return -EINVAL;
	if (!cmd->count)
		return 0;
	call->stage = kvmalloc_array(cmd->count, sizeof(struct oib_uverbs_wc), GFP_KERNEL);
	return call->stage ? 0 : -ENOMEM;
}

int oib_uverbs_poll_cq(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_poll_cq *cmd = buf;
	struct oib_uverbs_cq *ucq;
	int n;

	ucq = oib_uobj_get(call->ufile, cmd->handle, OIB_UVERBS_OBJ_CQ);
	if (IS_ERR(ucq))
		return PTR_ERR(ucq);
	/* A mapped CQ's completions are the ring's. */
	n = ucq->mapped.ring ? -EINVAL :
	    cmd->count ? oib_uverbs_poll_batches(ucq->cq, cmd->count, call->stage) : 0;
	oib_uobj_put(&ucq->uobj);
	if (n < 0)
		return n;
	cmd->count = n;
	return 0;
}

/* Completions polled but not copied out (a bad buffer) are lost. */
int oib_uverbs_poll_cq_after(struct oib_uverbs_call *call, void *buf, int ret)
{
	struct oib_uverbs_poll_cq *cmd = buf;

	if (!ret && cmd->count &&
	    copy_to_user(u64_to_user_ptr(cmd->wcs), call->stage,
			 cmd->count * sizeof(struct oib_uverbs_wc)))
		ret = -EFAULT;
	kvfree(call->stage);
	return ret;
}
