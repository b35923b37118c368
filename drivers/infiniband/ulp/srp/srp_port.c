// SPDX-License-Identifier: GPL-2.0-only
/*
 * The class "oib_srp": a device srp-<oibdev>-<port> per port of every oib device (oib_srp is an
 * oib client), the in-tree ib_srp's srp-<ibdev>-<port> of its class infiniband_srp:
 *   add_target	write-only: log in to a target through this port (srp_options.c's grammar)
 *   ibdev, port	the oib device and port it is
 *   targets	the hosts logged in through it, one "DEST hostN STATE" a line
 * A login leaves from an address of the port (the RDMA CM id's source bound to it).
 *
 * Lifetime.  A port's memory lives as long as its struct device: one reference from the client's
 * add() to its remove(), one per host made through it (srp_host_add() to srp_host_free()).
 * remove() deletes the device first, which waits for every add_target write in flight and lets
 * no other in; then it removes the port's hosts and waits for those another remover had taken
 * (@hosts), so none is left on the device when remove() returns.
 */
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <oib/device.h>
#include "srp_priv.h"

static struct srp_port *to_srp_port(struct device *dev)
{
	return container_of(dev, struct srp_port, dev);
}

static ssize_t add_target_store(struct device *dev, struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct srp_target_spec s;
	int ret = srp_target_parse(buf, &s);

	if (ret)
		return ret;
	s.port = to_srp_port(dev);
	ret = srp_target_add(&s);
	return ret ?: count;
}
static DEVICE_ATTR_WO(add_target);

static ssize_t ibdev_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", oib_dev_name(to_srp_port(dev)->ibdev));
}
static DEVICE_ATTR_RO(ibdev);

static ssize_t port_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_srp_port(dev)->port);
}
static DEVICE_ATTR_RO(port);

static ssize_t targets_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return srp_targets_list(to_srp_port(dev), buf);
}
static DEVICE_ATTR_RO(targets);

static struct attribute *srp_port_attrs[] = {
	&dev_attr_add_target.attr,
	&dev_attr_ibdev.attr,
	&dev_attr_port.attr,
	&dev_attr_targets.attr,
	NULL,
};
ATTRIBUTE_GROUPS(srp_port);

static struct class srp_class = {
	.name = "oib_srp",
	.dev_groups = srp_port_groups,
};

static void srp_port_release(struct device *dev)
{
	kfree(to_srp_port(dev));
}

/* A host made through @p holds it (srp_host_add()); srp_port_put() when it is freed. */
void srp_port_hold(struct srp_port *p)
{
	get_device(&p->dev);
	atomic_inc(&p->hosts);
}

void srp_port_put(struct srp_port *p)
{
	if (atomic_dec_and_test(&p->hosts))
		wake_up_var(&p->hosts);
	put_device(&p->dev);
}

static struct srp_port *srp_port_add(struct oib_device *ibdev, u32 port)
{
	struct srp_port *p = kzalloc(sizeof(*p), GFP_KERNEL);
	int ret;

	if (!p)
		return ERR_PTR(-ENOMEM);
	p->ibdev = ibdev;
	p->port = port;
	atomic_set(&p->hosts, 0);
	device_initialize(&p->dev);
	p->dev.class = &srp_class;
	p->dev.parent = &ibdev->dev;
	p->dev.release = srp_port_release;	/* frees @p from here on */
	ret = dev_set_name(&p->dev, "srp-%s-%u", oib_dev_name(ibdev), port);
	if (!ret)
		ret = device_add(&p->dev);
	if (ret) {
		put_device(&p->dev);
		return ERR_PTR(ret);
	}
	return p;
}

static void srp_port_remove(struct srp_port *p)
{
	device_del(&p->dev);
	srp_targets_remove_port(p);
	wait_var_event(&p->hosts, !atomic_read(&p->hosts));
	put_device(&p->dev);
}

/* The client's data for a device: its ports' devices, port n at n - 1. */
struct srp_dev {
	u32 nports;
	struct srp_port *ports[];
};

static void srp_dev_remove(struct oib_device *ibdev, void *data)
{
	struct srp_dev *sd = data;
	u32 i;

	for (i = 0; i < sd->nports; i++)
		if (sd->ports[i])
			srp_port_remove(sd->ports[i]);
	kfree(sd);
}

static int srp_dev_add(struct oib_device *ibdev)
{
	struct srp_dev *sd;
	struct srp_port *p;
	u32 i;
	int ret;

	sd = kzalloc(struct_size(sd, ports, ibdev->phys_port_cnt), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	sd->nports = ibdev->phys_port_cnt;
	for (i = 0; i < sd->nports; i++) {
		p = srp_port_add(ibdev, i + 1);
		if (IS_ERR(p)) {
			ret = PTR_ERR(p);
			goto err;
		}
		sd->ports[i] = p;
	}
	ret = oib_set_client_data(ibdev, &srp_client, sd);
	if (!ret)
		return 0;
err:
	srp_dev_remove(ibdev, sd);
	return ret;
}

struct oib_client srp_client = {
	.name = "oib_srp",
	.add = srp_dev_add,
	.remove = srp_dev_remove,
};

/* The class, then the client: every device's ports appear. */
int srp_ports_init(void)
{
	int ret = class_register(&srp_class);

	if (ret)
		return ret;
	ret = oib_register_client(&srp_client);
	if (ret)
		class_unregister(&srp_class);
	return ret;
}

/* Every port removed, with its hosts. */
void srp_ports_exit(void)
{
	oib_unregister_client(&srp_client);
	class_unregister(&srp_class);
}
