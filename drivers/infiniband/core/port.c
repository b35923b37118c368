// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ports: immutable attributes read at registration, and the GID and P_Key tables the core keeps for
 * every port.  Providers change the tables through oib_add_gid()/oib_del_gid()/oib_set_pkey();
 * every change raises the matching port event.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <oib/names.h>
#include "core_priv.h"

#define OIB_MAX_TABLE_LEN 1024

static int oib_port_init(struct oib_device *device, struct oib_port *port, u32 num)
{
	struct oib_port_immutable *imm = &port->immutable;
	int ret;

	port->device = device;
	port->port_num = num;
	spin_lock_init(&port->lock);

	ret = device->ops->get_port_immutable(device, num, imm);
	if (ret)
		return ret;
	if (!imm->gid_tbl_len || imm->gid_tbl_len > OIB_MAX_TABLE_LEN ||
	    !imm->pkey_tbl_len || imm->pkey_tbl_len > OIB_MAX_TABLE_LEN)
		return -EINVAL;

	port->gids = kcalloc(imm->gid_tbl_len, sizeof(*port->gids), GFP_KERNEL);
	port->pkeys = kcalloc(imm->pkey_tbl_len, sizeof(*port->pkeys), GFP_KERNEL);
	if (!port->gids || !port->pkeys)
		return -ENOMEM;
	port->pkeys[0] = 0xffff;	/* the default partition, full membership */
	return 0;
}

int oib_ports_setup(struct oib_device *device)
{
	u32 i;
	int ret;

	device->ports = kcalloc(device->phys_port_cnt, sizeof(*device->ports), GFP_KERNEL);
	if (!device->ports)
		return -ENOMEM;
	for (i = 0; i < device->phys_port_cnt; i++) {
		ret = oib_port_init(device, &device->ports[i], i + 1);
		if (ret) {
			oib_ports_cleanup(device);
			return ret;
		}
	}
	return 0;
}

void oib_ports_cleanup(struct oib_device *device)
{
	u32 i;

	if (!device->ports)
		return;
	for (i = 0; i < device->phys_port_cnt; i++) {
		kfree(device->ports[i].gids);
		kfree(device->ports[i].pkeys);
	}
	kfree(device->ports);
	device->ports = NULL;
}

static bool oib_device_live(struct oib_device *device)
{
	return device && device->ports;
}

int oib_query_port(struct oib_device *device, u32 port, struct oib_port_attr *attr)
{
	struct oib_port *p;
	int ret;

	if (!oib_device_live(device) || !oib_port_valid(device, port) || !attr)
		return -EINVAL;
	p = oib_port(device, port);
	memset(attr, 0, sizeof(*attr));
	ret = device->ops->query_port(device, port, attr);
	if (ret)
		return ret;
	attr->gid_tbl_len = p->immutable.gid_tbl_len;
	attr->pkey_tbl_len = p->immutable.pkey_tbl_len;
	attr->link_layer = p->immutable.link_layer;
	return 0;
}
EXPORT_SYMBOL(oib_query_port);

const struct oib_port_immutable *oib_port_immutable(struct oib_device *device, u32 port)
{
	if (!oib_device_live(device) || !oib_port_valid(device, port))
		return NULL;
	return &oib_port(device, port)->immutable;
}
EXPORT_SYMBOL(oib_port_immutable);

enum oib_link_layer oib_port_link_layer(struct oib_device *device, u32 port)
{
	const struct oib_port_immutable *imm = oib_port_immutable(device, port);

	return imm ? imm->link_layer : OIB_LINK_LAYER_UNSPECIFIED;
}
EXPORT_SYMBOL(oib_port_link_layer);

int oib_port_reach(struct oib_device *device, u32 port, const union oib_gid *dgid, u8 *hop_limit)
{
	struct oib_port_attr attr;
	u8 hops;
	int ret;

	if (!dgid)
		return -EINVAL;
	ret = oib_query_port(device, port, &attr);
	if (ret)
		return ret;
	if (attr.state != OIB_PORT_ACTIVE)
		return -ENETDOWN;
	if (!device->ops->reach)
		return -EOPNOTSUPP;
	ret = device->ops->reach(device, port, dgid, &hops);
	if (!ret && hop_limit)
		*hop_limit = hops;
	return ret;
}
EXPORT_SYMBOL(oib_port_reach);

/* -ENOENT for an empty entry, -EINVAL for an index outside the table. */
int oib_query_gid(struct oib_device *device, u32 port, u32 index, union oib_gid *gid,
		  enum oib_gid_type *type)
{
	unsigned long flags;
	struct oib_port *p;
	int ret = 0;

	if (!oib_device_live(device) || !oib_port_valid(device, port) || !gid)
		return -EINVAL;
	p = oib_port(device, port);
	if (index >= p->immutable.gid_tbl_len)
		return -EINVAL;

	spin_lock_irqsave(&p->lock, flags);
	if (p->gids[index].valid) {
		*gid = p->gids[index].gid;
		if (type)
			*type = p->gids[index].type;
	} else {
		ret = -ENOENT;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	return ret;
}
EXPORT_SYMBOL(oib_query_gid);

static int oib_port_find_gid(struct oib_port *p, const union oib_gid *gid)
{
	u32 i;

	lockdep_assert_held(&p->lock);
	for (i = 0; i < p->immutable.gid_tbl_len; i++)
		if (p->gids[i].valid && !memcmp(&p->gids[i].gid, gid, sizeof(*gid)))
			return i;
	return -ENOENT;
}

int oib_find_gid(struct oib_device *device, const union oib_gid *gid, u32 *port, u32 *index)
{
	unsigned long flags;
	struct oib_port *p;
	u32 n;
	int i;

	if (!oib_device_live(device) || !gid)
		return -EINVAL;
	for (n = 1; n <= device->phys_port_cnt; n++) {
		p = oib_port(device, n);
		spin_lock_irqsave(&p->lock, flags);
		i = oib_port_find_gid(p, gid);
		spin_unlock_irqrestore(&p->lock, flags);
		if (i >= 0) {
			if (port)
				*port = n;
			if (index)
				*index = i;
			return 0;
		}
	}
	return -ENOENT;
}
EXPORT_SYMBOL(oib_find_gid);

int oib_add_gid(struct oib_device *device, u32 port, const union oib_gid *gid,
		enum oib_gid_type type)
{
	unsigned long flags;
	static const union oib_gid zero;
	struct oib_port *p;
	int ret = -ENOSPC;
	u32 i;

	might_sleep();
	if (!oib_device_live(device) || !oib_port_valid(device, port) || !gid ||
	    !memcmp(gid, &zero, sizeof(zero)) || type > OIB_GID_TYPE_ROCE_V2)
		return -EINVAL;
	p = oib_port(device, port);

	spin_lock_irqsave(&p->lock, flags);
	if (oib_port_find_gid(p, gid) >= 0) {
		ret = -EEXIST;
	} else {
		for (i = 0; i < p->immutable.gid_tbl_len; i++) {
			if (p->gids[i].valid)
				continue;
			p->gids[i].gid = *gid;
			p->gids[i].type = type;
			p->gids[i].valid = true;
			ret = i;
			break;
		}
	}
	spin_unlock_irqrestore(&p->lock, flags);
	if (ret < 0)
		return ret;

	if (device->ops->add_gid) {
		int err = device->ops->add_gid(device, port, gid);

		if (err) {
			spin_lock_irqsave(&p->lock, flags);
			memset(&p->gids[ret], 0, sizeof(p->gids[ret]));
			spin_unlock_irqrestore(&p->lock, flags);
			return err;
		}
	}
	oib_dispatch_port_event(device, port, OIB_EVENT_GID_CHANGE);
	return ret;
}
EXPORT_SYMBOL(oib_add_gid);

int oib_del_gid(struct oib_device *device, u32 port, const union oib_gid *gid)
{
	unsigned long flags;
	struct oib_port *p;
	int i;

	might_sleep();
	if (!oib_device_live(device) || !oib_port_valid(device, port) || !gid)
		return -EINVAL;
	p = oib_port(device, port);

	spin_lock_irqsave(&p->lock, flags);
	i = oib_port_find_gid(p, gid);
	if (i >= 0)
		memset(&p->gids[i], 0, sizeof(p->gids[i]));
	spin_unlock_irqrestore(&p->lock, flags);

	if (i < 0)
		return i;
	if (device->ops->del_gid)
		device->ops->del_gid(device, port, gid);
	oib_dispatch_port_event(device, port, OIB_EVENT_GID_CHANGE);
	return 0;
}
EXPORT_SYMBOL(oib_del_gid);

int oib_query_pkey(struct oib_device *device, u32 port, u16 index, u16 *pkey)
{
	unsigned long flags;
	struct oib_port *p;

	if (!oib_device_live(device) || !oib_port_valid(device, port) || !pkey)
		return -EINVAL;
	p = oib_port(device, port);
	if (index >= p->immutable.pkey_tbl_len)
		return -EINVAL;
	spin_lock_irqsave(&p->lock, flags);
	*pkey = p->pkeys[index];
	spin_unlock_irqrestore(&p->lock, flags);
	return 0;
}
EXPORT_SYMBOL(oib_query_pkey);

/*
 * Find @pkey (compared on its low 15 bits) and return its index, preferring a full-membership
 * entry over a limited one, as the spec asks.
 */
int oib_find_pkey(struct oib_device *device, u32 port, u16 pkey, u16 *index)
{
	unsigned long flags;
	struct oib_port *p;
	int found = -ENOENT;
	u16 i, entry;

	if (!oib_device_live(device) || !oib_port_valid(device, port) || !index)
		return -EINVAL;
	p = oib_port(device, port);
	spin_lock_irqsave(&p->lock, flags);
	for (i = 0; i < p->immutable.pkey_tbl_len; i++) {
		entry = p->pkeys[i];
		if (!(entry & 0x7fff) || (entry & 0x7fff) != (pkey & 0x7fff))
			continue;
		if (entry & 0x8000) {
			found = i;
			break;
		}
		if (found < 0)
			found = i;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	if (found < 0)
		return found;
	*index = found;
	return 0;
}
EXPORT_SYMBOL(oib_find_pkey);

int oib_set_pkey(struct oib_device *device, u32 port, u16 index, u16 pkey)
{
	unsigned long flags;
	struct oib_port *p;

	if (!oib_device_live(device) || !oib_port_valid(device, port))
		return -EINVAL;
	p = oib_port(device, port);
	if (index >= p->immutable.pkey_tbl_len)
		return -EINVAL;
	spin_lock_irqsave(&p->lock, flags);
	p->pkeys[index] = pkey;
	spin_unlock_irqrestore(&p->lock, flags);
	oib_dispatch_port_event(device, port, OIB_EVENT_PKEY_CHANGE);
	return 0;
}
EXPORT_SYMBOL(oib_set_pkey);

void oib_gid_from_mac(union oib_gid *gid, const u8 mac[6])
{
	memset(gid, 0, sizeof(*gid));
	gid->global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	addrconf_addr_eui48(&gid->raw[8], mac);
}
EXPORT_SYMBOL(oib_gid_from_mac);

static const char * const oib_port_state_names[] = {
	[OIB_PORT_NOP] = "NOP", [OIB_PORT_DOWN] = "DOWN", [OIB_PORT_INIT] = "INIT",
	[OIB_PORT_ARMED] = "ARMED", [OIB_PORT_ACTIVE] = "ACTIVE",
	[OIB_PORT_ACTIVE_DEFER] = "ACTIVE_DEFER",
};

const char *oib_port_state_name(enum oib_port_state state)
{
	return oib_enum_name(oib_port_state_names, state);
}
