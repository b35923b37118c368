// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_sdp: the Sockets Direct Protocol (IBTA vol. 1 Annex A4; Documentation/sdp.md): the socket
 * families AF_INET_SDP and AF_INET6_SDP (sdp_sock.c) over oib_cma's SDP port space (sdp_cm.c),
 * buffered copy with credits (sdp_data.c, sdp_credit.c), the wire (sdp_wire.c, exported), the
 * state table (sdp_state.c) and the received messages' checks (sdp_rx_check.c).  Counters in
 * /sys/kernel/debug/oib_sdp/counters, every socket in .../sockets.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include "sdp_priv.h"

static struct dentry *sdp_debugfs;

static int sdp_counters_show(struct seq_file *m, void *unused)
{
	int i;

	for (i = 0; i < SDP_RXE_NUM; i++)
		seq_printf(m, "rx_reset_%s %d\n", sdp_rx_error_name(i),
			   atomic_read(&sdp_rx_errors[i]));
	seq_printf(m, "keepalives %d\n", atomic_read(&sdp_keepalives));
	seq_printf(m, "connections %d\n", atomic_read(&sdp_connections));
	seq_printf(m, "tx_bytes %lld\n", atomic64_read(&sdp_tx_total));
	seq_printf(m, "tx_msgs %lld\n", atomic64_read(&sdp_tx_msgs));
	seq_printf(m, "rx_bytes %lld\n", atomic64_read(&sdp_rx_total));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sdp_counters);
DEFINE_SHOW_ATTRIBUTE(sdp_sockets);

static int __init sdp_init(void)
{
	int ret = sdp_proto_init();

	if (ret)
		return ret;
	sdp_debugfs = debugfs_create_dir("oib_sdp", NULL);
	debugfs_create_file("counters", 0444, sdp_debugfs, NULL, &sdp_counters_fops);
	debugfs_create_file("sockets", 0444, sdp_debugfs, NULL, &sdp_sockets_fops);
	return 0;
}

static void __exit sdp_exit(void)
{
	debugfs_remove_recursive(sdp_debugfs);
	sdp_proto_exit();
}

module_init(sdp_init);
module_exit(sdp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("oib_sdp: the Sockets Direct Protocol over oib_cma");
MODULE_ALIAS_NETPROTO(OIB_AF_INET_SDP);
MODULE_ALIAS_NETPROTO(OIB_AF_INET6_SDP);
