// SPDX-License-Identifier: GPL-2.0-only
/*
 * What an RC requester receives: ACKs, NAKs, read responses and atomic ACKs, under sq_lock.
 *
 * An ACK for PSN p acknowledges every packet up to p, so every request wholly before it completes,
 * in order.  Reads and atomics are answered only by their own responses: an ACK beyond one whose
 * response has not arrived means that response was lost, and the requester sends from there again.
 * Read response packets must arrive in order (the next one expected is always 'una'); anything out
 * of order, repeated or answering nothing outstanding is dropped and counted, and the ACK timer
 * recovers what was lost.  NAKs: a sequence NAK sends again from the PSN it names, an RNR NAK
 * waits first, and the error NAKs fail the request with the status the IBTA gives them and put
 * the QP in ERR.
 */
#include <linux/module.h>
#include "rxe.h"

/* PSNs before @una are acknowledged now; sending that had gone back before it moves on to it. */
static void rxe_comp_una(struct rxe_qp *qp, u32 una)
{
	qp->req.una = una;
	if (rxe_psn_cmp(una, qp->req.psn) > 0)
		rxe_req_seek(qp, una);
	rxe_req_progress(qp);
}

/*
 * Everything before @psn is acknowledged: complete the requests wholly before it.  A read or atomic
 * among them that has no response yet stops the walk (false: its response was lost), and 'una'
 * never moves past the start of a read or atomic: its responses move it.  If sending had gone
 * back to before @psn, it moves forward to 'una'.
 */
bool rxe_comp_ack_below(struct rxe_qp *qp, u32 psn)
{
	struct rxe_req *req = &qp->req;
	struct rxe_send_wqe *wqe = NULL;
	bool lost = false;
	u32 una = psn;

	while (qp->sq.cons != req->hw_next) {
		wqe = rxe_queue_head(&qp->sq);
		if (rxe_wr_rd_atomic(wqe->wr.opcode)) {
			lost = rxe_psn_cmp(wqe->last_psn, psn) < 0;
			if (rxe_psn_cmp(wqe->first_psn, psn) < 0)
				una = wqe->first_psn;
			break;
		}
		if (rxe_psn_cmp(wqe->last_psn, psn) >= 0)
			break;
		rxe_sq_complete(qp, OIB_WC_SUCCESS);
	}
	if (rxe_psn_cmp(una, req->una) > 0)
		rxe_comp_una(qp, una);
	return !lost;
}

/* The read or atomic at the head of the SQ got its last response: complete it. */
static void rxe_comp_rd_atomic_done(struct rxe_qp *qp, struct rxe_send_wqe *wqe, u32 psn)
{
	if (wqe->rd_atomic) {
		wqe->rd_atomic = false;
		qp->req.rd_atomic--;
	}
	rxe_sq_complete(qp, OIB_WC_SUCCESS);
	rxe_comp_una(qp, (psn + 1) & RXE_PSN_MASK);
}

/* The head of the SQ, if it is a read (or an atomic) sent and waiting for @psn's response. */
static struct rxe_send_wqe *rxe_comp_head(struct rxe_qp *qp, u32 psn, bool read)
{
	struct rxe_send_wqe *wqe;

	if (qp->sq.cons == qp->req.hw_next || psn != qp->req.una)
		return NULL;
	wqe = rxe_queue_head(&qp->sq);
	if (!rxe_wr_rd_atomic(wqe->wr.opcode))
		return NULL;
	if (read ? wqe->wr.opcode != OIB_WR_RDMA_READ : wqe->wr.opcode == OIB_WR_RDMA_READ)
		return NULL;
	if (rxe_psn_cmp(psn, wqe->first_psn) < 0 || rxe_psn_cmp(psn, wqe->last_psn) > 0)
		return NULL;
	return wqe;
}

/* A local buffer a response does not fit: the request fails and the QP goes to ERR. */
static void rxe_comp_fail(struct rxe_qp *qp, enum oib_wc_status status)
{
	rxe_sq_complete(qp, status);
	rxe_qp_err_locked(qp);
}

static bool rxe_comp_read(struct rxe_qp *qp, const struct rxe_pkt *pkt)
{
	u32 mtu = oib_mtu_to_int(qp->attr.path_mtu), k, n, total;
	struct rxe_send_wqe *wqe;

	if (!rxe_comp_ack_below(qp, pkt->psn))
		return false;
	wqe = rxe_comp_head(qp, pkt->psn, true);
	if (!wqe)
		return false;
	k = rxe_psn_cmp(pkt->psn, wqe->first_psn);
	total = rxe_psn_cmp(wqe->last_psn, wqe->first_psn) + 1;
	n = min(mtu, wqe->len - k * mtu);
	/* A read asked again from the middle is answered FIRST..LAST anew: check only the end. */
	if (!!(pkt->info->flags & RXE_OPF_LAST) != (k == total - 1) || pkt->paylen != n)
		return false;
	if (!rxe_sgl_copy(qp, wqe->sge, wqe->wr.num_sge, k * mtu, (void *)pkt->payload, n, true)) {
		rxe_comp_fail(qp, OIB_WC_LOC_PROT_ERR);
		return true;
	}
	if (k == total - 1)
		rxe_comp_rd_atomic_done(qp, wqe, pkt->psn);
	else
		rxe_comp_una(qp, (pkt->psn + 1) & RXE_PSN_MASK);
	return true;
}

static bool rxe_comp_atomic(struct rxe_qp *qp, const struct rxe_pkt *pkt)
{
	struct rxe_send_wqe *wqe;
	u64 orig;

	if (!rxe_comp_ack_below(qp, pkt->psn))
		return false;
	wqe = rxe_comp_head(qp, pkt->psn, false);
	if (!wqe)
		return false;
	orig = be64_to_cpu(pkt->atmack->orig);
	if (!rxe_sgl_copy(qp, wqe->sge, wqe->wr.num_sge, 0, &orig, sizeof(orig), true)) {
		rxe_comp_fail(qp, OIB_WC_LOC_PROT_ERR);
		return true;
	}
	rxe_comp_rd_atomic_done(qp, wqe, pkt->psn);
	return true;
}

static enum oib_wc_status rxe_nak_status(u8 code)
{
	switch (code) {
	case RXE_NAK_INVALID_REQUEST:
	case RXE_NAK_INVALID_RD_REQUEST:
		return OIB_WC_REM_INV_REQ_ERR;
	case RXE_NAK_REMOTE_ACCESS_ERROR:
		return OIB_WC_REM_ACCESS_ERR;
	default:
		return OIB_WC_REM_OP_ERR;
	}
}

/* An ACK, RNR NAK or NAK for @psn. */
static bool rxe_comp_ack(struct rxe_port *port, struct rxe_qp *qp, u32 psn, u8 syn)
{
	struct rxe_req *req = &qp->req;

	switch (syn & RXE_AETH_KIND_MASK) {
	case RXE_AETH_ACK:
		/* beyond a read or atomic with no response: that was lost, unless resent already */
		if (!rxe_comp_ack_below(qp, (psn + 1) & RXE_PSN_MASK) &&
		    !(req->going_back && req->back_psn == req->una))
			rxe_req_rewind(qp, req->una);
		return true;
	case RXE_AETH_RNR_NAK:
		rxe_comp_ack_below(qp, psn);
		rxe_port_count(port, OIB_RXE_RX_RNR_NAKS);
		if (req->rnr_wait)
			return false;	/* the same NAK again: already waiting */
		if (!req->rnr_left)
			rxe_comp_fail(qp, OIB_WC_RNR_RETRY_EXC_ERR);
		else
			rxe_req_rnr(qp, req->una, rxe_rnr_ns(syn & RXE_AETH_VALUE_MASK));
		return true;
	case RXE_AETH_NAK:
		rxe_comp_ack_below(qp, psn);
		rxe_port_count(port, OIB_RXE_RX_NAKS);
		if ((syn & RXE_AETH_VALUE_MASK) != RXE_NAK_PSN_SEQ_ERROR) {
			rxe_comp_fail(qp, rxe_nak_status(syn & RXE_AETH_VALUE_MASK));
		} else if (req->going_back && psn == req->back_psn) {
			return false;	/* a copy of a NAK already acted on */
		} else if (!req->retry_left) {
			rxe_comp_fail(qp, OIB_WC_RETRY_EXC_ERR);
		} else {
			req->retry_left--;
			rxe_req_rewind(qp, req->una);
		}
		return true;
	default:
		return false;	/* reserved */
	}
}

/* Is @psn one we sent and have not seen acknowledged (an ACK may repeat the last one)? */
static bool rxe_comp_psn_ok(struct rxe_qp *qp, u32 psn, bool ack)
{
	return rxe_psn_cmp(psn, qp->req.hw_psn) < 0 &&
	       rxe_psn_cmp(psn, qp->req.una) >= (ack ? -1 : 0);
}

static bool rxe_comp_packet(struct rxe_port *port, struct rxe_qp *qp, const struct rxe_pkt *pkt)
{
	u8 syn = pkt->aeth ? rxe_aeth_syndrome(pkt->aeth) : RXE_AETH_ACK;
	bool ack = pkt->opcode == RXE_RC_ACKNOWLEDGE;

	if (!rxe_comp_psn_ok(qp, pkt->psn, ack && (syn & RXE_AETH_KIND_MASK) == RXE_AETH_ACK))
		return false;
	if (ack)
		return rxe_comp_ack(port, qp, pkt->psn, syn);
	if ((syn & RXE_AETH_KIND_MASK) != RXE_AETH_ACK)
		return false;
	if (pkt->opcode == RXE_RC_ATOMIC_ACKNOWLEDGE)
		return rxe_comp_atomic(qp, pkt);
	return rxe_comp_read(qp, pkt);
}

void rxe_comp_recv(struct rxe_port *port, struct rxe_qp *qp, const struct rxe_pkt *pkt)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->sq_lock, flags);
	if (qp->state != OIB_QPS_RTS && qp->state != OIB_QPS_SQD) {
		rxe_port_count(port, OIB_RXE_RX_DROP_QP_STATE);
	} else if (!rxe_conn_pkey_ok(qp, pkt)) {
		rxe_port_count(port, OIB_RXE_RX_DROP_PKEY);
	} else {
		if (!rxe_comp_packet(port, qp, pkt))
			rxe_port_count(port, OIB_RXE_RX_DROP_RESP);
		rxe_req_run(qp);	/* the window may have opened */
	}
	spin_unlock_irqrestore(&qp->sq_lock, flags);
}
