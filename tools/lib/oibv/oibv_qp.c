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

struct oibv_qp *oibv_create_qp(struct oibv_pd *pd, struct oibv_qp_init_attr *attr)
{
	struct oibv_qp *qp = calloc(1, sizeof(*qp));
	struct oib_uverbs_create_qp c = {
		.user_handle = (uintptr_t)qp, .pd_handle = pd->handle,
		.send_cq_handle = attr->send_cq->handle, .recv_cq_handle = attr->recv_cq->handle,
		.qp_type = attr->qp_type, .sq_sig_all = !!attr->sq_sig_all,
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
	ret = oibv_cmd(pd->context->cmd_fd, OIB_UVERBS_CREATE_QP, &c, sizeof(c));
	if (ret) {
		free(qp);
		errno = ret;
		return NULL;
	}
	qp->context = pd->context;
	qp->qp_context = attr->qp_context;
	qp->pd = pd;
	qp->send_cq = attr->send_cq;
	qp->recv_cq = attr->recv_cq;
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

int oibv_modify_qp(struct oibv_qp *qp, struct oibv_qp_attr *a, int mask)
{
	struct oib_uverbs_modify_qp c = {
		.handle = qp->handle, .attr_mask = mask, .qp_state = a->qp_state,
		.path_mtu = a->path_mtu, .rq_psn = a->rq_psn, .sq_psn = a->sq_psn,
		.dest_qp_num = a->dest_qp_num, .qp_access_flags = a->qp_access_flags,
		.pkey_index = a->pkey_index, .port_num = a->port_num, .timeout = a->timeout,
		.retry_cnt = a->retry_cnt, .rnr_retry = a->rnr_retry,
		.min_rnr_timer = a->min_rnr_timer, .max_rd_atomic = a->max_rd_atomic,
		.max_dest_rd_atomic = a->max_dest_rd_atomic,
		.ah_attr = {
			.flow_label = a->ah_attr.grh.flow_label, .dlid = a->ah_attr.dlid,
			.sgid_index = a->ah_attr.grh.sgid_index,
			.hop_limit = a->ah_attr.grh.hop_limit,
			.traffic_class = a->ah_attr.grh.traffic_class, .sl = a->ah_attr.sl,
			.is_global = !!a->ah_attr.is_global, .port_num = a->ah_attr.port_num,
		},
	};

	memcpy(c.ah_attr.dgid, a->ah_attr.grh.dgid.raw, sizeof(c.ah_attr.dgid));
	return oibv_cmd(qp->context->cmd_fd, OIB_UVERBS_MODIFY_QP, &c, sizeof(c));
}

int oibv_destroy_qp(struct oibv_qp *qp)
{
	struct oib_uverbs_destroy_reported c = { .handle = qp->handle };
	int ret = oibv_cmd(qp->context->cmd_fd, OIB_UVERBS_DESTROY_QP, &c, sizeof(c));

	if (ret)
		return ret;
	pthread_mutex_lock(&qp->mutex);
	while (qp->events_completed != c.async_events_reported)
		pthread_cond_wait(&qp->cond, &qp->mutex);
	pthread_mutex_unlock(&qp->mutex);
	pthread_mutex_destroy(&qp->mutex);
	pthread_cond_destroy(&qp->cond);
	free(qp);
	return 0;
}

/* SGEs pass as they are: struct oibv_sge has the layout of struct oib_uverbs_sge. */
_Static_assert(sizeof(struct oibv_sge) == sizeof(struct oib_uverbs_sge), "sge layout");

int oibv_post_send(struct oibv_qp *qp, struct oibv_send_wr *wr, struct oibv_send_wr **bad_wr)
{
	struct oib_uverbs_send_wr u[OIB_UVERBS_MAX_WR];
	struct oibv_send_wr *w = wr, *first = wr;
	struct oib_uverbs_post c = { .handle = qp->handle, .wrs = (uintptr_t)u };
	int ret = 0;
	uint32_t i;

	while (w && !ret) {
		first = w;
		for (i = 0; w && i < OIB_UVERBS_MAX_WR; i++, w = w->next)
			u[i] = (struct oib_uverbs_send_wr){
				.wr_id = w->wr_id, .sg_list = (uintptr_t)w->sg_list,
				.num_sge = w->num_sge, .opcode = w->opcode,
				.send_flags = w->send_flags, .imm_data = w->imm_data,
			};
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

int oibv_post_recv(struct oibv_qp *qp, struct oibv_recv_wr *wr, struct oibv_recv_wr **bad_wr)
{
	struct oib_uverbs_recv_wr u[OIB_UVERBS_MAX_WR];
	struct oibv_recv_wr *w = wr, *first = wr;
	struct oib_uverbs_post c = { .handle = qp->handle, .wrs = (uintptr_t)u };
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
		ret = oibv_cmd(qp->context->cmd_fd, OIB_UVERBS_POST_RECV, &c, sizeof(c));
	}
	if (ret && bad_wr) {
		for (i = 0; i < c.bad_wr && first->next; i++)
			first = first->next;
		*bad_wr = first;
	}
	return ret;
}
