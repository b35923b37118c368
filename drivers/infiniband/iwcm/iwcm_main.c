// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_iwcm: the module.  Its workqueue delivers the providers' events (each id's in order); its
 * mempool holds them on the way, so reporting an event cannot fail.
 * /sys/kernel/debug/oib_iwcm/dropped counts provider events the table refused (and private data
 * a provider passed up too long).
 */
#include <linux/debugfs.h>
#include <linux/mempool.h>
#include <linux/module.h>
#include "iwcm_priv.h"

#define IWCM_MIN_QUEUED	16

struct workqueue_struct *iwcm_wq;
static mempool_t *iwcm_pool;
static atomic_t iwcm_dropped = ATOMIC_INIT(0);
static struct dentry *iwcm_debugfs;

struct iwcm_queued *iwcm_queued_alloc(void)
{
	return mempool_alloc(iwcm_pool, GFP_KERNEL);	/* process context: waits, never NULL */
}

void iwcm_queued_free(struct iwcm_queued *q)
{
	mempool_free(q, iwcm_pool);
}

void iwcm_count_dropped(void)
{
	atomic_inc(&iwcm_dropped);
}

static int __init iwcm_init(void)
{
	iwcm_pool = mempool_create_kmalloc_pool(IWCM_MIN_QUEUED, sizeof(struct iwcm_queued));
	if (!iwcm_pool)
		return -ENOMEM;
	iwcm_wq = alloc_workqueue("oib_iwcm", WQ_UNBOUND, 0);
	if (!iwcm_wq) {
		mempool_destroy(iwcm_pool);
		return -ENOMEM;
	}
	iwcm_debugfs = debugfs_create_dir("oib_iwcm", NULL);
	debugfs_create_atomic_t("dropped", 0444, iwcm_debugfs, &iwcm_dropped);
	return 0;
}

static void __exit iwcm_exit(void)
{
	debugfs_remove_recursive(iwcm_debugfs);
	destroy_workqueue(iwcm_wq);
	mempool_destroy(iwcm_pool);
}

module_init(iwcm_init);
module_exit(iwcm_exit);
MODULE_DESCRIPTION("oib iWARP connection manager");
MODULE_LICENSE("GPL");
