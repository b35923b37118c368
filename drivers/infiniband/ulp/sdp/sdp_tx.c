// SPDX-License-Identifier: GPL-2.0-only
/*
 * The send side of buffered copy, and how small writes share a message.  sendmsg() appends to
 * the Data message at tx_head, which is not posted yet (@tx_fill bytes of payload), and
 * sdp_tx_push() posts it: a full one as soon as the credits allow; a partial one when the
 * credits allow and none of these holds it back, as TCP holds a partial segment:
 * TCP_CORK (until it is full or the socket uncorked), MSG_MORE on the last sendmsg() (until the
 * next one without it), or, unless TCP_NODELAY, a send still in flight (Nagle: its completion,
 * or the credits' return, lets the message go with whatever was added meanwhile).  Setting
 * TCP_NODELAY or clearing TCP_CORK, shutdown() and close() push it whatever holds it.  So a
 * stream of small writes becomes few messages, and a write into a peer that does not read is
 * taken up to one message beyond the credits.
 *
 * The slot of the message being filled is taken: a message of another kind (a credit update, a
 * keepalive) goes before it through sdp_ctrl_slot_take(), which moves the filled buffer one slot
 * on.  A DisConn waits until the message being filled went.  All of it under the socket lock.
 */
#include <linux/sched/signal.h>
#include <oib/compat.h>
#include "sdp_priv.h"

/* A message of another kind may take tx_head now: with one being filled, the slot after it. */
bool sdp_ctrl_slot_free(const struct sdp_sock *ssk)
{
	if (!ssk->tx_fill)
		return sdp_tx_slot_free(ssk);
	return ssk->tx_head + 1 - ssk->tx_tail < ssk->ntx;
}

/* Before such a message is posted: the buffer being filled moves to the slot after tx_head. */
void sdp_ctrl_slot_take(struct sdp_sock *ssk)
{
	unsigned int a = ssk->tx_head % ssk->ntx, b = (ssk->tx_head + 1) % ssk->ntx;

	if (ssk->tx_fill)
		swap(ssk->tx_buf[a], ssk->tx_buf[b]);
}

/* sendmsg() may add bytes: the message being filled has room, or a slot is free for a new one. */
bool sdp_tx_writable(const struct sdp_sock *ssk)
{
	u32 fill = READ_ONCE(ssk->tx_fill);

	return fill ? fill < SDP_PAYLOAD : sdp_tx_slot_free(ssk);
}

/* A partial message waits (the credits aside): corked, MSG_MORE, or Nagle's send in flight. */
static bool sdp_tx_hold(const struct sdp_sock *ssk)
{
	if (ssk->tx_fill >= SDP_PAYLOAD)
		return false;
	if (ssk->opt.cork || ssk->tx_msg_more)
		return true;
	return !ssk->opt.nodelay && ssk->tx_head != ssk->tx_tail;
}

/* Post the message being filled if the credits allow and nothing holds it (@force: whatever). */
int sdp_tx_push(struct sdp_sock *ssk, bool force)
{
	int ret;

	if (!ssk->tx_fill || !sdp_live(ssk) || !sdp_tx_slot_free(ssk) ||
	    !sdp_credit_may_send(&ssk->credit, SDP_TX_DATA))
		return 0;
	if (!force && sdp_tx_hold(ssk))
		return 0;
	ret = sdp_post_slot(ssk, OIB_SDP_MID_DATA, ssk->tx_fill, false);
	if (!ret)
		ssk->tx_fill = 0;
	return ret;
}

/* Something a sender waits for happened (no side effect: a wait's condition). */
static bool sdp_send_wake(const struct sdp_sock *ssk)
{
	return ssk->sk.sk_err || !sdp_state_can_send(ssk->state) ||
	       (ssk->sk.sk_shutdown & SEND_SHUTDOWN) || !sdp_live(ssk) || sdp_tx_writable(ssk) ||
	       (ssk->tx_fill && sdp_credit_may_send(&ssk->credit, SDP_TX_DATA));
}

/* sendmsg() may add bytes now: 0; or why it never will (-errno); 1: wait. */
static int sdp_send_ready(struct sdp_sock *ssk)
{
	if (ssk->sk.sk_err)
		return sock_error(&ssk->sk);
	if (!sdp_state_can_send(ssk->state) || (ssk->sk.sk_shutdown & SEND_SHUTDOWN))
		return -EPIPE;
	if (!sdp_live(ssk))
		return -EPIPE;
	return sdp_tx_writable(ssk) ? 0 : 1;
}

/* Until there is room: a full message (no room) posted as soon as it may go. */
static int sdp_wait_send(struct sdp_sock *ssk, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &ssk->sk;
	int ret;

	add_wait_queue(sk_sleep(sk), &wait);
	for (;;) {
		if (!sdp_tx_writable(ssk) && sdp_tx_push(ssk, false))
			sdp_apply(ssk, SDP_EV_RESET);
		ret = sdp_send_ready(ssk);
		if (ret != 1)
			break;
		if (!*timeo) {
			ret = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			ret = sock_intr_errno(*timeo);
			break;
		}
		sk_wait_event(sk, timeo, sdp_send_wake(ssk), &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return ret;
}

/* Append what fits of @len bytes to the message being filled: the bytes taken, or -EFAULT. */
static int sdp_tx_append(struct sdp_sock *ssk, struct iov_iter *from, size_t len)
{
	u8 *p = ssk->tx_buf[ssk->tx_head % ssk->ntx] + sizeof(struct oib_sdp_bsdh) + ssk->tx_fill;
	u32 n = min_t(size_t, len, SDP_PAYLOAD - ssk->tx_fill);

	if (copy_from_iter(p, n, from) != n)
		return -EFAULT;
	ssk->tx_fill += n;
	return n;
}

int sdp_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct sock *sk = sock->sk;
	struct sdp_sock *ssk = sdp_sk(sk);
	size_t sent = 0;
	long timeo;
	int ret = 0;

	if (msg->msg_flags & ~(MSG_DONTWAIT | MSG_NOSIGNAL | MSG_MORE | MSG_EOR |
			       MSG_SPLICE_PAGES))
		return -EOPNOTSUPP;	/* no urgent data; spliced pages are copied as any */
	lock_sock(sk);
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	ssk->tx_msg_more = msg->msg_flags & MSG_MORE;
	while (sent < len) {
		ret = sdp_wait_send(ssk, &timeo);
		if (ret)
			break;
		ret = sdp_tx_append(ssk, &msg->msg_iter, len - sent);
		if (ret < 0)
			break;
		sent += ret;
		ret = 0;
	}
	if (sdp_tx_push(ssk, false))
		sdp_apply(ssk, SDP_EV_RESET);
	release_sock(sk);
	if (!sent && ret == -EPIPE && !(msg->msg_flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
	return sent ? sent : ret;
}
