// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * liboibv: CQs, completion channels' events, async events.  Event acknowledgment is counted
 * here, as in libibverbs: oibv_destroy_cq() (oibv_destroy_qp()) returns only when every event
 * the kernel says was read for the object has been acknowledged.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <oib/uverbs.h>
#include "oibv.h"
#include "oibv_priv.h"

struct oibv_cq *oibv_create_cq(struct oibv_context *ctx, int cqe, void *cq_context,
			       struct oibv_comp_channel *channel, int comp_vector)
{
	struct oibv_cq *cq = calloc(1, sizeof(*cq));
	struct oib_uverbs_create_cq c = {
		.user_handle = (uintptr_t)cq, .cqe = cqe, .comp_vector = comp_vector,
		.channel_fd = channel ? channel->fd : -1,
		.ring_flags = ctx->rings ? OIB_UVERBS_CREATE_MAPPED : 0,
	};
	int ret;

	if (!cq)
		return NULL;
	if (cqe < 0 || comp_vector < 0) {
		free(cq);
		errno = EINVAL;
		return NULL;
	}
	ret = oibv_cmd(ctx->cmd_fd, OIB_UVERBS_CREATE_CQ, &c, sizeof(c));
	if (!ret && c.ring_flags)
		ret = oibv_ring_map(ctx, &cq->ring, &c.ring, 0);
	if (ret) {
		if (c.handle)
			oibv_cmd(ctx->cmd_fd, OIB_UVERBS_DESTROY_CQ,
				 &(struct oib_uverbs_destroy_reported){ .handle = c.handle },
				 sizeof(struct oib_uverbs_destroy_reported));
		free(cq);
		errno = ret;
		return NULL;
	}
	cq->context = ctx;
	cq->channel = channel;
	cq->cq_context = cq_context;
	cq->handle = c.handle;
	cq->cqe = c.cqe;
	cq->comp_vector = comp_vector;
	pthread_mutex_init(&cq->mutex, NULL);
	pthread_cond_init(&cq->cond, NULL);
	if (channel)
		__atomic_add_fetch(&channel->refcnt, 1, __ATOMIC_RELEASE);
	return cq;
}

int oibv_destroy_cq(struct oibv_cq *cq)
{
	struct oib_uverbs_destroy_reported c = { .handle = cq->handle };
	int ret = oibv_cmd(cq->context->cmd_fd, OIB_UVERBS_DESTROY_CQ, &c, sizeof(c));

	if (ret)
		return ret;
	oibv_ring_unmap(cq->context, &cq->ring);
	if (cq->channel)
		__atomic_sub_fetch(&cq->channel->refcnt, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&cq->mutex);
	while (cq->comp_events_completed != c.comp_events_reported ||
	       cq->async_events_completed != c.async_events_reported)
		pthread_cond_wait(&cq->cond, &cq->mutex);
	pthread_mutex_unlock(&cq->mutex);
	pthread_mutex_destroy(&cq->mutex);
	pthread_cond_destroy(&cq->cond);
	free(cq);
	return 0;
}

int oibv_req_notify_cq(struct oibv_cq *cq, int solicited_only)
{
	struct oib_uverbs_req_notify_cq c = {
		.handle = cq->handle, .notify = solicited_only ? OIB_UVERBS_NOTIFY_SOLICITED : 0,
	};

	return oibv_cmd(cq->context->cmd_fd, OIB_UVERBS_REQ_NOTIFY_CQ, &c, sizeof(c));
}

int oibv_get_cq_event_cpu(struct oibv_comp_channel *channel, struct oibv_cq **cq,
			  void **cq_context, int *cpu)
{
	struct oib_uverbs_event ev;
	ssize_t n = read(channel->fd, &ev, sizeof(ev));

	if (n != sizeof(ev)) {
		if (n >= 0)
			errno = EIO;
		return -1;
	}
	*cq = (struct oibv_cq *)(uintptr_t)ev.user_handle;
	*cq_context = (*cq)->cq_context;
	if (cpu)
		*cpu = ev.cpu;
	return 0;
}

int oibv_get_cq_event(struct oibv_comp_channel *channel, struct oibv_cq **cq,
		      void **cq_context)
{
	return oibv_get_cq_event_cpu(channel, cq, cq_context, NULL);
}

void oibv_ack_cq_events(struct oibv_cq *cq, unsigned int nevents)
{
	oibv_events_ack(&cq->mutex, &cq->cond, &cq->comp_events_completed, nevents);
}

void oibv_events_ack(pthread_mutex_t *mutex, pthread_cond_t *cond, uint32_t *completed,
		     uint32_t n)
{
	pthread_mutex_lock(mutex);
	*completed += n;
	pthread_cond_signal(cond);
	pthread_mutex_unlock(mutex);
}

void oibv_events_wait_done(pthread_mutex_t *mutex, pthread_cond_t *cond,
			   const uint32_t *completed, uint32_t reported)
{
	pthread_mutex_lock(mutex);
	while (*completed != reported)
		pthread_cond_wait(cond, mutex);
	pthread_mutex_unlock(mutex);
	pthread_mutex_destroy(mutex);
	pthread_cond_destroy(cond);
}

int oibv_poll_cq(struct oibv_cq *cq, int num_entries, struct oibv_wc *wc)
{
	struct oib_uverbs_wc u[OIB_UVERBS_POLL_MAX];
	struct oib_uverbs_poll_cq c = { .handle = cq->handle, .wcs = (uintptr_t)u };
	int ret, i;

	if (num_entries < 0)
		return -EINVAL;
	if (cq->ring.mem)
		return oibv_poll_ring(&cq->ring, num_entries, wc);
	c.count = num_entries < OIB_UVERBS_POLL_MAX ? num_entries : OIB_UVERBS_POLL_MAX;
	ret = oibv_cmd(cq->context->cmd_fd, OIB_UVERBS_POLL_CQ, &c, sizeof(c));
	if (ret)
		return -ret;
	for (i = 0; i < (int)c.count; i++)
		oibv_wc_from_user(&wc[i], &u[i]);
	return c.count;
}

int oibv_get_async_event(struct oibv_context *ctx, struct oibv_async_event *event)
{
	struct oib_uverbs_event ev;
	ssize_t n = read(ctx->async_fd, &ev, sizeof(ev));

	if (n != sizeof(ev)) {
		if (n >= 0)
			errno = EIO;
		return -1;
	}
	event->event_type = ev.type;
	switch (ev.type) {
	case OIBV_EVENT_CQ_ERR:
		event->element.cq = (struct oibv_cq *)(uintptr_t)ev.user_handle;
		break;
	case OIBV_EVENT_QP_FATAL:
	case OIBV_EVENT_QP_REQ_ERR:
	case OIBV_EVENT_QP_ACCESS_ERR:
	case OIBV_EVENT_COMM_EST:
	case OIBV_EVENT_SQ_DRAINED:
	case OIBV_EVENT_PATH_MIG:
	case OIBV_EVENT_PATH_MIG_ERR:
	case OIBV_EVENT_QP_LAST_WQE_REACHED:
		event->element.qp = (struct oibv_qp *)(uintptr_t)ev.user_handle;
		break;
	case OIBV_EVENT_SRQ_ERR:
	case OIBV_EVENT_SRQ_LIMIT_REACHED:
		event->element.srq = (struct oibv_srq *)(uintptr_t)ev.user_handle;
		break;
	default:
		event->element.port_num = ev.user_handle;
		break;
	}
	return 0;
}

void oibv_ack_async_event(struct oibv_async_event *event)
{
	struct oibv_srq *srq;
	struct oibv_qp *qp;
	struct oibv_cq *cq;

	switch (event->event_type) {
	case OIBV_EVENT_CQ_ERR:
		cq = event->element.cq;
		oibv_events_ack(&cq->mutex, &cq->cond, &cq->async_events_completed, 1);
		break;
	case OIBV_EVENT_QP_FATAL:
	case OIBV_EVENT_QP_REQ_ERR:
	case OIBV_EVENT_QP_ACCESS_ERR:
	case OIBV_EVENT_COMM_EST:
	case OIBV_EVENT_SQ_DRAINED:
	case OIBV_EVENT_PATH_MIG:
	case OIBV_EVENT_PATH_MIG_ERR:
	case OIBV_EVENT_QP_LAST_WQE_REACHED:
		qp = event->element.qp;
		oibv_events_ack(&qp->mutex, &qp->cond, &qp->events_completed, 1);
		break;
	case OIBV_EVENT_SRQ_ERR:
	case OIBV_EVENT_SRQ_LIMIT_REACHED:
		srq = event->element.srq;
		oibv_events_ack(&srq->mutex, &srq->cond, &srq->events_completed, 1);
		break;
	default:
		break;
	}
}
