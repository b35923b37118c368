// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RC and UC requester: requests become packets, and the ACK timer drives retransmission.
 * An XRC initiator is an RC requester whose packets carry XRC opcodes and the XRCETH naming the
 * XRC SRQ each request is for.
 *
 * A message goes out as path-MTU packets, one PSN each; a read request takes one PSN per response
 * packet it asks for, an atomic one.  Everything runs under the QP's sq_lock, from whoever calls:
 * post_send and modify (orxe_req_kick()), the receive path once an ACK opens the window
 * (orxe_comp.c), and the timer's work.
 *
 * Sending stops at the window (ORXE_WINDOW PSNs unacknowledged), at a read or atomic beyond
 * max_rd_atomic, at a fenced request while reads or atomics are outstanding, and during an RNR
 * delay.  AckReq is set on the last packet of a burst, of a resend and of the window, and at least
 * every ORXE_ACK_EVERY PSNs, so the responder acknowledges many packets with one ACK.
 *
 * The ACK timer runs while anything is unacknowledged, restarted by every step forward.  When it
 * expires, or a sequence NAK arrives, the requester goes back to the oldest unacknowledged PSN and
 * sends from there again, at most retry_cnt times without progress before the request fails with
 * RETRY_EXC_ERR.  After a timeout only ORXE_RECOVERY packets go, each asking for an ACK, until
 * something is acknowledged: a slow path is not flooded with what it may still be delivering.  An
 * RNR NAK waits out the delay it names and then does the same, rnr_retry times (7: for ever).  UC
 * has no ACKs: a request completes when its last packet leaves.
 */
#include <linux/module.h>
#include <linux/skbuff.h>
#include "orxe.h"

#define ORXE_WINDOW	64	/* PSNs unacknowledged at most */
#define ORXE_ACK_EVERY	16	/* PSNs between two AckReqs at most */
#define ORXE_RECOVERY	4	/* the window after a timeout, until something is acknowledged */
#define ORXE_UC_OPCODE	0x20	/* a UC opcode is the RC one with this bit */
#define ORXE_RNR_FOREVER	7

enum orxe_pos { ORXE_POS_FIRST, ORXE_POS_MIDDLE, ORXE_POS_LAST, ORXE_POS_ONLY };

/* The RC opcode of each packet of a send or write, by its place in the message. */
static const u8 orxe_msg_opcodes[OIB_WR_MAX][4] = {
	[OIB_WR_SEND] = { ORXE_RC_SEND_FIRST, ORXE_RC_SEND_MIDDLE, ORXE_RC_SEND_LAST,
			  ORXE_RC_SEND_ONLY },
	[OIB_WR_SEND_WITH_IMM] = { ORXE_RC_SEND_FIRST, ORXE_RC_SEND_MIDDLE,
				   ORXE_RC_SEND_LAST_WITH_IMMEDIATE,
				   ORXE_RC_SEND_ONLY_WITH_IMMEDIATE },
	[OIB_WR_SEND_WITH_INV] = { ORXE_RC_SEND_FIRST, ORXE_RC_SEND_MIDDLE,
				   ORXE_RC_SEND_LAST_WITH_INVALIDATE,
				   ORXE_RC_SEND_ONLY_WITH_INVALIDATE },
	[OIB_WR_RDMA_WRITE] = { ORXE_RC_RDMA_WRITE_FIRST, ORXE_RC_RDMA_WRITE_MIDDLE,
				ORXE_RC_RDMA_WRITE_LAST, ORXE_RC_RDMA_WRITE_ONLY },
	[OIB_WR_RDMA_WRITE_WITH_IMM] = { ORXE_RC_RDMA_WRITE_FIRST, ORXE_RC_RDMA_WRITE_MIDDLE,
					 ORXE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE,
					 ORXE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE },
};

/* The IBTA's RNR NAK timer values (the 5-bit code in the AETH), in microseconds. */
static const u32 orxe_rnr_us[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920,
	2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440, 81920, 122880,
	163840, 245760, 327680, 491520,
};

u64 orxe_rnr_ns(u8 code)
{
	return (u64)orxe_rnr_us[code & 31] * NSEC_PER_USEC;
}

/* The local ACK timeout: 4.096 us * 2^timeout; 0 means none. */
static u64 orxe_timeout_ns(u8 timeout)
{
	return timeout ? 4096ULL << min_t(u8, timeout, 31) : 0;
}

/* Arm the timer to expire @ns from now; under sq_lock. */
void orxe_req_arm(struct orxe_qp *qp, u64 ns)
{
	if (qp->req.stopped || !ns)
		return;
	qp->req.deadline = ktime_add_ns(ktime_get(), ns);
	hrtimer_start(&qp->req.timer, qp->req.deadline, HRTIMER_MODE_ABS);
}

/* Something was acknowledged: the retry budgets refill and the ACK timer starts over. */
void orxe_req_progress(struct orxe_qp *qp)
{
	qp->req.retry_left = qp->attr.retry_cnt;
	qp->req.rnr_left = qp->attr.rnr_retry;
	qp->req.going_back = false;
	qp->req.window = ORXE_WINDOW;
	if (qp->req.rnr_wait)
		return;
	if (qp->req.una == qp->req.hw_psn)
		hrtimer_try_to_cancel(&qp->req.timer);
	else
		orxe_req_arm(qp, orxe_timeout_ns(qp->attr.timeout));
}

/*
 * Move sending to @psn, a PSN sent before or the next new one: to the request it lies in and the
 * bytes of it before @psn.  Reads and atomics from there on count as not sent.
 */
void orxe_req_seek(struct orxe_qp *qp, u32 psn)
{
	struct orxe_req *req = &qp->req;
	u32 mtu = oib_mtu_to_int(qp->attr.path_mtu);
	struct orxe_send_wqe *wqe;
	bool started = true;
	s32 done;
	u32 i, j;

	for (i = qp->sq.cons; i != req->hw_next; i++) {
		wqe = orxe_queue_at(&qp->sq, i);
		if (orxe_psn_cmp(psn, wqe->last_psn) <= 0)
			break;
	}
	req->rd_atomic = 0;
	for (j = qp->sq.cons; j != req->hw_next; j++) {
		wqe = orxe_queue_at(&qp->sq, j);
		if ((s32)(j - i) >= 0)
			wqe->rd_atomic = false;
		else if (wqe->rd_atomic)
			req->rd_atomic++;
	}
	req->next = i;
	req->psn = psn;
	req->off = 0;
	if (i == req->hw_next)
		started = req->hw_off;
	if (!started || i == qp->sq.prod)
		return;
	wqe = orxe_queue_at(&qp->sq, i);
	done = orxe_psn_cmp(psn, wqe->first_psn);
	if (done > 0 && wqe->wr.opcode != OIB_WR_ATOMIC_CMP_AND_SWP &&
	    wqe->wr.opcode != OIB_WR_ATOMIC_FETCH_AND_ADD)
		req->off = done * mtu;
}

/* Go back to send again from @psn, the oldest unacknowledged PSN. */
void orxe_req_rewind(struct orxe_qp *qp, u32 psn)
{
	orxe_req_seek(qp, psn);
	qp->req.going_back = true;
	qp->req.back_psn = psn;
}

/* Sending moved on: remember how far it ever got. */
static void orxe_req_advanced(struct orxe_req *req)
{
	if (orxe_psn_cmp(req->psn, req->hw_psn) > 0 ||
	    (req->psn == req->hw_psn && (s32)(req->next - req->hw_next) > 0)) {
		req->hw_psn = req->psn;
		req->hw_next = req->next;
		req->hw_off = req->off;
	}
}

/* Start the requester at sq_psn as the QP enters RTS; under both locks. */
void orxe_req_start(struct orxe_qp *qp)
{
	struct orxe_req *req = &qp->req;

	req->psn = qp->attr.sq_psn & ORXE_PSN_MASK;
	req->una = req->psn;
	req->hw_psn = req->psn;
	req->hw_next = qp->sq.cons;
	req->hw_off = 0;
	req->ack_req_psn = req->psn;
	req->next = qp->sq.cons;
	req->off = 0;
	req->rd_atomic = 0;
	req->retry_left = qp->attr.retry_cnt;
	req->rnr_left = qp->attr.rnr_retry;
	req->rnr_wait = false;
	req->going_back = false;
	req->window = ORXE_WINDOW;
}

/*
 * Send the packet of @hdr with the @hdr->paylen bytes @off bytes into @wqe's payload, on @train:
 * by reference when they lie in one page of one SGE (its key checked, and its MR held, once a
 * run: @memo; the frame holds the page itself), else copied into a frame of its own.  -ENOMEM
 * without memory (a packet lost), -EACCES if a key fails.
 */
static int orxe_req_frame(struct orxe_qp *qp, struct orxe_send_wqe *wqe,
			  const struct orxe_tx_hdr *hdr, u32 off, struct orxe_train *train,
			  struct orxe_sge_memo *memo)
{
	bool inl = wqe->wr.send_flags & OIB_SEND_INLINE;
	struct sk_buff *skb;
	const void *kva;
	u8 *payload;

	if (hdr->paylen && !inl && orxe_frag_tx()) {
		kva = orxe_sgl_kva(qp, wqe->sge, wqe->wr.num_sge, off, hdr->paylen, memo);
		if (kva && oib_rxe_train_add(train, hdr, kva))
			return 0;
	}
	skb = orxe_frame_alloc(hdr, &payload);
	if (!skb)
		return -ENOMEM;
	if (inl) {
		memcpy(payload, (u8 *)wqe->sge + off, hdr->paylen);
	} else if (!orxe_sgl_copy(qp, wqe->sge, wqe->wr.num_sge, off, payload, hdr->paylen,
				  false)) {
		kfree_skb(skb);
		return -EACCES;
	}
	orxe_train_xmit(train, skb);
	return 0;
}

/*
 * Put the next packet of @wqe (at req.next) on @train and step past it; 0, or the status to fail
 * the request with.  A packet that finds no route is lost like any other: the timer resends it.
 */
static enum oib_wc_status orxe_req_packet(struct orxe_qp *qp, struct orxe_send_wqe *wqe, u32 mtu,
					  struct orxe_train *train, struct orxe_sge_memo *memo)
{
	struct orxe_req *req = &qp->req;
	enum oib_wr_opcode op = wqe->wr.opcode;
	u32 off = req->off, rem = wqe->len - off, npsn = 1;
	bool first = !off, last = true, rc = orxe_qp_reliable(qp);
	struct orxe_tx_hdr hdr;
	bool route;

	route = orxe_conn_hdr(qp, &hdr);
	hdr.psn = req->psn;
	switch (op) {
	case OIB_WR_RDMA_READ:
		hdr.opcode = ORXE_RC_RDMA_READ_REQUEST;
		hdr.reth.va = wqe->wr.wr.rdma.remote_addr + off;
		hdr.reth.rkey = wqe->wr.wr.rdma.rkey;
		hdr.reth.len = rem;
		npsn = rem ? DIV_ROUND_UP(rem, mtu) : 1;
		wqe->last_psn = orxe_psn_add(wqe->first_psn,
					     wqe->len ? DIV_ROUND_UP(wqe->len, mtu) - 1 : 0);
		hdr.paylen = 0;
		break;
	case OIB_WR_ATOMIC_CMP_AND_SWP:
	case OIB_WR_ATOMIC_FETCH_AND_ADD:
		hdr.opcode = op == OIB_WR_ATOMIC_CMP_AND_SWP ? ORXE_RC_COMPARE_SWAP :
							       ORXE_RC_FETCH_ADD;
		hdr.atmeth.va = wqe->wr.wr.atomic.remote_addr;
		hdr.atmeth.rkey = wqe->wr.wr.atomic.rkey;
		hdr.atmeth.swap_add = op == OIB_WR_ATOMIC_CMP_AND_SWP ? wqe->wr.wr.atomic.swap :
							       wqe->wr.wr.atomic.compare_add;
		hdr.atmeth.compare = wqe->wr.wr.atomic.compare_add;
		wqe->last_psn = req->psn;
		hdr.paylen = 0;
		break;
	default:	/* sends and writes */
		last = rem <= mtu;
		hdr.paylen = min(rem, mtu);
		hdr.opcode = orxe_msg_opcodes[op][first ? (last ? ORXE_POS_ONLY : ORXE_POS_FIRST) :
						 (last ? ORXE_POS_LAST : ORXE_POS_MIDDLE)];
		hdr.reth.va = wqe->wr.wr.rdma.remote_addr;
		hdr.reth.rkey = wqe->wr.wr.rdma.rkey;
		hdr.reth.len = wqe->len;
		hdr.imm = wqe->wr.ex.imm_data;
		hdr.ieth_rkey = wqe->wr.ex.invalidate_rkey;
		hdr.solicited = last && (wqe->wr.send_flags & OIB_SEND_SOLICITED);
		if (last)
			wqe->last_psn = req->psn;
		break;
	}
	if (qp->ib.qp_type == OIB_QPT_UC)
		hdr.opcode |= ORXE_UC_OPCODE;
	else
		hdr.opcode = orxe_qp_opcode(qp, hdr.opcode);
	hdr.xrc_srqn = wqe->wr.xrc_remote_srq_num;	/* read only for XRC opcodes */
	/*
	 * The end of a burst, of what is sent again, of the window, every ORXE_ACK_EVERY, and every
	 * packet after a timeout: each is a chance for an ACK to get through.
	 */
	hdr.ack_req = rc && !orxe_wr_rd_atomic(op) &&
		      ((last && req->next + 1 == qp->sq.prod) || req->window < ORXE_WINDOW ||
		       orxe_psn_add(req->psn, npsn) == req->hw_psn ||
		       orxe_psn_cmp(req->psn, req->ack_req_psn) >= ORXE_ACK_EVERY ||
		       orxe_psn_cmp(req->psn, req->una) + 1 >= req->window);
	if (hdr.ack_req)
		req->ack_req_psn = req->psn;

	if (route) {
		switch (orxe_req_frame(qp, wqe, &hdr, off, train, memo)) {
		case -EACCES:
			return OIB_WC_LOC_PROT_ERR;
		case 0:
			if (orxe_psn_cmp(req->psn, req->hw_psn) < 0)
				orxe_port_count(orxe_qp_port(qp), OIB_RXE_TX_RETRANSMITS);
			break;
		default:	/* no memory: lost */
			break;
		}
	}

	req->psn = orxe_psn_add(req->psn, npsn);
	if (orxe_wr_rd_atomic(op)) {
		wqe->rd_atomic = true;
		req->rd_atomic++;
	}
	if (last || orxe_wr_rd_atomic(op)) {
		req->off = 0;
		req->next++;
	} else {
		req->off += hdr.paylen;
	}
	return OIB_WC_SUCCESS;
}

/* Can the request at req.next start now?  Fences and the read/atomic limit hold it back. */
static bool orxe_req_may_start(struct orxe_qp *qp, struct orxe_send_wqe *wqe)
{
	struct orxe_req *req = &qp->req;

	/* SQD: nothing new starts, but what was sent before may need sending again */
	if (qp->state == OIB_QPS_SQD && orxe_psn_cmp(req->psn, req->hw_psn) >= 0)
		return false;
	if ((wqe->wr.send_flags & OIB_SEND_FENCE) && req->rd_atomic)
		return false;
	return !orxe_wr_rd_atomic(wqe->wr.opcode) || !qp->attr.max_rd_atomic ||
	       req->rd_atomic < qp->attr.max_rd_atomic;
}

static bool orxe_wr_local(enum oib_wr_opcode op)
{
	return op == OIB_WR_LOCAL_INV || op == OIB_WR_REG_MR;
}

/*
 * Execute a local operation (no packet: it takes no PSN) as the SQ reaches it; its status.  A
 * failed one completes with LOC_PROT_ERR once everything before it has.
 */
static enum oib_wc_status orxe_req_local(struct orxe_qp *qp, struct orxe_send_wqe *wqe)
{
	struct orxe_dev *rdev = to_rdev(qp->ib.device);
	int ret;

	wqe->last_psn = orxe_psn_add(qp->req.psn, ORXE_PSN_MASK);	/* none */
	if (wqe->wr.opcode == OIB_WR_REG_MR)
		ret = oib_sw_mr_reg(&rdev->mr_keys, qp->ib.pd, &wqe->wr);
	else
		ret = oib_sw_mr_invalidate(&rdev->mr_keys, qp->ib.pd, wqe->wr.ex.invalidate_rkey,
					   false);
	return ret ? OIB_WC_LOC_PROT_ERR : OIB_WC_SUCCESS;
}

/* Send what the window, the limits and the RNR delay allow, as trains where it can. */
static void orxe_req_send(struct orxe_qp *qp)
{
	u32 mtu = oib_mtu_to_int(qp->attr.path_mtu);
	struct orxe_req *req = &qp->req;
	struct orxe_sge_memo memo = {};
	struct orxe_send_wqe *wqe;
	struct orxe_train train;

	orxe_train_start(&train, orxe_qp_port(qp));
	while (req->next != qp->sq.prod && !req->rnr_wait) {
		wqe = orxe_queue_at(&qp->sq, req->next);
		if (wqe->status)
			break;		/* failed: completes once everything before it has */
		if (!req->off) {
			if (!orxe_req_may_start(qp, wqe))
				break;
			wqe->first_psn = req->psn;
			if (orxe_wr_local(wqe->wr.opcode)) {
				wqe->status = orxe_req_local(qp, wqe);
				if (wqe->status)
					break;
				req->next++;
				orxe_req_advanced(req);
				continue;
			}
			if (orxe_wr_rd_atomic(wqe->wr.opcode) && !qp->attr.max_rd_atomic) {
				wqe->status = OIB_WC_LOC_QP_OP_ERR;
				break;
			}
		}
		if (orxe_psn_cmp(req->psn, req->una) >= req->window)
			break;
		wqe->status = orxe_req_packet(qp, wqe, mtu, &train, &memo);
		if (wqe->status)
			break;
		orxe_req_advanced(req);
		if (qp->ib.qp_type == OIB_QPT_UC)	/* nothing to wait for */
			req->una = req->psn;
	}
	orxe_train_send(&train);
	orxe_sge_memo_drop(&memo);
}

/*
 * Send what may be sent, complete what is done at the head of the SQ, and keep the ACK timer
 * running while anything is unacknowledged; under sq_lock.  A request that failed before it
 * left completes with its status once everything before it has, and puts the QP in ERR.
 */
void orxe_req_run(struct orxe_qp *qp)
{
	struct orxe_send_wqe *wqe;

	if (qp->state != OIB_QPS_RTS && qp->state != OIB_QPS_SQD)
		return;
	orxe_req_send(qp);
	orxe_comp_ack_below(qp, qp->req.una);	/* UC: all that left; RC: local work */
	if (!orxe_queue_empty(&qp->sq) && qp->sq.cons == qp->req.next) {
		wqe = orxe_queue_head(&qp->sq);
		if (wqe->status) {
			orxe_sq_complete(qp, wqe->status);
			orxe_qp_err_locked(qp);
			return;
		}
	}
	if (qp->req.una != qp->req.hw_psn && !qp->req.rnr_wait &&
	    !hrtimer_is_queued(&qp->req.timer))
		orxe_req_arm(qp, orxe_timeout_ns(qp->attr.timeout));
}

void orxe_req_kick(struct orxe_qp *qp)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->sq_lock, flags);
	orxe_req_run(qp);
	spin_unlock_irqrestore(&qp->sq_lock, flags);
}

/* The timer's expiry: the end of an RNR delay, or an ACK timeout. */
static void orxe_req_work(struct work_struct *work)
{
	struct orxe_qp *qp = container_of(work, struct orxe_qp, req.work);
	struct orxe_req *req = &qp->req;
	unsigned long flags;

	spin_lock_irqsave(&qp->sq_lock, flags);
	if (req->stopped || (qp->state != OIB_QPS_RTS && qp->state != OIB_QPS_SQD))
		goto out;
	if (ktime_before(ktime_get(), req->deadline)) {	/* restarted since it fired */
		hrtimer_start(&req->timer, req->deadline, HRTIMER_MODE_ABS);
		goto out;
	}
	if (req->rnr_wait) {
		req->rnr_wait = false;
	} else if (req->una != req->hw_psn) {
		orxe_port_count(orxe_qp_port(qp), OIB_RXE_TX_TIMEOUTS);
		if (!req->retry_left) {
			orxe_sq_complete(qp, OIB_WC_RETRY_EXC_ERR);
			orxe_qp_err_locked(qp);
			goto out;
		}
		req->retry_left--;
		orxe_req_rewind(qp, req->una);
		req->window = ORXE_RECOVERY;
	}
	orxe_req_run(qp);
out:
	spin_unlock_irqrestore(&qp->sq_lock, flags);
}

static enum hrtimer_restart orxe_req_timer(struct hrtimer *timer)
{
	struct orxe_qp *qp = container_of(timer, struct orxe_qp, req.timer);

	queue_work(system_highpri_wq, &qp->req.work);
	return HRTIMER_NORESTART;
}

void orxe_req_init(struct orxe_qp *qp)
{
	hrtimer_init(&qp->req.timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	qp->req.timer.function = orxe_req_timer;
	INIT_WORK(&qp->req.work, orxe_req_work);
}

/* Destroy: no timer and no work runs after this. */
void orxe_req_stop(struct orxe_qp *qp)
{
	spin_lock_irq(&qp->sq_lock);
	qp->req.stopped = true;
	spin_unlock_irq(&qp->sq_lock);
	hrtimer_cancel(&qp->req.timer);
	cancel_work_sync(&qp->req.work);
}

/* An RNR NAK: wait @ns, then send again from @psn. */
void orxe_req_rnr(struct orxe_qp *qp, u32 psn, u64 ns)
{
	if (qp->attr.rnr_retry != ORXE_RNR_FOREVER)
		qp->req.rnr_left--;
	orxe_req_rewind(qp, psn);
	qp->req.rnr_wait = true;
	orxe_req_arm(qp, ns);
}
