// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_srpt: an SRP target over oib_cma (Documentation/srp.md).  One target of memory LUNs is
 * controlled through /sys/module/oib_srpt/parameters/target:
 *   echo "PORT NLUNS MIB" > target	listen on every address's PORT with NLUNS LUNs of MIB MiB
 *   echo "" > target			stop it
 * More targets, with LUNs of memory, files or block devices, are made through configfs
 * (srpt_configfs.c).  Logins name the target port ID of the device they arrive on (id_ext and
 * ioc_guid its node GUID, listed in /sys/kernel/debug/oib_srpt/port_ids: srpt_ids.c) or
 * "oib_srpt" (ASCII, zero padded).  /sys/kernel/debug/oib_srpt/target shows its counters and
 * channels; writing "reset" to it moves every live channel's QP to the error state (a fault for
 * the tests to recover from).
 */
#include <linux/debugfs.h>
#include <linux/in.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <oib/device.h>
#include "srpt_priv.h"

static DEFINE_MUTEX(srpt_param_mutex);	/* srpt_the_target, srpt_the_spec */
static struct srpt_target *srpt_the_target;
static char srpt_the_spec[64];

const u8 srpt_port_id[16] __aligned(1) = "oib_srpt";

static int srpt_target_set(const char *val, const struct kernel_param *kp)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct srpt_target *t = NULL;
	u32 port, nluns, mib;

	if (sysfs_streq(val, "")) {
		port = 0;
	} else if (sscanf(val, "%u %u %u", &port, &nluns, &mib) != 3 || !port ||
		   port > 65535 || mib > 4096) {
		return -EINVAL;
	}
	if (port) {
		sin.sin_port = htons(port);
		t = srpt_target_create((struct sockaddr *)&sin, srpt_port_id, nluns,
				       (u64)mib << 20);
		if (IS_ERR(t))
			return PTR_ERR(t);
	}
	mutex_lock(&srpt_param_mutex);
	swap(t, srpt_the_target);
	if (port)
		snprintf(srpt_the_spec, sizeof(srpt_the_spec), "%u %u %u", port, nluns, mib);
	else
		srpt_the_spec[0] = 0;
	mutex_unlock(&srpt_param_mutex);
	srpt_target_destroy(t);
	return 0;
}

static int srpt_target_get(char *buf, const struct kernel_param *kp)
{
	int n;

	mutex_lock(&srpt_param_mutex);
	n = sysfs_emit(buf, "%s\n", srpt_the_spec);
	mutex_unlock(&srpt_param_mutex);
	return n;
}

static const struct kernel_param_ops srpt_target_ops = {
	.set = srpt_target_set,
	.get = srpt_target_get,
};
module_param_cb(target, &srpt_target_ops, NULL, 0644);
MODULE_PARM_DESC(target, "\"PORT NLUNS MIB\": serve NLUNS memory LUNs of MIB MiB on PORT; \"\": stop");

static int srpt_debugfs_show(struct seq_file *m, void *unused)
{
	mutex_lock(&srpt_param_mutex);
	if (srpt_the_target)
		srpt_target_show(srpt_the_target, m);
	mutex_unlock(&srpt_param_mutex);
	return 0;
}

static int srpt_debugfs_open(struct inode *inode, struct file *file)
{
	return single_open(file, srpt_debugfs_show, NULL);
}

static ssize_t srpt_debugfs_write(struct file *file, const char __user *ubuf, size_t len,
				  loff_t *ppos)
{
	char buf[8] = {};
	int n = -ENODEV;

	if (len >= sizeof(buf) || copy_from_user(buf, ubuf, len))
		return -EINVAL;
	if (!sysfs_streq(buf, "reset"))
		return -EINVAL;
	mutex_lock(&srpt_param_mutex);
	if (srpt_the_target)
		n = srpt_target_reset(srpt_the_target);
	mutex_unlock(&srpt_param_mutex);
	return n < 0 ? n : len;
}

static const struct file_operations srpt_debugfs_fops = {
	.owner = THIS_MODULE,
	.open = srpt_debugfs_open,
	.read = seq_read,
	.write = srpt_debugfs_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static struct dentry *srpt_debugfs_dir;

static int __init srpt_init(void)
{
	int ret;

	srpt_wq = alloc_workqueue("oib_srpt", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!srpt_wq)
		return -ENOMEM;
	ret = oib_register_client(&srpt_ids_client);
	if (ret)
		goto err_wq;
	ret = srpt_configfs_init();
	if (ret)
		goto err_client;
	srpt_debugfs_dir = debugfs_create_dir("oib_srpt", NULL);
	debugfs_create_file("target", 0600, srpt_debugfs_dir, NULL, &srpt_debugfs_fops);
	srpt_ids_debugfs(srpt_debugfs_dir);
	return 0;
err_client:
	oib_unregister_client(&srpt_ids_client);
err_wq:
	destroy_workqueue(srpt_wq);
	return ret;
}

static void __exit srpt_exit(void)
{
	debugfs_remove_recursive(srpt_debugfs_dir);
	srpt_configfs_exit();
	srpt_target_destroy(srpt_the_target);
	oib_unregister_client(&srpt_ids_client);
	destroy_workqueue(srpt_wq);
}

module_init(srpt_init);
module_exit(srpt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("oib SRP target: memory LUNs over oib_cma");
