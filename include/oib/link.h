/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Link types: how a provider makes and removes its devices through oib_core's netlink family
 * ("oib link add NAME type TYPE [netdev DEV]", "oib link delete NAME", "oib addr add|del").
 *
 * A provider registers one struct oib_link_ops per type at module init and unregisters it at exit,
 * before it removes its devices.  The core calls the ops in process context, without its own locks
 * held, with a reference on ->owner: the module stays until the call returns.  A device belongs to
 * the type whose ->dev_ops is its device->ops.
 */
#ifndef OIB_LINK_H
#define OIB_LINK_H

#include <linux/list.h>
#include <linux/netlink.h>
#include <oib/device.h>

struct net_device;

struct oib_link_params {
	const char *name;		/* the new device's name: no '%', '/' or blanks */
	struct net_device *netdev;	/* held by the core for the call, or NULL */
	u32 num_ports;			/* 0: the type's default */
};

struct oib_link_ops {
	const char *type;			/* "rxe" */
	struct module *owner;
	const struct oib_device_ops *dev_ops;	/* what its devices' ->ops are */
	bool needs_netdev;			/* newlink refuses params without one */

	/* Make and register a device; 0 or -errno (-EEXIST: the name is taken). */
	int (*newlink)(const struct oib_link_params *params, struct netlink_ext_ack *extack);
	/* Remove the device named @name if it is one of the type's: 0, -ENODEV, -errno. */
	int (*dellink)(const char *name, struct netlink_ext_ack *extack);
	/*
	 * Optional.  Give (@add) or take a port an address, as a RoCEv2 GID; the core holds a user
	 * of @device and checked @port.  NULL: the type's ports have their netdev's addresses.
	 */
	int (*addr)(struct oib_device *device, u32 port, const union oib_gid *gid, bool add,
		    struct netlink_ext_ack *extack);
	/*
	 * Optional.  The network device a port is on: its name into @name (IFNAMSIZ bytes) and its
	 * ifindex, or -ENODEV when it has none; the core holds a user of @device.
	 */
	int (*port_netdev)(struct oib_device *device, u32 port, char *name, int *ifindex);
	/*
	 * Optional.  The counters of @port, or of the device for port 0: their names (the type's,
	 * static) into *@names and at most @max values into @values; returns how many (0: none
	 * there).  The core holds a user of @device.
	 */
	int (*stats)(struct oib_device *device, u32 port, const char *const **names, u64 *values,
		     int max);

	struct list_head list;		/* private to the core */
};

int oib_link_register(struct oib_link_ops *ops);
void oib_link_unregister(struct oib_link_ops *ops);

#endif /* OIB_LINK_H */
