// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_ucma: the RDMA CM for processes, over oib_cma, on the misc device /dev/oib_rdma_cm
 * (Documentation/ucma.md).  Module init and exit: the removal workqueue and the device.
 */
#include <linux/miscdevice.h>
#include <linux/module.h>
#include "ucma.h"

/* Closes ids whose device went (struct ucma_ctx.removal); drained at exit. */
struct workqueue_struct *ucma_wq;

static ssize_t abi_version_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", OIB_UCMA_ABI_VERSION);
}
static DEVICE_ATTR_RO(abi_version);

static struct attribute *ucma_attrs[] = {
	&dev_attr_abi_version.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ucma);

static struct miscdevice ucma_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "oib_rdma_cm",
	.fops = &ucma_fops,
	.groups = ucma_groups,
};

static int __init ucma_init(void)
{
	int ret;

	ucma_wq = alloc_workqueue("oib_ucma", WQ_UNBOUND, 0);
	if (!ucma_wq)
		return -ENOMEM;
	ret = misc_register(&ucma_misc);
	if (ret)
		destroy_workqueue(ucma_wq);
	return ret;
}

static void __exit ucma_exit(void)
{
	misc_deregister(&ucma_misc);
	destroy_workqueue(ucma_wq);
}

module_init(ucma_init);
module_exit(ucma_exit);
MODULE_DESCRIPTION("oib RDMA CM for user space");
MODULE_LICENSE("GPL");
