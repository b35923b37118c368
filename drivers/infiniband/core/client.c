// SPDX-License-Identifier: GPL-2.0-only
/*
 * Clients: ULPs that want to hear about every device.
 *
 * oib_registry_lock orders everything here: the client list, each device's set of added clients
 * (the entries of device->client_data) and the add()/remove() calls themselves.  Holding it across
 * the callbacks is what makes client and device unregistration synchronous and race-free: once the
 * lock is dropped after a remove(), no add() or remove() for that pair can be running.
 */
#include <linux/module.h>
#include <linux/xarray.h>
#include "core_priv.h"

/* Orders all registration: see the top of this file. */
DEFINE_MUTEX(oib_registry_lock);

/* Registered clients, in registration order; devices see add() in this order, remove() reversed. */
static LIST_HEAD(oib_clients);
static DEFINE_XARRAY_FLAGS(oib_client_ids, XA_FLAGS_ALLOC);

/* Stored in device->client_data for a client that was added with no data of its own. */
#define OIB_NO_DATA xa_mk_value(0)

static int oib_add_client_to_device(struct oib_client *client, struct oib_device *device)
{
	int ret;

	ret = xa_insert(&device->client_data, client->client_id, OIB_NO_DATA, GFP_KERNEL);
	if (ret)
		return ret;
	if (client->add(device))	/* not interested in this device */
		xa_erase(&device->client_data, client->client_id);
	return 0;
}

static void oib_remove_client_from_device(struct oib_client *client, struct oib_device *device)
{
	void *data = xa_load(&device->client_data, client->client_id);

	if (!data)
		return;
	if (client->remove)
		client->remove(device, data == OIB_NO_DATA ? NULL : data);
	xa_erase(&device->client_data, client->client_id);
}

int oib_clients_add_device(struct oib_device *device)
{
	struct oib_client *client;
	int ret;

	lockdep_assert_held(&oib_registry_lock);
	list_for_each_entry(client, &oib_clients, list) {
		ret = oib_add_client_to_device(client, device);
		if (ret) {
			list_for_each_entry_continue_reverse(client, &oib_clients, list)
				oib_remove_client_from_device(client, device);
			return ret;
		}
	}
	return 0;
}

void oib_clients_remove_device(struct oib_device *device)
{
	struct oib_client *client;

	lockdep_assert_held(&oib_registry_lock);
	list_for_each_entry_reverse(client, &oib_clients, list)
		oib_remove_client_from_device(client, device);
}

static void oib_client_remove_all(struct oib_client *client)
{
	struct oib_device *device;
	unsigned long index;

	xa_for_each(&oib_devices, index, device)
		oib_remove_client_from_device(client, device);
}

int oib_register_client(struct oib_client *client)
{
	struct oib_device *device;
	unsigned long index;
	int ret;

	if (!client || !client->name || !client->add)
		return -EINVAL;

	mutex_lock(&oib_registry_lock);
	ret = xa_alloc(&oib_client_ids, &client->client_id, client, xa_limit_31b, GFP_KERNEL);
	if (ret)
		goto out;
	list_add_tail(&client->list, &oib_clients);

	xa_for_each(&oib_devices, index, device) {
		if (device->reg_state != OIB_DEV_REGISTERED)
			continue;
		ret = oib_add_client_to_device(client, device);
		if (ret) {
			oib_client_remove_all(client);
			list_del(&client->list);
			xa_erase(&oib_client_ids, client->client_id);
			break;
		}
	}
out:
	mutex_unlock(&oib_registry_lock);
	return ret;
}
EXPORT_SYMBOL(oib_register_client);

void oib_unregister_client(struct oib_client *client)
{
	might_sleep();
	mutex_lock(&oib_registry_lock);
	oib_client_remove_all(client);
	list_del(&client->list);
	xa_erase(&oib_client_ids, client->client_id);
	mutex_unlock(&oib_registry_lock);
}
EXPORT_SYMBOL(oib_unregister_client);

void *oib_get_client_data(struct oib_device *device, struct oib_client *client)
{
	void *data = xa_load(&device->client_data, client->client_id);

	return data == OIB_NO_DATA ? NULL : data;
}
EXPORT_SYMBOL(oib_get_client_data);

/* -ENOENT unless @client was added to @device and not yet removed. */
int oib_set_client_data(struct oib_device *device, struct oib_client *client, void *data)
{
	int ret = 0;

	if (xa_is_value(data))
		return -EINVAL;
	xa_lock(&device->client_data);
	if (!xa_load(&device->client_data, client->client_id))
		ret = -ENOENT;
	else
		__xa_store(&device->client_data, client->client_id, data ?: OIB_NO_DATA,
			   GFP_ATOMIC);
	xa_unlock(&device->client_data);
	return ret;
}
EXPORT_SYMBOL(oib_set_client_data);
