// SPDX-License-Identifier: GPL-2.0-only
/*
 * FPDUs out, from the QP's tx work: inbound READs' responses first, then the send queue in
 * order (a READ waits while ORD requests are outstanding, a fenced WQE while any is).  Each
 * FPDU is built whole in the QP's tx buffer (length, DDP/RDMAP header, payload, pad, CRC) and
 * sent with blocking sendmsg calls of up to SIW_TX_BUF bytes (several FPDUs of one message;
 * MSG_MORE while it goes on); an FPDU's payload is at most what fits a TCP segment
 * (qp->payload_max), so FPDUs stay aligned with segments.  The tx work
 * is also where a failed QP tells its peer, flushes and closes (siw_qp.c).
 */
#include <linux/net.h>
#include <linux/socket.h>
#include <linux/uio.h>
#include "siw.h"

#define SIW_TX_HDR_MAX	SIW_READ_REQ_LEN

int siw_sgl_copy(struct siw_qp *qp, const struct siw_wqe *wqe, u32 off, void *buf, u32 len,
		 bool to_sgl)
{
	const struct oib_sge *sge = wqe->sge;
	u32 i, n;
	int ret;

	for (i = 0; i < wqe->num_sge && len; i++, sge++) {
		if (off >= sge->length) {
			off -= sge->length;
			continue;
		}
		n = min(len, sge->length - off);
		ret = siw_mem_copy(qp->sdev, qp->ib.pd, sge->lkey, sge->addr + off, buf, n,
				   to_sgl ? OIB_ACCESS_LOCAL_WRITE : 0, false, to_sgl);
		if (ret)
			return ret;
		buf += n;
		len -= n;
		off = 0;
	}
	return len ? -EMSGSIZE : 0;
}

/* The FPDU being built: after those already in the tx buffer. */
static u8 *siw_tx_fpdu(struct siw_qp *qp)
{
	return qp->txbuf + qp->tx_len;
}

/* Where the payload of the FPDU being built goes, behind a header of @hlen bytes. */
static u8 *siw_tx_payload(struct siw_qp *qp, u32 hlen)
{
	return siw_tx_fpdu(qp) + SIW_FPDU_LEN_SIZE + hlen;
}

/* Send what the tx buffer holds. */
static int siw_tx_flush(struct siw_qp *qp, bool more)
{
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL | (more ? MSG_MORE : 0) };
	struct kvec iov = { .iov_base = qp->txbuf, .iov_len = qp->tx_len };
	int ret = kernel_sendmsg(qp->sock, &msg, &iov, 1, iov.iov_len);

	qp->tx_len = 0;
	if (ret != iov.iov_len)
		return ret < 0 ? ret : -EAGAIN;
	return 0;
}

/*
 * Finish the FPDU being built (its header and @plen bytes of payload are in): length, pad,
 * CRC.  The buffer goes to the socket when the message ends (!@more) or another FPDU might not
 * fit, so a long message takes few sendmsg calls.
 */
static int siw_tx_push(struct siw_qp *qp, u32 hlen, u32 plen, bool more)
{
	u8 *fpdu = siw_tx_fpdu(qp);
	u32 ulpdu = hlen + plen, pad = siw_fpdu_pad(ulpdu);
	u32 len = SIW_FPDU_LEN_SIZE + ulpdu + pad;
	__le32 crc = 0;

	*(__be16 *)fpdu = cpu_to_be16(ulpdu);
	memset(fpdu + SIW_FPDU_LEN_SIZE + ulpdu, 0, pad);
	if (qp->crc)
		crc = siw_fpdu_crc(fpdu, len);
	memcpy(fpdu + len, &crc, SIW_CRC_SIZE);
	qp->tx_len += len + SIW_CRC_SIZE;
	siw_count(qp->sdev, OIB_SIW_TX_FPDUS, 1);
	siw_count(qp->sdev, OIB_SIW_TX_BYTES, plen);
	if (more && qp->tx_len + siw_fpdu_size(SIW_READ_REQ_LEN + qp->payload_max) <= SIW_TX_BUF)
		return 0;
	return siw_tx_flush(qp, more);
}

static void siw_tx_untagged(struct siw_qp *qp, enum siw_opcode op, bool last, u32 inv, u32 qn,
			    u32 msn, u32 mo)
{
	struct siw_untagged_hdr *h = (void *)(siw_tx_fpdu(qp) + SIW_FPDU_LEN_SIZE);

	h->ctrl = cpu_to_be16(siw_ctrl(op, false, last));
	h->inval_stag = cpu_to_be32(inv);
	h->qn = cpu_to_be32(qn);
	h->msn = cpu_to_be32(msn);
	h->mo = cpu_to_be32(mo);
}

static void siw_tx_tagged(struct siw_qp *qp, enum siw_opcode op, bool last, u32 stag, u64 to)
{
	struct siw_tagged_hdr *h = (void *)(siw_tx_fpdu(qp) + SIW_FPDU_LEN_SIZE);

	h->ctrl = cpu_to_be16(siw_ctrl(op, true, last));
	h->stag = cpu_to_be32(stag);
	h->to = cpu_to_be64(to);
}

static enum siw_opcode siw_send_opcode(const struct siw_wqe *wqe)
{
	bool se = wqe->flags & OIB_SEND_SOLICITED;

	if (wqe->op == OIB_WR_SEND_WITH_INV)
		return se ? SIW_OP_SEND_SE_INV : SIW_OP_SEND_INV;
	return se ? SIW_OP_SEND_SE : SIW_OP_SEND;
}

/*
 * A SEND or WRITE, segment by segment.  0, a negative errno from the socket, or a positive
 * work completion status (a local key failed).
 */
static int siw_tx_message(struct siw_qp *qp, const struct siw_wqe *wqe)
{
	bool tagged = wqe->op == OIB_WR_RDMA_WRITE;
	u32 hlen = tagged ? SIW_TAGGED_LEN : SIW_UNTAGGED_LEN, off = 0, n;
	u32 msn = tagged ? 0 : qp->send_msn++;
	bool last;
	int ret;

	do {
		n = min(wqe->len - off, qp->payload_max);
		last = off + n == wqe->len;
		if (tagged)
			siw_tx_tagged(qp, SIW_OP_WRITE, last, wqe->rkey, wqe->raddr + off);
		else
			siw_tx_untagged(qp, siw_send_opcode(wqe), last,
					wqe->op == OIB_WR_SEND_WITH_INV ? wqe->inv : 0,
					SIW_QN_SEND, msn, off);
		if (siw_sgl_copy(qp, wqe, off, siw_tx_payload(qp, hlen), n, false)) {
			qp->tx_len = 0;		/* its FPDUs so far go nowhere: the QP fails */
			return OIB_WC_LOC_PROT_ERR;
		}
		ret = siw_tx_push(qp, hlen, n, !last);
		if (ret)
			return ret;
		off += n;
	} while (!last);
	return 0;
}

static int siw_tx_read_req(struct siw_qp *qp, const struct siw_wqe *wqe)
{
	struct siw_read_req *r = (void *)(siw_tx_fpdu(qp) + SIW_FPDU_LEN_SIZE);

	siw_tx_untagged(qp, SIW_OP_READ_REQ, true, 0, SIW_QN_READ_REQ, qp->read_msn++, 0);
	r->sink_stag = cpu_to_be32(wqe->num_sge ? wqe->sge[0].lkey : 0);
	r->sink_to = cpu_to_be64(wqe->num_sge ? wqe->sge[0].addr : 0);
	r->size = cpu_to_be32(wqe->len);
	r->src_stag = cpu_to_be32(wqe->rkey);
	r->src_to = cpu_to_be64(wqe->raddr);
	return siw_tx_push(qp, SIW_READ_REQ_LEN, 0, false);
}

/*
 * The response to an inbound READ: 0, -errno from the socket, or a SIW_TERM_* (positive).  Its
 * IRD slot is given back before its last FPDU goes: the peer may send its next READ request as
 * soon as it has that FPDU, and the request must find the slot free.  (On a failure the QP's
 * flush gives back every slot.)
 */
static long siw_tx_read_resp(struct siw_qp *qp, const struct siw_rresp *rr)
{
	u32 off = 0, n;
	bool last;
	int ret;

	do {
		n = min(rr->len - off, qp->payload_max);
		last = off + n == rr->len;
		siw_tx_tagged(qp, SIW_OP_READ_RESP, last, rr->sink_stag, rr->sink_to + off);
		ret = siw_mem_copy(qp->sdev, qp->ib.pd, rr->src_stag, rr->src_to + off,
				   siw_tx_payload(qp, SIW_TAGGED_LEN), n, OIB_ACCESS_REMOTE_READ,
				   true, false);
		if (ret) {
			qp->tx_len = 0;
			return ret == -EACCES ? SIW_TERM_ACCESS :
			       ret == -ERANGE ? SIW_TERM_BOUNDS : SIW_TERM_INV_STAG;
		}
		if (last) {
			spin_lock_irq(&qp->lock);
			qp->irq_cons++;
			spin_unlock_irq(&qp->lock);
		}
		ret = siw_tx_push(qp, SIW_TAGGED_LEN, n, !last);
		if (ret)
			return ret;
		off += n;
	} while (!last);
	return 0;
}

/* Run a WQE: 0 (done, or a READ now waiting), -errno (socket), or a WC status. */
static int siw_tx_wqe(struct siw_qp *qp, const struct siw_wqe *wqe)
{
	struct oib_send_wr reg = {
		.opcode = OIB_WR_REG_MR,
		.wr.reg = { .mr = wqe->mr, .key = wqe->key, .access = wqe->access },
	};

	switch (wqe->op) {
	case OIB_WR_RDMA_READ:
		return siw_tx_read_req(qp, wqe);
	case OIB_WR_LOCAL_INV:
		return oib_sw_mr_invalidate(&qp->sdev->mr_keys, qp->ib.pd, wqe->inv, false) ?
		       OIB_WC_LOC_PROT_ERR : 0;
	case OIB_WR_REG_MR:
		return oib_sw_mr_reg(&qp->sdev->mr_keys, qp->ib.pd, &reg) ? OIB_WC_MW_BIND_ERR : 0;
	default:
		return siw_tx_message(qp, wqe);
	}
}

/* Mark the WQE at @idx done with @status (0: success) and complete what can be. */
static void siw_tx_done(struct siw_qp *qp, u32 idx, enum oib_wc_status status)
{
	struct siw_wqe *wqe;

	spin_lock_irq(&qp->lock);
	wqe = &qp->sq[idx & qp->sq_mask];
	wqe->status = status;
	wqe->done = true;
	spin_unlock_irq(&qp->lock);
	siw_qp_complete_sq(qp);
}

/* The failed QP: the TERMINATE if one is due, the socket stopped, the queues flushed, closed. */
static void siw_tx_error(struct siw_qp *qp)
{
	struct socket *sock;
	bool report;
	u32 term;

	spin_lock_irq(&qp->lock);
	term = qp->peer_gone ? 0 : qp->term;
	qp->term = 0;
	sock = qp->sock;
	report = qp->conn && !qp->closed_reported;
	qp->closed_reported = true;
	spin_unlock_irq(&qp->lock);
	if (term && sock) {
		struct siw_terminate *t = (void *)(siw_tx_fpdu(qp) + SIW_FPDU_LEN_SIZE);

		siw_tx_untagged(qp, SIW_OP_TERMINATE, true, 0, SIW_QN_TERMINATE, 1, 0);
		t->ctrl = cpu_to_be32(term);
		if (!siw_tx_push(qp, SIW_TERMINATE_LEN, 0, false))
			siw_count(qp->sdev, OIB_SIW_TX_TERMINATES, 1);
	}
	if (sock)
		kernel_sock_shutdown(sock, SHUT_RDWR);
	cancel_work_sync(&qp->rx_work);
	siw_qp_flush(qp);
	if (report)
		siw_cm_qp_closed(qp->conn, qp->peer_gone);
}

/*
 * The next thing to send, taken under the lock: false if nothing may go now; else *@resp says
 * whether it is a read response (@rr) or a WQE (@wqe, the SQ's @idx).
 */
static bool siw_tx_next(struct siw_qp *qp, struct siw_rresp *rr, struct siw_wqe *wqe, u32 *idx,
			bool *resp)
{
	struct siw_wqe *w;

	lockdep_assert_held(&qp->lock);
	if (qp->state != SIW_QP_RTS)
		return false;
	*resp = qp->irq_cons != qp->irq_prod;
	if (*resp) {
		*rr = qp->irq[qp->irq_cons % SIW_MAX_IRD];
		return true;
	}
	if (qp->sq_next == qp->sq_prod)
		return false;
	w = &qp->sq[qp->sq_next & qp->sq_mask];
	if (w->op == OIB_WR_RDMA_READ && qp->orq_prod - qp->orq_cons >= qp->ord)
		return false;		/* the READ's response comes back first */
	if ((w->flags & OIB_SEND_FENCE) && qp->orq_prod != qp->orq_cons)
		return false;
	*wqe = *w;
	*idx = qp->sq_next++;
	if (w->op == OIB_WR_RDMA_READ)
		qp->orq[qp->orq_prod++ % SIW_MAX_ORD] = *idx;
	return true;
}

static void siw_tx_resp(struct siw_qp *qp, const struct siw_rresp *rr)
{
	long ret = siw_tx_read_resp(qp, rr);

	if (ret > 0)
		siw_count(qp->sdev, OIB_SIW_RX_ACCESS_ERRORS, 1);
	if (ret)
		siw_qp_fail(qp, ret > 0 ? ret : 0, ret < 0);
	else
		siw_qp_kick(qp);
}

/* One read response or WQE, then the work is queued again for the next. */
static void siw_tx_one(struct siw_qp *qp, struct siw_wqe *wqe)
{
	struct siw_rresp rr;
	bool have, resp;
	int ret;
	u32 idx;

	spin_lock_irq(&qp->lock);
	have = siw_tx_next(qp, &rr, wqe, &idx, &resp);
	spin_unlock_irq(&qp->lock);
	if (!have)
		return;
	if (resp) {
		siw_tx_resp(qp, &rr);
		return;
	}
	ret = siw_tx_wqe(qp, wqe);
	if (ret < 0) {			/* the connection broke: the WQE is flushed */
		siw_qp_fail(qp, 0, true);
		return;
	}
	if (wqe->op != OIB_WR_RDMA_READ || ret)
		siw_tx_done(qp, idx, ret);
	if (ret)
		siw_qp_fail(qp, SIW_TERM_LOCAL, false);
	else
		siw_qp_kick(qp);
}

void siw_tx_work(struct work_struct *work)
{
	struct siw_qp *qp = container_of(work, struct siw_qp, tx_work);
	struct siw_wqe *wqe = &qp->txwqe;

	if (READ_ONCE(qp->state) == SIW_QP_ERR)
		siw_tx_error(qp);
	else
		siw_tx_one(qp, wqe);
}
