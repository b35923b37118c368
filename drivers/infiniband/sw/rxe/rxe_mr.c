// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory regions and their keys.  A key is (index << 8 | variant): the index names the MR in the
 * device's mr_keys table, the low byte is a per-registration variant so a stale key from an earlier
 * registration of the same index does not match.  Index 0 is the local DMA lkey of every PD.
 */
#include <linux/module.h>
#include <linux/random.h>
#include "rxe.h"

#define RXE_MR_INDEX_MAX	0xffffff

static int rxe_mr_add_key(struct rxe_dev *rdev, struct rxe_mr *mr, int access)
{
	u32 key;
	int ret;

	ret = xa_alloc_cyclic(&rdev->mr_keys, &mr->index, mr, XA_LIMIT(1, RXE_MR_INDEX_MAX),
			      &rdev->next_mr_index, GFP_KERNEL);
	if (ret < 0)
		return ret == -EBUSY ? -ENOSPC : ret;

	key = mr->index << 8 | (get_random_u32() & 0xff);
	mr->ib.lkey = key;
	mr->ib.rkey = access & (OIB_ACCESS_REMOTE_READ | OIB_ACCESS_REMOTE_WRITE |
				OIB_ACCESS_REMOTE_ATOMIC) ? key : 0;
	return 0;
}

int rxe_get_dma_mr(struct oib_mr *ibmr, int access)
{
	return rxe_mr_add_key(to_rdev(ibmr->device), to_rmr(ibmr), access);
}

/*
 * Kernel memory stays mapped at its address, so the key is all a kernel MR needs: the data path
 * reaches the bytes through iova (see rxe_sge_kva()).
 */
int rxe_reg_kernel_mr(struct oib_mr *ibmr, void *addr, size_t len, int access)
{
	return rxe_mr_add_key(to_rdev(ibmr->device), to_rmr(ibmr), access);
}

void rxe_dereg_mr(struct oib_mr *ibmr)
{
	struct rxe_mr *mr = to_rmr(ibmr);

	xa_erase(&to_rdev(ibmr->device)->mr_keys, mr->index);
}

/*
 * The kernel address of the bytes an SGE names, after checking its key against @pd, its bounds and
 * @access; NULL if any check fails.  The local DMA lkey (0) names kernel memory directly.  The
 * checks run under the key table's lock, so a concurrent deregistration either precedes them (and
 * the key fails) or follows: the memory itself is the consumer's to keep until its requests are
 * done.
 */
void *rxe_sge_kva(struct rxe_dev *rdev, struct oib_pd *pd, const struct oib_sge *sge, int access)
{
	struct rxe_mr *mr;
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
	if (mr && mr->ib.lkey == sge->lkey && mr->ib.pd == pd &&
	    (mr->ib.access & access) == access && sge->addr >= mr->ib.iova &&
	    sge->addr + sge->length <= mr->ib.iova + mr->ib.length)
		kva = (void *)(uintptr_t)sge->addr;	/* kernel MRs: iova is the address */
	xa_unlock_irqrestore(&rdev->mr_keys, flags);
	return kva;
}
