// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Events: read from the channel's file, turned into librdmacm's (a request's new id made here,
 * the ids' addresses and route queried again), handed out, and acknowledged; the kernel counts
 * what it gave out of each id, rdma_destroy_id() waits for as many acknowledgements.  A call
 * on a synchronous id waits for that id's event; others read meanwhile wait on the channel's
 * backlog for rdma_get_cm_event().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include "rdmacm.h"

static const enum rdma_cm_event_type cma_types[] = {
	[OIB_UCMA_EVENT_ADDR_RESOLVED] = RDMA_CM_EVENT_ADDR_RESOLVED,
	[OIB_UCMA_EVENT_ADDR_ERROR] = RDMA_CM_EVENT_ADDR_ERROR,
	[OIB_UCMA_EVENT_ROUTE_RESOLVED] = RDMA_CM_EVENT_ROUTE_RESOLVED,
	[OIB_UCMA_EVENT_ROUTE_ERROR] = RDMA_CM_EVENT_ROUTE_ERROR,
	[OIB_UCMA_EVENT_CONNECT_REQUEST] = RDMA_CM_EVENT_CONNECT_REQUEST,
	[OIB_UCMA_EVENT_CONNECT_RESPONSE] = RDMA_CM_EVENT_CONNECT_RESPONSE,
	[OIB_UCMA_EVENT_CONNECT_ERROR] = RDMA_CM_EVENT_CONNECT_ERROR,
	[OIB_UCMA_EVENT_UNREACHABLE] = RDMA_CM_EVENT_UNREACHABLE,
	[OIB_UCMA_EVENT_REJECTED] = RDMA_CM_EVENT_REJECTED,
	[OIB_UCMA_EVENT_ESTABLISHED] = RDMA_CM_EVENT_ESTABLISHED,
	[OIB_UCMA_EVENT_DISCONNECTED] = RDMA_CM_EVENT_DISCONNECTED,
	[OIB_UCMA_EVENT_DEVICE_REMOVAL] = RDMA_CM_EVENT_DEVICE_REMOVAL,
	[OIB_UCMA_EVENT_TIMEWAIT_EXIT] = RDMA_CM_EVENT_TIMEWAIT_EXIT,
	[OIB_UCMA_EVENT_ADDR_CHANGE] = RDMA_CM_EVENT_ADDR_CHANGE,
};

static struct cma_id *cma_id_find(struct cma_channel *ch, uint32_t handle)
{
	struct cma_id *id;

	pthread_mutex_lock(&ch->lock);
	for (id = ch->ids; id && id->handle != handle; id = id->next)
		;
	pthread_mutex_unlock(&ch->lock);
	return id;
}

static void cma_event_param(struct cma_event *e, const struct oib_ucma_event *r)
{
	struct rdma_cm_event *ev = &e->event;

	memcpy(e->private_data, r->param.private_data, r->param.private_data_len);
	if (ev->id->qp_type != IBV_QPT_UD) {
		ev->param.conn.private_data = r->param.private_data_len ? e->private_data : NULL;
		ev->param.conn.private_data_len = r->param.private_data_len;
		ev->param.conn.responder_resources = r->param.responder_resources;
		ev->param.conn.initiator_depth = r->param.initiator_depth;
		ev->param.conn.retry_count = r->param.retry_count;
		ev->param.conn.rnr_retry_count = r->param.rnr_retry_count;
		ev->param.conn.srq = r->param.srq;
		return;
	}
	ev->param.ud.private_data = r->param.private_data_len ? e->private_data : NULL;
	ev->param.ud.private_data_len = r->param.private_data_len;
	ev->param.ud.qp_num = r->qp_num;
	ev->param.ud.qkey = r->qkey;
	ev->param.ud.ah_attr = (struct ibv_ah_attr) {
		.dlid = r->dlid, .sl = r->sl, .port_num = r->port_num, .is_global = 1,
		.grh = { .flow_label = r->flow_label, .sgid_index = r->sgid_index,
			 .hop_limit = r->hop_limit, .traffic_class = r->traffic_class },
	};
	memcpy(ev->param.ud.ah_attr.grh.dgid.raw, r->dgid, 16);
}

/* A request: its new id, on the listener's channel, with the listener's context. */
static struct cma_id *cma_conn_new(struct cma_channel *ch, struct cma_id *listen,
				   const struct oib_ucma_event *r)
{
	struct cma_id *id = cma_id_new(ch, listen->id.context, listen->id.ps, listen->id.qp_type,
				       r->conn_id);

	if (!id)
		return NULL;
	id->sync = listen->sync;
	id->req_responder_resources = r->param.responder_resources;
	id->req_initiator_depth = r->param.initiator_depth;
	cma_query(id);
	return id;
}

/* @r as librdmacm's event; NULL (errno) if it names no id of ours or memory ran out. */
static struct cma_event *cma_event_make(struct cma_channel *ch, const struct oib_ucma_event *r)
{
	struct cma_event *e;
	struct cma_id *id;

	id = cma_id_find(ch, r->id);
	if (!id || r->event >= sizeof(cma_types) / sizeof(cma_types[0]))
		return errno = EPROTO, NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return errno = ENOMEM, NULL;
	e->counted = id;
	e->event.id = &id->id;
	e->event.event = cma_types[r->event];
	e->event.status = r->status;
	if (r->event == OIB_UCMA_EVENT_CONNECT_REQUEST) {
		struct cma_id *conn = cma_conn_new(ch, id, r);

		if (!conn) {
			free(e);
			return NULL;
		}
		e->event.listen_id = &id->id;
		e->event.id = &conn->id;
	} else if (!r->status) {
		cma_query(id);
	}
	cma_event_param(e, r);
	return e;
}

/* The next event of @ch: the backlog's first, else the file's next (blocking as the fd is). */
int cma_event_next(struct cma_channel *ch, struct cma_event **out)
{
	struct oib_ucma_event r;

	pthread_mutex_lock(&ch->lock);
	*out = ch->backlog;
	if (*out)
		ch->backlog = (*out)->next;
	pthread_mutex_unlock(&ch->lock);
	if (*out)
		return 0;
	do {
		if (ioctl(ch->ch.fd, OIB_UCMA_GET_EVENT, &r))
			return -1;
		*out = cma_event_make(ch, &r);
	} while (!*out && errno == EPROTO);
	return *out ? 0 : -1;
}

static void cma_backlog_add(struct cma_channel *ch, struct cma_event *e)
{
	struct cma_event **p;

	pthread_mutex_lock(&ch->lock);
	for (p = &ch->backlog; *p; p = &(*p)->next)
		;
	e->next = NULL;
	*p = e;
	pthread_mutex_unlock(&ch->lock);
}

static int cma_event_errno(const struct rdma_cm_event *ev)
{
	if (ev->status < 0)
		return -ev->status;
	if (ev->event == RDMA_CM_EVENT_REJECTED)
		return ECONNREFUSED;
	return ev->event == RDMA_CM_EVENT_UNREACHABLE ? ENETUNREACH : EPROTO;
}

/* A synchronous call's end: @id's next event is @want (0), or not (-1, errno). */
int cma_wait(struct cma_id *id, enum rdma_cm_event_type want)
{
	struct cma_channel *ch = to_cma_channel(id->id.channel);
	struct cma_event *e;
	int e_no = 0;

	for (;;) {
		if (cma_event_next(ch, &e))
			return -1;
		if (e->event.id == &id->id && !e->event.listen_id)
			break;
		cma_backlog_add(ch, e);
	}
	if (e->event.event != want)
		e_no = cma_event_errno(&e->event);
	cma_event_ack(e);
	return e_no ? cma_err(e_no) : 0;
}

void cma_event_ack(struct cma_event *e)
{
	struct cma_id *id = e->counted;

	pthread_mutex_lock(&id->lock);
	id->acked++;
	pthread_cond_broadcast(&id->cond);
	pthread_mutex_unlock(&id->lock);
	free(e);
}

RDMACM_EXPORT int rdma_get_cm_event(struct rdma_event_channel *channel,
				    struct rdma_cm_event **event)
{
	struct cma_event *e;

	if (!channel || !event)
		return cma_err(EINVAL);
	if (cma_event_next(to_cma_channel(channel), &e))
		return -1;
	*event = &e->event;
	return 0;
}

RDMACM_EXPORT int rdma_ack_cm_event(struct rdma_cm_event *event)
{
	if (!event)
		return cma_err(EINVAL);
	cma_event_ack((struct cma_event *)event);
	return 0;
}

/* rdma_get_request(): the next request to the synchronous listener @listen, its QP made. */
RDMACM_EXPORT int rdma_get_request(struct rdma_cm_id *listen, struct rdma_cm_id **out)
{
	struct cma_id *l = to_cma_id(listen);
	struct cma_channel *ch;
	struct cma_event *e;
	struct rdma_cm_id *id;

	if (!l || !out || !l->sync)
		return cma_err(EINVAL);
	ch = to_cma_channel(listen->channel);
	for (;;) {
		if (cma_event_next(ch, &e))
			return -1;
		if (e->event.listen_id == listen)
			break;
		cma_backlog_add(ch, e);
	}
	id = e->event.id;
	cma_event_ack(e);
	if (l->has_ep_attr) {
		struct ibv_qp_init_attr a = l->ep_attr;

		if (rdma_create_qp(id, l->ep_pd, &a)) {
			int err = errno;

			rdma_reject(id, NULL, 0);
			rdma_destroy_id(id);
			return cma_err(err);
		}
	}
	*out = id;
	return 0;
}

RDMACM_EXPORT const char *rdma_event_str(enum rdma_cm_event_type event)
{
	static const char *const names[] = {
		"RDMA_CM_EVENT_ADDR_RESOLVED", "RDMA_CM_EVENT_ADDR_ERROR",
		"RDMA_CM_EVENT_ROUTE_RESOLVED", "RDMA_CM_EVENT_ROUTE_ERROR",
		"RDMA_CM_EVENT_CONNECT_REQUEST", "RDMA_CM_EVENT_CONNECT_RESPONSE",
		"RDMA_CM_EVENT_CONNECT_ERROR", "RDMA_CM_EVENT_UNREACHABLE",
		"RDMA_CM_EVENT_REJECTED", "RDMA_CM_EVENT_ESTABLISHED",
		"RDMA_CM_EVENT_DISCONNECTED", "RDMA_CM_EVENT_DEVICE_REMOVAL",
		"RDMA_CM_EVENT_MULTICAST_JOIN", "RDMA_CM_EVENT_MULTICAST_ERROR",
		"RDMA_CM_EVENT_ADDR_CHANGE", "RDMA_CM_EVENT_TIMEWAIT_EXIT",
	};

	if ((unsigned int)event < sizeof(names) / sizeof(names[0]))
		return names[event];
	return "UNKNOWN EVENT";
}
