// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RC and UC responder: request packets are checked, executed and answered, under rq_lock.
 *
 * RC.  A packet carrying the expected PSN (epsn) is executed; one beyond it means packets were
 * lost, and gets one sequence NAK for epsn (no more until epsn moves); one before it is a
 * duplicate: sends and writes are acknowledged again, reads are executed again from the memory and
 * atomics answered from the responder resources, the last max_dest_rd_atomic reads and atomics
 * kept for that.  ACKs are sent for packets asking for one (AckReq), so one ACK covers many.  A
 * send that finds no receive posted gets an RNR NAK and is asked for again later.  An invalid
 * request or an access violation is NAKed and puts the QP in ERR with QP_REQ_ERR or QP_ACCESS_ERR.
 *
 * UC.  No answers at all: a PSN gap loses the message in progress, which is dropped up to the next
 * first packet; a send without a receive posted, or a write its R_Key does not allow, is dropped.
 *
 * The first packet received in RTR raises COMM_EST.  Events are raised once rq_lock is released.
 */
#include <linux/module.h>
#include <linux/skbuff.h>
#include "rxe.h"

enum rxe_resp_result {
	RXE_RESP_OK,
	RXE_RESP_RNR,		/* no receive posted */
	RXE_RESP_INVALID,	/* the request makes no sense here */
	RXE_RESP_ACCESS,	/* the R_Key or the QP's access flags forbid it */
	RXE_RESP_OP_ERR,	/* the local receive buffer failed it */
};

/* What to do once rq_lock is released. */
struct rxe_resp_after {
	bool comm_est;
	bool srq_limit;
	bool error;			/* the QP goes to ERR ... */
	bool event;			/* ... raising this affiliated event */
	enum oib_event_type type;
};

void rxe_resp_reset(struct rxe_qp *qp)
{
	struct rxe_resp *resp = &qp->resp;

	resp->epsn = 0;
	resp->msn = 0;
	resp->nak_sent = false;
	resp->comm_est = false;
	resp->uc_drop = false;
	resp->op = 0;
	resp->off = 0;
	resp->dst = NULL;
	resp->resid = 0;
	resp->have_recv = false;
	resp->rsrc_next = 0;
	if (resp->rsrc)
		memset(resp->rsrc, 0, resp->nrsrc * sizeof(*resp->rsrc));
}

/* An ACK, NAK or atomic ACK for @psn. */
static void rxe_resp_ack(struct rxe_qp *qp, u8 opcode, u32 psn, u8 syndrome, u64 orig)
{
	struct rxe_port *port = rxe_qp_port(qp);
	struct rxe_tx_hdr hdr;
	struct sk_buff *skb;
	u8 *payload;

	if (!rxe_conn_hdr(qp, &hdr))
		return;
	hdr.opcode = opcode;
	hdr.psn = psn;
	hdr.aeth.syndrome = syndrome;
	hdr.aeth.msn = qp->resp.msn;
	hdr.atmack_orig = orig;
	skb = rxe_frame_alloc(&hdr, &payload);
	if (!skb)
		return;
	switch (syndrome & RXE_AETH_KIND_MASK) {
	case RXE_AETH_ACK:
		rxe_port_count(port, OIB_RXE_TX_ACKS);
		break;
	case RXE_AETH_RNR_NAK:
		rxe_port_count(port, OIB_RXE_TX_RNR_NAKS);
		break;
	default:
		rxe_port_count(port, OIB_RXE_TX_NAKS);
		break;
	}
	rxe_frame_xmit(port, skb);
}

static void rxe_resp_nak(struct rxe_qp *qp, u32 psn, enum rxe_nak_code code)
{
	rxe_resp_ack(qp, RXE_RC_ACKNOWLEDGE, psn, rxe_aeth_syn_nak(code), 0);
}

/* Read response packets for @len bytes at @src, from @psn on. */
static void rxe_resp_read_reply(struct rxe_qp *qp, const u8 *src, u32 len, u32 psn)
{
	u32 mtu = oib_mtu_to_int(qp->attr.path_mtu), n;
	struct rxe_port *port = rxe_qp_port(qp);
	bool first = true, last;
	struct rxe_tx_hdr hdr;
	struct sk_buff *skb;
	u8 *payload;

	do {
		last = len <= mtu;
		n = min(len, mtu);
		if (!rxe_conn_hdr(qp, &hdr))
			return;
		hdr.opcode = first ? (last ? RXE_RC_RDMA_READ_RESPONSE_ONLY :
				      RXE_RC_RDMA_READ_RESPONSE_FIRST) :
			     (last ? RXE_RC_RDMA_READ_RESPONSE_LAST :
				     RXE_RC_RDMA_READ_RESPONSE_MIDDLE);
		hdr.psn = psn;
		hdr.aeth.syndrome = rxe_aeth_syn_ack(RXE_AETH_NO_CREDITS);
		hdr.aeth.msn = qp->resp.msn;
		hdr.paylen = n;
		skb = rxe_frame_alloc(&hdr, &payload);
		if (!skb)
			return;		/* lost: the requester asks again */
		memcpy(payload, src, n);
		rxe_frame_xmit(port, skb);
		src += n;
		len -= n;
		psn = rxe_psn_add(psn, 1);
		first = false;
	} while (!last);
}

/* Keep a read or atomic to answer its duplicates; the oldest gives way. */
static struct rxe_rsrc *rxe_resp_rsrc_new(struct rxe_resp *resp)
{
	struct rxe_rsrc *r = &resp->rsrc[resp->rsrc_next];

	resp->rsrc_next = (resp->rsrc_next + 1) % resp->nrsrc;
	return r;
}

static struct rxe_rsrc *rxe_resp_rsrc_find(struct rxe_resp *resp, u32 psn)
{
	u32 i;

	for (i = 0; i < resp->nrsrc; i++) {
		struct rxe_rsrc *r = &resp->rsrc[i];

		if (r->opcode && rxe_psn_cmp(psn, r->first_psn) >= 0 &&
		    rxe_psn_cmp(psn, r->last_psn) <= 0)
			return r;
	}
	return NULL;
}

static void rxe_resp_complete(struct rxe_qp *qp, const struct rxe_pkt *pkt, enum oib_wc_status st)
{
	struct oib_wc wc = {
		.wr_id = qp->resp.recv.wqe.wr_id,
		.status = st,
		.opcode = pkt->info->flags & RXE_OPF_WRITE ? OIB_WC_RECV_RDMA_WITH_IMM :
							     OIB_WC_RECV,
		.byte_len = qp->resp.off,
		.qp = &qp->ib,
		.port_num = qp->attr.port_num,
	};

	if (pkt->immdt) {
		wc.ex.imm_data = pkt->immdt->imm;
		wc.wc_flags |= OIB_WC_WITH_IMM;
	} else if (pkt->ieth && !st) {
		wc.ex.invalidate_rkey = be32_to_cpu(pkt->ieth->rkey);
		wc.wc_flags |= OIB_WC_WITH_INVALIDATE;
	}
	qp->resp.have_recv = false;
	rxe_cq_post(to_rcq(qp->ib.recv_cq), &wc, pkt->solicited);
}

/* Make sure a receive WQE is held for the message; false if none is posted. */
static bool rxe_resp_get_recv(struct rxe_qp *qp, struct rxe_resp_after *after)
{
	struct rxe_resp *resp = &qp->resp;
	bool limit;

	if (resp->have_recv)
		return true;
	resp->have_recv = rxe_recv_take(qp, &resp->recv.wqe, RXE_MAX_SGE, &limit);
	after->srq_limit |= limit;
	return resp->have_recv;
}

/* The write target of a first packet, checked against the R_Key for the whole message. */
static enum rxe_resp_result rxe_resp_write_start(struct rxe_qp *qp, const struct rxe_pkt *pkt)
{
	struct rxe_resp *resp = &qp->resp;
	u32 len = be32_to_cpu(pkt->reth->len);

	if (!(qp->attr.qp_access_flags & OIB_ACCESS_REMOTE_WRITE))
		return RXE_RESP_ACCESS;
	resp->dst = rxe_rkey_kva(to_rdev(qp->ib.device), qp->ib.pd, be32_to_cpu(pkt->reth->rkey),
				 be64_to_cpu(pkt->reth->va), len, OIB_ACCESS_REMOTE_WRITE);
	if (!resp->dst)
		return RXE_RESP_ACCESS;
	resp->resid = len;
	return RXE_RESP_OK;
}

/* A send or write packet at epsn. */
static enum rxe_resp_result rxe_resp_data(struct rxe_qp *qp, const struct rxe_pkt *pkt,
					  struct rxe_resp_after *after)
{
	struct rxe_resp *resp = &qp->resp;
	u16 f = pkt->info->flags, kind = f & (RXE_OPF_SEND | RXE_OPF_WRITE);
	u32 mtu = oib_mtu_to_int(qp->attr.path_mtu);
	bool first = f & RXE_OPF_FIRST, last = f & RXE_OPF_LAST;
	enum rxe_resp_result res;

	/* a first packet between messages, the rest of the same message otherwise */
	if (first != !resp->op || (!first && resp->op != kind))
		return RXE_RESP_INVALID;
	if (last ? pkt->paylen > mtu : pkt->paylen != mtu)
		return RXE_RESP_INVALID;
	if (first)
		resp->off = 0;

	if (kind == RXE_OPF_WRITE) {
		if (first) {
			res = rxe_resp_write_start(qp, pkt);
			if (res)
				return res;
		}
		if (last ? pkt->paylen != resp->resid : pkt->paylen >= resp->resid)
			return RXE_RESP_INVALID;
		if ((f & RXE_OPF_RECV) && !rxe_resp_get_recv(qp, after))
			return RXE_RESP_RNR;	/* before the data: the retry writes it again */
		memcpy(resp->dst, pkt->payload, pkt->paylen);
		resp->dst += pkt->paylen;
		resp->resid -= pkt->paylen;
	} else {
		if (!rxe_resp_get_recv(qp, after))
			return RXE_RESP_RNR;
		if (resp->off + pkt->paylen > rxe_recv_capacity(&resp->recv.wqe)) {
			rxe_resp_complete(qp, pkt, OIB_WC_LOC_LEN_ERR);
			return RXE_RESP_INVALID;
		}
		if (!rxe_sgl_copy(qp, resp->recv.wqe.sge, resp->recv.wqe.num_sge, resp->off,
				  (void *)pkt->payload, pkt->paylen, true)) {
			rxe_resp_complete(qp, pkt, OIB_WC_LOC_PROT_ERR);
			return RXE_RESP_OP_ERR;
		}
	}
	resp->off += pkt->paylen;
	resp->op = last ? 0 : kind;
	if (!last)
		return RXE_RESP_OK;

	resp->msn = rxe_psn_add(resp->msn, 1);
	if (pkt->ieth && rxe_invalidate(to_rdev(qp->ib.device), qp->ib.pd,
					be32_to_cpu(pkt->ieth->rkey), true)) {
		rxe_resp_complete(qp, pkt, OIB_WC_LOC_QP_OP_ERR);
		return RXE_RESP_INVALID;
	}
	if (f & RXE_OPF_RECV)
		rxe_resp_complete(qp, pkt, OIB_WC_SUCCESS);
	return RXE_RESP_OK;
}

/* An RDMA read request at epsn, or again (@dup) at a PSN it covered. */
static enum rxe_resp_result rxe_resp_read(struct rxe_qp *qp, const struct rxe_pkt *pkt, bool dup)
{
	struct rxe_resp *resp = &qp->resp;
	u32 mtu = oib_mtu_to_int(qp->attr.path_mtu);
	u32 len = be32_to_cpu(pkt->reth->len), npsn;
	u64 va = be64_to_cpu(pkt->reth->va);
	struct rxe_rsrc *r;
	void *src;

	if (!(qp->attr.qp_access_flags & OIB_ACCESS_REMOTE_READ))
		return RXE_RESP_ACCESS;
	if (resp->op || !resp->nrsrc || len > SZ_2G)
		return RXE_RESP_INVALID;
	src = rxe_rkey_kva(to_rdev(qp->ib.device), qp->ib.pd, be32_to_cpu(pkt->reth->rkey), va,
			   len, OIB_ACCESS_REMOTE_READ);
	if (!src)
		return RXE_RESP_ACCESS;
	npsn = len ? DIV_ROUND_UP(len, mtu) : 1;
	if (!dup) {
		r = rxe_resp_rsrc_new(resp);
		r->opcode = pkt->opcode;
		r->first_psn = pkt->psn;
		r->last_psn = rxe_psn_add(pkt->psn, npsn - 1);
		r->va = va;
		r->rkey = be32_to_cpu(pkt->reth->rkey);
		r->len = len;
		resp->epsn = rxe_psn_add(resp->epsn, npsn);
		resp->msn = rxe_psn_add(resp->msn, 1);
	}
	rxe_resp_read_reply(qp, src, len, pkt->psn);
	return RXE_RESP_OK;
}

static enum rxe_resp_result rxe_resp_atomic(struct rxe_qp *qp, const struct rxe_pkt *pkt)
{
	struct rxe_dev *rdev = to_rdev(qp->ib.device);
	const struct rxe_atmeth *a = pkt->atmeth;
	struct rxe_resp *resp = &qp->resp;
	u64 va = be64_to_cpu(a->va), orig;
	struct rxe_rsrc *r;
	u64 *target;

	if (!(qp->attr.qp_access_flags & OIB_ACCESS_REMOTE_ATOMIC))
		return RXE_RESP_ACCESS;
	if (resp->op || !resp->nrsrc || (va & 7))
		return RXE_RESP_INVALID;
	target = rxe_rkey_kva(rdev, qp->ib.pd, be32_to_cpu(a->rkey), va, sizeof(u64),
			      OIB_ACCESS_REMOTE_ATOMIC);
	if (!target)
		return RXE_RESP_ACCESS;

	spin_lock(&rdev->atomic_lock);
	orig = *target;
	if (pkt->opcode == RXE_RC_FETCH_ADD)
		*target = orig + be64_to_cpu(a->swap_add);
	else if (orig == be64_to_cpu(a->compare))
		*target = be64_to_cpu(a->swap_add);
	spin_unlock(&rdev->atomic_lock);

	r = rxe_resp_rsrc_new(resp);
	r->opcode = pkt->opcode;
	r->first_psn = pkt->psn;
	r->last_psn = pkt->psn;
	r->orig = orig;
	resp->epsn = rxe_psn_add(resp->epsn, 1);
	resp->msn = rxe_psn_add(resp->msn, 1);
	rxe_resp_ack(qp, RXE_RC_ATOMIC_ACKNOWLEDGE, pkt->psn, rxe_aeth_syn_ack(RXE_AETH_NO_CREDITS),
		     orig);
	return RXE_RESP_OK;
}

/* A request seen before: acknowledge it again, or answer it again from the resources. */
static void rxe_resp_duplicate(struct rxe_port *port, struct rxe_qp *qp, const struct rxe_pkt *pkt)
{
	struct rxe_resp *resp = &qp->resp;
	struct rxe_rsrc *r;

	rxe_port_count(port, OIB_RXE_RX_DUPLICATES);
	if (!(pkt->info->flags & (RXE_OPF_READ | RXE_OPF_ATOMIC))) {
		if (pkt->ack_req)
			rxe_resp_ack(qp, RXE_RC_ACKNOWLEDGE, rxe_psn_add(resp->epsn, RXE_PSN_MASK),
				     rxe_aeth_syn_ack(RXE_AETH_NO_CREDITS), 0);
		return;
	}
	r = rxe_resp_rsrc_find(resp, pkt->psn);
	if (!r || r->opcode != pkt->opcode)
		return;		/* forgotten: the requester's retries run out */
	if (pkt->info->flags & RXE_OPF_ATOMIC) {
		if (r->first_psn == pkt->psn)
			rxe_resp_ack(qp, RXE_RC_ATOMIC_ACKNOWLEDGE, pkt->psn,
				     rxe_aeth_syn_ack(RXE_AETH_NO_CREDITS), r->orig);
		return;
	}
	/* a read asked again from the middle must ask for the rest of the same bytes */
	if (be32_to_cpu(pkt->reth->rkey) == r->rkey &&
	    be64_to_cpu(pkt->reth->va) + be32_to_cpu(pkt->reth->len) == r->va + r->len)
		rxe_resp_read(qp, pkt, true);
}

static void rxe_resp_rc(struct rxe_port *port, struct rxe_qp *qp, const struct rxe_pkt *pkt,
			struct rxe_resp_after *after)
{
	struct rxe_resp *resp = &qp->resp;
	s32 d = rxe_psn_cmp(pkt->psn, resp->epsn);
	enum rxe_resp_result res;
	u32 psn = pkt->psn;

	if (d > 0) {
		rxe_port_count(port, OIB_RXE_RX_DROP_SEQ);
		if (!resp->nak_sent)
			rxe_resp_nak(qp, resp->epsn, RXE_NAK_PSN_SEQ_ERROR);
		resp->nak_sent = true;
		return;
	}
	if (d < 0) {
		rxe_resp_duplicate(port, qp, pkt);
		return;
	}

	if (pkt->info->flags & RXE_OPF_READ) {
		res = rxe_resp_read(qp, pkt, false);
	} else if (pkt->info->flags & RXE_OPF_ATOMIC) {
		res = rxe_resp_atomic(qp, pkt);
	} else {
		res = rxe_resp_data(qp, pkt, after);
		if (!res) {
			resp->epsn = rxe_psn_add(resp->epsn, 1);
			if (pkt->ack_req)
				rxe_resp_ack(qp, RXE_RC_ACKNOWLEDGE, psn,
					     rxe_aeth_syn_ack(RXE_AETH_NO_CREDITS), 0);
		}
	}

	switch (res) {
	case RXE_RESP_OK:
		resp->nak_sent = false;
		break;
	case RXE_RESP_RNR:
		rxe_resp_ack(qp, RXE_RC_ACKNOWLEDGE, psn,
			     rxe_aeth_syn_rnr_nak(qp->attr.min_rnr_timer), 0);
		resp->nak_sent = true;	/* the packets behind it get no sequence NAK */
		break;
	case RXE_RESP_INVALID:
		rxe_resp_nak(qp, psn, RXE_NAK_INVALID_REQUEST);
		after->error = true;
		after->event = true;
		after->type = OIB_EVENT_QP_REQ_ERR;
		break;
	case RXE_RESP_ACCESS:
		rxe_resp_nak(qp, psn, RXE_NAK_REMOTE_ACCESS_ERROR);
		after->error = true;
		after->event = true;
		after->type = OIB_EVENT_QP_ACCESS_ERR;
		break;
	case RXE_RESP_OP_ERR:
		rxe_resp_nak(qp, psn, RXE_NAK_REMOTE_OP_ERROR);
		after->error = true;
		break;
	}
}

static void rxe_resp_uc(struct rxe_port *port, struct rxe_qp *qp, const struct rxe_pkt *pkt,
			struct rxe_resp_after *after)
{
	struct rxe_resp *resp = &qp->resp;
	bool first = pkt->info->flags & RXE_OPF_FIRST, last = pkt->info->flags & RXE_OPF_LAST;
	enum rxe_resp_result res;

	if (pkt->psn != resp->epsn) {	/* lost packets: the message in progress goes */
		if (resp->op)
			rxe_port_count(port, OIB_RXE_RX_DROP_SEQ);
		resp->op = 0;
		resp->uc_drop = !first;
	}
	resp->epsn = rxe_psn_add(pkt->psn, 1);
	if (resp->uc_drop && !first) {
		rxe_port_count(port, OIB_RXE_RX_DROP_SEQ);
		return;
	}
	resp->uc_drop = false;

	res = rxe_resp_data(qp, pkt, after);
	if (res == RXE_RESP_OK)
		return;
	/* the message is dropped: its receive, if it took one, serves the next */
	resp->op = 0;
	resp->uc_drop = !last;
	rxe_port_count(port, res == RXE_RESP_RNR ? OIB_RXE_RX_DROP_NO_RECV :
			     res == RXE_RESP_ACCESS ? OIB_RXE_RX_DROP_ACCESS : OIB_RXE_RX_DROP_SEQ);
}

void rxe_resp_recv(struct rxe_port *port, struct rxe_qp *qp, const struct rxe_pkt *pkt)
{
	struct rxe_resp_after after = {};
	unsigned long flags;

	spin_lock_irqsave(&qp->rq_lock, flags);
	if (qp->state < OIB_QPS_RTR || qp->state == OIB_QPS_ERR) {
		spin_unlock_irqrestore(&qp->rq_lock, flags);
		rxe_port_count(port, OIB_RXE_RX_DROP_QP_STATE);
		return;
	}
	if (!rxe_conn_pkey_ok(qp, pkt)) {
		spin_unlock_irqrestore(&qp->rq_lock, flags);
		rxe_port_count(port, OIB_RXE_RX_DROP_PKEY);
		return;
	}
	if (qp->state == OIB_QPS_RTR && !qp->resp.comm_est) {
		qp->resp.comm_est = true;
		after.comm_est = true;
	}
	if (qp->ib.qp_type == OIB_QPT_RC)
		rxe_resp_rc(port, qp, pkt, &after);
	else
		rxe_resp_uc(port, qp, pkt, &after);
	spin_unlock_irqrestore(&qp->rq_lock, flags);

	if (after.comm_est)
		rxe_qp_event(qp, OIB_EVENT_COMM_EST);
	if (after.srq_limit)
		rxe_srq_limit_event(qp);
	if (after.error && rxe_qp_err(qp) && after.event)
		rxe_qp_event(qp, after.type);
}
