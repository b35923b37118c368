// SPDX-License-Identifier: GPL-2.0-only
/*
 * A software provider's port whose GIDs follow a netdev's addresses (core/sw_netdev.c): the
 * loopback device's addresses read as GIDs (IPv4-mapped first, then IPv6, at most as many as
 * asked), and an oib_rxe port's GIDs brought in line with them: a GID the netdev does not have
 * deleted, its addresses added, the provider's indices below the range untouched, nothing done
 * for an unbound device, a bad range refused.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <oib/sw.h>
#include "oib_toolkit.h"

#define SWND_FABRIC	"oib_sw_netdev_test"

static union oib_gid swnd_v4_lo, swnd_v6_lo, swnd_stale;

/* The loopback device, up (brought up here if it was not, and down again after the test). */
static void swnd_lo_down(void *lo)
{
	rtnl_lock();
	dev_close(lo);
	rtnl_unlock();
}

static struct net_device *swnd_lo(struct kunit *test)
{
	struct net_device *lo = init_net.loopback_dev;
	bool opened = false;

	rtnl_lock();
	if (!(lo->flags & IFF_UP)) {
		KUNIT_EXPECT_EQ(test, dev_open(lo, NULL), 0);
		opened = true;
	}
	rtnl_unlock();
	if (opened)
		KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, swnd_lo_down, lo));
	return lo;
}

static bool swnd_has(const union oib_gid *gids, int n, const union oib_gid *gid)
{
	while (n--)
		if (!memcmp(&gids[n], gid, sizeof(*gid)))
			return true;
	return false;
}

static int swnd_init(struct kunit *test)
{
	oib_test_gid_v4(&swnd_v4_lo, 127, 0, 0, 1);
	oib_test_gid_v4(&swnd_stale, 10, 9, 8, 7);
	memset(&swnd_v6_lo, 0, sizeof(swnd_v6_lo));
	swnd_v6_lo.raw[15] = 1;
	return 0;
}

static void swnd_test_addrs(struct kunit *test)
{
	struct net_device *lo = swnd_lo(test);
	union oib_gid gids[OIB_SW_NETDEV_MAX_GIDS];
	int n, one, none;

	rtnl_lock();
	n = oib_sw_netdev_addrs(lo, gids, ARRAY_SIZE(gids));
	one = oib_sw_netdev_addrs(lo, gids + 8, 1);
	none = oib_sw_netdev_addrs(lo, gids + 9, 0);
	rtnl_unlock();
	KUNIT_EXPECT_GE(test, n, 2);
	KUNIT_EXPECT_TRUE(test, swnd_has(gids, n, &swnd_v4_lo));
	KUNIT_EXPECT_TRUE(test, swnd_has(gids, n, &swnd_v6_lo));
	KUNIT_EXPECT_TRUE(test, ipv6_addr_v4mapped(&gids[0].in6));	/* IPv4 first */
	KUNIT_EXPECT_EQ(test, one, 1);
	KUNIT_EXPECT_EQ(test, none, 0);
}

static void swnd_test_follow(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_on(test, SWND_FABRIC, 1);
	struct net_device __rcu *ndev = NULL;
	union oib_gid gid0, now;
	u32 port, index;

	KUNIT_ASSERT_EQ(test, oib_query_gid(dev, 1, 0, &gid0, NULL), 0);
	KUNIT_ASSERT_GE(test, oib_add_gid(dev, 1, &swnd_stale, OIB_GID_TYPE_ROCE_V2), 1);

	/* unbound: nothing changes */
	KUNIT_EXPECT_EQ(test, oib_sw_netdev_follow_gids(dev, 1, 1, 16, &ndev), 0);
	KUNIT_EXPECT_EQ(test, oib_find_gid(dev, &swnd_stale, &port, &index), 0);

	RCU_INIT_POINTER(ndev, swnd_lo(test));
	KUNIT_EXPECT_EQ(test, oib_sw_netdev_follow_gids(dev, 1, 1, 16, &ndev), 0);
	KUNIT_EXPECT_NE(test, oib_find_gid(dev, &swnd_stale, &port, &index), 0);
	KUNIT_EXPECT_EQ(test, oib_find_gid(dev, &swnd_v4_lo, &port, &index), 0);
	KUNIT_EXPECT_GE(test, index, 1u);
	KUNIT_EXPECT_EQ(test, oib_find_gid(dev, &swnd_v6_lo, &port, &index), 0);
	KUNIT_EXPECT_GE(test, index, 1u);
	KUNIT_ASSERT_EQ(test, oib_query_gid(dev, 1, 0, &now, NULL), 0);
	KUNIT_EXPECT_MEMEQ(test, &now, &gid0, sizeof(now));

	/* again: the same table */
	KUNIT_EXPECT_EQ(test, oib_sw_netdev_follow_gids(dev, 1, 1, 16, &ndev), 0);
	KUNIT_EXPECT_EQ(test, oib_find_gid(dev, &swnd_v4_lo, &port, &index), 0);

	KUNIT_EXPECT_EQ(test, oib_sw_netdev_follow_gids(dev, 1, 5, 5, &ndev), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_sw_netdev_follow_gids(dev, 1, 0, 17, &ndev), -EINVAL);
}

static struct kunit_case swnd_test_cases[] = {
	KUNIT_CASE(swnd_test_addrs),
	KUNIT_CASE(swnd_test_follow),
	{}
};

static struct kunit_suite swnd_test_suite = {
	.name = "oib_core_sw_netdev",
	.init = swnd_init,
	.test_cases = swnd_test_cases,
};

kunit_test_suite(swnd_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the software providers' GIDs that follow a netdev");
