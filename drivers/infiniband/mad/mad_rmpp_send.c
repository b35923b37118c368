// SPDX-License-Identifier: GPL-2.0-only
/*
 * RMPP sends (IBTA 13.6): a message longer than one MAD leaves as DATA segments, in trains of up to
 * MAD_RMPP_TRAIN work requests posted as one chain (only the last signalled), one train on the QP
 * at a time, within the window the receiver opens with its ACKs.  An ACK for less than we sent
 * means the segment after it was lost: sending goes back there, once per hole.  A wait for an ACK
 * that expires sends the rest of the window again, up to MAD_RMPP_RETRIES times without progress.
 * The receiver may end the transfer with STOP or ABORT; this side ends it with ABORT when it gives
 * up or is cancelled (mad_send.c decides, this file sends it).
 *
 * The transfer's states are the send MAD's (QUEUED, POSTED, WAIT_ACK), changed by mad_fsm(); the
 * window is data beside them, under the port lock.  This file calls mad_send.c and mad_port.c and
 * they call it, as the concept needs: a send MAD's completion asks here what comes next for its
 * transfer, the port's window has its trains built here, and an ACK, STOP or ABORT moves the MAD
 * on through the same backlog, timeout, window and done list as any send.  Receiving is
 * mad_rmpp_recv.c.
 */
#include "mad_priv.h"

bool mad_is_rmpp(const struct oib_mad_hdr *hdr)
{
	return oib_mad_class_uses_rmpp(hdr->mgmt_class) &&
	       (mad_rmpp_hdr(hdr)->rmpp_rtime_flags & OIB_RMPP_FLAG_ACTIVE);
}

/* A MAD: @hdr_len bytes of headers from @hdr, then this RMPP header. */
void mad_rmpp_fill(void *mad, const void *hdr, size_t hdr_len, u8 type, u8 flags, u8 status,
		   u32 seg, u32 paylen_newwin)
{
	struct oib_rmpp_hdr *rh = mad + OIB_MAD_HDR_SIZE;

	memcpy(mad, hdr, hdr_len);
	rh->rmpp_version = OIB_RMPP_VERSION;
	rh->rmpp_type = type;
	rh->rmpp_rtime_flags = (OIB_RMPP_NO_RESPTIME << 3) | OIB_RMPP_FLAG_ACTIVE | flags;
	rh->rmpp_status = status;
	rh->seg_num = cpu_to_be32(seg);
	rh->paylen_newwin = cpu_to_be32(paylen_newwin);
}

/* From the first segment, with a window of one until the receiver says more. */
void mad_rmpp_start(struct mad_send *ms)
{
	ms->seg_next = 1;
	ms->last_ack = 0;
	ms->win_last = 1;
	ms->back_to = 0;
	ms->ack_retries = MAD_RMPP_RETRIES;
}

/*
 * Lay segment seg_next out in @seg (a work request's buffer) and move on.  The payload length
 * counts what follows the RMPP header in every segment, the class headers included, less the
 * padding of the last: all of it in the first segment, the last segment's share in the last.
 */
static void mad_rmpp_build_seg(struct mad_send *ms, u8 *seg)
{
	size_t hdr_len = ms->buf.hdr_len, per = OIB_MAD_SIZE - hdr_len;
	size_t pad = ms->seg_count * per - ms->buf.data_len;
	u32 n = ms->seg_next++, paylen = 0;
	size_t off = (n - 1) * per, len = min(per, ms->buf.data_len - off);
	u8 flags = 0;

	if (n == 1) {
		flags |= OIB_RMPP_FLAG_FIRST;
		paylen = ms->seg_count * OIB_MAD_RMPP_SEG_PAYLOAD - pad;
	}
	if (n == ms->seg_count) {
		flags |= OIB_RMPP_FLAG_LAST;
		paylen = OIB_MAD_RMPP_SEG_PAYLOAD - pad;
	}
	mad_rmpp_fill(seg, ms->msg, hdr_len, OIB_RMPP_TYPE_DATA, flags, 0, n, paylen);
	memcpy(seg + hdr_len, ms->msg + hdr_len + off, len);
	memset(seg + hdr_len + len, 0, per - len);
}

/*
 * The next train of segments, in the train's buffers: as many as the window, MAD_RMPP_TRAIN and
 * @room (free work request slots on the port, at least 1) allow, and at least one (after a
 * timeout, the segment after the last acknowledged goes even if the window ends before it).
 * Returns how many; their work requests go as one chain.
 */
unsigned int mad_rmpp_build_train(struct mad_send *ms, unsigned int room)
{
	unsigned int n = 0, max = min_t(unsigned int, room, MAD_RMPP_TRAIN);

	do {
		mad_rmpp_build_seg(ms, ms->train + n * OIB_MAD_SIZE);
		n++;
	} while (n < max && ms->seg_next <= ms->win_last);
	return n;
}

/*
 * Its train's last work request completed well (POSTED, port lock held): the next train, or the
 * wait for an ACK.  False once every segment is acknowledged: the MAD ends like any other.
 */
bool mad_rmpp_sent(struct mad_port *port, struct mad_send *ms)
{
	lockdep_assert_held(&port->lock);
	if (ms->last_ack == ms->seg_count)
		return false;
	if (ms->seg_next <= ms->win_last) {
		mad_fsm(ms, MAD_EV_SENT_MORE);
		mad_backlog_add(port, ms);
	} else {
		mad_fsm(ms, MAD_EV_SENT_ACK);
		mad_arm_timeout(ms->agent, ms, READ_ONCE(port->rmpp_ack_ms));
	}
	return true;
}

/* Is the transfer under way: segments unacknowledged, in a state that takes ACKs? */
static bool mad_rmpp_in_transfer(const struct mad_send *ms)
{
	return mad_fsm_accepts(ms->state, MAD_EV_ACK) && ms->last_ack < ms->seg_count;
}

/*
 * The RMPP send of ours an ACK, STOP or ABORT is about (by TID and class), or NULL: the oldest
 * still in transfer, else any (a late copy, for a transfer that ended).
 */
static struct mad_send *mad_rmpp_find(struct mad_port *port, const struct oib_mad_hdr *hdr)
{
	struct mad_send *ms, *ended = NULL;
	struct mad_agent *ma;

	lockdep_assert_held(&port->lock);
	list_for_each_entry(ma, &port->agents, port_link) {
		if (ma->dead || !ma->rmpp)
			continue;
		list_for_each_entry(ms, &ma->sends, agent_link) {
			const struct oib_mad_hdr *mine = ms->buf.mad;

			if (!ms->rmpp || mine->tid != hdr->tid ||
			    mine->mgmt_class != hdr->mgmt_class)
				continue;
			if (mad_rmpp_in_transfer(ms))
				return ms;
			ended = ended ?: ms;
		}
	}
	return ended;
}

/* An ACK: segments 1..@seg arrived, the receiver takes up to @newwin. */
static void mad_rmpp_ack_locked(struct mad_port *port, struct mad_send *ms, u32 seg, u32 newwin)
{
	enum mad_state from = ms->state;
	bool progress = seg > ms->last_ack;
	enum mad_event ev;

	lockdep_assert_held(&port->lock);
	if (!mad_rmpp_in_transfer(ms) || seg < ms->last_ack)
		return;		/* a late copy */
	if (seg > ms->seg_count || newwin < seg) {
		ms->abort_peer = true;
		ms->rmpp_status = seg > ms->seg_count ? OIB_RMPP_STATUS_S2B : OIB_RMPP_STATUS_W2S;
		mad_send_cancel_locked(ms, OIB_MAD_SEND_ABORTED);
		return;
	}
	if (progress) {
		ms->last_ack = seg;
		ms->ack_retries = MAD_RMPP_RETRIES;
	}
	if (ms->seg_next <= seg) {
		ms->seg_next = seg + 1;
	} else if (ms->seg_next > seg + 1 && ms->back_to != seg + 1) {
		ms->seg_next = seg + 1;		/* it lacks seg + 1: from there, once */
		ms->back_to = seg + 1;
	}
	ms->win_last = max(ms->win_last, min(newwin, ms->seg_count));

	if (seg == ms->seg_count)
		ev = ms->timeout_ms ? MAD_EV_ACKED_WAIT : MAD_EV_ACKED_DONE;
	else if (ms->seg_next <= ms->win_last)
		ev = MAD_EV_ACK_MORE;
	else
		ev = MAD_EV_ACK;
	if (from == MAD_QUEUED && seg == ms->seg_count)
		list_del_init(&ms->port_link);		/* nothing left to send */
	mad_fsm(ms, ev);
	if (from == MAD_POSTED)
		return;		/* its work request's completion decides what is next */
	switch (ms->state) {
	case MAD_QUEUED:
		if (from == MAD_WAIT_ACK)
			mad_backlog_add(port, ms);
		break;
	case MAD_WAIT_ACK:
		if (progress)
			mad_arm_timeout(ms->agent, ms, READ_ONCE(port->rmpp_ack_ms));
		break;
	case MAD_WAIT_RESP:
		mad_arm_timeout(ms->agent, ms, ms->timeout_ms);
		break;
	case MAD_DONE:
		mad_send_finish_locked(port, ms);
		break;
	default:
		break;
	}
}

/*
 * An ACK, STOP or ABORT arrived (port work): applied to the transfer of ours it is about, and what
 * it lets go posted at once (an ACK wait is short).  False if there is none (a STOP or ABORT may
 * be about a message we receive).
 */
bool mad_rmpp_ctl(struct mad_port *port, const struct oib_mad_recv *recv)
{
	const struct oib_mad_hdr *hdr = recv->mad;
	const struct oib_rmpp_hdr *rh = mad_rmpp_hdr(hdr);
	struct mad_send *ms;

	spin_lock_irq(&port->lock);
	ms = mad_rmpp_find(port, hdr);
	if (ms && rh->rmpp_type == OIB_RMPP_TYPE_ACK) {
		mad_port_count(port, OIB_MAD_PORT_RMPP_ACKS_RECV);
		mad_rmpp_ack_locked(port, ms, be32_to_cpu(rh->seg_num),
				    be32_to_cpu(rh->paylen_newwin));
	} else if (ms && mad_rmpp_in_transfer(ms)) {
		mad_port_count(port, OIB_MAD_PORT_RMPP_STOPS_RECV);
		ms->rmpp_status = rh->rmpp_status;
		mad_send_cancel_locked(ms, OIB_MAD_SEND_ABORTED);
	} else {
		ms = NULL;
	}
	mad_port_post_locked(port);
	spin_unlock_irq(&port->lock);
	return ms;
}

/* Tell the receiver of a transfer this side ended with ABORT (port work, before the handlers). */
void mad_rmpp_abort_peer(struct mad_port *port, struct mad_send *ms)
{
	struct oib_mad_send_buf *sb;

	sb = mad_self_buf(port, &ms->buf.ah->attr, ms->buf.remote_qpn, ms->buf.pkey_index);
	if (!sb)
		return;
	mad_rmpp_fill(sb->mad, ms->msg, ms->buf.hdr_len, OIB_RMPP_TYPE_ABORT, 0, ms->rmpp_status,
		      0, 0);
	mad_port_count(port, OIB_MAD_PORT_RMPP_STOPS_SENT);
	mad_self_post(sb);
}
