// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The drop-in libibverbs: the verbs_context's extended calls, for what oib has of them: XRC
 * domains (shared between processes through a file, Documentation/xrc.md), XRC SRQs and their
 * numbers, XRC initiator and target QPs.  ibv_create_qp_ex() and ibv_create_srq_ex() take the
 * attributes of the plain calls and these; what else they can ask (creation flags, the new send
 * API, tag matching, RSS, ...) oib does not offer (EOPNOTSUPP).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include "ibvc.h"

struct ibv_xrcd *ibvc_open_xrcd(struct ibv_context *ctx, struct ibv_xrcd_init_attr *attr)
{
	struct ibvc_xrcd *x;

	if (!ctx || !attr || !(attr->comp_mask & IBV_XRCD_INIT_ATTR_FD) ||
	    !(attr->comp_mask & IBV_XRCD_INIT_ATTR_OFLAGS) ||
	    attr->comp_mask >= IBV_XRCD_INIT_ATTR_RESERVED) {
		errno = EINVAL;
		return NULL;
	}
	x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->o = oibv_open_xrcd(ibvc_ctx(ctx)->o, attr->fd, attr->oflags);
	if (!x->o) {
		free(x);
		return NULL;
	}
	x->xrcd.context = ctx;
	return &x->xrcd;
}

int ibvc_close_xrcd(struct ibv_xrcd *xrcd)
{
	int ret;

	if (!xrcd)
		return EINVAL;
	ret = oibv_close_xrcd(IBVC(xrcd, xrcd)->o);
	if (!ret)
		free(xrcd);
	return ret;
}

#define IBVC_SRQ_EX_MASK (IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD | \
			  IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ)

struct ibv_srq *ibvc_create_srq_ex(struct ibv_context *ctx, struct ibv_srq_init_attr_ex *attr)
{
	struct ibv_srq_init_attr a;
	struct ibv_srq *srq;
	bool typed, xrc;

	if (!ctx || !attr || !(attr->comp_mask & IBV_SRQ_INIT_ATTR_PD) || !attr->pd ||
	    attr->pd->context != ctx) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->comp_mask & ~IBVC_SRQ_EX_MASK) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	typed = attr->comp_mask & IBV_SRQ_INIT_ATTR_TYPE;
	xrc = typed && attr->srq_type == IBV_SRQT_XRC;
	if (typed && attr->srq_type != IBV_SRQT_BASIC && !xrc) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (xrc && (!(attr->comp_mask & IBV_SRQ_INIT_ATTR_XRCD) ||
		    !(attr->comp_mask & IBV_SRQ_INIT_ATTR_CQ))) {
		errno = EINVAL;
		return NULL;
	}
	a = (struct ibv_srq_init_attr){ .srq_context = attr->srq_context, .attr = attr->attr };
	srq = ibvc_srq_new(attr->pd, &a, xrc ? attr->xrcd : NULL, xrc ? attr->cq : NULL);
	if (srq)
		attr->attr = a.attr;
	return srq;
}

/* An XRC SRQ's number, which initiators name in wr.qp_type.xrc.remote_srqn */
int ibvc_get_srq_num(struct ibv_srq *srq, uint32_t *srq_num)
{
	struct oibv_srq *o;

	if (!srq || !srq_num)
		return EINVAL;
	o = IBVC(srq, srq)->o;
	if (!o->xrcd)
		return EINVAL;
	*srq_num = o->xrc_srq_num;
	return 0;
}

#define IBVC_QP_EX_MASK (IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_XRCD)

struct ibv_qp *ibvc_create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *attr)
{
	struct ibv_qp_init_attr a;
	struct ibv_qp *qp;

	if (!ctx || !attr) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->comp_mask & ~IBVC_QP_EX_MASK) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	a = (struct ibv_qp_init_attr){
		.qp_context = attr->qp_context, .send_cq = attr->send_cq,
		.recv_cq = attr->recv_cq, .srq = attr->srq, .cap = attr->cap,
		.qp_type = attr->qp_type, .sq_sig_all = attr->sq_sig_all,
	};
	qp = ibvc_create_qp(ctx, attr->comp_mask & IBV_QP_INIT_ATTR_PD ? attr->pd : NULL, &a,
			    attr->comp_mask & IBV_QP_INIT_ATTR_XRCD ? attr->xrcd : NULL);
	if (qp)
		attr->cap = a.cap;
	return qp;
}
