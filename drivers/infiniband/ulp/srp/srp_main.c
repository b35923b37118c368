// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_srp: the SRP initiator (Documentation/srp.md).  Targets are added and removed through
 *   /sys/module/oib_srp/parameters/add_target	"ADDRESS PORT": log in, add a SCSI host
 *   /sys/module/oib_srp/parameters/remove_target	"ADDRESS PORT": remove it
 * or with the in-tree ib_srp's "id_ext=..,ioc_guid=..,dest=IP:PORT" (srp_options.c).  A write
 * returns when the host is there (its LUNs scanned) or gone; reading add_target lists the hosts,
 * one "ADDRESS PORT hostN STATE" a line.  Logins name the target port ID of id_ext and ioc_guid,
 * or "oib_srpt".
 * A lost connection is logged in again, its commands held until fail_timeout seconds passed.
 * The SRP wire (srp_wire_*.c) is exported for oib_srpt.
 */
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <net/net_namespace.h>
#include "srp_priv.h"

const u8 srp_target_port_id[16] __aligned(1) = "oib_srpt";

static DEFINE_MUTEX(srp_hosts_mutex);	/* srp_hosts, each host's entry */
static LIST_HEAD(srp_hosts);
struct workqueue_struct *srp_wq;	/* removal and reconnect works */

unsigned int srp_fail_timeout = 15;
unsigned int srp_ch_count = 4;

static int srp_set_fail_timeout(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (v < 1 || v > 3600)
		return -ERANGE;
	WRITE_ONCE(srp_fail_timeout, v);
	return 0;
}

static const struct kernel_param_ops srp_fail_timeout_ops = {
	.set = srp_set_fail_timeout,
	.get = param_get_uint,
};
module_param_cb(fail_timeout, &srp_fail_timeout_ops, &srp_fail_timeout, 0644);
MODULE_PARM_DESC(fail_timeout,
		 "seconds (1-3600) a lost target's commands wait for a new login before they fail");

static int srp_set_ch_count(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (v < 1 || v > SRP_MAX_CH)
		return -ERANGE;
	WRITE_ONCE(srp_ch_count, v);
	return 0;
}

static const struct kernel_param_ops srp_ch_count_ops = {
	.set = srp_set_ch_count,
	.get = param_get_uint,
};
module_param_cb(ch_count, &srp_ch_count_ops, &srp_ch_count, 0644);
MODULE_PARM_DESC(ch_count,
		 "RDMA channels (hardware queues) a host added next opens at most (1-16, default 4); fewer if the device has fewer completion vectors or fewer CPUs are online");

static bool srp_same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	size_t len = a->ss_family == AF_INET ? sizeof(struct sockaddr_in) :
					       sizeof(struct sockaddr_in6);

	return a->ss_family == b->ss_family && !memcmp(a, b, len);
}

static struct srp_host *srp_find_locked(const struct sockaddr_storage *ss)
{
	struct srp_host *h;

	list_for_each_entry(h, &srp_hosts, entry)
		if (srp_same_addr(&h->dst, ss))
			return h;
	return NULL;
}

static int srp_add_target(const char *val, const struct kernel_param *kp)
{
	struct srp_target_spec s;
	struct srp_host *h;
	int ret = srp_target_parse(val, &s);

	if (ret)
		return ret;
	mutex_lock(&srp_hosts_mutex);
	ret = srp_find_locked(&s.dst) ? -EEXIST : 0;
	if (!ret) {
		h = srp_host_add(&s);
		ret = PTR_ERR_OR_ZERO(h);
	}
	if (!ret)
		list_add_tail(&h->entry, &srp_hosts);
	mutex_unlock(&srp_hosts_mutex);
	return ret;
}

static int srp_list_targets(char *buf, const struct kernel_param *kp)
{
	struct srp_host *h;
	int n = 0;

	mutex_lock(&srp_hosts_mutex);
	list_for_each_entry(h, &srp_hosts, entry)
		n += sysfs_emit_at(buf, n, "%pISc %u host%u %s\n", &h->dst,
				   ntohs(((struct sockaddr_in *)&h->dst)->sin_port),
				   h->shost->host_no, srp_conn_state_name(READ_ONCE(h->state)));
	mutex_unlock(&srp_hosts_mutex);
	return n;
}

/* Not from the removal work: it may be queued until the connection is stopped. */
static void srp_host_remove_free(struct srp_host *h)
{
	srp_host_remove(h);
	cancel_work_sync(&h->removal_work);
	srp_host_free(h);
}

/* By the target's address and port, in either form add_target takes. */
static int srp_remove_target(const char *val, const struct kernel_param *kp)
{
	struct srp_target_spec s;
	struct srp_host *h;
	int ret = srp_target_parse(val, &s);

	if (ret)
		return ret;
	mutex_lock(&srp_hosts_mutex);
	h = srp_find_locked(&s.dst);
	if (h)
		list_del_init(&h->entry);
	mutex_unlock(&srp_hosts_mutex);
	if (!h)
		return -ENOENT;
	srp_host_remove_free(h);
	return 0;
}

/* The device under a host is going: the host goes with it (from the workqueue). */
static void srp_removal_work(struct work_struct *work)
{
	struct srp_host *h = container_of(work, struct srp_host, removal_work);
	bool mine;

	mutex_lock(&srp_hosts_mutex);
	mine = !list_empty(&h->entry);
	list_del_init(&h->entry);
	mutex_unlock(&srp_hosts_mutex);
	if (!mine)
		return;
	srp_host_remove(h);
	srp_host_free(h);
}

void srp_host_lost_device(struct srp_host *h)
{
	queue_work(srp_wq, &h->removal_work);
}

void srp_host_init_removal(struct srp_host *h)
{
	INIT_LIST_HEAD(&h->entry);
	INIT_WORK(&h->removal_work, srp_removal_work);
}

static const struct kernel_param_ops srp_add_ops = {
	.set = srp_add_target,
	.get = srp_list_targets,
};
module_param_cb(add_target, &srp_add_ops, NULL, 0644);
MODULE_PARM_DESC(add_target,
		 "\"ADDRESS PORT\" or \"id_ext=HEX,ioc_guid=HEX,dest=IP:PORT[,max_it_iu_size=N]\": log in to that target; read: the hosts");

static const struct kernel_param_ops srp_remove_ops = {
	.set = srp_remove_target,
};
module_param_cb(remove_target, &srp_remove_ops, NULL, 0200);
MODULE_PARM_DESC(remove_target, "\"ADDRESS PORT\" or \"...,dest=IP:PORT\": remove that target's host");

static int __init srp_init(void)
{
	srp_wq = alloc_workqueue("oib_srp", WQ_UNBOUND, 0);
	return srp_wq ? 0 : -ENOMEM;
}

static void __exit srp_exit(void)
{
	struct srp_host *h;

	for (;;) {
		mutex_lock(&srp_hosts_mutex);
		h = list_first_entry_or_null(&srp_hosts, struct srp_host, entry);
		if (h)
			list_del_init(&h->entry);
		mutex_unlock(&srp_hosts_mutex);
		if (!h)
			break;
		srp_host_remove_free(h);
	}
	destroy_workqueue(srp_wq);
}

module_init(srp_init);
module_exit(srp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("oib SRP initiator: SCSI hosts over oib_cma, and the SRP wire");
