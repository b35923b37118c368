// SPDX-License-Identifier: GPL-2.0-only
/*
 * Port counters: /sys/kernel/debug/oib/<device>/port<N>, oib stat (the link type's stats op) and
 * oib_rxe_port_stat() for tests.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include "orxe.h"

static const char * const orxe_port_stat_names[OIB_RXE_PORT_NSTATS] = {
	[OIB_RXE_RX_FRAMES] = "rx_frames",
	[OIB_RXE_RX_DROP_PORT_DOWN] = "rx_drop_port_down",
	[OIB_RXE_RX_DROP_MALFORMED] = "rx_drop_malformed",
	[OIB_RXE_RX_DROP_DGID] = "rx_drop_dgid",
	[OIB_RXE_RX_DROP_NO_QP] = "rx_drop_no_qp",
	[OIB_RXE_RX_DROP_QP_STATE] = "rx_drop_qp_state",
	[OIB_RXE_RX_DROP_PKEY] = "rx_drop_pkey",
	[OIB_RXE_RX_DROP_QKEY] = "rx_drop_qkey",
	[OIB_RXE_RX_DROP_NO_RECV] = "rx_drop_no_recv",
	[OIB_RXE_RX_DROP_SEQ] = "rx_drop_seq",
	[OIB_RXE_RX_DROP_RESP] = "rx_drop_resp",
	[OIB_RXE_RX_DROP_ACCESS] = "rx_drop_access",
	[OIB_RXE_RX_DUPLICATES] = "rx_duplicates",
	[OIB_RXE_RX_BYTES] = "rx_bytes",
	[OIB_RXE_RX_RNR_NAKS] = "rx_rnr_naks",
	[OIB_RXE_RX_NAKS] = "rx_naks",
	[OIB_RXE_TX_FRAMES] = "tx_frames",
	[OIB_RXE_TX_BYTES] = "tx_bytes",
	[OIB_RXE_TX_NO_ROUTE] = "tx_no_route",
	[OIB_RXE_TX_RETRANSMITS] = "tx_retransmits",
	[OIB_RXE_TX_TIMEOUTS] = "tx_timeouts",
	[OIB_RXE_TX_ACKS] = "tx_acks",
	[OIB_RXE_TX_RNR_NAKS] = "tx_rnr_naks",
	[OIB_RXE_TX_NAKS] = "tx_naks",
	[OIB_RXE_RX_DROP_XRC] = "rx_drop_xrc",
	[OIB_RXE_RX_WRITE_RUNS] = "rx_write_runs",
};

static int port_stats_show(struct seq_file *m, void *v)
{
	struct orxe_port *port = m->private;
	int i;

	for (i = 0; i < OIB_RXE_PORT_NSTATS; i++)
		seq_printf(m, "%-22s %llu\n", orxe_port_stat_names[i],
			   (u64)atomic64_read(&port->stats[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(port_stats);

/* Files in the core's directory for the device, which goes with the device's unregistration. */
void orxe_debugfs_add(struct orxe_dev *rdev)
{
	char name[16];
	u32 i;

	for (i = 0; i < rdev->ib.phys_port_cnt; i++) {
		snprintf(name, sizeof(name), "port%u", i + 1);
		debugfs_create_file(name, 0444, rdev->ib.debugfs, &rdev->ports[i],
				    &port_stats_fops);
	}
	if (rdev->on_netdev)
		orxe_link_debugfs_add(rdev);
}

/* The link type's stats op: a port's counters (the device has none of its own). */
int orxe_link_stats(struct oib_device *ibdev, u32 port, const char *const **names, u64 *values,
		    int max)
{
	struct orxe_port *p;
	int i;

	if (!oib_port_valid(ibdev, port))
		return 0;
	p = &to_rdev(ibdev)->ports[port - 1];
	*names = orxe_port_stat_names;
	for (i = 0; i < OIB_RXE_PORT_NSTATS && i < max; i++)
		values[i] = atomic64_read(&p->stats[i]);
	return i;
}

u64 oib_rxe_port_stat(struct oib_device *device, u32 port, enum oib_rxe_port_stat stat)
{
	if (!device || device->ops != &orxe_dev_ops || !oib_port_valid(device, port) ||
	    stat >= OIB_RXE_PORT_NSTATS)
		return 0;
	return atomic64_read(&to_rdev(device)->ports[port - 1].stats[stat]);
}
EXPORT_SYMBOL(oib_rxe_port_stat);
