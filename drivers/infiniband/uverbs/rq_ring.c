// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mapped receive queues, a QP's or an SRQ's.  The process writes struct oib_uverbs_recv_wr
 * entries, each with its SGEs after it, and advances the producer index; it makes no call.  The
 * QP or SRQ was created with a receive source (struct oib_recv_source): the provider pulls from
 * it when a message finds no receive queued, in its receive path (any context but hard-irq, its
 * queue locks held, interrupts off).  A pull reads the producer index once, checks it against
 * the kernel's own consumer index, copies the entry into kernel memory and checks the copy as
 * POST_RECV checks a request (post.c), then publishes the consumer index.  A bad index or entry
 * breaks the ring: OIB_UVERBS_RING_ERROR in its header, no more pulls, and the provider reports
 * it (QP_FATAL and ERR for a QP, SRQ_ERR for an SRQ).  A flush marks the ring
 * (OIB_UVERBS_RING_FLUSH) so that liboibv has later receives flushed; RESET discards what the
 * ring holds and clears both marks.
 */
#include <linux/module.h>
#include <kunit/visibility.h>
#include <oib/kunit/uverbs.h>
#include "uverbs.h"

/* Copy entry rq->cons into rq->wqe and check it into @wr, @sge (at most @max_sge SGEs). */
static int oib_uverbs_rq_fetch(struct oib_uverbs_rq_ring *rq, struct oib_recv_wr *wr,
			       struct oib_sge *sge, u32 max_sge)
{
	struct oib_uverbs_rq_wqe *w = &rq->wqe;

	lockdep_assert_held(&rq->lock);
	memcpy(w, oib_uverbs_kring_entry(rq->ring, rq->cons), rq->ring->stride);
	if (w->wr.sg_list || w->wr.num_sge > min(rq->max_sge, max_sge))
		return -EINVAL;
	return oib_uverbs_recv_wr(rq->ufile, rq->pd, &w->wr, w->sge, wr, sge);
}

/*
 * A flush pull: the QP is in ERR, so entries written from now on wait for the next flush; the
 * flag tells liboibv to ask for one (include/uapi/oib/uverbs.h).  Set before the producer index
 * is read: a process that published after this read sees the flag (its full barrier pairs).
 */
static void oib_uverbs_rq_flushing_locked(struct oib_uverbs_rq_ring *rq)
{
	struct oib_uverbs_ring_hdr *hdr = oib_uverbs_kring_hdr(rq->ring);

	lockdep_assert_held(&rq->lock);
	WRITE_ONCE(hdr->flags, READ_ONCE(hdr->flags) | OIB_UVERBS_RING_FLUSH);
	smp_mb();	/* the flag before the producer index; pairs with the process's */
}

/* The next entry: 1, 0 if the ring is empty, -EINVAL if it is broken now. */
static int oib_uverbs_rq_take_locked(struct oib_uverbs_rq_ring *rq, struct oib_recv_wr *wr,
				     struct oib_sge *sge, u32 max_sge)
{
	struct oib_uverbs_ring_hdr *hdr = oib_uverbs_kring_hdr(rq->ring);
	/* the entries the index covers are read after it; pairs with the process's release */
	u32 prod = smp_load_acquire(&hdr->producer);
	int ret;

	lockdep_assert_held(&rq->lock);
	if (prod == rq->cons)
		return 0;
	/* beyond the ring, or behind the consumer (the difference wraps) */
	ret = prod - rq->cons > rq->ring->entries ? -EINVAL :
	      oib_uverbs_rq_fetch(rq, wr, sge, max_sge);
	if (ret) {
		rq->broken = true;
		WRITE_ONCE(hdr->flags, READ_ONCE(hdr->flags) | OIB_UVERBS_RING_ERROR);
		return ret;
	}
	rq->cons++;
	/* our copy is taken before the process may reuse the entry; pairs with its acquire */
	smp_store_release(&hdr->consumer, rq->cons);
	return 1;
}

/* struct oib_recv_source's pull: any context but hard-irq, never sleeps. */
static int oib_uverbs_rq_pull(struct oib_recv_source *src, struct oib_recv_wr *wr,
			      struct oib_sge *sge, u32 max_sge, u32 flags)
{
	struct oib_uverbs_rq_ring *rq = container_of(src, struct oib_uverbs_rq_ring, src);
	unsigned long irqflags;
	int ret = 0;

	/* the fields set before the ring was published; pairs with oib_uverbs_rq_ring_init() */
	if (!smp_load_acquire(&rq->ring))
		return 0;
	spin_lock_irqsave(&rq->lock, irqflags);
	if (flags & OIB_RECV_PULL_FLUSH)
		oib_uverbs_rq_flushing_locked(rq);
	if (!rq->broken)
		ret = oib_uverbs_rq_take_locked(rq, wr, sge, max_sge);
	spin_unlock_irqrestore(&rq->lock, irqflags);
	return ret;
}

/* The source a QP or SRQ is created with; it has nothing to give until its ring is set. */
struct oib_recv_source *oib_uverbs_rq_source(struct oib_uverbs_rq_ring *rq,
					     struct oib_uverbs_file *ufile)
{
	spin_lock_init(&rq->lock);
	rq->src.pull = oib_uverbs_rq_pull;
	rq->ufile = ufile;
	return &rq->src;
}

/* The ring, for the granted @entries and @max_sge of the object on @pd; @out says where. */
int oib_uverbs_rq_ring_init(struct oib_uverbs_rq_ring *rq, struct oib_pd *pd, u32 entries,
			    u32 max_sge, struct oib_uverbs_ring *out)
{
	struct oib_uverbs_kring *ring;

	max_sge = clamp(max_sge, 1u, (u32)OIB_UVERBS_MAX_SGE);
	ring = oib_uverbs_kring_alloc(rq->ufile, entries,
				      sizeof(struct oib_uverbs_recv_wr) +
				      max_sge * sizeof(struct oib_uverbs_sge), out);
	if (IS_ERR(ring))
		return PTR_ERR(ring);
	rq->pd = pd;
	rq->max_sge = max_sge;
	rq->cons = 0;
	rq->broken = false;
	/* the fields above before the ring that makes pulls use them; pairs with the pull's */
	smp_store_release(&rq->ring, ring);
	return 0;
}

/*
 * The QP went to RESET, which discards the receives posted to it: so are what its ring holds
 * (the consumer index moves to the producer index, if that makes sense), and a broken ring is
 * whole again, and out of flushing.  A QP in RESET takes no message: no pull runs meanwhile.
 */
void oib_uverbs_rq_ring_reset(struct oib_uverbs_rq_ring *rq)
{
	struct oib_uverbs_ring_hdr *hdr;
	unsigned long flags;
	u32 prod;

	if (!rq->ring)
		return;
	hdr = oib_uverbs_kring_hdr(rq->ring);
	spin_lock_irqsave(&rq->lock, flags);
	prod = READ_ONCE(hdr->producer);
	if (prod - rq->cons <= rq->ring->entries)
		rq->cons = prod;
	rq->broken = false;
	WRITE_ONCE(hdr->flags,
		   READ_ONCE(hdr->flags) & ~(OIB_UVERBS_RING_ERROR | OIB_UVERBS_RING_FLUSH));
	/* pairs with the process's acquire of the consumer index */
	smp_store_release(&hdr->consumer, rq->cons);
	spin_unlock_irqrestore(&rq->lock, flags);
}

/* After the QP or SRQ is destroyed: the provider pulls no more. */
void oib_uverbs_rq_ring_free(struct oib_uverbs_rq_ring *rq)
{
	oib_uverbs_kring_free(rq->ring);
	rq->ring = NULL;
}

#if IS_ENABLED(CONFIG_KUNIT)
/* A pull from the receive source of the QP or SRQ @handle, as its provider makes one. */
int oib_uverbs_test_pull(struct oib_uverbs_file *ufile, u32 handle, struct oib_recv_wr *wr,
			 struct oib_sge *sge, u32 max_sge, u32 flags)
{
	struct oib_uverbs_uobj *uobj = xa_load(&ufile->handles, handle);
	struct oib_recv_source *src;
	int ret;

	if (!uobj || (uobj->type != OIB_UVERBS_OBJ_QP && uobj->type != OIB_UVERBS_OBJ_SRQ))
		return -EINVAL;
	uobj = oib_uobj_get(ufile, handle, uobj->type);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	if (uobj->type == OIB_UVERBS_OBJ_QP)
		src = container_of(uobj, struct oib_uverbs_qp, uobj)->qp->recv_source;
	else
		src = container_of(uobj, struct oib_uverbs_srq, uobj)->srq->recv_source;
	ret = src ? src->pull(src, wr, sge, max_sge, flags) : -ENOENT;
	oib_uobj_put(uobj);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_test_pull);
#endif /* CONFIG_KUNIT */
