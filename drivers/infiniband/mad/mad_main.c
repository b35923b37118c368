// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_mad module: an oib_core client that gives every port with OIB_CORE_CAP_IB_MAD a MAD service
 * (mad_port.c) and its own agent (mad_self.c).  The client data of a device is its array of ports
 * (NULL for ports without the service).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "mad_priv.h"

struct workqueue_struct *mad_wq;

static void mad_remove_port(struct mad_port *port)
{
	mad_self_stop(port);
	mad_port_teardown(port);
	mad_debugfs_remove_port(port);
	mad_port_put(port);
}

static struct mad_port *mad_add_port(struct oib_device *device, u32 port_num)
{
	const struct oib_port_immutable *imm = oib_port_immutable(device, port_num);
	struct mad_port *port;
	int ret;

	if (!imm || !(imm->core_cap_flags & OIB_CORE_CAP_IB_MAD))
		return NULL;
	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return ERR_PTR(-ENOMEM);
	mad_port_init(port, device, port_num);
	ret = mad_port_setup(port);
	if (ret) {
		mad_port_put(port);
		return ERR_PTR(ret);
	}
	return port;
}

static void mad_remove_ports(struct mad_port **ports, u32 n)
{
	u32 i;

	for (i = n; i > 0; i--)
		if (ports[i - 1])
			mad_remove_port(ports[i - 1]);
}

static int mad_add_device(struct oib_device *device)
{
	struct mad_port **ports, *port;
	u32 i;
	int ret;

	ports = kcalloc(device->phys_port_cnt, sizeof(*ports), GFP_KERNEL);
	if (!ports)
		return -ENOMEM;
	for (i = 0; i < device->phys_port_cnt; i++) {
		port = mad_add_port(device, i + 1);
		if (IS_ERR(port)) {
			ret = PTR_ERR(port);
			dev_warn(&device->dev, "oib_mad: port %u: no MAD service (%d)\n", i + 1,
				 ret);
			goto err;
		}
		ports[i] = port;
	}
	ret = oib_set_client_data(device, &mad_client, ports);
	if (ret)
		goto err;
	/* The ports' own agents register last: registration looks the port up. */
	for (i = 0; i < device->phys_port_cnt; i++) {
		if (!ports[i])
			continue;
		ret = mad_self_start(ports[i]);
		if (ret)
			goto err;
		mad_debugfs_add_port(ports[i]);
	}
	return 0;

err:
	mad_remove_ports(ports, device->phys_port_cnt);
	mad_debugfs_remove_device(device);
	kfree(ports);
	return ret;
}

static void mad_remove_device(struct oib_device *device, void *data)
{
	struct mad_port **ports = data;

	if (!ports)
		return;
	mad_remove_ports(ports, device->phys_port_cnt);
	mad_debugfs_remove_device(device);
	kfree(ports);
}

struct oib_client mad_client = {
	.name = "oib_mad",
	.add = mad_add_device,
	.remove = mad_remove_device,
};

static int __init oib_mad_init(void)
{
	int ret;

	mad_wq = alloc_workqueue("oib_mad", 0, 0);
	if (!mad_wq)
		return -ENOMEM;
	mad_debugfs_init();
	ret = oib_register_client(&mad_client);
	if (ret) {
		mad_debugfs_exit();
		destroy_workqueue(mad_wq);
	}
	return ret;
}

static void __exit oib_mad_exit(void)
{
	oib_unregister_client(&mad_client);
	mad_debugfs_exit();
	destroy_workqueue(mad_wq);
}

module_init(oib_mad_init);
module_exit(oib_mad_exit);
MODULE_DESCRIPTION("oib RDMA midlayer: MAD layer (GSI agents, sends, timeouts)");
MODULE_LICENSE("GPL");
