// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_core module: the "oib" device class, the debugfs root, the CQ pollers' workqueues, the
 * netlink family.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include "core_priv.h"

struct class oib_class = {
	.name = "oib",
	.dev_groups = oib_device_groups,
};

struct dentry *oib_debugfs_root;

static int __init oib_core_init(void)
{
	int ret;

	ret = oib_cq_poll_init();
	if (ret)
		return ret;
	ret = class_register(&oib_class);
	if (ret) {
		oib_cq_poll_exit();
		return ret;
	}
	oib_debugfs_root = debugfs_create_dir("oib", NULL);
	ret = oib_nl_init();
	if (ret) {
		debugfs_remove_recursive(oib_debugfs_root);
		class_unregister(&oib_class);
		oib_cq_poll_exit();
	}
	return ret;
}

static void __exit oib_core_exit(void)
{
	oib_nl_exit();
	debugfs_remove_recursive(oib_debugfs_root);
	class_unregister(&oib_class);
	WARN_ON(!xa_empty(&oib_devices));
	oib_cq_poll_exit();
}

module_init(oib_core_init);
module_exit(oib_core_exit);
MODULE_DESCRIPTION("oib RDMA midlayer: core verbs");
MODULE_LICENSE("GPL");
