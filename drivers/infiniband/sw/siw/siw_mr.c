// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory regions: oib_core's MRs of software providers and their key table (struct oib_sw_mr in
 * <oib/sw.h>: keys, STags on the wire, registration, invalidation, resolving a key with the
 * reference that keeps its memory).  What is oib_siw's: the verbs that name the device's table,
 * and the copies the data path makes, a contiguous piece at a time: nothing keeps an address
 * across DDP segments or read responses, each resolves its STag again.
 */
#include "siw.h"

int siw_get_dma_mr(struct oib_mr *ib, int access)
{
	return oib_sw_mr_kernel(&to_sdev(ib->device)->mr_keys, oib_sw_mr(ib), access, 0);
}

int siw_reg_kernel_mr(struct oib_mr *ib, void *addr, size_t len, int access)
{
	return oib_sw_mr_kernel(&to_sdev(ib->device)->mr_keys, oib_sw_mr(ib), access,
				(u64)(uintptr_t)addr);
}

int siw_alloc_mr(struct oib_mr *ib, u32 max_num_sg)
{
	return oib_sw_mr_alloc(&to_sdev(ib->device)->mr_keys, oib_sw_mr(ib), max_num_sg);
}

/* No key finds the MR any more; the copies that found it before are waited out. */
void siw_dereg_mr(struct oib_mr *ib)
{
	oib_sw_mr_dereg(&to_sdev(ib->device)->mr_keys, oib_sw_mr(ib));
}

int siw_mem_copy(struct siw_dev *sdev, struct oib_pd *pd, u32 key, u64 va, void *buf, u32 len,
		 int access, bool remote, bool to_mem)
{
	struct oib_sw_mr_ref ref;
	u8 *kva;
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
		ret = oib_sw_mr_get(&sdev->mr_keys, pd, key, remote, va, len, access, &ref);
		if (ret)
			return ret;
		if (to_mem)
			memcpy(ref.kva, buf, ref.len);
		else
			memcpy(buf, ref.kva, ref.len);
		oib_sw_mr_put(ref.mr);
		va += ref.len;
		buf += ref.len;
		len -= ref.len;
	}
	return 0;
}
