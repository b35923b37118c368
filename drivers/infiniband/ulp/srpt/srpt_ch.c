// SPDX-License-Identifier: GPL-2.0-only
/*
 * A target channel: one SRP login over one RC connection.  The CONNECT_REQUEST handler checks the
 * login (in the REQ's private data), makes the PD, CQ and QP, moves the QP to INIT, posts every
 * receive, and accepts with the LOGIN_RSP in the REP: the QP is then in RTR and the initiator's
 * commands may arrive before ESTABLISHED (the 2006 design thread).  A bad login gets a LOGIN_REJ
 * in the REJ.  The end (logout, the CM's DISCONNECTED, an error, the device or the target going)
 * queues the release work, which drains the QP and destroys everything, the id last.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <oib/device.h>
#include "srpt_priv.h"

/* One step of @ch's table under its lock; the action, SRPT_ACT_IGNORE for a refused pair. */
enum srpt_ch_action srpt_ch_step(struct srpt_ch *ch, enum srpt_ch_event ev)
{
	struct srpt_ch_step st;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	st = srpt_ch_fsm_step(ch->state, ev);
	if (st.valid)
		ch->state = st.next;
	if (st.valid && st.action == SRPT_ACT_LOGOUT)
		ch->logout = true;
	spin_unlock_irqrestore(&ch->lock, flags);
	if (st.valid && (st.action == SRPT_ACT_RELEASE || st.action == SRPT_ACT_LOGOUT))
		queue_work(system_unbound_wq, &ch->release);
	return st.valid ? st.action : SRPT_ACT_IGNORE;
}

int srpt_post_recv(struct srpt_recv *r)
{
	struct oib_sge sge = {
		.addr = (uintptr_t)r->buf, .length = r->ch->it_iu_len,
		.lkey = r->ch->pd->local_dma_lkey,
	};
	struct oib_recv_wr wr = { .wr_cqe = &r->cqe, .sg_list = &sge, .num_sge = 1 };

	return oib_post_recv(r->ch->id->qp, &wr, NULL);
}

static void srpt_ch_release(struct work_struct *work);

static void srpt_ch_free(struct srpt_ch *ch)
{
	int i;

	for (i = 0; i < SRPT_NRECV; i++)
		kfree(ch->recv[i].buf);
	kvfree(ch->cmds);
	kfree(ch);
}

/* A channel for @id whose receives take IUs of @it_iu_len bytes. */
static struct srpt_ch *srpt_ch_alloc(struct srpt_target *t, struct oib_cma_id *id,
				     u32 it_iu_len)
{
	struct srpt_ch *ch = kzalloc(sizeof(*ch), GFP_KERNEL);
	int i;

	if (!ch)
		return NULL;
	ch->cmds = kvcalloc(SRPT_NCMDS, sizeof(*ch->cmds), GFP_KERNEL);
	for (i = 0; i < SRPT_NRECV; i++) {
		ch->recv[i].buf = kmalloc(it_iu_len, GFP_KERNEL);
		ch->recv[i].ch = ch;
		ch->recv[i].cqe.done = srpt_recv_done;
		if (!ch->recv[i].buf)
			goto fail;
	}
	if (!ch->cmds)
		goto fail;
	ch->kind = SRPT_KIND_CHANNEL;
	ch->t = t;
	ch->id = id;
	ch->it_iu_len = it_iu_len;
	INIT_WORK(&ch->release, srpt_ch_release);
	spin_lock_init(&ch->lock);
	INIT_LIST_HEAD(&ch->waiting);
	srpt_cmds_init(ch);
	return ch;
fail:
	srpt_ch_free(ch);
	return NULL;
}

/* The QP's objects; the QP in INIT with every receive posted.  Undone by the release. */
static int srpt_ch_objects(struct srpt_ch *ch)
{
	struct oib_qp_init_attr attr = {
		.qp_context = ch,
		.cap = { .max_send_wr = SRPT_SQ_SIZE, .max_recv_wr = SRPT_NRECV,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_type = OIB_SIGNAL_REQ_WR,
		.qp_type = OIB_QPT_RC,
	};
	struct oib_qp_attr qattr = { .qp_state = OIB_QPS_INIT };
	int i, mask, ret;

	ch->pd = oib_alloc_pd(ch->id->device);
	if (IS_ERR(ch->pd))
		return PTR_ERR(ch->pd);
	ch->cq = oib_alloc_cq(ch->id->device, ch, SRPT_SQ_SIZE + SRPT_NRECV + 2,
			      (u32)atomic_inc_return(&ch->t->next_vector) %
			      ch->id->device->attrs.num_comp_vectors, OIB_POLL_WORKQUEUE);
	if (IS_ERR(ch->cq))
		return PTR_ERR(ch->cq);
	attr.send_cq = ch->cq;
	attr.recv_cq = ch->cq;
	ret = oib_cma_create_qp(ch->id, ch->pd, &attr);
	ret = ret ?: oib_cma_init_qp_attr(ch->id, &qattr, &mask);
	ret = ret ?: oib_modify_qp(ch->id->qp, &qattr, mask);
	for (i = 0; !ret && i < SRPT_NRECV; i++)
		ret = srpt_post_recv(&ch->recv[i]);
	return ret;
}

/*
 * Undo srpt_ch_objects(): the QP drained and the file LUNs' work flushed first, so nothing runs
 * on what is freed; the QP destroyed under the target's lock, under which srpt_target_reset()
 * uses it.
 */
static void srpt_ch_objects_free(struct srpt_ch *ch)
{
	if (ch->id->qp) {
		oib_drain_qp(ch->id->qp);
		srpt_cmds_flush(ch);
		mutex_lock(&ch->t->lock);
		oib_cma_destroy_qp(ch->id);
		mutex_unlock(&ch->t->lock);
	}
	if (!IS_ERR_OR_NULL(ch->cq))
		oib_free_cq(ch->cq);
	if (!IS_ERR_OR_NULL(ch->pd))
		oib_dealloc_pd(ch->pd);
}

/* Off the target's list, freed; the last one wakes a target waiting to go. */
static void srpt_ch_unlink_free(struct srpt_ch *ch)
{
	struct srpt_target *t = ch->t;

	mutex_lock(&t->lock);
	list_del(&ch->entry);
	mutex_unlock(&t->lock);
	srpt_ch_free(ch);
	if (atomic_dec_and_test(&t->stats.channels))
		wake_up(&t->wq);
}

static void srpt_t_logout_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct srpt_ch *ch = container_of(wc->wr_cqe, struct srpt_ch, t_cqe);

	complete(&ch->t_sent);
}

/*
 * The target stops an established channel: SRP_T_LOGOUT (no reason) before the drain, which would
 * flush it; its completion waited for, which comes as every RC send's does: acknowledged, in
 * error once the transport's retries ran out, or flushed (the initiator's receives take it
 * without a credit: it posts more than the target grants).  From the release work, which posts
 * it although the channel is RELEASING: its own drain follows.
 */
static void srpt_t_logout(struct srpt_ch *ch)
{
	struct oib_sge sge = { .addr = (uintptr_t)ch->t_iu, .length = sizeof(ch->t_iu),
			       .lkey = ch->pd->local_dma_lkey };
	struct oib_send_wr wr = { .wr_cqe = &ch->t_cqe, .sg_list = &sge, .num_sge = 1,
				  .opcode = OIB_WR_SEND, .send_flags = OIB_SEND_SIGNALED };

	oib_srp_pack_small(ch->t_iu, OIB_SRP_T_LOGOUT, 0, OIB_SRP_T_LOGOUT_NO_REASON);
	ch->t_cqe.done = srpt_t_logout_done;
	init_completion(&ch->t_sent);
	if (!oib_post_send(ch->id->qp, &wr, NULL))
		wait_for_completion(&ch->t_sent);
}

static void srpt_ch_release(struct work_struct *work)
{
	struct srpt_ch *ch = container_of(work, struct srpt_ch, release);

	if (READ_ONCE(ch->logout))
		srpt_t_logout(ch);
	srpt_ch_objects_free(ch);
	oib_cma_destroy_id(ch->id);
	srpt_ch_unlink_free(ch);
}

/* The login's verdict on @id: 0, or the LOGIN_REJ reason. */
static u32 srpt_login_check(struct srpt_target *t, const struct oib_cma_id *id,
			    const struct oib_cma_event *ev, struct oib_srp_login *l)
{
	const struct oib_cma_conn_param *p = &ev->param.conn;

	memset(l, 0, sizeof(*l));
	if (oib_srp_parse_login_rdma(p->private_data, p->private_data_len, l))
		return OIB_SRP_REJ_UNABLE_ESTABLISH_CHANNEL;
	if (!srpt_port_id_ok(t, id->device, l->target_port_id))
		return OIB_SRP_REJ_UNABLE_ASSOCIATE_CHANNEL;
	if (l->it_iu_len > SRPT_MAX_IT_IU)
		return OIB_SRP_REJ_IT_IU_LEN_TOO_LARGE;
	return 0;
}

/*
 * Immediate data (SRP-2) for a login that asks for it: granted at the offset it names if a
 * command's descriptor fits before it and some data after it within the IU; else 0, not granted
 * (the initiator then sends descriptors, which every login must take).
 */
static u32 srpt_imm_offset(const struct oib_srp_login *l)
{
	if (!(l->flags & OIB_SRP_IMMED_REQUESTED))
		return 0;
	if (l->imm_data_offset < OIB_SRP_MIN_IMM_OFFSET || l->imm_data_offset >= l->it_iu_len)
		return 0;
	return l->imm_data_offset;
}

/* Refuse a login; the CMA destroys the id when the handler returns (non-zero). */
static int srpt_reject(struct srpt_target *t, struct oib_cma_id *id, u64 tag, u32 reason)
{
	struct oib_srp_login_answer a = {
		.tag = tag, .reason = reason,
		.buf_fmt = OIB_SRP_BUF_FMT_DIRECT | OIB_SRP_BUF_FMT_INDIRECT,
	};
	u8 rej[sizeof(struct oib_srp_login_rej)];

	oib_srp_pack_login_rej(rej, &a);
	oib_cma_reject(id, rej, sizeof(rej));
	atomic_inc(&t->stats.rejects);
	return 1;
}

/*
 * The multichannel action of a login on @ch (T10 SRP): SINGLE ends every other channel of its
 * initiator port (a T_LOGOUT for those established), MULTI keeps them.  The LOGIN_RSP's result:
 * TERMINATED or MAINTAINED if there were such channels, NO_CHAN if not.  Under the target's
 * lock (the channel list), each channel's state under its own.
 */
static u8 srpt_multichan(struct srpt_ch *ch, u8 req_flags)
{
	struct srpt_target *t = ch->t;
	enum srpt_ch_action act;
	struct srpt_ch *o;
	bool others = false;

	mutex_lock(&t->lock);
	list_for_each_entry(o, &t->channels, entry) {
		if (o == ch || memcmp(o->initiator_port_id, ch->initiator_port_id,
				      sizeof(ch->initiator_port_id)))
			continue;
		if ((req_flags & OIB_SRP_MULTICHAN_MASK) == OIB_SRP_MULTICHAN_MULTI) {
			spin_lock_irq(&o->lock);
			others |= o->state == SRPT_CH_CONNECTING || o->state == SRPT_CH_LIVE;
			spin_unlock_irq(&o->lock);
			continue;
		}
		act = srpt_ch_step(o, SRPT_EV_STOP);
		others |= act == SRPT_ACT_RELEASE || act == SRPT_ACT_LOGOUT;
	}
	mutex_unlock(&t->lock);
	if (!others)
		return OIB_SRP_LOGIN_RSP_MULTICHAN_NO_CHAN;
	if ((req_flags & OIB_SRP_MULTICHAN_MASK) == OIB_SRP_MULTICHAN_MULTI)
		return OIB_SRP_LOGIN_RSP_MULTICHAN_MAINTAINED;
	return OIB_SRP_LOGIN_RSP_MULTICHAN_TERMINATED;
}

static int srpt_accept(struct srpt_ch *ch, const struct oib_cma_event *ev, u64 tag, u8 result)
{
	struct oib_srp_login_answer a = {
		.tag = tag, .req_lim_delta = SRPT_RQ_SIZE, .max_it_iu_len = ch->it_iu_len,
		.max_ti_iu_len = SRPT_MAX_TI_IU,
		.buf_fmt = OIB_SRP_BUF_FMT_DIRECT | OIB_SRP_BUF_FMT_INDIRECT,
		.flags = result | (ch->imm_off ? OIB_SRP_LOGIN_RSP_IMMED_SUPP : 0),
	};
	u8 rsp[sizeof(struct oib_srp_login_rsp)];
	struct oib_cma_conn_param p = {
		.private_data = rsp, .private_data_len = sizeof(rsp),
		.responder_resources = ev->param.conn.initiator_depth,
		.initiator_depth = ev->param.conn.responder_resources,
		.retry_count = 7, .rnr_retry_count = 7,
	};

	oib_srp_pack_login_rsp(rsp, &a);
	ch->granted = SRPT_RQ_SIZE;
	return oib_cma_accept(ch->id, &p);
}

/* A channel for @id on the target's list; NULL if the target goes or there is no memory. */
static struct srpt_ch *srpt_ch_new(struct srpt_target *t, struct oib_cma_id *id,
				   u32 it_iu_len)
{
	struct srpt_ch *ch = srpt_ch_alloc(t, id, it_iu_len);

	if (!ch)
		return NULL;
	mutex_lock(&t->lock);
	if (t->stopping) {
		mutex_unlock(&t->lock);
		srpt_ch_free(ch);
		return NULL;
	}
	list_add_tail(&ch->entry, &t->channels);
	atomic_inc(&t->stats.channels);
	mutex_unlock(&t->lock);
	return ch;
}

/* A channel whose accept failed: RELEASING first, so the drain's flushes queue nothing. */
static void srpt_ch_abort(struct srpt_ch *ch)
{
	spin_lock_irq(&ch->lock);
	ch->state = SRPT_CH_RELEASING;
	spin_unlock_irq(&ch->lock);
	srpt_ch_objects_free(ch);
	srpt_ch_unlink_free(ch);
}

/* CONNECT_REQUEST on a new id: the login.  Non-zero: the CMA destroys the id. */
static int srpt_connect_request(struct oib_cma_id *id, const struct oib_cma_event *ev)
{
	struct srpt_target *t = id->context;
	struct oib_srp_login l;
	struct srpt_ch *ch;
	u32 reason;

	reason = srpt_login_check(t, id, ev, &l);
	if (reason)
		return srpt_reject(t, id, l.tag, reason);
	ch = srpt_ch_new(t, id, l.it_iu_len);
	if (!ch)
		return srpt_reject(t, id, l.tag, OIB_SRP_REJ_INSUFFICIENT_RESOURCES);
	ch->imm_off = srpt_imm_offset(&l);
	memcpy(ch->initiator_port_id, l.initiator_port_id, sizeof(ch->initiator_port_id));
	srpt_ch_step(ch, SRPT_EV_LOGIN_OK);
	if (srpt_ch_objects(ch) || srpt_accept(ch, ev, l.tag, srpt_multichan(ch, l.flags))) {
		srpt_ch_abort(ch);
		return srpt_reject(t, id, l.tag, OIB_SRP_REJ_INSUFFICIENT_RESOURCES);
	}
	id->context = ch;
	atomic_inc(&t->stats.logins);
	return 0;
}

int srpt_cma_handler(struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct srpt_ch *ch = id->context;

	if (ev->event == OIB_CMA_EVENT_CONNECT_REQUEST)
		return srpt_connect_request(id, ev);
	if (ch->kind != SRPT_KIND_CHANNEL)
		return 0;	/* the wildcard listener has no device to lose */
	switch (ev->event) {
	case OIB_CMA_EVENT_ESTABLISHED:
		srpt_ch_step(ch, SRPT_EV_ESTABLISHED);
		break;
	case OIB_CMA_EVENT_DISCONNECTED:
	case OIB_CMA_EVENT_REJECTED:
	case OIB_CMA_EVENT_CONNECT_ERROR:
	case OIB_CMA_EVENT_UNREACHABLE:
		srpt_ch_step(ch, SRPT_EV_CM_GONE);
		break;
	case OIB_CMA_EVENT_DEVICE_REMOVAL:
		srpt_ch_step(ch, SRPT_EV_DEVICE_REMOVAL);
		break;
	default:
		break;
	}
	return 0;
}

void srpt_ch_stop(struct srpt_ch *ch)
{
	srpt_ch_step(ch, SRPT_EV_STOP);
}
