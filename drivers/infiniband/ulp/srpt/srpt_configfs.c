// SPDX-License-Identifier: GPL-2.0-only
/*
 * Targets made through configfs (Documentation/srp.md):
 *   /sys/kernel/config/oib_srpt/NAME/		mkdir: a target, not serving yet
 *   /sys/kernel/config/oib_srpt/NAME/port	the port it listens on (every address)
 *   /sys/kernel/config/oib_srpt/NAME/N/	mkdir: LUN N (0-255; 16 at most)
 *   /sys/kernel/config/oib_srpt/NAME/N/path	a regular file or a block device to serve, or
 *   /sys/kernel/config/oib_srpt/NAME/N/size_mib	memory of that size
 *   /sys/kernel/config/oib_srpt/NAME/enable	1: listen and serve the LUNs as they are; 0: stop
 * While a target is enabled its port and LUNs cannot be changed (-EBUSY); a LUN removed meanwhile
 * goes at the next enable.  Removing the target stops it.  While anything is there the module
 * stays (configfs holds it).
 */
#include <linux/configfs.h>
#include <linux/in.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "srpt_priv.h"

static DEFINE_MUTEX(srpt_cfs_mutex);	/* every configfs target's and LUN's fields */

struct srpt_cfs_target {
	struct config_group group;
	struct list_head luns;		/* srpt_cfs_lun.entry */
	u32 nluns;
	u16 port;
	struct srpt_target *t;		/* enabled: serving */
};

struct srpt_cfs_lun {
	struct config_item item;
	struct srpt_cfs_target *ct;
	struct list_head entry;
	u64 lun;
	char *path;			/* kmalloc'd, or NULL */
	u32 mib;
};

static struct srpt_cfs_target *to_ct(struct config_item *item)
{
	return container_of(to_config_group(item), struct srpt_cfs_target, group);
}

static struct srpt_cfs_lun *to_cl(struct config_item *item)
{
	return container_of(item, struct srpt_cfs_lun, item);
}

/* ---- A LUN ---- */

static ssize_t srpt_cfs_lun_path_show(struct config_item *item, char *page)
{
	ssize_t n;

	mutex_lock(&srpt_cfs_mutex);
	n = sysfs_emit(page, "%s\n", to_cl(item)->path ?: "");
	mutex_unlock(&srpt_cfs_mutex);
	return n;
}

static ssize_t srpt_cfs_lun_path_store(struct config_item *item, const char *page, size_t len)
{
	struct srpt_cfs_lun *cl = to_cl(item);
	char *path = kstrndup(page, len, GFP_KERNEL);
	ssize_t ret = len;

	if (!path)
		return -ENOMEM;
	strim(path);
	mutex_lock(&srpt_cfs_mutex);
	if (cl->ct->t) {
		ret = -EBUSY;
	} else {
		swap(cl->path, path);
		if (!*cl->path) {
			kfree(cl->path);
			cl->path = NULL;
		}
	}
	mutex_unlock(&srpt_cfs_mutex);
	kfree(path);
	return ret;
}

static ssize_t srpt_cfs_lun_size_mib_show(struct config_item *item, char *page)
{
	ssize_t n;

	mutex_lock(&srpt_cfs_mutex);
	n = sysfs_emit(page, "%u\n", to_cl(item)->mib);
	mutex_unlock(&srpt_cfs_mutex);
	return n;
}

static ssize_t srpt_cfs_lun_size_mib_store(struct config_item *item, const char *page,
					   size_t len)
{
	struct srpt_cfs_lun *cl = to_cl(item);
	ssize_t ret = len;
	u32 mib;

	if (kstrtou32(page, 0, &mib) || mib > 4096)
		return -EINVAL;
	mutex_lock(&srpt_cfs_mutex);
	if (cl->ct->t)
		ret = -EBUSY;
	else
		cl->mib = mib;
	mutex_unlock(&srpt_cfs_mutex);
	return ret;
}

CONFIGFS_ATTR(srpt_cfs_lun_, path);
CONFIGFS_ATTR(srpt_cfs_lun_, size_mib);

static struct configfs_attribute *srpt_cfs_lun_attrs[] = {
	&srpt_cfs_lun_attr_path,
	&srpt_cfs_lun_attr_size_mib,
	NULL,
};

static void srpt_cfs_lun_release(struct config_item *item)
{
	struct srpt_cfs_lun *cl = to_cl(item);

	kfree(cl->path);
	kfree(cl);
}

static struct configfs_item_operations srpt_cfs_lun_ops = {
	.release = srpt_cfs_lun_release,
};

static const struct config_item_type srpt_cfs_lun_type = {
	.ct_item_ops = &srpt_cfs_lun_ops,
	.ct_attrs = srpt_cfs_lun_attrs,
	.ct_owner = THIS_MODULE,
};

/* ---- A target ---- */

static struct config_item *srpt_cfs_lun_make(struct config_group *group, const char *name)
{
	struct srpt_cfs_target *ct = to_ct(&group->cg_item);
	struct srpt_cfs_lun *cl;
	u64 lun;

	if (kstrtou64(name, 10, &lun) || lun >= SRPT_MAX_LUN)
		return ERR_PTR(-EINVAL);
	cl = kzalloc(sizeof(*cl), GFP_KERNEL);
	if (!cl)
		return ERR_PTR(-ENOMEM);
	cl->ct = ct;
	cl->lun = lun;
	mutex_lock(&srpt_cfs_mutex);
	if (ct->nluns >= SRPT_MAX_LUNS) {
		mutex_unlock(&srpt_cfs_mutex);
		kfree(cl);
		return ERR_PTR(-ENOSPC);
	}
	list_add_tail(&cl->entry, &ct->luns);
	ct->nluns++;
	mutex_unlock(&srpt_cfs_mutex);
	config_item_init_type_name(&cl->item, name, &srpt_cfs_lun_type);
	return &cl->item;
}

static void srpt_cfs_lun_drop(struct config_group *group, struct config_item *item)
{
	struct srpt_cfs_lun *cl = to_cl(item);

	mutex_lock(&srpt_cfs_mutex);
	list_del(&cl->entry);
	cl->ct->nluns--;
	mutex_unlock(&srpt_cfs_mutex);
	config_item_put(item);
}

static ssize_t srpt_cfs_target_port_show(struct config_item *item, char *page)
{
	ssize_t n;

	mutex_lock(&srpt_cfs_mutex);
	n = sysfs_emit(page, "%u\n", to_ct(item)->port);
	mutex_unlock(&srpt_cfs_mutex);
	return n;
}

static ssize_t srpt_cfs_target_port_store(struct config_item *item, const char *page,
					  size_t len)
{
	struct srpt_cfs_target *ct = to_ct(item);
	ssize_t ret = len;
	u16 port;

	if (kstrtou16(page, 0, &port) || !port)
		return -EINVAL;
	mutex_lock(&srpt_cfs_mutex);
	if (ct->t)
		ret = -EBUSY;
	else
		ct->port = port;
	mutex_unlock(&srpt_cfs_mutex);
	return ret;
}

static ssize_t srpt_cfs_target_enable_show(struct config_item *item, char *page)
{
	ssize_t n;

	mutex_lock(&srpt_cfs_mutex);
	n = sysfs_emit(page, "%d\n", !!to_ct(item)->t);
	mutex_unlock(&srpt_cfs_mutex);
	return n;
}

/* The target as configured, serving; under srpt_cfs_mutex. */
static int srpt_cfs_start_locked(struct srpt_cfs_target *ct)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(ct->port) };
	struct srpt_lun_spec *spec;
	struct srpt_cfs_lun *cl;
	struct srpt_target *t;
	u32 n = 0;

	lockdep_assert_held(&srpt_cfs_mutex);
	if (!ct->port || !ct->nluns)
		return -EINVAL;
	spec = kcalloc(ct->nluns, sizeof(*spec), GFP_KERNEL);
	if (!spec)
		return -ENOMEM;
	list_for_each_entry(cl, &ct->luns, entry)
		spec[n++] = (struct srpt_lun_spec){ .lun = cl->lun, .path = cl->path,
						    .bytes = (u64)cl->mib << 20 };
	t = srpt_target_create_luns((struct sockaddr *)&sin, srpt_port_id, spec, n);
	kfree(spec);
	if (IS_ERR(t))
		return PTR_ERR(t);
	ct->t = t;
	return 0;
}

static ssize_t srpt_cfs_target_enable_store(struct config_item *item, const char *page,
					    size_t len)
{
	struct srpt_cfs_target *ct = to_ct(item);
	struct srpt_target *t = NULL;
	bool on;
	int ret = 0;

	if (kstrtobool(page, &on))
		return -EINVAL;
	mutex_lock(&srpt_cfs_mutex);
	if (on && !ct->t)
		ret = srpt_cfs_start_locked(ct);
	if (!on)
		swap(t, ct->t);
	mutex_unlock(&srpt_cfs_mutex);
	srpt_target_destroy(t);
	return ret ?: len;
}

CONFIGFS_ATTR(srpt_cfs_target_, port);
CONFIGFS_ATTR(srpt_cfs_target_, enable);

static struct configfs_attribute *srpt_cfs_target_attrs[] = {
	&srpt_cfs_target_attr_port,
	&srpt_cfs_target_attr_enable,
	NULL,
};

static void srpt_cfs_target_release(struct config_item *item)
{
	kfree(to_ct(item));
}

static struct configfs_item_operations srpt_cfs_target_ops = {
	.release = srpt_cfs_target_release,
};

static struct configfs_group_operations srpt_cfs_target_group_ops = {
	.make_item = srpt_cfs_lun_make,
	.drop_item = srpt_cfs_lun_drop,
};

static const struct config_item_type srpt_cfs_target_type = {
	.ct_item_ops = &srpt_cfs_target_ops,
	.ct_group_ops = &srpt_cfs_target_group_ops,
	.ct_attrs = srpt_cfs_target_attrs,
	.ct_owner = THIS_MODULE,
};

/* ---- The subsystem: targets by name ---- */

static struct config_group *srpt_cfs_target_make(struct config_group *group, const char *name)
{
	struct srpt_cfs_target *ct = kzalloc(sizeof(*ct), GFP_KERNEL);

	if (!ct)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&ct->luns);
	config_group_init_type_name(&ct->group, name, &srpt_cfs_target_type);
	return &ct->group;
}

/* rmdir (its LUNs are gone already: configfs refuses a directory that has any): stopped. */
static void srpt_cfs_target_drop(struct config_group *group, struct config_item *item)
{
	struct srpt_cfs_target *ct = to_ct(item);
	struct srpt_target *t;

	mutex_lock(&srpt_cfs_mutex);
	t = ct->t;
	ct->t = NULL;
	mutex_unlock(&srpt_cfs_mutex);
	srpt_target_destroy(t);
	config_item_put(item);
}

static struct configfs_group_operations srpt_cfs_root_ops = {
	.make_group = srpt_cfs_target_make,
	.drop_item = srpt_cfs_target_drop,
};

static const struct config_item_type srpt_cfs_root_type = {
	.ct_group_ops = &srpt_cfs_root_ops,
	.ct_owner = THIS_MODULE,
};

static struct configfs_subsystem srpt_cfs = {
	.su_group = {
		.cg_item = {
			.ci_namebuf = "oib_srpt",
			.ci_type = &srpt_cfs_root_type,
		},
	},
};

int srpt_configfs_init(void)
{
	config_group_init(&srpt_cfs.su_group);
	mutex_init(&srpt_cfs.su_mutex);
	return configfs_register_subsystem(&srpt_cfs);
}

void srpt_configfs_exit(void)
{
	configfs_unregister_subsystem(&srpt_cfs);
}
