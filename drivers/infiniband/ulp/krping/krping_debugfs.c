// SPDX-License-Identifier: GPL-2.0-only
/*
 * /sys/kernel/debug/oib_krping/: "ctl" takes one command per write (a test's options, or stop,
 * stop=ID, clear, wait, wait=ID), "stats" shows every test, one line each, as key=value words.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "krping.h"

static struct dentry *krping_dir;

static int krping_command(char *cmd)
{
	struct krping_opts o;
	int id, ret;

	cmd = strim(cmd);
	if (!strcmp(cmd, "stop"))
		return krping_stop(-1);
	if (!strncmp(cmd, "stop=", 5))
		return kstrtoint(cmd + 5, 10, &id) ?: id < 0 ? -EINVAL : krping_stop(id);
	if (!strcmp(cmd, "clear"))
		return krping_clear();
	if (!strcmp(cmd, "wait"))
		return krping_wait_all(-1);
	if (!strncmp(cmd, "wait=", 5))
		return kstrtoint(cmd + 5, 10, &id) ?: id < 0 ? -EINVAL : krping_wait_all(id);
	ret = krping_parse(cmd, &o);
	return ret ? ret : krping_start(&o);
}

static ssize_t krping_ctl_write(struct file *file, const char __user *ubuf, size_t len,
				loff_t *ppos)
{
	char *cmd;
	int ret;

	if (!len || len > KRPING_CMD_MAX)
		return -EINVAL;
	cmd = memdup_user_nul(ubuf, len);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	ret = krping_command(cmd);
	kfree(cmd);
	return ret ? ret : len;
}

static const struct file_operations krping_ctl_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = krping_ctl_write,
	.llseek = noop_llseek,
};

/* @v per second, to one decimal, from @n over @ns: "12.3". */
static void krping_show_rate(struct seq_file *m, const char *key, u64 n, u64 ns)
{
	u64 tenths = ns ? div64_u64(n * 10 * NSEC_PER_SEC, ns) : 0;

	seq_printf(m, " %s=%llu.%llu", key, tenths / 10, tenths % 10);
}

static void krping_show_test(struct seq_file *m, struct krping_test *t)
{
	struct krping_opts *o = &t->o;
	u64 n = t->iters;

	seq_printf(m, "%d %s mode=%s addr=%pISc port=%u size=%u count=%u state=%s cm=%s", t->id,
		   o->server ? "server" : "client", krping_mode_name(o->mode), &o->addr, o->port,
		   o->size, o->count, krping_state_name(READ_ONCE(t->state)),
		   t->state == KRPING_S_STARTING ? "-" : oib_cma_event_msg(t->cm_last));
	seq_printf(m, " iters=%llu bytes=%llu conns=%llu ns=%llu", n, t->bytes, t->conns, t->ns);
	krping_show_rate(m, "iters_per_s", n, t->ns);
	seq_printf(m, " mb_per_s=%llu", t->ns ? div64_u64(t->bytes * 1000, t->ns) : 0);
	if (n && t->rtt_sum)
		seq_printf(m, " rtt_ns=%llu/%llu/%llu", t->rtt_min, div64_u64(t->rtt_sum, n),
			   t->rtt_max);
	if (n && t->rtt_sum && o->mode == KRPING_WLAT)
		seq_printf(m, " lat_ns=%llu", div64_u64(t->rtt_sum, 2 * n));
	seq_printf(m, " step=%s result=%d\n", t->step, t->result);
}

static int krping_stats_show(struct seq_file *m, void *unused)
{
	struct krping_test *t;

	mutex_lock(&krping_lock);
	list_for_each_entry(t, &krping_tests, entry)
		krping_show_test(m, t);
	mutex_unlock(&krping_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(krping_stats);

int krping_debugfs_init(void)
{
	krping_dir = debugfs_create_dir("oib_krping", NULL);
	if (IS_ERR(krping_dir))
		return PTR_ERR(krping_dir);
	debugfs_create_file("ctl", 0200, krping_dir, NULL, &krping_ctl_fops);
	debugfs_create_file("stats", 0444, krping_dir, NULL, &krping_stats_fops);
	return 0;
}

/* After this no ctl write or stats read runs. */
void krping_debugfs_exit(void)
{
	debugfs_remove_recursive(krping_dir);
}
