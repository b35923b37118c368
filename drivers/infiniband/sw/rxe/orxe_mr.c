// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory regions and their keys.  A key is (index << 8 | variant): the index names the MR in the
 * device's mr_keys table, the low byte is a per-registration variant so a stale key from an earlier
 * registration of the same index does not match.  Index 0 is the local DMA lkey of every PD.
 */
#include <linux/module.h>
#include <linux/random.h>
#include "orxe.h"

#define ORXE_MR_INDEX_MAX	0xffffff

static int orxe_mr_add_key(struct orxe_dev *rdev, struct orxe_mr *mr, int access)
{
	u32 key;
	int ret;

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

int orxe_get_dma_mr(struct oib_mr *ibmr, int access)
{
	return orxe_mr_add_key(to_rdev(ibmr->device), to_rmr(ibmr), access);
}

/*
 * Kernel memory stays mapped at its address, so the key is all a kernel MR needs: the data path
 * reaches the bytes through iova (see orxe_sge_kva()).
 */
int orxe_reg_kernel_mr(struct oib_mr *ibmr, void *addr, size_t len, int access)
{
	return orxe_mr_add_key(to_rdev(ibmr->device), to_rmr(ibmr), access);
}

void orxe_dereg_mr(struct oib_mr *ibmr)
{
	struct orxe_mr *mr = to_rmr(ibmr);

	xa_erase(&to_rdev(ibmr->device)->mr_keys, mr->index);
}

/*
 * The kernel address of the bytes an SGE names, after checking its key against @pd, its bounds and
 * @access; NULL if any check fails.  The local DMA lkey (0) names kernel memory directly.  The
 * checks run under the key table's lock, so a concurrent deregistration either precedes them (and
 * the key fails) or follows: the memory itself is the consumer's to keep until its requests are
 * done.
 */
void *orxe_sge_kva(struct orxe_dev *rdev, struct oib_pd *pd, const struct oib_sge *sge, int access)
{
	struct orxe_mr *mr;
	unsigned long flags;
	void *kva = NULL;

	if (!sge->length)
		return ZERO_SIZE_PTR;
	if (sge->addr + sge->length < sge->addr)
		return NULL;
	if (sge->lkey == pd->local_dma_lkey)
		return (void *)(uintptr_t)sge->addr;

	xa_lock_irqsave(&rdev->mr_keys, flags);
	mr = xa_load(&rdev->mr_keys, sge->lkey >> 8);
	if (mr && mr->ib.lkey == sge->lkey && mr->ib.pd == pd && !mr->invalid &&
	    (mr->ib.access & access) == access && sge->addr >= mr->ib.iova &&
	    sge->addr + sge->length <= mr->ib.iova + mr->ib.length)
		kva = (void *)(uintptr_t)sge->addr;	/* kernel MRs: iova is the address */
	xa_unlock_irqrestore(&rdev->mr_keys, flags);
	return kva;
}

/*
 * The kernel address of @len bytes at @va under @rkey, for a remote request on a QP of @pd needing
 * @access; NULL if the key is not a valid remote key of @pd for that range and access.  A
 * zero-length request names no memory and needs no key.
 */
void *orxe_rkey_kva(struct orxe_dev *rdev, struct oib_pd *pd, u32 rkey, u64 va, u32 len, int access)
{
	struct orxe_mr *mr;
	unsigned long flags;
	void *kva = NULL;

	if (!len)
		return ZERO_SIZE_PTR;
	if (va + len < va)
		return NULL;
	xa_lock_irqsave(&rdev->mr_keys, flags);
	mr = xa_load(&rdev->mr_keys, rkey >> 8);
	if (mr && mr->ib.rkey && mr->ib.rkey == rkey && mr->ib.pd == pd && !mr->invalid &&
	    (mr->ib.access & access) == access && va >= mr->ib.iova &&
	    va + len <= mr->ib.iova + mr->ib.length)
		kva = (void *)(uintptr_t)va;
	xa_unlock_irqrestore(&rdev->mr_keys, flags);
	return kva;
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
	u32 i, n;
	u8 *kva;

	for (i = 0; i < num_sge && len; i++, sge++) {
		if (off >= sge->length) {
			off -= sge->length;
			continue;
		}
		kva = orxe_sge_kva(rdev, qp->ib.pd, sge, access);
		if (!kva)
			return false;
		n = min(len, sge->length - off);
		if (to_sgl)
			memcpy(kva + off, buf, n);
		else
			memcpy(buf, kva + off, n);
		buf += n;
		len -= n;
		off = 0;
	}
	return !len;
}

/*
 * The kernel address of the @len bytes @off bytes into the SGL @sge[@num_sge], if they lie in one
 * SGE whose key allows reading them; NULL otherwise (orxe_sgl_copy() then copies them, or finds
 * the key that fails).
 */
const void *orxe_sgl_kva(struct orxe_qp *qp, const struct oib_sge *sge, u32 num_sge, u32 off,
			 u32 len)
{
	u8 *kva;
	u32 i;

	for (i = 0; i < num_sge; i++, sge++) {
		if (off >= sge->length) {
			off -= sge->length;
			continue;
		}
		if (len > sge->length - off)
			return NULL;
		kva = orxe_sge_kva(to_rdev(qp->ib.device), qp->ib.pd, sge, 0);
		return kva ? kva + off : NULL;
	}
	return NULL;
}

/*
 * Invalidate the MR of @pd whose lkey (or, if @remote, rkey) is @key: its keys stop working.
 * -EINVAL if @pd has no such MR; -EACCES for a remote invalidation of an MR without a remote key.
 */
int orxe_invalidate(struct orxe_dev *rdev, struct oib_pd *pd, u32 key, bool remote)
{
	struct orxe_mr *mr;
	unsigned long flags;
	int ret = -EINVAL;

	xa_lock_irqsave(&rdev->mr_keys, flags);
	mr = xa_load(&rdev->mr_keys, key >> 8);
	if (mr && mr->ib.pd == pd && (mr->ib.lkey == key || (mr->ib.rkey && mr->ib.rkey == key))) {
		if (remote && !mr->ib.rkey) {
			ret = -EACCES;
		} else {
			mr->invalid = true;
			ret = 0;
		}
	}
	xa_unlock_irqrestore(&rdev->mr_keys, flags);
	return ret;
}
