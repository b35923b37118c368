// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs: /sys/class/oib/<device>/{node_guid,node_type,fw_ver,phys_port_cnt} and
 * /sys/class/oib/<device>/ports/<n>/{state,phys_state,link_layer,active_mtu,max_mtu,gids/<i>,
 * pkeys/<i>}.
 *
 * Each port directory is a plain kobject whose files are kobj_attributes that carry their port
 * and table index.  Removing the groups and the kobject waits for running show()s, after which the
 * attribute arrays (struct oib_port_sysfs) and the port may be freed.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "core_priv.h"

struct oib_port_attribute {
	struct kobj_attribute kattr;
	ssize_t (*show)(struct oib_port *port, struct oib_port_attribute *pa, char *buf);
	struct oib_port *port;
	u32 index;		/* table index, for gids/ and pkeys/ entries */
	char name[12];
};

enum { OIB_PORT_GROUP_MAIN, OIB_PORT_GROUP_GIDS, OIB_PORT_GROUP_PKEYS, OIB_PORT_GROUPS };

struct oib_port_sysfs {
	struct kobject *kobj;
	struct oib_port_attribute *attrs[OIB_PORT_GROUPS];
	struct attribute **lists[OIB_PORT_GROUPS];
	struct attribute_group groups[OIB_PORT_GROUPS];
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

static ssize_t oib_port_attr_show(struct kobject *kobj, struct kobj_attribute *ka, char *buf)
{
	struct oib_port_attribute *pa = container_of(ka, struct oib_port_attribute, kattr);

	return pa->show(pa->port, pa, buf);
}

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

typedef ssize_t (*oib_port_show_t)(struct oib_port *, struct oib_port_attribute *, char *);

static const struct {
	const char *name;
	oib_port_show_t show;
} oib_port_main_files[] = {
	{ "state", state_show },
	{ "phys_state", phys_state_show },
	{ "link_layer", link_layer_show },
	{ "active_mtu", active_mtu_show },
	{ "max_mtu", max_mtu_show },
};

/*
 * Fill group @g of @ps with @len read-only files: with @show, files 0..len-1 all shown by it (a
 * table); without, the files of oib_port_main_files.
 */
static int oib_port_group(struct oib_port_sysfs *ps, struct oib_port *port, int g,
			  const char *dir, u32 len, oib_port_show_t show)
{
	u32 i;

	ps->attrs[g] = kcalloc(len, sizeof(*ps->attrs[g]), GFP_KERNEL);
	ps->lists[g] = kcalloc(len + 1, sizeof(*ps->lists[g]), GFP_KERNEL);
	if (!ps->attrs[g] || !ps->lists[g])
		return -ENOMEM;
	for (i = 0; i < len; i++) {
		struct oib_port_attribute *pa = &ps->attrs[g][i];

		if (show) {
			snprintf(pa->name, sizeof(pa->name), "%u", i);
			pa->show = show;
		} else {
			strscpy(pa->name, oib_port_main_files[i].name, sizeof(pa->name));
			pa->show = oib_port_main_files[i].show;
		}
		sysfs_attr_init(&pa->kattr.attr);
		pa->kattr.attr.name = pa->name;
		pa->kattr.attr.mode = 0444;
		pa->kattr.show = oib_port_attr_show;
		pa->port = port;
		pa->index = i;
		ps->lists[g][i] = &pa->kattr.attr;
	}
	ps->groups[g].name = dir;
	ps->groups[g].attrs = ps->lists[g];
	return 0;
}

static void oib_port_sysfs_free(struct oib_port_sysfs *ps)
{
	int g;

	for (g = 0; g < OIB_PORT_GROUPS; g++) {
		kfree(ps->attrs[g]);
		kfree(ps->lists[g]);
	}
	kfree(ps);
}

static void oib_port_sysfs_remove(struct oib_port *port)
{
	struct oib_port_sysfs *ps = port->sysfs;
	int g;

	if (!ps)
		return;
	for (g = 0; g < OIB_PORT_GROUPS; g++)
		if (ps->groups[g].attrs)
			sysfs_remove_group(ps->kobj, &ps->groups[g]);
	kobject_put(ps->kobj);		/* the last reference: removes the directory */
	oib_port_sysfs_free(ps);
	port->sysfs = NULL;
}

static int oib_port_sysfs_add(struct oib_device *device, struct oib_port *port)
{
	struct oib_port_sysfs *ps;
	char name[12];
	int g, ret;

	ps = kzalloc(sizeof(*ps), GFP_KERNEL);
	if (!ps)
		return -ENOMEM;
	ret = oib_port_group(ps, port, OIB_PORT_GROUP_MAIN, NULL,
			     ARRAY_SIZE(oib_port_main_files), NULL);
	if (!ret)
		ret = oib_port_group(ps, port, OIB_PORT_GROUP_GIDS, "gids",
				     port->immutable.gid_tbl_len, gid_show);
	if (!ret)
		ret = oib_port_group(ps, port, OIB_PORT_GROUP_PKEYS, "pkeys",
				     port->immutable.pkey_tbl_len, pkey_show);
	if (ret) {
		oib_port_sysfs_free(ps);
		return ret;
	}

	snprintf(name, sizeof(name), "%u", port->port_num);
	ps->kobj = kobject_create_and_add(name, device->ports_kobj);
	if (!ps->kobj) {
		oib_port_sysfs_free(ps);
		return -ENOMEM;
	}
	port->sysfs = ps;
	for (g = 0; g < OIB_PORT_GROUPS; g++) {
		ret = sysfs_create_group(ps->kobj, &ps->groups[g]);
		if (ret) {
			/* only the groups created so far are removed */
			for (; g < OIB_PORT_GROUPS; g++)
				ps->groups[g].attrs = NULL;
			oib_port_sysfs_remove(port);
			return ret;
		}
	}
	return 0;
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
