// SPDX-License-Identifier: GPL-2.0-only
/*
 * Connections: a TCP socket of the device's namespace and the MPA exchange on it (RFC 5044,
 * RFC 6581), then handed to the QP.  Active: iw_connect queues the connection's work, which
 * connects (blocking), sends the MPA request and reads the reply.  Passive: a listener's
 * accepted socket (siw_listen.c) reads the request, which goes to the listener that takes its
 * local address; iw_accept or iw_reject answers it.  Each side waits mpa_timeout_ms for
 * the other's frame.  We send MPA revision 2 in enhanced mode with our IRD and ORD, ask for
 * neither CRC nor markers (CRC if the mpa_crc parameter says so), and follow what the request
 * asks for as a responder, as the in-tree siw does: CRC if asked, markers refused, peer-to-peer
 * with a zero-length WRITE (else READ) RTR, ESTABLISHED once the initiator's RTR came.
 *
 * A connection's refcount: one for being open (dropped when it closes), one for each queued
 * work item or armed timeout, one for the QP it carries (until the QP is destroyed), one for a
 * CONNECT_REQUEST until it is answered.  Its socket is released with the last reference, so a
 * QP may shut it down at any time before.
 */
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <kunit/visibility.h>
#include <oib/kunit/siw.h>
#include "siw.h"

static bool mpa_crc;
module_param(mpa_crc, bool, 0644);
MODULE_PARM_DESC(mpa_crc, "ask for MPA CRCs when connecting (default: no, as siw)");

bool oib_siw_set_mpa_crc(bool on)
{
	return xchg(&mpa_crc, on);
}
EXPORT_SYMBOL_IF_KUNIT(oib_siw_set_mpa_crc);

/* How long each side waits for the other's MPA frame; at least SIW_MPA_TIMEOUT_MIN_MS. */
static unsigned int mpa_timeout_ms = SIW_MPA_TIMEOUT_MS;
module_param(mpa_timeout_ms, uint, 0644);
MODULE_PARM_DESC(mpa_timeout_ms, "ms each side waits for the peer's MPA request or reply (default 20000, at least 100)");

unsigned int oib_siw_set_mpa_timeout_ms(unsigned int ms)
{
	return xchg(&mpa_timeout_ms, ms);
}
EXPORT_SYMBOL_IF_KUNIT(oib_siw_set_mpa_timeout_ms);

/*
 * The in-tree siw, as a responder, hands its socket to the QP only after its MPA reply went: an
 * FPDU that arrives in between waits in the socket until more data comes, which a peer waiting
 * for an answer never sends.  So the initiator holds its first FPDU back this long after the
 * reply (reports CONNECT_REPLY that much later).
 */
static unsigned int mpa_reply_grace_ms = 50;
module_param(mpa_reply_grace_ms, uint, 0644);
MODULE_PARM_DESC(mpa_reply_grace_ms, "initiator: ms between the MPA reply and the first FPDU (default 50)");

enum siw_conn_state {
	SIW_CONN_CONNECTING,	/* active: TCP connect under way */
	SIW_CONN_REP_WAIT,	/* active: the request sent */
	SIW_CONN_REQ_WAIT,	/* passive: reading the request */
	SIW_CONN_REQ_PENDING,	/* passive: CONNECT_REQUEST delivered, not answered */
	SIW_CONN_UP,		/* the QP carries it */
	SIW_CONN_CLOSED,
};

struct siw_conn {
	struct kref ref;
	struct mutex lock;		/* everything below */
	enum siw_conn_state state;
	bool active;
	struct siw_dev *sdev;		/* active: the id's; passive: the listener's, once found */
	struct net *net;		/* passive: the listener's namespace */
	struct socket *sock;
	struct oib_iw_cm_id *cm_id;	/* the id to report to; NULL after its last event */
	struct siw_qp *qp;
	struct work_struct work;	/* the MPA phase's socket events */
	struct delayed_work timeout;
	struct siw_mpa_params mine, peer;
	u32 ird, ord;
	u8 pdata_len;
	u8 pdata[OIB_IW_CM_PRIVATE_DATA_SIZE];
	u32 have;			/* of @mpa */
	u8 mpa[sizeof(struct siw_mpa_hdr) + SIW_MPA_PD_MAX];
	struct sockaddr_storage local, remote;
	void (*saved_data_ready)(struct sock *sk);	/* the socket's own callbacks */
	void (*saved_state_change)(struct sock *sk);
	struct list_head entry;		/* siw_conns */
};

/* Every connection, for the module's exit: passive ones belong to no device until delivered. */
static DEFINE_SPINLOCK(siw_conns_lock);
static LIST_HEAD(siw_conns);
static atomic_t siw_nconns = ATOMIC_INIT(0);

static void siw_conn_free(struct kref *ref)
{
	struct siw_conn *conn = container_of(ref, struct siw_conn, ref);

	if (conn->sock)
		sock_release(conn->sock);
	if (conn->sdev && atomic_dec_and_test(&conn->sdev->nconns))
		wake_up_var(&conn->sdev->nconns);
	spin_lock(&siw_conns_lock);
	list_del(&conn->entry);
	spin_unlock(&siw_conns_lock);
	kfree(conn);
	if (atomic_dec_and_test(&siw_nconns))
		wake_up_var(&siw_nconns);
}

void siw_conn_put(struct siw_conn *conn)
{
	kref_put(&conn->ref, siw_conn_free);
}

static void siw_conn_queue(struct siw_conn *conn)
{
	kref_get(&conn->ref);
	if (!queue_work(siw_wq, &conn->work))
		siw_conn_put(conn);
}

static void siw_conn_set_dev(struct siw_conn *conn, struct siw_dev *sdev)
{
	conn->sdev = sdev;
	atomic_inc(&sdev->nconns);
}

static void siw_conn_report(struct siw_conn *conn, enum oib_iw_cm_event_type type, int status,
			    const void *pd, u32 pd_len)
{
	struct oib_iw_cm_event ev = {
		.event = type,
		.status = status,
		.private_data = pd,
		.private_data_len = min_t(u32, pd_len, OIB_IW_CM_PRIVATE_DATA_SIZE),
		.ird = conn->ird,
		.ord = conn->ord,
	};

	lockdep_assert_held(&conn->lock);
	if (!conn->cm_id)
		return;
	ev.local_addr = conn->local;
	ev.remote_addr = conn->remote;
	conn->cm_id->event_handler(conn->cm_id, &ev);
	if (type == OIB_IW_CM_EVENT_CLOSE || (type == OIB_IW_CM_EVENT_CONNECT_REPLY && status))
		conn->cm_id = NULL;	/* its last event */
}

/* ---- The socket ---- */

static void siw_sk_data_ready(struct sock *sk)
{
	struct siw_conn *conn;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn && READ_ONCE(conn->state) == SIW_CONN_UP && conn->qp)
		queue_work(siw_wq, &conn->qp->rx_work);
	else if (conn)
		siw_conn_queue(conn);
	read_unlock_bh(&sk->sk_callback_lock);
}

static void siw_sock_attach(struct siw_conn *conn, struct socket *sock)
{
	struct sock *sk = sock->sk;

	conn->sock = sock;
	tcp_sock_set_nodelay(sk);
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = conn;
	conn->saved_data_ready = sk->sk_data_ready;
	conn->saved_state_change = sk->sk_state_change;
	sk->sk_data_ready = siw_sk_data_ready;
	sk->sk_state_change = siw_sk_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
}

/* Closed: no more socket callbacks, the socket shut down, the open reference dropped. */
static void siw_conn_close_locked(struct siw_conn *conn)
{
	struct sock *sk;

	lockdep_assert_held(&conn->lock);
	if (conn->state == SIW_CONN_CLOSED)
		return;
	WRITE_ONCE(conn->state, SIW_CONN_CLOSED);
	if (conn->sock) {
		sk = conn->sock->sk;
		write_lock_bh(&sk->sk_callback_lock);
		sk->sk_user_data = NULL;
		sk->sk_data_ready = conn->saved_data_ready;
		sk->sk_state_change = conn->saved_state_change;
		write_unlock_bh(&sk->sk_callback_lock);
		kernel_sock_shutdown(conn->sock, SHUT_RDWR);
	}
	if (cancel_delayed_work(&conn->timeout))
		siw_conn_put(conn);
	siw_conn_put(conn);	/* the open reference; the caller holds another */
}

static void siw_conn_arm(struct siw_conn *conn)
{
	unsigned int ms = max(READ_ONCE(mpa_timeout_ms), SIW_MPA_TIMEOUT_MIN_MS);

	kref_get(&conn->ref);
	if (!queue_delayed_work(siw_wq, &conn->timeout, msecs_to_jiffies(ms)))
		siw_conn_put(conn);
}

static int siw_send_frame(struct socket *sock, const void *buf, u32 len)
{
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
	struct kvec iov = { .iov_base = (void *)buf, .iov_len = len };
	int ret = kernel_sendmsg(sock, &msg, &iov, 1, len);

	return ret == len ? 0 : ret < 0 ? ret : -EIO;
}

/* Read the MPA frame, and nothing after it: 1 (whole), 0 (more to come), -errno. */
static int siw_conn_read_mpa(struct siw_conn *conn)
{
	struct siw_mpa_hdr *h = (void *)conn->mpa;
	struct msghdr msg = { .msg_flags = MSG_DONTWAIT };
	u32 want = sizeof(*h);
	struct kvec iov;
	int n;

	for (;;) {
		if (conn->have >= sizeof(*h)) {
			n = siw_mpa_hdr_check(h, conn->active);
			if (n < 0)
				return n;
			want = sizeof(*h) + n;
		}
		if (conn->have == want)
			return 1;
		iov.iov_base = conn->mpa + conn->have;
		iov.iov_len = want - conn->have;
		n = kernel_recvmsg(conn->sock, &msg, &iov, 1, iov.iov_len, MSG_DONTWAIT);
		if (n == -EAGAIN)
			return 0;
		if (n <= 0)
			return n ?: -ECONNRESET;
		conn->have += n;
	}
}

/* IPv4-mapped IPv6 addresses (of a dual-stack listener's sockets) as IPv4 ones. */
static void siw_addr_unmap(struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in s4 = { .sin_family = AF_INET };

	if (ss->ss_family != AF_INET6 || !ipv6_addr_v4mapped(&s6->sin6_addr))
		return;
	s4.sin_port = s6->sin6_port;
	s4.sin_addr.s_addr = s6->sin6_addr.s6_addr32[3];
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, &s4, sizeof(s4));
}

static void siw_conn_up_locked(struct siw_conn *conn, bool rtr_wait)
{
	lockdep_assert_held(&conn->lock);
	WRITE_ONCE(conn->state, SIW_CONN_UP);
	conn->qp->rtr_wait = rtr_wait;
	siw_qp_up(conn->qp, conn, conn->sock, conn->peer.crc || conn->mine.crc, conn->ird,
		  conn->ord);
	siw_count(conn->sdev, OIB_SIW_CONNECTIONS, 1);
}

/* ---- Active side ---- */

static void siw_conn_work(struct work_struct *work);
static void siw_conn_timeout(struct work_struct *work);

static struct siw_conn *siw_conn_new(bool active)
{
	struct siw_conn *conn = kzalloc(sizeof(*conn), GFP_KERNEL);

	if (!conn)
		return NULL;
	kref_init(&conn->ref);
	mutex_init(&conn->lock);
	conn->active = active;
	conn->state = active ? SIW_CONN_CONNECTING : SIW_CONN_REQ_WAIT;
	INIT_WORK(&conn->work, siw_conn_work);
	INIT_DELAYED_WORK(&conn->timeout, siw_conn_timeout);
	atomic_inc(&siw_nconns);
	spin_lock(&siw_conns_lock);
	list_add_tail(&conn->entry, &siw_conns);
	spin_unlock(&siw_conns_lock);
	return conn;
}

static void siw_conn_attach_qp(struct siw_conn *conn, struct oib_qp *ib)
{
	struct siw_qp *qp = to_sqp(ib);

	kref_get(&conn->ref);
	spin_lock_irq(&qp->lock);
	qp->conn = conn;
	spin_unlock_irq(&qp->lock);
	conn->qp = qp;
}

int siw_iw_connect(struct oib_iw_cm_id *cm_id, const struct oib_iw_cm_conn_param *p)
{
	struct siw_dev *sdev = to_sdev(cm_id->device);
	struct siw_conn *conn;

	if (!p->qp || p->qp->device != cm_id->device || to_sqp(p->qp)->conn ||
	    p->private_data_len > OIB_IW_CM_PRIVATE_DATA_SIZE)
		return -EINVAL;
	conn = siw_conn_new(true);
	if (!conn)
		return -ENOMEM;
	siw_conn_set_dev(conn, sdev);
	conn->cm_id = cm_id;
	conn->local = cm_id->local_addr;
	conn->remote = cm_id->remote_addr;
	conn->mine = (struct siw_mpa_params){
		.rev = 2, .enhanced = true, .crc = READ_ONCE(mpa_crc),
		.ird = min_t(u32, p->ird, SIW_MAX_IRD), .ord = min_t(u32, p->ord, SIW_MAX_ORD),
	};
	conn->pdata_len = p->private_data_len;
	memcpy(conn->pdata, p->private_data, p->private_data_len);
	siw_conn_attach_qp(conn, p->qp);
	cm_id->provider_data = conn;
	siw_conn_queue(conn);
	return 0;
}

/* Connect (blocking, without the lock: a close meanwhile is seen after) and send the request. */
static int siw_conn_connect(struct siw_conn *conn)
{
	struct sockaddr_storage local = conn->local;
	struct sockaddr_storage remote = conn->remote;
	struct socket *sock = NULL;
	struct net *net;
	int ret, len;

	rcu_read_lock();
	net = siw_dev_net(conn->sdev);
	net = net ? maybe_get_net(net) : NULL;
	rcu_read_unlock();
	if (!net)
		return -ENETUNREACH;
	ret = sock_create_kern(net, remote.ss_family, SOCK_STREAM, IPPROTO_TCP, &sock);
	put_net(net);
	if (ret)
		return ret;
	sock_set_reuseaddr(sock->sk);
	len = local.ss_family == AF_INET ? sizeof(struct sockaddr_in) :
					   sizeof(struct sockaddr_in6);
	ret = kernel_bind(sock, (struct sockaddr *)&local, len);
	if (!ret)
		ret = kernel_connect(sock, (struct sockaddr *)&remote, len, 0);
	mutex_lock(&conn->lock);
	if (conn->state != SIW_CONN_CONNECTING) {
		mutex_unlock(&conn->lock);
		sock_release(sock);
		return 0;
	}
	if (ret) {
		mutex_unlock(&conn->lock);
		sock_release(sock);
		return ret;
	}
	siw_sock_attach(conn, sock);
	len = siw_mpa_build(conn->mpa, false, &conn->mine, conn->pdata, conn->pdata_len);
	ret = len < 0 ? len : siw_send_frame(sock, conn->mpa, len);
	if (!ret) {
		WRITE_ONCE(conn->state, SIW_CONN_REP_WAIT);
		siw_conn_arm(conn);
	}
	mutex_unlock(&conn->lock);
	return ret;
}

static void siw_conn_reply_locked(struct siw_conn *conn)
{
	const u8 *pd;
	u32 pd_len;

	lockdep_assert_held(&conn->lock);
	if (siw_mpa_parse(conn->mpa, conn->have, true, &conn->peer, &pd, &pd_len) ||
	    conn->peer.markers || (conn->peer.enhanced && conn->peer.p2p)) {
		siw_count(conn->sdev, OIB_SIW_MPA_ERRORS, 1);
		siw_conn_report(conn, OIB_IW_CM_EVENT_CONNECT_REPLY, -EPROTO, NULL, 0);
		siw_conn_close_locked(conn);
		return;
	}
	if (conn->peer.reject) {
		siw_count(conn->sdev, OIB_SIW_MPA_REJECTS, 1);
		siw_conn_report(conn, OIB_IW_CM_EVENT_CONNECT_REPLY, -ECONNREFUSED, pd, pd_len);
		siw_conn_close_locked(conn);
		return;
	}
	conn->ird = conn->mine.ird;
	conn->ord = conn->mine.ord;
	if (conn->peer.enhanced)
		conn->ord = min_t(u32, conn->ord, conn->peer.ird);
	if (cancel_delayed_work(&conn->timeout))
		siw_conn_put(conn);
	msleep(READ_ONCE(mpa_reply_grace_ms));	/* the connection's own work: it waits alone */
	siw_conn_up_locked(conn, false);
	siw_conn_report(conn, OIB_IW_CM_EVENT_CONNECT_REPLY, 0, pd, pd_len);
}

/* ---- Passive side ---- */

void siw_cm_passive(struct net *net, struct socket *sock)
{
	struct siw_conn *conn = siw_conn_new(false);

	if (!conn) {
		sock_release(sock);
		return;
	}
	conn->net = net;
	siw_conn_arm(conn);
	siw_sock_attach(conn, sock);	/* unpublished until here: no lock needed */
	siw_conn_queue(conn);
}

static void siw_conn_refuse_locked(struct siw_conn *conn, const void *pd, u8 pd_len)
{
	struct siw_mpa_params p = conn->peer;
	int len;

	lockdep_assert_held(&conn->lock);
	p.reject = true;
	p.p2p = false;
	p.rtr = 0;
	len = siw_mpa_build(conn->mpa, true, &p, pd, pd_len);
	if (len > 0)
		siw_send_frame(conn->sock, conn->mpa, len);
	if (conn->sdev)
		siw_count(conn->sdev, OIB_SIW_MPA_REJECTS, 1);
	siw_conn_close_locked(conn);
}

static void siw_conn_request_locked(struct siw_conn *conn)
{
	struct oib_iw_cm_event ev = { .event = OIB_IW_CM_EVENT_CONNECT_REQUEST };
	struct siw_dev *sdev;
	const u8 *pd;
	u32 pd_len;

	lockdep_assert_held(&conn->lock);
	if (kernel_getsockname(conn->sock, (struct sockaddr *)&conn->local) < 0 ||
	    kernel_getpeername(conn->sock, (struct sockaddr *)&conn->remote) < 0) {
		siw_conn_close_locked(conn);
		return;
	}
	siw_addr_unmap(&conn->local);
	siw_addr_unmap(&conn->remote);
	if (siw_mpa_parse(conn->mpa, conn->have, false, &conn->peer, &pd, &pd_len) ||
	    conn->peer.markers || pd_len > OIB_IW_CM_PRIVATE_DATA_SIZE) {
		siw_listen_count(conn->net, &conn->local, OIB_SIW_MPA_ERRORS);
		siw_conn_close_locked(conn);
		return;
	}
	if (cancel_delayed_work(&conn->timeout))
		siw_conn_put(conn);
	ev.local_addr = conn->local;
	ev.remote_addr = conn->remote;
	ev.private_data = pd;
	ev.private_data_len = pd_len;
	ev.ird = conn->peer.enhanced ? conn->peer.ord : 16;
	ev.ord = conn->peer.enhanced ? conn->peer.ird : 16;
	ev.provider_data = conn;
	WRITE_ONCE(conn->state, SIW_CONN_REQ_PENDING);
	kref_get(&conn->ref);		/* the answer's */
	sdev = siw_listen_deliver(conn->net, &conn->local, &ev);
	if (!sdev) {
		siw_conn_put(conn);
		siw_conn_refuse_locked(conn, NULL, 0);
		return;
	}
	conn->sdev = sdev;		/* counted in nconns by siw_listen_deliver() */
	siw_count(sdev, OIB_SIW_MPA_REQUESTS, 1);
}

int siw_iw_accept(struct oib_iw_cm_id *cm_id, const struct oib_iw_cm_conn_param *p)
{
	struct siw_conn *conn = cm_id->provider_data;
	struct siw_mpa_params *mine = &conn->mine;
	int ret = -ECONNRESET, len;

	if (!p->qp || p->qp->device != cm_id->device || to_sqp(p->qp)->conn ||
	    p->private_data_len > OIB_IW_CM_PRIVATE_DATA_SIZE)
		return -EINVAL;
	mutex_lock(&conn->lock);
	if (conn->state != SIW_CONN_REQ_PENDING)
		goto out;
	*mine = conn->peer;	/* CRC as asked; markers were refused */
	mine->ird = min_t(u32, p->ird, SIW_MAX_IRD);
	mine->ord = min_t(u32, p->ord, SIW_MAX_ORD);
	mine->rtr = 0;
	if (mine->p2p)
		mine->rtr = conn->peer.rtr & SIW_RTR_WRITE ? SIW_RTR_WRITE :
			    conn->peer.rtr & SIW_RTR_READ ? SIW_RTR_READ : 0;
	mine->p2p = mine->p2p && mine->rtr;
	if (conn->peer.enhanced)	/* RFC 6581: our ORD is no more than the peer's IRD */
		mine->ord = min_t(u32, mine->ord, conn->peer.ird);
	conn->ird = mine->ird;
	conn->ord = mine->ord;
	len = siw_mpa_build(conn->mpa, true, mine, p->private_data, p->private_data_len);
	ret = len < 0 ? len : siw_send_frame(conn->sock, conn->mpa, len);
	if (ret) {
		siw_conn_close_locked(conn);
		goto out;
	}
	conn->cm_id = cm_id;
	siw_conn_attach_qp(conn, p->qp);
	siw_conn_up_locked(conn, mine->p2p);
	if (!mine->p2p)
		siw_conn_report(conn, OIB_IW_CM_EVENT_ESTABLISHED, 0, NULL, 0);
out:
	mutex_unlock(&conn->lock);
	siw_conn_put(conn);	/* answered */
	return ret;
}

int siw_iw_reject(struct oib_iw_cm_id *cm_id, const void *pdata, u8 pdata_len)
{
	struct siw_conn *conn = cm_id->provider_data;

	if (pdata_len > OIB_IW_CM_PRIVATE_DATA_SIZE)
		return -EINVAL;
	mutex_lock(&conn->lock);
	if (conn->state == SIW_CONN_REQ_PENDING)
		siw_conn_refuse_locked(conn, pdata, pdata_len);
	mutex_unlock(&conn->lock);
	siw_conn_put(conn);	/* answered */
	return 0;
}

void siw_cm_rtr_received(struct siw_conn *conn)
{
	mutex_lock(&conn->lock);
	if (conn->state == SIW_CONN_UP)
		siw_conn_report(conn, OIB_IW_CM_EVENT_ESTABLISHED, 0, NULL, 0);
	mutex_unlock(&conn->lock);
}

/* ---- Events of the MPA phase, and closing ---- */

/* A passive exchange no device took yet: counted on the one whose listener it reached. */
static void siw_conn_count_unowned_locked(struct siw_conn *conn)
{
	lockdep_assert_held(&conn->lock);
	if (kernel_getsockname(conn->sock, (struct sockaddr *)&conn->local) < 0)
		return;
	siw_addr_unmap(&conn->local);
	siw_listen_count(conn->net, &conn->local, OIB_SIW_MPA_ERRORS);
}

static void siw_conn_fail_locked(struct siw_conn *conn, int err)
{
	lockdep_assert_held(&conn->lock);
	if (conn->sdev && err != -ECONNRESET)
		siw_count(conn->sdev, OIB_SIW_MPA_ERRORS, 1);
	else if (!conn->active && err != -ECONNRESET)
		siw_conn_count_unowned_locked(conn);
	if (conn->active)
		siw_conn_report(conn, OIB_IW_CM_EVENT_CONNECT_REPLY, err, NULL, 0);
	siw_conn_close_locked(conn);
}

static void siw_conn_work(struct work_struct *work)
{
	struct siw_conn *conn = container_of(work, struct siw_conn, work);
	int ret;

	if (READ_ONCE(conn->state) == SIW_CONN_CONNECTING) {
		ret = siw_conn_connect(conn);
		if (ret) {
			mutex_lock(&conn->lock);
			siw_conn_fail_locked(conn, ret == -ETIMEDOUT ? ret : -ECONNREFUSED);
			mutex_unlock(&conn->lock);
		}
	}
	mutex_lock(&conn->lock);
	if (conn->state == SIW_CONN_REP_WAIT || conn->state == SIW_CONN_REQ_WAIT) {
		ret = siw_conn_read_mpa(conn);
		if (ret < 0)
			siw_conn_fail_locked(conn, ret == -ECONNRESET ? ret : -EPROTO);
		else if (ret && conn->active)
			siw_conn_reply_locked(conn);
		else if (ret)
			siw_conn_request_locked(conn);
	} else if (conn->state == SIW_CONN_REQ_PENDING &&
		   conn->sock->sk->sk_state != TCP_ESTABLISHED) {
		siw_conn_close_locked(conn);	/* the peer gave up: accept finds it closed */
	}
	mutex_unlock(&conn->lock);
	siw_conn_put(conn);
}

static void siw_conn_timeout(struct work_struct *work)
{
	struct siw_conn *conn = container_of(to_delayed_work(work), struct siw_conn, timeout);

	mutex_lock(&conn->lock);
	if (conn->state == SIW_CONN_REP_WAIT || conn->state == SIW_CONN_REQ_WAIT)
		siw_conn_fail_locked(conn, -ETIMEDOUT);
	mutex_unlock(&conn->lock);
	siw_conn_put(conn);
}

void siw_cm_qp_closed(struct siw_conn *conn, bool peer_gone)
{
	mutex_lock(&conn->lock);
	switch (conn->state) {
	case SIW_CONN_CONNECTING:
	case SIW_CONN_REP_WAIT:
		siw_conn_report(conn, OIB_IW_CM_EVENT_CONNECT_REPLY, -ECONNRESET, NULL, 0);
		siw_conn_close_locked(conn);
		break;
	case SIW_CONN_UP:
		if (peer_gone)
			siw_conn_report(conn, OIB_IW_CM_EVENT_DISCONNECT, 0, NULL, 0);
		siw_conn_report(conn, OIB_IW_CM_EVENT_CLOSE, 0, NULL, 0);
		siw_conn_close_locked(conn);
		break;
	default:
		break;
	}
	mutex_unlock(&conn->lock);
}

/* The QP carrying @conn is destroyed (its tx work closed the connection first). */
void siw_cm_qp_gone(struct siw_conn *conn)
{
	mutex_lock(&conn->lock);
	conn->qp = NULL;
	mutex_unlock(&conn->lock);
	siw_conn_put(conn);
}

/*
 * Module exit, every device gone: close the connections left (passive ones still reading their
 * request), stop their timeouts, and wait for every one to be freed.
 */
void siw_cm_exit(void)
{
	struct siw_conn *conn, *found;

	do {
		found = NULL;
		spin_lock(&siw_conns_lock);
		list_for_each_entry(conn, &siw_conns, entry)
			if (READ_ONCE(conn->state) != SIW_CONN_CLOSED &&
			    kref_get_unless_zero(&conn->ref)) {
				found = conn;
				break;
			}
		spin_unlock(&siw_conns_lock);
		if (!found)
			break;
		mutex_lock(&found->lock);
		siw_conn_close_locked(found);
		mutex_unlock(&found->lock);
		siw_conn_put(found);
	} while (found);
	flush_workqueue(siw_wq);
	wait_var_event(&siw_nconns, !atomic_read(&siw_nconns));
}
