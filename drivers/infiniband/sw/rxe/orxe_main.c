// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_rxe module: making and removing software devices.
 *
 * Devices come from oib_rxe_add() (tests) or from the link type "rxe" of oib_core's netlink family
 * (users: oib link add NAME type rxe [netdev DEV] [ports N], oib link delete NAME, oib addr
 * add|del NAME/PORT ADDR).  The module's device list is what unload tears down.  A device's
 * memory belongs to its struct device (see <oib/device.h>); the list holds it from registration
 * until oib_rxe_remove().
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <oib/link.h>
#include "orxe.h"

/*
 * orxe_devices_lock protects orxe_devices.  A device is on the list from registration until removal
 * takes it off; removal then unregisters it without the lock, since unregistration waits for the
 * device's users and they may need the lock themselves (to add another device, say).
 */
static DEFINE_MUTEX(orxe_devices_lock);
static LIST_HEAD(orxe_devices);
static atomic_t orxe_serial = ATOMIC_INIT(0);

#define ORXE_DEF(v, def) ((v) ?: (def))

static void orxe_set_attrs(struct orxe_dev *rdev, const struct oib_rxe_params *p)
{
	struct oib_device_attr *a = &rdev->attr;

	a->fw_ver = 1ULL << 32;
	a->sys_image_guid = rdev->ib.node_guid;
	a->max_mr_size = U64_MAX;
	a->page_size_cap = GENMASK_ULL(31, PAGE_SHIFT);	/* fast registration: 4 KiB to 2 GiB */
	a->vendor_id = ORXE_VENDOR_ID;
	a->max_qp = ORXE_DEF(p->max_qp, 0x10000);
	a->max_qp_wr = ORXE_DEF(p->max_qp_wr, 0x4000);
	a->device_cap_flags = OIB_DEVICE_RC_RNR_NAK_GEN | OIB_DEVICE_MEM_MGT_EXTENSIONS |
			      OIB_DEVICE_XRC;
	a->max_xrcd = 0x1000;
	a->max_send_sge = ORXE_MAX_SGE;
	a->max_recv_sge = ORXE_MAX_SGE;
	a->max_cq = ORXE_DEF(p->max_cq, 0x4000);
	a->max_cqe = ORXE_DEF(p->max_cqe, 0x40000);
	a->max_mr = ORXE_DEF(p->max_mr, 0x10000);
	a->max_pd = ORXE_DEF(p->max_pd, 0x10000);
	a->max_qp_rd_atom = ORXE_MAX_RD_ATOMIC;
	a->max_qp_init_rd_atom = ORXE_MAX_RD_ATOMIC;
	a->max_srq = ORXE_DEF(p->max_srq, 0x4000);
	a->max_srq_wr = ORXE_DEF(p->max_srq_wr, 0x4000);
	a->max_srq_sge = ORXE_MAX_SGE;
	a->max_ah = ORXE_DEF(p->max_ah, 0x10000);
	a->max_inline_data = ORXE_MAX_INLINE;
	a->max_pkeys = ORXE_MAX_PKEYS;
	a->local_ca_ack_delay = 15;
	a->atomic_cap = OIB_ATOMIC_HCA;
	a->num_comp_vectors = num_possible_cpus();
	a->max_fast_reg_page_list_len = ORXE_MAX_FAST_REG_PAGES;
}

void orxe_dealloc_driver(struct oib_device *ibdev)
{
	struct orxe_dev *rdev = to_rdev(ibdev);

	if (rdev->comp_wq)
		destroy_workqueue(rdev->comp_wq);
	if (rdev->fabric)
		oib_rxe_fabric_put(rdev->fabric);
	xa_destroy(&rdev->qpns);
	oib_sw_mr_table_destroy(&rdev->mr_keys);
	xa_destroy(&rdev->srqns);
}

/* The fabric a new device's ports attach to: a named, shared one, or a netdev device's own. */
static struct orxe_fabric *orxe_dev_fabric(struct orxe_dev *rdev, const struct oib_rxe_params *p)
{
	char name[ORXE_FABRIC_NAME_MAX];

	if (!p->netdev)
		return oib_rxe_fabric_get(p->fabric ?: "default");
	if (p->name)
		return orxe_fabric_get_new(p->name);
	snprintf(name, sizeof(name), "link%u", rdev->serial);
	return orxe_fabric_get_new(name);
}

static struct orxe_dev *orxe_dev_alloc(const struct oib_rxe_params *p)
{
	struct orxe_fabric *fabric;
	struct orxe_dev *rdev;
	union oib_gid gid;
	u32 i;

	rdev = (struct orxe_dev *)oib_alloc_device(&orxe_dev_ops, sizeof(*rdev));
	if (!rdev)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&rdev->lock);
	spin_lock_init(&rdev->atomic_lock);
	xa_init_flags(&rdev->qpns, XA_FLAGS_ALLOC);
	oib_sw_mr_table_init(&rdev->mr_keys);
	xa_init_flags(&rdev->srqns, XA_FLAGS_ALLOC);
	rdev->serial = atomic_inc_return(&orxe_serial);
	rdev->comp_wq = alloc_workqueue("oib_rxe_comp", WQ_HIGHPRI, 0);
	fabric = orxe_dev_fabric(rdev, p);
	if (IS_ERR(fabric)) {
		oib_dealloc_device(&rdev->ib);
		return ERR_CAST(fabric);
	}
	rdev->fabric = fabric;		/* put by orxe_dealloc_driver() */
	if (!rdev->comp_wq) {
		oib_dealloc_device(&rdev->ib);
		return ERR_PTR(-ENOMEM);
	}

	rdev->ib.node_type = OIB_NODE_CA;
	rdev->ib.phys_port_cnt = p->num_ports;
	for (i = 0; i < p->num_ports; i++) {
		struct orxe_port *port = &rdev->ports[i];
		u8 mac[6] = { 0x02, 0x0b, rdev->serial >> 16, rdev->serial >> 8, rdev->serial,
			      i + 1 };

		port->rdev = rdev;
		port->port_num = i + 1;
		memcpy(port->mac, p->netdev ? p->netdev->dev_addr : mac, sizeof(mac));
		/* a netdev's port follows its link from the binding on */
		port->state = p->netdev ? OIB_PORT_DOWN : OIB_PORT_ACTIVE;
		port->max_mtu = OIB_MTU_4096;
		port->active_mtu = OIB_MTU_4096;
	}
	/* The node GUID is port 1's EUI-64, as on a real RoCE NIC. */
	oib_gid_from_mac(&gid, rdev->ports[0].mac);
	rdev->ib.node_guid = gid.global.interface_id;
	orxe_set_attrs(rdev, p);
	if (p->netdev) {
		rdev->on_netdev = true;
		orxe_link_setup(rdev);
	}
	return rdev;
}

static int orxe_params_check(const struct oib_rxe_params *p)
{
	if (!p)
		return -EINVAL;
	if (p->netdev)
		return p->num_ports > 1 || p->fabric ? -EINVAL : 0;
	return p->num_ports < 1 || p->num_ports > OIB_RXE_MAX_PORTS ? -EINVAL : 0;
}

/* A device on a netdev: bind it, now that it is registered and its port attached. */
static int orxe_dev_bind(struct orxe_dev *rdev, struct net_device *ndev)
{
	int ret;

	rtnl_lock();
	ret = orxe_link_bind(rdev, ndev);
	rtnl_unlock();
	return ret;
}

struct oib_device *oib_rxe_add(const struct oib_rxe_params *params)
{
	struct oib_rxe_params p;
	struct orxe_dev *rdev;
	u32 i;
	int ret;

	ret = orxe_params_check(params);
	if (ret)
		return ERR_PTR(ret);
	p = *params;
	if (p.netdev)
		p.num_ports = 1;

	rdev = orxe_dev_alloc(&p);
	if (IS_ERR(rdev))
		return ERR_CAST(rdev);

	ret = oib_register_device(&rdev->ib, p.name ?: "oib_rxe%d");
	if (ret) {
		oib_dealloc_device(&rdev->ib);
		return ERR_PTR(ret);
	}
	ret = orxe_ports_attach(rdev);
	if (!ret && p.netdev) {
		ret = orxe_dev_bind(rdev, p.netdev);
		if (ret)
			orxe_ports_detach(rdev);
	}
	if (ret) {
		oib_unregister_device(&rdev->ib);
		oib_dealloc_device(&rdev->ib);
		return ERR_PTR(ret);
	}
	orxe_debugfs_add(rdev);
	mutex_lock(&orxe_devices_lock);
	list_add_tail(&rdev->list, &orxe_devices);
	mutex_unlock(&orxe_devices_lock);

	for (i = 1; i <= p.num_ports && !p.netdev; i++)
		oib_dispatch_port_event(&rdev->ib, i, OIB_EVENT_PORT_ACTIVE);
	return &rdev->ib;
}
EXPORT_SYMBOL(oib_rxe_add);

/* The device that is @ibdev or is named @name; with neither, the first one. */
static struct orxe_dev *orxe_find_locked(struct oib_device *ibdev, const char *name)
{
	struct orxe_dev *rdev;

	lockdep_assert_held(&orxe_devices_lock);
	if (!ibdev && !name)
		return list_first_entry_or_null(&orxe_devices, struct orxe_dev, list);
	list_for_each_entry(rdev, &orxe_devices, list)
		if (&rdev->ib == ibdev || (name && !strcmp(oib_dev_name(&rdev->ib), name)))
			return rdev;
	return NULL;
}

/*
 * Called with @rdev already off the list.  A device on a netdev stops following it first, so no
 * frame arrives from there.  Unregistration removes the clients, and with them every QP, so
 * nothing sends once it returns; the receive path holds a device user while it works, so it is
 * done with the core's port tables before they go.  Then the ports leave the fabric.
 */
static void orxe_dev_remove(struct orxe_dev *rdev, bool in_remove_work)
{
	if (rdev->on_netdev)
		orxe_link_stop(rdev, in_remove_work);
	oib_unregister_device(&rdev->ib);
	orxe_ports_detach(rdev);
	if (rdev->on_netdev)
		orxe_link_release(rdev);
	oib_dealloc_device(&rdev->ib);
}

/* Take a device (found as by orxe_find_locked()) off the list. */
static struct orxe_dev *orxe_dev_unlist(struct oib_device *ibdev, const char *name)
{
	struct orxe_dev *rdev;

	mutex_lock(&orxe_devices_lock);
	rdev = orxe_find_locked(ibdev, name);
	if (rdev)
		list_del(&rdev->list);
	mutex_unlock(&orxe_devices_lock);
	return rdev;
}

int oib_rxe_remove(struct oib_device *ibdev)
{
	struct orxe_dev *rdev;

	if (!ibdev)
		return -EINVAL;
	rdev = orxe_dev_unlist(ibdev, NULL);
	if (!rdev)
		return -ENODEV;
	orxe_dev_remove(rdev, false);
	return 0;
}
EXPORT_SYMBOL(oib_rxe_remove);

/* The netdev of @rdev is gone (orxe_link.c): remove the device, unless somebody else is. */
void orxe_dev_remove_work(struct orxe_dev *rdev)
{
	if (orxe_dev_unlist(&rdev->ib, NULL))
		orxe_dev_remove(rdev, true);
}

int oib_rxe_set_port_state(struct oib_device *ibdev, u32 port_num, bool up)
{
	struct orxe_dev *rdev;
	enum oib_port_state new = up ? OIB_PORT_ACTIVE : OIB_PORT_DOWN;
	bool changed;

	if (!ibdev || ibdev->ops != &orxe_dev_ops || !oib_port_valid(ibdev, port_num))
		return -EINVAL;
	rdev = to_rdev(ibdev);

	spin_lock_irq(&rdev->lock);
	changed = rdev->ports[port_num - 1].state != new;
	WRITE_ONCE(rdev->ports[port_num - 1].state, new);
	spin_unlock_irq(&rdev->lock);

	if (changed)
		oib_dispatch_port_event(ibdev, port_num,
					up ? OIB_EVENT_PORT_ACTIVE : OIB_EVENT_PORT_ERR);
	return 0;
}
EXPORT_SYMBOL(oib_rxe_set_port_state);

/* ---- The link type "rxe": oib link add NAME type rxe [netdev DEV] [ports N] ---- */

static int orxe_newlink(const struct oib_link_params *lp, struct netlink_ext_ack *extack)
{
	struct oib_rxe_params p = {
		.name = lp->name,
		.netdev = lp->netdev,
		.num_ports = lp->num_ports ?: 1,
	};
	struct oib_device *ibdev;

	if (p.netdev && p.num_ports > 1) {
		NL_SET_ERR_MSG(extack, "a device on a netdev has one port");
		return -EINVAL;
	}
	if (p.num_ports > OIB_RXE_MAX_PORTS) {
		NL_SET_ERR_MSG(extack, "oib_rxe: at most 8 ports");
		return -EINVAL;
	}
	if (p.netdev && strlen(p.name) >= ORXE_FABRIC_NAME_MAX) {
		NL_SET_ERR_MSG(extack, "oib_rxe: a name on a netdev has at most 31 bytes");
		return -EINVAL;
	}
	ibdev = oib_rxe_add(&p);
	return PTR_ERR_OR_ZERO(ibdev);
}

static int orxe_dellink(const char *name, struct netlink_ext_ack *extack)
{
	struct orxe_dev *rdev = orxe_dev_unlist(NULL, name);

	if (!rdev)
		return -ENODEV;
	orxe_dev_remove(rdev, false);
	return 0;
}

/* A device on a netdev has the netdev's addresses; the others' ports take them one by one. */
static int orxe_addr(struct oib_device *ibdev, u32 port, const union oib_gid *gid, bool add,
		     struct netlink_ext_ack *extack)
{
	if (to_rdev(ibdev)->on_netdev) {
		NL_SET_ERR_MSG(extack, "a device on a netdev has the netdev's addresses");
		return -EOPNOTSUPP;
	}
	if (add)
		return min(oib_add_gid(ibdev, port, gid, OIB_GID_TYPE_ROCE_V2), 0);
	return oib_del_gid(ibdev, port, gid);
}

static int orxe_port_netdev(struct oib_device *ibdev, u32 port, char *name, int *ifindex)
{
	struct orxe_dev *rdev = to_rdev(ibdev);
	struct net_device *ndev;
	int ret = -ENODEV;

	rcu_read_lock();
	ndev = rdev->on_netdev ? rcu_dereference(rdev->link.ndev) : NULL;
	if (ndev) {
		strscpy(name, ndev->name, IFNAMSIZ);
		*ifindex = ndev->ifindex;
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}

static struct oib_link_ops orxe_link_ops = {
	.type = "rxe",
	.owner = THIS_MODULE,
	.dev_ops = &orxe_dev_ops,
	.newlink = orxe_newlink,
	.dellink = orxe_dellink,
	.addr = orxe_addr,
	.port_netdev = orxe_port_netdev,
	.stats = orxe_link_stats,
};

/* Devices come from the link type (oib link add) or from oib_rxe_add(). */
static int __init orxe_init(void)
{
	int ret;

	ret = orxe_train_module_init();
	if (ret)
		return ret;
	ret = orxe_udp_init();
	if (ret)
		goto err_net;
	ret = orxe_link_init();
	if (ret)
		goto err_udp;
	ret = oib_link_register(&orxe_link_ops);
	if (ret)
		goto err_link;
	return 0;

err_link:
	orxe_link_exit();
err_udp:
	orxe_udp_exit();
err_net:
	orxe_train_module_exit();
	return ret;
}

module_init(orxe_init);

/* Devices on netdevs go first, with the notifiers (orxe_link_exit()); then the others. */
static void __exit orxe_exit(void)
{
	struct orxe_dev *rdev;

	oib_link_unregister(&orxe_link_ops);
	orxe_link_exit();
	while ((rdev = orxe_dev_unlist(NULL, NULL)))
		orxe_dev_remove(rdev, false);
	orxe_udp_exit();
	orxe_fabric_exit();
	orxe_train_module_exit();
}

module_exit(orxe_exit);
MODULE_DESCRIPTION("oib software RDMA device");
MODULE_LICENSE("GPL");
