// SPDX-License-Identifier: GPL-2.0-only
/*
 * The receive side: each MAD that arrives on QP1 is checked, then either matched to the request
 * it answers (responses), given to the one agent registered for it (requests), answered by the
 * layer with the spec's "unsupported" status, or dropped and counted.  Runs in the port work.
 */
#include <linux/slab.h>
#include "mad_priv.h"
#include "mad_trace.h"

enum mad_verdict {
	MAD_RX_DISPATCHED,
	MAD_RX_RESPONSE,
	MAD_RX_ANSWERED,
	MAD_RX_MALFORMED,
	MAD_RX_UNMATCHED,
	MAD_RX_NO_AGENT,
};

/*
 * Where a received datagram came from, as an address to answer it at.  The 40 bytes in front of
 * the payload hold the IPv6 header, or for IPv4 the IPv4 header in their last 20 bytes.
 */
int mad_ah_attr_from_grh(struct mad_port *port, const u8 *grh, struct oib_ah_attr *attr)
{
	union oib_gid sgid, dgid;
	u32 gid_port, index;

	memset(attr, 0, sizeof(*attr));
	if ((grh[0] >> 4) == 6) {
		memcpy(&sgid, grh + 8, sizeof(sgid));
		memcpy(&dgid, grh + 24, sizeof(dgid));
	} else if ((grh[20] >> 4) == 4) {
		memset(&sgid, 0, sizeof(sgid));
		memset(&dgid, 0, sizeof(dgid));
		sgid.raw[10] = 0xff;
		sgid.raw[11] = 0xff;
		dgid.raw[10] = 0xff;
		dgid.raw[11] = 0xff;
		memcpy(&sgid.raw[12], grh + 20 + 12, 4);
		memcpy(&dgid.raw[12], grh + 20 + 16, 4);
	} else {
		return -EINVAL;
	}
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

/* Answer a request nobody takes with @status, from the port's own agent. */
static void mad_answer(struct mad_port *port, const u8 *buf, const struct oib_mad_recv *recv,
		       u16 status)
{
	struct mad_agent *priv = READ_ONCE(port->self);
	struct oib_mad_send_buf *sb;
	struct oib_mad_agent *self;
	struct oib_mad_hdr *hdr;
	struct oib_ah *ah;

	if (!priv)
		return;		/* the port is going away */
	self = &priv->agent;
	ah = oib_mad_create_resp_ah(self, recv);
	if (IS_ERR(ah))
		return;
	sb = oib_create_send_mad(self, ah, GFP_KERNEL);
	if (IS_ERR(sb)) {
		oib_destroy_ah(ah);
		return;
	}
	memcpy(sb->mad, buf + OIB_MAD_GRH_SIZE, OIB_MAD_SIZE);
	hdr = sb->mad;
	hdr->method = hdr->method == OIB_MGMT_METHOD_SET ? OIB_MGMT_METHOD_GET_RESP :
			hdr->method | OIB_MGMT_METHOD_RESP;
	hdr->status = cpu_to_be16(status);
	sb->remote_qpn = recv->src_qp;
	sb->pkey_index = recv->pkey_index;
	if (oib_post_send_mad(sb)) {
		oib_free_send_mad(sb);
		oib_destroy_ah(ah);
	}
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
		.mad = hdr, .grh = buf, .port_num = port->port_num,
		.src_qp = wc->src_qp, .pkey_index = wc->pkey_index,
	};
	struct mad_agent *ma;
	bool class_known;

	if (wc->byte_len != MAD_RECV_BUF_SIZE || hdr->base_version != OIB_MAD_BASE_VERSION ||
	    !hdr->mgmt_class || hdr->mgmt_class == OIB_MGMT_CLASS_SUBN_LID_ROUTED ||
	    hdr->mgmt_class == OIB_MGMT_CLASS_SUBN_DIRECTED)
		return MAD_RX_MALFORMED;

	if (oib_mad_is_response(hdr))
		return mad_send_match_response(port, buf, &recv) ? MAD_RX_RESPONSE :
								   MAD_RX_UNMATCHED;

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
