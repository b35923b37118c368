// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The drop-in libibverbs: shared receive queues, basic and XRC. */
#include <errno.h>
#include <stdlib.h>
#include "ibvc.h"

/* A basic SRQ on @pd, or an XRC SRQ of @xrcd completing on @cq; attr->attr gets what was granted */
struct ibv_srq *ibvc_srq_new(struct ibv_pd *pd, struct ibv_srq_init_attr *attr,
			     struct ibv_xrcd *xrcd, struct ibv_cq *cq)
{
	struct oibv_srq_init_attr oa;
	struct ibvc_srq *s;

	if (!pd || !attr || (xrcd && (xrcd->context != pd->context || !cq ||
				      cq->context != pd->context))) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	oa.srq_context = s;
	oa.attr = (struct oibv_srq_attr){
		.max_wr = attr->attr.max_wr, .max_sge = attr->attr.max_sge,
		.srq_limit = attr->attr.srq_limit,
	};
	if (xrcd)
		s->o = oibv_create_srq_xrc(IBVC(pd, pd)->o, IBVC(xrcd, xrcd)->o,
					   IBVC(cq, cq)->o, &oa);
	else
		s->o = oibv_create_srq(IBVC(pd, pd)->o, &oa);
	if (!s->o) {
		free(s);
		return NULL;
	}
	attr->attr.max_wr = oa.attr.max_wr;
	attr->attr.max_sge = oa.attr.max_sge;
	s->srq.context = pd->context;
	s->srq.srq_context = attr->srq_context;
	s->srq.pd = pd;
	s->srq.handle = s->o->handle;
	pthread_mutex_init(&s->srq.mutex, NULL);
	pthread_cond_init(&s->srq.cond, NULL);
	return &s->srq;
}

IBVC_EXPORT struct ibv_srq *ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *attr)
{
	return ibvc_srq_new(pd, attr, NULL, NULL);
}

IBVC_EXPORT int ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr, int attr_mask)
{
	struct oibv_srq_attr o;

	if (!srq || !attr || (attr_mask & ~(IBV_SRQ_MAX_WR | IBV_SRQ_LIMIT)))
		return EINVAL;
	o = (struct oibv_srq_attr){
		.max_wr = attr->max_wr, .max_sge = attr->max_sge, .srq_limit = attr->srq_limit,
	};
	return oibv_modify_srq(IBVC(srq, srq)->o, &o, attr_mask);
}

IBVC_EXPORT int ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr)
{
	struct oibv_srq_attr o;
	int ret;

	if (!srq || !attr)
		return EINVAL;
	ret = oibv_query_srq(IBVC(srq, srq)->o, &o);
	if (!ret)
		*attr = (struct ibv_srq_attr){
			.max_wr = o.max_wr, .max_sge = o.max_sge, .srq_limit = o.srq_limit,
		};
	return ret;
}

IBVC_EXPORT int ibv_destroy_srq(struct ibv_srq *srq)
{
	int ret;

	if (!srq)
		return EINVAL;
	ret = oibv_destroy_srq(IBVC(srq, srq)->o);
	if (ret)
		return ret;
	pthread_mutex_destroy(&srq->mutex);
	pthread_cond_destroy(&srq->cond);
	free(srq);
	return 0;
}
