// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Connections: the QP on an id (made through the drop-in libibverbs, then given to the kernel's
 * CM by its context's file and handle, which moves it from then on), connect, accept, reject,
 * disconnect.
 */
#include <errno.h>
#include <string.h>
#include "rdmacm.h"

static int cma_create_cqs(struct rdma_cm_id *id, struct ibv_qp_init_attr *attr)
{
	if (!attr->recv_cq) {
		id->recv_cq_channel = ibv_create_comp_channel(id->verbs);
		if (!id->recv_cq_channel)
			return -1;
		id->recv_cq = ibv_create_cq(id->verbs, attr->cap.max_recv_wr ? : 1, id,
					    id->recv_cq_channel, 0);
		if (!id->recv_cq)
			return -1;
		attr->recv_cq = id->recv_cq;
	}
	if (!attr->send_cq) {
		id->send_cq_channel = ibv_create_comp_channel(id->verbs);
		if (!id->send_cq_channel)
			return -1;
		id->send_cq = ibv_create_cq(id->verbs, attr->cap.max_send_wr ? : 1, id,
					    id->send_cq_channel, 0);
		if (!id->send_cq)
			return -1;
		attr->send_cq = id->send_cq;
	}
	return 0;
}

static void cma_destroy_cqs(struct rdma_cm_id *id)
{
	if (id->recv_cq)
		ibv_destroy_cq(id->recv_cq);
	if (id->recv_cq_channel)
		ibv_destroy_comp_channel(id->recv_cq_channel);
	if (id->send_cq)
		ibv_destroy_cq(id->send_cq);
	if (id->send_cq_channel)
		ibv_destroy_comp_channel(id->send_cq_channel);
	id->recv_cq = NULL;
	id->send_cq = NULL;
	id->recv_cq_channel = NULL;
	id->send_cq_channel = NULL;
}

/*
 * The QP, made on @pd (or the device's default PD) with @attr; CQs with completion channels
 * where @attr names none.  Inline data is not asked for: oib_uverbs takes none, and programs
 * that ask the QP (rdma_server, rdma_client) then send from their registered memory.
 */
RDMACM_EXPORT int rdma_create_qp(struct rdma_cm_id *cm_id, struct ibv_pd *pd,
				 struct ibv_qp_init_attr *qp_init_attr)
{
	struct cma_id *id = to_cma_id(cm_id);
	struct oib_ucma_attach_qp cmd = {};
	struct ibv_qp_init_attr a;
	struct ibv_qp *qp;

	if (!id || !qp_init_attr || !cm_id->verbs || cm_id->qp)
		return cma_err(EINVAL);
	if (!pd)
		pd = cma_device_pd(cm_id->verbs);
	if (!pd || pd->context != cm_id->verbs)
		return cma_err(EINVAL);
	a = *qp_init_attr;
	a.cap.max_inline_data = 0;
	if (cma_create_cqs(cm_id, &a))
		goto err;
	qp = ibv_create_qp(pd, &a);
	if (!qp)
		goto err;
	cmd.uverbs_fd = cm_id->verbs->cmd_fd;
	cmd.qp_handle = qp->handle;
	if (cma_ioctl(id, OIB_UCMA_ATTACH_QP, &cmd)) {
		int e = errno;

		ibv_destroy_qp(qp);
		errno = e;
		goto err;
	}
	cm_id->qp = qp;
	cm_id->pd = pd;
	qp_init_attr->cap = a.cap;
	qp_init_attr->send_cq = a.send_cq;
	qp_init_attr->recv_cq = a.recv_cq;
	return 0;
err:
	{
		int e = errno;

		cma_destroy_cqs(cm_id);
		return cma_err(e);
	}
}

RDMACM_EXPORT int rdma_create_qp_ex(struct rdma_cm_id *id, struct ibv_qp_init_attr_ex *ex)
{
	struct ibv_qp_init_attr a;
	int ret;

	if (!ex || ex->comp_mask & ~IBV_QP_INIT_ATTR_PD)
		return cma_err(ex ? EOPNOTSUPP : EINVAL);
	a = (struct ibv_qp_init_attr) {
		.qp_context = ex->qp_context, .send_cq = ex->send_cq, .recv_cq = ex->recv_cq,
		.srq = ex->srq, .cap = ex->cap, .qp_type = ex->qp_type,
		.sq_sig_all = ex->sq_sig_all,
	};
	ret = rdma_create_qp(id, ex->comp_mask & IBV_QP_INIT_ATTR_PD ? ex->pd : NULL, &a);
	if (!ret)
		ex->cap = a.cap;
	return ret;
}

/* The CM lets go of the QP (to ERR), then it is destroyed, and the CQs made for it. */
RDMACM_EXPORT void rdma_destroy_qp(struct rdma_cm_id *cm_id)
{
	struct oib_ucma_id cmd = {};

	if (!cm_id || !cm_id->qp)
		return;
	cma_ioctl(to_cma_id(cm_id), OIB_UCMA_DETACH_QP, &cmd);
	ibv_destroy_qp(cm_id->qp);
	cm_id->qp = NULL;
	cma_destroy_cqs(cm_id);
}

static int cma_conn_param(struct oib_ucma_conn_param *u, const struct rdma_conn_param *p)
{
	memset(u, 0, sizeof(*u));
	if (!p) {
		u->responder_resources = RDMA_MAX_RESP_RES;
		u->initiator_depth = RDMA_MAX_INIT_DEPTH;
		u->retry_count = 7;
		u->rnr_retry_count = 7;
		return 0;
	}
	if (p->private_data_len && !p->private_data)
		return cma_err(EINVAL);
	memcpy(u->private_data, p->private_data, p->private_data_len);
	u->private_data_len = p->private_data_len;
	u->responder_resources = p->responder_resources;
	u->initiator_depth = p->initiator_depth;
	u->retry_count = p->retry_count;
	u->rnr_retry_count = p->rnr_retry_count;
	u->srq = !!p->srq;
	return 0;
}

RDMACM_EXPORT int rdma_connect(struct rdma_cm_id *cm_id, struct rdma_conn_param *param)
{
	struct cma_id *id = to_cma_id(cm_id);
	struct oib_ucma_connect cmd = {};

	if (!id)
		return cma_err(EINVAL);
	if (cma_conn_param(&cmd.param, param) || cma_ioctl(id, OIB_UCMA_CONNECT, &cmd))
		return -1;
	return id->sync ? cma_wait(id, RDMA_CM_EVENT_ESTABLISHED) : 0;
}

RDMACM_EXPORT int rdma_accept(struct rdma_cm_id *cm_id, struct rdma_conn_param *param)
{
	struct cma_id *id = to_cma_id(cm_id);
	struct oib_ucma_accept cmd = { .uid = (uintptr_t)id };

	if (!id)
		return cma_err(EINVAL);
	if (cma_conn_param(&cmd.param, param))
		return -1;
	if (!param) {	/* what the request offered */
		cmd.param.responder_resources = id->req_initiator_depth;
		cmd.param.initiator_depth = id->req_responder_resources;
	}
	if (cma_ioctl(id, OIB_UCMA_ACCEPT, &cmd))
		return -1;
	return id->sync ? cma_wait(id, RDMA_CM_EVENT_ESTABLISHED) : 0;
}

RDMACM_EXPORT int rdma_reject(struct rdma_cm_id *cm_id, const void *private_data,
			      uint8_t private_data_len)
{
	struct oib_ucma_reject cmd = { .private_data_len = private_data_len };

	if (!cm_id || (private_data_len && !private_data))
		return cma_err(EINVAL);
	memcpy(cmd.private_data, private_data, private_data_len);
	return cma_ioctl(to_cma_id(cm_id), OIB_UCMA_REJECT, &cmd);
}

RDMACM_EXPORT int rdma_reject_ece(struct rdma_cm_id *id, const void *private_data,
				  uint8_t private_data_len)
{
	return rdma_reject(id, private_data, private_data_len);
}

RDMACM_EXPORT int rdma_disconnect(struct rdma_cm_id *cm_id)
{
	struct oib_ucma_id cmd = {};

	if (!cm_id)
		return cma_err(EINVAL);
	return cma_ioctl(to_cma_id(cm_id), OIB_UCMA_DISCONNECT, &cmd);
}

RDMACM_EXPORT int rdma_notify(struct rdma_cm_id *cm_id, enum ibv_event_type event)
{
	struct oib_ucma_notify cmd = { .event = event };

	if (!cm_id)
		return cma_err(EINVAL);
	return cma_ioctl(to_cma_id(cm_id), OIB_UCMA_NOTIFY, &cmd);
}

/*
 * Not offered: moving a QP of the program's own through the connection (the kernel's CM moves
 * the QP given by rdma_create_qp(); a QP made otherwise cannot be connected).
 */
RDMACM_EXPORT int rdma_init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr,
				    int *qp_attr_mask)
{
	return cma_err(EOPNOTSUPP);
}

RDMACM_EXPORT int rdma_establish(struct rdma_cm_id *id)
{
	return cma_err(EOPNOTSUPP);
}
