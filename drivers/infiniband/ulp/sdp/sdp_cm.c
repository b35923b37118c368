// SPDX-License-Identifier: GPL-2.0-only
/*
 * A socket's connection over oib_cma's SDP port space.  The handler queues what it hears for the
 * socket's work (sdp_cm_process(), under the socket lock), but for a listener's connection
 * request, which it answers itself: a new socket, its QP with every receive posted (INIT, then
 * RTR with the REP), the HelloAck in the REP.  oib_cm then establishes it on the RTU or on its
 * first receive: the passive side makes no call of its own for that.
 */
#include <linux/slab.h>
#include "sdp_priv.h"

static DEFINE_SPINLOCK(sdp_accept_lock);	/* every listener's accept_q, every ->parent */

/* The IP facts of the Hello: @id's addresses and port. */
static void sdp_hello_addrs(struct oib_cma_id *id, struct oib_sdp_hello *h)
{
	const struct sockaddr_storage *src = &id->route.addr.src_addr;
	const struct sockaddr_storage *dst = &id->route.addr.dst_addr;

	if (src->ss_family == AF_INET) {
		h->ip_version = 4;
		h->src.s6_addr32[3] = ((const struct sockaddr_in *)src)->sin_addr.s_addr;
		h->dst.s6_addr32[3] = ((const struct sockaddr_in *)dst)->sin_addr.s_addr;
		h->port = ntohs(((const struct sockaddr_in *)src)->sin_port);
	} else {
		h->ip_version = 6;
		h->src = ((const struct sockaddr_in6 *)src)->sin6_addr;
		h->dst = ((const struct sockaddr_in6 *)dst)->sin6_addr;
		h->port = ntohs(((const struct sockaddr_in6 *)src)->sin6_port);
	}
}

static int sdp_send_hello(struct sdp_sock *ssk)
{
	u8 hh[sizeof(struct oib_sdp_hh)];
	struct oib_sdp_hello h = {
		.hdr = { .bufs = ssk->credit.rx_posted }, .version = OIB_SDP_VERSION,
		.max_adverts = 1, .desremrcvsz = SDP_BUF_SIZE, .localrcvsz = SDP_BUF_SIZE,
	};
	struct oib_cma_conn_param p = {
		.private_data = hh, .private_data_len = sizeof(hh), .responder_resources = 4,
		.initiator_depth = 4, .retry_count = 5, .rnr_retry_count = 7,
	};

	sdp_hello_addrs(ssk->id, &h);
	oib_sdp_pack_hello(hh, &h);
	return oib_cma_connect(ssk->id, &p);
}

static int sdp_send_hello_ack(struct sdp_sock *ssk, u8 ip_version)
{
	u8 hah[sizeof(struct oib_sdp_hah)];
	struct oib_sdp_hello_ack a = {
		.hdr = { .bufs = ssk->credit.rx_posted }, .version = OIB_SDP_VERSION,
		.ip_version = ip_version, .max_adverts = 1, .actrcvsz = SDP_BUF_SIZE,
	};
	struct oib_cma_conn_param p = {
		.private_data = hah, .private_data_len = sizeof(hah), .responder_resources = 4,
		.initiator_depth = 4, .retry_count = 5, .rnr_retry_count = 7,
	};

	oib_sdp_pack_hello_ack(hah, &a);
	return oib_cma_accept(ssk->id, &p);
}

/* A request the listener may not take: undo the new socket (its id the CMA destroys). */
static int sdp_request_fail(struct sdp_sock *child, int ret)
{
	struct oib_cma_id *id = child->id;

	if (id->qp)
		oib_cma_destroy_qp(id);
	id->context = NULL;
	child->id = NULL;
	sock_put(&child->sk);		/* the id's reference */
	sdp_conn_release(child);	/* its CQ and PD */
	sock_put(&child->sk);		/* the socket's own */
	return ret;
}

/* CONNECT_REQUEST on a new id: answered here (see above).  Non-zero: refused. */
static int sdp_on_request(struct sdp_sock *l, struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct oib_sdp_hello hello;
	struct sdp_sock *child;
	struct sock *sk;
	bool full;
	int ret;

	ret = oib_sdp_parse_hello(ev->param.conn.private_data, ev->param.conn.private_data_len,
				  &hello);
	if (ret)
		return ret;
	spin_lock_bh(&sdp_accept_lock);
	full = READ_ONCE(l->state) != SDP_LISTEN ||
	       l->nqueued >= max_t(int, READ_ONCE(l->sk.sk_max_ack_backlog), 1);
	spin_unlock_bh(&sdp_accept_lock);
	if (full)
		return -ECONNREFUSED;
	sk = sdp_sock_alloc(sock_net(&l->sk), l->sk.sk_family, 0);
	if (!sk)
		return -ENOMEM;
	child = sdp_sk(sk);
	sdp_inherit(child, l);
	child->id = id;
	id->context = child;
	sock_hold(sk);			/* the id's */
	ret = sdp_conn_create(child);
	if (!ret) {
		child->credit.tx_credits = hello.hdr.bufs;
		ret = sdp_send_hello_ack(child, hello.ip_version);
	}
	if (ret)
		return sdp_request_fail(child, ret);
	child->state = SDP_SYN_RECV;
	sk->sk_state = SDP_SYN_RECV;
	spin_lock_bh(&sdp_accept_lock);
	list_add_tail(&child->accept_entry, &l->accept_q);
	child->parent = l;
	l->nqueued++;
	spin_unlock_bh(&sdp_accept_lock);
	return 0;
}

int sdp_cma_handler(struct oib_cma_id *id, struct oib_cma_event *ev)
{
	struct sdp_sock *ssk = id->context;
	struct sdp_cm_event *e;

	if (ev->event == OIB_CMA_EVENT_CONNECT_REQUEST)
		return sdp_on_request(ssk, id, ev);
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	spin_lock_bh(&ssk->ev_lock);
	if (e) {
		e->event = ev->event;
		e->status = ev->status;
		e->pdata_len = min_t(u8, ev->param.conn.private_data_len, sizeof(e->pdata));
		if (ev->param.conn.private_data)
			memcpy(e->pdata, ev->param.conn.private_data, e->pdata_len);
		list_add_tail(&e->entry, &ssk->evq);
	} else {
		ssk->ev_lost = true;	/* the work resets the connection */
	}
	spin_unlock_bh(&ssk->ev_lock);
	sdp_schedule(ssk);
	return 0;
}

/* Pick the listener's first connection that is through its set-up; NULL if none. */
struct sdp_sock *sdp_accept_pop(struct sdp_sock *l)
{
	struct sdp_sock *c, *found = NULL;

	spin_lock_bh(&sdp_accept_lock);
	list_for_each_entry(c, &l->accept_q, accept_entry) {
		if (READ_ONCE(c->state) != SDP_SYN_RECV) {
			found = c;
			list_del_init(&c->accept_entry);
			c->parent = NULL;
			l->nqueued--;
			break;
		}
	}
	spin_unlock_bh(&sdp_accept_lock);
	return found;
}

bool sdp_accept_ready(struct sdp_sock *l)
{
	struct sdp_sock *c;
	bool ready = false;

	spin_lock_bh(&sdp_accept_lock);
	list_for_each_entry(c, &l->accept_q, accept_entry)
		ready |= READ_ONCE(c->state) != SDP_SYN_RECV;
	spin_unlock_bh(&sdp_accept_lock);
	return ready;
}

/* A closed listener's connections not accepted: each aborted and let go. */
void sdp_accept_drain(struct sdp_sock *l)
{
	struct sdp_sock *c, *tmp;
	LIST_HEAD(q);

	spin_lock_bh(&sdp_accept_lock);
	list_splice_init(&l->accept_q, &q);
	list_for_each_entry(c, &q, accept_entry)
		c->parent = NULL;
	l->nqueued = 0;
	spin_unlock_bh(&sdp_accept_lock);
	list_for_each_entry_safe(c, tmp, &q, accept_entry) {
		list_del_init(&c->accept_entry);
		lock_sock(&c->sk);
		sdp_apply(c, SDP_EV_ABORT);
		c->release_pending = false;
		sdp_conn_release(c);
		release_sock(&c->sk);
		sock_put(&c->sk);	/* the queue's: it was the socket's own */
	}
}

/* Tell a spawned socket's listener that it may be accepted now. */
static void sdp_wake_parent(struct sdp_sock *ssk)
{
	spin_lock_bh(&sdp_accept_lock);
	if (ssk->parent)
		ssk->parent->sk.sk_state_change(&ssk->parent->sk);
	spin_unlock_bh(&sdp_accept_lock);
}

static void sdp_on_established(struct sdp_sock *ssk, const struct sdp_cm_event *e)
{
	struct oib_sdp_hello_ack ack;

	if (ssk->state == SDP_SYN_SENT) {
		if (oib_sdp_parse_hello_ack(e->pdata, e->pdata_len, &ack)) {
			sdp_apply(ssk, SDP_EV_REFUSED);
			return;
		}
		ssk->credit.tx_credits = ack.hdr.bufs;
	}
	sdp_apply(ssk, SDP_EV_ESTABLISHED);
	if (ssk->state != SDP_ESTABLISHED || !ssk->id)
		goto out;
	ssk->local = ssk->id->route.addr.src_addr;
	ssk->remote = ssk->id->route.addr.dst_addr;
	ssk->last_active = jiffies;
	atomic_inc(&sdp_connections);
	if (sock_flag(&ssk->sk, SOCK_KEEPOPEN))
		sdp_keepalive_set(&ssk->sk, 1);
out:
	sdp_wake_parent(ssk);
}

/* A failed connect: the error a TCP socket would give, and the end of the attempt. */
static void sdp_refused(struct sdp_sock *ssk, int err)
{
	enum sdp_state was = ssk->state;

	sdp_apply(ssk, SDP_EV_REFUSED);
	if (ssk->state == was)
		return;			/* established already, or gone: not this socket's error */
	if (err == EHOSTUNREACH)
		ssk->last_bind_err = err;	/* no RDMA path: SDP_LAST_BIND_ERR says so */
	if (err)
		ssk->sk.sk_err = err;
	sdp_wake_parent(ssk);
}

static void sdp_cm_event(struct sdp_sock *ssk, const struct sdp_cm_event *e)
{
	switch (e->event) {
	case OIB_CMA_EVENT_ADDR_RESOLVED:
		if (ssk->state == SDP_SYN_SENT && oib_cma_resolve_route(ssk->id, SDP_RESOLVE_MS))
			sdp_refused(ssk, EHOSTUNREACH);
		break;
	case OIB_CMA_EVENT_ROUTE_RESOLVED:
		if (ssk->state == SDP_SYN_SENT && (sdp_conn_create(ssk) || sdp_send_hello(ssk)))
			sdp_refused(ssk, EHOSTUNREACH);
		break;
	case OIB_CMA_EVENT_ADDR_ERROR:
	case OIB_CMA_EVENT_ROUTE_ERROR:
		sdp_refused(ssk, EHOSTUNREACH);
		break;
	case OIB_CMA_EVENT_UNREACHABLE:
		sdp_refused(ssk, ETIMEDOUT);
		break;
	case OIB_CMA_EVENT_REJECTED:
	case OIB_CMA_EVENT_CONNECT_ERROR:
		sdp_refused(ssk, 0);
		break;
	case OIB_CMA_EVENT_ESTABLISHED:
		sdp_on_established(ssk, e);
		break;
	case OIB_CMA_EVENT_DISCONNECTED:
		sdp_poll_cq(ssk);	/* the peer's DisConn may be in the CQ */
		sdp_apply(ssk, SDP_EV_CM_DISCONNECTED);
		break;
	case OIB_CMA_EVENT_DEVICE_REMOVAL:
		if (ssk->state == SDP_LISTEN) {
			ssk->sk.sk_err = ENODEV;
			ssk->release_pending = true;
			ssk->sk.sk_state_change(&ssk->sk);
		}
		sdp_apply(ssk, SDP_EV_RESET);
		break;
	default:
		break;
	}
}

/* Under the socket lock: every event the handler queued, in order. */
void sdp_cm_process(struct sdp_sock *ssk)
{
	struct sdp_cm_event *e;
	bool lost;

	for (;;) {
		spin_lock_bh(&ssk->ev_lock);
		e = list_first_entry_or_null(&ssk->evq, struct sdp_cm_event, entry);
		if (e)
			list_del(&e->entry);
		lost = ssk->ev_lost;
		ssk->ev_lost = false;
		spin_unlock_bh(&ssk->ev_lock);
		if (lost)
			sdp_apply(ssk, SDP_EV_RESET);
		if (!e)
			return;
		sdp_cm_event(ssk, e);
		kfree(e);
	}
}

/* connect(): an id (if bind made none), its address resolved; the rest comes by events. */
int sdp_connect_start(struct sdp_sock *ssk, const struct sockaddr *dst)
{
	int ret = ssk->id ? 0 : sdp_new_id(ssk);

	if (ret)
		return ret;
	return oib_cma_resolve_addr(ssk->id, NULL, dst, SDP_RESOLVE_MS);
}

/* listen(): bound (to the family's wildcard if bind was not called), listening. */
int sdp_listen_start(struct sdp_sock *ssk, int backlog)
{
	struct sockaddr_storage any = { .ss_family = ssk->sk.sk_family == OIB_AF_INET6_SDP ?
					AF_INET6 : AF_INET };
	int ret = 0;

	if (!ssk->id) {
		ret = sdp_new_id(ssk);
		if (!ret)
			ret = oib_cma_bind_addr(ssk->id, (struct sockaddr *)&any);
	}
	return ret ?: oib_cma_listen(ssk->id, backlog);
}
