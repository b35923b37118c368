// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fast-registration MRs: allocated empty, given a page list by oib_map_mr_sg(), registered and
 * invalidated by work requests on a QP (OIB_WR_REG_MR, OIB_WR_LOCAL_INV, OIB_WR_SEND_WITH_INV),
 * which the provider executes in send-queue order.  Like every MR, one is owned by its creator and
 * holds a count on its PD until oib_dereg_mr().
 *
 * Addresses: oib devices do no DMA, so a scatterlist given to oib_map_mr_sg() is not DMA-mapped;
 * its entries name kernel memory (page, offset, length) and the page list holds kernel virtual
 * addresses of page_size blocks.  The MR's iova is the kernel virtual address of its first byte,
 * as for oib_reg_kernel_mr() and the local DMA lkey.
 */
#include <linux/module.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/scatterlist.h>
#include "core_priv.h"

struct oib_mr *oib_alloc_mr(struct oib_pd *pd, enum oib_mr_type type, u32 max_num_sg)
{
	struct oib_device *device;
	struct oib_mr *mr;

	if (IS_ERR_OR_NULL(pd) || type != OIB_MR_TYPE_MEM_REG || !max_num_sg)
		return ERR_PTR(-EINVAL);
	device = pd->device;
	if (!device->ops->alloc_mr || !device->ops->map_mr_sg ||
	    !(device->attrs.device_cap_flags & OIB_DEVICE_MEM_MGT_EXTENSIONS))
		return ERR_PTR(-EOPNOTSUPP);
	if (max_num_sg > device->attrs.max_fast_reg_page_list_len)
		return ERR_PTR(-EINVAL);

	mr = oib_mr_alloc(pd, 0);
	if (IS_ERR(mr))
		return mr;
	mr->type = type;
	mr->max_num_sg = max_num_sg;
	return oib_res_caller_mr(oib_mr_done(mr, device->ops->alloc_mr(mr, max_num_sg)), _RET_IP_);
}
EXPORT_SYMBOL(oib_alloc_mr);

int oib_map_mr_sg(struct oib_mr *mr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset, unsigned int page_size)
{
	unsigned int off = sg_offset ? *sg_offset : 0;

	if (IS_ERR_OR_NULL(mr) || mr->type != OIB_MR_TYPE_MEM_REG || !sg || sg_nents <= 0)
		return -EINVAL;
	if (!is_power_of_2(page_size) || !(page_size & mr->device->attrs.page_size_cap) ||
	    off >= sg->length)
		return -EINVAL;
	mr->page_size = page_size;
	return mr->device->ops->map_mr_sg(mr, sg, sg_nents, off);
}
EXPORT_SYMBOL(oib_map_mr_sg);

/* How many @size blocks [@start, @end) touches, not counting @last if the entry goes on in it. */
static u32 oib_sg_new_blocks(u64 start, u64 end, u32 size, u64 last, bool have_last)
{
	u64 first = ALIGN_DOWN(start, size);
	u32 n = div_u64(ALIGN(end, size) - first, size);

	return have_last && first == last ? n - 1 : n;
}

/*
 * For providers' map_mr_sg: walk @sg_nents entries of @sgl (the first from @sg_offset on), call
 * @set_page for each mr->page_size block in order, and set mr->iova and mr->length.  Stops before
 * an entry that leaves a gap inside a block or does not fit in mr->max_num_sg blocks; returns the
 * number of entries mapped, or -EINVAL if none was.
 */
int oib_sg_to_pages(struct oib_mr *mr, struct scatterlist *sgl, int sg_nents,
		    unsigned int sg_offset, void (*set_page)(struct oib_mr *mr, u64 addr))
{
	u64 mask = ~((u64)mr->page_size - 1), start, end = 0, block, last = 0;
	u32 size = mr->page_size;
	struct scatterlist *sg;
	u32 npages = 0, need;
	bool cont;
	int i;

	mr->iova = 0;
	mr->length = 0;
	for_each_sg(sgl, sg, sg_nents, i) {
		start = (u64)(uintptr_t)sg_virt(sg) + (i ? 0 : sg_offset);
		if (sg->length <= (i ? 0 : sg_offset))
			break;
		/* a block may have a gap only at its start (first entry) or end (last entry) */
		if (i && start != end && ((end & ~mask) || (start & ~mask)))
			break;
		/*
		 * Only an entry that goes on where the last one ended shares its block; after a
		 * gap even the same page is a block again (the zero page, repeated).
		 */
		cont = i && start == end;
		need = oib_sg_new_blocks(start, start + sg->length - (i ? 0 : sg_offset), size,
					 last, cont);
		if (npages + need > mr->max_num_sg)
			break;
		if (!i)
			mr->iova = start;
		end = start + sg->length - (i ? 0 : sg_offset);
		for (block = start & mask; block < end; block += size) {
			if (cont && block == last)
				continue;
			set_page(mr, block);
			last = block;
			npages++;
		}
		mr->length += end - start;
	}
	return i ? i : -EINVAL;
}
EXPORT_SYMBOL(oib_sg_to_pages);

int oib_update_fast_reg_key(struct oib_mr *mr, u8 newkey)
{
	if (IS_ERR_OR_NULL(mr) || mr->type != OIB_MR_TYPE_MEM_REG)
		return -EINVAL;
	mr->lkey = (mr->lkey & 0xffffff00) | newkey;
	mr->rkey = (mr->rkey & 0xffffff00) | newkey;
	return 0;
}
EXPORT_SYMBOL(oib_update_fast_reg_key);
