/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR BSD-2-Clause */
/*
 * The "oib" generic netlink family: oib_core's control plane (Documentation/netlink.md).
 *
 * Requests name a device by OIB_NL_ATTR_DEV_NAME.  Every attribute a command does not list is
 * refused (strict validation).  DEV_GET and PORT_GET answer one object (with a name, and for
 * PORT_GET a port) or dump them all (NLM_F_DUMP; PORT_GET's dump may name a device).  LINK_NEW,
 * LINK_DEL, ADDR_NEW and ADDR_DEL change things and need CAP_NET_ADMIN.  The multicast group
 * OIB_NL_MCGRP_EVENTS gets a DEV_NEW or DEV_DEL with the device's attributes when a device comes
 * or goes, and a PORT_CHANGE with the port's when a port goes up or down or its GIDs change.
 */
#ifndef _UAPI_OIB_NETLINK_H
#define _UAPI_OIB_NETLINK_H

#define OIB_NL_FAMILY_NAME	"oib"
#define OIB_NL_FAMILY_VERSION	1
#define OIB_NL_MCGRP_EVENTS	"events"

enum oib_nl_cmd {
	OIB_NL_CMD_UNSPEC,
	OIB_NL_CMD_DEV_GET,	/* [DEV_NAME]: a device, or dump all */
	OIB_NL_CMD_PORT_GET,	/* [DEV_NAME [PORT]]: a port, or dump (a device's) ports */
	OIB_NL_CMD_LINK_NEW,	/* DEV_NAME LINK_TYPE [NETDEV] [PORT_COUNT] */
	OIB_NL_CMD_LINK_DEL,	/* DEV_NAME */
	OIB_NL_CMD_ADDR_NEW,	/* DEV_NAME PORT ADDR */
	OIB_NL_CMD_ADDR_DEL,	/* DEV_NAME PORT ADDR */
	OIB_NL_CMD_DEV_NEW,	/* notification: a device registered */
	OIB_NL_CMD_DEV_DEL,	/* notification: a device unregistering */
	OIB_NL_CMD_PORT_CHANGE,	/* notification: a port went up or down, or its GIDs */
	__OIB_NL_CMD_MAX,
};

#define OIB_NL_CMD_MAX (__OIB_NL_CMD_MAX - 1)

enum oib_nl_attr {
	OIB_NL_ATTR_UNSPEC,
	OIB_NL_ATTR_PAD,
	OIB_NL_ATTR_DEV_INDEX,		/* u32 */
	OIB_NL_ATTR_DEV_NAME,		/* string, at most 63 bytes */
	OIB_NL_ATTR_LINK_TYPE,		/* string: "rxe", "siw" (the provider's link type) */
	OIB_NL_ATTR_NETDEV,		/* string: a netdev's name in the caller's namespace */
	OIB_NL_ATTR_NETDEV_INDEX,	/* u32: its ifindex (answers only) */
	OIB_NL_ATTR_NODE_TYPE,		/* u8: 1 CA, 2 switch, 3 router, 4 RNIC */
	OIB_NL_ATTR_NODE_GUID,		/* u64, in network byte order as the GUID is */
	OIB_NL_ATTR_SYS_IMAGE_GUID,	/* u64, network byte order */
	OIB_NL_ATTR_FW_VER,		/* u64 */
	OIB_NL_ATTR_PORT_COUNT,		/* u32: ports (LINK_NEW: how many; 0 or absent: one) */
	OIB_NL_ATTR_PORT,		/* u32: a port number, from 1 */
	OIB_NL_ATTR_PORT_STATE,		/* u8: enum oib_port_state (4 is ACTIVE) */
	OIB_NL_ATTR_PORT_PHYS_STATE,	/* u8 */
	OIB_NL_ATTR_LINK_LAYER,		/* u8: 1 InfiniBand, 2 Ethernet */
	OIB_NL_ATTR_MAX_MTU,		/* u32: bytes */
	OIB_NL_ATTR_ACTIVE_MTU,		/* u32: bytes */
	OIB_NL_ATTR_GID_TABLE,		/* nest of OIB_NL_ATTR_GID_ENTRY */
	OIB_NL_ATTR_GID_ENTRY,		/* nest: GID_INDEX, GID, GID_TYPE */
	OIB_NL_ATTR_GID_INDEX,		/* u32 */
	OIB_NL_ATTR_GID,		/* binary, 16 bytes */
	OIB_NL_ATTR_GID_TYPE,		/* u8: 0 IB, 1 RoCE v2 */
	OIB_NL_ATTR_ADDR,		/* 16 bytes: an IPv6 address (IPv4 as ::ffff:a.b.c.d) */
	__OIB_NL_ATTR_MAX,
};

#define OIB_NL_ATTR_MAX (__OIB_NL_ATTR_MAX - 1)

#define OIB_NL_NAME_MAX		64	/* a device name's bytes with its NUL */

#endif /* _UAPI_OIB_NETLINK_H */
