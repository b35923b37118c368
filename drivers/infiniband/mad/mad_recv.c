// SPDX-License-Identifier: GPL-2.0-only
/*
 * The receive side: each MAD that arrives on QP1 is checked, then either matched to the request
 * it answers (responses), given to the one agent registered for it (requests), answered by the
 * layer with the spec's "unsupported" status, or dropped and counted.  Runs in the port work.
 */
#include <linux/slab.h>
#include "mad_priv.h"
#include "mad_trace.h"

/*
 * The source and destination GIDs of a received datagram.  The 40 bytes in front of the payload
 * hold the IPv6 header, or for IPv4 the IPv4 header in their last 20 bytes.
 */
int mad_grh_gids(const u8 *grh, union oib_gid *sgid, union oib_gid *dgid)
{
	if ((grh[0] >> 4) == 6) {
		memcpy(sgid, grh + 8, sizeof(*sgid));
		memcpy(dgid, grh + 24, sizeof(*dgid));
	} else if ((grh[20] >> 4) == 4) {
		memset(sgid, 0, sizeof(*sgid));
		memset(dgid, 0, sizeof(*dgid));
		sgid->raw[10] = 0xff;
		sgid->raw[11] = 0xff;
		dgid->raw[10] = 0xff;
		dgid->raw[11] = 0xff;
		memcpy(&sgid->raw[12], grh + 20 + 12, 4);
		memcpy(&dgid->raw[12], grh + 20 + 16, 4);
	} else {
		return -EINVAL;
	}
	return 0;
}

/* Where a received datagram came from, as an address to answer it at. */
int mad_ah_attr_from_grh(struct mad_port *port, const u8 *grh, struct oib_ah_attr *attr)
{
	union oib_gid sgid, dgid;
	u32 gid_port, index;

	memset(attr, 0, sizeof(*attr));
	if (mad_grh_gids(grh, &sgid, &dgid))
		return -EINVAL;
	attr->port_num = port->port_num;
	attr->flags = OIB_AH_GRH;
	attr->grh.dgid = sgid;
	attr->grh.hop_limit = 64;
	if (!oib_find_gid(port->device, &dgid, &gid_port, &index) && gid_port == port->port_num)
		attr->grh.sgid_index = index;
	return 0;
}

/* Requests that call for a response; the others (Send, Trap, Report) are one-way. */
static bool mad_wants_answer(u8 method)
{
	return method != OIB_MGMT_METHOD_SEND && method != OIB_MGMT_METHOD_TRAP &&
	       method != OIB_MGMT_METHOD_REPORT;
}

/*
 * A send buffer of the port's own agent, with an address handle of its own, for the layer's own
 * MADs (answers, RMPP ACK, STOP, ABORT); NULL if the port is going away or memory is short.
 * Port work only (that is what keeps port->self alive while it is used).
 */
struct oib_mad_send_buf *mad_self_buf(struct mad_port *port, const struct oib_ah_attr *attr,
				      u32 remote_qpn, u16 pkey_index)
{
	struct mad_agent *self = READ_ONCE(port->self);
	struct oib_mad_send_buf *sb;
	struct oib_ah *ah;

	if (!self)
		return NULL;
	ah = oib_mad_create_ah(&self->agent, attr);
	if (IS_ERR(ah))
		return NULL;
	sb = oib_create_send_mad(&self->agent, ah, GFP_KERNEL);
	if (IS_ERR(sb)) {
		oib_destroy_ah(ah);
		return NULL;
	}
	sb->remote_qpn = remote_qpn;
	sb->pkey_index = pkey_index;
	return sb;
}

/* Post it; mad_self_send_handler() frees it, or this does if the post fails. */
void mad_self_post(struct oib_mad_send_buf *sb)
{
	struct oib_ah *ah = sb->ah;

	if (oib_post_send_mad(sb)) {
		oib_free_send_mad(sb);
		oib_destroy_ah(ah);
	}
}

/* Answer a request nobody takes with @status. */
static void mad_answer(struct mad_port *port, const u8 *buf, const struct oib_mad_recv *recv,
		       u16 status)
{
	struct oib_mad_send_buf *sb;
	struct oib_ah_attr attr;
	struct oib_mad_hdr *hdr;

	if (mad_ah_attr_from_grh(port, buf, &attr))
		return;
	sb = mad_self_buf(port, &attr, recv->src_qp, recv->pkey_index);
	if (!sb)
		return;
	memcpy(sb->mad, buf + OIB_MAD_GRH_SIZE, OIB_MAD_SIZE);
	hdr = sb->mad;
	hdr->method = hdr->method == OIB_MGMT_METHOD_SET ? OIB_MGMT_METHOD_GET_RESP :
			hdr->method | OIB_MGMT_METHOD_RESP;
	hdr->status = cpu_to_be16(status);
	mad_self_post(sb);
}

/* The port's own agent: its only MADs are answers, each with an AH of its own. */
void mad_self_send_handler(struct oib_mad_agent *agent, struct oib_mad_send_wc *wc)
{
	struct oib_ah *ah = wc->send_buf->ah;

	oib_free_send_mad(wc->send_buf);
	oib_destroy_ah(ah);
}

static enum mad_verdict mad_recv_one(struct mad_port *port, const u8 *buf,
				     const struct oib_wc *wc)
{
	const struct oib_mad_hdr *hdr = (const void *)(buf + OIB_MAD_GRH_SIZE);
	struct oib_mad_recv recv = {
		.mad = hdr, .len = OIB_MAD_SIZE, .grh = buf, .port_num = port->port_num,
		.src_qp = wc->src_qp, .pkey_index = wc->pkey_index,
	};
	enum mad_verdict verdict;
	struct mad_agent *ma;
	bool class_known;
	u8 *copy;

	if (wc->byte_len != MAD_RECV_BUF_SIZE || hdr->base_version != OIB_MAD_BASE_VERSION ||
	    !hdr->mgmt_class || hdr->mgmt_class == OIB_MGMT_CLASS_SUBN_LID_ROUTED ||
	    hdr->mgmt_class == OIB_MGMT_CLASS_SUBN_DIRECTED)
		return MAD_RX_MALFORMED;

	if (mad_is_rmpp(hdr)) {
		verdict = mad_reasm_recv(port, buf, &recv);
		if (verdict != MAD_RX_NOT_RMPP)
			return verdict;
	}

	if (oib_mad_is_response(hdr)) {
		copy = kmemdup(buf, MAD_RECV_BUF_SIZE, GFP_KERNEL);
		if (!copy)
			return MAD_RX_UNMATCHED;
		return mad_send_match_response(port, copy, &recv) ? MAD_RX_RESPONSE :
								    MAD_RX_UNMATCHED;
	}

	ma = mad_agent_find_request(port, hdr, &class_known);
	if (ma) {
		mad_agent_count(ma, OIB_MAD_AGENT_RECEIVED);
		ma->agent.recv_handler(&ma->agent, NULL, &recv);
		mad_agent_put(ma);
		return MAD_RX_DISPATCHED;
	}
	if (!mad_wants_answer(hdr->method))
		return MAD_RX_NO_AGENT;
	mad_answer(port, buf, &recv, class_known ? OIB_MAD_STATUS_UNSUPPORTED_METHOD :
						   OIB_MAD_STATUS_BAD_VERSION);
	return MAD_RX_ANSWERED;
}

static const enum oib_mad_port_stat mad_verdict_stat[] = {
	[MAD_RX_DISPATCHED] = OIB_MAD_PORT_DISPATCHED,
	[MAD_RX_RESPONSE] = OIB_MAD_PORT_RESPONSES,
	[MAD_RX_ANSWERED] = OIB_MAD_PORT_ANSWERED,
	[MAD_RX_MALFORMED] = OIB_MAD_PORT_DROP_MALFORMED,
	[MAD_RX_UNMATCHED] = OIB_MAD_PORT_DROP_UNMATCHED,
	[MAD_RX_NO_AGENT] = OIB_MAD_PORT_DROP_NO_AGENT,
	[MAD_RX_RMPP] = OIB_MAD_PORT_RMPP,
};

/* One receive completion (port work only); its buffer goes back on the ring. */
void mad_recv_complete(struct mad_port *port, const struct oib_wc *wc)
{
	struct mad_recv_buf *rb;
	enum mad_verdict verdict;

	if (wc->wr_id >= MAD_RECV_RING)
		return;
	rb = &port->rbufs[wc->wr_id];
	rb->posted = false;
	if (wc->status == OIB_WC_WR_FLUSH_ERR)
		return;	/* the QP is in error: recovery refills the ring */
	mad_port_count(port, OIB_MAD_PORT_RECEIVED);
	/* A receive in error (a datagram longer than a MAD) is a malformed MAD. */
	verdict = wc->status == OIB_WC_SUCCESS ? mad_recv_one(port, rb->data, wc) :
						 MAD_RX_MALFORMED;
	mad_port_count(port, mad_verdict_stat[verdict]);
	trace_oib_mad_recv(port->port_num, (const void *)(rb->data + OIB_MAD_GRH_SIZE),
			   wc->byte_len, verdict);
	if (!port->recovering)	/* back on the ring at once: bursts must not find it empty */
		mad_post_recv(port, wc->wr_id);
}
