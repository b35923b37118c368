// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_uverbs: the oib verbs for user space.  Module init and exit: the device class, the range
 * of character device numbers, and the oib_core client that gives every oib device its
 * /dev/oib_uverbs<N> (device.c).  Documentation/uverbs.md tells the whole story.
 */
#include <linux/module.h>
#include "uverbs.h"
#include "uverbs_dev.h"

static int __init oib_uverbs_init(void)
{
	int ret;

	ret = oib_uverbs_devices_init();
	if (ret)
		return ret;
	ret = oib_register_client(&oib_uverbs_client);
	if (ret)
		oib_uverbs_devices_exit();
	return ret;
}

static void __exit oib_uverbs_exit(void)
{
	oib_unregister_client(&oib_uverbs_client);
	oib_uverbs_devices_exit();
}

module_init(oib_uverbs_init);
module_exit(oib_uverbs_exit);
MODULE_DESCRIPTION("oib verbs for user space");
MODULE_LICENSE("GPL");
