// SPDX-License-Identifier: GPL-2.0-only
/*
 * RoCEv2 over UDP on a network device: the uplink of a device bound to a netdev (orxe_link.c).
 *
 * Such a device's port sits on a fabric of its own, whose only other port is the uplink: the port
 * the fabric resolves every GID to that it has no owner for.  What the uplink receives from the
 * fabric it sends on the netdev as IPv4 or IPv6 through the kernel's IP output (routing, the
 * neighbour tables, which hold a frame while ARP or ND resolves its next hop, netfilter); what the
 * netdev receives on UDP port 4791 it puts on the fabric.  Every frame crossing the fabric is
 * subject to its fault injection and capture, in both directions, and the uplink takes only sealed
 * frames (the fabric computes the ICRC before handing one over, as a NIC would on transmit).
 *
 * The sockets: each network namespace with a bound device has one IPv4 and one IPv6 UDP tunnel
 * socket on port 4791 (struct orxe_udp_net, taken by the first device bound in the namespace and
 * released with the last), whose receive hook finds the device by the ingress netdev's ifindex.
 * The in-tree rdma_rxe binds the same port in the initial namespace when it loads: the two cannot
 * share a namespace (binding fails with -EADDRINUSE).
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/module.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/route.h>
#include <net/udp_tunnel.h>
#include "orxe.h"

static unsigned int orxe_udp_net_id;

/*
 * A namespace's sockets and bound devices.  links is an xarray (ifindex -> struct orxe_link)
 * written under RTNL, read under RCU by the receive hook and the notifiers.
 */
struct orxe_udp_net {
	struct mutex lock;	/* sock4, sock6 and users; taken under RTNL */
	struct socket *sock4, *sock6;
	unsigned int users;
	struct xarray links;
	atomic64_t unclaimed;	/* datagrams that came in on a netdev no device is bound to */
};

static struct orxe_udp_net *orxe_udp_net(struct net *net)
{
	return net_generic(net, orxe_udp_net_id);
}

/* The datagrams @ndev's namespace got on port 4791 that no bound device claimed. */
u64 orxe_udp_unclaimed(const struct net_device *ndev)
{
	return atomic64_read(&orxe_udp_net(dev_net(ndev))->unclaimed);
}

/* The device bound to @ndev, if any; under RCU (or RTNL). */
struct orxe_link *orxe_udp_find_link(const struct net_device *ndev)
{
	return xa_load(&orxe_udp_net(dev_net(ndev))->links, ndev->ifindex);
}

/* ---- Receiving ---- */

/*
 * The socket's receive hook, in softirq context under RCU, with @skb->data at the UDP header and
 * the UDP checksum checked (a zero one accepted, as RoCEv2 senders use it).  The frame goes on the
 * fabric as it arrived, Ethernet header included, addressed to the device's port and marked as not
 * implied (so the port checks its ICRC).  Always consumes @skb.
 */
static int orxe_udp_encap_recv(struct sock *sk, struct sk_buff *skb)
{
	struct orxe_udp_net *un = rcu_dereference_sk_user_data(sk);
	struct orxe_link *link = un ? xa_load(&un->links, skb->dev->ifindex) : NULL;

	if (!link) {
		if (un)
			atomic64_inc(&un->unclaimed);
		goto drop;
	}
	if (!skb_mac_header_was_set(skb) ||
	    skb_network_header(skb) - skb_mac_header(skb) != ETH_HLEN) {
		orxe_port_count(&link->rdev->ports[0], OIB_RXE_RX_DROP_MALFORMED);
		goto drop;
	}
	skb_dst_drop(skb);
	nf_reset_ct(skb);
	__skb_push(skb, skb->data - skb_mac_header(skb));
	if (skb_ensure_writable(skb, ETH_HLEN)) {
		orxe_port_count(&link->rdev->ports[0], OIB_RXE_RX_DROP_MALFORMED);
		goto drop;
	}
	ether_addr_copy(eth_hdr(skb)->h_dest, link->rdev->ports[0].mac);
	skb->ip_summed = CHECKSUM_NONE;
	oib_rxe_fabric_xmit(&link->fport, skb);
	return 0;

drop:
	kfree_skb(skb);
	return 0;
}

/* ---- Sending ---- */

static struct dst_entry *orxe_udp_route4(struct net_device *ndev, struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	struct flowi4 fl4 = {
		.flowi4_oif = ndev->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		.daddr = iph->daddr,
		.saddr = iph->saddr,
	};
	struct rtable *rt = ip_route_output_key(dev_net(ndev), &fl4);

	return IS_ERR(rt) ? NULL : &rt->dst;
}

static struct dst_entry *orxe_udp_route6(struct net_device *ndev, struct sk_buff *skb)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	struct flowi6 fl6 = {
		.flowi6_oif = ndev->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.daddr = ip6h->daddr,
		.saddr = ip6h->saddr,
	};
	struct dst_entry *dst = ip6_route_output(dev_net(ndev), NULL, &fl6);

	if (dst->error) {
		dst_release(dst);
		return NULL;
	}
	return dst;
}

/*
 * The uplink's rx(): a sealed frame from the device's port, to go out on the netdev.  Process
 * context (the fabric's workqueue).  The Ethernet header goes (the neighbour layer writes the real
 * one); a frame with no route out of this netdev is counted as the port's tx_no_route.
 */
static void orxe_udp_xmit(struct orxe_fabric_port *fp, struct sk_buff *skb)
{
	struct orxe_link *link = container_of(fp, struct orxe_link, fport);
	struct orxe_port *port = &link->rdev->ports[0];
	struct net_device *ndev;
	struct dst_entry *dst;
	bool ipv6;

	if (!pskb_may_pull(skb, ETH_HLEN + sizeof(struct iphdr)))
		goto drop;
	ipv6 = ((struct ethhdr *)skb->data)->h_proto == htons(ETH_P_IPV6);
	__skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, ipv6 ? sizeof(struct ipv6hdr) : ip_hdrlen(skb));
	skb->protocol = ipv6 ? htons(ETH_P_IPV6) : htons(ETH_P_IP);
	memset(skb->cb, 0, sizeof(skb->cb));

	rcu_read_lock();
	ndev = rcu_dereference(link->ndev);
	dst = !ndev ? NULL : ipv6 ? orxe_udp_route6(ndev, skb) : orxe_udp_route4(ndev, skb);
	if (dst && dst->dev != ndev) {
		dst_release(dst);
		dst = NULL;
	}
	if (!dst) {
		rcu_read_unlock();
		goto drop;
	}
	skb_dst_set(skb, dst);
	skb->dev = ndev;
	if (ipv6)
		ip6_local_out(dev_net(ndev), NULL, skb);
	else
		ip_local_out(dev_net(ndev), NULL, skb);
	rcu_read_unlock();
	return;

drop:
	orxe_port_count(port, OIB_RXE_TX_NO_ROUTE);
	kfree_skb(skb);
}

/* ---- The namespace's sockets ---- */

static struct socket *orxe_udp_sock(struct net *net, struct orxe_udp_net *un, bool ipv6)
{
	struct udp_port_cfg cfg = {
		.family = ipv6 ? AF_INET6 : AF_INET,
		.local_udp_port = htons(ORXE_ROCE_V2_PORT),
		.ipv6_v6only = 1,
		.use_udp6_rx_checksums = 0,	/* zero checksums are what RoCEv2 senders send */
	};
	struct udp_tunnel_sock_cfg tcfg = {
		.sk_user_data = un,
		.encap_type = 1,
		.encap_rcv = orxe_udp_encap_recv,
	};
	struct socket *sock;
	int ret;

	ret = udp_sock_create(net, &cfg, &sock);
	if (ret)
		return ERR_PTR(ret);
	setup_udp_tunnel_sock(net, sock, &tcfg);
	return sock;
}

static void orxe_udp_release_locked(struct orxe_udp_net *un)
{
	lockdep_assert_held(&un->lock);
	if (--un->users)
		return;
	udp_tunnel_sock_release(un->sock6);
	udp_tunnel_sock_release(un->sock4);
	un->sock4 = NULL;
	un->sock6 = NULL;
}

/*
 * Publish @link as the device bound to @ndev, taking the namespace's sockets (made by the first
 * device).  Under RTNL.  -EBUSY if another device is bound to @ndev, -EADDRINUSE if something else
 * (the in-tree rdma_rxe, say) has UDP port 4791 in the namespace.
 */
int orxe_udp_link_add(struct orxe_link *link, struct net_device *ndev)
{
	struct orxe_udp_net *un = orxe_udp_net(dev_net(ndev));
	struct socket *sock;
	int ret = 0;

	ASSERT_RTNL();
	mutex_lock(&un->lock);
	if (!un->users) {
		sock = orxe_udp_sock(dev_net(ndev), un, false);
		if (IS_ERR(sock)) {
			ret = PTR_ERR(sock);
			goto out;
		}
		un->sock4 = sock;
		sock = orxe_udp_sock(dev_net(ndev), un, true);
		if (IS_ERR(sock)) {
			udp_tunnel_sock_release(un->sock4);
			un->sock4 = NULL;
			ret = PTR_ERR(sock);
			goto out;
		}
		un->sock6 = sock;
	}
	un->users++;
	ret = xa_insert(&un->links, ndev->ifindex, link, GFP_KERNEL);
	if (ret)
		orxe_udp_release_locked(un);
out:
	mutex_unlock(&un->lock);
	return ret;
}

/* Unpublish @link; once this returns no receive hook or notifier uses it.  Under RTNL. */
void orxe_udp_link_del(struct orxe_link *link, struct net_device *ndev)
{
	struct orxe_udp_net *un = orxe_udp_net(dev_net(ndev));

	ASSERT_RTNL();
	mutex_lock(&un->lock);
	xa_erase(&un->links, ndev->ifindex);
	mutex_unlock(&un->lock);
	synchronize_rcu();
	mutex_lock(&un->lock);
	orxe_udp_release_locked(un);
	mutex_unlock(&un->lock);
}

/* The uplink port's settings: its rx() is the transmit path above. */
void orxe_udp_uplink_init(struct orxe_link *link, const u8 *port_mac)
{
	ether_addr_copy(link->fport.mac, port_mac);
	link->fport.mac[0] ^= 0x02;	/* never on a wire: only the port and its fabric see it */
	link->fport.rx = orxe_udp_xmit;
	link->fport.implied_ok = false;
	link->fport.uplink = true;
}

static int __net_init orxe_udp_net_init(struct net *net)
{
	struct orxe_udp_net *un = orxe_udp_net(net);

	mutex_init(&un->lock);
	xa_init(&un->links);
	atomic64_set(&un->unclaimed, 0);
	return 0;
}

/* Devices go before their namespace does (NETDEV_UNREGISTER unbinds them): nothing is left. */
static void __net_exit orxe_udp_net_exit(struct net *net)
{
	struct orxe_udp_net *un = orxe_udp_net(net);

	WARN_ON(un->users || !xa_empty(&un->links));
	xa_destroy(&un->links);
	mutex_destroy(&un->lock);
}

static struct pernet_operations orxe_udp_net_ops = {
	.init = orxe_udp_net_init,
	.exit = orxe_udp_net_exit,
	.id = &orxe_udp_net_id,
	.size = sizeof(struct orxe_udp_net),
};

int orxe_udp_init(void)
{
	return register_pernet_subsys(&orxe_udp_net_ops);
}

void orxe_udp_exit(void)
{
	unregister_pernet_subsys(&orxe_udp_net_ops);
}
