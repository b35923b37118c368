// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_sdp: the Sockets Direct Protocol (IBTA vol. 1 Annex A4; Documentation/sdp.md).  What stands
 * is the protocol's core, each part tested on its own: the wire (sdp_wire.c, exported), a
 * socket's state table (sdp_state.c), the buffered-copy credits (sdp_credit.c) and what a
 * received message means for its connection (sdp_rx_check.c).  The socket
 * family that puts them to work over oib_cma is not there yet: the module registers nothing.
 */
#include <linux/module.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("oib_sdp: the Sockets Direct Protocol's wire, socket states and credits");
