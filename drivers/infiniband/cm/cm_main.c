// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_cm, the InfiniBand communication manager (Documentation/cm.md).  So far the module holds
 * the wire format (cm_wire.c) and the connection state table (cm_fsm.c); it registers nothing
 * and exports nothing but to its KUnit suites until the MAD glue and the API land.
 */
#include <linux/init.h>
#include <linux/module.h>

static int __init oib_cm_init(void)
{
	return 0;
}

static void __exit oib_cm_exit(void)
{
}

module_init(oib_cm_init);
module_exit(oib_cm_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("oib InfiniBand communication manager: wire format and state table");
