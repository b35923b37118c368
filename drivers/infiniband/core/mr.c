// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory regions.  An MR is owned by its creator and holds a count on its PD until
 * oib_dereg_mr().  lkey and rkey are the provider's; rkey is 0 unless remote access was asked for.
 *
 * The memory's lifetime: a provider resolves a key to the memory only for the copies of one packet
 * (or a batch of them, or one read's responses) and holds the MR while it copies; a message that
 * spans packets resolves its key again for each.  The provider's dereg_mr takes the keys away and
 * waits for the copies in progress, so once oib_dereg_mr() returns nothing reads or writes the
 * memory: the registrant may free it, whatever requests were under way (the rest of a message then
 * fails its key check), on any QP type.  oib_dereg_mr() may sleep.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include "core_priv.h"

/* Remote write and atomic access imply that the local side can write too (IBTA o10-35). */
bool oib_access_valid(struct oib_device *device, int access)
{
	if (access & ~OIB_ACCESS_ALL)
		return false;
	if ((access & (OIB_ACCESS_REMOTE_WRITE | OIB_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & OIB_ACCESS_LOCAL_WRITE))
		return false;
	if ((access & OIB_ACCESS_REMOTE_ATOMIC) && device->attrs.atomic_cap == OIB_ATOMIC_NONE)
		return false;
	return true;
}

struct oib_mr *oib_mr_alloc(struct oib_pd *pd, int access)
{
	struct oib_device *device;
	struct oib_mr *mr;

	if (IS_ERR_OR_NULL(pd))
		return ERR_PTR(-EINVAL);
	device = pd->device;
	if (!oib_access_valid(device, access))
		return ERR_PTR(-EINVAL);

	mr = oib_alloc_object(device, OIB_OBJ_MR, device->ops->size_mr);
	if (IS_ERR(mr))
		return mr;
	mr->device = device;
	mr->pd = pd;
	mr->access = access;
	return mr;
}

struct oib_mr *oib_mr_done(struct oib_mr *mr, int ret)
{
	if (ret) {
		oib_free_object(mr->device, OIB_OBJ_MR, mr);
		return ERR_PTR(ret);
	}
	atomic_inc(&mr->pd->usecnt);
	oib_res_add(mr->device, OIB_OBJ_MR, &mr->res, 0);
	return mr;
}

struct oib_mr *oib_get_dma_mr(struct oib_pd *pd, int access)
{
	struct oib_mr *mr = oib_mr_alloc(pd, access);

	if (IS_ERR(mr))
		return mr;
	mr->iova = 0;
	mr->length = U64_MAX;
	return oib_res_caller_mr(oib_mr_done(mr, pd->device->ops->get_dma_mr(mr, access)),
				 _RET_IP_);
}
EXPORT_SYMBOL(oib_get_dma_mr);

static bool oib_kernel_range_valid(void *addr, size_t len)
{
	unsigned long start = (unsigned long)addr;

	if (!len || start + len < start)
		return false;
	if (is_vmalloc_addr(addr))
		return is_vmalloc_addr(addr + len - 1);
	return virt_addr_valid(addr) && virt_addr_valid(addr + len - 1);
}

struct oib_mr *oib_reg_kernel_mr_iova(struct oib_pd *pd, void *addr, size_t len, u64 iova,
				      int access)
{
	struct oib_mr *mr;

	if (!oib_kernel_range_valid(addr, len) || iova + len < iova)
		return ERR_PTR(-EINVAL);
	if (!IS_ERR_OR_NULL(pd) && len > pd->device->attrs.max_mr_size)
		return ERR_PTR(-EINVAL);
	mr = oib_mr_alloc(pd, access);
	if (IS_ERR(mr))
		return mr;
	mr->iova = iova;
	mr->length = len;
	return oib_res_caller_mr(oib_mr_done(mr, pd->device->ops->reg_kernel_mr(mr, addr, len,
										access)),
				 _RET_IP_);
}
EXPORT_SYMBOL(oib_reg_kernel_mr_iova);

struct oib_mr *oib_reg_kernel_mr(struct oib_pd *pd, void *addr, size_t len, int access)
{
	return oib_res_caller_mr(oib_reg_kernel_mr_iova(pd, addr, len, (u64)(uintptr_t)addr,
							access),
				 _RET_IP_);
}
EXPORT_SYMBOL(oib_reg_kernel_mr);

int oib_dereg_mr(struct oib_mr *mr)
{
	struct oib_pd *pd;

	might_sleep();
	if (IS_ERR_OR_NULL(mr))
		return -EINVAL;
	pd = mr->pd;
	oib_res_del(mr->device, OIB_OBJ_MR, &mr->res);
	mr->device->ops->dereg_mr(mr);	/* returns with the memory let go */
	oib_free_object(pd->device, OIB_OBJ_MR, mr);
	atomic_dec(&pd->usecnt);
	return 0;
}
EXPORT_SYMBOL(oib_dereg_mr);
