// SPDX-License-Identifier: GPL-2.0-only
/*
 * One connection of the initiator: a login, step by step from the thread that asks for it
 * (add_target or the reconnect work): resolve the target's address and route through oib_cma,
 * make the PD, the CQs, the QP and a fast-registration MR per command on the device that
 * reaches it, post the receives, connect with the login in the REQ's private data, take the
 * LOGIN_RSP from the REP (credits, IU sizes).  The CM handler only tells that thread how each
 * step went (through the state table, srp_fsm.c), so the connection's objects are made and
 * released by one thread at a time and never under a handler.  Releasing drains the QP first:
 * every command the target did not answer is then requeued.
 */
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <scsi/scsi_host.h>
#include "srp_priv.h"

enum srp_action srp_conn_step(struct srp_host *h, enum srp_conn_event ev)
{
	struct srp_conn_step st;
	unsigned long flags;

	spin_lock_irqsave(&h->lock, flags);
	st = srp_conn_fsm_step(h->state, ev);
	if (st.valid)
		h->state = st.next;
	if (st.valid && st.action == SRP_DO_RECOVER)
		h->down_since = jiffies;
	spin_unlock_irqrestore(&h->lock, flags);
	if (!st.valid)
		return SRP_DO_NOTHING;
	wake_up_all(&h->state_wq);
	switch (st.action) {
	case SRP_DO_WAKE:
		complete(&h->answered);
		break;
	case SRP_DO_RECOVER:
		scsi_block_requests(h->shost);
		mod_delayed_work(srp_wq, &h->reconnect_work, 0);
		break;
	case SRP_DO_RELEASE:
		complete(&h->answered);
		scsi_unblock_requests(h->shost);	/* never from a handler: GIVE_UP, REMOVE */
		break;
	default:
		break;
	}
	return st.action;
}

/* The connection went (@why, for the log, said once: when it takes a live connection down). */
void srp_conn_gone(struct srp_host *h, const char *why)
{
	if (srp_conn_step(h, SRP_CEV_GONE) == SRP_DO_RECOVER)
		pr_warn("oib_srp: host%u: connection to %pISpc lost: %s\n", h->shost->host_no,
			&h->dst, why);
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

/* The objects on the device the route found, the receives posted (the QP is in INIT). */
static int srp_objects(struct srp_host *h)
{
	struct oib_device *dev = h->id->device;
	int i, ret;

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
	ret = srp_make_qp(h);
	for (i = 0; !ret && i < SRP_NRECV; i++)
		ret = srp_post_recv(&h->recv[i]);
	return ret;
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

/* ESTABLISHED: the LOGIN_RSP in the REP gives the credits and sizes. */
static int srp_logged_in(struct srp_host *h, const struct oib_cma_conn_param *p)
{
	struct oib_srp_login_answer a;
	unsigned long flags;
	int ret;

	ret = oib_srp_parse_login_answer(p->private_data, p->private_data_len, &a);
	if (ret != OIB_SRP_LOGIN_RSP)
		return ret < 0 ? ret : -EPROTO;
	if (a.max_ti_iu_len > SRP_RECV_LEN || a.max_it_iu_len < SRP_IT_IU_LEN ||
	    !(a.buf_fmt & OIB_SRP_BUF_FMT_INDIRECT) || a.req_lim_delta < 2)
		return -EPROTO;
	spin_lock_irqsave(&h->lock, flags);
	h->credits = a.req_lim_delta;
	h->stats.outstanding = 0;
	h->stats.max_credits = max_t(u32, h->stats.max_credits, h->credits);
	h->stats.logins++;
	spin_unlock_irqrestore(&h->lock, flags);
	h->max_ti_iu_len = a.max_ti_iu_len;
	return 0;
}

static int srp_cma_handler(struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct srp_host *h = id->context;
	int err = 0;

	switch (ev->event) {
	case OIB_CMA_EVENT_ADDR_RESOLVED:
	case OIB_CMA_EVENT_ROUTE_RESOLVED:
		srp_conn_step(h, SRP_CEV_RESOLVED);
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
		srp_conn_gone(h, oib_cma_event_msg(ev->event));
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

static bool srp_logging_in(struct srp_host *h)
{
	enum srp_conn_state s = READ_ONCE(h->state);

	return s == SRP_CONN_CONNECTING || s == SRP_CONN_RECONNECTING;
}

/* A login step was started (@ret 0): wait for its answer, until @deadline at most. */
static int srp_login_wait(struct srp_host *h, int ret, unsigned long deadline)
{
	long left = min_t(long, deadline - jiffies, msecs_to_jiffies(SRP_CONNECT_MS));

	if (ret)
		return ret;
	if (left <= 0 || !wait_for_completion_timeout(&h->answered, left))
		return -ETIMEDOUT;
	return srp_logging_in(h) || READ_ONCE(h->state) == SRP_CONN_LIVE ? 0 : -ENOTCONN;
}

/* The next step: the answer of the last one is waited for anew. */
static bool srp_login_next(struct srp_host *h)
{
	reinit_completion(&h->answered);
	return srp_logging_in(h);
}

/*
 * Log in to h->dst (@ev: CONNECT the first time, RETRY after a loss), each step answered
 * before @deadline.  0 once live; else the reason, the connection REFUSED and its objects left
 * for srp_conn_release().
 */
int srp_conn_login(struct srp_host *h, enum srp_conn_event ev, unsigned long deadline)
{
	int ret;

	reinit_completion(&h->answered);
	h->login_err = 0;
	if (srp_conn_step(h, ev) != SRP_DO_LOGIN)
		return -ENOTCONN;
	h->id = oib_cma_create_id(&init_net, srp_cma_handler, h, OIB_PS_TCP, OIB_QPT_RC);
	if (IS_ERR(h->id)) {
		ret = PTR_ERR(h->id);
		h->id = NULL;
		goto refused;
	}
	ret = srp_login_wait(h, oib_cma_resolve_addr(h->id, NULL, (struct sockaddr *)&h->dst,
						     SRP_CONNECT_MS), deadline);
	if (!ret && srp_login_next(h))
		ret = srp_login_wait(h, oib_cma_resolve_route(h->id, SRP_CONNECT_MS), deadline);
	if (!ret && srp_login_next(h))
		ret = srp_login_wait(h, srp_objects(h) ?: srp_connect(h), deadline);
	if (!ret && READ_ONCE(h->state) == SRP_CONN_LIVE)
		return 0;
refused:
	if (!h->login_err)
		h->login_err = ret ?: -ENOTCONN;
	srp_conn_step(h, SRP_CEV_REFUSED);
	return h->login_err;
}

/*
 * Whatever a login made, released: the QP drained first (every completion's callback has run),
 * so the commands it leaves unanswered are requeued and the target reaches none of their memory.
 * Never while live; one thread at a time (the login's owner, or the host's stop after it).  Who
 * uses the objects outside a callback (queuecommand, task management) does so in an RCU
 * read-side section begun while live, which the release waits out.
 */
void srp_conn_release(struct srp_host *h)
{
	int i;

	synchronize_rcu();	/* queuecommand and task management, begun while live, are done */
	if (h->id && h->id->qp) {
		oib_drain_qp(h->id->qp);
		oib_cma_destroy_qp(h->id);
	}
	srp_requeue_all(h);
	h->tsk_code = -ECONNRESET;
	complete(&h->tsk_done);
	if (h->id)
		oib_cma_destroy_id(h->id);
	h->id = NULL;
	for (i = 0; i < SRP_MAX_QUEUE; i++) {
		if (!IS_ERR_OR_NULL(h->mr[i]))
			oib_dereg_mr(h->mr[i]);
		h->mr[i] = NULL;
	}
	if (!IS_ERR_OR_NULL(h->scq))
		oib_free_cq(h->scq);
	if (!IS_ERR_OR_NULL(h->rcq))
		oib_free_cq(h->rcq);
	if (!IS_ERR_OR_NULL(h->pd))
		oib_dealloc_pd(h->pd);
	h->scq = NULL;
	h->rcq = NULL;
	h->pd = NULL;
}
