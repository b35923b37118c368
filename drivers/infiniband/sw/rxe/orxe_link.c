// SPDX-License-Identifier: GPL-2.0-only
/*
 * Devices on network devices: what `rdma link add NAME type rxe netdev X` makes for the in-tree
 * rdma_rxe.  Such a device has one port, whose MAC is the netdev's; it follows the netdev:
 *
 * - its GIDs are the link-local EUI-64 GID (index 0, from the MAC at creation) and the netdev's
 *   IPv4 (as IPv4-mapped) and IPv6 addresses, kept in line by the address notifiers, each change
 *   raising GID_CHANGE (the core's oib_add_gid()/oib_del_gid());
 * - its state is ACTIVE while the netdev is up with carrier, else DOWN (PORT_ACTIVE, PORT_ERR);
 * - its active MTU is the largest IB MTU whose packets, with the largest headers, fit the
 *   netdev's MTU;
 * - when the netdev is unregistered (also when it leaves its namespace), the device is removed.
 *
 * The frames themselves travel through orxe_udp.c.  Notifiers run under RTNL (the IPv6 address
 * notifier in atomic context, under RCU): they only change the port's state and MTU or queue work.
 */
#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <linux/seq_file.h>
#include <net/addrconf.h>
#include <net/ip6_route.h>
#include <net/route.h>
#include "orxe.h"

/* IPv6, UDP, BTH, RETH, ImmDt and ICRC: the most a payload-carrying packet adds to its payload. */
#define ORXE_LINK_OVERHEAD	(40 + 8 + 12 + 16 + 4 + ORXE_ICRC_SIZE)

/* Queued from notifiers: GID updates and device removals. */
static struct workqueue_struct *orxe_link_wq;

static enum oib_mtu orxe_link_mtu(unsigned int netdev_mtu)
{
	enum oib_mtu mtu;

	for (mtu = OIB_MTU_4096; mtu > OIB_MTU_256; mtu--)
		if (oib_mtu_to_int(mtu) + ORXE_LINK_OVERHEAD <= netdev_mtu)
			break;
	return mtu;
}

/* The port's state and active MTU from the netdev's; under RTNL. */
static void orxe_link_sync_state(struct orxe_link *link, struct net_device *ndev)
{
	struct orxe_dev *rdev = link->rdev;

	ASSERT_RTNL();
	WRITE_ONCE(rdev->ports[0].active_mtu, orxe_link_mtu(READ_ONCE(ndev->mtu)));
	oib_rxe_set_port_state(&rdev->ib, 1, netif_running(ndev) && netif_oper_up(ndev));
}

/* ---- GIDs ---- */

/* Make the port's GIDs (but index 0) the netdev's addresses (oib_core's helper). */
static void orxe_link_gid_work(struct work_struct *work)
{
	struct orxe_link *link = container_of(work, struct orxe_link, gid_work);

	oib_sw_netdev_follow_gids(&link->rdev->ib, 1, 1, ORXE_MAX_GID, &link->ndev);
}

/* ---- Reaching ---- */

/*
 * Whether the netdev's namespace routes to @dgid through the netdev (not over another interface),
 * and the hop limit its route gives; for the reach op, when no port of the device's fabric owns
 * @dgid.  The lookup names no output device (but for IPv6 link-local destinations, which need
 * one): with one, the kernel assumes any destination without a route to be on that link.
 */
int orxe_link_reach(struct orxe_link *link, const union oib_gid *dgid, u8 *hop_limit)
{
	bool v4 = ipv6_addr_v4mapped(&dgid->in6);
	struct dst_entry *dst = NULL;
	struct net_device *ndev;
	int ret = -EHOSTUNREACH;

	rcu_read_lock();
	ndev = rcu_dereference(link->ndev);
	if (ndev && v4) {
		struct flowi4 fl4 = { .daddr = dgid->in6.s6_addr32[3] };
		struct rtable *rt = ip_route_output_key(dev_net(ndev), &fl4);

		if (!IS_ERR(rt))
			dst = &rt->dst;
	} else if (ndev) {
		struct flowi6 fl6 = { .daddr = dgid->in6 };

		if (ipv6_addr_type(&dgid->in6) & IPV6_ADDR_LINKLOCAL)
			fl6.flowi6_oif = ndev->ifindex;
		dst = ip6_route_output(dev_net(ndev), NULL, &fl6);
		if (dst->error) {
			dst_release(dst);
			dst = NULL;
		}
	}
	if (dst && dst->dev == ndev) {
		*hop_limit = v4 ? ip4_dst_hoplimit(dst) : ip6_dst_hoplimit(dst);
		ret = 0;
	}
	dst_release(dst);
	rcu_read_unlock();
	return ret;
}

/* ---- Binding and unbinding ---- */

static void orxe_link_remove_work(struct work_struct *work)
{
	orxe_dev_remove_work(container_of(work, struct orxe_link, remove_work)->rdev);
}

/*
 * Bind @rdev (registered, its port attached) to @ndev: attach the uplink, take the sockets,
 * follow the netdev from now on.  Under RTNL.  -ENODEV if @ndev is being unregistered, -EINVAL if
 * it is not an Ethernet device, -EBUSY if another device is bound to it, -EADDRINUSE if UDP port
 * 4791 of its namespace is taken.
 */
int orxe_link_bind(struct orxe_dev *rdev, struct net_device *ndev)
{
	struct orxe_link *link = &rdev->link;
	int ret;

	ASSERT_RTNL();
	if (ndev->reg_state != NETREG_REGISTERED)
		return -ENODEV;
	if (ndev->type != ARPHRD_ETHER || (ndev->flags & IFF_LOOPBACK))
		return -EINVAL;
	ret = oib_rxe_fabric_attach(rdev->fabric, &link->fport);
	if (ret)
		return ret;
	ret = orxe_udp_link_add(link, ndev);
	if (ret) {
		oib_rxe_fabric_detach(&link->fport);
		return ret;
	}
	netdev_hold(ndev, &link->tracker, GFP_KERNEL);
	rcu_assign_pointer(link->ndev, ndev);
	orxe_link_sync_state(link, ndev);
	queue_work(orxe_link_wq, &link->gid_work);
	return 0;
}

/* Stop following the netdev; the port goes DOWN.  Under RTNL; nothing if not bound. */
static void orxe_link_unbind(struct orxe_link *link)
{
	struct net_device *ndev = rtnl_dereference(link->ndev);

	ASSERT_RTNL();
	if (!ndev)
		return;
	RCU_INIT_POINTER(link->ndev, NULL);
	/* waits for the receive hook, the notifiers and the uplink's transmit path */
	orxe_udp_link_del(link, ndev);
	netdev_put(ndev, &link->tracker);
	oib_rxe_set_port_state(&link->rdev->ib, 1, false);
}

/*
 * The first step of removing a device on a netdev (before unregistering it): unbind, and wait for
 * the queued work, but for the removal work when that is the caller.
 */
void orxe_link_stop(struct orxe_dev *rdev, bool in_remove_work)
{
	struct orxe_link *link = &rdev->link;

	rtnl_lock();
	orxe_link_unbind(link);
	rtnl_unlock();
	cancel_work_sync(&link->gid_work);
	if (!in_remove_work)
		cancel_work_sync(&link->remove_work);
}

/* The last step (after unregistering): the uplink leaves the fabric. */
void orxe_link_release(struct orxe_dev *rdev)
{
	if (rdev->link.fport.fabric)
		oib_rxe_fabric_detach(&rdev->link.fport);
}

/* ---- debugfs: /sys/kernel/debug/oib/<device>/link ---- */

static int link_show(struct seq_file *m, void *v)
{
	struct orxe_link *link = m->private;
	struct net_device *ndev;

	rtnl_lock();
	ndev = rtnl_dereference(link->ndev);
	if (ndev)
		seq_printf(m, "netdev %s ifindex %d netns %u mtu %u\nudp_unclaimed %llu\n",
			   ndev->name, ndev->ifindex, dev_net(ndev)->ns.inum, ndev->mtu,
			   orxe_udp_unclaimed(ndev));
	else
		seq_puts(m, "netdev none\n");
	rtnl_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(link);

/* The device's netdev, and the datagrams its namespace had for no device. */
void orxe_link_debugfs_add(struct orxe_dev *rdev)
{
	debugfs_create_file("link", 0444, rdev->ib.debugfs, &rdev->link, &link_fops);
}

/* ---- Notifiers ---- */

static int orxe_link_netdev_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct orxe_link *link = orxe_udp_find_link(ndev);

	if (!link)
		return NOTIFY_DONE;
	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
	case NETDEV_CHANGEMTU:
		orxe_link_sync_state(link, ndev);
		break;
	case NETDEV_UNREGISTER:
		orxe_link_unbind(link);
		queue_work(orxe_link_wq, &link->remove_work);
		break;
	}
	return NOTIFY_DONE;
}

static void orxe_link_addr_changed(struct net_device *ndev)
{
	struct orxe_link *link;

	rcu_read_lock();
	link = orxe_udp_find_link(ndev);
	if (link)
		queue_work(orxe_link_wq, &link->gid_work);
	rcu_read_unlock();
}

static int orxe_link_inet_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	orxe_link_addr_changed(((struct in_ifaddr *)ptr)->ifa_dev->dev);
	return NOTIFY_DONE;
}

static int orxe_link_inet6_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	orxe_link_addr_changed(((struct inet6_ifaddr *)ptr)->idev->dev);
	return NOTIFY_DONE;
}

static struct notifier_block orxe_link_netdev_nb = { .notifier_call = orxe_link_netdev_event };
static struct notifier_block orxe_link_inet_nb = { .notifier_call = orxe_link_inet_event };
static struct notifier_block orxe_link_inet6_nb = { .notifier_call = orxe_link_inet6_event };

/* A device's link, before the device is bound. */
void orxe_link_setup(struct orxe_dev *rdev)
{
	struct orxe_link *link = &rdev->link;

	link->rdev = rdev;
	INIT_WORK(&link->gid_work, orxe_link_gid_work);
	INIT_WORK(&link->remove_work, orxe_link_remove_work);
	orxe_udp_uplink_init(link, rdev->ports[0].mac);
}

int orxe_link_init(void)
{
	int ret;

	orxe_link_wq = alloc_workqueue("oib_rxe_link", 0, 0);
	if (!orxe_link_wq)
		return -ENOMEM;
	ret = register_netdevice_notifier(&orxe_link_netdev_nb);
	if (ret)
		goto err_wq;
	ret = register_inetaddr_notifier(&orxe_link_inet_nb);
	if (ret)
		goto err_netdev;
	ret = register_inet6addr_notifier(&orxe_link_inet6_nb);
	if (ret)
		goto err_inet;
	return 0;

err_inet:
	unregister_inetaddr_notifier(&orxe_link_inet_nb);
err_netdev:
	unregister_netdevice_notifier(&orxe_link_netdev_nb);
err_wq:
	destroy_workqueue(orxe_link_wq);
	return ret;
}

/*
 * Module exit: unregistering the netdev notifier replays NETDEV_UNREGISTER for every netdev, which
 * unbinds every device and queues its removal; destroying the workqueue runs those.
 */
void orxe_link_exit(void)
{
	unregister_inet6addr_notifier(&orxe_link_inet6_nb);
	unregister_inetaddr_notifier(&orxe_link_inet_nb);
	unregister_netdevice_notifier(&orxe_link_netdev_nb);
	destroy_workqueue(orxe_link_wq);
}
