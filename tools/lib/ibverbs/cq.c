// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The drop-in libibverbs: completion channels, CQs, polling, events. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "ibvc.h"

/*
 * struct oibv_wc is struct ibv_wc without dlid_path_bits, which sits in oibv_wc's padding, and
 * liboibv's status and opcode values are libibverbs's: a poll writes the program's array as is.
 */
_Static_assert(sizeof(struct oibv_wc) == sizeof(struct ibv_wc), "wc size");
_Static_assert(SAME_FIELD(oibv_wc, ibv_wc, wr_id) && SAME_FIELD(oibv_wc, ibv_wc, status) &&
	       SAME_FIELD(oibv_wc, ibv_wc, opcode) && SAME_FIELD(oibv_wc, ibv_wc, vendor_err) &&
	       SAME_FIELD(oibv_wc, ibv_wc, byte_len) && SAME_FIELD(oibv_wc, ibv_wc, imm_data) &&
	       SAME_FIELD(oibv_wc, ibv_wc, qp_num) && SAME_FIELD(oibv_wc, ibv_wc, src_qp) &&
	       SAME_FIELD(oibv_wc, ibv_wc, wc_flags) && SAME_FIELD(oibv_wc, ibv_wc, pkey_index) &&
	       SAME_FIELD(oibv_wc, ibv_wc, slid) && SAME_FIELD(oibv_wc, ibv_wc, sl) &&
	       offsetof(struct ibv_wc, dlid_path_bits) >= offsetof(struct oibv_wc, sl) + 1,
	       "wc layout");
IBVC_ASSERT_SAME(OIBV_WC_SUCCESS, IBV_WC_SUCCESS);
IBVC_ASSERT_SAME(OIBV_WC_LOC_LEN_ERR, IBV_WC_LOC_LEN_ERR);
IBVC_ASSERT_SAME(OIBV_WC_LOC_PROT_ERR, IBV_WC_LOC_PROT_ERR);
IBVC_ASSERT_SAME(OIBV_WC_WR_FLUSH_ERR, IBV_WC_WR_FLUSH_ERR);
IBVC_ASSERT_SAME(OIBV_WC_REM_ACCESS_ERR, IBV_WC_REM_ACCESS_ERR);
IBVC_ASSERT_SAME(OIBV_WC_RETRY_EXC_ERR, IBV_WC_RETRY_EXC_ERR);
IBVC_ASSERT_SAME(OIBV_WC_SEND, IBV_WC_SEND);
IBVC_ASSERT_SAME(OIBV_WC_RDMA_WRITE, IBV_WC_RDMA_WRITE);
IBVC_ASSERT_SAME(OIBV_WC_RDMA_READ, IBV_WC_RDMA_READ);
IBVC_ASSERT_SAME(OIBV_WC_COMP_SWAP, IBV_WC_COMP_SWAP);
IBVC_ASSERT_SAME(OIBV_WC_FETCH_ADD, IBV_WC_FETCH_ADD);
IBVC_ASSERT_SAME(OIBV_WC_RECV, IBV_WC_RECV);
IBVC_ASSERT_SAME(OIBV_WC_RECV_RDMA_WITH_IMM, IBV_WC_RECV_RDMA_WITH_IMM);
IBVC_ASSERT_SAME(OIBV_WC_GRH, IBV_WC_GRH);
IBVC_ASSERT_SAME(OIBV_WC_WITH_IMM, IBV_WC_WITH_IMM);

int ibvc_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
{
	int n, i;

	if (!cq || num_entries < 0 || (num_entries && !wc))
		return -EINVAL;
	n = oibv_poll_cq(IBVC(cq, cq)->o, num_entries, (struct oibv_wc *)wc);
	for (i = 0; i < n; i++)
		wc[i].dlid_path_bits = 0;
	return n;
}

int ibvc_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	if (!cq)
		return EINVAL;
	return oibv_req_notify_cq(IBVC(cq, cq)->o, solicited_only);
}

IBVC_EXPORT struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)
{
	struct ibvc_channel *c;

	if (!context) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->o = oibv_create_comp_channel(ibvc_ctx(context)->o);
	if (!c->o) {
		free(c);
		return NULL;
	}
	c->ch.context = context;
	c->ch.fd = c->o->fd;
	return &c->ch;
}

IBVC_EXPORT int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
{
	int ret;

	if (!channel)
		return EINVAL;
	ret = oibv_destroy_comp_channel(IBVC(channel, channel)->o);
	if (!ret)
		free(channel);
	return ret;
}

IBVC_EXPORT struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
					 struct ibv_comp_channel *channel, int comp_vector)
{
	struct ibvc_cq *c;

	if (!context || cqe <= 0 || (channel && channel->context != context)) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->o = oibv_create_cq(ibvc_ctx(context)->o, cqe, c,
			      channel ? IBVC(channel, channel)->o : NULL, comp_vector);
	if (!c->o) {
		free(c);
		return NULL;
	}
	c->cq.context = context;
	c->cq.channel = channel;
	c->cq.cq_context = cq_context;
	c->cq.handle = c->o->handle;
	c->cq.cqe = c->o->cqe;
	pthread_mutex_init(&c->cq.mutex, NULL);
	pthread_cond_init(&c->cq.cond, NULL);
	return &c->cq;
}

IBVC_EXPORT int ibv_destroy_cq(struct ibv_cq *cq)
{
	int ret;

	if (!cq)
		return EINVAL;
	ret = oibv_destroy_cq(IBVC(cq, cq)->o);
	if (ret)
		return ret;
	pthread_mutex_destroy(&cq->mutex);
	pthread_cond_destroy(&cq->cond);
	free(cq);
	return 0;
}

/* oib's CQs keep their size: as a provider without resize_cq */
IBVC_EXPORT int ibv_resize_cq(struct ibv_cq *cq, int cqe)
{
	(void)cqe;
	return cq ? EOPNOTSUPP : EINVAL;
}

/* 0, or -1 with errno (EAGAIN on a non-blocking channel with nothing queued) */
IBVC_EXPORT int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq,
				 void **cq_context)
{
	struct oibv_cq *ocq;
	struct ibvc_cq *c;
	void *octx;

	if (!channel || !cq || !cq_context) {
		errno = EINVAL;
		return -1;
	}
	if (oibv_get_cq_event(IBVC(channel, channel)->o, &ocq, &octx))
		return -1;
	c = octx;
	*cq = &c->cq;
	*cq_context = c->cq.cq_context;
	return 0;
}

IBVC_EXPORT void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	if (cq)
		oibv_ack_cq_events(IBVC(cq, cq)->o, nevents);
}

/* liboibv's event types, in its order, and libibverbs's for each */
static const enum ibv_event_type ibvc_event_types[] = {
	[OIBV_EVENT_CQ_ERR] = IBV_EVENT_CQ_ERR,
	[OIBV_EVENT_QP_FATAL] = IBV_EVENT_QP_FATAL,
	[OIBV_EVENT_QP_REQ_ERR] = IBV_EVENT_QP_REQ_ERR,
	[OIBV_EVENT_QP_ACCESS_ERR] = IBV_EVENT_QP_ACCESS_ERR,
	[OIBV_EVENT_COMM_EST] = IBV_EVENT_COMM_EST,
	[OIBV_EVENT_SQ_DRAINED] = IBV_EVENT_SQ_DRAINED,
	[OIBV_EVENT_PATH_MIG] = IBV_EVENT_PATH_MIG,
	[OIBV_EVENT_PATH_MIG_ERR] = IBV_EVENT_PATH_MIG_ERR,
	[OIBV_EVENT_QP_LAST_WQE_REACHED] = IBV_EVENT_QP_LAST_WQE_REACHED,
	[OIBV_EVENT_SRQ_ERR] = IBV_EVENT_SRQ_ERR,
	[OIBV_EVENT_SRQ_LIMIT_REACHED] = IBV_EVENT_SRQ_LIMIT_REACHED,
	[OIBV_EVENT_DEVICE_FATAL] = IBV_EVENT_DEVICE_FATAL,
	[OIBV_EVENT_PORT_ACTIVE] = IBV_EVENT_PORT_ACTIVE,
	[OIBV_EVENT_PORT_ERR] = IBV_EVENT_PORT_ERR,
	[OIBV_EVENT_LID_CHANGE] = IBV_EVENT_LID_CHANGE,
	[OIBV_EVENT_PKEY_CHANGE] = IBV_EVENT_PKEY_CHANGE,
	[OIBV_EVENT_SM_CHANGE] = IBV_EVENT_SM_CHANGE,
	[OIBV_EVENT_CLIENT_REREGISTER] = IBV_EVENT_CLIENT_REREGISTER,
	[OIBV_EVENT_GID_CHANGE] = IBV_EVENT_GID_CHANGE,
};

/* 0, or -1 with errno */
IBVC_EXPORT int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)
{
	struct oibv_async_event o;

	if (!context || !event) {
		errno = EINVAL;
		return -1;
	}
	if (oibv_get_async_event(ibvc_ctx(context)->o, &o))
		return -1;
	if (o.event_type >= sizeof(ibvc_event_types) / sizeof(ibvc_event_types[0])) {
		errno = EIO;
		return -1;
	}
	event->event_type = ibvc_event_types[o.event_type];
	switch (event->event_type) {
	case IBV_EVENT_CQ_ERR:
		event->element.cq = o.element.cq->cq_context;
		break;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_SRQ_LIMIT_REACHED:
		event->element.srq = o.element.srq->srq_context;
		break;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		event->element.qp = o.element.qp->qp_context;
		break;
	default:
		event->element.port_num = o.element.port_num;
		break;
	}
	return 0;
}

IBVC_EXPORT void ibv_ack_async_event(struct ibv_async_event *event)
{
	struct oibv_async_event o = { 0 };
	unsigned int i;

	if (!event)
		return;
	for (i = 0; i < sizeof(ibvc_event_types) / sizeof(ibvc_event_types[0]); i++)
		if (ibvc_event_types[i] == event->event_type)
			break;
	o.event_type = i;
	switch (event->event_type) {
	case IBV_EVENT_CQ_ERR:
		o.element.cq = IBVC(cq, event->element.cq)->o;
		break;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_SRQ_LIMIT_REACHED:
		o.element.srq = IBVC(srq, event->element.srq)->o;
		break;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		o.element.qp = IBVC(qp, event->element.qp)->o;
		break;
	default:
		return;
	}
	oibv_ack_async_event(&o);
}
