// SPDX-License-Identifier: GPL-2.0-only
/*
 * The receive side: each MAD that arrives on QP1 is checked, then either taken by RMPP (a segment
 * of a message being received, or an ACK, STOP or ABORT about one), matched to the request it
 * answers (responses), given to the one agent registered for it (requests), answered by the
 * port's own agent with the spec's "unsupported" status, or dropped; and counted under its
 * verdict.  Runs in the port work, which owns the receive ring.
 */
#include <linux/slab.h>
#include "mad_priv.h"
#include "mad_trace.h"

/* Requests that call for a response; the others (Send, Trap, Report) are one-way. */
static bool mad_wants_answer(u8 method)
{
	return method != OIB_MGMT_METHOD_SEND && method != OIB_MGMT_METHOD_TRAP &&
	       method != OIB_MGMT_METHOD_REPORT;
}

/*
 * An RMPP MAD (its active flag set): DATA for a message being received, ACK for a transfer of
 * ours, STOP or ABORT for either.  MAD_RX_NOT_RMPP: a DATA segment to deliver as a MAD (its agent
 * speaks RMPP itself, or there is none).
 */
static enum mad_verdict mad_recv_rmpp(struct mad_port *port, const u8 *buf,
				      const struct oib_mad_recv *recv)
{
	const struct oib_rmpp_hdr *rh = mad_rmpp_hdr(recv->mad);

	if (rh->rmpp_version != OIB_RMPP_VERSION)
		return MAD_RX_MALFORMED;
	switch (rh->rmpp_type) {
	case OIB_RMPP_TYPE_DATA:
		return mad_reasm_data(port, buf, recv);
	case OIB_RMPP_TYPE_ACK:
		return mad_rmpp_ctl(port, recv) ? MAD_RX_RMPP : MAD_RX_UNMATCHED;
	case OIB_RMPP_TYPE_STOP:
	case OIB_RMPP_TYPE_ABORT:
		if (mad_rmpp_ctl(port, recv) || mad_reasm_abort(port, recv))
			return MAD_RX_RMPP;
		return MAD_RX_UNMATCHED;
	default:
		return MAD_RX_MALFORMED;
	}
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
		verdict = mad_recv_rmpp(port, buf, &recv);
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
	mad_self_answer(port, buf, &recv, class_known ? OIB_MAD_STATUS_UNSUPPORTED_METHOD :
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

/*
 * One receive completion that carries data, in @buf (GRH, then the MAD); a completion in error (a
 * datagram longer than a MAD) is a malformed MAD.  Port work only.
 */
void mad_recv(struct mad_port *port, const u8 *buf, const struct oib_wc *wc)
{
	enum mad_verdict verdict;

	mad_port_count(port, OIB_MAD_PORT_RECEIVED);
	verdict = wc->status == OIB_WC_SUCCESS ? mad_recv_one(port, buf, wc) : MAD_RX_MALFORMED;
	mad_port_count(port, mad_verdict_stat[verdict]);
	trace_oib_mad_recv(port->port_num, (const void *)(buf + OIB_MAD_GRH_SIZE), wc->byte_len,
			   verdict);
}
