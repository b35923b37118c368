/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR BSD-2-Clause */
/*
 * The "oib" generic netlink family: oib_core's control plane (Documentation/netlink.md).
 *
 * Requests name a device by OIB_NL_ATTR_DEV_NAME.  Every attribute a command does not list is
 * refused (strict validation).  DEV_GET and PORT_GET answer one object (with a name, and for
 * PORT_GET a port) or dump them all (NLM_F_DUMP; PORT_GET's dump may name a device).  LINK_NEW,
 * LINK_DEL, ADDR_NEW and ADDR_DEL change things and need CAP_NET_ADMIN.  RES_GET dumps the live
 * objects of a kind, each with its owner: RES_PID and RES_COMM for a process's (made through
 * oib_uverbs), RES_OWNER, a module's name, for the kernel's; RDMA CM ids bound to no device yet
 * (a wildcard listener) come last in a dump that names no device, without DEV_INDEX and
 * DEV_NAME.  STAT_GET dumps the counters the drivers keep: a message per device (PORT 0) and per
 * port that has any.  The multicast group OIB_NL_MCGRP_EVENTS gets a DEV_NEW or DEV_DEL with
 * the device's attributes when a device comes or goes, and a PORT_CHANGE with the port's when a
 * port goes up or down or its GIDs change.
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
	OIB_NL_CMD_RES_GET,	/* dump: RES_TYPE [DEV_NAME]: the live objects of a kind */
	OIB_NL_CMD_STAT_GET,	/* dump: [DEV_NAME]: counters, a device's (PORT 0) and its ports' */
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
	OIB_NL_ATTR_RES_TYPE,		/* u8: enum oib_nl_res_type */
	OIB_NL_ATTR_RES_ID,		/* u32: the object's id among its device's of its kind */
	OIB_NL_ATTR_RES_PID,		/* u32: the process that made it (a process's object) */
	OIB_NL_ATTR_RES_COMM,		/* string: its name */
	OIB_NL_ATTR_RES_OWNER,		/* string: the kernel module that made it */
	OIB_NL_ATTR_RES_USERS,		/* u32: the objects that use it (QPs on a CQ, ...) */
	OIB_NL_ATTR_RES_PD,		/* u32: the id of its PD */
	OIB_NL_ATTR_RES_QPN,		/* u32 */
	OIB_NL_ATTR_RES_QP_TYPE,	/* u8: SMI, GSI, RC, UC, UD, XRC_INI, XRC_TGT */
	OIB_NL_ATTR_RES_STATE,		/* u8: RESET, INIT, RTR, RTS, SQD, SQE, ERR */
	OIB_NL_ATTR_RES_CQE,		/* u32: a CQ's entries */
	OIB_NL_ATTR_RES_POLL_CTX,	/* u8: softirq, wq, unbound wq, direct */
	OIB_NL_ATTR_RES_COMP_VECTOR,	/* u32 */
	OIB_NL_ATTR_RES_LKEY,		/* u32 */
	OIB_NL_ATTR_RES_RKEY,		/* u32 */
	OIB_NL_ATTR_RES_IOVA,		/* u64 */
	OIB_NL_ATTR_RES_LENGTH,		/* u64 */
	OIB_NL_ATTR_RES_SRQN,		/* u32: an XRC SRQ's number */
	OIB_NL_ATTR_RES_SRQ_TYPE,	/* u8: 0 basic, 1 XRC */
	OIB_NL_ATTR_STATS,		/* nest of OIB_NL_ATTR_STAT */
	OIB_NL_ATTR_STAT,		/* nest: STAT_NAME, STAT_VALUE */
	OIB_NL_ATTR_STAT_NAME,		/* string */
	OIB_NL_ATTR_STAT_VALUE,		/* u64 */
	OIB_NL_ATTR_RES_CM_STATE,	/* string: an RDMA CM id's state ("LISTEN", ...) */
	OIB_NL_ATTR_RES_PS,		/* u32: its port space (0x0106 TCP, 0x0111 UDP, 1 SDP) */
	OIB_NL_ATTR_RES_SRC_ADDR,	/* binary: its source, struct sockaddr_in or _in6 */
	OIB_NL_ATTR_RES_DST_ADDR,	/* binary: its destination, the same */
	OIB_NL_ATTR_RES_LISTEN,		/* flag: it listens */
	__OIB_NL_ATTR_MAX,
};

#define OIB_NL_ATTR_MAX (__OIB_NL_ATTR_MAX - 1)

enum oib_nl_res_type {
	OIB_NL_RES_PD,
	OIB_NL_RES_CQ,
	OIB_NL_RES_QP,
	OIB_NL_RES_SRQ,
	OIB_NL_RES_MR,
	OIB_NL_RES_CM_ID,	/* oib_cma's ids; one bound to no device comes without DEV_* */
	OIB_NL_RES_MAX,
};

#define OIB_NL_NAME_MAX		64	/* a device name's bytes with its NUL */

#endif /* _UAPI_OIB_NETLINK_H */
