// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory regions and their keys.  A key is (index << 8 | variant): the index names the MR in the
 * device's mr_keys table, the low byte is a per-registration variant so a stale key from an earlier
 * registration of the same index does not match.  Index 0 is the local DMA lkey of every PD.
 *
 * A key resolved to a kernel address holds the MR (struct orxe_mr's ref) until the copies through
 * it are done, and deregistration waits for them: the registrant may free the memory as soon as
 * oib_dereg_mr() returns.
 */
#include <linux/module.h>
#include <linux/math64.h>
#include <linux/random.h>
#include "orxe.h"

#define ORXE_MR_INDEX_MAX	0xffffff

static int orxe_mr_add_key(struct orxe_dev *rdev, struct orxe_mr *mr, int access)
{
	u32 key;
	int ret;

	refcount_set(&mr->ref, 1);	/* the table's, from the moment it can be found */
	init_completion(&mr->ref_done);
	ret = xa_alloc_cyclic(&rdev->mr_keys, &mr->index, mr, XA_LIMIT(1, ORXE_MR_INDEX_MAX),
			      &rdev->next_mr_index, GFP_KERNEL);
	if (ret < 0)
		return ret == -EBUSY ? -ENOSPC : ret;

	key = mr->index << 8 | (get_random_u32() & 0xff);
	mr->ib.lkey = key;
	mr->ib.rkey = access & (OIB_ACCESS_REMOTE_READ | OIB_ACCESS_REMOTE_WRITE |
				OIB_ACCESS_REMOTE_ATOMIC) ? key : 0;
	return 0;
}

/*
 * Give @mr (findable since orxe_mr_add_key(), FREE, so no key works) the state and the keys,
 * access and range the core set.
 */
static void orxe_mr_publish(struct orxe_dev *rdev, struct orxe_mr *mr, enum orxe_mr_state state)
{
	unsigned long flags;

	xa_lock_irqsave(&rdev->mr_keys, flags);
	mr->state = state;
	mr->lkey = state == ORXE_MR_VALID ? mr->ib.lkey : 0;
	mr->rkey = state == ORXE_MR_VALID ? mr->ib.rkey : 0;
	mr->access = mr->ib.access;
	mr->iova = mr->ib.iova;
	mr->length = mr->ib.length;
	xa_unlock_irqrestore(&rdev->mr_keys, flags);
}

static int orxe_kernel_mr(struct oib_mr *ibmr, int access)
{
	struct orxe_dev *rdev = to_rdev(ibmr->device);
	struct orxe_mr *mr = to_rmr(ibmr);
	int ret = orxe_mr_add_key(rdev, mr, access);

	if (!ret)
		orxe_mr_publish(rdev, mr, ORXE_MR_VALID);
	return ret;
}

int orxe_get_dma_mr(struct oib_mr *ibmr, int access)
{
	return orxe_kernel_mr(ibmr, access);
}

/*
 * Kernel memory stays mapped, so a kernel MR needs its key and where iova lies in the kernel's
 * address space (@addr; iova is @addr itself unless the registrant named it otherwise, as a user
 * MR does): see orxe_mr_kva_locked().
 */
int orxe_reg_kernel_mr(struct oib_mr *ibmr, void *addr, size_t len, int access)
{
	to_rmr(ibmr)->kbase = (u64)(uintptr_t)addr;
	return orxe_kernel_mr(ibmr, access);
}

/* A fast-registration MR: FREE, its key handed to the ULP for its first REG_MR. */
int orxe_alloc_mr(struct oib_mr *ibmr, u32 max_num_sg)
{
	struct orxe_dev *rdev = to_rdev(ibmr->device);
	struct orxe_mr *mr = to_rmr(ibmr);
	int ret;

	mr->pages = kcalloc(max_num_sg, sizeof(u64), GFP_KERNEL);
	mr->staged = kcalloc(max_num_sg, sizeof(u64), GFP_KERNEL);
	if (!mr->pages || !mr->staged) {
		ret = -ENOMEM;
		goto err;
	}
	ret = orxe_mr_add_key(rdev, mr, OIB_ACCESS_REMOTE_READ);	/* rkey = lkey */
	if (ret)
		goto err;
	orxe_mr_publish(rdev, mr, ORXE_MR_FREE);
	return 0;
err:
	kfree(mr->pages);
	kfree(mr->staged);
	return ret;
}

static void orxe_mr_set_page(struct oib_mr *ibmr, u64 addr)
{
	struct orxe_mr *mr = to_rmr(ibmr);

	mr->staged[mr->nstaged++] = addr;
}

int orxe_map_mr_sg(struct oib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		   unsigned int sg_offset)
{
	to_rmr(ibmr)->nstaged = 0;
	return oib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, orxe_mr_set_page);
}

/* Drop a reference orxe_sge_get() or orxe_rkey_get() took (NULL: they took none). */
void orxe_mr_put(struct orxe_mr *mr)
{
	if (mr && refcount_dec_and_test(&mr->ref))
		complete(&mr->ref_done);
}

/*
 * No key finds the MR any more, and the copies that resolved one before are waited out (they are
 * short: a packet, a run, a read's responses): the memory is the registrant's again.
 */
void orxe_dereg_mr(struct oib_mr *ibmr)
{
	struct orxe_mr *mr = to_rmr(ibmr);

	might_sleep();
	xa_erase(&to_rdev(ibmr->device)->mr_keys, mr->index);
	orxe_mr_put(mr);
	wait_for_completion(&mr->ref_done);
	kfree(mr->pages);
	kfree(mr->staged);
}

/*
 * The kernel address of [@va, @va + @len) in @mr, under mr_keys' lock; NULL if the range is not
 * in the MR or (fast registration) its blocks are not contiguous in the kernel's address space:
 * the data path copies to and from one kernel address per SGE or request.
 */
static void *orxe_mr_kva_locked(struct orxe_mr *mr, u64 va, u32 len)
{
	u64 base, i, first, last;

	if (va < mr->iova || va + len > mr->iova + mr->length)
		return NULL;
	if (!mr->pages)			/* kernel MRs: iova lies at kbase (DMA MRs: both 0) */
		return (void *)(uintptr_t)(mr->kbase + (va - mr->iova));
	base = ALIGN_DOWN(mr->iova, mr->page_size);
	first = div_u64(va - base, mr->page_size);
	last = div_u64(va + len - 1 - base, mr->page_size);
	if (last >= mr->npages)
		return NULL;
	for (i = first; i < last; i++)
		if (mr->pages[i] + mr->page_size != mr->pages[i + 1])
			return NULL;
	return (void *)(uintptr_t)(mr->pages[first] + (va - base) % mr->page_size);
}

/* The kernel address of [@va, @va + @len) in @mr, which then holds a reference for the caller. */
static void *orxe_mr_get_locked(struct orxe_mr *mr, u64 va, u32 len, struct orxe_mr **mrp)
{
	void *kva = orxe_mr_kva_locked(mr, va, len);

	if (kva) {
		refcount_inc(&mr->ref);		/* in mr_keys: the table's reference stands */
		*mrp = mr;
	}
	return kva;
}

/*
 * The kernel address of the bytes an SGE names, after checking its key against @pd, its bounds and
 * @access; NULL if any check fails.  The local DMA lkey (0) names kernel memory directly.  The
 * checks run under the key table's lock, and a key that passes them holds its MR (*@mrp; NULL if
 * none was needed) until the caller's orxe_mr_put(): a deregistration either comes first (and
 * the key fails) or waits for the copy.
 */
void *orxe_sge_get(struct orxe_dev *rdev, struct oib_pd *pd, const struct oib_sge *sge, int access,
		   struct orxe_mr **mrp)
{
	struct orxe_mr *mr;
	unsigned long flags;
	void *kva = NULL;

	*mrp = NULL;
	if (!sge->length)
		return ZERO_SIZE_PTR;
	if (sge->addr + sge->length < sge->addr)
		return NULL;
	if (sge->lkey == pd->local_dma_lkey)
		return (void *)(uintptr_t)sge->addr;

	xa_lock_irqsave(&rdev->mr_keys, flags);
	mr = xa_load(&rdev->mr_keys, sge->lkey >> 8);
	if (mr && mr->state == ORXE_MR_VALID && mr->lkey == sge->lkey && mr->ib.pd == pd &&
	    (mr->access & access) == access)
		kva = orxe_mr_get_locked(mr, sge->addr, sge->length, mrp);
	xa_unlock_irqrestore(&rdev->mr_keys, flags);
	return kva;
}

/*
 * The kernel address of @len bytes at @va under @rkey, for a remote request on a QP of @pd needing
 * @access; NULL if the key is not a valid remote key of @pd for that range and access.  The MR is
 * held as by orxe_sge_get().  A zero-length request names no memory and needs no key.
 */
void *orxe_rkey_get(struct orxe_dev *rdev, struct oib_pd *pd, u32 rkey, u64 va, u32 len,
		    int access, struct orxe_mr **mrp)
{
	struct orxe_mr *mr;
	unsigned long flags;
	void *kva = NULL;

	*mrp = NULL;
	if (!len)
		return ZERO_SIZE_PTR;
	if (va + len < va)
		return NULL;
	xa_lock_irqsave(&rdev->mr_keys, flags);
	mr = xa_load(&rdev->mr_keys, rkey >> 8);
	if (mr && mr->state == ORXE_MR_VALID && mr->rkey && mr->rkey == rkey && mr->ib.pd == pd &&
	    (mr->access & access) == access)
		kva = orxe_mr_get_locked(mr, va, len, mrp);
	xa_unlock_irqrestore(&rdev->mr_keys, flags);
	return kva;
}

/* Whether @rkey allows what orxe_rkey_get() would resolve, nothing held afterwards. */
bool orxe_rkey_ok(struct orxe_dev *rdev, struct oib_pd *pd, u32 rkey, u64 va, u32 len, int access)
{
	struct orxe_mr *mr;

	if (!orxe_rkey_get(rdev, pd, rkey, va, len, access, &mr))
		return false;
	orxe_mr_put(mr);
	return true;
}

/*
 * Copy @len bytes between @buf and the SGL @sge[@num_sge], starting @off bytes into the SGL: into
 * it if @to_sgl (its keys must grant local write), else out of it.  False if a key fails or the SGL
 * is too short.
 */
bool orxe_sgl_copy(struct orxe_qp *qp, const struct oib_sge *sge, u32 num_sge, u32 off, void *buf,
		   u32 len, bool to_sgl)
{
	struct orxe_dev *rdev = to_rdev(qp->ib.device);
	int access = to_sgl ? OIB_ACCESS_LOCAL_WRITE : 0;
	struct orxe_mr *mr;
	u32 i, n;
	u8 *kva;

	for (i = 0; i < num_sge && len; i++, sge++) {
		if (off >= sge->length) {
			off -= sge->length;
			continue;
		}
		kva = orxe_sge_get(rdev, orxe_qp_data_pd(qp), sge, access, &mr);
		if (!kva)
			return false;
		n = min(len, sge->length - off);
		if (to_sgl)
			memcpy(kva + off, buf, n);
		else
			memcpy(buf, kva + off, n);
		orxe_mr_put(mr);
		buf += n;
		len -= n;
		off = 0;
	}
	return !len;
}

/*
 * The kernel address of the @len bytes @off bytes into the SGL @sge[@num_sge], if they lie in one
 * SGE whose key allows reading them; NULL otherwise (orxe_sgl_copy() then copies them, or finds
 * the key that fails).  An SGE @memo holds is not looked up again; one looked up goes into it,
 * with its MR's reference, in place of the one before.
 */
const void *orxe_sgl_kva(struct orxe_qp *qp, const struct oib_sge *sge, u32 num_sge, u32 off,
			 u32 len, struct orxe_sge_memo *memo)
{
	struct orxe_mr *mr;
	u8 *kva;
	u32 i;

	for (i = 0; i < num_sge; i++, sge++) {
		if (off >= sge->length) {
			off -= sge->length;
			continue;
		}
		if (len > sge->length - off)
			return NULL;
		if (memo->sge == sge)
			return memo->kva + off;
		kva = orxe_sge_get(to_rdev(qp->ib.device), orxe_qp_data_pd(qp), sge, 0, &mr);
		if (!kva)
			return NULL;
		orxe_sge_memo_drop(memo);
		memo->sge = sge;
		memo->kva = kva;
		memo->mr = mr;
		return kva + off;
	}
	return NULL;
}

/* The end of a sender's run: what @memo holds is let go. */
void orxe_sge_memo_drop(struct orxe_sge_memo *memo)
{
	orxe_mr_put(memo->mr);
	memo->sge = NULL;
	memo->kva = NULL;
	memo->mr = NULL;
}

/*
 * Invalidate the MR of @pd whose lkey (or, if @remote, rkey) is @key: its keys stop working.
 * -EINVAL if @pd has no such MR (a free one, or one whose keys changed, has none); -EACCES for an
 * MR not made for fast registration (a kernel or user registration: no peer and no work request
 * may revoke it) or a remote invalidation of an MR without a remote key.  Invalidating an invalid
 * MR again is no error.
 */
int orxe_invalidate(struct orxe_dev *rdev, struct oib_pd *pd, u32 key, bool remote)
{
	struct orxe_mr *mr;
	unsigned long flags;
	int ret = -EINVAL;

	xa_lock_irqsave(&rdev->mr_keys, flags);
	mr = xa_load(&rdev->mr_keys, key >> 8);
	if (mr && mr->state != ORXE_MR_FREE && mr->ib.pd == pd &&
	    (mr->lkey == key || (mr->rkey && mr->rkey == key))) {
		if (mr->ib.type != OIB_MR_TYPE_MEM_REG || (remote && !mr->rkey)) {
			ret = -EACCES;
		} else {
			mr->state = ORXE_MR_INVALID;
			ret = 0;
		}
	}
	xa_unlock_irqrestore(&rdev->mr_keys, flags);
	return ret;
}

/*
 * Execute an OIB_WR_REG_MR of a QP of @pd: the MR takes its last mapping, @wr's key and access,
 * and becomes VALID.  -EINVAL if it is another PD's, already VALID, or the key names another MR.
 */
int orxe_reg_mr(struct orxe_dev *rdev, struct oib_pd *pd, const struct oib_send_wr *wr)
{
	struct orxe_mr *mr = to_rmr(wr->wr.reg.mr);
	unsigned long flags;
	int ret = -EINVAL;
	u64 *pages;

	xa_lock_irqsave(&rdev->mr_keys, flags);
	if (mr->ib.pd == pd && mr->state != ORXE_MR_VALID && wr->wr.reg.key >> 8 == mr->index) {
		pages = mr->pages;
		mr->pages = mr->staged;
		mr->staged = pages;
		mr->npages = mr->nstaged;
		mr->page_size = mr->ib.page_size;
		mr->iova = mr->ib.iova;
		mr->length = mr->ib.length;
		mr->access = wr->wr.reg.access;
		mr->lkey = wr->wr.reg.key;
		mr->rkey = mr->access & (OIB_ACCESS_REMOTE_READ | OIB_ACCESS_REMOTE_WRITE |
					 OIB_ACCESS_REMOTE_ATOMIC) ? mr->lkey : 0;
		mr->state = ORXE_MR_VALID;
		ret = 0;
	}
	xa_unlock_irqrestore(&rdev->mr_keys, flags);
	return ret;
}
