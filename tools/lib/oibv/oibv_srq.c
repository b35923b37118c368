// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* liboibv: shared receive queues (posting to them is in oibv_qp.c and oibv_ring.c). */
#include <errno.h>
#include <stdlib.h>
#include <oib/uverbs.h>
#include "oibv.h"
#include "oibv_priv.h"

/* CREATE_SRQ with @c, its attributes and handles filled in but the user handle. */
struct oibv_srq *oibv_srq_create(struct oibv_pd *pd, struct oibv_srq_init_attr *attr,
				 struct oib_uverbs_create_srq *c)
{
	struct oibv_srq *srq = calloc(1, sizeof(*srq));
	int ret;

	if (!srq)
		return NULL;
	c->user_handle = (uintptr_t)srq;
	ret = oibv_cmd(pd->context->cmd_fd, OIB_UVERBS_CREATE_SRQ, c, sizeof(*c));
	if (ret == EOPNOTSUPP && c->ring_flags) {
		/* a device that cannot pull receives: they go through POST_SRQ_RECV */
		c->ring_flags = 0;
		ret = oibv_cmd(pd->context->cmd_fd, OIB_UVERBS_CREATE_SRQ, c, sizeof(*c));
	}
	if (!ret && c->ring_flags)
		ret = oibv_ring_map(pd->context, &srq->ring, &c->ring, c->attr.max_sge ?: 1);
	if (ret) {
		if (c->handle)
			oibv_cmd(pd->context->cmd_fd, OIB_UVERBS_DESTROY_SRQ,
				 &(struct oib_uverbs_destroy_reported){ .handle = c->handle },
				 sizeof(struct oib_uverbs_destroy_reported));
		free(srq);
		errno = ret;
		return NULL;
	}
	srq->context = pd->context;
	srq->srq_context = attr->srq_context;
	srq->pd = pd;
	srq->handle = c->handle;
	srq->xrc_srq_num = c->srq_num;
	pthread_mutex_init(&srq->mutex, NULL);
	pthread_cond_init(&srq->cond, NULL);
	attr->attr.max_wr = c->attr.max_wr;
	attr->attr.max_sge = c->attr.max_sge;
	return srq;
}

struct oibv_srq *oibv_create_srq(struct oibv_pd *pd, struct oibv_srq_init_attr *attr)
{
	struct oib_uverbs_create_srq c = {
		.pd_handle = pd->handle,
		.ring_flags = pd->context->rings ? OIB_UVERBS_CREATE_MAPPED : 0,
		.attr = {
			.max_wr = attr->attr.max_wr, .max_sge = attr->attr.max_sge,
			.srq_limit = attr->attr.srq_limit,
		},
	};

	return oibv_srq_create(pd, attr, &c);
}

int oibv_modify_srq(struct oibv_srq *srq, struct oibv_srq_attr *attr, int attr_mask)
{
	struct oib_uverbs_modify_srq c = {
		.handle = srq->handle, .attr_mask = attr_mask,
		.attr = { .max_wr = attr->max_wr, .srq_limit = attr->srq_limit },
	};

	return oibv_cmd(srq->context->cmd_fd, OIB_UVERBS_MODIFY_SRQ, &c, sizeof(c));
}

int oibv_query_srq(struct oibv_srq *srq, struct oibv_srq_attr *attr)
{
	struct oib_uverbs_modify_srq c = { .handle = srq->handle };
	int ret = oibv_cmd(srq->context->cmd_fd, OIB_UVERBS_QUERY_SRQ, &c, sizeof(c));

	if (!ret)
		*attr = (struct oibv_srq_attr){
			.max_wr = c.attr.max_wr, .max_sge = c.attr.max_sge,
			.srq_limit = c.attr.srq_limit,
		};
	return ret;
}

/* As libibverbs: returns once the program has acknowledged every async event it read. */
int oibv_destroy_srq(struct oibv_srq *srq)
{
	struct oib_uverbs_destroy_reported c = { .handle = srq->handle };
	int ret = oibv_cmd(srq->context->cmd_fd, OIB_UVERBS_DESTROY_SRQ, &c, sizeof(c));

	if (ret)
		return ret;
	oibv_ring_unmap(srq->context, &srq->ring);
	oibv_events_wait_done(&srq->mutex, &srq->cond, &srq->events_completed,
			      c.async_events_reported);
	free(srq);
	return 0;
}
