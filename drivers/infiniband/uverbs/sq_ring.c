// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mapped send queues.  The process writes struct oib_uverbs_send_wr entries, each with its SGEs
 * after it, advances the producer index and calls DOORBELL.  The kernel reads the producer
 * index once and checks it against its own consumer index (never the ring's), copies each entry
 * into its own memory and checks the copy exactly as POST_SEND checks a request (post.c), posts
 * the entries in batches and publishes its consumer index.  What the process writes into an
 * entry after the kernel copied it changes nothing.  A bad entry stops the doorbell there, as a
 * bad request stops POST_SEND: the entries before it are posted, it and the ones after are not.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "uverbs.h"

/* One ring entry as the kernel copied it. */
struct oib_uverbs_sq_wqe {
	struct oib_uverbs_send_wr wr;
	struct oib_uverbs_sge sge[OIB_UVERBS_MAX_SGE];
};

/* A doorbell's memory: the entry being checked and the batch being built. */
struct oib_uverbs_sq_work {
	struct oib_uverbs_sq_wqe wqe;
	struct oib_uverbs_send_batch b;
};

/*
 * With OIB_UVERBS_CREATE_MAPPED: a ring for the granted max_send_wr and max_send_sge, the latter
 * at most what an entry's copy holds (a provider may grant more than was asked).
 */
int oib_uverbs_sq_ring_init(struct oib_uverbs_file *ufile, struct oib_uverbs_qp *uqp,
			    struct oib_uverbs_create_qp *cmd)
{
	struct oib_uverbs_sq_ring *sq = &uqp->sq;
	u32 max_sge = clamp(cmd->cap.max_send_sge, 1u, (u32)OIB_UVERBS_MAX_SGE);
	struct oib_uverbs_kring *ring;

	if (!(cmd->ring_flags & OIB_UVERBS_CREATE_MAPPED))
		return 0;
	ring = oib_uverbs_kring_alloc(ufile, cmd->cap.max_send_wr,
				      sizeof(struct oib_uverbs_send_wr) +
				      max_sge * sizeof(struct oib_uverbs_sge), &cmd->sq);
	if (IS_ERR(ring))
		return PTR_ERR(ring);
	mutex_init(&sq->lock);
	sq->max_sge = max_sge;
	sq->cons = 0;
	sq->ring = ring;
	return 0;
}

void oib_uverbs_sq_ring_free(struct oib_uverbs_qp *uqp)
{
	if (!uqp->sq.ring)
		return;
	oib_uverbs_kring_free(uqp->sq.ring);
	uqp->sq.ring = NULL;
	mutex_destroy(&uqp->sq.lock);
}

/* Copy entry @index into @w; the SGEs come inline, never through a pointer. */
static int oib_uverbs_sq_fetch(struct oib_uverbs_sq_ring *sq, u32 index,
			       struct oib_uverbs_sq_wqe *w)
{
	memcpy(w, oib_uverbs_kring_entry(sq->ring, index), sq->ring->stride);
	if (w->wr.sg_list || w->wr.num_sge > sq->max_sge)
		return -EINVAL;
	return 0;
}

/* Post up to OIB_UVERBS_MAX_WR entries from the consumer index on, short of @prod. */
static int oib_uverbs_sq_post_batch(struct oib_uverbs_qp *uqp, u32 prod,
				    struct oib_uverbs_sq_work *w)
{
	struct oib_uverbs_sq_ring *sq = &uqp->sq;
	struct oib_uverbs_send_batch *b = &w->b;
	u32 n = min_t(u32, prod - sq->cons, OIB_UVERBS_MAX_WR), i;
	const struct oib_send_wr *bad;
	int err = 0, ret = 0;

	lockdep_assert_held(&sq->lock);
	for (i = 0; i < n && !err; i++) {
		b->ah[i] = NULL;
		err = oib_uverbs_sq_fetch(sq, sq->cons + i, &w->wqe);
		if (!err)
			err = oib_uverbs_send_wr(uqp->uobj.ufile, uqp->qp, &w->wqe.wr,
						 w->wqe.sge, &b->wr[i], b->sge[i], &b->ah[i]);
		b->wr[i].next = &b->wr[i + 1];
	}
	n = err ? i - 1 : i;
	if (n) {
		b->wr[n - 1].next = NULL;
		ret = oib_post_send(uqp->qp, b->wr, &bad);
		if (ret)
			n = bad - b->wr;
	}
	oib_uverbs_send_batch_put(b, i);
	sq->cons += n;
	return ret ?: err;
}

/* Post what the producer index covers; the consumer index is published whatever happens. */
static int oib_uverbs_sq_doorbell(struct oib_uverbs_qp *uqp, struct oib_uverbs_doorbell *cmd)
{
	struct oib_uverbs_sq_ring *sq = &uqp->sq;
	struct oib_uverbs_ring_hdr *hdr = oib_uverbs_kring_hdr(sq->ring);
	struct oib_uverbs_sq_work *w;
	u32 prod, start;
	int ret = 0;

	w = kvmalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	mutex_lock(&sq->lock);
	start = sq->cons;
	prod = READ_ONCE(hdr->producer);
	/* Beyond the ring, or behind the consumer (the difference wraps): nothing is posted. */
	if (prod - sq->cons > sq->ring->entries)
		ret = -EINVAL;
	while (!ret && sq->cons != prod)
		ret = oib_uverbs_sq_post_batch(uqp, prod, w);
	cmd->posted = sq->cons - start;
	cmd->bad_wr = ret ? sq->cons : 0;
	/* our copies are taken before the process may reuse the entries; pairs with its acquire */
	smp_store_release(&hdr->consumer, sq->cons);
	mutex_unlock(&sq->lock);
	kvfree(w);
	return ret;
}

int oib_uverbs_doorbell(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_doorbell *cmd = buf;
	struct oib_uverbs_qp *uqp;
	int ret;

	if (cmd->reserved || cmd->posted || cmd->bad_wr)
		return -EINVAL;
	uqp = oib_uobj_get(call->ufile, cmd->handle, OIB_UVERBS_OBJ_QP);
	if (IS_ERR(uqp))
		return PTR_ERR(uqp);
	ret = uqp->sq.ring ? oib_uverbs_sq_doorbell(uqp, cmd) : -EINVAL;
	oib_uobj_put(&uqp->uobj);
	return ret;
}

/*
 * A failed doorbell reports posted and bad_wr itself: ioctl.c answers on success only (a kernel
 * caller, the KUnit suite, has no user copy and reads the command).
 */
int oib_uverbs_doorbell_after(struct oib_uverbs_call *call, void *buf, int ret)
{
	struct oib_uverbs_doorbell __user *ucmd = call->ucmd;
	struct oib_uverbs_doorbell *cmd = buf;

	if (ret && ucmd &&
	    (put_user(cmd->posted, &ucmd->posted) || put_user(cmd->bad_wr, &ucmd->bad_wr)))
		ret = -EFAULT;
	return ret;
}
