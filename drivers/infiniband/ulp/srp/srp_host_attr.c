// SPDX-License-Identifier: GPL-2.0-only
/*
 * A host's attributes, in its /sys/class/scsi_host/hostN/ as the in-tree ib_srp's:
 *   remove_target	write-only (anything): log out, the host removed; returns once it is gone
 *   dest		the target's address and port, as add_target's dest= ("10.9.0.2:5600")
 *   conn_state	its connection's (live, down, reconnecting, failed, ...); "state" is the
 *			midlayer's own (the host's: running, ...)
 *   id_ext, ioc_guid	the halves of the target port ID its logins name (16 hex digits)
 *   ch_count	its channels
 *   local_ib_device, local_ib_port	the port it logs in through ("" and 0: none, the suites')
 *
 * remove_target removes the host whose attribute it is: scsi_remove_host() waits for every
 * attribute's callers, this one's too, so the write steps out of that wait first
 * (sysfs_break_active_protection(), as the SCSI midlayer's own "delete" does); the reference
 * that takes on the attribute's kobject keeps the host's memory until it is done.
 */
#include <linux/module.h>
#include <linux/sysfs.h>
#include <scsi/scsi_host.h>
#include <oib/device.h>
#include "srp_priv.h"

static struct srp_host *to_srp_host(struct device *dev)
{
	return shost_priv(class_to_shost(dev));
}

static ssize_t remove_target_store(struct device *dev, struct device_attribute *attr,
				   const char *buf, size_t count)
{
	struct kernfs_node *kn;
	int ret;

	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	kn = sysfs_break_active_protection(&dev->kobj, &attr->attr);
	ret = srp_target_remove(to_srp_host(dev));
	if (kn)
		sysfs_unbreak_active_protection(kn);
	module_put(THIS_MODULE);
	return ret ?: count;
}
static DEVICE_ATTR_WO(remove_target);

static ssize_t dest_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%pISpc\n", &to_srp_host(dev)->dst);
}
static DEVICE_ATTR_RO(dest);

static ssize_t conn_state_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", srp_conn_state_name(READ_ONCE(to_srp_host(dev)->state)));
}
static DEVICE_ATTR_RO(conn_state);

static ssize_t srp_port_id_half(const u8 *half, char *buf)
{
	__be64 be;

	memcpy(&be, half, sizeof(be));
	return sysfs_emit(buf, "%016llx\n", be64_to_cpu(be));
}

static ssize_t id_ext_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return srp_port_id_half(to_srp_host(dev)->target_port_id, buf);
}
static DEVICE_ATTR_RO(id_ext);

static ssize_t ioc_guid_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return srp_port_id_half(to_srp_host(dev)->target_port_id + 8, buf);
}
static DEVICE_ATTR_RO(ioc_guid);

static ssize_t ch_count_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_srp_host(dev)->nch);
}
static DEVICE_ATTR_RO(ch_count);

static ssize_t local_ib_device_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct srp_port *p = to_srp_host(dev)->port;

	return sysfs_emit(buf, "%s\n", p ? oib_dev_name(p->ibdev) : "");
}
static DEVICE_ATTR_RO(local_ib_device);

static ssize_t local_ib_port_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct srp_port *p = to_srp_host(dev)->port;

	return sysfs_emit(buf, "%u\n", p ? p->port : 0);
}
static DEVICE_ATTR_RO(local_ib_port);

static struct attribute *srp_host_attrs[] = {
	&dev_attr_remove_target.attr,
	&dev_attr_dest.attr,
	&dev_attr_conn_state.attr,
	&dev_attr_id_ext.attr,
	&dev_attr_ioc_guid.attr,
	&dev_attr_ch_count.attr,
	&dev_attr_local_ib_device.attr,
	&dev_attr_local_ib_port.attr,
	NULL,
};

static const struct attribute_group srp_host_group = {
	.attrs = srp_host_attrs,
};

const struct attribute_group *srp_host_groups[] = {
	&srp_host_group,
	NULL,
};
