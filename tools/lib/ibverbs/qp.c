// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The drop-in libibverbs: queue pairs and shared receive queues. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "ibvc.h"

IBVC_ASSERT_SAME(OIBV_QPS_RESET, IBV_QPS_RESET);
IBVC_ASSERT_SAME(OIBV_QPS_INIT, IBV_QPS_INIT);
IBVC_ASSERT_SAME(OIBV_QPS_RTR, IBV_QPS_RTR);
IBVC_ASSERT_SAME(OIBV_QPS_RTS, IBV_QPS_RTS);
IBVC_ASSERT_SAME(OIBV_QPS_SQD, IBV_QPS_SQD);
IBVC_ASSERT_SAME(OIBV_QPS_SQE, IBV_QPS_SQE);
IBVC_ASSERT_SAME(OIBV_QPS_ERR, IBV_QPS_ERR);
IBVC_ASSERT_SAME(OIBV_MTU_256, IBV_MTU_256);
IBVC_ASSERT_SAME(OIBV_MTU_4096, IBV_MTU_4096);

/* The attribute mask bits oib takes; liboibv's bits are libibverbs's (asserted below). */
#define IBVC_QP_MASK (IBV_QP_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX | IBV_QP_PORT | \
		      IBV_QP_QKEY | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_TIMEOUT | \
		      IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_RQ_PSN | \
		      IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER | IBV_QP_SQ_PSN | \
		      IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_DEST_QPN)
IBVC_ASSERT_SAME(OIBV_QP_STATE, IBV_QP_STATE);
IBVC_ASSERT_SAME(OIBV_QP_ACCESS_FLAGS, IBV_QP_ACCESS_FLAGS);
IBVC_ASSERT_SAME(OIBV_QP_PKEY_INDEX, IBV_QP_PKEY_INDEX);
IBVC_ASSERT_SAME(OIBV_QP_PORT, IBV_QP_PORT);
IBVC_ASSERT_SAME(OIBV_QP_QKEY, IBV_QP_QKEY);
IBVC_ASSERT_SAME(OIBV_QP_AV, IBV_QP_AV);
IBVC_ASSERT_SAME(OIBV_QP_PATH_MTU, IBV_QP_PATH_MTU);
IBVC_ASSERT_SAME(OIBV_QP_TIMEOUT, IBV_QP_TIMEOUT);
IBVC_ASSERT_SAME(OIBV_QP_RETRY_CNT, IBV_QP_RETRY_CNT);
IBVC_ASSERT_SAME(OIBV_QP_RNR_RETRY, IBV_QP_RNR_RETRY);
IBVC_ASSERT_SAME(OIBV_QP_RQ_PSN, IBV_QP_RQ_PSN);
IBVC_ASSERT_SAME(OIBV_QP_MAX_QP_RD_ATOMIC, IBV_QP_MAX_QP_RD_ATOMIC);
IBVC_ASSERT_SAME(OIBV_QP_MIN_RNR_TIMER, IBV_QP_MIN_RNR_TIMER);
IBVC_ASSERT_SAME(OIBV_QP_SQ_PSN, IBV_QP_SQ_PSN);
IBVC_ASSERT_SAME(OIBV_QP_MAX_DEST_RD_ATOMIC, IBV_QP_MAX_DEST_RD_ATOMIC);
IBVC_ASSERT_SAME(OIBV_QP_DEST_QPN, IBV_QP_DEST_QPN);
IBVC_ASSERT_SAME(OIBV_ACCESS_LOCAL_WRITE, IBV_ACCESS_LOCAL_WRITE);
IBVC_ASSERT_SAME(OIBV_ACCESS_REMOTE_WRITE, IBV_ACCESS_REMOTE_WRITE);
IBVC_ASSERT_SAME(OIBV_ACCESS_REMOTE_READ, IBV_ACCESS_REMOTE_READ);
IBVC_ASSERT_SAME(OIBV_ACCESS_REMOTE_ATOMIC, IBV_ACCESS_REMOTE_ATOMIC);

/* RC, UC, UD and XRC's two; the other types libibverbs knows oib lacks (EOPNOTSUPP) */
static int ibvc_qp_type(enum ibv_qp_type t, enum oibv_qp_type *o)
{
	switch (t) {
	case IBV_QPT_RC:
		*o = OIBV_QPT_RC;
		return 0;
	case IBV_QPT_UC:
		*o = OIBV_QPT_UC;
		return 0;
	case IBV_QPT_UD:
		*o = OIBV_QPT_UD;
		return 0;
	case IBV_QPT_XRC_SEND:
		*o = OIBV_QPT_XRC;
		return 0;
	case IBV_QPT_XRC_RECV:
		*o = OIBV_QPT_XRC_RECV;
		return 0;
	case IBV_QPT_RAW_PACKET:
	case IBV_QPT_DRIVER:
		return EOPNOTSUPP;
	default:
		return EINVAL;
	}
}

static bool ibvc_cq_of(const struct ibv_cq *cq, const struct ibv_context *ctx)
{
	return cq && cq->context == ctx;
}

/*
 * The objects @a names belong to @ctx, as its type wants them: an XRC target names its domain
 * only (@xrcd), an XRC initiator a send CQ only; the others a send CQ and a receive CQ, an SRQ
 * or not.  oib_uverbs takes no inline data (post.c): a QP asking for it is refused.
 */
static bool ibvc_qp_init_ok(struct ibv_context *ctx, struct ibv_pd *pd,
			    const struct ibv_qp_init_attr *a, struct ibv_xrcd *xrcd)
{
	if (a->cap.max_inline_data || (pd && pd->context != ctx))
		return false;
	switch (a->qp_type) {
	case IBV_QPT_XRC_RECV:
		return xrcd && xrcd->context == ctx && !a->send_cq && !a->recv_cq && !a->srq;
	case IBV_QPT_XRC_SEND:
		return pd && ibvc_cq_of(a->send_cq, ctx) && !a->recv_cq && !a->srq;
	default:
		return pd && ibvc_cq_of(a->send_cq, ctx) && ibvc_cq_of(a->recv_cq, ctx) &&
		       (!a->srq || a->srq->context == ctx);
	}
}

_Static_assert(sizeof(struct oibv_qp_cap) == sizeof(struct ibv_qp_cap), "qp cap");

/* A QP on @pd, or (an XRC target) of @xrcd; attr->cap gets what was granted. */
struct ibv_qp *ibvc_create_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			      struct ibv_qp_init_attr *attr, struct ibv_xrcd *xrcd)
{
	struct oibv_qp_init_attr oa = { 0 };
	struct ibvc_qp *q;
	int ret;

	if (!ctx || !attr || !ibvc_qp_init_ok(ctx, pd, attr, xrcd)) {
		errno = EINVAL;
		return NULL;
	}
	ret = ibvc_qp_type(attr->qp_type, &oa.qp_type);
	if (ret) {
		errno = ret;
		return NULL;
	}
	q = calloc(1, sizeof(*q));
	if (!q)
		return NULL;
	oa.qp_context = q;
	oa.send_cq = attr->send_cq ? IBVC(cq, attr->send_cq)->o : NULL;
	oa.recv_cq = attr->recv_cq ? IBVC(cq, attr->recv_cq)->o : NULL;
	oa.srq = attr->srq ? IBVC(srq, attr->srq)->o : NULL;
	oa.xrcd = xrcd ? IBVC(xrcd, xrcd)->o : NULL;
	oa.sq_sig_all = attr->sq_sig_all;
	memcpy(&oa.cap, &attr->cap, sizeof(oa.cap));
	q->o = oibv_create_qp(pd ? IBVC(pd, pd)->o : NULL, &oa);
	if (!q->o) {
		free(q);
		return NULL;
	}
	memcpy(&attr->cap, &oa.cap, sizeof(attr->cap));
	attr->cap.max_inline_data = 0;
	q->qp = (struct ibv_qp){
		.context = ctx, .qp_context = attr->qp_context, .pd = pd,
		.send_cq = attr->send_cq, .recv_cq = attr->recv_cq, .srq = attr->srq,
		.handle = q->o->handle, .qp_num = q->o->qp_num, .state = IBV_QPS_RESET,
		.qp_type = attr->qp_type,
	};
	pthread_mutex_init(&q->qp.mutex, NULL);
	pthread_cond_init(&q->qp.cond, NULL);
	return &q->qp;
}

IBVC_EXPORT struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	if (!pd) {
		errno = EINVAL;
		return NULL;
	}
	return ibvc_create_qp(pd->context, pd, attr, NULL);
}

IBVC_EXPORT int ibv_destroy_qp(struct ibv_qp *qp)
{
	int ret;

	if (!qp)
		return EINVAL;
	ret = oibv_destroy_qp(IBVC(qp, qp)->o);
	if (ret)
		return ret;
	pthread_mutex_destroy(&qp->mutex);
	pthread_cond_destroy(&qp->cond);
	free(qp);
	return 0;
}

/*
 * The local ACK timeout, raised to OIBV_MIN_ACK_TIMEOUT (the same exponent, 0-31) when the
 * environment sets it: for a loaded emulated machine, where a vCPU stalls for tenths of a second
 * and a program's fixed timeout (ibv_rc_pingpong's 14, 67 ms) runs out of retries.  Opt-in, and
 * only ever longer (the transport may wait longer than asked); 0, no timeout, stays 0.
 */
static uint8_t ibvc_ack_timeout(uint8_t t)
{
	const char *env = getenv("OIBV_MIN_ACK_TIMEOUT");
	long min = env ? strtol(env, NULL, 10) : 0;

	return t && min > t && min < 32 ? min : t;
}

/*
 * Attributes an XRC QP does not have are dropped from the mask, as the kernel's uverbs drops them
 * for libibverbs (programs such as ibv_xsrq_pingpong pass an RC QP's masks): an initiator has no
 * responder resources or RNR timer, a target no requester resources or retry counts.
 */
static int ibvc_qp_mask(enum ibv_qp_type t, int mask)
{
	if (t == IBV_QPT_XRC_SEND)
		return mask & ~(IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (t == IBV_QPT_XRC_RECV)
		return mask & ~(IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY);
	return mask;
}

/* Attributes oib lacks (an alternate path, a rate limit, ...) are EINVAL, as a device says. */
IBVC_EXPORT int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	struct oibv_qp_attr o;
	int ret;

	if (!qp || !attr || (attr_mask & ~IBVC_QP_MASK) ||
	    ((attr_mask & IBV_QP_AV) && !ibvc_ah_attr_ok(&attr->ah_attr)))
		return EINVAL;
	o = (struct oibv_qp_attr){
		.qp_state = (enum oibv_qp_state)attr->qp_state,
		.path_mtu = (enum oibv_mtu)attr->path_mtu, .rq_psn = attr->rq_psn,
		.sq_psn = attr->sq_psn, .dest_qp_num = attr->dest_qp_num, .qkey = attr->qkey,
		.qp_access_flags = attr->qp_access_flags, .pkey_index = attr->pkey_index,
		.max_rd_atomic = attr->max_rd_atomic,
		.max_dest_rd_atomic = attr->max_dest_rd_atomic,
		.min_rnr_timer = attr->min_rnr_timer, .port_num = attr->port_num,
		.timeout = attr->timeout, .retry_cnt = attr->retry_cnt,
		.rnr_retry = attr->rnr_retry,
	};
	ibvc_ah_attr_to(&o.ah_attr, &attr->ah_attr);
	if (attr_mask & IBV_QP_TIMEOUT)
		o.timeout = ibvc_ack_timeout(attr->timeout);
	ret = oibv_modify_qp(IBVC(qp, qp)->o, &o, ibvc_qp_mask(qp->qp_type, attr_mask));
	if (!ret && (attr_mask & IBV_QP_STATE))
		qp->state = attr->qp_state;
	return ret;
}

static void ibvc_ah_attr_from(struct ibv_ah_attr *a, const struct oibv_ah_attr *o)
{
	memset(a, 0, sizeof(*a));
	memcpy(a->grh.dgid.raw, o->grh.dgid.raw, sizeof(a->grh.dgid.raw));
	a->grh.flow_label = o->grh.flow_label;
	a->grh.sgid_index = o->grh.sgid_index;
	a->grh.hop_limit = o->grh.hop_limit;
	a->grh.traffic_class = o->grh.traffic_class;
	a->dlid = o->dlid;
	a->sl = o->sl;
	a->is_global = o->is_global;
	a->port_num = o->port_num;
}

/* Every attribute is answered whatever the mask asks, as libibverbs allows. */
IBVC_EXPORT int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
			     struct ibv_qp_init_attr *init_attr)
{
	struct oibv_qp_init_attr oi;
	struct oibv_qp_attr o;
	int ret;

	if (!qp || !attr || !init_attr)
		return EINVAL;
	ret = oibv_query_qp(IBVC(qp, qp)->o, &o, attr_mask & IBVC_QP_MASK, &oi);
	if (ret)
		return ret;
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = (enum ibv_qp_state)o.qp_state;
	attr->cur_qp_state = attr->qp_state;
	attr->path_mtu = (enum ibv_mtu)o.path_mtu;
	attr->path_mig_state = IBV_MIG_MIGRATED;
	attr->qkey = o.qkey;
	attr->rq_psn = o.rq_psn;
	attr->sq_psn = o.sq_psn;
	attr->dest_qp_num = o.dest_qp_num;
	attr->qp_access_flags = o.qp_access_flags;
	memcpy(&attr->cap, &oi.cap, sizeof(attr->cap));
	attr->cap.max_inline_data = 0;
	ibvc_ah_attr_from(&attr->ah_attr, &o.ah_attr);
	attr->pkey_index = o.pkey_index;
	attr->max_rd_atomic = o.max_rd_atomic;
	attr->max_dest_rd_atomic = o.max_dest_rd_atomic;
	attr->min_rnr_timer = o.min_rnr_timer;
	attr->port_num = o.port_num;
	attr->timeout = o.timeout;
	attr->retry_cnt = o.retry_cnt;
	attr->rnr_retry = o.rnr_retry;
	*init_attr = (struct ibv_qp_init_attr){
		.qp_context = qp->qp_context, .send_cq = qp->send_cq, .recv_cq = qp->recv_cq,
		.srq = qp->srq, .qp_type = qp->qp_type, .sq_sig_all = oi.sq_sig_all,
	};
	init_attr->cap = attr->cap;
	qp->state = attr->qp_state;
	return 0;
}

/* No extended QPs (ibv_create_qp_ex is EOPNOTSUPP): no QP has the ibv_wr_* interface. */
IBVC_EXPORT struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)
{
	(void)qp;
	return NULL;
}

IBVC_EXPORT int ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op, uint32_t flags)
{
	(void)qp; (void)op; (void)flags;
	return 0;
}

IBVC_EXPORT int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	(void)gid; (void)lid;
	return qp ? EOPNOTSUPP : EINVAL;
}

IBVC_EXPORT int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	(void)gid; (void)lid;
	return qp ? EOPNOTSUPP : EINVAL;
}
