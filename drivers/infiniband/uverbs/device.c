// SPDX-License-Identifier: GPL-2.0-only
/*
 * The character devices: one /dev/oib_uverbs<N> per oib device, made in the client's add() and
 * unmade in its remove().  The char device's struct device is in the class "oib_uverbs"
 * (/sys/class/oib_uverbs/oib_uverbs<N>/{ibdev,abi_version,comp_vector_cpus,xrcd_files}), its
 * parent is the oib device, and /sys/class/oib/<dev>/uverbs links to it.
 *
 * remove() marks the device removed (no new opens), then tears down every open file's objects
 * (file.c); the files themselves stay open, and every later ioctl on them fails with -EIO.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include "uverbs.h"
#include "uverbs_dev.h"

#define OIB_UVERBS_MAX_DEVICES	64

static dev_t oib_uverbs_base;
static DEFINE_IDA(oib_uverbs_minors);

static struct oib_uverbs_device *to_udev(struct device *dev)
{
	return container_of(dev, struct oib_uverbs_device, dev);
}

static ssize_t ibdev_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", oib_dev_name(to_udev(dev)->ibdev));
}
static DEVICE_ATTR_RO(ibdev);

static ssize_t abi_version_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", OIB_UVERBS_ABI_VERSION);
}
static DEVICE_ATTR_RO(abi_version);

/*
 * The CPU each completion vector's events are raised on, one "vector cpu" line each: the core's
 * rule (Documentation/core.md), cpumask_local_spread(vector, NUMA_NO_NODE).
 */
static ssize_t comp_vector_cpus_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	u32 n = to_udev(dev)->ibdev->attrs.num_comp_vectors, v;
	int len = 0;

	for (v = 0; v < n && len < PAGE_SIZE - 32; v++)
		len += sysfs_emit_at(buf, len, "%u %u\n", v, cpumask_local_spread(v, NUMA_NO_NODE));
	return len;
}
static DEVICE_ATTR_RO(comp_vector_cpus);

/* The files XRC domains are open through (xrcd.c's table): 0 when no process holds one. */
static ssize_t xrcd_files_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", oib_uverbs_xrcd_files(to_udev(dev)));
}
static DEVICE_ATTR_RO(xrcd_files);

static struct attribute *oib_uverbs_attrs[] = {
	&dev_attr_ibdev.attr,
	&dev_attr_abi_version.attr,
	&dev_attr_comp_vector_cpus.attr,
	&dev_attr_xrcd_files.attr,
	NULL,
};
ATTRIBUTE_GROUPS(oib_uverbs);

/*
 * The node is root's, 0600 (devtmpfs's mode for a node whose class names none): opening it to users
 * is the administrator's (a udev rule's MODE or GROUP), as Documentation/uverbs.md says, not
 * something the kernel decides for every system.
 */
static struct class oib_uverbs_class = {
	.name = "oib_uverbs",
	.dev_groups = oib_uverbs_groups,
};

static void oib_uverbs_dev_release(struct device *dev)
{
	struct oib_uverbs_device *udev = to_udev(dev);

	ida_free(&oib_uverbs_minors, MINOR(dev->devt) - MINOR(oib_uverbs_base));
	kfree(udev);
}

static int oib_uverbs_add_one(struct oib_device *ibdev)
{
	struct oib_uverbs_device *udev;
	int minor, ret;

	minor = ida_alloc_max(&oib_uverbs_minors, OIB_UVERBS_MAX_DEVICES - 1, GFP_KERNEL);
	if (minor < 0)
		return minor;
	udev = kzalloc(sizeof(*udev), GFP_KERNEL);
	if (!udev) {
		ida_free(&oib_uverbs_minors, minor);
		return -ENOMEM;
	}
	udev->ibdev = ibdev;
	mutex_init(&udev->lock);
	INIT_LIST_HEAD(&udev->files);
	mutex_init(&udev->xrcd_lock);
	INIT_LIST_HEAD(&udev->xrcd_inodes);
	device_initialize(&udev->dev);
	udev->dev.class = &oib_uverbs_class;
	udev->dev.parent = &ibdev->dev;
	udev->dev.devt = MKDEV(MAJOR(oib_uverbs_base), MINOR(oib_uverbs_base) + minor);
	udev->dev.release = oib_uverbs_dev_release;	/* frees the minor from here on */
	ret = dev_set_name(&udev->dev, "oib_uverbs%d", minor);
	if (ret)
		goto err;
	cdev_init(&udev->cdev, &oib_uverbs_fops);
	udev->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&udev->cdev, &udev->dev);
	if (ret)
		goto err;
	ret = sysfs_create_link(&ibdev->dev.kobj, &udev->dev.kobj, "uverbs");
	if (!ret)
		ret = oib_set_client_data(ibdev, &oib_uverbs_client, udev);
	if (ret) {
		sysfs_remove_link(&ibdev->dev.kobj, "uverbs");
		cdev_device_del(&udev->cdev, &udev->dev);
		goto err;
	}
	return 0;
err:
	put_device(&udev->dev);
	return ret;
}

static void oib_uverbs_remove_one(struct oib_device *ibdev, void *data)
{
	struct oib_uverbs_device *udev = data;
	struct oib_uverbs_file *ufile, *tmp;

	sysfs_remove_link(&ibdev->dev.kobj, "uverbs");
	cdev_device_del(&udev->cdev, &udev->dev);
	mutex_lock(&udev->lock);
	udev->removed = true;
	list_for_each_entry_safe(ufile, tmp, &udev->files, list) {
		list_del_init(&ufile->list);
		oib_uverbs_file_teardown(ufile);
	}
	mutex_unlock(&udev->lock);
	put_device(&udev->dev);
}

struct oib_client oib_uverbs_client = {
	.name = "oib_uverbs",
	.add = oib_uverbs_add_one,
	.remove = oib_uverbs_remove_one,
};

int oib_uverbs_devices_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&oib_uverbs_base, 0, OIB_UVERBS_MAX_DEVICES, "oib_uverbs");
	if (ret)
		return ret;
	ret = class_register(&oib_uverbs_class);
	if (ret)
		unregister_chrdev_region(oib_uverbs_base, OIB_UVERBS_MAX_DEVICES);
	return ret;
}

void oib_uverbs_devices_exit(void)
{
	class_unregister(&oib_uverbs_class);
	unregister_chrdev_region(oib_uverbs_base, OIB_UVERBS_MAX_DEVICES);
	ida_destroy(&oib_uverbs_minors);
}
