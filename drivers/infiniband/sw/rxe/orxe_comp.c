// SPDX-License-Identifier: GPL-2.0-only
/*
 * What an RC (or XRC initiator) requester receives: ACKs, NAKs, read responses and atomic ACKs,
 * under sq_lock.
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
#include "orxe.h"

/* PSNs before @una are acknowledged now; sending that had gone back before it moves on to it. */
static void orxe_comp_una(struct orxe_qp *qp, u32 una)
{
	qp->req.una = una;
	if (orxe_psn_cmp(una, qp->req.psn) > 0)
		orxe_req_seek(qp, una);
	orxe_req_progress(qp);
}

/*
 * Everything before @psn is acknowledged: complete the requests wholly before it.  A read or atomic
 * among them that has no response yet stops the walk (false: its response was lost), and 'una'
 * never moves past the start of a read or atomic: its responses move it.  If sending had gone
 * back to before @psn, it moves forward to 'una'.
 */
bool orxe_comp_ack_below(struct orxe_qp *qp, u32 psn)
{
	struct orxe_req *req = &qp->req;
	struct orxe_send_wqe *wqe = NULL;
	bool lost = false;
	u32 una = psn;

	while (qp->sq.cons != req->hw_next) {
		wqe = orxe_queue_head(&qp->sq);
		if (orxe_wr_rd_atomic(wqe->wr.opcode)) {
			lost = orxe_psn_cmp(wqe->last_psn, psn) < 0;
			if (orxe_psn_cmp(wqe->first_psn, psn) < 0)
				una = wqe->first_psn;
			break;
		}
		if (orxe_psn_cmp(wqe->last_psn, psn) >= 0)
			break;
		orxe_sq_complete(qp, OIB_WC_SUCCESS);
	}
	if (orxe_psn_cmp(una, req->una) > 0)
		orxe_comp_una(qp, una);
	return !lost;
}

/* The read or atomic at the head of the SQ got its last response: complete it. */
static void orxe_comp_rd_atomic_done(struct orxe_qp *qp, struct orxe_send_wqe *wqe, u32 psn)
{
	if (wqe->rd_atomic) {
		wqe->rd_atomic = false;
		qp->req.rd_atomic--;
	}
	orxe_sq_complete(qp, OIB_WC_SUCCESS);
	orxe_comp_una(qp, (psn + 1) & ORXE_PSN_MASK);
}

/* The head of the SQ, if it is a read (or an atomic) sent and waiting for @psn's response. */
static struct orxe_send_wqe *orxe_comp_head(struct orxe_qp *qp, u32 psn, bool read)
{
	struct orxe_send_wqe *wqe;

	if (qp->sq.cons == qp->req.hw_next || psn != qp->req.una)
		return NULL;
	wqe = orxe_queue_head(&qp->sq);
	if (!orxe_wr_rd_atomic(wqe->wr.opcode))
		return NULL;
	if (read ? wqe->wr.opcode != OIB_WR_RDMA_READ : wqe->wr.opcode == OIB_WR_RDMA_READ)
		return NULL;
	if (orxe_psn_cmp(psn, wqe->first_psn) < 0 || orxe_psn_cmp(psn, wqe->last_psn) > 0)
		return NULL;
	return wqe;
}

/* A local buffer a response does not fit: the request fails and the QP goes to ERR. */
static void orxe_comp_fail(struct orxe_qp *qp, enum oib_wc_status status)
{
	orxe_sq_complete(qp, status);
	orxe_qp_err_locked(qp);
}

static bool orxe_comp_read(struct orxe_qp *qp, const struct orxe_pkt *pkt)
{
	u32 mtu = oib_mtu_to_int(qp->attr.path_mtu), k, n, total;
	struct orxe_send_wqe *wqe;

	if (!orxe_comp_ack_below(qp, pkt->psn))
		return false;
	wqe = orxe_comp_head(qp, pkt->psn, true);
	if (!wqe)
		return false;
	k = orxe_psn_cmp(pkt->psn, wqe->first_psn);
	total = orxe_psn_cmp(wqe->last_psn, wqe->first_psn) + 1;
	n = min(mtu, wqe->len - k * mtu);
	/* A read asked again from the middle is answered FIRST..LAST anew: check only the end. */
	if (!!(pkt->info->flags & ORXE_OPF_LAST) != (k == total - 1) || pkt->paylen != n)
		return false;
	if (!orxe_sgl_copy(qp, wqe->sge, wqe->wr.num_sge, k * mtu, (void *)pkt->payload, n, true)) {
		orxe_comp_fail(qp, OIB_WC_LOC_PROT_ERR);
		return true;
	}
	if (k == total - 1)
		orxe_comp_rd_atomic_done(qp, wqe, pkt->psn);
	else
		orxe_comp_una(qp, (pkt->psn + 1) & ORXE_PSN_MASK);
	return true;
}

static bool orxe_comp_atomic(struct orxe_qp *qp, const struct orxe_pkt *pkt)
{
	struct orxe_send_wqe *wqe;
	u64 orig;

	if (!orxe_comp_ack_below(qp, pkt->psn))
		return false;
	wqe = orxe_comp_head(qp, pkt->psn, false);
	if (!wqe)
		return false;
	orig = be64_to_cpu(pkt->atmack->orig);
	if (!orxe_sgl_copy(qp, wqe->sge, wqe->wr.num_sge, 0, &orig, sizeof(orig), true)) {
		orxe_comp_fail(qp, OIB_WC_LOC_PROT_ERR);
		return true;
	}
	orxe_comp_rd_atomic_done(qp, wqe, pkt->psn);
	return true;
}

static enum oib_wc_status orxe_nak_status(u8 code)
{
	switch (code) {
	case ORXE_NAK_INVALID_REQUEST:
	case ORXE_NAK_INVALID_RD_REQUEST:
		return OIB_WC_REM_INV_REQ_ERR;
	case ORXE_NAK_REMOTE_ACCESS_ERROR:
		return OIB_WC_REM_ACCESS_ERR;
	default:
		return OIB_WC_REM_OP_ERR;
	}
}

/* An ACK, RNR NAK or NAK for @psn. */
static bool orxe_comp_ack(struct orxe_port *port, struct orxe_qp *qp, u32 psn, u8 syn)
{
	struct orxe_req *req = &qp->req;

	switch (syn & ORXE_AETH_KIND_MASK) {
	case ORXE_AETH_ACK:
		/* beyond a read or atomic with no response: that was lost, unless resent already */
		if (!orxe_comp_ack_below(qp, (psn + 1) & ORXE_PSN_MASK) &&
		    !(req->going_back && req->back_psn == req->una))
			orxe_req_rewind(qp, req->una);
		return true;
	case ORXE_AETH_RNR_NAK:
		orxe_comp_ack_below(qp, psn);
		orxe_port_count(port, OIB_RXE_RX_RNR_NAKS);
		if (req->rnr_wait)
			return false;	/* the same NAK again: already waiting */
		if (!req->rnr_left)
			orxe_comp_fail(qp, OIB_WC_RNR_RETRY_EXC_ERR);
		else
			orxe_req_rnr(qp, req->una, orxe_rnr_ns(syn & ORXE_AETH_VALUE_MASK));
		return true;
	case ORXE_AETH_NAK:
		orxe_comp_ack_below(qp, psn);
		orxe_port_count(port, OIB_RXE_RX_NAKS);
		if ((syn & ORXE_AETH_VALUE_MASK) != ORXE_NAK_PSN_SEQ_ERROR) {
			orxe_comp_fail(qp, orxe_nak_status(syn & ORXE_AETH_VALUE_MASK));
		} else if (req->going_back && psn == req->back_psn) {
			return false;	/* a copy of a NAK already acted on */
		} else if (!req->retry_left) {
			orxe_comp_fail(qp, OIB_WC_RETRY_EXC_ERR);
		} else {
			req->retry_left--;
			orxe_req_rewind(qp, req->una);
		}
		return true;
	default:
		return false;	/* reserved */
	}
}

/* Is @psn one we sent and have not seen acknowledged (an ACK may repeat the last one)? */
static bool orxe_comp_psn_ok(struct orxe_qp *qp, u32 psn, bool ack)
{
	return orxe_psn_cmp(psn, qp->req.hw_psn) < 0 &&
	       orxe_psn_cmp(psn, qp->req.una) >= (ack ? -1 : 0);
}

static bool orxe_comp_packet(struct orxe_port *port, struct orxe_qp *qp, const struct orxe_pkt *pkt)
{
	u8 syn = pkt->aeth ? orxe_aeth_syndrome(pkt->aeth) : ORXE_AETH_ACK;
	bool ack = orxe_rc_op(pkt->opcode) == ORXE_RC_ACKNOWLEDGE;

	if (!orxe_comp_psn_ok(qp, pkt->psn, ack && (syn & ORXE_AETH_KIND_MASK) == ORXE_AETH_ACK))
		return false;
	if (ack)
		return orxe_comp_ack(port, qp, pkt->psn, syn);
	if ((syn & ORXE_AETH_KIND_MASK) != ORXE_AETH_ACK)
		return false;
	if (orxe_rc_op(pkt->opcode) == ORXE_RC_ATOMIC_ACKNOWLEDGE)
		return orxe_comp_atomic(qp, pkt);
	return orxe_comp_read(qp, pkt);
}

void orxe_comp_recv(struct orxe_port *port, struct orxe_qp *qp, const struct orxe_pkt *pkt)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->sq_lock, flags);
	if (qp->state != OIB_QPS_RTS && qp->state != OIB_QPS_SQD) {
		orxe_port_count(port, OIB_RXE_RX_DROP_QP_STATE);
	} else if (!orxe_conn_pkey_ok(qp, pkt)) {
		orxe_port_count(port, OIB_RXE_RX_DROP_PKEY);
	} else {
		if (!orxe_comp_packet(port, qp, pkt))
			orxe_port_count(port, OIB_RXE_RX_DROP_RESP);
		orxe_req_run(qp);	/* the window may have opened */
	}
	spin_unlock_irqrestore(&qp->sq_lock, flags);
}
