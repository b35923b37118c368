// SPDX-License-Identifier: GPL-2.0-only
/*
 * Target port IDs as SRP targets make them: the ID extension and the I/O controller GUID, eight
 * bytes each, both the node GUID of the device a login arrives on (as the in-tree ib_srpt makes
 * them).  A login may name that ID, or the target's own (the module's "oib_srpt"), which oib_srp
 * sends when it is given none.  /sys/kernel/debug/oib_srpt/port_ids lists each device's ID in
 * the in-tree initiator's grammar: "DEVICE id_ext=GUID,ioc_guid=GUID".  The list of devices
 * comes from an oib client; srpt_ids_mutex protects it.
 */
#include <linux/debugfs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <oib/device.h>
#include "srpt_priv.h"

struct srpt_dev {
	struct list_head entry;		/* in srpt_devs */
	struct oib_device *device;	/* valid until the client's remove() */
};

static DEFINE_MUTEX(srpt_ids_mutex);	/* srpt_devs */
static LIST_HEAD(srpt_devs);

/* The target port ID of @device: id_ext, then ioc_guid, both its node GUID (big-endian). */
void srpt_device_port_id(const struct oib_device *device, u8 *id)
{
	memcpy(id, &device->node_guid, 8);
	memcpy(id + 8, &device->node_guid, 8);
}

/* Whether a login that came on @device names @t: the device's ID or the target's own. */
bool srpt_port_id_ok(const struct srpt_target *t, const struct oib_device *device,
		     const u8 *id)
{
	u8 dev_id[16];

	if (!memcmp(id, t->port_id, sizeof(t->port_id)))
		return true;
	if (!device)
		return false;
	srpt_device_port_id(device, dev_id);
	return !memcmp(id, dev_id, sizeof(dev_id));
}

static int srpt_ids_add(struct oib_device *device)
{
	struct srpt_dev *d = kzalloc(sizeof(*d), GFP_KERNEL);
	int ret;

	if (!d)
		return -ENOMEM;
	d->device = device;
	ret = oib_set_client_data(device, &srpt_ids_client, d);
	if (ret) {
		kfree(d);
		return ret;
	}
	mutex_lock(&srpt_ids_mutex);
	list_add_tail(&d->entry, &srpt_devs);
	mutex_unlock(&srpt_ids_mutex);
	return 0;
}

static void srpt_ids_remove(struct oib_device *device, void *data)
{
	struct srpt_dev *d = data;

	if (!d)
		return;
	mutex_lock(&srpt_ids_mutex);
	list_del(&d->entry);
	mutex_unlock(&srpt_ids_mutex);
	kfree(d);
}

struct oib_client srpt_ids_client = {
	.name = "oib_srpt",
	.add = srpt_ids_add,
	.remove = srpt_ids_remove,
};

static int srpt_ids_show(struct seq_file *m, void *unused)
{
	struct srpt_dev *d;

	mutex_lock(&srpt_ids_mutex);
	list_for_each_entry(d, &srpt_devs, entry)
		seq_printf(m, "%s id_ext=%016llx,ioc_guid=%016llx\n", oib_dev_name(d->device),
			   be64_to_cpu(d->device->node_guid), be64_to_cpu(d->device->node_guid));
	mutex_unlock(&srpt_ids_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(srpt_ids);

void srpt_ids_debugfs(struct dentry *dir)
{
	debugfs_create_file("port_ids", 0444, dir, NULL, &srpt_ids_fops);
}
