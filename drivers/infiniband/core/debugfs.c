// SPDX-License-Identifier: GPL-2.0-only
/*
 * debugfs: /sys/kernel/debug/oib/<device>/objects, the live verbs objects of each type, and
 * xrc_rcv_qps, the numbers of the live kernel-owned XRC receive QPs (any domain), one a line.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <oib/names.h>
#include "core_priv.h"

static const char * const oib_obj_names[OIB_OBJ_MAX] = {
	[OIB_OBJ_PD] = "pd", [OIB_OBJ_CQ] = "cq", [OIB_OBJ_QP] = "qp",
	[OIB_OBJ_SRQ] = "srq", [OIB_OBJ_MR] = "mr", [OIB_OBJ_AH] = "ah",
	[OIB_OBJ_XRCD] = "xrcd",
};

const char *oib_obj_name(enum oib_obj_type type)
{
	return oib_enum_name(oib_obj_names, type);
}

static int objects_show(struct seq_file *m, void *v)
{
	struct oib_device *device = m->private;
	int i;

	for (i = 0; i < OIB_OBJ_MAX; i++)
		seq_printf(m, "%-4s %d\n", oib_obj_names[i], atomic_read(&device->objects[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(objects);

static int xrc_rcv_qps_show(struct seq_file *m, void *v)
{
	struct oib_device *device = m->private;
	unsigned long qpn;
	void *xrcd;

	xa_for_each(&device->xrc_rcv_qps, qpn, xrcd)
		seq_printf(m, "%lu\n", qpn);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(xrc_rcv_qps);

void oib_debugfs_add_device(struct oib_device *device)
{
	device->debugfs = debugfs_create_dir(oib_dev_name(device), oib_debugfs_root);
	debugfs_create_file("objects", 0444, device->debugfs, device, &objects_fops);
	debugfs_create_file("xrc_rcv_qps", 0444, device->debugfs, device, &xrc_rcv_qps_fops);
}

void oib_debugfs_remove_device(struct oib_device *device)
{
	debugfs_remove_recursive(device->debugfs);
	device->debugfs = NULL;
}
