// SPDX-License-Identifier: GPL-2.0-only
/*
 * A software provider's port whose GIDs follow a netdev's addresses (<oib/sw.h>): reading the
 * addresses under RTNL, and bringing the port's GID table in line with them.  The binding to the
 * netdev itself (holding it, the notifiers that find the device, the port's state, the device's
 * removal when the netdev goes) stays each provider's: see core.md.
 */
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include <oib/sw.h>

int oib_sw_netdev_addrs(struct net_device *ndev, union oib_gid *gids, int max)
{
	struct in_device *in4 = __in_dev_get_rtnl(ndev);
	struct inet6_dev *in6 = __in6_dev_get(ndev);
	const struct in_ifaddr *ifa;
	struct inet6_ifaddr *ifp;
	int n = 0;

	ASSERT_RTNL();
	if (in4) {
		in_dev_for_each_ifa_rtnl(ifa, in4)
			if (n < max)
				ipv6_addr_set_v4mapped(ifa->ifa_local, &gids[n++].in6);
	}
	if (in6) {
		read_lock_bh(&in6->lock);
		list_for_each_entry(ifp, &in6->addr_list, if_list)
			if (n < max)
				gids[n++].in6 = ifp->addr;
		read_unlock_bh(&in6->lock);
	}
	return n;
}
EXPORT_SYMBOL(oib_sw_netdev_addrs);

static bool oib_sw_gid_in(const union oib_gid *gid, const union oib_gid *set, int n)
{
	while (n--)
		if (ipv6_addr_equal(&gid->in6, &set[n].in6))
			return true;
	return false;
}

int oib_sw_netdev_follow_gids(struct oib_device *ib, u32 port, u32 first, u32 end,
			      struct net_device __rcu **ndevp)
{
	union oib_gid want[OIB_SW_NETDEV_MAX_GIDS], have;
	struct net_device *ndev;
	int n = 0, ret;
	u32 i;

	if (first >= end || end - first > OIB_SW_NETDEV_MAX_GIDS)
		return -EINVAL;
	rtnl_lock();
	ndev = rtnl_dereference(*ndevp);
	if (ndev)
		n = oib_sw_netdev_addrs(ndev, want, end - first);
	rtnl_unlock();
	if (!ndev)
		return 0;

	for (i = first; i < end; i++)
		if (!oib_query_gid(ib, port, i, &have, NULL) && !oib_sw_gid_in(&have, want, n))
			oib_del_gid(ib, port, &have);
	for (i = 0; i < n; i++) {
		ret = oib_add_gid(ib, port, &want[i], OIB_GID_TYPE_ROCE_V2);
		if (ret < 0 && ret != -EEXIST)
			dev_warn(&ib->dev, "no GID for %pI6c: %d\n", &want[i].in6, ret);
	}
	return 0;
}
EXPORT_SYMBOL(oib_sw_netdev_follow_gids);
