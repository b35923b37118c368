// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_cm, the InfiniBand communication manager (Documentation/cm.md): the module's start and
 * end, and its debugfs directory /sys/kernel/debug/oib_cm/ ("ids": every cm_id; "states": how
 * many are in each state; <device>/port<N>: the port's counters).
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include "cm_id.h"
#include "cm_port.h"

static struct dentry *cm_debugfs;

static int cm_ids_show(struct seq_file *m, void *unused)
{
	cm_id_show_all(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cm_ids);

static int cm_states_show(struct seq_file *m, void *unused)
{
	cm_state_counts_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cm_states);

static int __init oib_cm_init(void)
{
	int ret = cm_id_init();

	if (ret)
		return ret;
	cm_debugfs = debugfs_create_dir("oib_cm", NULL);
	debugfs_create_file("ids", 0444, cm_debugfs, NULL, &cm_ids_fops);
	debugfs_create_file("states", 0444, cm_debugfs, NULL, &cm_states_fops);
	ret = cm_port_init(cm_debugfs);
	if (ret) {
		debugfs_remove_recursive(cm_debugfs);
		cm_id_exit();
	}
	return ret;
}

static void __exit oib_cm_exit(void)
{
	cm_port_exit();
	debugfs_remove_recursive(cm_debugfs);
	cm_id_exit();
}

module_init(oib_cm_init);
module_exit(oib_cm_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("oib InfiniBand communication manager");
