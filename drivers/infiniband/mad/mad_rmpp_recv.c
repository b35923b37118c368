// SPDX-License-Identifier: GPL-2.0-only
/*
 * RMPP receives (IBTA 13.6): the DATA segments of a message are taken in order into one buffer,
 * and the whole message goes to its agent (a request) or to the request it answers (a response).
 * The receiver opens a window of MAD_RMPP_WINDOW segments at a time and acknowledges the last
 * segment of each; a segment it already has is acknowledged again (the sender missed an ACK);
 * the first segment past a gap is answered once with an ACK for what it has (the sender goes
 * back); anything else out of order is dropped.  A message beyond the agent's reassembly budget
 * is refused with STOP, an inconsistent one ended with ABORT; a transfer with no progress for
 * MAD_REASM_IDLE is dropped.  After its last segment a transfer is remembered for
 * MAD_REASM_TIME_WAIT, to acknowledge its end again should the sender send it again.
 *
 * It all runs in the port work, which alone uses the port's table of transfers.  ACK, STOP and
 * ABORT go out through the port's own agent (mad_self.c); a whole response goes to the request it
 * answers through mad_send.c.  Sending is mad_rmpp_send.c.
 */
#include <linux/slab.h>
#include "mad_priv.h"

enum mad_reasm_state {
	REASM_ACTIVE,		/* segments arriving */
	REASM_TIME_WAIT,	/* delivered; its end is acknowledged again if resent */
};

/*
 * A message being received, in port->reasm from its first segment until it is dropped or its
 * time-wait ends.  It holds a reference on its agent all that while, and charges the agent's
 * budget for itself and its buffer.
 */
struct mad_reasm {
	struct hlist_node link;
	struct mad_agent *ma;
	enum mad_reasm_state state;
	bool gap_acked;			/* the current gap was answered */
	__be64 tid;
	u8 mgmt_class;
	u32 src_qp;
	u16 pkey_index;
	union oib_gid peer;
	u8 grh[OIB_MAD_GRH_SIZE];	/* where it comes from, to answer there */
	u8 hdr[OIB_MAD_SA_HDR_SIZE];	/* the first segment's headers, hdr_len bytes */
	size_t hdr_len;
	u32 expected;			/* the next segment to take */
	u32 win_last;			/* the last one the window takes */
	u32 paylen;			/* the first segment's payload length (0: not given) */
	u32 seg_count;			/* from it; 0 if not given */
	u8 *buf;			/* GRH, headers, data so far: len of cap bytes */
	size_t len, cap;
	unsigned long expires;
};

/* Bytes of data (class headers excluded) that @paylen of payload in @segs segments carries. */
static long mad_reasm_data_len(u32 paylen, u32 segs, size_t hdr_len)
{
	return (long)paylen - (long)segs * (long)(hdr_len - OIB_MAD_RMPP_HDR_SIZE);
}

static struct mad_reasm *mad_reasm_find(struct mad_port *port, const struct oib_mad_recv *recv,
					const union oib_gid *peer)
{
	const struct oib_mad_hdr *hdr = recv->mad;
	struct mad_reasm *r;

	hash_for_each_possible(port->reasm, r, link, (u32)be64_to_cpu(hdr->tid))
		if (r->tid == hdr->tid && r->mgmt_class == hdr->mgmt_class &&
		    r->src_qp == recv->src_qp && !memcmp(&r->peer, peer, sizeof(*peer)))
			return r;
	return NULL;
}

/* ACK, STOP or ABORT to the sender of @r. */
static void mad_reasm_reply(struct mad_port *port, struct mad_reasm *r, u8 type, u8 status,
			    u32 seg, u32 newwin)
{
	struct oib_mad_send_buf *sb;
	struct oib_ah_attr attr;

	if (mad_ah_attr_from_grh(port, r->grh, &attr))
		return;
	sb = mad_self_buf(port, &attr, r->src_qp, r->pkey_index);
	if (!sb)
		return;
	mad_rmpp_fill(sb->mad, r->hdr, r->hdr_len, type, 0, status, seg, newwin);
	mad_port_count(port, type == OIB_RMPP_TYPE_ACK ? OIB_MAD_PORT_RMPP_ACKS_SENT :
							 OIB_MAD_PORT_RMPP_STOPS_SENT);
	mad_self_post(sb);
}

static void mad_reasm_ack(struct mad_port *port, struct mad_reasm *r)
{
	mad_reasm_reply(port, r, OIB_RMPP_TYPE_ACK, 0, r->expected - 1, r->win_last);
}

static void mad_reasm_free_buf(struct mad_reasm *r)
{
	r->ma->reasm_bytes -= r->cap;
	kvfree(r->buf);
	r->buf = NULL;
	r->cap = 0;
}

static void mad_reasm_free(struct mad_port *port, struct mad_reasm *r)
{
	if (r->state == REASM_ACTIVE)
		mad_port_count(port, OIB_MAD_PORT_RMPP_DISCARDED);
	mad_reasm_free_buf(r);
	r->ma->reasm_bytes -= sizeof(*r);
	hash_del(&r->link);
	mad_agent_put(r->ma);
	kfree(r);
}

/* End @r with ABORT (or STOP) and @status. */
static void mad_reasm_abort_with(struct mad_port *port, struct mad_reasm *r, u8 type, u8 status)
{
	mad_reasm_reply(port, r, type, status, 0, 0);
	mad_reasm_free(port, r);
}

/* Room for @need bytes, within the agent's budget: false if there is none. */
static bool mad_reasm_reserve(struct mad_reasm *r, size_t need)
{
	struct mad_agent *ma = r->ma;
	size_t cap;
	u8 *buf;

	if (need <= r->cap)
		return true;
	cap = r->seg_count ? need : max(need, 2 * r->cap);
	if (ma->reasm_bytes - r->cap + cap > ma->rmpp_max) {
		cap = need;
		if (ma->reasm_bytes - r->cap + cap > ma->rmpp_max)
			return false;
	}
	buf = kvmalloc(cap, GFP_KERNEL);
	if (!buf)
		return false;
	memcpy(buf, r->buf, r->len);
	kvfree(r->buf);
	ma->reasm_bytes += cap - r->cap;
	r->buf = buf;
	r->cap = cap;
	return true;
}

/* Make room in @ma's budget: forget its transfers in time-wait, the cheapest to lose. */
static void mad_reasm_evict(struct mad_port *port, struct mad_agent *ma)
{
	struct hlist_node *next;
	struct mad_reasm *r;
	int bkt;

	hash_for_each_safe(port->reasm, bkt, next, r, link)
		if (r->ma == ma && r->state == REASM_TIME_WAIT)
			mad_reasm_free(port, r);
}

/* A first segment: a new transfer for @ma, or NULL (refused with STOP or ABORT, or no memory). */
static struct mad_reasm *mad_reasm_new(struct mad_port *port, struct mad_agent *ma, const u8 *buf,
				       const struct oib_mad_recv *recv,
				       const union oib_gid *peer)
{
	const struct oib_mad_hdr *hdr = recv->mad;
	u32 paylen = be32_to_cpu(mad_rmpp_hdr(hdr)->paylen_newwin);
	size_t hdr_len = oib_mad_rmpp_hdr_len(hdr->mgmt_class);
	size_t per = OIB_MAD_SIZE - hdr_len;
	struct mad_reasm *r;
	long data = per;
	u8 type = 0, status = 0;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return NULL;
	r->ma = ma;
	r->state = REASM_ACTIVE;
	r->tid = hdr->tid;
	r->mgmt_class = hdr->mgmt_class;
	r->src_qp = recv->src_qp;
	r->pkey_index = recv->pkey_index;
	r->peer = *peer;
	memcpy(r->grh, buf, OIB_MAD_GRH_SIZE);
	memcpy(r->hdr, hdr, hdr_len);
	r->hdr_len = hdr_len;
	r->expected = 1;
	r->win_last = 1;
	r->paylen = paylen;
	if (paylen) {
		r->seg_count = DIV_ROUND_UP(paylen, OIB_MAD_RMPP_SEG_PAYLOAD);
		data = mad_reasm_data_len(paylen, r->seg_count, hdr_len);
	}
	refcount_inc(&ma->refs);
	ma->reasm_bytes += sizeof(*r);
	hash_add(port->reasm, &r->link, (u32)be64_to_cpu(hdr->tid));
	if (!READ_ONCE(port->dying))	/* expiry ticks while any transfer is kept */
		queue_delayed_work(mad_wq, &port->reasm_tick, MAD_REASM_TICK);

	if (data < 0) {
		type = OIB_RMPP_TYPE_ABORT;
		status = OIB_RMPP_STATUS_BAD_LEN;
	} else if (!mad_reasm_reserve(r, OIB_MAD_GRH_SIZE + hdr_len + data)) {
		mad_reasm_evict(port, ma);
		if (!mad_reasm_reserve(r, OIB_MAD_GRH_SIZE + hdr_len + data)) {
			type = OIB_RMPP_TYPE_STOP;
			status = OIB_RMPP_STATUS_RESX;
		}
	}
	if (type) {
		mad_reasm_abort_with(port, r, type, status);
		return NULL;
	}
	memcpy(r->buf, buf, OIB_MAD_GRH_SIZE);
	memcpy(r->buf + OIB_MAD_GRH_SIZE, hdr, hdr_len);
	r->len = OIB_MAD_GRH_SIZE + hdr_len;
	return r;
}

/* The whole message: to its agent, or to the request it answers; then the time-wait. */
static void mad_reasm_deliver(struct mad_port *port, struct mad_reasm *r)
{
	struct oib_mad_recv recv = {
		.grh = r->buf, .mad = (const void *)(r->buf + OIB_MAD_GRH_SIZE),
		.len = r->len - OIB_MAD_GRH_SIZE, .port_num = port->port_num,
		.src_qp = r->src_qp, .pkey_index = r->pkey_index,
	};
	struct mad_agent *ma = r->ma;

	mad_port_count(port, OIB_MAD_PORT_RMPP_REASSEMBLED);
	if (oib_mad_is_response(recv.mad)) {
		u8 *buf = r->buf;

		/* the matched request takes the buffer, and frees it */
		ma->reasm_bytes -= r->cap;
		r->buf = NULL;
		r->cap = 0;
		if (!mad_send_match_response(port, buf, &recv))
			mad_port_count(port, OIB_MAD_PORT_DROP_UNMATCHED);
	} else if (!READ_ONCE(ma->dead)) {
		mad_agent_count(ma, OIB_MAD_AGENT_RECEIVED);
		ma->agent.recv_handler(&ma->agent, NULL, &recv);
	}
	mad_reasm_free_buf(r);
	r->state = REASM_TIME_WAIT;
	r->expires = jiffies + READ_ONCE(port->reasm_time_wait);
}

/* Take segment @seg (the expected one) of @r; false if it ended the transfer in error. */
static bool mad_reasm_take(struct mad_port *port, struct mad_reasm *r,
			   const struct oib_mad_hdr *hdr, u32 seg)
{
	const struct oib_rmpp_hdr *rh = mad_rmpp_hdr(hdr);
	u8 flags = rh->rmpp_rtime_flags;
	bool first = flags & OIB_RMPP_FLAG_FIRST, last = flags & OIB_RMPP_FLAG_LAST;
	bool is_first = seg == 1;
	size_t per = OIB_MAD_SIZE - r->hdr_len, len = per;
	u32 paylen = be32_to_cpu(rh->paylen_newwin);
	u8 status = 0;

	if (first != is_first)
		status = OIB_RMPP_STATUS_BAD_SEG;
	else if (r->seg_count && seg > r->seg_count)
		status = OIB_RMPP_STATUS_S2B;
	else if (r->seg_count && last != (seg == r->seg_count))
		status = OIB_RMPP_STATUS_BAD_LEN;
	if (!status && last) {
		long bytes = mad_reasm_data_len(paylen, 1, r->hdr_len);

		if (bytes < 0 || bytes > per ||
		    (r->paylen && paylen != r->paylen - (seg - 1) * OIB_MAD_RMPP_SEG_PAYLOAD))
			status = OIB_RMPP_STATUS_BAD_LEN;
		len = bytes;
	}
	if (status) {
		mad_reasm_abort_with(port, r, OIB_RMPP_TYPE_ABORT, status);
		return false;
	}
	if (!mad_reasm_reserve(r, r->len + len)) {
		mad_reasm_abort_with(port, r, OIB_RMPP_TYPE_STOP, OIB_RMPP_STATUS_RESX);
		return false;
	}
	memcpy(r->buf + r->len, (const u8 *)hdr + r->hdr_len, len);
	r->len += len;
	r->expected++;
	r->gap_acked = false;
	r->expires = jiffies + READ_ONCE(port->reasm_idle);
	mad_port_count(port, OIB_MAD_PORT_RMPP_SEGS_RECV);
	if (last) {
		r->win_last = seg;
		mad_reasm_ack(port, r);
		mad_reasm_deliver(port, r);
	} else if (seg == r->win_last) {
		r->win_last = seg + MAD_RMPP_WINDOW;
		mad_reasm_ack(port, r);
	}
	return true;
}

/* A DATA segment of transfer @r. */
static void mad_reasm_segment(struct mad_port *port, struct mad_reasm *r,
			      const struct oib_mad_hdr *hdr)
{
	u32 seg = be32_to_cpu(mad_rmpp_hdr(hdr)->seg_num);

	if (r->state == REASM_TIME_WAIT || seg < r->expected) {
		mad_port_count(port, OIB_MAD_PORT_RMPP_DUPLICATES);
		mad_reasm_ack(port, r);
		return;
	}
	if (seg > r->expected || seg > r->win_last) {
		mad_port_count(port, OIB_MAD_PORT_RMPP_OUT_OF_WINDOW);
		if (!r->gap_acked && r->expected > 1) {
			r->gap_acked = true;
			mad_reasm_ack(port, r);
		}
		return;
	}
	mad_reasm_take(port, r, hdr, seg);
}

/* The agent a request segment is for, with a reference, if it has the layer reassemble. */
static struct mad_agent *mad_reasm_request_agent(struct mad_port *port,
						 const struct oib_mad_hdr *hdr)
{
	struct mad_agent *ma;
	bool class_known;

	ma = mad_agent_find_request(port, hdr, &class_known);
	if (ma && !ma->rmpp) {
		mad_agent_put(ma);
		ma = NULL;
	}
	return ma;
}

/*
 * A DATA segment: for the transfer it belongs to (a response's may outlive its request, in
 * time-wait), or the first of a new one for the agent that has the layer reassemble for it.
 */
enum mad_verdict mad_reasm_data(struct mad_port *port, const u8 *buf,
				const struct oib_mad_recv *recv)
{
	const struct oib_mad_hdr *hdr = recv->mad;
	struct mad_agent *ma = NULL;
	union oib_gid peer, me;
	struct mad_reasm *r;

	if (mad_grh_gids(buf, &peer, &me))
		return MAD_RX_MALFORMED;
	r = mad_reasm_find(port, recv, &peer);
	if (oib_mad_is_response(hdr))
		ma = mad_send_rmpp_requester(port, hdr);	/* and restarts its wait */
	else if (!r)
		ma = mad_reasm_request_agent(port, hdr);
	if (!r && !ma)
		return MAD_RX_NOT_RMPP;
	if (!r) {
		if (be32_to_cpu(mad_rmpp_hdr(hdr)->seg_num) == 1)
			r = mad_reasm_new(port, ma, buf, recv, &peer);
		else	/* the rest of a transfer already dropped */
			mad_port_count(port, OIB_MAD_PORT_RMPP_OUT_OF_WINDOW);
	}
	if (r)
		mad_reasm_segment(port, r, hdr);
	if (ma)
		mad_agent_put(ma);
	return MAD_RX_RMPP;
}

/* A STOP or ABORT from the sender of a message we receive: drop it.  False if there is none. */
bool mad_reasm_abort(struct mad_port *port, const struct oib_mad_recv *recv)
{
	union oib_gid peer, me;
	struct mad_reasm *r;

	if (mad_grh_gids(recv->grh, &peer, &me))
		return false;
	r = mad_reasm_find(port, recv, &peer);
	if (!r || r->state != REASM_ACTIVE)
		return false;
	mad_port_count(port, OIB_MAD_PORT_RMPP_STOPS_RECV);
	mad_reasm_free(port, r);
	return true;
}

/*
 * Drop what is over: time-waits ended, transfers idle too long (the sender is told with ABORT),
 * transfers of unregistering agents, everything when the port goes away.  Then come back later
 * while any remain.  Port work only, when mad_port_expire_reasm() asked or the port is dying,
 * so that receiving a MAD does not walk the table.
 */
void mad_reasm_expire(struct mad_port *port)
{
	bool dying = READ_ONCE(port->dying);
	unsigned long now = jiffies;
	struct hlist_node *next;
	struct mad_reasm *r;
	int bkt;

	if (!test_and_clear_bit(0, &port->reasm_due) && !dying)
		return;
	hash_for_each_safe(port->reasm, bkt, next, r, link) {
		if (dying || READ_ONCE(r->ma->dead))
			mad_reasm_free(port, r);
		else if (time_before(now, r->expires))
			continue;
		else if (r->state == REASM_ACTIVE)
			mad_reasm_abort_with(port, r, OIB_RMPP_TYPE_ABORT, OIB_RMPP_STATUS_T2L);
		else
			mad_reasm_free(port, r);
	}
	if (!dying && !hash_empty(port->reasm))
		queue_delayed_work(mad_wq, &port->reasm_tick, MAD_REASM_TICK);
}
