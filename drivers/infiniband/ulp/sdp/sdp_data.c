// SPDX-License-Identifier: GPL-2.0-only
/*
 * Buffered copy: sendmsg() (sdp_tx.c) copies into a send buffer, posted here as a Data message;
 * received Data stays in its receive buffer until recvmsg() has read it all, and
 * the buffer is posted again then (so that the peer's credits follow what the reader took).
 * Completions are polled by the socket's work.  All of it under the socket lock.
 */
#include <linux/sched/signal.h>
#include <oib/compat.h>
#include "sdp_priv.h"

atomic_t sdp_rx_errors[SDP_RXE_NUM];
atomic_t sdp_connections;
atomic64_t sdp_tx_total, sdp_rx_total;
atomic64_t sdp_tx_msgs;

bool sdp_tx_slot_free(const struct sdp_sock *ssk)
{
	return ssk->tx_head - ssk->tx_tail < ssk->ntx;
}

/* Post the send buffer at tx_head, its @len bytes of payload already in place after the BSDH. */
int sdp_post_slot(struct sdp_sock *ssk, u8 mid, u32 len, bool disconn)
{
	unsigned int i = ssk->tx_head % ssk->ntx;
	struct oib_sdp_hdr h = { .mid = mid, .len = sizeof(struct oib_sdp_bsdh) + len };
	struct oib_sge sge = { .addr = (uintptr_t)ssk->tx_buf[i], .length = h.len,
			       .lkey = ssk->pd->local_dma_lkey };
	struct oib_send_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1,
				  .opcode = OIB_WR_SEND, .send_flags = OIB_SEND_SIGNALED };
	int ret;

	sdp_credit_tx(&ssk->credit, &h);
	oib_sdp_pack_bsdh((struct oib_sdp_bsdh *)ssk->tx_buf[i], &h);
	ret = oib_post_send(ssk->id->qp, &wr, NULL);
	if (ret)
		return ret;
	ssk->tx_len[i] = len;
	ssk->tx_disconn[i] = disconn;
	ssk->tx_bytes += len;
	ssk->tx_head++;
	ssk->last_active = jiffies;
	atomic64_add(len, &sdp_tx_total);
	if (len)
		atomic64_inc(&sdp_tx_msgs);
	return 0;
}

/*
 * A zero-length RDMA WRITE (SO_KEEPALIVE): no credit, a send slot (sdp_ctrl_slot_free()); its
 * completion is the answer.
 */
int sdp_post_keepalive(struct sdp_sock *ssk)
{
	unsigned int i = ssk->tx_head % ssk->ntx;
	struct oib_send_wr wr = { .wr_id = i, .opcode = OIB_WR_RDMA_WRITE,
				  .send_flags = OIB_SEND_SIGNALED };
	int ret;

	sdp_ctrl_slot_take(ssk);
	ret = oib_post_send(ssk->id->qp, &wr, NULL);

	if (ret)
		return ret;
	ssk->tx_len[i] = 0;
	ssk->tx_disconn[i] = false;
	ssk->tx_head++;
	return 0;
}

bool sdp_live(const struct sdp_sock *ssk)
{
	return ssk->id && ssk->id->qp && ssk->state >= SDP_ESTABLISHED;
}

/*
 * The Data message being filled when it may go (all of it before a DisConn), a queued DisConn
 * behind it, and a credit update when one is due.
 */
void sdp_tx_more(struct sdp_sock *ssk)
{
	if (!sdp_live(ssk))
		return;
	if (sdp_tx_push(ssk, ssk->disconn_wanted)) {
		sdp_apply(ssk, SDP_EV_RESET);
		return;
	}
	if (ssk->disconn_wanted && !ssk->tx_fill && sdp_tx_slot_free(ssk) &&
	    sdp_credit_may_send(&ssk->credit, SDP_TX_CONTROL)) {
		ssk->disconn_wanted = false;
		if (sdp_post_slot(ssk, OIB_SDP_MID_DISCONN, 0, true))
			sdp_apply(ssk, SDP_EV_RESET);
	}
	if (sdp_live(ssk) && sdp_credit_update_due(&ssk->credit) && sdp_ctrl_slot_free(ssk) &&
	    sdp_credit_may_send(&ssk->credit, SDP_TX_UPDATE)) {
		sdp_ctrl_slot_take(ssk);
		if (sdp_post_slot(ssk, OIB_SDP_MID_DATA, 0, false))
			sdp_apply(ssk, SDP_EV_RESET);
	}
}

static void sdp_rx_done(struct sdp_sock *ssk, const struct oib_wc *wc)
{
	unsigned int i = (u32)wc->wr_id % ssk->nrx;
	u8 *buf = ssk->rx_buf[i];
	enum sdp_rx_error why;
	struct oib_sdp_msg msg;

	if (wc->status != OIB_WC_SUCCESS) {
		if (wc->status != OIB_WC_WR_FLUSH_ERR)
			sdp_apply(ssk, SDP_EV_RESET);
		return;
	}
	ssk->last_active = jiffies;
	switch (sdp_rx_classify(buf, wc->byte_len, ssk->state, &ssk->credit, &msg, &why)) {
	case SDP_RX_DATA:
		if (sock_flag(&ssk->sk, SOCK_DEAD)) {
			sdp_apply(ssk, SDP_EV_ABORT);	/* data after close: TCP's RST */
			break;
		}
		ssk->rx_ready[ssk->rx_tail++ % ssk->nrx] = i;
		ssk->rx_off[i] = msg.payload - buf;
		ssk->rx_end[i] = ssk->rx_off[i] + msg.payload_len;
		ssk->rx_bytes += msg.payload_len;
		atomic64_add(msg.payload_len, &sdp_rx_total);
		break;
	case SDP_RX_CREDITS:
		sdp_post_recv(ssk, i);
		break;
	case SDP_RX_DISCONN:
		sdp_post_recv(ssk, i);
		sdp_apply(ssk, SDP_EV_DISCONN_RCVD);
		break;
	case SDP_RX_RESET:
		atomic_inc(&sdp_rx_errors[why]);
		sdp_apply(ssk, SDP_EV_RESET);
		break;
	}
}

static void sdp_tx_done(struct sdp_sock *ssk, const struct oib_wc *wc)
{
	unsigned int i = ssk->tx_tail % ssk->ntx;

	if (ssk->tx_head == ssk->tx_tail)
		return;
	ssk->tx_tail++;
	ssk->tx_bytes -= ssk->tx_len[i];
	if (wc->status != OIB_WC_SUCCESS) {
		if (wc->status == OIB_WC_WR_FLUSH_ERR)
			return;
		sdp_apply(ssk, SDP_EV_RESET);
		if (wc->status == OIB_WC_RETRY_EXC_ERR)
			ssk->sk.sk_err = ETIMEDOUT;	/* the peer is gone, as TCP says */
		return;
	}
	if (ssk->tx_disconn[i])
		sdp_apply(ssk, SDP_EV_DISCONN_SENT);
}

/* Every completion there is, the CQ armed again; not before ESTABLISHED (see sdp_rx_check.c). */
void sdp_poll_cq(struct sdp_sock *ssk)
{
	struct oib_wc wc[8];
	int n, i;

	if (!ssk->cq || ssk->state < SDP_ESTABLISHED)
		return;
	do {
		while ((n = oib_poll_cq(ssk->cq, ARRAY_SIZE(wc), wc)) > 0) {
			for (i = 0; i < n; i++) {
				if (ssk->state == SDP_CLOSED)
					return;		/* reset: the rest are flushes */
				if (wc[i].wr_id & SDP_RX_WR)
					sdp_rx_done(ssk, &wc[i]);
				else
					sdp_tx_done(ssk, &wc[i]);
			}
		}
	} while (oib_req_notify_cq(ssk->cq, OIB_CQ_NEXT_COMP | OIB_CQ_REPORT_MISSED_EVENTS) > 0);
	ssk->sk.sk_state_change(&ssk->sk);
}

/* Give a buffer whose data was read back to the peer. */
static void sdp_rx_consumed(struct sdp_sock *ssk, unsigned int i)
{
	ssk->rx_head++;
	if (sdp_live(ssk) && sdp_post_recv(ssk, i))
		sdp_apply(ssk, SDP_EV_RESET);
}

/* Copy what is queued, from its start; consume it unless @peek.  Bytes copied, or -EFAULT. */
static int sdp_copy_out(struct sdp_sock *ssk, struct msghdr *msg, size_t len, bool peek)
{
	unsigned int h = ssk->rx_head;
	size_t copied = 0;

	while (copied < len && h != ssk->rx_tail) {
		unsigned int i = ssk->rx_ready[h % ssk->nrx];
		u32 off = ssk->rx_off[i], n = min_t(size_t, ssk->rx_end[i] - off, len - copied);

		if (copy_to_iter(ssk->rx_buf[i] + off, n, &msg->msg_iter) != n)
			return copied ? copied : -EFAULT;
		copied += n;
		h++;
		if (peek)
			continue;
		ssk->rx_off[i] += n;
		ssk->rx_bytes -= n;
		if (ssk->rx_off[i] == ssk->rx_end[i])
			sdp_rx_consumed(ssk, i);
		else
			break;
	}
	return copied;
}

static bool sdp_recv_wake(const struct sdp_sock *ssk)
{
	return ssk->rx_bytes || ssk->sk.sk_err || (ssk->sk.sk_shutdown & RCV_SHUTDOWN) ||
	       ssk->state < SDP_ESTABLISHED;
}

/* recvmsg() may return: 0; an error; 1: wait. */
static int sdp_recv_ready(struct sdp_sock *ssk)
{
	struct sock *sk = &ssk->sk;

	if (ssk->rx_bytes)
		return 0;
	if (sk->sk_err)
		return sock_error(sk);
	if (sk->sk_shutdown & RCV_SHUTDOWN)
		return 0;
	if (ssk->state < SDP_ESTABLISHED)
		return -ENOTCONN;
	return 1;
}

int sdp_recvmsg(struct socket *sock, struct msghdr *msg, size_t len, int flags)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = sock->sk;
	struct sdp_sock *ssk = sdp_sk(sk);
	size_t copied = 0;
	long timeo;
	int ret = 0;

	if (flags & ~(MSG_DONTWAIT | MSG_PEEK | MSG_WAITALL | MSG_NOSIGNAL | MSG_CMSG_COMPAT))
		return -EOPNOTSUPP;
	lock_sock(sk);
	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	add_wait_queue(sk_sleep(sk), &wait);
	while (copied < len) {
		ret = sdp_copy_out(ssk, msg, len - copied, flags & MSG_PEEK);
		if (ret < 0)
			break;
		copied += ret;
		if (copied == len || (copied && (!(flags & MSG_WAITALL) || (flags & MSG_PEEK))))
			break;
		ret = sdp_recv_ready(ssk);
		if (ret <= 0 && !ssk->rx_bytes)
			break;
		if (!timeo) {
			ret = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			ret = sock_intr_errno(timeo);
			break;
		}
		sk_wait_event(sk, &timeo, sdp_recv_wake(ssk), &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	sdp_tx_more(ssk);
	release_sock(sk);
	return copied ? copied : ret;
}
