// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_srp: the SRP initiator's module.  Today it carries the SRP wire (srp_wire_login.c,
 * srp_wire_io.c) that the initiator and the target (oib_srpt) share: Documentation/srp.md.
 */
#include <linux/module.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("oib SRP initiator: the SRP wire format");
