// SPDX-License-Identifier: GPL-2.0-only
/*
 * One connection of the initiator, one RDMA channel per hardware queue: a login, channel after
 * channel and step by step from the thread that asks for it (add_target or the reconnect
 * work): resolve the target's address and route through oib_cma, make the PD, the CQs (on the
 * channel's completion vector), the QP and a fast-registration MR per command on the device that
 * reaches it, post the receives, connect with the login in the REQ's private data (channel 0
 * SINGLE, the others MULTI under the same initiator port ID), take the LOGIN_RSP from the REP
 * (the channel's credits, IU sizes).  The CM handler only tells that thread how each
 * step went (through the state table, srp_fsm.c), so the connection's objects are made and
 * released by one thread at a time and never under a handler.  Releasing drains the QP first:
 * every command the target did not answer is then requeued.
 */
#include <kunit/visibility.h>
#include <linux/cpumask.h>
#include <linux/minmax.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <oib/device.h>
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

static int srp_make_qp(struct srp_ch *ch)
{
	struct oib_qp_init_attr attr = {
		.qp_context = ch, .send_cq = ch->scq, .recv_cq = ch->rcq,
		.cap = { .max_send_wr = SRP_SQ_SIZE, .max_recv_wr = SRP_NRECV,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_type = OIB_SIGNAL_REQ_WR, .qp_type = OIB_QPT_RC,
	};

	return oib_cma_create_qp(ch->id, ch->pd, &attr);
}

/*
 * The channels a host opens: as many as asked for (the ch_count parameter), as the device has
 * completion vectors and as CPUs are online, one at least.
 */
u32 srp_ch_count_pick(u32 wanted, u32 comp_vectors, u32 cpus)
{
	return clamp(min3(wanted, comp_vectors, cpus), 1U, (u32)SRP_MAX_CH);
}
EXPORT_SYMBOL_IF_KUNIT(srp_ch_count_pick);

/*
 * The objects on the device the route found (CQs on the channel's completion vector), the
 * receives posted (the QP is in INIT).  The host's first login fixes its channel count once
 * channel 0 knows its device; the buffers are made at a channel's first login and kept.
 */
static int srp_objects(struct srp_ch *ch)
{
	struct oib_device *dev = ch->id->device;
	u32 vec = ch->idx % dev->attrs.num_comp_vectors;
	int i, ret;

	if (!ch->idx && !ch->h->added)
		ch->h->nch = srp_ch_count_pick(ch->h->nch, dev->attrs.num_comp_vectors,
					       num_online_cpus());
	ret = srp_ch_alloc_bufs(ch);
	if (ret)
		return ret;
	ch->pd = oib_alloc_pd(dev);
	if (IS_ERR(ch->pd))
		return PTR_ERR(ch->pd);
	ch->scq = oib_alloc_cq(dev, ch, SRP_SQ_SIZE + 1, vec, OIB_POLL_WORKQUEUE);
	if (IS_ERR(ch->scq))
		return PTR_ERR(ch->scq);
	ch->rcq = oib_alloc_cq(dev, ch, SRP_NRECV + 1, vec, OIB_POLL_WORKQUEUE);
	if (IS_ERR(ch->rcq))
		return PTR_ERR(ch->rcq);
	for (i = 0; i < SRP_MAX_QUEUE; i++) {
		ch->mr[i] = oib_alloc_mr(ch->pd, OIB_MR_TYPE_MEM_REG, SRP_MAX_PAGES);
		if (IS_ERR(ch->mr[i]))
			return PTR_ERR(ch->mr[i]);
	}
	ret = srp_make_qp(ch);
	for (i = 0; !ret && i < SRP_NRECV; i++)
		ret = srp_post_recv(&ch->recv[i]);
	return ret;
}

/*
 * Channel 0 logs in SINGLE (the target ends what it had of us), the others MULTI; each asks for
 * immediate data when the host's IUs have room for some (SRP_IMM_OFFSET and a block after it).
 */
static u8 srp_ch_login_flags(struct srp_ch *ch)
{
	u8 flags = ch->idx ? OIB_SRP_MULTICHAN_MULTI : OIB_SRP_MULTICHAN_SINGLE;

	if (ch->h->it_iu_len >= SRP_IMM_OFFSET + SECTOR_SIZE)
		flags |= OIB_SRP_IMMED_REQUESTED;
	return flags;
}

static int srp_connect(struct srp_ch *ch)
{
	struct oib_srp_login l = {
		.tag = 1 + ch->idx, .it_iu_len = ch->h->it_iu_len,
		.buf_fmt = OIB_SRP_BUF_FMT_DIRECT | OIB_SRP_BUF_FMT_INDIRECT,
		.flags = srp_ch_login_flags(ch), .imm_data_offset = SRP_IMM_OFFSET,
	};
	u8 pdata[sizeof(struct oib_srp_login_req_rdma)];
	struct oib_cma_conn_param p = {
		.private_data = pdata, .private_data_len = sizeof(pdata),
		.responder_resources = 4, .initiator_depth = 4, .retry_count = 7,
		.rnr_retry_count = 7,
	};

	memcpy(l.target_port_id, ch->h->target_port_id, sizeof(l.target_port_id));
	/* One initiator port ID for all the host's channels: the target groups them by it. */
	snprintf(l.initiator_port_id, sizeof(l.initiator_port_id), "oib_srp%u",
		 ch->h->shost->host_no);
	oib_srp_pack_login_rdma(pdata, &l);
	return oib_cma_connect(ch->id, &p);
}

/*
 * A LOGIN_RSP we can work with, for a login with @req_flags asking for IUs of @it_iu_len: IU
 * sizes that fit (the target takes that much, its answers fit our receives), indirect
 * buffers, 2 credits at least; for SINGLE, no channel said maintained; for MULTI, the host's
 * other channels maintained (anything else: the target does not have them, or ended them).
 */
int srp_login_rsp_check(u8 req_flags, u32 it_iu_len, const struct oib_srp_login_answer *a)
{
	u8 result = a->flags & OIB_SRP_MULTICHAN_MASK;

	if (a->max_ti_iu_len > SRP_RECV_LEN || a->max_it_iu_len < it_iu_len ||
	    !(a->buf_fmt & OIB_SRP_BUF_FMT_INDIRECT) || a->req_lim_delta < 2)
		return -EPROTO;
	if ((req_flags & OIB_SRP_MULTICHAN_MASK) == OIB_SRP_MULTICHAN_MULTI)
		return result == OIB_SRP_LOGIN_RSP_MULTICHAN_MAINTAINED ? 0 : -EPROTO;
	return result == OIB_SRP_LOGIN_RSP_MULTICHAN_NO_CHAN ||
	       result == OIB_SRP_LOGIN_RSP_MULTICHAN_TERMINATED ? 0 : -EPROTO;
}
EXPORT_SYMBOL_IF_KUNIT(srp_login_rsp_check);

/* ESTABLISHED: the LOGIN_RSP in the REP gives the channel its credits and sizes. */
static int srp_logged_in(struct srp_ch *ch, const struct oib_cma_conn_param *p)
{
	struct oib_srp_login_answer a;
	unsigned long flags;
	int ret;

	ret = oib_srp_parse_login_answer(p->private_data, p->private_data_len, &a);
	if (ret != OIB_SRP_LOGIN_RSP)
		return ret < 0 ? ret : -EPROTO;
	ret = srp_login_rsp_check(srp_ch_login_flags(ch), ch->h->it_iu_len, &a);
	if (ret)
		return ret;
	spin_lock_irqsave(&ch->lock, flags);
	ch->credits = a.req_lim_delta;
	ch->live = true;
	ch->imm = (srp_ch_login_flags(ch) & OIB_SRP_IMMED_REQUESTED) &&
		  (a.flags & OIB_SRP_LOGIN_RSP_IMMED_SUPP);
	ch->cred_busy = false;	/* a new QP: no CRED_RSP of ours on it */
	ch->stats.outstanding = 0;
	ch->stats.max_credits = max_t(u32, ch->stats.max_credits, ch->credits);
	ch->stats.logins++;
	spin_unlock_irqrestore(&ch->lock, flags);
	ch->h->max_ti_iu_len = a.max_ti_iu_len;
	return 0;
}

static int srp_cma_handler(struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct srp_ch *ch = id->context;
	struct srp_host *h = ch->h;
	int err = 0;

	switch (ev->event) {
	case OIB_CMA_EVENT_ADDR_RESOLVED:
	case OIB_CMA_EVENT_ROUTE_RESOLVED:
		srp_conn_step(h, SRP_CEV_STEP);
		break;
	case OIB_CMA_EVENT_ESTABLISHED:
		err = srp_logged_in(ch, &ev->param.conn);
		if (!err)
			srp_conn_step(h, ch->idx + 1 == h->nch ? SRP_CEV_LOGGED_IN : SRP_CEV_STEP);
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
 * The address a login leaves from: one of the host's port (NULL: any, for a host made without
 * one).  -EADDRNOTAVAIL: the port has no address of the target's family.
 */
static int srp_src(struct srp_host *h, struct sockaddr_storage *src, struct sockaddr **srcp)
{
	*srcp = NULL;
	if (!h->port)
		return 0;
	*srcp = (struct sockaddr *)src;
	return oib_cma_port_addr(h->port->ibdev, h->port->port, (struct sockaddr *)&h->dst, src);
}

/*
 * Channel @ch's login, each step answered before @deadline: 0 once it is logged in.  Bound to
 * the host's port, the id reaches the target from there or not at all (ADDR_ERROR,
 * -EHOSTUNREACH).
 */
static int srp_ch_login(struct srp_ch *ch, unsigned long deadline)
{
	struct srp_host *h = ch->h;
	struct sockaddr_storage src;
	struct sockaddr *srcp;
	int ret = srp_src(h, &src, &srcp);

	if (ret)
		return ret;
	ch->id = oib_cma_create_id(&init_net, srp_cma_handler, ch, OIB_PS_TCP, OIB_QPT_RC);
	if (IS_ERR(ch->id)) {
		ret = PTR_ERR(ch->id);
		ch->id = NULL;
		return ret;
	}
	ret = srp_login_wait(h, oib_cma_resolve_addr(ch->id, srcp, (struct sockaddr *)&h->dst,
						     SRP_CONNECT_MS), deadline);
	if (!ret && srp_login_next(h))
		ret = srp_login_wait(h, oib_cma_resolve_route(ch->id, SRP_CONNECT_MS), deadline);
	if (!ret && srp_login_next(h))
		ret = srp_login_wait(h, srp_objects(ch) ?: srp_connect(ch), deadline);
	if (!ret)
		reinit_completion(&h->answered);	/* the next channel's first step */
	return ret;
}

/*
 * Log in to h->dst (@ev: CONNECT the first time, RETRY after a loss): every channel, one after
 * the other, each step answered before @deadline; the last one's LOGIN_RSP makes the host live.
 * 0 once live; else the reason, the connection REFUSED and its objects left for
 * srp_conn_release().
 */
int srp_conn_login(struct srp_host *h, enum srp_conn_event ev, unsigned long deadline)
{
	u32 i;
	int ret = 0;

	reinit_completion(&h->answered);
	h->login_err = 0;
	if (srp_conn_step(h, ev) != SRP_DO_LOGIN)
		return -ENOTCONN;
	for (i = 0; !ret && i < h->nch; i++)	/* channel 0's login may lower h->nch */
		ret = srp_ch_login(&h->ch[i], deadline);
	if (!ret && READ_ONCE(h->state) == SRP_CONN_LIVE)
		return 0;
	if (!h->login_err)
		h->login_err = ret ?: -ENOTCONN;
	srp_conn_step(h, SRP_CEV_REFUSED);
	return h->login_err;
}

/* No more posts on @ch: after this, its QP's drain sees every work request. */
static void srp_ch_stop_posting(struct srp_ch *ch)
{
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	ch->live = false;
	spin_unlock_irqrestore(&ch->lock, flags);
}

static void srp_ch_release(struct srp_ch *ch)
{
	int i;

	if (ch->id)
		oib_cma_destroy_id(ch->id);
	ch->id = NULL;
	for (i = 0; i < SRP_MAX_QUEUE; i++) {
		if (!IS_ERR_OR_NULL(ch->mr[i]))
			oib_dereg_mr(ch->mr[i]);
		ch->mr[i] = NULL;
	}
	if (!IS_ERR_OR_NULL(ch->scq))
		oib_free_cq(ch->scq);
	if (!IS_ERR_OR_NULL(ch->rcq))
		oib_free_cq(ch->rcq);
	if (!IS_ERR_OR_NULL(ch->pd))
		oib_dealloc_pd(ch->pd);
	ch->scq = NULL;
	ch->rcq = NULL;
	ch->pd = NULL;
}

/*
 * Whatever a login made, released: every channel's QP drained first (every completion's
 * callback has run), so the commands they leave unanswered are requeued and the target reaches
 * none of their memory.  Never while live; one thread at a time (the login's owner, or the
 * host's stop after it).  Who uses the objects outside a callback (queuecommand, task
 * management) does so in an RCU read-side section begun while live, which the release waits out.
 */
void srp_conn_release(struct srp_host *h)
{
	u32 i;

	synchronize_rcu();	/* queuecommand and task management, begun while live, are done */
	for (i = 0; i < h->nch; i++)
		srp_ch_stop_posting(&h->ch[i]);
	for (i = 0; i < h->nch; i++) {
		if (h->ch[i].id && h->ch[i].id->qp) {
			oib_drain_qp(h->ch[i].id->qp);
			oib_cma_destroy_qp(h->ch[i].id);
		}
	}
	srp_requeue_all(h);
	h->tsk_code = -ECONNRESET;
	complete(&h->tsk_done);
	for (i = 0; i < h->nch; i++)
		srp_ch_release(&h->ch[i]);
}
