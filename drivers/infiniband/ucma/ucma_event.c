// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CMA's events as a file's: copied (private data included) into a queued struct ucma_event
 * that holds the ids it names, read by GET_EVENT, dropped with their id.  A CONNECT_REQUEST
 * makes the new connection's id in the listener's file at once: it is that file's (and dies
 * with it) before the event is read.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "ucma.h"

static void ucma_event_free(struct ucma_event *e)
{
	ucma_ctx_put(e->ctx);
	if (e->conn)
		ucma_ctx_put(e->conn);
	kfree(e);
}

static bool ucma_event_has_param(enum oib_cma_event_type type)
{
	return type == OIB_CMA_EVENT_CONNECT_REQUEST || type == OIB_CMA_EVENT_CONNECT_RESPONSE ||
	       type == OIB_CMA_EVENT_ESTABLISHED || type == OIB_CMA_EVENT_REJECTED;
}

static void ucma_event_conn(struct oib_ucma_event *r, const struct oib_cma_conn_param *p)
{
	if (p->private_data && p->private_data_len) {
		r->param.private_data_len = p->private_data_len;
		memcpy(r->param.private_data, p->private_data, p->private_data_len);
	}
	r->param.responder_resources = p->responder_resources;
	r->param.initiator_depth = p->initiator_depth;
	r->param.retry_count = p->retry_count;
	r->param.rnr_retry_count = p->rnr_retry_count;
	r->param.srq = p->srq;
}

static void ucma_event_ud(struct oib_ucma_event *r, const struct oib_cma_ud_param *p)
{
	const struct oib_ah_attr *ah = &p->ah_attr;

	if (p->private_data && p->private_data_len) {
		r->param.private_data_len = p->private_data_len;
		memcpy(r->param.private_data, p->private_data, p->private_data_len);
	}
	r->qp_num = p->qp_num;
	r->qkey = p->qkey;
	memcpy(r->dgid, ah->grh.dgid.raw, sizeof(r->dgid));
	r->flow_label = ah->grh.flow_label;
	r->hop_limit = ah->grh.hop_limit;
	r->traffic_class = ah->grh.traffic_class;
	r->sgid_index = ah->grh.sgid_index;
	r->dlid = ah->dlid;
	r->sl = ah->sl;
	r->port_num = ah->port_num;
}

static struct ucma_event *ucma_event_new(struct ucma_ctx *ctx, const struct oib_cma_event *ev,
					 enum oib_qp_type qp_type)
{
	struct ucma_event *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return NULL;
	kref_get(&ctx->ref);
	e->ctx = ctx;
	e->resp.uid = READ_ONCE(ctx->uid);
	e->resp.id = ctx->handle;
	e->resp.event = ev->event;
	e->resp.status = ev->status;
	if (!ucma_event_has_param(ev->event))
		return e;
	if (qp_type == OIB_QPT_UD)
		ucma_event_ud(&e->resp, &ev->param.ud);
	else
		ucma_event_conn(&e->resp, &ev->param.conn);
	return e;
}

static void ucma_event_queue(struct ucma_file *file, struct ucma_event *e)
{
	spin_lock(&file->lock);
	list_add_tail(&e->list, &file->events);
	spin_unlock(&file->lock);
	wake_up_interruptible(&file->wait);
}

/* A request to @listener: the new id @id as a new id of the file, named by the event. */
static int ucma_conn_request(struct ucma_ctx *listener, struct oib_cma_id *id,
			     struct ucma_event *e)
{
	struct ucma_ctx *conn = ucma_ctx_new(listener->file, e->resp.uid);

	if (!conn)
		return -ENOMEM;
	conn->cm_id = id;
	id->context = conn;
	if (ucma_ctx_insert(conn)) {
		id->context = listener;
		conn->cm_id = NULL;
		ucma_ctx_put(conn);
		return -ENOMEM;
	}
	kref_get(&conn->ref);
	e->conn = conn;
	e->resp.conn_id = conn->handle;
	return 0;
}

/*
 * The CMA's handler for every id of every file: @id->context is the id's ctx (a new
 * connection's request: its listener's).  Never takes a ctx's mutex.  Without memory an event
 * is lost, and a request refused (non-zero: the CMA destroys the new id).
 */
int ucma_cma_handler(struct oib_cma_id *id, struct oib_cma_event *event)
{
	struct ucma_ctx *ctx = id->context;
	struct ucma_event *e;

	e = ucma_event_new(ctx, event, id->qp_type);
	if (!e)
		return event->event == OIB_CMA_EVENT_CONNECT_REQUEST;
	if (event->event == OIB_CMA_EVENT_CONNECT_REQUEST && ucma_conn_request(ctx, id, e)) {
		ucma_event_free(e);
		return 1;
	}
	if (event->event == OIB_CMA_EVENT_DEVICE_REMOVAL) {
		kref_get(&ctx->ref);
		if (!queue_work(ucma_wq, &ctx->removal))
			ucma_ctx_put(ctx);
	}
	ucma_event_queue(ctx->file, e);
	return 0;
}

/*
 * Drop @ctx's unread events (a request's new id is destroyed with its event); the number of its
 * events given out.  @ctx is closed: no more are queued.
 */
u32 ucma_events_drop(struct ucma_ctx *ctx)
{
	struct ucma_file *file = ctx->file;
	struct ucma_event *e, *tmp;
	LIST_HEAD(dropped);
	u32 reported;

	spin_lock(&file->lock);
	list_for_each_entry_safe(e, tmp, &file->events, list)
		if (e->ctx == ctx)
			list_move_tail(&e->list, &dropped);
	reported = ctx->events_reported;
	spin_unlock(&file->lock);
	list_for_each_entry_safe(e, tmp, &dropped, list) {
		list_del(&e->list);
		if (e->conn)
			ucma_ctx_destroy(e->conn);
		ucma_event_free(e);
	}
	return reported;
}

static struct ucma_event *ucma_event_take(struct ucma_file *file)
{
	struct ucma_event *e;

	spin_lock(&file->lock);
	e = list_first_entry_or_null(&file->events, struct ucma_event, list);
	if (e) {
		list_del(&e->list);
		e->ctx->events_reported++;
	}
	spin_unlock(&file->lock);
	return e;
}

/*
 * The oldest event, waiting for one unless @nonblock (-EAGAIN).  An answer that cannot be
 * written (-EFAULT) loses the event, and a request's new id with it.
 */
long ucma_get_event(struct ucma_file *file, bool nonblock, void __user *arg)
{
	struct ucma_event *e;
	int ret = 0;

	while (!(e = ucma_event_take(file))) {
		if (nonblock)
			return -EAGAIN;
		ret = wait_event_interruptible(file->wait, !list_empty(&file->events));
		if (ret)
			return ret;
	}
	if (copy_to_user(arg, &e->resp, sizeof(e->resp))) {
		ret = -EFAULT;
		if (e->conn)
			ucma_ctx_destroy(e->conn);
	}
	ucma_event_free(e);
	return ret;
}
