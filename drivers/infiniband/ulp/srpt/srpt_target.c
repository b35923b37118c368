// SPDX-License-Identifier: GPL-2.0-only
/*
 * A target: LUNs (memory, or a file or block device) and a listener on every device's address
 * for one port (a wildcard address; a specific address listens on its port alone).  Destroying
 * it stops the listener (no new login after that), releases every channel and waits until they
 * are gone, then closes its files.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <linux/vmalloc.h>
#include <kunit/visibility.h>
#include "srpt_priv.h"

static void srpt_luns_free(struct srpt_luns *luns)
{
	u32 i;

	for (i = 0; luns->lun && i < luns->n; i++) {
		vfree(luns->lun[i].mem);
		if (!IS_ERR_OR_NULL(luns->lun[i].file))
			filp_close(luns->lun[i].file, NULL);
	}
	kfree(luns->lun);
}

/* A file or block device LUN: opened read-write, its size in whole blocks (at least one). */
static int srpt_lun_open(struct srpt_lun *lun, const char *path)
{
	struct inode *inode;

	lun->file = filp_open(path, O_RDWR | O_LARGEFILE, 0);
	if (IS_ERR(lun->file))
		return PTR_ERR(lun->file);
	inode = lun->file->f_mapping->host;
	if (!S_ISREG(file_inode(lun->file)->i_mode) && !S_ISBLK(file_inode(lun->file)->i_mode))
		return -EINVAL;
	lun->blocks = i_size_read(inode) / SRPT_BLOCK_SIZE;
	return lun->blocks ? 0 : -EINVAL;
}

static int srpt_lun_make(struct srpt_lun *lun, const struct srpt_lun_spec *spec)
{
	lun->lun = spec->lun;
	if (spec->path)
		return srpt_lun_open(lun, spec->path);
	if (spec->bytes < SZ_1M || spec->bytes % SRPT_BLOCK_SIZE)
		return -EINVAL;
	lun->blocks = spec->bytes / SRPT_BLOCK_SIZE;
	lun->mem = vzalloc(spec->bytes);
	return lun->mem ? 0 : -ENOMEM;
}

static int srpt_luns_alloc(struct srpt_luns *luns, const struct srpt_lun_spec *spec, u32 n)
{
	u32 i, j;
	int ret;

	for (i = 0; i < n; i++) {
		if (spec[i].lun >= SRPT_MAX_LUN)
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (spec[i].lun == spec[j].lun)
				return -EINVAL;
	}
	luns->lun = kcalloc(n, sizeof(*luns->lun), GFP_KERNEL);
	if (!luns->lun)
		return -ENOMEM;
	luns->n = n;
	for (i = 0; i < n; i++) {
		ret = srpt_lun_make(&luns->lun[i], &spec[i]);
		if (ret)
			return ret;
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
 * A target on @addr (IPv4 or IPv6, a port) whose logins must name @port_id, with the @nluns
 * (1..16) LUNs of @spec (distinct numbers below SRPT_MAX_LUN; memory of a multiple of 512 bytes,
 * at least 1 MiB, or a file or block device of at least a block).  ERR_PTR: -EINVAL, -ENOMEM,
 * a file's error, or the listener's (-EADDRINUSE, ...).
 */
struct srpt_target *srpt_target_create_luns(const struct sockaddr *addr, const u8 *port_id,
					    const struct srpt_lun_spec *spec, u32 nluns)
{
	struct srpt_target *t;
	int ret;

	if (!addr || !port_id || !spec || !nluns || nluns > SRPT_MAX_LUNS ||
	    (addr->sa_family != AF_INET && addr->sa_family != AF_INET6))
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
	ret = srpt_luns_alloc(&t->luns, spec, nluns);
	ret = ret ?: srpt_listen(t, addr);
	if (ret) {
		srpt_luns_free(&t->luns);
		kfree(t);
		return ERR_PTR(ret);
	}
	return t;
}
EXPORT_SYMBOL_IF_KUNIT(srpt_target_create_luns);

/* @nluns memory LUNs, numbered from 0, of @lun_bytes each. */
struct srpt_target *srpt_target_create(const struct sockaddr *addr, const u8 *port_id,
				       u32 nluns, u64 lun_bytes)
{
	struct srpt_lun_spec spec[SRPT_MAX_LUNS] = {};
	u32 i;

	if (!nluns || nluns > SRPT_MAX_LUNS)
		return ERR_PTR(-EINVAL);
	for (i = 0; i < nluns; i++)
		spec[i] = (struct srpt_lun_spec){ .lun = i, .bytes = lun_bytes };
	return srpt_target_create_luns(addr, port_id, spec, nluns);
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

/* How many of @t's channels are in @state (the suites wait for LIVE ones by it). */
u32 srpt_target_channels_in(struct srpt_target *t, enum srpt_ch_state state)
{
	struct srpt_ch *ch;
	u32 n = 0;

	mutex_lock(&t->lock);
	list_for_each_entry(ch, &t->channels, entry) {
		spin_lock_irq(&ch->lock);
		n += ch->state == state;
		spin_unlock_irq(&ch->lock);
	}
	mutex_unlock(&t->lock);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(srpt_target_channels_in);

/* What debugfs shows of @t: its counters, then a line per channel. */
void srpt_target_show(struct srpt_target *t, struct seq_file *m)
{
	struct srpt_stats *st = &t->stats;
	struct srpt_ch *ch;

	seq_printf(m, "logins %d rejects %d channels %d cmds %d tsk_mgmt %d dropped %d over_limit %d cred_reqs %d imm %d\n",
		   atomic_read(&st->logins), atomic_read(&st->rejects),
		   atomic_read(&st->channels), atomic_read(&st->cmds),
		   atomic_read(&st->tsk_mgmt), atomic_read(&st->dropped),
		   atomic_read(&st->over_limit), atomic_read(&st->cred_reqs),
		   atomic_read(&st->imm));
	mutex_lock(&t->lock);
	list_for_each_entry(ch, &t->channels, entry) {
		spin_lock_irq(&ch->lock);
		seq_printf(m, "channel %s in_flight %u granted %u cmds %u\n",
			   srpt_ch_state_name(ch->state), ch->in_flight, ch->granted, ch->ncmds);
		spin_unlock_irq(&ch->lock);
	}
	mutex_unlock(&t->lock);
}

/*
 * Every live channel's QP moved to the error state, as a fault would: its work requests flush,
 * and the channel is released (the initiator sees the connection go).  Under t->lock, which
 * the release holds to destroy the QP.  The number of channels reset.
 */
int srpt_target_reset(struct srpt_target *t)
{
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_ERR };
	struct srpt_ch *ch;
	bool live;
	int n = 0;

	mutex_lock(&t->lock);
	list_for_each_entry(ch, &t->channels, entry) {
		spin_lock_irq(&ch->lock);
		live = ch->state == SRPT_CH_LIVE;
		spin_unlock_irq(&ch->lock);
		if (live && !oib_modify_qp(ch->id->qp, &attr, OIB_QP_STATE))
			n++;
	}
	mutex_unlock(&t->lock);
	return n;
}
