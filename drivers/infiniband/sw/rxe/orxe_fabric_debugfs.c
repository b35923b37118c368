// SPDX-License-Identifier: GPL-2.0-only
/*
 * /sys/kernel/debug/oib_rxe/fabrics/<name>/: seed (rw), faults (rw), rules (rw), ports (r) and
 * capture (rw).  The handlers take only the fabric's own locks, never orxe_fabrics_lock, under
 * which the directory is removed (debugfs waits for handlers still running).
 *
 * The oib_rxe directory is made here on first use if nobody made it (a later home for it may be the
 * module's init); the fabrics directory lives while there are fabrics.
 */
#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "orxe_fabric.h"

#define ORXE_CMD_MAX	256	/* bytes of a command written to faults, rules or capture */

/* Under orxe_fabrics_lock (orxe_fabric.c), which every caller here holds. */
static struct dentry *orxe_dbg_root;	/* oib_rxe, if we made it */
static struct dentry *orxe_dbg_fabrics;	/* oib_rxe/fabrics */

static struct dentry *orxe_debugfs_fabrics_dir(void)
{
	struct dentry *root;

	if (orxe_dbg_fabrics)
		return orxe_dbg_fabrics;
	root = debugfs_lookup("oib_rxe", NULL);
	if (root) {
		dput(root);	/* its owner keeps it */
	} else {
		orxe_dbg_root = debugfs_create_dir("oib_rxe", NULL);
		root = orxe_dbg_root;
	}
	orxe_dbg_fabrics = debugfs_create_dir("fabrics", root);
	return orxe_dbg_fabrics;
}

/* ---- seed ---- */

static int orxe_seed_get(void *data, u64 *val)
{
	*val = oib_rxe_fabric_get_seed(data);
	return 0;
}

static int orxe_seed_set(void *data, u64 val)
{
	oib_rxe_fabric_set_seed(data, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(orxe_seed_fops, orxe_seed_get, orxe_seed_set, "%llu\n");

/* ---- commands ---- */

static ssize_t orxe_dbg_command(struct file *file, const char __user *ubuf, size_t count,
				int (*cmd)(struct orxe_fabric *f, char *text))
{
	struct orxe_fabric *f = file_inode(file)->i_private;
	char *text;
	int ret;

	if (count > ORXE_CMD_MAX)
		return -EINVAL;
	text = memdup_user_nul(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	ret = cmd(f, text);
	kfree(text);
	return ret ?: count;
}

/* ---- faults ---- */

static int orxe_faults_show(struct seq_file *m, void *v)
{
	struct orxe_fabric *f = m->private;
	struct orxe_fabric_port *fp;
	struct orxe_fault_cfg cfg;
	unsigned long flags;
	bool own;

	oib_rxe_fabric_get_faults(f, NULL, &cfg);
	orxe_fault_show_cfg(m, &cfg);
	mutex_lock(&f->lock);
	list_for_each_entry(fp, &f->ports, list) {
		spin_lock_irqsave(&f->fault_lock, flags);
		own = fp->has_cfg;
		cfg = fp->cfg;
		spin_unlock_irqrestore(&f->fault_lock, flags);
		if (own) {
			seq_printf(m, "port=%pM ", fp->mac);
			orxe_fault_show_cfg(m, &cfg);
		}
	}
	mutex_unlock(&f->lock);
	return 0;
}

static int orxe_faults_open(struct inode *inode, struct file *file)
{
	return single_open(file, orxe_faults_show, inode->i_private);
}

static ssize_t orxe_faults_write(struct file *file, const char __user *ubuf, size_t count,
				 loff_t *ppos)
{
	return orxe_dbg_command(file, ubuf, count, oib_rxe_fabric_parse_faults);
}

static const struct file_operations orxe_faults_fops = {
	.owner = THIS_MODULE,
	.open = orxe_faults_open,
	.read = seq_read,
	.write = orxe_faults_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ---- rules ---- */

static int orxe_rules_show(struct seq_file *m, void *v)
{
	orxe_fault_show_rules(m, m->private);
	return 0;
}

static int orxe_rules_open(struct inode *inode, struct file *file)
{
	return single_open(file, orxe_rules_show, inode->i_private);
}

static ssize_t orxe_rules_write(struct file *file, const char __user *ubuf, size_t count,
				loff_t *ppos)
{
	return orxe_dbg_command(file, ubuf, count, oib_rxe_fabric_parse_rule);
}

static const struct file_operations orxe_rules_fops = {
	.owner = THIS_MODULE,
	.open = orxe_rules_open,
	.read = seq_read,
	.write = orxe_rules_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ---- ports ---- */

static int orxe_ports_show(struct seq_file *m, void *v)
{
	struct orxe_fabric *f = m->private;
	struct orxe_capture_stats cs;
	struct orxe_fabric_stats st;
	struct orxe_fabric_port *fp;
	struct orxe_fabric_addr *a;
	int i;

	oib_rxe_fabric_capture_stats(f, &cs);
	seq_printf(m, "capture: %s, %llu records, %zu of %zu bytes, %llu dropped\n",
		   cs.on ? "on" : "off", cs.records, cs.used, cs.size, cs.dropped);
	mutex_lock(&f->lock);
	list_for_each_entry(fp, &f->ports, list) {
		seq_printf(m, "port %pM\n", fp->mac);
		list_for_each_entry(a, &fp->addrs, port_list)
			seq_printf(m, "  gid %pI6c\n", a->gid.raw);
		oib_rxe_fabric_port_stats(fp, &st);
		for (i = 0; i < ORXE_FSTAT_NUM; i++)
			seq_printf(m, "  %s %llu\n", orxe_fabric_stat_names[i], st.v[i]);
	}
	mutex_unlock(&f->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(orxe_ports);

/* ---- capture ---- */

static int orxe_capture_command(struct orxe_fabric *f, char *text)
{
	char *cmd = strim(text), *arg;
	unsigned long max = 0;
	int ret;

	arg = strpbrk(cmd, " \t");
	if (arg) {
		*arg++ = '\0';
		arg = skip_spaces(arg);
	}
	if (!strcmp(cmd, "start")) {
		if (arg && *arg) {
			ret = kstrtoul(arg, 0, &max);
			if (ret)
				return ret;
			if (!max)
				return -EINVAL;
		}
		return oib_rxe_fabric_capture_start(f, max);
	}
	if (!strcmp(cmd, "stop") && !arg) {
		oib_rxe_fabric_capture_stop(f);
		return 0;
	}
	return -EINVAL;
}

static ssize_t orxe_capture_write(struct file *file, const char __user *ubuf, size_t count,
				  loff_t *ppos)
{
	return orxe_dbg_command(file, ubuf, count, orxe_capture_command);
}

static ssize_t orxe_capture_fread(struct file *file, char __user *ubuf, size_t count,
				  loff_t *ppos)
{
	struct orxe_fabric *f = file_inode(file)->i_private;
	size_t chunk = min_t(size_t, count, 64 * 1024);
	ssize_t n;
	void *buf;

	if (!chunk)
		return 0;
	buf = kvmalloc(chunk, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	n = oib_rxe_fabric_capture_read(f, buf, chunk, ppos);
	if (n > 0 && copy_to_user(ubuf, buf, n)) {
		*ppos -= n;
		n = -EFAULT;
	}
	kvfree(buf);
	return n;
}

static const struct file_operations orxe_capture_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = orxe_capture_fread,
	.write = orxe_capture_write,
	.llseek = default_llseek,
};

/* ---- the directory ---- */

void orxe_fabric_debugfs_add(struct orxe_fabric *f)
{
	struct dentry *d = debugfs_create_dir(f->name, orxe_debugfs_fabrics_dir());

	f->debugfs = d;
	debugfs_create_file_unsafe("seed", 0600, d, f, &orxe_seed_fops);
	debugfs_create_file("faults", 0600, d, f, &orxe_faults_fops);
	debugfs_create_file("rules", 0600, d, f, &orxe_rules_fops);
	debugfs_create_file("ports", 0400, d, f, &orxe_ports_fops);
	debugfs_create_file("capture", 0600, d, f, &orxe_capture_fops);
}

/* last: f was the last fabric; the fabrics directory (and oib_rxe, if ours) goes too. */
void orxe_fabric_debugfs_remove(struct orxe_fabric *f, bool last)
{
	debugfs_remove_recursive(f->debugfs);
	f->debugfs = NULL;
	if (!last)
		return;
	debugfs_remove_recursive(orxe_dbg_fabrics);
	orxe_dbg_fabrics = NULL;
	debugfs_remove_recursive(orxe_dbg_root);
	orxe_dbg_root = NULL;
}
