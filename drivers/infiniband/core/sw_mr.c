// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MR key table of a software provider and the MRs in it (struct oib_sw_mr_table and struct
 * oib_sw_mr in <oib/sw.h>): keys made and revoked, registrations, and resolving a key to the
 * kernel address the transport copies through, with the reference that keeps it good.  How the
 * copies go (per SGE, per packet, a piece at a time) is each provider's.
 */
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <oib/sw.h>

#define OIB_SW_MR_INDEX_MAX	0xffffff
#define OIB_SW_REMOTE_ACCESS	(OIB_ACCESS_REMOTE_READ | OIB_ACCESS_REMOTE_WRITE | \
				 OIB_ACCESS_REMOTE_ATOMIC)

void oib_sw_mr_table_init(struct oib_sw_mr_table *t)
{
	xa_init_flags(&t->xa, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_IRQ);
	t->next = 0;
}
EXPORT_SYMBOL(oib_sw_mr_table_init);

void oib_sw_mr_table_destroy(struct oib_sw_mr_table *t)
{
	xa_destroy(&t->xa);
}
EXPORT_SYMBOL(oib_sw_mr_table_destroy);

/*
 * Put @mr in the table under a new index with a random variant, and give it the state @state
 * and the keys, access and range the core set.  @access decides whether it has an rkey.
 */
static int oib_sw_mr_add(struct oib_sw_mr_table *t, struct oib_sw_mr *mr, int access,
			 enum oib_sw_mr_state state)
{
	unsigned long flags;
	u32 key;
	int ret;

	refcount_set(&mr->ref, 1);	/* the table's, from the moment it can be found */
	init_completion(&mr->ref_done);
	mr->state = OIB_SW_MR_FREE;	/* no key works until published below */
	ret = xa_alloc_cyclic_irq(&t->xa, &mr->index, mr, XA_LIMIT(1, OIB_SW_MR_INDEX_MAX),
				  &t->next, GFP_KERNEL);
	if (ret < 0)
		return ret == -EBUSY ? -ENOSPC : ret;
	key = mr->index << 8 | (get_random_u32() & 0xff);
	mr->ib.lkey = key;
	mr->ib.rkey = access & OIB_SW_REMOTE_ACCESS ? key : 0;

	xa_lock_irqsave(&t->xa, flags);
	mr->state = state;
	mr->lkey = state == OIB_SW_MR_VALID ? mr->ib.lkey : 0;
	mr->rkey = state == OIB_SW_MR_VALID ? mr->ib.rkey : 0;
	mr->access = mr->ib.access;
	mr->iova = mr->ib.iova;
	mr->length = mr->ib.length;
	xa_unlock_irqrestore(&t->xa, flags);
	return 0;
}

int oib_sw_mr_kernel(struct oib_sw_mr_table *t, struct oib_sw_mr *mr, int access, u64 kbase)
{
	mr->kbase = kbase;
	return oib_sw_mr_add(t, mr, access, OIB_SW_MR_VALID);
}
EXPORT_SYMBOL(oib_sw_mr_kernel);

int oib_sw_mr_alloc(struct oib_sw_mr_table *t, struct oib_sw_mr *mr, u32 max_num_sg)
{
	int ret = -ENOMEM;

	mr->pages = kcalloc(max_num_sg, sizeof(u64), GFP_KERNEL);
	mr->staged = kcalloc(max_num_sg, sizeof(u64), GFP_KERNEL);
	if (mr->pages && mr->staged)	/* rkey = lkey: REG_MR's access decides */
		ret = oib_sw_mr_add(t, mr, OIB_ACCESS_REMOTE_READ, OIB_SW_MR_FREE);
	if (ret) {
		kfree(mr->pages);
		kfree(mr->staged);
		mr->pages = NULL;
		mr->staged = NULL;
	}
	return ret;
}
EXPORT_SYMBOL(oib_sw_mr_alloc);

static void oib_sw_mr_set_page(struct oib_mr *ib, u64 addr)
{
	struct oib_sw_mr *mr = oib_sw_mr(ib);

	mr->staged[mr->nstaged++] = addr;
}

int oib_sw_map_mr_sg(struct oib_mr *ib, struct scatterlist *sg, int sg_nents,
		     unsigned int sg_offset)
{
	oib_sw_mr(ib)->nstaged = 0;
	return oib_sg_to_pages(ib, sg, sg_nents, sg_offset, oib_sw_mr_set_page);
}
EXPORT_SYMBOL(oib_sw_map_mr_sg);

void oib_sw_mr_dereg(struct oib_sw_mr_table *t, struct oib_sw_mr *mr)
{
	might_sleep();
	xa_erase_irq(&t->xa, mr->index);
	oib_sw_mr_put(mr);
	wait_for_completion(&mr->ref_done);
	kfree(mr->pages);
	kfree(mr->staged);
	mr->pages = NULL;
	mr->staged = NULL;
}
EXPORT_SYMBOL(oib_sw_mr_dereg);

int oib_sw_mr_reg(struct oib_sw_mr_table *t, struct oib_pd *pd, const struct oib_send_wr *wr)
{
	struct oib_sw_mr *mr = oib_sw_mr(wr->wr.reg.mr);
	unsigned long flags;
	int ret = -EINVAL;
	u64 *pages;

	xa_lock_irqsave(&t->xa, flags);
	if (mr->ib.pd == pd && mr->pages && mr->state != OIB_SW_MR_VALID &&
	    wr->wr.reg.key >> 8 == mr->index) {
		pages = mr->pages;
		mr->pages = mr->staged;
		mr->staged = pages;
		mr->npages = mr->nstaged;
		mr->page_size = mr->ib.page_size;
		mr->iova = mr->ib.iova;
		mr->length = mr->ib.length;
		mr->access = wr->wr.reg.access;
		mr->lkey = wr->wr.reg.key;
		mr->rkey = mr->access & OIB_SW_REMOTE_ACCESS ? mr->lkey : 0;
		mr->state = OIB_SW_MR_VALID;
		ret = 0;
	}
	xa_unlock_irqrestore(&t->xa, flags);
	return ret;
}
EXPORT_SYMBOL(oib_sw_mr_reg);

int oib_sw_mr_invalidate(struct oib_sw_mr_table *t, struct oib_pd *pd, u32 key, bool remote)
{
	struct oib_sw_mr *mr;
	unsigned long flags;
	int ret = -EINVAL;

	xa_lock_irqsave(&t->xa, flags);
	mr = xa_load(&t->xa, key >> 8);
	if (mr && mr->state != OIB_SW_MR_FREE && mr->ib.pd == pd &&
	    (mr->lkey == key || (mr->rkey && mr->rkey == key))) {
		if (mr->ib.type != OIB_MR_TYPE_MEM_REG || (remote && !mr->rkey)) {
			ret = -EACCES;
		} else {
			mr->state = OIB_SW_MR_INVALID;
			ret = 0;
		}
	}
	xa_unlock_irqrestore(&t->xa, flags);
	return ret;
}
EXPORT_SYMBOL(oib_sw_mr_invalidate);

/*
 * The kernel address of @va in @mr, the range checked, and the contiguous bytes from there (at
 * most @len) into *@n: all of them for a kernel MR; for fast registration, up to the end of the
 * first block that is not followed by the next one in the kernel's address space.  NULL if @va
 * lies past the blocks mapped.  Under the table's lock: REG_MR swaps @pages.
 */
static u8 *oib_sw_mr_kva_locked(struct oib_sw_mr *mr, u64 va, u32 len, u32 *n)
{
	u64 base, first, i;
	u32 in;

	if (!mr->pages) {
		*n = len;
		return (u8 *)(uintptr_t)(mr->kbase + (va - mr->iova));
	}
	base = ALIGN_DOWN(mr->iova, mr->page_size);
	first = div_u64_rem(va - base, mr->page_size, &in);
	if (first >= mr->npages)
		return NULL;
	*n = min(len, mr->page_size - in);
	for (i = first; *n < len && i + 1 < mr->npages; i++) {
		if (mr->pages[i] + mr->page_size != mr->pages[i + 1])
			break;
		*n += min(len - *n, mr->page_size);
	}
	return (u8 *)(uintptr_t)(mr->pages[first] + in);
}

int oib_sw_mr_get(struct oib_sw_mr_table *t, struct oib_pd *pd, u32 key, bool remote, u64 va,
		  u32 len, int access, struct oib_sw_mr_ref *ref)
{
	struct oib_sw_mr *mr;
	unsigned long flags;
	int ret = -EINVAL;

	ref->mr = NULL;
	if (!len || va + len < va)
		return -ERANGE;
	xa_lock_irqsave(&t->xa, flags);
	mr = xa_load(&t->xa, key >> 8);
	if (!mr || mr->state != OIB_SW_MR_VALID || mr->ib.pd != pd ||
	    (remote ? !mr->rkey || mr->rkey != key : mr->lkey != key))
		goto out;
	ret = -EACCES;
	if ((mr->access & access) != access)
		goto out;
	ret = -ERANGE;
	if (va < mr->iova || va + len > mr->iova + mr->length)
		goto out;
	ref->kva = oib_sw_mr_kva_locked(mr, va, len, &ref->len);
	if (!ref->kva)
		goto out;
	refcount_inc(&mr->ref);		/* in the table: its reference stands */
	ref->mr = mr;
	ret = 0;
out:
	xa_unlock_irqrestore(&t->xa, flags);
	return ret;
}
EXPORT_SYMBOL(oib_sw_mr_get);
