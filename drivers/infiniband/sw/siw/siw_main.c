// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_siw: the module, and devices on network devices.  `oib link add NAME type siw netdev
 * NETDEV`, from inside NETDEV's namespace, makes the RNIC NAME on it (oib_siw_add(), through the
 * link type "siw"); `oib link delete NAME` removes it.  A device has one port, ACTIVE while the
 * netdev is up with carrier; its GIDs are the netdev's IPv4 (as IPv4-mapped) and IPv6 addresses,
 * kept in line by the address notifiers; it goes when the netdev is unregistered (also when it
 * leaves its namespace).  Its connections are TCP sockets of the netdev's namespace.
 * /sys/kernel/debug/oib/<device>/siw has its counters.
 */
#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rtnetlink.h>
#include <linux/seq_file.h>
#include <net/addrconf.h>
#include <net/net_namespace.h>
#include <oib/link.h>
#include "siw.h"

#define SIW_MAX_GID	16

struct workqueue_struct *siw_wq;

/* The devices: changed under the mutex (inside RTNL), read under RCU by the notifiers. */
static DEFINE_MUTEX(siw_devices_lock);
static LIST_HEAD(siw_devices);

struct net *siw_dev_net(struct siw_dev *sdev)
{
	struct net_device *ndev = rcu_dereference(sdev->ndev);

	return ndev ? dev_net(ndev) : NULL;
}

static void siw_set_attrs(struct siw_dev *sdev)
{
	struct oib_device_attr *a = &sdev->attr;

	a->fw_ver = 1;
	a->max_mr_size = U64_MAX;
	a->page_size_cap = PAGE_SIZE;
	a->vendor_id = 0x626d74;	/* as the in-tree siw: "bmt" */
	a->max_qp = 1024;
	a->max_qp_wr = SIW_MAX_QP_WR;
	a->device_cap_flags = OIB_DEVICE_MEM_MGT_EXTENSIONS;
	a->max_send_sge = SIW_MAX_SGE;
	a->max_recv_sge = SIW_MAX_SGE;
	a->max_cq = 2048;
	a->max_cqe = 65536;
	a->max_mr = 65536;
	a->max_pd = 1024;
	a->max_qp_rd_atom = SIW_MAX_ORD;
	a->max_qp_init_rd_atom = SIW_MAX_ORD;
	a->max_inline_data = SIW_MAX_INLINE;
	a->max_pkeys = 1;
	a->num_comp_vectors = 1;
	a->max_fast_reg_page_list_len = SIW_MAX_FAST_REG_PAGES;
}

/* GIDs: the netdev's addresses (oib_core's helper) */
static void siw_gid_work(struct work_struct *work)
{
	struct siw_dev *sdev = container_of(work, struct siw_dev, gid_work);

	oib_sw_netdev_follow_gids(&sdev->ib, 1, 0, SIW_MAX_GID, &sdev->ndev);
}

/* ---- Devices ---- */

static void siw_dev_remove_work(struct work_struct *work)
{
	oib_siw_remove(&container_of(work, struct siw_dev, remove_work)->ib);
}

/* Let the netdev go (held since oib_siw_add()). */
static void siw_dev_drop_netdev(struct siw_dev *sdev, struct net_device *ndev)
{
	RCU_INIT_POINTER(sdev->ndev, NULL);
	synchronize_net();
	netdev_put(ndev, &sdev->tracker);
}

/* Stop following the netdev; under RTNL. */
static void siw_dev_unbind(struct siw_dev *sdev)
{
	struct net_device *ndev = rtnl_dereference(sdev->ndev);

	ASSERT_RTNL();
	if (!ndev)
		return;
	siw_dev_drop_netdev(sdev, ndev);
	oib_dispatch_port_event(&sdev->ib, 1, OIB_EVENT_PORT_ERR);
}

/*
 * Join the device list, the netdev (held, in @sdev->ndev since before registration) still
 * registered and no other device's.
 */
static int siw_dev_bind(struct siw_dev *sdev, struct net_device *ndev)
{
	struct siw_dev *other;
	int ret = 0;

	rtnl_lock();
	mutex_lock(&siw_devices_lock);
	list_for_each_entry(other, &siw_devices, entry)
		if (rcu_access_pointer(other->ndev) == ndev)
			ret = -EBUSY;
	if (ndev->reg_state != NETREG_REGISTERED)
		ret = -ENODEV;
	if (!ret) {
		list_add_tail_rcu(&sdev->entry, &siw_devices);
		queue_work(siw_wq, &sdev->gid_work);
	}
	mutex_unlock(&siw_devices_lock);
	rtnl_unlock();
	return ret;
}

static int stats_show(struct seq_file *m, void *v);
DEFINE_SHOW_ATTRIBUTE(stats);

struct oib_device *oib_siw_add(const char *name, struct net_device *ndev)
{
	struct siw_dev *sdev;
	struct oib_device *ib;
	u8 eui[8];
	int ret;

	if (!ndev || (name && !*name))
		return ERR_PTR(-EINVAL);
	ib = oib_alloc_device(&siw_dev_ops, sizeof(*sdev));
	if (!ib)
		return ERR_PTR(-ENOMEM);
	sdev = to_sdev(ib);
	INIT_LIST_HEAD(&sdev->entry);
	INIT_WORK(&sdev->gid_work, siw_gid_work);
	INIT_WORK(&sdev->remove_work, siw_dev_remove_work);
	oib_sw_mr_table_init(&sdev->mr_keys);
	siw_set_attrs(sdev);
	ib->node_type = OIB_NODE_RNIC;
	ib->phys_port_cnt = 1;
	memset(eui, 0, sizeof(eui));
	if (ndev->addr_len == ETH_ALEN) {
		memcpy(eui, ndev->dev_addr, 3);
		eui[3] = 0xff;
		eui[4] = 0xfe;
		memcpy(eui + 5, ndev->dev_addr + 3, 3);
	}
	memcpy(&ib->node_guid, eui, sizeof(eui));
	/* its namespace from the start: the CMA's listeners come while it registers */
	netdev_hold(ndev, &sdev->tracker, GFP_KERNEL);
	rcu_assign_pointer(sdev->ndev, ndev);
	ret = oib_register_device(ib, name ?: "oib_siw%d");
	if (ret)
		goto drop;
	debugfs_create_file("siw", 0444, ib->debugfs, sdev, &stats_fops);
	ret = siw_dev_bind(sdev, ndev);
	if (!ret)
		return ib;
	oib_unregister_device(ib);
	wait_var_event(&sdev->nconns, !atomic_read(&sdev->nconns));
drop:
	siw_dev_drop_netdev(sdev, ndev);
	oib_dealloc_device(ib);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL(oib_siw_add);

/*
 * Take @sdev, or the device named @name, off the list and stop it following its netdev; NULL
 * when it is not there (someone else removes it).  Whoever takes it off tears it down.
 */
static struct siw_dev *siw_dev_unlist(struct siw_dev *sdev, const char *name)
{
	struct siw_dev *d, *found = NULL;

	rtnl_lock();
	mutex_lock(&siw_devices_lock);
	list_for_each_entry(d, &siw_devices, entry)
		if (d == sdev || (name && !strcmp(dev_name(&d->ib.dev), name)))
			found = d;
	if (found) {
		list_del_rcu(&found->entry);
		INIT_LIST_HEAD(&found->entry);
	}
	mutex_unlock(&siw_devices_lock);
	if (found)
		siw_dev_unbind(found);
	rtnl_unlock();
	return found;
}

static void siw_dev_teardown(struct siw_dev *sdev)
{
	synchronize_rcu();
	cancel_work_sync(&sdev->gid_work);
	if (current_work() != &sdev->remove_work)
		cancel_work_sync(&sdev->remove_work);
	oib_unregister_device(&sdev->ib);
	wait_var_event(&sdev->nconns, !atomic_read(&sdev->nconns));
	oib_sw_mr_table_destroy(&sdev->mr_keys);
	oib_dealloc_device(&sdev->ib);
}

void oib_siw_remove(struct oib_device *ib)
{
	struct siw_dev *sdev = siw_dev_unlist(to_sdev(ib), NULL);

	if (sdev)
		siw_dev_teardown(sdev);
}
EXPORT_SYMBOL(oib_siw_remove);

/* ---- Counters ---- */

static const char * const siw_stat_names[OIB_SIW_NSTATS] = {
	[OIB_SIW_TX_FPDUS] = "tx_fpdus",
	[OIB_SIW_TX_BYTES] = "tx_bytes",
	[OIB_SIW_RX_FPDUS] = "rx_fpdus",
	[OIB_SIW_RX_BYTES] = "rx_bytes",
	[OIB_SIW_RX_CRC_ERRORS] = "rx_crc_errors",
	[OIB_SIW_RX_MALFORMED] = "rx_malformed",
	[OIB_SIW_RX_ACCESS_ERRORS] = "rx_access_errors",
	[OIB_SIW_RX_NO_RECV] = "rx_no_recv",
	[OIB_SIW_TX_TERMINATES] = "tx_terminates",
	[OIB_SIW_RX_TERMINATES] = "rx_terminates",
	[OIB_SIW_MPA_REQUESTS] = "mpa_requests",
	[OIB_SIW_MPA_REJECTS] = "mpa_rejects",
	[OIB_SIW_MPA_ERRORS] = "mpa_errors",
	[OIB_SIW_CONNECTIONS] = "connections",
	[OIB_SIW_RESETS] = "resets",
};

static int stats_show(struct seq_file *m, void *v)
{
	struct siw_dev *sdev = m->private;
	struct net_device *ndev;
	int i;

	rcu_read_lock();
	ndev = rcu_dereference(sdev->ndev);
	seq_printf(m, "%-18s %s\n", "netdev", ndev ? ndev->name : "none");
	rcu_read_unlock();
	for (i = 0; i < OIB_SIW_NSTATS; i++)
		seq_printf(m, "%-18s %llu\n", siw_stat_names[i],
			   (u64)atomic64_read(&sdev->stats[i]));
	return 0;
}

/* The link type's stats op: the device's counters (for port 0; its port has none apart). */
static int siw_link_stats(struct oib_device *ib, u32 port, const char *const **names,
			  u64 *values, int max)
{
	struct siw_dev *sdev = to_sdev(ib);
	int i;

	if (port)
		return 0;
	*names = siw_stat_names;
	for (i = 0; i < OIB_SIW_NSTATS && i < max; i++)
		values[i] = atomic64_read(&sdev->stats[i]);
	return i;
}

u64 oib_siw_stat(struct oib_device *ib, enum oib_siw_stat stat)
{
	if (!ib || ib->ops != &siw_dev_ops || stat >= OIB_SIW_NSTATS)
		return 0;
	return atomic64_read(&to_sdev(ib)->stats[stat]);
}
EXPORT_SYMBOL(oib_siw_stat);

/* ---- Notifiers ---- */

static struct siw_dev *siw_dev_of_rcu(struct net_device *ndev)
{
	struct siw_dev *sdev;

	list_for_each_entry_rcu(sdev, &siw_devices, entry)
		if (rcu_access_pointer(sdev->ndev) == ndev)
			return sdev;
	return NULL;
}

static int siw_netdev_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct siw_dev *sdev;

	rcu_read_lock();
	sdev = siw_dev_of_rcu(ndev);
	rcu_read_unlock();
	if (!sdev)
		return NOTIFY_DONE;
	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		oib_dispatch_port_event(&sdev->ib, 1, netif_running(ndev) && netif_oper_up(ndev) ?
					OIB_EVENT_PORT_ACTIVE : OIB_EVENT_PORT_ERR);
		break;
	case NETDEV_UNREGISTER:
		siw_dev_unbind(sdev);
		queue_work(siw_wq, &sdev->remove_work);
		break;
	}
	return NOTIFY_DONE;
}

static void siw_addr_changed(struct net_device *ndev)
{
	struct siw_dev *sdev;

	rcu_read_lock();
	sdev = siw_dev_of_rcu(ndev);
	if (sdev)
		queue_work(siw_wq, &sdev->gid_work);
	rcu_read_unlock();
}

static int siw_inet_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	siw_addr_changed(((struct in_ifaddr *)ptr)->ifa_dev->dev);
	return NOTIFY_DONE;
}

static int siw_inet6_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	siw_addr_changed(((struct inet6_ifaddr *)ptr)->idev->dev);
	return NOTIFY_DONE;
}

static struct notifier_block siw_netdev_nb = { .notifier_call = siw_netdev_event };
static struct notifier_block siw_inet_nb = { .notifier_call = siw_inet_event };
static struct notifier_block siw_inet6_nb = { .notifier_call = siw_inet6_event };

/* ---- The link type "siw": oib link add NAME type siw netdev DEV ---- */

static int siw_newlink(const struct oib_link_params *p, struct netlink_ext_ack *extack)
{
	struct oib_device *ib;

	if (p->num_ports > 1) {
		NL_SET_ERR_MSG(extack, "an oib_siw device has one port");
		return -EINVAL;
	}
	ib = oib_siw_add(p->name, p->netdev);
	if (IS_ERR(ib) && PTR_ERR(ib) == -EBUSY)
		NL_SET_ERR_MSG(extack, "the netdev has an oib_siw device already");
	return PTR_ERR_OR_ZERO(ib);
}

static int siw_dellink(const char *name, struct netlink_ext_ack *extack)
{
	struct siw_dev *sdev = siw_dev_unlist(NULL, name);

	if (!sdev)
		return -ENODEV;
	siw_dev_teardown(sdev);
	return 0;
}

static int siw_port_netdev(struct oib_device *ib, u32 port, char *name, int *ifindex)
{
	struct net_device *ndev;
	int ret = -ENODEV;

	rcu_read_lock();
	ndev = rcu_dereference(to_sdev(ib)->ndev);
	if (ndev) {
		strscpy(name, ndev->name, IFNAMSIZ);
		*ifindex = ndev->ifindex;
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}

static struct oib_link_ops siw_link_ops = {
	.type = "siw",
	.owner = THIS_MODULE,
	.dev_ops = &siw_dev_ops,
	.needs_netdev = true,
	.newlink = siw_newlink,
	.dellink = siw_dellink,
	.port_netdev = siw_port_netdev,
	.stats = siw_link_stats,
};

static int __init siw_init(void)
{
	int ret;

	siw_wq = alloc_workqueue("oib_siw", WQ_UNBOUND, 0);
	if (!siw_wq)
		return -ENOMEM;
	ret = register_netdevice_notifier(&siw_netdev_nb);
	if (ret)
		goto err_wq;
	ret = register_inetaddr_notifier(&siw_inet_nb);
	if (ret)
		goto err_netdev;
	ret = register_inet6addr_notifier(&siw_inet6_nb);
	if (ret)
		goto err_inet;
	ret = oib_link_register(&siw_link_ops);
	if (ret)
		goto err_inet6;
	return 0;
err_inet6:
	unregister_inet6addr_notifier(&siw_inet6_nb);
err_inet:
	unregister_inetaddr_notifier(&siw_inet_nb);
err_netdev:
	unregister_netdevice_notifier(&siw_netdev_nb);
err_wq:
	destroy_workqueue(siw_wq);
	return ret;
}

/* Unregistering the netdev notifier replays NETDEV_UNREGISTER: every device's removal queued. */
static void __exit siw_exit(void)
{
	oib_link_unregister(&siw_link_ops);
	unregister_inet6addr_notifier(&siw_inet6_nb);
	unregister_inetaddr_notifier(&siw_inet_nb);
	unregister_netdevice_notifier(&siw_netdev_nb);
	flush_workqueue(siw_wq);	/* the devices' removals */
	siw_cm_exit();
	destroy_workqueue(siw_wq);
}

module_init(siw_init);
module_exit(siw_exit);
MODULE_DESCRIPTION("oib software iWARP device");
MODULE_LICENSE("GPL");
