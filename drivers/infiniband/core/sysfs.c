// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs: /sys/class/oib/<device>/{node_guid,node_type,fw_ver,phys_port_cnt} and
 * /sys/class/oib/<device>/ports/<n>/{state,phys_state,link_layer,active_mtu,max_mtu,gids/<i>,
 * pkeys/<i>}.
 *
 * Each port directory is a kobject of its own (struct oib_port_sysfs), freed by its release, so a
 * reader holding it open never touches freed memory; kobject_del() waits for running show()s, after
 * which the port it points at may go.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <oib/compat.h>
#include "core_priv.h"

struct oib_port_attribute {
	struct attribute attr;
	ssize_t (*show)(struct oib_port *port, struct oib_port_attribute *pa, char *buf);
	u32 index;		/* table index, for gids/ and pkeys/ entries */
	char name[12];
};

struct oib_port_sysfs {
	struct kobject kobj;
	struct oib_port *port;
	struct oib_port_attribute *gid_attrs, *pkey_attrs;
	struct attribute **gid_list, **pkey_list;
	struct attribute_group gid_group, pkey_group;
};

/* ---- Device attributes ---- */

static struct oib_device *to_oib_device(struct device *dev)
{
	return container_of(dev, struct oib_device, dev);
}

static ssize_t node_guid_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	u64 guid = be64_to_cpu(to_oib_device(dev)->node_guid);

	return sysfs_emit(buf, "%04x:%04x:%04x:%04x\n", (u16)(guid >> 48), (u16)(guid >> 32),
			  (u16)(guid >> 16), (u16)guid);
}
static DEVICE_ATTR_RO(node_guid);

static ssize_t node_type_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	static const char * const names[] = {
		[OIB_NODE_CA] = "CA", [OIB_NODE_SWITCH] = "switch",
		[OIB_NODE_ROUTER] = "router", [OIB_NODE_RNIC] = "RNIC",
	};
	enum oib_node_type t = to_oib_device(dev)->node_type;

	return sysfs_emit(buf, "%d: %s\n", t,
			  t < ARRAY_SIZE(names) && names[t] ? names[t] : "unknown");
}
static DEVICE_ATTR_RO(node_type);

static ssize_t fw_ver_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	u64 fw = to_oib_device(dev)->attrs.fw_ver;

	return sysfs_emit(buf, "%u.%u.%u\n", (u32)(fw >> 32), (u32)(fw >> 16) & 0xffff,
			  (u32)fw & 0xffff);
}
static DEVICE_ATTR_RO(fw_ver);

static ssize_t phys_port_cnt_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_oib_device(dev)->phys_port_cnt);
}
static DEVICE_ATTR_RO(phys_port_cnt);

static struct attribute *oib_device_attrs[] = {
	&dev_attr_node_guid.attr,
	&dev_attr_node_type.attr,
	&dev_attr_fw_ver.attr,
	&dev_attr_phys_port_cnt.attr,
	NULL,
};

static const struct attribute_group oib_device_group = {
	.attrs = oib_device_attrs,
};

const struct attribute_group *oib_device_groups[] = {
	&oib_device_group,
	NULL,
};

/* ---- Port attributes ---- */

static ssize_t oib_port_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct oib_port_sysfs *ps = container_of(kobj, struct oib_port_sysfs, kobj);
	struct oib_port_attribute *pa = container_of(attr, struct oib_port_attribute, attr);

	return pa->show(ps->port, pa, buf);
}

static const struct sysfs_ops oib_port_sysfs_ops = {
	.show = oib_port_attr_show,
};

static int oib_port_query(struct oib_port *port, struct oib_port_attr *attr)
{
	return oib_query_port(port->device, port->port_num, attr);
}

static ssize_t state_show(struct oib_port *port, struct oib_port_attribute *pa, char *buf)
{
	struct oib_port_attr attr;
	int ret = oib_port_query(port, &attr);

	return ret ?: sysfs_emit(buf, "%d: %s\n", attr.state, oib_port_state_name(attr.state));
}

static ssize_t phys_state_show(struct oib_port *port, struct oib_port_attribute *pa, char *buf)
{
	static const char * const names[] = {
		[OIB_PORT_PHYS_SLEEP] = "Sleep", [OIB_PORT_PHYS_POLLING] = "Polling",
		[OIB_PORT_PHYS_DISABLED] = "Disabled", [OIB_PORT_PHYS_TRAINING] = "Training",
		[OIB_PORT_PHYS_LINK_UP] = "LinkUp",
		[OIB_PORT_PHYS_LINK_ERROR_RECOVERY] = "LinkErrorRecovery",
	};
	struct oib_port_attr attr;
	int ret = oib_port_query(port, &attr);

	if (ret)
		return ret;
	return sysfs_emit(buf, "%d: %s\n", attr.phys_state,
			  attr.phys_state < ARRAY_SIZE(names) && names[attr.phys_state] ?
			  names[attr.phys_state] : "unknown");
}

static ssize_t link_layer_show(struct oib_port *port, struct oib_port_attribute *pa, char *buf)
{
	switch (port->immutable.link_layer) {
	case OIB_LINK_LAYER_INFINIBAND:
		return sysfs_emit(buf, "InfiniBand\n");
	case OIB_LINK_LAYER_ETHERNET:
		return sysfs_emit(buf, "Ethernet\n");
	default:
		return sysfs_emit(buf, "Unknown\n");
	}
}

static ssize_t active_mtu_show(struct oib_port *port, struct oib_port_attribute *pa, char *buf)
{
	struct oib_port_attr attr;
	int ret = oib_port_query(port, &attr);

	return ret ?: sysfs_emit(buf, "%d\n", oib_mtu_to_int(attr.active_mtu));
}

static ssize_t max_mtu_show(struct oib_port *port, struct oib_port_attribute *pa, char *buf)
{
	struct oib_port_attr attr;
	int ret = oib_port_query(port, &attr);

	return ret ?: sysfs_emit(buf, "%d\n", oib_mtu_to_int(attr.max_mtu));
}

#define OIB_PORT_ATTR_RO(_name) \
	static struct oib_port_attribute port_attr_##_name = { \
		.attr = { .name = __stringify(_name), .mode = 0444 }, \
		.show = _name##_show, \
	}

OIB_PORT_ATTR_RO(state);
OIB_PORT_ATTR_RO(phys_state);
OIB_PORT_ATTR_RO(link_layer);
OIB_PORT_ATTR_RO(active_mtu);
OIB_PORT_ATTR_RO(max_mtu);

static struct attribute *oib_port_default_attrs[] = {
	&port_attr_state.attr,
	&port_attr_phys_state.attr,
	&port_attr_link_layer.attr,
	&port_attr_active_mtu.attr,
	&port_attr_max_mtu.attr,
	NULL,
};
ATTRIBUTE_GROUPS(oib_port_default);

static ssize_t gid_show(struct oib_port *port, struct oib_port_attribute *pa, char *buf)
{
	union oib_gid gid = {};
	int ret = oib_query_gid(port->device, port->port_num, pa->index, &gid, NULL);

	if (ret && ret != -ENOENT)
		return ret;
	return sysfs_emit(buf, "%pI6\n", gid.raw);
}

static ssize_t pkey_show(struct oib_port *port, struct oib_port_attribute *pa, char *buf)
{
	u16 pkey;
	int ret = oib_query_pkey(port->device, port->port_num, pa->index, &pkey);

	return ret ?: sysfs_emit(buf, "0x%04x\n", pkey);
}

static void oib_port_sysfs_release(struct kobject *kobj)
{
	struct oib_port_sysfs *ps = container_of(kobj, struct oib_port_sysfs, kobj);

	kfree(ps->gid_attrs);
	kfree(ps->pkey_attrs);
	kfree(ps->gid_list);
	kfree(ps->pkey_list);
	kfree(ps);
}

static OIB_KOBJ_TYPE_CONST struct kobj_type oib_port_ktype = {
	.release = oib_port_sysfs_release,
	.sysfs_ops = &oib_port_sysfs_ops,
	.default_groups = oib_port_default_groups,
};

/* Build the group "@name/" with one read-only file per table index. */
static int oib_table_group(struct attribute_group *group, struct oib_port_attribute **attrs,
			   struct attribute ***list, const char *name, u32 len,
			   ssize_t (*show)(struct oib_port *, struct oib_port_attribute *, char *))
{
	u32 i;

	*attrs = kcalloc(len, sizeof(**attrs), GFP_KERNEL);
	*list = kcalloc(len + 1, sizeof(**list), GFP_KERNEL);
	if (!*attrs || !*list)
		return -ENOMEM;
	for (i = 0; i < len; i++) {
		struct oib_port_attribute *pa = &(*attrs)[i];

		snprintf(pa->name, sizeof(pa->name), "%u", i);
		sysfs_attr_init(&pa->attr);
		pa->attr.name = pa->name;
		pa->attr.mode = 0444;
		pa->show = show;
		pa->index = i;
		(*list)[i] = &pa->attr;
	}
	group->name = name;
	group->attrs = *list;
	return 0;
}

static int oib_port_sysfs_add(struct oib_device *device, struct oib_port *port)
{
	struct oib_port_sysfs *ps;
	int ret;

	ps = kzalloc(sizeof(*ps), GFP_KERNEL);
	if (!ps)
		return -ENOMEM;
	ps->port = port;
	kobject_init(&ps->kobj, &oib_port_ktype);

	ret = oib_table_group(&ps->gid_group, &ps->gid_attrs, &ps->gid_list, "gids",
			      port->immutable.gid_tbl_len, gid_show);
	if (!ret)
		ret = oib_table_group(&ps->pkey_group, &ps->pkey_attrs, &ps->pkey_list, "pkeys",
				      port->immutable.pkey_tbl_len, pkey_show);
	if (!ret)
		ret = kobject_add(&ps->kobj, device->ports_kobj, "%u", port->port_num);
	if (!ret)
		ret = sysfs_create_group(&ps->kobj, &ps->gid_group);
	if (!ret)
		ret = sysfs_create_group(&ps->kobj, &ps->pkey_group);
	if (ret) {
		kobject_put(&ps->kobj);	/* removes whatever was added, then frees */
		return ret;
	}
	port->sysfs = ps;
	return 0;
}

static void oib_port_sysfs_remove(struct oib_port *port)
{
	struct oib_port_sysfs *ps = port->sysfs;

	if (!ps)
		return;
	sysfs_remove_group(&ps->kobj, &ps->pkey_group);
	sysfs_remove_group(&ps->kobj, &ps->gid_group);
	kobject_del(&ps->kobj);
	kobject_put(&ps->kobj);
	port->sysfs = NULL;
}

int oib_sysfs_add_device(struct oib_device *device)
{
	u32 i;
	int ret;

	device->ports_kobj = kobject_create_and_add("ports", &device->dev.kobj);
	if (!device->ports_kobj)
		return -ENOMEM;
	for (i = 0; i < device->phys_port_cnt; i++) {
		ret = oib_port_sysfs_add(device, &device->ports[i]);
		if (ret) {
			oib_sysfs_remove_device(device);
			return ret;
		}
	}
	return 0;
}

void oib_sysfs_remove_device(struct oib_device *device)
{
	u32 i;

	if (!device->ports_kobj)
		return;
	for (i = 0; i < device->phys_port_cnt; i++)
		oib_port_sysfs_remove(&device->ports[i]);
	kobject_put(device->ports_kobj);
	device->ports_kobj = NULL;
}
