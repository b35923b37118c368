// SPDX-License-Identifier: GPL-2.0-only
/*
 * FPDUs in, from the QP's rx work (queued by the socket's data_ready): the socket is read in
 * large pieces into a stream buffer, each FPDU gathered whole from there into the QP's rx
 * buffer (it may come in pieces: the work resumes where it stopped), its CRC
 * checked when negotiated, its header checked, then placed: a WRITE or READ response where its
 * STag and offset say, a SEND into the receive WQE its MSN took, a READ request queued for the
 * tx work.  Anything malformed or refused is counted and fails the QP with the TERMINATE that
 * says why; a TERMINATE, a reset or a close from the peer fails it without one.
 */
#include <linux/net.h>
#include <linux/socket.h>
#include <linux/uio.h>
#include "siw.h"

#define SIW_RX_BUDGET	64

/* Refill the stream buffer from the socket: 1, 0 (nothing there), -errno (-ECONNRESET: EOF). */
static int siw_rx_read(struct siw_qp *qp)
{
	struct msghdr msg = { .msg_flags = MSG_DONTWAIT };
	struct kvec iov = { .iov_base = qp->rxstream, .iov_len = SIW_RX_STREAM };
	int n = kernel_recvmsg(qp->sock, &msg, &iov, 1, iov.iov_len, MSG_DONTWAIT);

	if (n == -EAGAIN)
		return 0;
	if (!n)
		return -ECONNRESET;
	if (n < 0)
		return n;
	qp->rs_head = 0;
	qp->rs_tail = n;
	return 1;
}

/*
 * Gather the FPDU from the stream (what one read brought may hold many): 1 (whole), 0 (more
 * to come), -errno (-ECONNRESET: the peer closed, -EBADMSG: a length too short for a header).
 */
static int siw_rx_fill(struct siw_qp *qp)
{
	u32 n, ulpdu;
	int ret;

	while (qp->rx_have < qp->rx_need) {
		if (qp->rs_head == qp->rs_tail) {
			ret = siw_rx_read(qp);
			if (ret <= 0)
				return ret;
		}
		n = min(qp->rx_need - qp->rx_have, qp->rs_tail - qp->rs_head);
		memcpy(qp->rxbuf + qp->rx_have, qp->rxstream + qp->rs_head, n);
		qp->rs_head += n;
		qp->rx_have += n;
		if (qp->rx_need == SIW_FPDU_LEN_SIZE && qp->rx_have == SIW_FPDU_LEN_SIZE) {
			ulpdu = qp->rxbuf[0] << 8 | qp->rxbuf[1];
			if (ulpdu < SIW_TAGGED_LEN)
				return -EBADMSG;
			qp->rx_need = siw_fpdu_size(ulpdu);
		}
	}
	return 1;
}

static u32 siw_rx_access_term(int err)
{
	return err == -EACCES ? SIW_TERM_ACCESS : err == -ERANGE ? SIW_TERM_BOUNDS :
	       SIW_TERM_INV_STAG;
}

static u32 siw_rx_write(struct siw_qp *qp, const struct siw_tagged_hdr *h, u8 *data, u32 n)
{
	int ret = -EACCES;

	/* a zero-length WRITE (the RTR) touches nothing: no access to check */
	if (!n || READ_ONCE(qp->access) & OIB_ACCESS_REMOTE_WRITE)
		ret = siw_mem_copy(qp->sdev, qp->ib.pd, be32_to_cpu(h->stag), be64_to_cpu(h->to),
				   data, n, OIB_ACCESS_REMOTE_WRITE, true, true);

	if (ret)
		siw_count(qp->sdev, OIB_SIW_RX_ACCESS_ERRORS, 1);
	return ret ? siw_rx_access_term(ret) : 0;
}

/* A segment of the response to the READ at the head of the ORQ. */
static u32 siw_rx_read_resp(struct siw_qp *qp, const struct siw_tagged_hdr *h, u8 *data, u32 n,
			    bool last)
{
	struct siw_wqe rd;
	u32 idx, off;
	u64 sink_to;

	spin_lock_irq(&qp->lock);
	if (qp->orq_cons == qp->orq_prod) {
		spin_unlock_irq(&qp->lock);
		return SIW_TERM_OPCODE;		/* no READ outstanding */
	}
	idx = qp->orq[qp->orq_cons % SIW_MAX_ORD];
	rd = qp->sq[idx & qp->sq_mask];
	spin_unlock_irq(&qp->lock);

	sink_to = rd.num_sge ? rd.sge[0].addr : 0;
	off = be64_to_cpu(h->to) - sink_to;
	if ((rd.num_sge && be32_to_cpu(h->stag) != rd.sge[0].lkey) || off != qp->rresp_off)
		return SIW_TERM_INV_STAG;
	if (off + n > rd.len || (last && off + n != rd.len))
		return SIW_TERM_BOUNDS;
	if (siw_sgl_copy(qp, &rd, off, data, n, true))
		return SIW_TERM_LOCAL;
	qp->rresp_off += n;
	if (!last)
		return 0;
	qp->rresp_off = 0;
	spin_lock_irq(&qp->lock);
	qp->orq_cons++;
	qp->sq[idx & qp->sq_mask].done = true;
	qp->sq[idx & qp->sq_mask].status = OIB_WC_SUCCESS;
	spin_unlock_irq(&qp->lock);
	siw_qp_complete_sq(qp);
	siw_qp_kick(qp);		/* a READ or fenced WQE may have waited */
	return 0;
}

static u32 siw_rx_send(struct siw_qp *qp, const struct siw_untagged_hdr *h, enum siw_opcode op,
		       u8 *data, u32 n, bool last)
{
	u32 msn = be32_to_cpu(h->msn), mo = be32_to_cpu(h->mo), inv = 0;
	bool se = op == SIW_OP_SEND_SE || op == SIW_OP_SEND_SE_INV;
	enum oib_wc_status status = OIB_WC_SUCCESS;
	u32 term = 0;

	if (msn != qp->recv_msn || mo != (qp->recv_active ? qp->recv_len : 0)) {
		siw_count(qp->sdev, OIB_SIW_RX_MALFORMED, 1);
		return qp->recv_active || mo ? SIW_TERM_MO : SIW_TERM_MSN;
	}
	if (!qp->recv_active) {
		if (!siw_qp_take_recv(qp, &qp->recv)) {
			siw_count(qp->sdev, OIB_SIW_RX_NO_RECV, 1);
			return SIW_TERM_NO_BUF;
		}
		qp->recv_active = true;
		qp->recv_len = 0;
	}
	if (mo + n > qp->recv.len) {
		status = OIB_WC_LOC_LEN_ERR;
		term = SIW_TERM_TOO_LONG;
	} else if (siw_sgl_copy(qp, &qp->recv, mo, data, n, true)) {
		status = OIB_WC_LOC_PROT_ERR;
		term = SIW_TERM_LOCAL;
	}
	qp->recv_len = mo + n;
	if (!last && !term)
		return 0;
	if (!term && (op == SIW_OP_SEND_INV || op == SIW_OP_SEND_SE_INV)) {
		inv = be32_to_cpu(h->inval_stag);
		if (oib_sw_mr_invalidate(&qp->sdev->mr_keys, qp->ib.pd, inv, true)) {
			status = OIB_WC_LOC_PROT_ERR;
			term = SIW_TERM_INV_STAG;
		}
	}
	qp->recv_active = false;
	qp->recv_msn++;
	siw_qp_recv_done(qp, &qp->recv, status, qp->recv_len, se, inv);
	return term;
}

static u32 siw_rx_read_req(struct siw_qp *qp, const struct siw_read_req *r)
{
	struct siw_rresp *rr;
	u32 term = 0;

	if (be32_to_cpu(r->h.msn) != qp->rreq_msn || r->h.mo)
		return SIW_TERM_MSN;
	if (!(READ_ONCE(qp->access) & OIB_ACCESS_REMOTE_READ)) {
		siw_count(qp->sdev, OIB_SIW_RX_ACCESS_ERRORS, 1);
		return SIW_TERM_ACCESS;
	}
	spin_lock_irq(&qp->lock);
	if (qp->irq_prod - qp->irq_cons >= qp->ird) {
		term = SIW_TERM_IRD;
	} else {
		rr = &qp->irq[qp->irq_prod++ % SIW_MAX_IRD];
		rr->sink_stag = be32_to_cpu(r->sink_stag);
		rr->sink_to = be64_to_cpu(r->sink_to);
		rr->len = be32_to_cpu(r->size);
		rr->src_stag = be32_to_cpu(r->src_stag);
		rr->src_to = be64_to_cpu(r->src_to);
	}
	spin_unlock_irq(&qp->lock);
	if (term) {			/* the peer's ORD beyond our IRD */
		siw_count(qp->sdev, OIB_SIW_RX_MALFORMED, 1);
		return term;
	}
	qp->rreq_msn++;
	siw_qp_kick(qp);
	return 0;
}

/* The header's length each opcode needs (READ requests: exactly), and whether it is tagged. */
static const struct {
	u32 hlen;
	bool tagged;
	bool exact;
	u32 qn;
} siw_rx_ops[SIW_NOPS] = {
	[SIW_OP_WRITE] = { SIW_TAGGED_LEN, true },
	[SIW_OP_READ_REQ] = { SIW_READ_REQ_LEN, false, true, SIW_QN_READ_REQ },
	[SIW_OP_READ_RESP] = { SIW_TAGGED_LEN, true },
	[SIW_OP_SEND] = { SIW_UNTAGGED_LEN, false, false, SIW_QN_SEND },
	[SIW_OP_SEND_INV] = { SIW_UNTAGGED_LEN, false, false, SIW_QN_SEND },
	[SIW_OP_SEND_SE] = { SIW_UNTAGGED_LEN, false, false, SIW_QN_SEND },
	[SIW_OP_SEND_SE_INV] = { SIW_UNTAGGED_LEN, false, false, SIW_QN_SEND },
	[SIW_OP_TERMINATE] = { SIW_TERMINATE_LEN, false, false, SIW_QN_TERMINATE },
};

/* The header checks: 0, or the TERMINATE a malformed FPDU earns. */
static u32 siw_rx_check(struct siw_qp *qp, u32 ulpdu, u16 ctrl, const u8 *hdr)
{
	enum siw_opcode op = ctrl & SIW_CTRL_OP_MASK;
	u32 len = SIW_FPDU_LEN_SIZE + ulpdu + siw_fpdu_pad(ulpdu);
	__le32 crc;

	memcpy(&crc, qp->rxbuf + len, sizeof(crc));
	if (qp->crc && crc != siw_fpdu_crc(qp->rxbuf, len)) {
		siw_count(qp->sdev, OIB_SIW_RX_CRC_ERRORS, 1);
		return SIW_TERM_CRC;
	}
	if ((ctrl & SIW_CTRL_DV_MASK) != SIW_CTRL_DV1)
		return SIW_TERM_DDP_VERSION;
	if ((ctrl & SIW_CTRL_RV_MASK) != SIW_CTRL_RV1)
		return SIW_TERM_RDMAP_VERSION;
	if (op >= SIW_NOPS || siw_rx_ops[op].tagged != !!(ctrl & SIW_CTRL_T))
		return SIW_TERM_OPCODE;
	if (ulpdu < siw_rx_ops[op].hlen || (siw_rx_ops[op].exact && ulpdu != siw_rx_ops[op].hlen))
		return SIW_TERM_LENGTH;
	if (!siw_rx_ops[op].tagged &&
	    be32_to_cpu(((const struct siw_untagged_hdr *)hdr)->qn) != siw_rx_ops[op].qn)
		return SIW_TERM_QN;
	if ((op == SIW_OP_READ_REQ || op == SIW_OP_TERMINATE) && !(ctrl & SIW_CTRL_L))
		return SIW_TERM_OPCODE;
	return 0;
}

/* Check and place the whole FPDU in the rx buffer: 0, the TERMINATE to send, or -1 (none). */
static long siw_rx_fpdu(struct siw_qp *qp)
{
	u32 ulpdu = qp->rxbuf[0] << 8 | qp->rxbuf[1];
	u8 *hdr = qp->rxbuf + SIW_FPDU_LEN_SIZE;
	u16 ctrl = be16_to_cpu(*(__be16 *)hdr);
	enum siw_opcode op = ctrl & SIW_CTRL_OP_MASK;
	bool last = ctrl & SIW_CTRL_L;
	u32 n, term;

	term = siw_rx_check(qp, ulpdu, ctrl, hdr);
	if (term) {
		siw_count(qp->sdev, OIB_SIW_RX_MALFORMED, 1);
		return term;
	}
	n = ulpdu - siw_rx_ops[op].hlen;
	siw_count(qp->sdev, OIB_SIW_RX_FPDUS, 1);
	siw_count(qp->sdev, OIB_SIW_RX_BYTES, n);
	if (qp->rtr_wait) {
		qp->rtr_wait = false;
		siw_cm_rtr_received(qp->conn);
	}
	switch (op) {
	case SIW_OP_WRITE:
		return siw_rx_write(qp, (void *)hdr, hdr + SIW_TAGGED_LEN, n);
	case SIW_OP_READ_RESP:
		return siw_rx_read_resp(qp, (void *)hdr, hdr + SIW_TAGGED_LEN, n, last);
	case SIW_OP_READ_REQ:
		return siw_rx_read_req(qp, (void *)hdr);
	case SIW_OP_TERMINATE:
		siw_count(qp->sdev, OIB_SIW_RX_TERMINATES, 1);
		return -1;
	default:
		return siw_rx_send(qp, (void *)hdr, op, hdr + SIW_UNTAGGED_LEN, n, last);
	}
}

void siw_rx_work(struct work_struct *work)
{
	struct siw_qp *qp = container_of(work, struct siw_qp, rx_work);
	long term;
	int i, ret;

	for (i = 0; i < SIW_RX_BUDGET; i++) {
		if (READ_ONCE(qp->state) != SIW_QP_RTS)
			return;
		if (!qp->rx_need)
			qp->rx_need = SIW_FPDU_LEN_SIZE;
		ret = siw_rx_fill(qp);
		if (!ret)
			return;
		if (ret < 0) {
			if (ret == -EBADMSG) {
				siw_count(qp->sdev, OIB_SIW_RX_MALFORMED, 1);
				siw_qp_fail(qp, SIW_TERM_LENGTH, false);
			} else {
				siw_count(qp->sdev, OIB_SIW_RESETS, 1);
				siw_qp_fail(qp, 0, true);
			}
			return;
		}
		term = siw_rx_fpdu(qp);
		qp->rx_have = 0;
		qp->rx_need = SIW_FPDU_LEN_SIZE;
		if (term) {
			siw_qp_fail(qp, term > 0 ? term : 0, term < 0);
			return;
		}
	}
	queue_work(siw_wq, &qp->rx_work);	/* more may wait: let others run first */
}
