// SPDX-License-Identifier: GPL-2.0-only
/*
 * Send MADs: the send buffer API, what happens to a MAD when its work request completes, when its
 * response arrives, when its wait expires and when it is cancelled, and the delivery of finished
 * MADs to their agents.  Every state change goes through mad_fsm() under the port lock; every
 * handler call happens in mad_send_deliver_done(), from the port work, with no lock held.
 * The port's window (mad_port.c) posts MADs and reports their completions here; RMPP sends
 * (mad_rmpp_send.c) are send MADs with a window of segments: both call back, as the concept needs.
 */
#include <linux/slab.h>
#include "mad_priv.h"

struct oib_mad_send_buf *oib_create_send_mad(struct oib_mad_agent *agent, struct oib_ah *ah,
					     gfp_t gfp)
{
	struct mad_send *ms;

	if (!agent)
		return ERR_PTR(-EINVAL);
	ms = kzalloc(sizeof(*ms), gfp);
	if (!ms)
		return ERR_PTR(-ENOMEM);
	ms->agent = to_magent(agent);
	ms->state = MAD_IDLE;
	INIT_LIST_HEAD(&ms->agent_link);
	INIT_LIST_HEAD(&ms->port_link);
	ms->buf.agent = agent;
	ms->buf.mad = ms->mad;
	ms->buf.hdr_len = OIB_MAD_SIZE;
	ms->buf.ah = ah;
	ms->buf.remote_qpn = 1;
	ms->buf.remote_qkey = OIB_GSI_QKEY;
	return &ms->buf;
}
EXPORT_SYMBOL(oib_create_send_mad);

struct oib_mad_send_buf *oib_create_rmpp_send_mad(struct oib_mad_agent *agent,
						  struct oib_ah *ah, u8 mgmt_class,
						  size_t data_len, gfp_t gfp)
{
	struct oib_mad_send_buf *buf;
	struct mad_send *ms;
	size_t hdr_len;

	if (!agent || !to_magent(agent)->rmpp || !oib_mad_class_uses_rmpp(mgmt_class) ||
	    data_len > OIB_MAD_RMPP_MAX_DATA)
		return ERR_PTR(-EINVAL);
	buf = oib_create_send_mad(agent, ah, gfp);
	if (IS_ERR(buf))
		return buf;
	ms = to_msend(buf);
	hdr_len = oib_mad_rmpp_hdr_len(mgmt_class);
	ms->msg = kvzalloc(hdr_len + data_len, gfp);
	ms->train = kmalloc_array(MAD_RMPP_TRAIN, OIB_MAD_SIZE, gfp);
	if (!ms->msg || !ms->train) {
		oib_free_send_mad(buf);
		return ERR_PTR(-ENOMEM);
	}
	ms->rmpp = true;
	ms->msg_data_len = data_len;
	ms->seg_count = max_t(size_t, 1, DIV_ROUND_UP(data_len, OIB_MAD_SIZE - hdr_len));
	buf->mad = ms->msg;
	buf->hdr_len = hdr_len;
	buf->data_len = data_len;
	return buf;
}
EXPORT_SYMBOL(oib_create_rmpp_send_mad);

void oib_free_send_mad(struct oib_mad_send_buf *send_buf)
{
	struct mad_send *ms;
	enum mad_state state;

	if (!send_buf)
		return;
	ms = to_msend(send_buf);
	/* The layer owns it between post and send handler: freeing it then is a bug, not done. */
	state = READ_ONCE(ms->state);
	if (WARN_ONCE(state != MAD_IDLE && state != MAD_DONE,
		      "oib_mad: freeing a send buffer in state %s", mad_state_name(state)))
		return;
	kvfree(ms->early_resp);
	kvfree(ms->msg);
	kfree(ms->train);
	kfree(ms);
}
EXPORT_SYMBOL(oib_free_send_mad);

/* The buffer as the layer made it: its MAD where it was, the sizes it was made with. */
static bool mad_buf_intact(const struct mad_send *ms)
{
	const struct oib_mad_send_buf *buf = &ms->buf;

	if (!ms->rmpp)
		return buf->mad == ms->mad && buf->hdr_len == OIB_MAD_SIZE && !buf->data_len;
	return buf->mad == ms->msg && buf->data_len == ms->msg_data_len;
}

/* Where it goes: an AH of the MAD QP's, a QP other than QP0, a P_Key index of the port's. */
static bool mad_dest_valid(const struct mad_send *ms)
{
	const struct oib_mad_send_buf *buf = &ms->buf;
	struct mad_port *port = ms->agent->port;
	const struct oib_port_immutable *imm = oib_port_immutable(port->device, port->port_num);

	return buf->ah && buf->ah->pd == port->pd && buf->remote_qpn &&
	       buf->remote_qpn <= 0xffffff && imm && buf->pkey_index < imm->pkey_tbl_len;
}

static int mad_check_send(struct mad_send *ms)
{
	const struct oib_mad_send_buf *buf = &ms->buf;
	const struct oib_mad_hdr *hdr = buf->mad;
	struct mad_agent *ma = ms->agent;

	if (!mad_buf_intact(ms) || !mad_dest_valid(ms))
		return -EINVAL;
	if (hdr->base_version != OIB_MAD_BASE_VERSION)
		return -EINVAL;
	/* the port's own agent answers requests of any class that reached QP1 */
	if (!mad_class_on_gsi(hdr->mgmt_class) && ma != ma->port->self)
		return -EINVAL;
	if (buf->timeout_ms > OIB_MAD_TIMEOUT_MAX_MS || (buf->retries && !buf->timeout_ms))
		return -EINVAL;
	/* A MAD that waits for a response must be a request, to an agent that can receive. */
	if (buf->timeout_ms && (oib_mad_is_response(hdr) || !ma->agent.recv_handler))
		return -EINVAL;
	/* An RMPP message keeps the class it was sized for. */
	if (ms->rmpp && (!oib_mad_class_uses_rmpp(hdr->mgmt_class) ||
			 oib_mad_rmpp_hdr_len(hdr->mgmt_class) != buf->hdr_len))
		return -EINVAL;
	return 0;
}

/* Onto the end of its backlog: responses (and RMPP responses' segments) before requests. */
void mad_backlog_add(struct mad_port *port, struct mad_send *ms)
{
	lockdep_assert_held(&port->lock);
	list_add_tail(&ms->port_link, ms->is_response ? &port->resp_backlog : &port->req_backlog);
}

/*
 * A request that will wait for its response joins the requests waiting on the port, at most
 * MAD_MAX_AWAITING of them; past that it is held (QUEUED on the held list, in order, no timer)
 * until one of them is done.  So a flood of requests cannot outrun the responder's receive ring
 * and time out in its queue: their timeouts measure the responder, not the flood.
 */
static void mad_admit_locked(struct mad_port *port, struct mad_send *ms)
{
	u64 high;

	lockdep_assert_held(&port->lock);
	if (!ms->timeout_ms) {
		mad_backlog_add(port, ms);
		return;
	}
	if (port->awaiting >= MAD_MAX_AWAITING) {
		list_add_tail(&ms->port_link, &port->held);
		mad_port_count(port, OIB_MAD_PORT_HELD);
		return;
	}
	port->awaiting++;
	ms->admitted = true;
	high = atomic64_read(&port->stats[OIB_MAD_PORT_MAX_AWAITING]);
	if (port->awaiting > high)
		atomic64_set(&port->stats[OIB_MAD_PORT_MAX_AWAITING], port->awaiting);
	mad_backlog_add(port, ms);
}

/* The MAD is done: off the agent's list, onto the port's done list for its handlers. */
void mad_send_finish_locked(struct mad_port *port, struct mad_send *ms)
{
	struct mad_send *next;

	lockdep_assert_held(&port->lock);
	list_del_init(&ms->agent_link);
	list_add_tail(&ms->port_link, &port->done);
	if (!ms->admitted)
		return;
	ms->admitted = false;
	port->awaiting--;
	next = list_first_entry_or_null(&port->held, struct mad_send, port_link);
	if (next) {
		list_del_init(&next->port_link);
		mad_admit_locked(port, next);
	}
}

/* Wait @timeout_ms from now; arm the agent's timeout work if that is due sooner than planned. */
void mad_arm_timeout(struct mad_agent *ma, struct mad_send *ms, unsigned int timeout_ms)
{
	unsigned long now = jiffies;

	lockdep_assert_held(&ma->port->lock);
	ms->deadline = now + msecs_to_jiffies(timeout_ms);
	if (ma->timer_armed && time_before_eq(ma->timer_due, ms->deadline))
		return;
	ma->timer_armed = true;
	ma->timer_due = ms->deadline;
	mod_delayed_work(mad_wq, &ma->timeout_work, ms->deadline - now);
}

int oib_post_send_mad(struct oib_mad_send_buf *send_buf)
{
	struct oib_mad_hdr *hdr;
	struct mad_send *ms;
	struct mad_agent *ma;
	struct mad_port *port;
	unsigned long flags;
	bool kick;
	int ret;

	if (!send_buf)
		return -EINVAL;
	ms = to_msend(send_buf);
	ma = ms->agent;
	port = ma->port;
	ret = mad_check_send(ms);
	if (ret)
		return ret;
	hdr = send_buf->mad;

	spin_lock_irqsave(&port->lock, flags);
	if (ms->state != MAD_IDLE) {
		ret = -EINVAL;
		goto out;
	}
	if (ma->dead || port->dying) {
		ret = -ENODEV;
		goto out;
	}
	if (send_buf->timeout_ms)
		hdr->tid = cpu_to_be64(((u64)ma->agent.hi_tid << 32) |
				       (be64_to_cpu(hdr->tid) & 0xffffffff));
	ms->timeout_ms = send_buf->timeout_ms;
	ms->retries_left = send_buf->retries;
	/* the layer's own MADs (answers, RMPP ACK/STOP/ABORT) are replies too */
	ms->is_response = oib_mad_is_response(hdr) || ma == port->self;
	ms->status = OIB_MAD_SEND_OK;
	if (ms->rmpp)
		mad_rmpp_start(ms);
	refcount_inc(&ma->refs);	/* until its send handler returned */
	list_add_tail(&ms->agent_link, &ma->sends);
	mad_fsm(ms, MAD_EV_POST);
	mad_admit_locked(port, ms);
	mad_agent_count(ma, OIB_MAD_AGENT_SENT);
	mad_port_post_locked(port);
out:
	kick = !list_empty(&port->done);
	spin_unlock_irqrestore(&port->lock, flags);
	if (kick)
		mad_port_kick_outside(port);
	return ret;
}
EXPORT_SYMBOL(oib_post_send_mad);

/* Its work request completed (or will never complete: flushed) with @status. */
void mad_send_wr_done(struct mad_port *port, struct mad_send *ms, enum oib_wc_status status)
{
	lockdep_assert_held(&port->lock);
	list_del_init(&ms->port_link);
	port->outstanding -= ms->wr_count;
	ms->sent = true;
	if (status == OIB_WC_SUCCESS) {
		if (ms->state == MAD_POSTED && ms->rmpp && mad_rmpp_sent(port, ms))
			return;		/* more segments, or their ACKs, to come */
		if (ms->state == MAD_POSTED && ms->timeout_ms) {
			mad_fsm(ms, MAD_EV_SENT_WAIT);
			mad_arm_timeout(ms->agent, ms, ms->timeout_ms);
			return;
		}
		mad_fsm(ms, MAD_EV_SENT_DONE);
	} else {
		mad_port_count(port, OIB_MAD_PORT_SEND_ERRORS);
		if (ms->state == MAD_POSTED) {
			ms->status = status == OIB_WC_WR_FLUSH_ERR ? OIB_MAD_SEND_FLUSHED :
								    OIB_MAD_SEND_ERROR;
			ms->wc_status = status;
		}
		mad_fsm(ms, MAD_EV_SEND_ERR);
	}
	mad_send_finish_locked(port, ms);
}

/*
 * Cancel (or flush or abort, by @status) one MAD.  Queued or waiting: done now.  With its work
 * request on the QP: CANCELLED, done when that completes.  False if it is past cancelling.  An
 * RMPP transfer ended by this side tells its receiver with ABORT.
 */
bool mad_send_cancel_locked(struct mad_send *ms, enum oib_mad_send_status status)
{
	struct mad_port *port = ms->agent->port;

	lockdep_assert_held(&port->lock);
	if (!mad_fsm_accepts(ms->state, MAD_EV_CANCEL))
		return false;
	if (ms->state == MAD_QUEUED)
		list_del_init(&ms->port_link);	/* off its backlog or the held list */
	if (ms->rmpp && status != OIB_MAD_SEND_ABORTED && ms->seg_next > 1 &&
	    ms->last_ack < ms->seg_count && ms->state != MAD_WAIT_RESP &&
	    ms->state != MAD_RESP_EARLY) {
		ms->abort_peer = true;
		ms->rmpp_status = OIB_RMPP_STATUS_UNSPEC;
	}
	ms->status = status;
	mad_fsm(ms, MAD_EV_CANCEL);
	if (ms->state == MAD_DONE) {
		mad_send_finish_locked(port, ms);
	} else {	/* CANCELLED: its work requests are still on the QP */
		kvfree(ms->early_resp);
		ms->early_resp = NULL;
	}
	return true;
}

void mad_flush_agent_locked(struct mad_agent *ma, enum oib_mad_send_status status)
{
	struct mad_send *ms, *next;

	lockdep_assert_held(&ma->port->lock);
	list_for_each_entry_safe(ms, next, &ma->sends, agent_link)
		mad_send_cancel_locked(ms, status);
}

int oib_cancel_mad(struct oib_mad_send_buf *send_buf)
{
	struct mad_port *port;
	struct mad_send *ms;
	unsigned long flags;
	bool done;

	if (!send_buf)
		return -EINVAL;
	ms = to_msend(send_buf);
	port = ms->agent->port;
	spin_lock_irqsave(&port->lock, flags);
	done = mad_send_cancel_locked(ms, OIB_MAD_SEND_CANCELLED);
	spin_unlock_irqrestore(&port->lock, flags);
	if (done)
		mad_port_kick_outside(port);
	return done ? 0 : -ENOENT;
}
EXPORT_SYMBOL(oib_cancel_mad);

int oib_modify_mad(struct oib_mad_send_buf *send_buf, unsigned int timeout_ms)
{
	struct mad_port *port;
	struct mad_send *ms;
	unsigned long flags;
	int ret = 0;

	if (!send_buf || timeout_ms > OIB_MAD_TIMEOUT_MAX_MS)
		return -EINVAL;
	if (!timeout_ms)
		return oib_cancel_mad(send_buf);
	ms = to_msend(send_buf);
	port = ms->agent->port;
	spin_lock_irqsave(&port->lock, flags);
	if (!mad_fsm_waiting(ms->state)) {
		ret = -ENOENT;
	} else if (!ms->timeout_ms) {
		ret = -EINVAL;		/* it awaits no response: nothing to time */
	} else {
		ms->timeout_ms = timeout_ms;
		if (ms->state == MAD_WAIT_RESP)
			mad_arm_timeout(ms->agent, ms, timeout_ms);
	}
	spin_unlock_irqrestore(&port->lock, flags);
	return ret;
}
EXPORT_SYMBOL(oib_modify_mad);

/* The agent's waits: expire what is due (resend or time out), re-arm for the next deadline. */
void mad_timeout_work(struct work_struct *work)
{
	struct mad_agent *ma = container_of(to_delayed_work(work), struct mad_agent,
					    timeout_work);
	struct mad_port *port = ma->port;
	struct mad_send *ms, *next;
	unsigned long now = jiffies, due = 0;
	bool any = false, kick;

	spin_lock_irq(&port->lock);
	ma->timer_armed = false;
	list_for_each_entry_safe(ms, next, &ma->sends, agent_link) {
		unsigned int *left;

		if (!mad_fsm_accepts(ms->state, MAD_EV_TIMEOUT))
			continue;
		if (time_before(now, ms->deadline)) {
			if (!any || time_before(ms->deadline, due))
				due = ms->deadline;
			any = true;
			continue;
		}
		mad_port_count(port, OIB_MAD_PORT_TIMEOUTS);
		mad_agent_count(ma, OIB_MAD_AGENT_TIMEOUTS);
		left = ms->state == MAD_WAIT_ACK ? &ms->ack_retries : &ms->retries_left;
		if (*left) {
			(*left)--;
			mad_port_count(port, OIB_MAD_PORT_RETRIES);
			mad_agent_count(ma, OIB_MAD_AGENT_RETRIES);
			/* RMPP: the rest of the window again, or (no response) all of it */
			if (ms->state == MAD_WAIT_ACK)
				ms->seg_next = ms->last_ack + 1;
			else if (ms->rmpp)
				mad_rmpp_start(ms);
			mad_fsm(ms, MAD_EV_RETRY);
			mad_backlog_add(port, ms);
		} else {
			if (ms->state == MAD_WAIT_ACK) {
				ms->abort_peer = true;
				ms->rmpp_status = OIB_RMPP_STATUS_TMR;
			}
			ms->status = OIB_MAD_SEND_RESP_TIMEOUT;
			mad_fsm(ms, MAD_EV_TIMEOUT);
			mad_send_finish_locked(port, ms);
		}
	}
	if (any && !ma->dead) {
		ma->timer_armed = true;
		ma->timer_due = due;
		mod_delayed_work(mad_wq, &ma->timeout_work, due - now);
	}
	mad_port_post_locked(port);
	kick = !list_empty(&port->done);
	spin_unlock_irq(&port->lock);
	if (kick)
		mad_port_kick(port);
}

/* The request of ours that @hdr answers, if it still expects an answer (port lock held). */
static struct mad_send *mad_send_find_request(struct mad_port *port, const struct oib_mad_hdr *hdr)
{
	u32 hi_tid = be64_to_cpu(hdr->tid) >> 32;
	struct mad_send *ms;
	struct mad_agent *ma;

	lockdep_assert_held(&port->lock);
	list_for_each_entry(ma, &port->agents, port_link) {
		if (ma->agent.hi_tid != hi_tid || ma->dead)
			continue;
		list_for_each_entry(ms, &ma->sends, agent_link) {
			const struct oib_mad_hdr *req = ms->buf.mad;

			if (req->tid != hdr->tid || req->mgmt_class != hdr->mgmt_class ||
			    !ms->timeout_ms)
				continue;
			/* a queued MAD only after a try was sent: a late response to it */
			if (mad_fsm_accepts(ms->state, MAD_EV_RESP) &&
			    (ms->state != MAD_QUEUED || ms->sent))
				return ms;
			return NULL;
		}
		return NULL;
	}
	return NULL;
}

/*
 * A segment of an RMPP response arrived: the agent whose request it answers, with a reference
 * for the caller to drop, if that agent has the layer reassemble for it; its request's wait
 * starts again, the responder being busy answering.
 */
struct mad_agent *mad_send_rmpp_requester(struct mad_port *port, const struct oib_mad_hdr *hdr)
{
	struct mad_agent *ma = NULL;
	struct mad_send *ms;

	spin_lock_irq(&port->lock);
	ms = mad_send_find_request(port, hdr);
	if (ms && ms->agent->rmpp) {
		ma = ms->agent;
		refcount_inc(&ma->refs);
		if (ms->state == MAD_WAIT_RESP)
			mad_arm_timeout(ma, ms, ms->timeout_ms);
	}
	spin_unlock_irq(&port->lock);
	return ma;
}

/*
 * A response arrived (@copy: GRH and MAD or whole RMPP message, @recv->len bytes of MAD, ours
 * to free).  If it answers a request of ours still expecting it (by agent, TID and class), hand
 * it to that MAD: kept until the send completed, delivered with it.  False if it answers
 * nothing (unsolicited, duplicate, late, cancelled).
 */
bool mad_send_match_response(struct mad_port *port, u8 *copy, const struct oib_mad_recv *recv)
{
	struct mad_send *ms;

	spin_lock_irq(&port->lock);
	ms = mad_send_find_request(port, recv->mad);
	if (ms) {
		ms->early_resp = copy;
		ms->resp = *recv;
		ms->resp.grh = copy;
		ms->resp.mad = (const void *)(copy + OIB_MAD_GRH_SIZE);
		copy = NULL;
		if (ms->state == MAD_QUEUED)	/* a resend was waiting: no need now */
			list_del_init(&ms->port_link);
		ms->abort_peer = false;		/* the response says it got through */
		mad_fsm(ms, MAD_EV_RESP);
		if (ms->state == MAD_DONE)
			mad_send_finish_locked(port, ms);
	}
	spin_unlock_irq(&port->lock);
	kvfree(copy);
	return ms;
}

/* Call the handlers of every finished MAD, in the order they finished. */
void mad_send_deliver_done(struct mad_port *port)
{
	struct oib_mad_send_wc wc;
	struct mad_send *ms;
	struct mad_agent *ma;

	for (;;) {
		spin_lock_irq(&port->lock);
		ms = list_first_entry_or_null(&port->done, struct mad_send, port_link);
		if (ms)
			list_del_init(&ms->port_link);
		spin_unlock_irq(&port->lock);
		if (!ms)
			break;

		ma = ms->agent;
		if (ms->abort_peer)
			mad_rmpp_abort_peer(port, ms);
		if (ms->early_resp && ms->status == OIB_MAD_SEND_OK) {
			mad_agent_count(ma, OIB_MAD_AGENT_RECEIVED);
			ma->agent.recv_handler(&ma->agent, &ms->buf, &ms->resp);
		}
		kvfree(ms->early_resp);
		ms->early_resp = NULL;
		wc = (struct oib_mad_send_wc){ .send_buf = &ms->buf, .status = ms->status,
					       .wc_status = ms->wc_status,
					       .rmpp_status = ms->rmpp_status };
		mad_agent_count(ma, OIB_MAD_AGENT_COMPLETED);
		ma->agent.send_handler(&ma->agent, &wc);	/* may free ms */
		mad_agent_put(ma);
	}
}
