// SPDX-License-Identifier: GPL-2.0-only
/*
 * Socket options at SOL_TCP: TCP_NODELAY and TCP_CORK (what holds a partial message back,
 * sdp_tx.c: setting the one or clearing the other sends it), TCP_KEEPIDLE, OFED's
 * SDP_ZCOPY_THRESH (kept for zero copy, which this module does not do yet) and
 * SDP_LAST_BIND_ERR (read only).  SOL_SOCKET's are the socket layer's: SO_RCVBUF and
 * SO_SNDBUF size the rings when the connection is made (sdp_conn.c), SO_LINGER shapes close
 * (sdp_sock.c), SO_KEEPALIVE arms the keepalive here: when nothing moved for TCP_KEEPIDLE, a
 * zero-length RDMA WRITE goes to the peer, whose transport answers it without its owner; a peer
 * that is gone fails it, and the socket resets with ETIMEDOUT.
 *
 * The keepalive's work holds a reference on the socket while it is queued; it runs under the
 * socket lock, as every other change of the connection does.
 */
#include <linux/tcp.h>
#include "sdp_priv.h"

#define SDP_ZCOPY_DEFAULT	(64 * 1024)
#define SDP_ZCOPY_MAX		(1024 * 1024)
#define SDP_KEEPIDLE_DEFAULT	7200		/* seconds, as TCP's */
#define SDP_KEEPIDLE_MAX	32767

atomic_t sdp_keepalives;

void sdp_opts_init(struct sdp_opts *o)
{
	*o = (struct sdp_opts){ .zcopy_thresh = SDP_ZCOPY_DEFAULT,
				.keepidle = SDP_KEEPIDLE_DEFAULT };
}

/* A spawned socket takes its listener's options, as TCP's do. */
void sdp_inherit(struct sdp_sock *child, const struct sdp_sock *l)
{
	const struct sock *lsk = &l->sk;
	struct sock *sk = &child->sk;

	child->opt = l->opt;
	sk->sk_rcvbuf = READ_ONCE(lsk->sk_rcvbuf);
	sk->sk_sndbuf = READ_ONCE(lsk->sk_sndbuf);
	sk->sk_userlocks = lsk->sk_userlocks;	/* a bit-field before 6.10: no READ_ONCE() */
	sk->sk_lingertime = READ_ONCE(lsk->sk_lingertime);
	sk->sk_rcvtimeo = READ_ONCE(lsk->sk_rcvtimeo);
	sk->sk_sndtimeo = READ_ONCE(lsk->sk_sndtimeo);
	if (sock_flag(lsk, SOCK_LINGER))
		sock_set_flag(sk, SOCK_LINGER);
	if (sock_flag(lsk, SOCK_KEEPOPEN))
		sock_set_flag(sk, SOCK_KEEPOPEN);
}

static void sdp_keepalive_arm(struct sdp_sock *ssk, unsigned long delay)
{
	sock_hold(&ssk->sk);
	if (mod_delayed_work(sdp_wq, &ssk->keepalive, delay))
		sock_put(&ssk->sk);		/* it was queued, with its reference */
}

void sdp_keepalive_stop(struct sdp_sock *ssk)
{
	if (cancel_delayed_work(&ssk->keepalive))
		sock_put(&ssk->sk);
}

static bool sdp_keepalive_wanted(const struct sdp_sock *ssk)
{
	return sock_flag(&ssk->sk, SOCK_KEEPOPEN) && ssk->id && ssk->id->qp &&
	       ssk->state >= SDP_ESTABLISHED && sdp_state_can_recv(ssk->state);
}

/* SO_KEEPALIVE (the socket layer's, under the socket lock); also once established. */
void sdp_keepalive_set(struct sock *sk, int on)
{
	struct sdp_sock *ssk = sdp_sk(sk);

	if (!on)
		sdp_keepalive_stop(ssk);
	else if (ssk->state >= SDP_ESTABLISHED)
		sdp_keepalive_arm(ssk, READ_ONCE(ssk->opt.keepidle) * HZ);
}

void sdp_keepalive_work(struct work_struct *work)
{
	struct sdp_sock *ssk = container_of(to_delayed_work(work), struct sdp_sock, keepalive);
	struct sock *sk = &ssk->sk;
	unsigned long idle, due;

	lock_sock(sk);
	if (sdp_keepalive_wanted(ssk)) {
		idle = ssk->opt.keepidle * HZ;
		due = ssk->last_active + idle;
		if (time_after_eq(jiffies, due)) {
			if (sdp_ctrl_slot_free(ssk) && !sdp_post_keepalive(ssk))
				atomic_inc(&sdp_keepalives);
			due = jiffies + idle;
		}
		sdp_keepalive_arm(ssk, due - jiffies);
	}
	release_sock(sk);
	sock_put(sk);			/* the queued work's */
}

/* An int option's value: -EINVAL if too short, -EFAULT. */
static int sdp_opt_int(sockptr_t optval, unsigned int optlen, int *val)
{
	if (optlen < sizeof(int))
		return -EINVAL;
	return copy_from_sockptr(val, optval, sizeof(*val)) ? -EFAULT : 0;
}

int sdp_setsockopt(struct socket *sock, int level, int optname, sockptr_t optval,
		   unsigned int optlen)
{
	struct sock *sk = sock->sk;
	struct sdp_sock *ssk = sdp_sk(sk);
	int val, ret;

	if (level != SOL_TCP)
		return -ENOPROTOOPT;
	ret = sdp_opt_int(optval, optlen, &val);
	if (ret)
		return ret;
	lock_sock(sk);
	switch (optname) {
	case TCP_NODELAY:
		ssk->opt.nodelay = !!val;
		if (val && sdp_tx_push(ssk, true))	/* as TCP's: even a corked one */
			sdp_apply(ssk, SDP_EV_RESET);
		break;
	case TCP_CORK:
		ssk->opt.cork = !!val;
		if (!val && sdp_tx_push(ssk, true))
			sdp_apply(ssk, SDP_EV_RESET);
		break;
	case TCP_KEEPIDLE:
		if (val < 1 || val > SDP_KEEPIDLE_MAX) {
			ret = -EINVAL;
			break;
		}
		ssk->opt.keepidle = val;
		if (sock_flag(sk, SOCK_KEEPOPEN))
			sdp_keepalive_set(sk, 1);
		break;
	case OIB_SDP_ZCOPY_THRESH:
		if (val && (val < PAGE_SIZE || val > SDP_ZCOPY_MAX))
			ret = -EINVAL;
		else
			ssk->opt.zcopy_thresh = val;
		break;
	case OIB_SDP_LAST_BIND_ERR:
		ret = -EPERM;		/* read only */
		break;
	default:
		ret = -ENOPROTOOPT;
	}
	release_sock(sk);
	return ret;
}

int sdp_getsockopt(struct socket *sock, int level, int optname, char __user *optval,
		   int __user *optlen)
{
	struct sdp_sock *ssk = sdp_sk(sock->sk);
	int len, val;

	if (level != SOL_TCP)
		return -ENOPROTOOPT;
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < (int)sizeof(int))
		return -EINVAL;
	lock_sock(sock->sk);
	switch (optname) {
	case TCP_NODELAY:
		val = ssk->opt.nodelay;
		break;
	case TCP_CORK:
		val = ssk->opt.cork;
		break;
	case TCP_KEEPIDLE:
		val = ssk->opt.keepidle;
		break;
	case OIB_SDP_ZCOPY_THRESH:
		val = ssk->opt.zcopy_thresh;
		break;
	case OIB_SDP_LAST_BIND_ERR:
		val = ssk->last_bind_err;
		break;
	default:
		val = -1;
	}
	release_sock(sock->sk);
	if (val < 0)
		return -ENOPROTOOPT;
	if (put_user(sizeof(int), optlen) || copy_to_user(optval, &val, sizeof(int)))
		return -EFAULT;
	return 0;
}
