// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_srp: the SRP initiator (Documentation/srp.md), and its list of targets.  A target is added
 * through a port's /sys/class/oib_srp/srp-<oibdev>-<port>/add_target ("ADDRESS PORT", or the
 * in-tree ib_srp's "id_ext=..,ioc_guid=..,dest=IP:PORT", srp_options.c) and removed through its
 * SCSI host's /sys/class/scsi_host/hostN/remove_target (srp_host_attr.c); both writes return
 * when the host is there (its LUNs scanned) or gone.  Logins name the target port ID of id_ext
 * and ioc_guid, or "oib_srpt".  A lost connection is logged in again, its commands held until
 * fail_timeout seconds passed.  The SRP wire (srp_wire_*.c) is exported for oib_srpt.
 *
 * Whoever takes a host off srp_hosts (under srp_hosts_mutex) removes and frees it: remove_target,
 * the port's removal, the removal work (the device went under a host made without a port), the
 * module's exit.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>
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

/* Log in to @s's target, through s->port: 0 once its host is added; -EEXIST: it has one. */
int srp_target_add(const struct srp_target_spec *s)
{
	struct srp_host *h;
	int ret;

	mutex_lock(&srp_hosts_mutex);
	ret = srp_find_locked(&s->dst) ? -EEXIST : 0;
	if (!ret) {
		h = srp_host_add(s);
		ret = PTR_ERR_OR_ZERO(h);
	}
	if (!ret)
		list_add_tail(&h->entry, &srp_hosts);
	mutex_unlock(&srp_hosts_mutex);
	return ret;
}

/* The hosts made through @p, one "DEST hostN STATE" a line, into a sysfs page. */
ssize_t srp_targets_list(struct srp_port *p, char *buf)
{
	struct srp_host *h;
	int n = 0;

	mutex_lock(&srp_hosts_mutex);
	list_for_each_entry(h, &srp_hosts, entry)
		if (h->port == p)
			n += sysfs_emit_at(buf, n, "%pISpc host%u %s\n", &h->dst,
					   h->shost->host_no,
					   srp_conn_state_name(READ_ONCE(h->state)));
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

/* @h taken off the list: true if it was there (the caller removes it). */
static bool srp_host_take(struct srp_host *h)
{
	bool mine;

	mutex_lock(&srp_hosts_mutex);
	mine = !list_empty(&h->entry);
	list_del_init(&h->entry);
	mutex_unlock(&srp_hosts_mutex);
	return mine;
}

/* remove_target: 0 once @h is gone; -ENOENT if another remover has it. */
int srp_target_remove(struct srp_host *h)
{
	if (!srp_host_take(h))
		return -ENOENT;
	srp_host_remove_free(h);
	return 0;
}

/* The first host made through @p (or any, @p NULL) taken off the list, or NULL. */
static struct srp_host *srp_take_next(struct srp_port *p)
{
	struct srp_host *h, *found = NULL;

	mutex_lock(&srp_hosts_mutex);
	list_for_each_entry(h, &srp_hosts, entry) {
		if (!p || h->port == p) {
			found = h;
			list_del_init(&h->entry);
			break;
		}
	}
	mutex_unlock(&srp_hosts_mutex);
	return found;
}

/* @p's device goes: every host made through it (those another remover took: srp_port.c). */
void srp_targets_remove_port(struct srp_port *p)
{
	struct srp_host *h;

	while ((h = srp_take_next(p)))
		srp_host_remove_free(h);
}

/* The device under a host is going: the host goes with it (from the workqueue). */
static void srp_removal_work(struct work_struct *work)
{
	struct srp_host *h = container_of(work, struct srp_host, removal_work);

	if (!srp_host_take(h))
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

static int __init srp_init(void)
{
	int ret;

	srp_wq = alloc_workqueue("oib_srp", WQ_UNBOUND, 0);
	if (!srp_wq)
		return -ENOMEM;
	ret = srp_ports_init();
	if (ret)
		destroy_workqueue(srp_wq);
	return ret;
}

/* The ports with their hosts, then any host made without a port (the KUnit suites'). */
static void __exit srp_exit(void)
{
	struct srp_host *h;

	srp_ports_exit();
	while ((h = srp_take_next(NULL)))
		srp_host_remove_free(h);
	destroy_workqueue(srp_wq);
}

module_init(srp_init);
module_exit(srp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("oib SRP initiator: SCSI hosts over oib_cma, and the SRP wire");
