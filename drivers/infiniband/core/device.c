// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device lifecycle: allocate, register, look up, unregister, free.
 *
 * A device goes ALLOCATED -> REGISTERED -> UNREGISTERING -> UNREGISTERED, and is freed by the last
 * put_device() (the provider's, through oib_dealloc_device(), from ALLOCATED or UNREGISTERED).
 * reg_state changes only under oib_registry_lock, the same lock that orders client add()/remove()
 * calls, so a client never sees a device half registered.
 */
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>
#include <oib/kunit/core.h>
#include <uapi/oib/netlink.h>
#include "core_priv.h"

#define OIB_MAX_PORTS 255
#define OIB_DEVICE_NAME_MAX 64
#define OIB_DEVICE_NUM_MAX 1024	/* numbers a name format may take: 0 to 1023 */

/* Registered devices by index.  Written under oib_registry_lock. */
DEFINE_XARRAY_FLAGS(oib_devices, XA_FLAGS_ALLOC);

static void oib_device_release(struct device *dev)
{
	struct oib_device *device = container_of(dev, struct oib_device, dev);
	int i;

	if (device->ops->dealloc_driver)
		device->ops->dealloc_driver(device);
	xa_destroy(&device->client_data);
	xa_destroy(&device->xrc_rcv_qps);
	for (i = 0; i < OIB_OBJ_MAX; i++)
		xa_destroy(&device->res[i]);	/* empty: every object is destroyed by now */
	for (i = 0; i < OIB_RES_ULP_MAX; i++)
		xa_destroy(&device->res_ulp[i]);	/* empty too: the clients were removed */
	kfree(device->ports);
	kfree(device);
}

struct oib_device *oib_alloc_device(const struct oib_device_ops *ops, size_t size)
{
	struct oib_device *device;
	int i;

	if (!ops || size < sizeof(*device))
		return NULL;

	device = kzalloc(size, GFP_KERNEL);
	if (!device)
		return NULL;

	device->ops = ops;
	device->reg_state = OIB_DEV_ALLOCATED;
	device_initialize(&device->dev);
	device->dev.class = &oib_class;
	device->dev.release = oib_device_release;
	xa_init_flags(&device->client_data, XA_FLAGS_ALLOC);
	init_rwsem(&device->event_rwsem);
	spin_lock_init(&device->event_lock);
	INIT_LIST_HEAD(&device->event_handlers);
	init_completion(&device->users_done);
	for (i = 0; i < OIB_OBJ_MAX; i++) {
		atomic_set(&device->objects[i], 0);
		xa_init_flags(&device->res[i], XA_FLAGS_ALLOC);
	}
	for (i = 0; i < OIB_RES_ULP_MAX; i++)
		xa_init_flags(&device->res_ulp[i], XA_FLAGS_ALLOC);
	xa_init(&device->xrc_rcv_qps);
	spin_lock_init(&device->cq_pools_lock);
	for (i = 0; i < ARRAY_SIZE(device->cq_pools); i++)
		INIT_LIST_HEAD(&device->cq_pools[i]);
	return device;
}
EXPORT_SYMBOL(oib_alloc_device);

void oib_dealloc_device(struct oib_device *device)
{
	if (WARN_ON(device->reg_state == OIB_DEV_REGISTERED ||
		    device->reg_state == OIB_DEV_UNREGISTERING))
		return;
	put_device(&device->dev);
}
EXPORT_SYMBOL(oib_dealloc_device);

/* An RNIC connects through its iWARP CM verbs: all of them, and only an RNIC has them. */
bool oib_iw_ops_valid(const struct oib_device_ops *ops, enum oib_node_type node_type)
{
	int have = !!ops->iw_connect + !!ops->iw_accept + !!ops->iw_reject +
		   !!ops->iw_create_listen + !!ops->iw_destroy_listen;

	return node_type == OIB_NODE_RNIC ? have == 5 : have == 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_iw_ops_valid);

static bool oib_ops_complete(const struct oib_device_ops *ops)
{
	return ops->query_device && ops->query_port && ops->get_port_immutable &&
	       ops->alloc_pd && ops->dealloc_pd &&
	       ops->create_cq && ops->destroy_cq && ops->poll_cq && ops->req_notify_cq &&
	       ops->create_qp && ops->modify_qp && ops->query_qp && ops->destroy_qp &&
	       ops->post_send && ops->post_recv &&
	       ops->create_srq && ops->modify_srq && ops->query_srq && ops->destroy_srq &&
	       ops->post_srq_recv &&
	       ops->get_dma_mr && ops->reg_kernel_mr && ops->dereg_mr &&
	       ops->create_ah && ops->destroy_ah &&
	       ops->size_pd >= sizeof(struct oib_pd) && ops->size_cq >= sizeof(struct oib_cq) &&
	       ops->size_qp >= sizeof(struct oib_qp) && ops->size_srq >= sizeof(struct oib_srq) &&
	       ops->size_mr >= sizeof(struct oib_mr) && ops->size_ah >= sizeof(struct oib_ah);
}

static struct oib_device *oib_find_registered(const char *name)
{
	struct oib_device *device;
	unsigned long index;

	lockdep_assert_held(&oib_registry_lock);
	xa_for_each(&oib_devices, index, device)
		if (!strcmp(oib_dev_name(device), name))
			return device;
	return NULL;
}

/* Name the device from @fmt, taking the first free number if @fmt has a %d. */
static int oib_assign_name(struct oib_device *device, const char *fmt)
{
	char name[OIB_DEVICE_NAME_MAX];
	struct oib_device *other;
	unsigned long index;
	struct ida used;
	const char *pct;
	int i, ret;

	lockdep_assert_held(&oib_registry_lock);
	if (!strchr(fmt, '%')) {
		if (strlen(fmt) >= sizeof(name))
			return -EINVAL;
		if (oib_find_registered(fmt))
			return -EEXIST;
		return dev_set_name(&device->dev, "%s", fmt);
	}
	pct = strchr(fmt, '%');
	if (pct[1] != 'd' || strchr(pct + 1, '%'))
		return -EINVAL;

	/* The numbers the format's names already use, then the first one free. */
	ida_init(&used);
	xa_for_each(&oib_devices, index, other) {
		if (sscanf(oib_dev_name(other), fmt, &i) != 1 || i < 0 ||
		    snprintf(name, sizeof(name), fmt, i) >= sizeof(name) ||
		    strcmp(name, oib_dev_name(other)))
			continue;
		ret = ida_alloc_range(&used, i, i, GFP_KERNEL);
		if (ret < 0 && ret != -ENOSPC)
			goto out;
	}
	ret = ida_alloc_max(&used, OIB_DEVICE_NUM_MAX - 1, GFP_KERNEL);
	if (ret >= 0) {
		i = ret;
		ret = -EINVAL;
		if (snprintf(name, sizeof(name), fmt, i) < sizeof(name))
			ret = dev_set_name(&device->dev, "%s", name);
	} else if (ret == -ENOSPC) {
		ret = -ENFILE;
	}
out:
	ida_destroy(&used);
	return ret;
}

int oib_register_device(struct oib_device *device, const char *name_fmt)
{
	int ret;

	if (!device || !name_fmt || !oib_ops_complete(device->ops) ||
	    !oib_iw_ops_valid(device->ops, device->node_type))
		return -EINVAL;
	if (device->phys_port_cnt < 1 || device->phys_port_cnt > OIB_MAX_PORTS)
		return -EINVAL;

	mutex_lock(&oib_registry_lock);
	if (device->reg_state != OIB_DEV_ALLOCATED) {
		ret = -EBUSY;
		goto out_unlock;
	}
	ret = oib_assign_name(device, name_fmt);
	if (ret)
		goto out_unlock;

	ret = device->ops->query_device(device, &device->attrs);
	if (ret)
		goto out_unlock;
	if (!device->attrs.num_comp_vectors) {
		ret = -EINVAL;
		goto out_unlock;
	}

	ret = oib_ports_setup(device);
	if (ret)
		goto out_unlock;

	ret = oib_events_start(device);
	if (ret)
		goto out_ports;

	ret = xa_alloc(&oib_devices, &device->index, device, xa_limit_31b, GFP_KERNEL);
	if (ret)
		goto out_wq;

	ret = device_add(&device->dev);
	if (ret)
		goto out_xa;

	ret = oib_sysfs_add_device(device);
	if (ret)
		goto out_del;

	oib_debugfs_add_device(device);
	refcount_set(&device->users, 1);
	reinit_completion(&device->users_done);
	device->reg_state = OIB_DEV_REGISTERED;

	ret = oib_clients_add_device(device);
	if (ret)
		goto out_unreg;
	mutex_unlock(&oib_registry_lock);
	oib_nl_notify(device, 0, OIB_NL_CMD_DEV_NEW);
	return 0;

out_unreg:
	oib_debugfs_remove_device(device);
	oib_sysfs_remove_device(device);
out_del:
	/* A struct device is added once: after device_del() it can only be freed. */
	device_del(&device->dev);
	device->reg_state = OIB_DEV_UNREGISTERED;
out_xa:
	xa_erase(&oib_devices, device->index);
out_wq:
	oib_events_stop(device);
out_ports:
	oib_ports_cleanup(device);
out_unlock:
	mutex_unlock(&oib_registry_lock);
	return ret;
}
EXPORT_SYMBOL(oib_register_device);

static void oib_report_leftovers(struct oib_device *device)
{
	int i, n;

	for (i = 0; i < OIB_OBJ_MAX; i++) {
		n = atomic_read(&device->objects[i]);
		if (n)
			dev_err(&device->dev, "unregistered with %d %s(s) still allocated\n",
				n, oib_obj_name(i));
	}
}

void oib_unregister_device(struct oib_device *device)
{
	might_sleep();

	mutex_lock(&oib_registry_lock);
	if (WARN_ON(device->reg_state != OIB_DEV_REGISTERED)) {
		mutex_unlock(&oib_registry_lock);
		return;
	}
	device->reg_state = OIB_DEV_UNREGISTERING;
	oib_clients_remove_device(device);
	xa_erase(&oib_devices, device->index);
	mutex_unlock(&oib_registry_lock);

	/* Drop the registration's user reference and wait for the others. */
	oib_device_put(device);
	wait_for_completion(&device->users_done);

	oib_cq_pool_destroy(device);
	oib_events_stop(device);
	oib_report_leftovers(device);

	oib_debugfs_remove_device(device);
	oib_sysfs_remove_device(device);
	device_del(&device->dev);
	oib_ports_cleanup(device);

	mutex_lock(&oib_registry_lock);
	device->reg_state = OIB_DEV_UNREGISTERED;
	mutex_unlock(&oib_registry_lock);
	oib_nl_notify(device, 0, OIB_NL_CMD_DEV_DEL);
}
EXPORT_SYMBOL(oib_unregister_device);

bool oib_device_try_get(struct oib_device *device)
{
	return refcount_inc_not_zero(&device->users);
}
EXPORT_SYMBOL(oib_device_try_get);

void oib_device_put(struct oib_device *device)
{
	if (refcount_dec_and_test(&device->users))
		complete(&device->users_done);
}
EXPORT_SYMBOL(oib_device_put);

struct oib_device *oib_device_get_by_name(const char *name)
{
	struct oib_device *device;

	if (!name)
		return NULL;
	mutex_lock(&oib_registry_lock);
	device = oib_find_registered(name);
	if (device && (device->reg_state != OIB_DEV_REGISTERED || !oib_device_try_get(device)))
		device = NULL;
	mutex_unlock(&oib_registry_lock);
	return device;
}
EXPORT_SYMBOL(oib_device_get_by_name);

struct oib_device *oib_device_next(unsigned long *index)
{
	struct oib_device *device;

	mutex_lock(&oib_registry_lock);
	xa_for_each_start(&oib_devices, *index, device, *index)
		if (device->reg_state == OIB_DEV_REGISTERED && oib_device_try_get(device))
			break;
	mutex_unlock(&oib_registry_lock);
	return device;
}

int oib_query_device(struct oib_device *device, struct oib_device_attr *attr)
{
	if (!device || !attr)
		return -EINVAL;
	*attr = device->attrs;
	return 0;
}
EXPORT_SYMBOL(oib_query_device);

int oib_object_count(struct oib_device *device, enum oib_obj_type type)
{
	if (!device || type >= OIB_OBJ_MAX)
		return -EINVAL;
	return atomic_read(&device->objects[type]);
}
EXPORT_SYMBOL(oib_object_count);

/* Allocate a provider-sized object, counted against the device's limit for its type. */
void *oib_alloc_object(struct oib_device *device, enum oib_obj_type type, size_t size)
{
	const struct oib_device_attr *a = &device->attrs;
	u32 max[OIB_OBJ_MAX] = {
		[OIB_OBJ_PD] = a->max_pd, [OIB_OBJ_CQ] = a->max_cq, [OIB_OBJ_QP] = a->max_qp,
		[OIB_OBJ_SRQ] = a->max_srq, [OIB_OBJ_MR] = a->max_mr, [OIB_OBJ_AH] = a->max_ah,
		[OIB_OBJ_XRCD] = a->max_xrcd,
	};
	void *obj;

	if (!oib_object_get(device, type, max[type]))
		return ERR_PTR(-ENOSPC);
	obj = kzalloc(size, GFP_KERNEL);
	if (!obj) {
		oib_object_put(device, type);
		return ERR_PTR(-ENOMEM);
	}
	return obj;
}

void oib_free_object(struct oib_device *device, enum oib_obj_type type, void *obj)
{
	kfree(obj);
	oib_object_put(device, type);
}
