// SPDX-License-Identifier: GPL-2.0-only
/*
 * A target: memory LUNs and a listener on every device's address for one port (a wildcard
 * address; a specific address listens on its port alone).  Destroying it stops the listener
 * (no new login after that), releases every channel and waits until they are gone.
 */
#include <linux/kernel.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <linux/vmalloc.h>
#include <kunit/visibility.h>
#include "srpt_priv.h"

static void srpt_luns_free(struct srpt_luns *luns)
{
	u32 i;

	for (i = 0; luns->lun && i < luns->n; i++)
		vfree(luns->lun[i].mem);
	kfree(luns->lun);
}

static int srpt_luns_alloc(struct srpt_luns *luns, u32 n, u64 bytes)
{
	u32 i;

	luns->lun = kcalloc(n, sizeof(*luns->lun), GFP_KERNEL);
	if (!luns->lun)
		return -ENOMEM;
	luns->n = n;
	for (i = 0; i < n; i++) {
		luns->lun[i].lun = i;
		luns->lun[i].blocks = bytes / SRPT_BLOCK_SIZE;
		luns->lun[i].mem = vzalloc(bytes);
		if (!luns->lun[i].mem)
			return -ENOMEM;
	}
	return 0;
}

static int srpt_listen(struct srpt_target *t, const struct sockaddr *addr)
{
	struct oib_cma_id *id;
	int ret;

	id = oib_cma_create_id(&init_net, srpt_cma_handler, t, OIB_PS_TCP, OIB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	ret = oib_cma_bind_addr(id, addr);
	ret = ret ?: oib_cma_listen(id, 0);
	if (ret) {
		oib_cma_destroy_id(id);
		return ret;
	}
	t->listener = id;
	return 0;
}

/*
 * A target on @addr (IPv4 or IPv6, a port) whose logins must name @port_id, with @nluns LUNs
 * (1..16) of @lun_bytes (a multiple of 512, at least 1 MiB) each.  ERR_PTR: -EINVAL, -ENOMEM,
 * or the listener's error (-EADDRINUSE, ...).
 */
struct srpt_target *srpt_target_create(const struct sockaddr *addr, const u8 *port_id,
				       u32 nluns, u64 lun_bytes)
{
	struct srpt_target *t;
	int ret;

	if (!addr || !port_id || !nluns || nluns > 16 || lun_bytes < SZ_1M ||
	    lun_bytes % SRPT_BLOCK_SIZE || (addr->sa_family != AF_INET &&
	    addr->sa_family != AF_INET6))
		return ERR_PTR(-EINVAL);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->kind = SRPT_KIND_TARGET;
	memcpy(t->port_id, port_id, sizeof(t->port_id));
	mutex_init(&t->lock);
	INIT_LIST_HEAD(&t->channels);
	init_waitqueue_head(&t->wq);
	snprintf(t->luns.serial, sizeof(t->luns.serial), "%08x", get_random_u32());
	ret = srpt_luns_alloc(&t->luns, nluns, lun_bytes);
	ret = ret ?: srpt_listen(t, addr);
	if (ret) {
		srpt_luns_free(&t->luns);
		kfree(t);
		return ERR_PTR(ret);
	}
	return t;
}
EXPORT_SYMBOL_IF_KUNIT(srpt_target_create);

void srpt_target_destroy(struct srpt_target *t)
{
	struct srpt_ch *ch;

	if (!t)
		return;
	mutex_lock(&t->lock);
	t->stopping = true;
	mutex_unlock(&t->lock);
	oib_cma_destroy_id(t->listener);	/* waits for logins being answered */
	mutex_lock(&t->lock);
	list_for_each_entry(ch, &t->channels, entry)
		srpt_ch_stop(ch);
	mutex_unlock(&t->lock);
	wait_event(t->wq, !atomic_read(&t->stats.channels));
	srpt_luns_free(&t->luns);
	kfree(t);
}
EXPORT_SYMBOL_IF_KUNIT(srpt_target_destroy);

struct srpt_stats *srpt_target_stats(struct srpt_target *t)
{
	return &t->stats;
}
EXPORT_SYMBOL_IF_KUNIT(srpt_target_stats);

u8 *srpt_target_lun_mem(struct srpt_target *t, u32 index)
{
	return index < t->luns.n ? t->luns.lun[index].mem : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(srpt_target_lun_mem);
