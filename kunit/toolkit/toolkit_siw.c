// SPDX-License-Identifier: GPL-2.0-only
/* The toolkit's oib_siw part: see oib_toolkit_siw.h. */
#include <linux/netdevice.h>
#include <net/net_namespace.h>
#include <oib/siw.h>
#include "oib_toolkit_siw.h"

static void oib_test_siw_remove(void *dev)
{
	oib_siw_remove(dev);
}

struct oib_device *oib_test_siw(struct kunit *test, u8 host, bool managed)
{
	struct net_device *ndev;
	struct oib_device *dev;
	char name[IFNAMSIZ];

	snprintf(name, sizeof(name), "oibsiw%u", host - 1);
	ndev = host >= 1 && host <= 3 ? dev_get_by_name(&init_net, name) : NULL;
	if (!ndev)
		kunit_skip(test, "no %s: the guest makes the test netdevs", name);
	dev = oib_siw_add(NULL, ndev);
	dev_put(ndev);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	if (managed)
		KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_siw_remove, dev));
	return dev;
}

static struct oib_device *cmat_siw_add(struct kunit *test, struct cmat_ctx *ctx, u8 host,
				       bool managed)
{
	return oib_test_siw(test, host, managed);
}

static int cmat_siw_remove(struct oib_device *dev)
{
	oib_siw_remove(dev);
	return 0;
}

const struct cmat_kind cmat_siw = {
	.name = "siw",
	.iwarp = true,
	.add = cmat_siw_add,
	.remove = cmat_siw_remove,
};

const struct cmat_kind *const cmat_kinds[2] = { &cmat_rxe, &cmat_siw };
