// SPDX-License-Identifier: GPL-2.0-only
/*
 * Listeners.  A namespace's TCP port has one listening socket for all of oib_siw, dual-stack on
 * the IPv6 wildcard, made by the first listener on that port and released with the last; each
 * listener (an iw_create_listen) is a device and an address on it, a wildcard one taking every
 * address of the device.  A request goes to the listener of its socket's local address: one
 * listening on that very address, else a wildcard one of a device that has it; none: refused.
 * So two devices of one namespace share a port, each hearing the requests to its own addresses.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include "siw.h"

#define SIW_LISTEN_BACKLOG	128

/* The listening sockets and their listeners; held while a request is delivered. */
static DEFINE_MUTEX(siw_listen_lock);
static LIST_HEAD(siw_lsocks);

struct siw_lsock {
	struct list_head entry;		/* siw_lsocks */
	struct net *net;		/* not held: its devices' removal ends the listeners */
	u16 port;
	struct socket *sock;
	struct list_head listeners;	/* struct siw_listener */
	struct work_struct accept_work;
	void (*saved_data_ready)(struct sock *sk);
};

struct siw_listener {
	struct list_head entry;		/* siw_lsock.listeners */
	struct siw_lsock *ls;
	struct oib_iw_cm_id *cm_id;
};

static u16 siw_addr_port(const struct sockaddr_storage *ss)
{
	return ss->ss_family == AF_INET ? ntohs(((const struct sockaddr_in *)ss)->sin_port) :
					  ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
}

static bool siw_addr_any(const struct sockaddr_storage *ss)
{
	return ss->ss_family == AF_INET ? !((const struct sockaddr_in *)ss)->sin_addr.s_addr :
	       ipv6_addr_any(&((const struct sockaddr_in6 *)ss)->sin6_addr);
}

static void siw_addr_gid(const struct sockaddr_storage *ss, union oib_gid *gid)
{
	if (ss->ss_family == AF_INET)
		ipv6_addr_set_v4mapped(((const struct sockaddr_in *)ss)->sin_addr.s_addr,
				       &gid->in6);
	else
		gid->in6 = ((const struct sockaddr_in6 *)ss)->sin6_addr;
}

static bool siw_addr_equal(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	union oib_gid ga, gb;

	siw_addr_gid(a, &ga);
	siw_addr_gid(b, &gb);
	return ipv6_addr_equal(&ga.in6, &gb.in6);
}

static void siw_lsock_data_ready(struct sock *sk)
{
	struct siw_lsock *ls;

	rcu_read_lock();
	ls = rcu_dereference_sk_user_data(sk);
	if (ls)
		queue_work(siw_wq, &ls->accept_work);
	rcu_read_unlock();
}

static void siw_lsock_accept(struct work_struct *work)
{
	struct siw_lsock *ls = container_of(work, struct siw_lsock, accept_work);
	struct socket *sock;

	while (!kernel_accept(ls->sock, &sock, O_NONBLOCK))
		siw_cm_passive(ls->net, sock);
}

static struct siw_lsock *siw_lsock_get(struct net *net, u16 port)
{
	struct sockaddr_in6 any = { .sin6_family = AF_INET6, .sin6_port = htons(port) };
	struct siw_lsock *ls;
	int ret;

	lockdep_assert_held(&siw_listen_lock);
	list_for_each_entry(ls, &siw_lsocks, entry)
		if (ls->net == net && ls->port == port)
			return ls;
	ls = kzalloc(sizeof(*ls), GFP_KERNEL);
	if (!ls)
		return ERR_PTR(-ENOMEM);
	ret = sock_create_kern(net, AF_INET6, SOCK_STREAM, IPPROTO_TCP, &ls->sock);
	if (ret)
		goto err;
	sock_set_reuseaddr(ls->sock->sk);
	ret = kernel_bind(ls->sock, (struct sockaddr *)&any, sizeof(any));
	if (!ret)
		ret = kernel_listen(ls->sock, SIW_LISTEN_BACKLOG);
	if (ret) {
		sock_release(ls->sock);
		goto err;
	}
	ls->net = net;
	ls->port = port;
	INIT_LIST_HEAD(&ls->listeners);
	INIT_WORK(&ls->accept_work, siw_lsock_accept);
	write_lock_bh(&ls->sock->sk->sk_callback_lock);
	/* not copied to the accepted sockets, which get a connection's */
	__rcu_assign_sk_user_data_with_flags(ls->sock->sk, ls, SK_USER_DATA_NOCOPY);
	ls->saved_data_ready = ls->sock->sk->sk_data_ready;
	ls->sock->sk->sk_data_ready = siw_lsock_data_ready;
	write_unlock_bh(&ls->sock->sk->sk_callback_lock);
	list_add_tail(&ls->entry, &siw_lsocks);
	return ls;
err:
	kfree(ls);
	return ERR_PTR(ret);
}

static void siw_lsock_put(struct siw_lsock *ls)
{
	struct sock *sk = ls->sock->sk;

	lockdep_assert_held(&siw_listen_lock);
	if (!list_empty(&ls->listeners))
		return;
	list_del(&ls->entry);
	write_lock_bh(&sk->sk_callback_lock);
	rcu_assign_sk_user_data(sk, NULL);
	sk->sk_data_ready = ls->saved_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	synchronize_rcu();		/* no data_ready queues the work again */
	cancel_work_sync(&ls->accept_work);
	sock_release(ls->sock);	/* connections not yet accepted are reset */
	kfree(ls);
}

int siw_iw_create_listen(struct oib_iw_cm_id *cm_id, int backlog)
{
	struct siw_dev *sdev = to_sdev(cm_id->device);
	u16 port = siw_addr_port(&cm_id->local_addr);
	struct siw_listener *l, *other;
	struct siw_lsock *ls;
	struct net *net;
	int ret = 0;

	if (!port)
		return -EINVAL;
	rcu_read_lock();
	net = siw_dev_net(sdev);
	net = net ? maybe_get_net(net) : NULL;
	rcu_read_unlock();
	if (!net)
		return -ENODEV;
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l) {
		put_net(net);
		return -ENOMEM;
	}
	mutex_lock(&siw_listen_lock);
	ls = siw_lsock_get(net, port);
	if (IS_ERR(ls)) {
		ret = PTR_ERR(ls);
		goto out;
	}
	list_for_each_entry(other, &ls->listeners, entry)
		if (other->cm_id->device == cm_id->device &&
		    !memcmp(&other->cm_id->local_addr, &cm_id->local_addr,
			    sizeof(cm_id->local_addr)))
			ret = -EADDRINUSE;
	if (!ret) {
		l->ls = ls;
		l->cm_id = cm_id;
		cm_id->provider_data = l;
		list_add_tail(&l->entry, &ls->listeners);
	}
	siw_lsock_put(ls);	/* only if it has no listener */
out:
	mutex_unlock(&siw_listen_lock);
	put_net(net);
	if (ret)
		kfree(l);
	return ret;
}

void siw_iw_destroy_listen(struct oib_iw_cm_id *cm_id)
{
	struct siw_listener *l = cm_id->provider_data;

	mutex_lock(&siw_listen_lock);
	list_del(&l->entry);
	siw_lsock_put(l->ls);
	mutex_unlock(&siw_listen_lock);
	kfree(l);
}

/* The listener a request to @local goes to: on that very address, else a wildcard one. */
static struct siw_listener *siw_listen_find_locked(struct net *net,
						   const struct sockaddr_storage *local)
{
	struct siw_listener *l, *best = NULL;
	struct siw_lsock *ls;
	union oib_gid gid;

	lockdep_assert_held(&siw_listen_lock);
	siw_addr_gid(local, &gid);
	list_for_each_entry(ls, &siw_lsocks, entry) {
		if (ls->net != net || ls->port != siw_addr_port(local))
			continue;
		list_for_each_entry(l, &ls->listeners, entry) {
			if (siw_addr_any(&l->cm_id->local_addr)) {
				if (!best && !oib_find_gid(l->cm_id->device, &gid, NULL, NULL))
					best = l;
			} else if (siw_addr_equal(&l->cm_id->local_addr, local)) {
				return l;
			}
		}
	}
	return best;
}

struct siw_dev *siw_listen_deliver(struct net *net, const struct sockaddr_storage *local,
				   struct oib_iw_cm_event *ev)
{
	struct siw_listener *l;
	struct siw_dev *sdev = NULL;

	mutex_lock(&siw_listen_lock);
	l = siw_listen_find_locked(net, local);
	if (l) {
		sdev = to_sdev(l->cm_id->device);
		atomic_inc(&sdev->nconns);	/* before its removal can wait for none */
		l->cm_id->event_handler(l->cm_id, ev);
	}
	mutex_unlock(&siw_listen_lock);
	return sdev;
}

void siw_listen_count(struct net *net, const struct sockaddr_storage *local,
		      enum oib_siw_stat stat)
{
	struct siw_listener *l;

	mutex_lock(&siw_listen_lock);
	l = siw_listen_find_locked(net, local);
	if (l)			/* its device stays while its listener does */
		siw_count(to_sdev(l->cm_id->device), stat, 1);
	mutex_unlock(&siw_listen_lock);
}
