// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RC and UC responder: request packets are checked, executed and answered, under rq_lock.
 *
 * RC.  A packet carrying the expected PSN (epsn) is executed; one beyond it means packets were
 * lost, and gets one sequence NAK for epsn (no more until epsn moves); one before it is a
 * duplicate: sends and writes are acknowledged again (naming the last send or write, see ack_psn),
 * reads are executed again from the memory and atomics answered from the responder resources, the
 * last max_dest_rd_atomic reads and atomics kept for that.  ACKs are sent for packets asking for
 * one (AckReq), so one ACK covers many.  A send that finds no receive posted gets an RNR NAK and
 * is asked for again later.  An invalid request or an access violation is NAKed and puts the QP
 * in ERR with QP_REQ_ERR or QP_ACCESS_ERR.
 *
 * UC.  No answers at all: a PSN gap loses the message in progress, which is dropped up to the next
 * first packet; a send without a receive posted, or a write its R_Key does not allow, is dropped.
 *
 * XRC targets are RC responders whose receives, completions and memory checks are those of the
 * XRC SRQ each request names (orxe_xrc.c); they answer with XRC opcodes.
 *
 * The first packet received in RTR raises COMM_EST.  Events are raised once rq_lock is released.
 */
#include <linux/module.h>
#include <linux/skbuff.h>
#include "orxe.h"

/* What to do once rq_lock is released. */
struct orxe_resp_after {
	bool comm_est;
	u8 recv_ev;			/* orxe_recv_events() */
	bool error;			/* the QP goes to ERR ... */
	bool event;			/* ... raising this affiliated event */
	enum oib_event_type type;
};

void orxe_resp_reset(struct orxe_qp *qp)
{
	struct orxe_resp *resp = &qp->resp;

	resp->epsn = 0;
	resp->ack_psn = 0;
	resp->msn = 0;
	resp->nak_sent = false;
	resp->comm_est = false;
	resp->uc_drop = false;
	resp->op = 0;
	resp->off = 0;
	resp->va = 0;
	resp->rkey = 0;
	resp->resid = 0;
	resp->have_recv = false;
	resp->rsrc_next = 0;
	resp->xsrqn = 0;
	if (resp->rsrc)
		memset(resp->rsrc, 0, resp->nrsrc * sizeof(*resp->rsrc));
}

/* An ACK, NAK or atomic ACK for @psn. */
static void orxe_resp_ack(struct orxe_qp *qp, u8 opcode, u32 psn, u8 syndrome, u64 orig)
{
	struct orxe_port *port = orxe_qp_port(qp);
	struct orxe_tx_hdr hdr;
	struct sk_buff *skb;
	u8 *payload;

	if (!orxe_conn_hdr(qp, &hdr))
		return;
	hdr.opcode = orxe_qp_opcode(qp, opcode);
	hdr.psn = psn;
	hdr.aeth.syndrome = syndrome;
	hdr.aeth.msn = qp->resp.msn;
	hdr.atmack_orig = orig;
	skb = orxe_frame_alloc(&hdr, &payload);
	if (!skb)
		return;
	switch (syndrome & ORXE_AETH_KIND_MASK) {
	case ORXE_AETH_ACK:
		orxe_port_count(port, OIB_RXE_TX_ACKS);
		break;
	case ORXE_AETH_RNR_NAK:
		orxe_port_count(port, OIB_RXE_TX_RNR_NAKS);
		break;
	default:
		orxe_port_count(port, OIB_RXE_TX_NAKS);
		break;
	}
	orxe_frame_xmit(port, skb);
}

static void orxe_resp_nak(struct orxe_qp *qp, u32 psn, enum orxe_nak_code code)
{
	orxe_resp_ack(qp, ORXE_RC_ACKNOWLEDGE, psn, orxe_aeth_syn_nak(code), 0);
}

/* Read response packets for @len bytes at @src, from @psn on, as trains where they can be. */
static void orxe_resp_read_reply(struct orxe_qp *qp, const u8 *src, u32 len, u32 psn)
{
	u32 mtu = oib_mtu_to_int(qp->attr.path_mtu), n;
	bool first = true, last, frag = orxe_frag_tx();
	struct orxe_train train;
	struct orxe_tx_hdr hdr;
	struct sk_buff *skb;
	u8 *payload;

	orxe_train_start(&train, orxe_qp_port(qp));
	do {
		last = len <= mtu;
		n = min(len, mtu);
		if (!orxe_conn_hdr(qp, &hdr))
			break;
		hdr.opcode = orxe_qp_opcode(qp, first ? (last ? ORXE_RC_RDMA_READ_RESPONSE_ONLY :
							 ORXE_RC_RDMA_READ_RESPONSE_FIRST) :
						(last ? ORXE_RC_RDMA_READ_RESPONSE_LAST :
							ORXE_RC_RDMA_READ_RESPONSE_MIDDLE));
		hdr.psn = psn;
		hdr.aeth.syndrome = orxe_aeth_syn_ack(ORXE_AETH_NO_CREDITS);
		hdr.aeth.msn = qp->resp.msn;
		hdr.paylen = n;
		if (!frag || !oib_rxe_train_add(&train, &hdr, src)) {
			skb = orxe_frame_alloc(&hdr, &payload);
			if (!skb)
				break;		/* lost: the requester asks again */
			memcpy(payload, src, n);
			orxe_train_xmit(&train, skb);
		}
		src += n;
		len -= n;
		psn = orxe_psn_add(psn, 1);
		first = false;
	} while (!last);
	orxe_train_send(&train);
}

/* Keep a read or atomic to answer its duplicates; the oldest gives way. */
static struct orxe_rsrc *orxe_resp_rsrc_new(struct orxe_resp *resp)
{
	struct orxe_rsrc *r = &resp->rsrc[resp->rsrc_next];

	resp->rsrc_next = (resp->rsrc_next + 1) % resp->nrsrc;
	return r;
}

static struct orxe_rsrc *orxe_resp_rsrc_find(struct orxe_resp *resp, u32 psn)
{
	u32 i;

	for (i = 0; i < resp->nrsrc; i++) {
		struct orxe_rsrc *r = &resp->rsrc[i];

		if (r->opcode && orxe_psn_cmp(psn, r->first_psn) >= 0 &&
		    orxe_psn_cmp(psn, r->last_psn) <= 0)
			return r;
	}
	return NULL;
}

static void orxe_resp_complete(struct orxe_qp *qp, const struct orxe_pkt *pkt,
			       enum oib_wc_status st)
{
	struct oib_wc wc = {
		.wr_id = qp->resp.recv.wqe.wr_id,
		.status = st,
		.opcode = pkt->info->flags & ORXE_OPF_WRITE ? OIB_WC_RECV_RDMA_WITH_IMM :
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
	oib_sw_cq_post(oib_sw_cq(qp->ib.qp_type == OIB_QPT_XRC_TGT ? qp->resp.xsrq->ib.cq :
				 qp->ib.recv_cq), &wc, pkt->solicited);
}

/* Make sure a receive WQE is held for the message; false if none is posted. */
static bool orxe_resp_get_recv(struct orxe_qp *qp, struct orxe_resp_after *after)
{
	struct orxe_resp *resp = &qp->resp;
	u8 ev;

	if (resp->have_recv)
		return true;
	resp->have_recv = orxe_recv_take(qp, &resp->recv.wqe, ORXE_MAX_SGE, &ev);
	after->recv_ev |= ev;
	return resp->have_recv;
}

/*
 * The write target of a first packet, checked against the R_Key for the whole message; the key
 * and address are kept, not what they resolve to (see orxe_resp_write_place()).
 */
static enum orxe_resp_result orxe_resp_write_start(struct orxe_qp *qp, const struct orxe_pkt *pkt)
{
	struct orxe_resp *resp = &qp->resp;
	u32 len = be32_to_cpu(pkt->reth->len);

	if (!(qp->attr.qp_access_flags & OIB_ACCESS_REMOTE_WRITE))
		return ORXE_RESP_ACCESS;
	resp->va = be64_to_cpu(pkt->reth->va);
	resp->rkey = be32_to_cpu(pkt->reth->rkey);
	if (!orxe_rkey_ok(to_rdev(qp->ib.device), orxe_qp_data_pd(qp), resp->rkey, resp->va, len,
			  OIB_ACCESS_REMOTE_WRITE))
		return ORXE_RESP_ACCESS;
	resp->resid = len;
	return ORXE_RESP_OK;
}

/*
 * Place @n payloads of @len bytes each where the write in progress goes on, their bytes resolved
 * now under its R_Key, the MR held only while they are copied: an MR deregistered or invalidated
 * since the first packet fails them.  False, nothing written, if the key no longer allows them.
 */
static bool orxe_resp_write_place(struct orxe_qp *qp, const void *const *payload, u32 n, u32 len)
{
	struct orxe_resp *resp = &qp->resp;
	struct oib_sw_mr *mr;
	u8 *dst;
	u32 i;

	dst = orxe_rkey_get(to_rdev(qp->ib.device), orxe_qp_data_pd(qp), resp->rkey, resp->va,
			    n * len, OIB_ACCESS_REMOTE_WRITE, &mr);
	if (!dst)
		return false;
	for (i = 0; i < n; i++, dst += len)
		memcpy(dst, payload[i], len);
	oib_sw_mr_put(mr);
	resp->va += n * len;
	resp->resid -= n * len;
	return true;
}

/* A send or write packet at epsn. */
static enum orxe_resp_result orxe_resp_data(struct orxe_qp *qp, const struct orxe_pkt *pkt,
					    struct orxe_resp_after *after)
{
	struct orxe_resp *resp = &qp->resp;
	u16 f = pkt->info->flags, kind = f & (ORXE_OPF_SEND | ORXE_OPF_WRITE);
	u32 mtu = oib_mtu_to_int(qp->attr.path_mtu);
	bool first = f & ORXE_OPF_FIRST, last = f & ORXE_OPF_LAST;
	const void *payload = pkt->payload;
	enum orxe_resp_result res;

	/* a first packet between messages, the rest of the same message otherwise */
	if (first != !resp->op || (!first && resp->op != kind))
		return ORXE_RESP_INVALID;
	if (last ? pkt->paylen > mtu : pkt->paylen != mtu)
		return ORXE_RESP_INVALID;
	if (first)
		resp->off = 0;

	if (kind == ORXE_OPF_WRITE) {
		if (first) {
			res = orxe_resp_write_start(qp, pkt);
			if (res)
				return res;
		}
		if (last ? pkt->paylen != resp->resid : pkt->paylen >= resp->resid)
			return ORXE_RESP_INVALID;
		if ((f & ORXE_OPF_RECV) && !orxe_resp_get_recv(qp, after))
			return ORXE_RESP_RNR;	/* before the data: the retry writes it again */
		if (!orxe_resp_write_place(qp, &payload, 1, pkt->paylen))
			return ORXE_RESP_ACCESS;
	} else {
		if (!orxe_resp_get_recv(qp, after))
			return ORXE_RESP_RNR;
		if (resp->off + pkt->paylen > orxe_recv_capacity(&resp->recv.wqe)) {
			orxe_resp_complete(qp, pkt, OIB_WC_LOC_LEN_ERR);
			return ORXE_RESP_INVALID;
		}
		if (!orxe_sgl_copy(qp, resp->recv.wqe.sge, resp->recv.wqe.num_sge, resp->off,
				   (void *)pkt->payload, pkt->paylen, true)) {
			orxe_resp_complete(qp, pkt, OIB_WC_LOC_PROT_ERR);
			return ORXE_RESP_OP_ERR;
		}
	}
	resp->off += pkt->paylen;
	resp->op = last ? 0 : kind;
	if (!last)
		return ORXE_RESP_OK;

	resp->msn = orxe_psn_add(resp->msn, 1);
	if (pkt->ieth && oib_sw_mr_invalidate(&to_rdev(qp->ib.device)->mr_keys,
					      orxe_qp_data_pd(qp), be32_to_cpu(pkt->ieth->rkey),
					      true)) {
		orxe_resp_complete(qp, pkt, OIB_WC_LOC_QP_OP_ERR);
		return ORXE_RESP_INVALID;
	}
	if (f & ORXE_OPF_RECV)
		orxe_resp_complete(qp, pkt, OIB_WC_SUCCESS);
	return ORXE_RESP_OK;
}

/* An RDMA read request at epsn, or again (@dup) at a PSN it covered. */
static enum orxe_resp_result orxe_resp_read(struct orxe_qp *qp, const struct orxe_pkt *pkt,
					    bool dup)
{
	struct orxe_resp *resp = &qp->resp;
	u32 mtu = oib_mtu_to_int(qp->attr.path_mtu);
	u32 len = be32_to_cpu(pkt->reth->len), npsn;
	u64 va = be64_to_cpu(pkt->reth->va);
	struct orxe_rsrc *r;
	struct oib_sw_mr *mr;
	void *src;

	if (!(qp->attr.qp_access_flags & OIB_ACCESS_REMOTE_READ))
		return ORXE_RESP_ACCESS;
	/*
	 * A new read cannot come inside a message; a read asked again can: the message in
	 * progress is a later one, whose lost packet the requester's going back also sends again.
	 */
	if ((!dup && resp->op) || !resp->nrsrc || len > SZ_2G)
		return ORXE_RESP_INVALID;
	src = orxe_rkey_get(to_rdev(qp->ib.device), orxe_qp_data_pd(qp),
			    be32_to_cpu(pkt->reth->rkey), va, len, OIB_ACCESS_REMOTE_READ, &mr);
	if (!src)
		return ORXE_RESP_ACCESS;
	npsn = len ? DIV_ROUND_UP(len, mtu) : 1;
	if (!dup) {
		r = orxe_resp_rsrc_new(resp);
		r->opcode = pkt->opcode;
		r->first_psn = pkt->psn;
		r->last_psn = orxe_psn_add(pkt->psn, npsn - 1);
		r->va = va;
		r->rkey = be32_to_cpu(pkt->reth->rkey);
		r->len = len;
		resp->epsn = orxe_psn_add(resp->epsn, npsn);
		resp->msn = orxe_psn_add(resp->msn, 1);
	}
	orxe_resp_read_reply(qp, src, len, pkt->psn);	/* the MR held while it reads */
	oib_sw_mr_put(mr);
	return ORXE_RESP_OK;
}

static enum orxe_resp_result orxe_resp_atomic(struct orxe_qp *qp, const struct orxe_pkt *pkt)
{
	struct orxe_dev *rdev = to_rdev(qp->ib.device);
	const struct orxe_atmeth *a = pkt->atmeth;
	struct orxe_resp *resp = &qp->resp;
	u64 va = be64_to_cpu(a->va), orig;
	struct orxe_rsrc *r;
	struct oib_sw_mr *mr;
	u64 *target;

	if (!(qp->attr.qp_access_flags & OIB_ACCESS_REMOTE_ATOMIC))
		return ORXE_RESP_ACCESS;
	if (resp->op || !resp->nrsrc || (va & 7))
		return ORXE_RESP_INVALID;
	target = orxe_rkey_get(rdev, orxe_qp_data_pd(qp), be32_to_cpu(a->rkey), va, sizeof(u64),
			       OIB_ACCESS_REMOTE_ATOMIC, &mr);
	if (!target)
		return ORXE_RESP_ACCESS;

	spin_lock(&rdev->atomic_lock);
	orig = *target;
	if (orxe_rc_op(pkt->opcode) == ORXE_RC_FETCH_ADD)
		*target = orig + be64_to_cpu(a->swap_add);
	else if (orig == be64_to_cpu(a->compare))
		*target = be64_to_cpu(a->swap_add);
	spin_unlock(&rdev->atomic_lock);
	oib_sw_mr_put(mr);

	r = orxe_resp_rsrc_new(resp);
	r->opcode = pkt->opcode;
	r->first_psn = pkt->psn;
	r->last_psn = pkt->psn;
	r->orig = orig;
	resp->epsn = orxe_psn_add(resp->epsn, 1);
	resp->msn = orxe_psn_add(resp->msn, 1);
	orxe_resp_ack(qp, ORXE_RC_ATOMIC_ACKNOWLEDGE, pkt->psn,
		      orxe_aeth_syn_ack(ORXE_AETH_NO_CREDITS), orig);
	return ORXE_RESP_OK;
}

/* A request seen before: acknowledge it again, or answer it again from the resources. */
static void orxe_resp_duplicate(struct orxe_port *port, struct orxe_qp *qp,
				const struct orxe_pkt *pkt)
{
	struct orxe_resp *resp = &qp->resp;
	struct orxe_rsrc *r;

	orxe_port_count(port, OIB_RXE_RX_DUPLICATES);
	if (!(pkt->info->flags & (ORXE_OPF_READ | ORXE_OPF_ATOMIC))) {
		if (pkt->ack_req)
			orxe_resp_ack(qp, ORXE_RC_ACKNOWLEDGE, resp->ack_psn,
				      orxe_aeth_syn_ack(ORXE_AETH_NO_CREDITS), 0);
		return;
	}
	r = orxe_resp_rsrc_find(resp, pkt->psn);
	if (!r || r->opcode != pkt->opcode)
		return;		/* forgotten: the requester's retries run out */
	if (pkt->info->flags & ORXE_OPF_ATOMIC) {
		if (r->first_psn == pkt->psn)
			orxe_resp_ack(qp, ORXE_RC_ATOMIC_ACKNOWLEDGE, pkt->psn,
				      orxe_aeth_syn_ack(ORXE_AETH_NO_CREDITS), r->orig);
		return;
	}
	/* a read asked again from the middle must ask for the rest of the same bytes */
	if (be32_to_cpu(pkt->reth->rkey) == r->rkey &&
	    be64_to_cpu(pkt->reth->va) + be32_to_cpu(pkt->reth->len) == r->va + r->len)
		orxe_resp_read(qp, pkt, true);
}

/* A send or write packet at epsn, acknowledged if it asks. */
static enum orxe_resp_result orxe_resp_send_write(struct orxe_qp *qp, const struct orxe_pkt *pkt,
						  struct orxe_resp_after *after)
{
	enum orxe_resp_result res = orxe_resp_data(qp, pkt, after);

	if (res)
		return res;
	qp->resp.ack_psn = pkt->psn;
	qp->resp.epsn = orxe_psn_add(qp->resp.epsn, 1);
	if (pkt->ack_req)
		orxe_resp_ack(qp, ORXE_RC_ACKNOWLEDGE, pkt->psn,
			      orxe_aeth_syn_ack(ORXE_AETH_NO_CREDITS), 0);
	return ORXE_RESP_OK;
}

static enum orxe_resp_result orxe_resp_execute(struct orxe_qp *qp, const struct orxe_pkt *pkt,
					       struct orxe_resp_after *after)
{
	if (pkt->info->flags & ORXE_OPF_READ)
		return orxe_resp_read(qp, pkt, false);
	if (pkt->info->flags & ORXE_OPF_ATOMIC)
		return orxe_resp_atomic(qp, pkt);
	return orxe_resp_send_write(qp, pkt, after);
}

static void orxe_resp_rc(struct orxe_port *port, struct orxe_qp *qp, const struct orxe_pkt *pkt,
			 struct orxe_resp_after *after)
{
	struct orxe_resp *resp = &qp->resp;
	s32 d = orxe_psn_cmp(pkt->psn, resp->epsn);
	enum orxe_resp_result res;
	u32 psn = pkt->psn;

	if (d > 0) {
		orxe_port_count(port, OIB_RXE_RX_DROP_SEQ);
		if (!resp->nak_sent)
			orxe_resp_nak(qp, resp->epsn, ORXE_NAK_PSN_SEQ_ERROR);
		resp->nak_sent = true;
		return;
	}
	if (d < 0) {
		orxe_resp_duplicate(port, qp, pkt);
		return;
	}

	/* an XRC target's refusal to steer is NAKed below */
	res = qp->ib.qp_type == OIB_QPT_XRC_TGT ? orxe_xrc_check(port, qp, pkt) : ORXE_RESP_OK;
	if (!res)
		res = orxe_resp_execute(qp, pkt, after);

	switch (res) {
	case ORXE_RESP_OK:
		resp->nak_sent = false;
		break;
	case ORXE_RESP_RNR:
		orxe_resp_ack(qp, ORXE_RC_ACKNOWLEDGE, psn,
			      orxe_aeth_syn_rnr_nak(qp->attr.min_rnr_timer), 0);
		resp->nak_sent = true;	/* the packets behind it get no sequence NAK */
		break;
	case ORXE_RESP_INVALID:
		orxe_resp_nak(qp, psn, ORXE_NAK_INVALID_REQUEST);
		after->error = true;
		after->event = true;
		after->type = OIB_EVENT_QP_REQ_ERR;
		break;
	case ORXE_RESP_ACCESS:
		orxe_resp_nak(qp, psn, ORXE_NAK_REMOTE_ACCESS_ERROR);
		after->error = true;
		after->event = true;
		after->type = OIB_EVENT_QP_ACCESS_ERR;
		break;
	case ORXE_RESP_OP_ERR:
		orxe_resp_nak(qp, psn, ORXE_NAK_REMOTE_OP_ERROR);
		after->error = true;
		break;
	}
}

static void orxe_resp_uc(struct orxe_port *port, struct orxe_qp *qp, const struct orxe_pkt *pkt,
			 struct orxe_resp_after *after)
{
	struct orxe_resp *resp = &qp->resp;
	bool first = pkt->info->flags & ORXE_OPF_FIRST, last = pkt->info->flags & ORXE_OPF_LAST;
	enum orxe_resp_result res;

	if (pkt->psn != resp->epsn) {	/* lost packets: the message in progress goes */
		if (resp->op)
			orxe_port_count(port, OIB_RXE_RX_DROP_SEQ);
		resp->op = 0;
		resp->uc_drop = !first;
	}
	resp->epsn = orxe_psn_add(pkt->psn, 1);
	if (resp->uc_drop && !first) {
		orxe_port_count(port, OIB_RXE_RX_DROP_SEQ);
		return;
	}
	resp->uc_drop = false;

	res = orxe_resp_data(qp, pkt, after);
	if (res == ORXE_RESP_OK)
		return;
	/* the message is dropped: its receive, if it took one, serves the next */
	resp->op = 0;
	resp->uc_drop = !last;
	orxe_port_count(port, res == ORXE_RESP_RNR ? OIB_RXE_RX_DROP_NO_RECV :
			      res == ORXE_RESP_ACCESS ? OIB_RXE_RX_DROP_ACCESS :
			      OIB_RXE_RX_DROP_SEQ);
}

/**
 * orxe_resp_write_run() - execute a run of an RC write's middle packets at once
 * @port: the port they came in on, in one train
 * @qp: their QP, held
 * @pkt: the first of them, parsed
 * @run: all of them: each packet's headers are @pkt's but for the PSN, one more each time, and
 *	the AckReq bit (orxe_port.c checked), so each is what @pkt is, and the payload the same size
 *
 * If the QP is where the run needs it (receiving, a write going on that the run continues and
 * does not end, the first PSN the one expected, its R_Key still allowing all of them), they are
 * executed as one by one they would be: their bytes placed, epsn moved past them, and an ACK sent
 * for each that asks, once all are placed.  Otherwise nothing is done and the caller hands them
 * over one by one.
 *
 * Return: how many were executed: all or none.
 */
u32 orxe_resp_write_run(struct orxe_port *port, struct orxe_qp *qp, const struct orxe_pkt *pkt,
			const struct orxe_run *run)
{
	struct orxe_resp *resp = &qp->resp;
	u32 len = pkt->paylen, i;
	unsigned long flags;

	spin_lock_irqsave(&qp->rq_lock, flags);
	/* the last check places the bytes: when it fails, nothing was written */
	if (qp->ib.qp_type != OIB_QPT_RC || qp->state < OIB_QPS_RTR || qp->state == OIB_QPS_ERR ||
	    (qp->state == OIB_QPS_RTR && !resp->comm_est) || qp->attr.port_num != port->port_num ||
	    !orxe_conn_pkey_ok(qp, pkt) || resp->op != ORXE_OPF_WRITE ||
	    resp->epsn != run->psn || len != oib_mtu_to_int(qp->attr.path_mtu) ||
	    resp->resid <= run->n * len || !orxe_resp_write_place(qp, run->payload, run->n, len)) {
		spin_unlock_irqrestore(&qp->rq_lock, flags);
		return 0;
	}
	resp->off += run->n * len;
	resp->epsn = orxe_psn_add(resp->epsn, run->n);
	resp->ack_psn = orxe_psn_add(run->psn, run->n - 1);
	resp->nak_sent = false;
	for (i = 0; i < run->n; i++)
		if (run->acks & BIT(i))
			orxe_resp_ack(qp, ORXE_RC_ACKNOWLEDGE, orxe_psn_add(run->psn, i),
				      orxe_aeth_syn_ack(ORXE_AETH_NO_CREDITS), 0);
	spin_unlock_irqrestore(&qp->rq_lock, flags);
	orxe_port_count_n(port, OIB_RXE_RX_WRITE_RUNS, run->n);
	return run->n;
}

void orxe_resp_recv(struct orxe_port *port, struct orxe_qp *qp, const struct orxe_pkt *pkt)
{
	struct orxe_resp_after after = {};
	struct orxe_srq *srq;
	unsigned long flags;

	spin_lock_irqsave(&qp->rq_lock, flags);
	if (qp->state < OIB_QPS_RTR || qp->state == OIB_QPS_ERR) {
		spin_unlock_irqrestore(&qp->rq_lock, flags);
		orxe_port_count(port, OIB_RXE_RX_DROP_QP_STATE);
		return;
	}
	if (!orxe_conn_pkey_ok(qp, pkt)) {
		spin_unlock_irqrestore(&qp->rq_lock, flags);
		orxe_port_count(port, OIB_RXE_RX_DROP_PKEY);
		return;
	}
	if (qp->state == OIB_QPS_RTR && !qp->resp.comm_est) {
		qp->resp.comm_est = true;
		after.comm_est = true;
	}
	if (qp->ib.qp_type == OIB_QPT_XRC_TGT)
		orxe_xrc_steer(qp, pkt);
	srq = orxe_qp_xrc(qp) ? qp->resp.xsrq : to_rsrq(qp->ib.srq);
	if (orxe_qp_reliable(qp))
		orxe_resp_rc(port, qp, pkt, &after);
	else
		orxe_resp_uc(port, qp, pkt, &after);
	if (after.recv_ev && orxe_qp_xrc(qp))	/* the SRQ stays held until its events are out */
		qp->resp.xsrq = NULL;
	else if (qp->ib.qp_type == OIB_QPT_XRC_TGT)
		orxe_xrc_unsteer(qp);
	spin_unlock_irqrestore(&qp->rq_lock, flags);

	if (after.comm_est)
		orxe_qp_event(qp, OIB_EVENT_COMM_EST);
	if (after.recv_ev) {
		orxe_recv_events(qp, srq ? &srq->ib : NULL, after.recv_ev);
		if (orxe_qp_xrc(qp))
			orxe_xrc_srq_put(srq);
	}
	if (after.error && orxe_qp_err(qp) && after.event)
		orxe_qp_event(qp, after.type);
}
