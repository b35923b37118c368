// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory regions, their keys (STags on the wire) and the copies the data path makes.  A key is
 * (index << 8 | variant): the index names the MR in the device's key table, the low byte tells
 * registrations of one index apart.  Index 0 is the local DMA lkey of every PD (kernel memory,
 * never a remote key).  The registered state of an MR changes and is read under the table's
 * xa_lock; the memory itself is the consumer's to keep until its requests complete, or until it
 * deregisters the MR, which waits for the copies in progress (struct siw_mr).
 */
#include <linux/math64.h>
#include <linux/random.h>
#include "siw.h"

#define SIW_MR_INDEX_MAX	0xffffff
#define SIW_REMOTE_ACCESS	(OIB_ACCESS_REMOTE_READ | OIB_ACCESS_REMOTE_WRITE | \
				 OIB_ACCESS_REMOTE_ATOMIC)

static int siw_mr_add(struct siw_dev *sdev, struct siw_mr *mr, int access,
		      enum siw_mr_state state)
{
	unsigned long flags;
	u32 key;
	int ret;

	refcount_set(&mr->ref, 1);	/* the table's, from the moment it can be found */
	init_completion(&mr->ref_done);
	ret = xa_alloc_cyclic(&sdev->mr_keys, &mr->index, mr, XA_LIMIT(1, SIW_MR_INDEX_MAX),
			      &sdev->next_mr_index, GFP_KERNEL);
	if (ret < 0)
		return ret == -EBUSY ? -ENOSPC : ret;
	key = mr->index << 8 | (get_random_u32() & 0xff);
	mr->ib.lkey = key;
	mr->ib.rkey = access & SIW_REMOTE_ACCESS ? key : 0;
	xa_lock_irqsave(&sdev->mr_keys, flags);
	mr->state = state;
	mr->lkey = state == SIW_MR_VALID ? mr->ib.lkey : 0;
	mr->rkey = state == SIW_MR_VALID ? mr->ib.rkey : 0;
	mr->access = mr->ib.access;
	mr->iova = mr->ib.iova;
	mr->length = mr->ib.length;
	xa_unlock_irqrestore(&sdev->mr_keys, flags);
	return 0;
}

int siw_get_dma_mr(struct oib_mr *ib, int access)
{
	return siw_mr_add(to_sdev(ib->device), to_smr(ib), access, SIW_MR_VALID);
}

int siw_reg_kernel_mr(struct oib_mr *ib, void *addr, size_t len, int access)
{
	to_smr(ib)->kbase = (u64)(uintptr_t)addr;
	return siw_mr_add(to_sdev(ib->device), to_smr(ib), access, SIW_MR_VALID);
}

int siw_alloc_mr(struct oib_mr *ib, u32 max_num_sg)
{
	struct siw_mr *mr = to_smr(ib);
	int ret = -ENOMEM;

	mr->pages = kcalloc(max_num_sg, sizeof(u64), GFP_KERNEL);
	mr->staged = kcalloc(max_num_sg, sizeof(u64), GFP_KERNEL);
	if (mr->pages && mr->staged)
		ret = siw_mr_add(to_sdev(ib->device), mr, OIB_ACCESS_REMOTE_READ, SIW_MR_FREE);
	if (ret) {
		kfree(mr->pages);
		kfree(mr->staged);
	}
	return ret;
}

static void siw_mr_set_page(struct oib_mr *ib, u64 addr)
{
	struct siw_mr *mr = to_smr(ib);

	mr->staged[mr->nstaged++] = addr;
}

int siw_map_mr_sg(struct oib_mr *ib, struct scatterlist *sg, int n, unsigned int off)
{
	to_smr(ib)->nstaged = 0;
	return oib_sg_to_pages(ib, sg, n, off, siw_mr_set_page);
}

static void siw_mr_put(struct siw_mr *mr)
{
	if (refcount_dec_and_test(&mr->ref))
		complete(&mr->ref_done);
}

/* No key finds the MR any more; the copies that found it before are waited out. */
void siw_dereg_mr(struct oib_mr *ib)
{
	struct siw_mr *mr = to_smr(ib);

	might_sleep();
	xa_erase(&to_sdev(ib->device)->mr_keys, mr->index);
	siw_mr_put(mr);
	wait_for_completion(&mr->ref_done);
	kfree(mr->pages);
	kfree(mr->staged);
}

/* OIB_WR_REG_MR: the MR takes its staged mapping, the WR's key and access, and is VALID. */
int siw_mr_reg(struct siw_dev *sdev, struct oib_pd *pd, const struct oib_send_wr *wr)
{
	struct siw_mr *mr = to_smr(wr->wr.reg.mr);
	unsigned long flags;
	int ret = -EINVAL;
	u64 *pages;

	xa_lock_irqsave(&sdev->mr_keys, flags);
	if (mr->ib.pd == pd && mr->pages && mr->state != SIW_MR_VALID &&
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
		mr->rkey = mr->access & SIW_REMOTE_ACCESS ? mr->lkey : 0;
		mr->state = SIW_MR_VALID;
		ret = 0;
	}
	xa_unlock_irqrestore(&sdev->mr_keys, flags);
	return ret;
}

/*
 * Invalidate the MR of @pd whose lkey (@remote: rkey) is @key; -EINVAL if none, -EACCES if it is
 * not a fast-registration MR (only those may be revoked) or, remotely, has no rkey.
 */
int siw_mr_invalidate(struct siw_dev *sdev, struct oib_pd *pd, u32 key, bool remote)
{
	struct siw_mr *mr;
	unsigned long flags;
	int ret = -EINVAL;

	xa_lock_irqsave(&sdev->mr_keys, flags);
	mr = xa_load(&sdev->mr_keys, key >> 8);
	if (mr && mr->state != SIW_MR_FREE && mr->ib.pd == pd &&
	    (mr->lkey == key || (mr->rkey && mr->rkey == key))) {
		if (mr->ib.type != OIB_MR_TYPE_MEM_REG || (remote && !mr->rkey)) {
			ret = -EACCES;
		} else {
			mr->state = SIW_MR_INVALID;
			ret = 0;
		}
	}
	xa_unlock_irqrestore(&sdev->mr_keys, flags);
	return ret;
}

/*
 * The kernel address of @va in @mr and how many bytes from there (at most @len) are contiguous
 * in the kernel's address space.  Under the table's lock, the range already checked.
 */
static u8 *siw_mr_kva_locked(struct siw_mr *mr, u64 va, u32 len, u32 *n)
{
	u64 base, i, in;

	if (!mr->pages) {
		*n = len;
		return (u8 *)(uintptr_t)(mr->kbase + (va - mr->iova));
	}
	base = ALIGN_DOWN(mr->iova, mr->page_size);
	i = div64_u64_rem(va - base, mr->page_size, &in);
	if (i >= mr->npages)
		return NULL;
	*n = min_t(u64, len, mr->page_size - in);
	return (u8 *)(uintptr_t)(mr->pages[i] + in);
}

/*
 * One contiguous piece of a copy: its kernel address and length, its MR held (*@mrp) until the
 * caller's siw_mr_put(); or an error.
 */
static int siw_mem_piece(struct siw_dev *sdev, struct oib_pd *pd, u32 key, u64 va, u32 len,
			 int access, bool remote, u8 **kva, u32 *n, struct siw_mr **mrp)
{
	struct siw_mr *mr;
	unsigned long flags;
	int ret = -EINVAL;

	xa_lock_irqsave(&sdev->mr_keys, flags);
	mr = xa_load(&sdev->mr_keys, key >> 8);
	if (!mr || mr->state != SIW_MR_VALID || mr->ib.pd != pd ||
	    (remote ? !mr->rkey || mr->rkey != key : mr->lkey != key))
		goto out;
	ret = -EACCES;
	if ((mr->access & access) != access)
		goto out;
	ret = -ERANGE;
	if (va < mr->iova || va + len > mr->iova + mr->length)
		goto out;
	*kva = siw_mr_kva_locked(mr, va, len, n);
	ret = *kva ? 0 : -ERANGE;
	if (!ret) {
		refcount_inc(&mr->ref);		/* in the table: its reference stands */
		*mrp = mr;
	}
out:
	xa_unlock_irqrestore(&sdev->mr_keys, flags);
	return ret;
}

int siw_mem_copy(struct siw_dev *sdev, struct oib_pd *pd, u32 key, u64 va, void *buf, u32 len,
		 int access, bool remote, bool to_mem)
{
	struct siw_mr *mr;
	u8 *kva;
	u32 n;
	int ret;

	if (!len)
		return 0;
	if (va + len < va)
		return -ERANGE;
	if (!remote && key == pd->local_dma_lkey) {
		kva = (u8 *)(uintptr_t)va;
		if (to_mem)
			memcpy(kva, buf, len);
		else
			memcpy(buf, kva, len);
		return 0;
	}
	while (len) {
		ret = siw_mem_piece(sdev, pd, key, va, len, access, remote, &kva, &n, &mr);
		if (ret)
			return ret;
		if (to_mem)
			memcpy(kva, buf, n);
		else
			memcpy(buf, kva, n);
		siw_mr_put(mr);
		va += n;
		buf += n;
		len -= n;
	}
	return 0;
}
