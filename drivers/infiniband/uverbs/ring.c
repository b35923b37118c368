// SPDX-License-Identifier: GPL-2.0-only
/*
 * Rings mapped into the process (include/uapi/oib/uverbs.h has the layout).  A ring is zeroed
 * pages: the kernel reads and writes them through its own mapping (vmap()), from any context,
 * and the process maps them through the context's file at the offset the create command
 * answered (its key in the file's @rings table, in pages).  The object that made the ring takes
 * it out of the table when it goes; a mapping made before keeps the memory (a reference per
 * VMA), so the process never faults on a ring it mapped and the kernel never writes to memory
 * that is gone.  Nothing the process writes there is trusted (sq_ring.c, cq_ring.c).
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <kunit/visibility.h>
#include <oib/kunit/uverbs.h>
#include "uverbs.h"

/* The largest ring, header and entries. */
#define OIB_UVERBS_RING_MAX_BYTES	(16u << 20)

static void oib_uverbs_kring_release(struct kref *ref)
{
	struct oib_uverbs_kring *ring = container_of(ref, struct oib_uverbs_kring, ref);
	unsigned int i;

	if (ring->mem)
		vunmap(ring->mem);
	for (i = 0; ring->pages && i < ring->npages && ring->pages[i]; i++)
		__free_page(ring->pages[i]);
	kfree(ring->pages);
	kfree(ring);
}

static void oib_uverbs_kring_put(struct oib_uverbs_kring *ring)
{
	kref_put(&ring->ref, oib_uverbs_kring_release);
}

/* Zeroed pages and the kernel's mapping of them (failures are quiet: -ENOMEM says it all). */
static int oib_uverbs_kring_pages(struct oib_uverbs_kring *ring)
{
	unsigned int i;

	ring->pages = kcalloc(ring->npages, sizeof(*ring->pages), GFP_KERNEL_ACCOUNT);
	if (!ring->pages)
		return -ENOMEM;
	for (i = 0; i < ring->npages; i++) {
		ring->pages[i] = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO | __GFP_NOWARN);
		if (!ring->pages[i])
			return -ENOMEM;
	}
	ring->mem = vmap(ring->pages, ring->npages, VM_MAP, PAGE_KERNEL);
	return ring->mem ? 0 : -ENOMEM;
}

/*
 * A ring of at least @entries entries (rounded up to a power of two) of @stride bytes, in
 * @ufile's table; @out says where to map it.
 */
struct oib_uverbs_kring *oib_uverbs_kring_alloc(struct oib_uverbs_file *ufile, u32 entries,
						u32 stride, struct oib_uverbs_ring *out)
{
	struct oib_uverbs_kring *ring;
	u64 bytes;
	int ret;

	if (!entries || entries > OIB_UVERBS_RING_MAX_BYTES || !stride)
		return ERR_PTR(-EINVAL);
	entries = roundup_pow_of_two(entries);
	bytes = PAGE_ALIGN(sizeof(struct oib_uverbs_ring_hdr) + (u64)entries * stride);
	if (bytes > OIB_UVERBS_RING_MAX_BYTES)
		return ERR_PTR(-EINVAL);
	ring = kzalloc(sizeof(*ring), GFP_KERNEL_ACCOUNT);
	if (!ring)
		return ERR_PTR(-ENOMEM);
	kref_init(&ring->ref);
	ring->ufile = ufile;
	ring->entries = entries;
	ring->stride = stride;
	ring->size = bytes;
	ring->npages = bytes >> PAGE_SHIFT;
	ret = oib_uverbs_kring_pages(ring);
	if (!ret)
		ret = xa_alloc(&ufile->rings, &ring->key, ring, XA_LIMIT(1, U32_MAX >> PAGE_SHIFT),
			       GFP_KERNEL_ACCOUNT);
	if (ret) {
		oib_uverbs_kring_put(ring);
		return ERR_PTR(ret);
	}
	*out = (struct oib_uverbs_ring){
		.offset = (u64)ring->key << PAGE_SHIFT, .size = bytes, .entries = entries,
		.stride = stride,
	};
	return ring;
}

/* The object is done with @ring: no new mapping; existing ones keep the memory. */
void oib_uverbs_kring_free(struct oib_uverbs_kring *ring)
{
	if (!ring)
		return;
	xa_erase(&ring->ufile->rings, ring->key);
	oib_uverbs_kring_put(ring);
}

/* Entry @index (free-running) of @ring. */
void *oib_uverbs_kring_entry(struct oib_uverbs_kring *ring, u32 index)
{
	return ring->mem + sizeof(struct oib_uverbs_ring_hdr) +
	       (size_t)(index & (ring->entries - 1)) * ring->stride;
}

static void oib_uverbs_vma_open(struct vm_area_struct *vma)
{
	struct oib_uverbs_kring *ring = vma->vm_private_data;

	kref_get(&ring->ref);
}

static void oib_uverbs_vma_close(struct vm_area_struct *vma)
{
	oib_uverbs_kring_put(vma->vm_private_data);
}

static const struct vm_operations_struct oib_uverbs_vm_ops = {
	.open = oib_uverbs_vma_open,
	.close = oib_uverbs_vma_close,
};

/*
 * mmap() of a ring: shared, the whole ring.  A child made by fork() shares it, as it shares the
 * file (liboibv marks its rings MADV_DONTFORK, as libibverbs's providers do their buffers).
 */
int oib_uverbs_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct oib_uverbs_file *ufile = filp->private_data;
	struct oib_uverbs_kring *ring;
	int ret;

	if (!(vma->vm_flags & VM_SHARED) || vma->vm_pgoff > U32_MAX)
		return -EINVAL;
	xa_lock(&ufile->rings);
	ring = xa_load(&ufile->rings, vma->vm_pgoff);
	if (ring)
		kref_get(&ring->ref);
	xa_unlock(&ufile->rings);
	if (!ring)
		return -EINVAL;
	ret = vma->vm_end - vma->vm_start == ring->size ? 0 : -EINVAL;
	if (!ret) {
		unsigned long n = ring->npages;

		ret = vm_insert_pages(vma, vma->vm_start, ring->pages, &n);
	}
	if (ret) {
		oib_uverbs_kring_put(ring);
		return ret;
	}
	vma->vm_private_data = ring;
	vma->vm_ops = &oib_uverbs_vm_ops;
	return 0;
}

#if IS_ENABLED(CONFIG_KUNIT)
void *oib_uverbs_test_ring(struct oib_uverbs_file *ufile, u64 offset)
{
	struct oib_uverbs_kring *ring = xa_load(&ufile->rings, offset >> PAGE_SHIFT);

	return ring ? ring->mem : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_test_ring);
#endif /* CONFIG_KUNIT */
