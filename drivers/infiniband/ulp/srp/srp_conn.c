// SPDX-License-Identifier: GPL-2.0-only
/*
 * The initiator's connection: resolve the target's address and route through oib_cma, make the
 * PD, the CQs, the QP and a fast-registration MR per command on the device that reaches it,
 * connect with the login in the REQ's private data, take the LOGIN_RSP from the REP (credits,
 * IU sizes) and post the receives.  The state table (srp_fsm.c) decides what each event does.
 */
#include <linux/slab.h>
#include <net/net_namespace.h>
#include "srp_priv.h"

enum srp_action srp_conn_step(struct srp_host *h, enum srp_conn_event ev)
{
	struct srp_conn_step st;
	unsigned long flags;

	spin_lock_irqsave(&h->lock, flags);
	st = srp_conn_fsm_step(h->state, ev);
	if (st.valid)
		h->state = st.next;
	spin_unlock_irqrestore(&h->lock, flags);
	if (!st.valid)
		return SRP_DO_NOTHING;
	if (st.action == SRP_DO_WAKE)
		complete(&h->answered);
	else if (st.action == SRP_DO_FAIL)
		queue_work(system_unbound_wq, &h->lost_work);
	return st.action;
}

static int srp_make_qp(struct srp_host *h)
{
	struct oib_qp_init_attr attr = {
		.qp_context = h, .send_cq = h->scq, .recv_cq = h->rcq,
		.cap = { .max_send_wr = SRP_SQ_SIZE, .max_recv_wr = SRP_NRECV,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_type = OIB_SIGNAL_REQ_WR, .qp_type = OIB_QPT_RC,
	};

	return oib_cma_create_qp(h->id, h->pd, &attr);
}

/* The objects on the device the route found (undone by srp_conn_stop()). */
static int srp_objects(struct srp_host *h)
{
	struct oib_device *dev = h->id->device;
	int i;

	h->pd = oib_alloc_pd(dev);
	if (IS_ERR(h->pd))
		return PTR_ERR(h->pd);
	h->scq = oib_alloc_cq(dev, h, SRP_SQ_SIZE + 1, 0, OIB_POLL_WORKQUEUE);
	if (IS_ERR(h->scq))
		return PTR_ERR(h->scq);
	h->rcq = oib_alloc_cq(dev, h, SRP_NRECV + 1, 0, OIB_POLL_WORKQUEUE);
	if (IS_ERR(h->rcq))
		return PTR_ERR(h->rcq);
	for (i = 0; i < SRP_MAX_QUEUE; i++) {
		h->mr[i] = oib_alloc_mr(h->pd, OIB_MR_TYPE_MEM_REG, SRP_MAX_PAGES);
		if (IS_ERR(h->mr[i]))
			return PTR_ERR(h->mr[i]);
	}
	return srp_make_qp(h);
}

static int srp_connect(struct srp_host *h)
{
	struct oib_srp_login l = {
		.tag = 1, .it_iu_len = SRP_IT_IU_LEN,
		.buf_fmt = OIB_SRP_BUF_FMT_DIRECT | OIB_SRP_BUF_FMT_INDIRECT,
		.flags = OIB_SRP_MULTICHAN_SINGLE,
	};
	u8 pdata[sizeof(struct oib_srp_login_req_rdma)];
	struct oib_cma_conn_param p = {
		.private_data = pdata, .private_data_len = sizeof(pdata),
		.responder_resources = 4, .initiator_depth = 4, .retry_count = 7,
		.rnr_retry_count = 7,
	};

	memcpy(l.target_port_id, srp_target_port_id, sizeof(l.target_port_id));
	snprintf(l.initiator_port_id, sizeof(l.initiator_port_id), "oib_srp%u",
		 h->shost->host_no);
	oib_srp_pack_login_rdma(pdata, &l);
	return oib_cma_connect(h->id, &p);
}

/* ESTABLISHED: the LOGIN_RSP in the REP; credits and sizes taken, receives posted. */
static int srp_logged_in(struct srp_host *h, const struct oib_cma_conn_param *p)
{
	struct oib_srp_login_answer a;
	int i, ret;

	ret = oib_srp_parse_login_answer(p->private_data, p->private_data_len, &a);
	if (ret != OIB_SRP_LOGIN_RSP)
		return ret < 0 ? ret : -EPROTO;
	if (a.max_ti_iu_len > SRP_RECV_LEN || a.max_it_iu_len < SRP_IT_IU_LEN ||
	    !(a.buf_fmt & OIB_SRP_BUF_FMT_INDIRECT) || a.req_lim_delta < 2)
		return -EPROTO;
	h->credits = a.req_lim_delta;
	h->max_ti_iu_len = a.max_ti_iu_len;
	for (i = 0; i < SRP_NRECV; i++) {
		ret = srp_post_recv(&h->recv[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int srp_cma_handler(struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct srp_host *h = id->context;
	int err = 0;

	switch (ev->event) {
	case OIB_CMA_EVENT_ADDR_RESOLVED:
		err = oib_cma_resolve_route(id, 2000);
		break;
	case OIB_CMA_EVENT_ROUTE_RESOLVED:
		err = srp_objects(h) ?: srp_connect(h);
		break;
	case OIB_CMA_EVENT_ESTABLISHED:
		err = srp_logged_in(h, &ev->param.conn);
		if (!err)
			srp_conn_step(h, SRP_CEV_LOGGED_IN);
		break;
	case OIB_CMA_EVENT_REJECTED:
		err = -ECONNREFUSED;
		break;
	case OIB_CMA_EVENT_ADDR_ERROR:
	case OIB_CMA_EVENT_ROUTE_ERROR:
	case OIB_CMA_EVENT_UNREACHABLE:
	case OIB_CMA_EVENT_CONNECT_ERROR:
		err = ev->status ?: -EHOSTUNREACH;
		break;
	case OIB_CMA_EVENT_DISCONNECTED:
	case OIB_CMA_EVENT_DEVICE_REMOVAL:
		srp_conn_step(h, SRP_CEV_GONE);
		if (ev->event == OIB_CMA_EVENT_DEVICE_REMOVAL)
			srp_host_lost_device(h);
		break;
	default:
		break;
	}
	if (err) {
		h->login_err = err;
		srp_conn_step(h, SRP_CEV_REFUSED);
	}
	return 0;
}

/* Log in to h->dst; 0 once logged in, else the reason (the objects are left for stop). */
int srp_conn_start(struct srp_host *h)
{
	int ret;

	h->id = oib_cma_create_id(&init_net, srp_cma_handler, h, OIB_PS_TCP, OIB_QPT_RC);
	if (IS_ERR(h->id)) {
		ret = PTR_ERR(h->id);
		h->id = NULL;
		return ret;
	}
	if (srp_conn_step(h, SRP_CEV_CONNECT) != SRP_DO_LOGIN)
		return -EINVAL;
	ret = oib_cma_resolve_addr(h->id, NULL, (struct sockaddr *)&h->dst, 2000);
	if (ret)
		return ret;
	if (!wait_for_completion_timeout(&h->answered, msecs_to_jiffies(SRP_CONNECT_MS)))
		return -ETIMEDOUT;
	return READ_ONCE(h->state) == SRP_CONN_LIVE ? 0 : (h->login_err ?: -ENOTCONN);
}

/* The connection lost: every command not answered fails (its QP is drained first). */
static void srp_lost_work(struct work_struct *work)
{
	struct srp_host *h = container_of(work, struct srp_host, lost_work);

	if (h->id && h->id->qp)
		oib_drain_qp(h->id->qp);
	srp_fail_all(h);
}

void srp_conn_init(struct srp_host *h)
{
	spin_lock_init(&h->lock);
	init_completion(&h->answered);
	INIT_WORK(&h->lost_work, srp_lost_work);
}

/* Everything srp_conn_start() made, whatever it got to; no callback runs after. */
void srp_conn_stop(struct srp_host *h)
{
	int i;

	srp_conn_step(h, SRP_CEV_REMOVE);
	cancel_work_sync(&h->lost_work);
	if (h->id && h->id->qp) {
		oib_drain_qp(h->id->qp);
		oib_cma_destroy_qp(h->id);
	}
	if (h->id)
		oib_cma_destroy_id(h->id);
	for (i = 0; i < SRP_MAX_QUEUE; i++)
		if (!IS_ERR_OR_NULL(h->mr[i]))
			oib_dereg_mr(h->mr[i]);
	if (!IS_ERR_OR_NULL(h->scq))
		oib_free_cq(h->scq);
	if (!IS_ERR_OR_NULL(h->rcq))
		oib_free_cq(h->rcq);
	if (!IS_ERR_OR_NULL(h->pd))
		oib_dealloc_pd(h->pd);
}
