// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* liboibv: MRs, QPs, posting. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <oib/uverbs.h>
#include "oibv.h"
#include "oibv_priv.h"

struct oibv_mr *oibv_reg_mr(struct oibv_pd *pd, void *addr, size_t length, int access)
{
	struct oibv_mr *mr = calloc(1, sizeof(*mr));
	struct oib_uverbs_reg_mr c = {
		.user_handle = (uintptr_t)mr, .addr = (uintptr_t)addr, .length = length,
		.pd_handle = pd->handle, .access = access,
	};
	int ret;

	if (!mr)
		return NULL;
	ret = oibv_cmd(pd->context->cmd_fd, OIB_UVERBS_REG_MR, &c, sizeof(c));
	if (ret) {
		free(mr);
		errno = ret;
		return NULL;
	}
	*mr = (struct oibv_mr){
		.context = pd->context, .pd = pd, .addr = addr, .length = length,
		.handle = c.handle, .lkey = c.lkey, .rkey = c.rkey,
	};
	return mr;
}

int oibv_dereg_mr(struct oibv_mr *mr)
{
	struct oib_uverbs_destroy c = { .handle = mr->handle };
	int ret = oibv_cmd(mr->context->cmd_fd, OIB_UVERBS_DEREG_MR, &c, sizeof(c));

	if (!ret)
		free(mr);
	return ret;
}

static uint32_t oibv_qp_ring_flags(const struct oibv_context *ctx,
				   const struct oibv_qp_init_attr *attr)
{
	if (!ctx->rings || attr->qp_type == OIBV_QPT_XRC_RECV)
		return 0;
	if (attr->srq || attr->qp_type == OIBV_QPT_XRC)
		return OIB_UVERBS_CREATE_MAPPED;
	return OIB_UVERBS_CREATE_MAPPED | OIB_UVERBS_CREATE_MAPPED_RQ;
}

static int oibv_qp_rings_map(struct oibv_qp *qp, struct oibv_context *ctx,
			     const struct oib_uverbs_create_qp *c)
{
	int ret = 0;

	if (c->ring_flags & OIB_UVERBS_CREATE_MAPPED)
		ret = oibv_ring_map(ctx, &qp->sq, &c->sq, c->cap.max_send_sge ?: 1);
	if (ret || !(c->ring_flags & OIB_UVERBS_CREATE_MAPPED_RQ))
		return ret;
	ret = oibv_ring_map(ctx, &qp->rq, &c->rq, c->cap.max_recv_sge ?: 1);
	if (ret)
		oibv_ring_unmap(ctx, &qp->sq);
	return ret;
}

/* @pd NULL for an owner's XRC target (OIBV_QPT_XRC_RECV), which names attr->xrcd instead. */
struct oibv_qp *oibv_create_qp(struct oibv_pd *pd, struct oibv_qp_init_attr *attr)
{
	struct oibv_context *ctx = pd ? pd->context : attr->xrcd->context;
	struct oibv_qp *qp = calloc(1, sizeof(*qp));
	struct oib_uverbs_create_qp c = {
		.user_handle = (uintptr_t)qp, .pd_handle = pd ? pd->handle : 0,
		.xrcd_handle = attr->qp_type == OIBV_QPT_XRC_RECV ? attr->xrcd->handle : 0,
		.send_cq_handle = attr->send_cq ? attr->send_cq->handle : 0,
		.recv_cq_handle = attr->recv_cq ? attr->recv_cq->handle : 0,
		.qp_type = attr->qp_type, .sq_sig_all = !!attr->sq_sig_all,
		.port_num = attr->port_num, .srq_handle = attr->srq ? attr->srq->handle : 0,
		.ring_flags = oibv_qp_ring_flags(ctx, attr),
		.cap = {
			.max_send_wr = attr->cap.max_send_wr, .max_recv_wr = attr->cap.max_recv_wr,
			.max_send_sge = attr->cap.max_send_sge,
			.max_recv_sge = attr->cap.max_recv_sge,
			.max_inline_data = attr->cap.max_inline_data,
		},
	};
	int ret;

	if (!qp)
		return NULL;
	ret = oibv_cmd(ctx->cmd_fd, OIB_UVERBS_CREATE_QP, &c, sizeof(c));
	if (ret == EOPNOTSUPP && (c.ring_flags & OIB_UVERBS_CREATE_MAPPED_RQ)) {
		/* a device that cannot pull receives: they go through POST_RECV */
		c.ring_flags &= ~OIB_UVERBS_CREATE_MAPPED_RQ;
		ret = oibv_cmd(ctx->cmd_fd, OIB_UVERBS_CREATE_QP, &c, sizeof(c));
	}
	if (!ret)
		ret = oibv_qp_rings_map(qp, ctx, &c);
	if (ret) {
		if (c.handle)
			oibv_cmd(ctx->cmd_fd, OIB_UVERBS_DESTROY_QP,
				 &(struct oib_uverbs_destroy_reported){ .handle = c.handle },
				 sizeof(struct oib_uverbs_destroy_reported));
		free(qp);
		errno = ret;
		return NULL;
	}
	qp->context = ctx;
	qp->qp_context = attr->qp_context;
	qp->pd = pd;
	qp->send_cq = attr->send_cq;
	qp->recv_cq = attr->recv_cq;
	qp->srq = attr->srq;
	qp->handle = c.handle;
	qp->qp_num = c.qp_num;
	qp->qp_type = attr->qp_type;
	pthread_mutex_init(&qp->mutex, NULL);
	pthread_cond_init(&qp->cond, NULL);
	attr->cap = (struct oibv_qp_cap){
		.max_send_wr = c.cap.max_send_wr, .max_recv_wr = c.cap.max_recv_wr,
		.max_send_sge = c.cap.max_send_sge, .max_recv_sge = c.cap.max_recv_sge,
		.max_inline_data = c.cap.max_inline_data,
	};
	return qp;
}

static struct oib_uverbs_ah_attr oibv_ah_attr(const struct oibv_ah_attr *a)
{
	struct oib_uverbs_ah_attr u = {
		.flow_label = a->grh.flow_label, .dlid = a->dlid, .sgid_index = a->grh.sgid_index,
		.hop_limit = a->grh.hop_limit, .traffic_class = a->grh.traffic_class, .sl = a->sl,
		.is_global = !!a->is_global, .port_num = a->port_num,
	};

	memcpy(u.dgid, a->grh.dgid.raw, sizeof(u.dgid));
	return u;
}

/* MODIFY_QP's attributes from @a and @mask (the handle is the caller's to set). */
void oibv_qp_attr_cmd(struct oib_uverbs_modify_qp *c, const struct oibv_qp_attr *a, int mask)
{
	*c = (struct oib_uverbs_modify_qp){
		.attr_mask = mask, .qp_state = a->qp_state,
		.path_mtu = a->path_mtu, .rq_psn = a->rq_psn, .sq_psn = a->sq_psn,
		.dest_qp_num = a->dest_qp_num, .qp_access_flags = a->qp_access_flags,
		.pkey_index = a->pkey_index, .port_num = a->port_num, .timeout = a->timeout,
		.retry_cnt = a->retry_cnt, .rnr_retry = a->rnr_retry,
		.min_rnr_timer = a->min_rnr_timer, .max_rd_atomic = a->max_rd_atomic,
		.max_dest_rd_atomic = a->max_dest_rd_atomic,
		.qkey = mask & OIBV_QP_QKEY ? a->qkey : 0,
		.ah_attr = oibv_ah_attr(&a->ah_attr),
	};
}

int oibv_modify_qp(struct oibv_qp *qp, struct oibv_qp_attr *a, int mask)
{
	struct oib_uverbs_modify_qp c;

	oibv_qp_attr_cmd(&c, a, mask);
	c.handle = qp->handle;
	return oibv_cmd(qp->context->cmd_fd, OIB_UVERBS_MODIFY_QP, &c, sizeof(c));
}

static void oibv_ah_attr_from(struct oibv_ah_attr *a, const struct oib_uverbs_ah_attr *u)
{
	*a = (struct oibv_ah_attr){
		.grh = { .flow_label = u->flow_label, .sgid_index = u->sgid_index,
			 .hop_limit = u->hop_limit, .traffic_class = u->traffic_class },
		.dlid = u->dlid, .sl = u->sl, .is_global = u->is_global, .port_num = u->port_num,
	};
	memcpy(a->grh.dgid.raw, u->dgid, sizeof(u->dgid));
}

/* Every attribute is answered, whatever @attr_mask asks (libibverbs allows it). */
int oibv_query_qp(struct oibv_qp *qp, struct oibv_qp_attr *a, int attr_mask,
		  struct oibv_qp_init_attr *init)
{
	struct oib_uverbs_query_qp c = { .attr = { .handle = qp->handle, .attr_mask = attr_mask } };
	const struct oib_uverbs_modify_qp *m = &c.attr;
	int ret = oibv_cmd(qp->context->cmd_fd, OIB_UVERBS_QUERY_QP, &c, sizeof(c));

	if (ret)
		return ret;
	*a = (struct oibv_qp_attr){
		.qp_state = m->qp_state, .path_mtu = m->path_mtu, .rq_psn = m->rq_psn,
		.sq_psn = m->sq_psn, .dest_qp_num = m->dest_qp_num, .qkey = m->qkey,
		.qp_access_flags = m->qp_access_flags, .pkey_index = m->pkey_index,
		.max_rd_atomic = m->max_rd_atomic, .max_dest_rd_atomic = m->max_dest_rd_atomic,
		.min_rnr_timer = m->min_rnr_timer, .port_num = m->port_num, .timeout = m->timeout,
		.retry_cnt = m->retry_cnt, .rnr_retry = m->rnr_retry,
	};
	oibv_ah_attr_from(&a->ah_attr, &m->ah_attr);
	*init = (struct oibv_qp_init_attr){
		.qp_context = qp->qp_context, .send_cq = qp->send_cq, .recv_cq = qp->recv_cq,
		.srq = qp->srq, .qp_type = c.qp_type, .sq_sig_all = c.sq_sig_all,
		.cap = {
			.max_send_wr = c.cap.max_send_wr, .max_recv_wr = c.cap.max_recv_wr,
			.max_send_sge = c.cap.max_send_sge, .max_recv_sge = c.cap.max_recv_sge,
			.max_inline_data = c.cap.max_inline_data,
		},
	};
	return 0;
}

struct oibv_ah *oibv_create_ah(struct oibv_pd *pd, struct oibv_ah_attr *attr)
{
	struct oibv_ah *ah = calloc(1, sizeof(*ah));
	struct oib_uverbs_create_ah c = {
		.user_handle = (uintptr_t)ah, .pd_handle = pd->handle, .attr = oibv_ah_attr(attr),
	};
	int ret;

	if (!ah)
		return NULL;
	ret = oibv_cmd(pd->context->cmd_fd, OIB_UVERBS_CREATE_AH, &c, sizeof(c));
	if (ret) {
		free(ah);
		errno = ret;
		return NULL;
	}
	*ah = (struct oibv_ah){ .context = pd->context, .pd = pd, .handle = c.handle };
	return ah;
}

int oibv_destroy_ah(struct oibv_ah *ah)
{
	struct oib_uverbs_destroy c = { .handle = ah->handle };
	int ret = oibv_cmd(ah->context->cmd_fd, OIB_UVERBS_DESTROY_AH, &c, sizeof(c));

	if (!ret)
		free(ah);
	return ret;
}

int oibv_destroy_qp(struct oibv_qp *qp)
{
	struct oib_uverbs_destroy_reported c = { .handle = qp->handle };
	int ret = oibv_cmd(qp->context->cmd_fd, OIB_UVERBS_DESTROY_QP, &c, sizeof(c));

	if (ret)
		return ret;
	oibv_ring_unmap(qp->context, &qp->sq);
	oibv_ring_unmap(qp->context, &qp->rq);
	oibv_events_wait_done(&qp->mutex, &qp->cond, &qp->events_completed,
			      c.async_events_reported);
	free(qp);
	return 0;
}

/* SGEs pass as they are: struct oibv_sge has the layout of struct oib_uverbs_sge. */
_Static_assert(sizeof(struct oibv_sge) == sizeof(struct oib_uverbs_sge), "sge layout");

/* @w as the kernel takes it: only the fields its opcode and the QP's type use. */
void oibv_send_wr(const struct oibv_qp *qp, const struct oibv_send_wr *w,
		  struct oib_uverbs_send_wr *u)
{
	*u = (struct oib_uverbs_send_wr){
		.wr_id = w->wr_id, .sg_list = (uintptr_t)w->sg_list, .num_sge = w->num_sge,
		.opcode = w->opcode, .send_flags = w->send_flags,
	};
	if (w->opcode == OIBV_WR_SEND_WITH_IMM || w->opcode == OIBV_WR_RDMA_WRITE_WITH_IMM)
		u->imm_data = w->imm_data;
	switch (w->opcode) {
	case OIBV_WR_ATOMIC_CMP_AND_SWP:
		u->swap = w->wr.atomic.swap;
		__attribute__((fallthrough));
	case OIBV_WR_ATOMIC_FETCH_AND_ADD:
		u->remote_addr = w->wr.atomic.remote_addr;
		u->compare_add = w->wr.atomic.compare_add;
		u->rkey = w->wr.atomic.rkey;
		break;
	case OIBV_WR_RDMA_WRITE:
	case OIBV_WR_RDMA_WRITE_WITH_IMM:
	case OIBV_WR_RDMA_READ:
		u->remote_addr = w->wr.rdma.remote_addr;
		u->rkey = w->wr.rdma.rkey;
		break;
	default:
		break;
	}
	if (qp->qp_type == OIBV_QPT_UD || qp->qp_type == OIBV_QPT_GSI ||
	    qp->qp_type == OIBV_QPT_SMI) {
		u->ah_handle = w->wr.ud.ah ? w->wr.ud.ah->handle : 0;
		u->remote_qpn = w->wr.ud.remote_qpn;
		u->remote_qkey = w->wr.ud.remote_qkey;
	}
	if (qp->qp_type == OIBV_QPT_XRC)
		u->xrc_remote_srq_num = w->xrc_remote_srq_num;
}

int oibv_post_send(struct oibv_qp *qp, struct oibv_send_wr *wr, struct oibv_send_wr **bad_wr)
{
	struct oib_uverbs_send_wr u[OIB_UVERBS_MAX_WR];
	struct oibv_send_wr *w = wr, *first = wr;
	struct oib_uverbs_post c = { .handle = qp->handle, .wrs = (uintptr_t)u };
	int ret = 0;
	uint32_t i;

	if (qp->sq.mem)
		return oibv_post_send_ring(qp, wr, bad_wr);
	while (w && !ret) {
		first = w;
		for (i = 0; w && i < OIB_UVERBS_MAX_WR; i++, w = w->next)
			oibv_send_wr(qp, w, &u[i]);
		c.count = i;
		c.bad_wr = 0;
		ret = oibv_cmd(qp->context->cmd_fd, OIB_UVERBS_POST_SEND, &c, sizeof(c));
	}
	if (ret && bad_wr) {
		for (i = 0; i < c.bad_wr && first->next; i++)
			first = first->next;
		*bad_wr = first;
	}
	return ret;
}

/* POST_RECV or POST_SRQ_RECV (@nr) on the QP or SRQ @handle. */
static int oibv_post_recvs(int fd, unsigned int nr, uint32_t handle, struct oibv_recv_wr *wr,
			   struct oibv_recv_wr **bad_wr)
{
	struct oib_uverbs_recv_wr u[OIB_UVERBS_MAX_WR];
	struct oibv_recv_wr *w = wr, *first = wr;
	struct oib_uverbs_post c = { .handle = handle, .wrs = (uintptr_t)u };
	int ret = 0;
	uint32_t i;

	while (w && !ret) {
		first = w;
		for (i = 0; w && i < OIB_UVERBS_MAX_WR; i++, w = w->next)
			u[i] = (struct oib_uverbs_recv_wr){
				.wr_id = w->wr_id, .sg_list = (uintptr_t)w->sg_list,
				.num_sge = w->num_sge,
			};
		c.count = i;
		c.bad_wr = 0;
		ret = oibv_cmd(fd, nr, &c, sizeof(c));
	}
	if (ret && bad_wr) {
		for (i = 0; i < c.bad_wr && first->next; i++)
			first = first->next;
		*bad_wr = first;
	}
	return ret;
}

/*
 * Into the receive ring; once the kernel flushed it (the QP is in ERR) by POST_RECV, which
 * flushes at once, as a libibverbs QP in ERR does.  A flush that came while the ring was written
 * missed those entries: another move to ERR (where the QP is) flushes them.
 */
int oibv_post_recv(struct oibv_qp *qp, struct oibv_recv_wr *wr, struct oibv_recv_wr **bad_wr)
{
	struct oibv_qp_attr err = { .qp_state = OIBV_QPS_ERR };
	int ret;

	if (!qp->rq.mem || oibv_ring_flushing(&qp->rq))
		return oibv_post_recvs(qp->context->cmd_fd, OIB_UVERBS_POST_RECV, qp->handle, wr,
				       bad_wr);
	ret = oibv_post_recv_ring(&qp->rq, wr, bad_wr);
	if (oibv_ring_flushing(&qp->rq))
		oibv_modify_qp(qp, &err, OIBV_QP_STATE);
	return ret;
}

int oibv_post_srq_recv(struct oibv_srq *srq, struct oibv_recv_wr *wr,
		       struct oibv_recv_wr **bad_wr)
{
	if (srq->ring.mem)
		return oibv_post_recv_ring(&srq->ring, wr, bad_wr);
	return oibv_post_recvs(srq->context->cmd_fd, OIB_UVERBS_POST_SRQ_RECV, srq->handle, wr,
			       bad_wr);
}
