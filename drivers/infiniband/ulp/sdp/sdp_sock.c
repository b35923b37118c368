// SPDX-License-Identifier: GPL-2.0-only
/*
 * The socket families AF_INET_SDP (27) and AF_INET6_SDP (28): SOCK_STREAM sockets whose calls
 * are TCP's, over an SDP connection (sdp_cm.c, sdp_data.c).  Addresses are sockaddr_in or
 * sockaddr_in6, as OFED's programs passed them.  Each socket's state moves only through
 * sdp_state_next()'s table, in sdp_apply().
 */
#include <linux/net.h>
#include <linux/ioctl.h>
#include <linux/sockios.h>
#include <linux/termios.h>
#include <linux/tcp.h>
#include <net/tcp_states.h>
#include <oib/compat.h>
#include "sdp_priv.h"

#define SDP_CLOSE_TIMEOUT	(60 * HZ)

struct workqueue_struct *sdp_wq;
static LIST_HEAD(sdp_sockets);		/* every sdp_sock, by its all_entry */
static DEFINE_SPINLOCK(sdp_sockets_lock);	/* sdp_sockets */

void sdp_schedule(struct sdp_sock *ssk)
{
	sock_hold(&ssk->sk);
	if (!queue_work(sdp_wq, &ssk->work))
		sock_put(&ssk->sk);
}

/* The socket's work: the CM's events, the completions, what may be sent now. */
static void sdp_work(struct work_struct *work)
{
	struct sdp_sock *ssk = container_of(work, struct sdp_sock, work);
	struct sock *sk = &ssk->sk;

	lock_sock(sk);
	sdp_cm_process(ssk);
	if (ssk->close_timeout) {
		ssk->close_timeout = false;
		sdp_apply(ssk, SDP_EV_TIMEOUT);
	}
	sdp_poll_cq(ssk);
	sdp_tx_more(ssk);
	if (ssk->release_pending) {
		ssk->release_pending = false;
		sdp_conn_release(ssk);
		sk_stop_timer(sk, &sk->sk_timer);
	}
	release_sock(sk);
	sock_put(sk);
}

static void sdp_close_timer(struct timer_list *t)
{
	struct sock *sk = from_timer(sk, t, sk_timer);

	sdp_sk(sk)->close_timeout = true;
	sdp_schedule(sdp_sk(sk));
	sock_put(sk);			/* the timer's */
}

/* The transition of @ev, and what it asks for; under the socket lock. */
void sdp_apply(struct sdp_sock *ssk, enum sdp_event ev)
{
	struct sdp_transition t = sdp_state_next(ssk->state, ev);
	struct sock *sk = &ssk->sk;

	if (!t.valid)
		return;
	ssk->state = t.next;
	sk->sk_state = t.next;
	if (t.actions & SDP_DO_SEND_DISCONN) {
		ssk->disconn_wanted = true;
		sdp_tx_more(ssk);
	}
	if ((t.actions & SDP_DO_CM_DISCONNECT) && ssk->id)
		oib_cma_disconnect(ssk->id);
	if (t.actions & SDP_DO_ERR_REFUSED)
		sk->sk_err = ECONNREFUSED;
	if (t.actions & SDP_DO_ERR_RESET)
		sk->sk_err = ECONNRESET;
	if (t.actions & SDP_DO_EOF)
		sk->sk_shutdown |= RCV_SHUTDOWN;
	if (t.actions & SDP_DO_RELEASE) {
		sk->sk_shutdown = SHUTDOWN_MASK;
		ssk->release_pending = true;
	}
	if (t.actions & SDP_DO_WAKE)
		sk->sk_state_change(sk);
}

int sdp_new_id(struct sdp_sock *ssk)
{
	struct oib_cma_id *id = oib_cma_create_id(sock_net(&ssk->sk), sdp_cma_handler, ssk,
						  OIB_PS_SDP, OIB_QPT_RC);

	if (IS_ERR(id))
		return PTR_ERR(id);
	sock_hold(&ssk->sk);		/* the id's */
	ssk->id = id;
	return 0;
}

static void sdp_destruct(struct sock *sk)
{
	struct sdp_sock *ssk = sdp_sk(sk);
	struct sdp_cm_event *e, *tmp;

	spin_lock_bh(&sdp_sockets_lock);
	list_del(&ssk->all_entry);
	spin_unlock_bh(&sdp_sockets_lock);
	list_for_each_entry_safe(e, tmp, &ssk->evq, entry)
		kfree(e);
	sdp_conn_free_bufs(ssk);
}

/*
 * debugfs "sockets": a line per socket (as sdpnetstat showed them): its state, addresses, rings,
 * bytes unread and unacknowledged, credits.  Read without the sockets' locks: a snapshot.
 */
int sdp_sockets_show(struct seq_file *m, void *unused)
{
	struct sdp_sock *ssk;

	spin_lock_bh(&sdp_sockets_lock);
	list_for_each_entry(ssk, &sdp_sockets, all_entry) {
		enum sdp_state state = READ_ONCE(ssk->state);

		seq_printf(m, "%s %s local %pISpc remote %pISpc rx_bufs %u tx_bufs %u rx_bytes %u tx_bytes %u credits %u\n",
			   ssk->sk.sk_family == OIB_AF_INET6_SDP ? "sdp6" : "sdp",
			   sdp_state_name(state), &ssk->local, &ssk->remote,
			   READ_ONCE(ssk->nrx), READ_ONCE(ssk->ntx), READ_ONCE(ssk->rx_bytes),
			   READ_ONCE(ssk->tx_bytes) + READ_ONCE(ssk->tx_fill),
			   READ_ONCE(ssk->credit.tx_credits));
	}
	spin_unlock_bh(&sdp_sockets_lock);
	return 0;
}

struct sock *sdp_sock_alloc(struct net *net, int family, int kern)
{
	struct sock *sk = sk_alloc(net, family, GFP_KERNEL, &sdp_proto, kern);
	struct sdp_sock *ssk;

	if (!sk)
		return NULL;
	sock_init_data(NULL, sk);	/* without a socket: the type is ours to set */
	sk->sk_type = SOCK_STREAM;
	sk->sk_protocol = IPPROTO_TCP;
	sk->sk_destruct = sdp_destruct;
	sk->sk_state = SDP_CLOSED;
	ssk = sdp_sk(sk);
	ssk->state = SDP_CLOSED;
	spin_lock_init(&ssk->ev_lock);
	INIT_LIST_HEAD(&ssk->evq);
	INIT_LIST_HEAD(&ssk->accept_q);
	INIT_LIST_HEAD(&ssk->accept_entry);
	INIT_WORK(&ssk->work, sdp_work);
	INIT_DELAYED_WORK(&ssk->keepalive, sdp_keepalive_work);
	sdp_opts_init(&ssk->opt);
	timer_setup(&sk->sk_timer, sdp_close_timer, 0);
	spin_lock_bh(&sdp_sockets_lock);
	list_add_tail(&ssk->all_entry, &sdp_sockets);
	spin_unlock_bh(&sdp_sockets_lock);
	return sk;
}

/* A sockaddr_in, or a sockaddr_in6 on an AF_INET6_SDP socket: copied into @ss. */
static int sdp_get_addr(struct sock *sk, const struct sockaddr *a, int len,
			struct sockaddr_storage *ss)
{
	bool v6_ok = sk->sk_family == OIB_AF_INET6_SDP;

	if (!a || len < (int)sizeof(a->sa_family))
		return -EINVAL;
	if (a->sa_family != AF_INET && !(a->sa_family == AF_INET6 && v6_ok))
		return -EAFNOSUPPORT;
	if (len < (int)(a->sa_family == AF_INET ? sizeof(struct sockaddr_in) :
			sizeof(struct sockaddr_in6)))
		return -EINVAL;
	memcpy(ss, a, a->sa_family == AF_INET ? sizeof(struct sockaddr_in) :
	       sizeof(struct sockaddr_in6));
	return 0;
}

static int sdp_bind(struct socket *sock, struct sockaddr *uaddr, int len)
{
	struct sdp_sock *ssk = sdp_sk(sock->sk);
	struct sockaddr_storage ss = {};
	int ret = sdp_get_addr(sock->sk, uaddr, len, &ss);

	if (ret)
		return ret;
	lock_sock(sock->sk);
	if (ssk->state != SDP_CLOSED || ssk->id) {
		ret = -EINVAL;			/* bound, or more, already */
		goto out;
	}
	ret = sdp_new_id(ssk);
	if (!ret)
		ret = oib_cma_bind_addr(ssk->id, (struct sockaddr *)&ss);
	if (ret && ssk->id)
		sdp_conn_release(ssk);		/* a new bind may try again */
	if (ret)
		ssk->last_bind_err = -ret;
out:
	release_sock(sock->sk);
	return ret;
}

static int sdp_listen(struct socket *sock, int backlog)
{
	struct sock *sk = sock->sk;
	struct sdp_sock *ssk = sdp_sk(sk);
	int ret = -EINVAL;

	lock_sock(sk);
	if (sock->state != SS_UNCONNECTED)
		goto out;
	WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
	ret = 0;
	if (ssk->state == SDP_LISTEN)
		goto out;
	ret = -EINVAL;
	if (ssk->state != SDP_CLOSED)
		goto out;
	ret = sdp_listen_start(ssk, backlog);
	if (!ret) {
		sdp_apply(ssk, SDP_EV_LISTEN);
		ssk->local = ssk->id->route.addr.src_addr;	/* for debugfs */
	}
out:
	release_sock(sk);
	return ret;
}

static int sdp_wait_accept(struct sdp_sock *l, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &l->sk;
	int ret = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (!sdp_accept_ready(l)) {
		if (sk->sk_err || l->state != SDP_LISTEN) {
			ret = sk->sk_err ? -sk->sk_err : -EINVAL;
			break;
		}
		if (!*timeo) {
			ret = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			ret = sock_intr_errno(*timeo);
			break;
		}
		sk_wait_event(sk, timeo, sdp_accept_ready(l) || sk->sk_err ||
			      l->state != SDP_LISTEN, &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return ret;
}

static int sdp_do_accept(struct socket *sock, struct socket *newsock, int flags)
{
	struct sdp_sock *l = sdp_sk(sock->sk), *c = NULL;
	long timeo;
	int ret;

	lock_sock(sock->sk);
	timeo = sock_rcvtimeo(sock->sk, flags & O_NONBLOCK);
	ret = l->state == SDP_LISTEN ? 0 : -EINVAL;
	while (!ret && !c) {
		ret = sdp_wait_accept(l, &timeo);
		if (!ret)
			c = sdp_accept_pop(l);
	}
	release_sock(sock->sk);
	if (!c)
		return ret;
	lock_sock(&c->sk);
	sock_graft(&c->sk, newsock);
	newsock->state = SS_CONNECTED;
	release_sock(&c->sk);
	return 0;
}

static int sdp_connect(struct socket *sock, struct sockaddr *uaddr, int len, int flags)
{
	struct sock *sk = sock->sk;
	struct sdp_sock *ssk = sdp_sk(sk);
	struct sockaddr_storage ss = {};
	long timeo;
	int ret = sdp_get_addr(sk, uaddr, len, &ss);

	if (ret)
		return ret;
	lock_sock(sk);
	if (sock->state == SS_CONNECTING && ssk->state != SDP_SYN_SENT) {
		/* a non-blocking connect's outcome, as TCP gives it: 0 once, then EISCONN */
		ret = ssk->state >= SDP_ESTABLISHED ? 0 : sock_error(sk) ?: -ECONNREFUSED;
	} else if (ssk->state == SDP_SYN_SENT) {
		ret = -EALREADY;
	} else if (sock->state != SS_UNCONNECTED || ssk->state != SDP_CLOSED) {
		ret = ssk->state == SDP_LISTEN ? -EINVAL : -EISCONN;
	} else {
		ret = sdp_connect_start(ssk, (struct sockaddr *)&ss);
		if (!ret) {
			sdp_apply(ssk, SDP_EV_CONNECT);
			sock->state = SS_CONNECTING;
			ret = -EINPROGRESS;
		}
	}
	timeo = sock_sndtimeo(sk, flags & O_NONBLOCK);
	if (ret == -EINPROGRESS && timeo) {
		DEFINE_WAIT_FUNC(wait, woken_wake_function);

		add_wait_queue(sk_sleep(sk), &wait);
		while (ssk->state == SDP_SYN_SENT && timeo && !signal_pending(current))
			sk_wait_event(sk, &timeo, ssk->state != SDP_SYN_SENT, &wait);
		remove_wait_queue(sk_sleep(sk), &wait);
		if (ssk->state == SDP_SYN_SENT)
			ret = timeo ? sock_intr_errno(timeo) : -ETIMEDOUT;
		else if (ssk->state >= SDP_ESTABLISHED)
			ret = 0;
		else
			ret = sock_error(sk) ?: -ECONNREFUSED;
	}
	if (!ret)
		sock->state = SS_CONNECTED;
	else if (ret != -EINPROGRESS && ret != -EALREADY && ret != -EISCONN &&
		 ret != -EINTR && ret != -ERESTARTSYS && ssk->state == SDP_CLOSED)
		sock->state = SS_UNCONNECTED;
	release_sock(sk);
	return ret;
}

static int sdp_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct sdp_sock *ssk = sdp_sk(sock->sk);
	struct sockaddr_storage ss;
	int len;

	lock_sock(sock->sk);
	if (ssk->id)
		ss = peer ? ssk->id->route.addr.dst_addr : ssk->id->route.addr.src_addr;
	else
		ss = peer ? ssk->remote : ssk->local;
	release_sock(sock->sk);
	if (peer && ((sock->state != SS_CONNECTED &&
		      READ_ONCE(ssk->state) < SDP_ESTABLISHED) || !ss.ss_family))
		return -ENOTCONN;
	if (!ss.ss_family)
		ss.ss_family = sock->sk->sk_family == OIB_AF_INET6_SDP ? AF_INET6 : AF_INET;
	len = ss.ss_family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
	memcpy(uaddr, &ss, len);
	return len;
}

static __poll_t sdp_poll(struct file *file, struct socket *sock, poll_table *wait)
{
	struct sock *sk = sock->sk;
	struct sdp_sock *ssk = sdp_sk(sk);
	enum sdp_state state = READ_ONCE(ssk->state);
	__poll_t mask = 0;

	sock_poll_wait(file, sock, wait);
	if (state == SDP_LISTEN)
		return sdp_accept_ready(ssk) ? EPOLLIN | EPOLLRDNORM : 0;
	if (READ_ONCE(sk->sk_err))
		mask |= EPOLLERR | EPOLLOUT;
	if (READ_ONCE(sk->sk_shutdown) == SHUTDOWN_MASK ||
	    (state == SDP_CLOSED && sock->state != SS_CONNECTING))
		mask |= EPOLLHUP;
	if (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN)
		mask |= EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;
	if (READ_ONCE(ssk->rx_bytes))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (sdp_state_can_send(state) && sdp_tx_writable(ssk))
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

static int sdp_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	struct sdp_sock *ssk = sdp_sk(sock->sk);
	int n;

	switch (cmd) {
	case SIOCINQ:
	case SIOCOUTQ:
		if (READ_ONCE(ssk->state) == SDP_LISTEN)
			return -EINVAL;
		lock_sock(sock->sk);
		n = cmd == SIOCINQ ? ssk->rx_bytes : ssk->tx_bytes + ssk->tx_fill;
		release_sock(sock->sk);
		return put_user(n, (int __user *)arg);
	default:
		return -ENOIOCTLCMD;
	}
}

static int sdp_shutdown(struct socket *sock, int how)
{
	struct sock *sk = sock->sk;
	struct sdp_sock *ssk = sdp_sk(sk);
	int ret = 0;

	how++;				/* SHUT_RD (0) is RCV_SHUTDOWN (1), ... */
	if (!how || (how & ~SHUTDOWN_MASK))
		return -EINVAL;
	lock_sock(sk);
	if (ssk->state < SDP_ESTABLISHED) {
		ret = -ENOTCONN;
	} else {
		if (how & SEND_SHUTDOWN)
			sdp_apply(ssk, SDP_EV_SHUT_WR);
		sk->sk_shutdown |= how;
		sk->sk_state_change(sk);
	}
	release_sock(sk);
	return ret;
}

/* Our DisConn is posted and not yet completed: what a lingering close waits out. */
static bool sdp_disconn_pending(const struct sdp_sock *ssk)
{
	return ssk->state == SDP_FIN_WAIT1 || ssk->state == SDP_CLOSING ||
	       ssk->state == SDP_LAST_ACK;
}

/* SO_LINGER with a time: close() waits until the peer has all (our DisConn completed). */
static void sdp_linger(struct sdp_sock *ssk)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = &ssk->sk;
	long timeo = sk->sk_lingertime;

	if (!sock_flag(sk, SOCK_LINGER) || !timeo || (current->flags & PF_EXITING))
		return;
	add_wait_queue(sk_sleep(sk), &wait);
	while (sdp_disconn_pending(ssk) && timeo && !signal_pending(current))
		sk_wait_event(sk, &timeo, !sdp_disconn_pending(ssk), &wait);
	remove_wait_queue(sk_sleep(sk), &wait);
}

/* close(): a listener's requests refused, a connection ended gracefully or not (see sdp.md). */
static int sdp_release(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct sdp_sock *ssk;
	bool listener, now;

	if (!sk)
		return 0;
	ssk = sdp_sk(sk);
	lock_sock(sk);
	listener = ssk->state == SDP_LISTEN;
	if (ssk->state <= SDP_LISTEN)
		sdp_apply(ssk, SDP_EV_CLOSE);
	else if (ssk->state < SDP_ESTABLISHED || ssk->rx_bytes ||
		 (sock_flag(sk, SOCK_LINGER) && !sk->sk_lingertime))
		sdp_apply(ssk, SDP_EV_ABORT);
	else
		sdp_apply(ssk, SDP_EV_SHUT_WR);
	sdp_linger(ssk);
	now = ssk->state == SDP_CLOSED;
	if (now) {
		ssk->release_pending = false;
		sdp_conn_release(ssk);
	} else {
		sk_reset_timer(sk, &sk->sk_timer, jiffies + SDP_CLOSE_TIMEOUT);
	}
	sock_orphan(sk);
	release_sock(sk);
	if (listener)
		sdp_accept_drain(ssk);
	sock->sk = NULL;
	sock_put(sk);
	return 0;
}

static int sdp_accept(OIB_PROTO_ACCEPT_ARGS)
{
	return sdp_do_accept(sock, newsock, OIB_PROTO_ACCEPT_FLAGS);
}

static const struct proto_ops sdp_ops = {
	.family = OIB_AF_INET_SDP,
	.owner = THIS_MODULE,
	.release = sdp_release,
	.bind = sdp_bind,
	.connect = sdp_connect,
	.socketpair = sock_no_socketpair,
	.accept = sdp_accept,
	.getname = sdp_getname,
	.poll = sdp_poll,
	.ioctl = sdp_ioctl,
	.listen = sdp_listen,
	.shutdown = sdp_shutdown,
	.setsockopt = sdp_setsockopt,
	.getsockopt = sdp_getsockopt,
	.sendmsg = sdp_sendmsg,
	.recvmsg = sdp_recvmsg,
	.mmap = sock_no_mmap,
};

struct proto sdp_proto = {
	.name = "SDP",
	.owner = THIS_MODULE,
	.keepalive = sdp_keepalive_set,
	.obj_size = sizeof(struct sdp_sock),
};

static int sdp_create(struct net *net, struct socket *sock, int protocol, int kern, int family)
{
	struct sock *sk;

	if (sock->type != SOCK_STREAM)
		return -ESOCKTNOSUPPORT;
	if (protocol && protocol != IPPROTO_TCP)
		return -EPROTONOSUPPORT;
	sk = sdp_sock_alloc(net, family, kern);
	if (!sk)
		return -ENOMEM;
	sock->ops = &sdp_ops;
	sock->state = SS_UNCONNECTED;
	sock_graft(sk, sock);
	return 0;
}

static int sdp_create4(struct net *net, struct socket *sock, int protocol, int kern)
{
	return sdp_create(net, sock, protocol, kern, OIB_AF_INET_SDP);
}

static int sdp_create6(struct net *net, struct socket *sock, int protocol, int kern)
{
	return sdp_create(net, sock, protocol, kern, OIB_AF_INET6_SDP);
}

static const struct net_proto_family sdp_family4 = {
	.family = OIB_AF_INET_SDP,
	.create = sdp_create4,
	.owner = THIS_MODULE,
};

static const struct net_proto_family sdp_family6 = {
	.family = OIB_AF_INET6_SDP,
	.create = sdp_create6,
	.owner = THIS_MODULE,
};

int sdp_proto_init(void)
{
	int ret;

	sdp_wq = alloc_workqueue("oib_sdp", WQ_MEM_RECLAIM, 0);
	if (!sdp_wq)
		return -ENOMEM;
	ret = proto_register(&sdp_proto, 0);
	if (ret)
		goto out_wq;
	ret = sock_register(&sdp_family4);
	if (ret)
		goto out_proto;
	ret = sock_register(&sdp_family6);
	if (ret)
		goto out_4;
	return 0;
out_4:
	sock_unregister(OIB_AF_INET_SDP);
out_proto:
	proto_unregister(&sdp_proto);
out_wq:
	destroy_workqueue(sdp_wq);
	return ret;
}

void sdp_proto_exit(void)
{
	sock_unregister(OIB_AF_INET6_SDP);
	sock_unregister(OIB_AF_INET_SDP);
	proto_unregister(&sdp_proto);
	destroy_workqueue(sdp_wq);
}
