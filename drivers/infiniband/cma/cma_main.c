// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_cma: the module, and the devices it serves (an oib_client).  A device going away tells
 * each of its ids DEVICE_REMOVAL and waits until their owners have destroyed them all (from the
 * handler by returning non-zero, or later from anywhere); a GID leaving a port tells the ids
 * bound to that address ADDR_CHANGE.  /sys/kernel/debug/oib_cma/ids lists every id.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "cma_priv.h"

/* The devices, each device's ids, the port spaces (cma_priv.h says the order). */
DEFINE_MUTEX(cma_lock);
LIST_HEAD(cma_devices);
struct workqueue_struct *cma_wq;
static struct dentry *cma_debugfs;	/* /sys/kernel/debug/oib_cma/ */

DEFINE_SHOW_ATTRIBUTE(cma_ids);

struct cma_dev_events {
	struct oib_event_handler handler;
	struct cma_dev *cdev;
};

/*
 * The next id of @cdev not yet told about @event, with a reference; NULL when all were.  For
 * ADDR_CHANGE, only ids of @port whose source address it no longer has (once each).
 */
static struct cma_id_priv *cma_next_to_tell(struct cma_dev *cdev, enum cma_event event,
					    u32 port)
{
	struct cma_id_priv *priv;
	union oib_gid gid;
	u32 p;

	mutex_lock(&cma_lock);
	list_for_each_entry(priv, &cdev->ids, dev_entry) {
		if (event == CMA_EV_DEVICE_REMOVAL) {
			if (priv->removal_notified)
				continue;
			priv->removal_notified = true;
		} else {
			if (priv->id.port_num != port || priv->addr_lost)
				continue;
			cma_addr_to_gid(oib_cma_src_addr(&priv->id), &gid);
			if (!oib_find_gid(cdev->device, &gid, &p, NULL) && p == port)
				continue;
			priv->addr_lost = true;
		}
		kref_get(&priv->ref);
		mutex_unlock(&cma_lock);
		return priv;
	}
	mutex_unlock(&cma_lock);
	return NULL;
}

static void cma_tell_all(struct cma_dev *cdev, enum cma_event event, u32 port)
{
	struct cma_id_priv *priv;

	while ((priv = cma_next_to_tell(cdev, event, port))) {
		struct oib_cma_event ev = {};

		if (cma_deliver(priv, event, &ev))
			cma_destroy(priv);
		cma_id_put(priv);
	}
}

static void cma_gid_event(struct oib_event_handler *h, struct oib_event *event)
{
	struct cma_dev_events *e = container_of(h, struct cma_dev_events, handler);

	if (event->event == OIB_EVENT_GID_CHANGE)
		cma_tell_all(e->cdev, CMA_EV_ADDR_CHANGE, event->element.port_num);
}

static struct oib_client cma_client;

static int cma_add_one(struct oib_device *device)
{
	struct cma_dev_events *e = kzalloc(sizeof(*e), GFP_KERNEL);
	struct cma_dev *cdev = kzalloc(sizeof(*cdev), GFP_KERNEL);
	int ret = -ENOMEM;

	if (!cdev || !e)
		goto err;
	cdev->device = device;
	INIT_LIST_HEAD(&cdev->ids);
	init_waitqueue_head(&cdev->idle);
	e->cdev = cdev;
	e->handler.device = device;
	e->handler.handler = cma_gid_event;
	cdev->events = e;
	ret = oib_set_client_data(device, &cma_client, cdev);
	if (ret)
		goto err;
	ret = oib_register_event_handler(&e->handler);
	if (ret)
		goto err;
	mutex_lock(&cma_lock);
	list_add_tail(&cdev->entry, &cma_devices);
	mutex_unlock(&cma_lock);
	if (!cma_over_ib_cm(device))
		cma_iw_add_device(device);
	return 0;
err:
	kfree(e);
	kfree(cdev);
	return ret;
}

static void cma_remove_one(struct oib_device *device, void *data)
{
	struct cma_dev *cdev = data;

	oib_unregister_event_handler(&cdev->events->handler);
	mutex_lock(&cma_lock);
	cdev->removing = true;
	mutex_unlock(&cma_lock);
	if (!cma_over_ib_cm(device))
		cma_iw_remove_device(device);
	cma_tell_all(cdev, CMA_EV_DEVICE_REMOVAL, 0);
	wait_event(cdev->idle, !atomic_read(&cdev->nids));
	mutex_lock(&cma_lock);
	list_del(&cdev->entry);
	mutex_unlock(&cma_lock);
	kfree(cdev->events);
	kfree(cdev);
}

static struct oib_client cma_client = {
	.name = "oib_cma",
	.add = cma_add_one,
	.remove = cma_remove_one,
};

static int __init cma_init(void)
{
	int ret;

	cma_wq = alloc_workqueue("oib_cma", WQ_MEM_RECLAIM, 0);
	if (!cma_wq)
		return -ENOMEM;
	ret = cma_res_init();
	if (ret) {
		destroy_workqueue(cma_wq);
		return ret;
	}
	ret = oib_register_client(&cma_client);
	if (ret) {
		cma_res_exit();
		destroy_workqueue(cma_wq);
		return ret;
	}
	cma_debugfs = debugfs_create_dir("oib_cma", NULL);
	debugfs_create_file("ids", 0444, cma_debugfs, NULL, &cma_ids_fops);
	return 0;
}

static void __exit cma_exit(void)
{
	debugfs_remove_recursive(cma_debugfs);
	oib_unregister_client(&cma_client);
	cma_res_exit();
	destroy_workqueue(cma_wq);
	cma_bind_exit();
}

module_init(cma_init);
module_exit(cma_exit);
MODULE_DESCRIPTION("oib RDMA connection manager: connections between IP addresses");
MODULE_LICENSE("GPL");
