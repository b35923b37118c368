/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_siw, the software iWARP device: what tests and tools call to make and remove devices and
 * read their counters.  Users reach the same through
 * /sys/module/oib_siw/parameters/{netdev,remove} and /sys/kernel/debug/oib/<device>/siw.
 */
#ifndef OIB_SIW_H
#define OIB_SIW_H

#include <oib/device.h>

struct net_device;

/*
 * A device named @name (NULL: "oib_siw<N>") on @netdev (held by the caller during the call), in
 * the netdev's namespace: its GIDs are the netdev's addresses, its connections TCP sockets of
 * that namespace.  Removed with the netdev, or by oib_siw_remove().
 */
struct oib_device *oib_siw_add(const char *name, struct net_device *netdev);
void oib_siw_remove(struct oib_device *device);

/* What a device counts; also in debugfs. */
enum oib_siw_stat {
	OIB_SIW_TX_FPDUS,
	OIB_SIW_TX_BYTES,		/* payload */
	OIB_SIW_RX_FPDUS,
	OIB_SIW_RX_BYTES,		/* payload */
	OIB_SIW_RX_CRC_ERRORS,
	OIB_SIW_RX_MALFORMED,		/* bad length, version, opcode, queue, MSN, offset, IRD */
	OIB_SIW_RX_ACCESS_ERRORS,	/* a tagged or read request the keys refused */
	OIB_SIW_RX_NO_RECV,		/* a SEND found no receive posted */
	OIB_SIW_TX_TERMINATES,
	OIB_SIW_RX_TERMINATES,
	OIB_SIW_MPA_REQUESTS,		/* received */
	OIB_SIW_MPA_REJECTS,		/* sent or received */
	OIB_SIW_MPA_ERRORS,		/* malformed or timed-out MPA exchanges */
	OIB_SIW_CONNECTIONS,		/* up */
	OIB_SIW_RESETS,			/* connections the peer reset or closed */
	OIB_SIW_NSTATS
};

/* 0 for a device that is not an oib_siw one. */
u64 oib_siw_stat(struct oib_device *device, enum oib_siw_stat stat);

#endif /* OIB_SIW_H */
