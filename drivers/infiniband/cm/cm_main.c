// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_cm, the InfiniBand communication manager (Documentation/cm.md).  So far the module holds
 * the wire format (cm_wire.c), the connection state table (cm_fsm.c) and the cm_ids with their
 * lookup tables (cm_id.c); it registers no MAD agent until the MAD glue lands.
 */
#include <linux/init.h>
#include <linux/module.h>
#include "cm_id.h"

static int __init oib_cm_init(void)
{
	return cm_id_init();
}

static void __exit oib_cm_exit(void)
{
	cm_id_exit();
}

module_init(oib_cm_init);
module_exit(oib_cm_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("oib InfiniBand communication manager: wire format, state table, cm_ids");
