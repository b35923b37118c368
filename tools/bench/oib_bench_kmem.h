/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_bench's measure of the kernel's memory in use (oib_bench_kmem.c), for the fan-in phases'
 * bytes per connection: the pages the page allocator has handed out, except that slab pages
 * count for the bytes of the objects in use in them, so that what a slab cache keeps free (whole
 * empty slabs, free objects in partly used ones) counts for nothing.  Only differences between
 * two readings mean anything; nothing else may run meanwhile.
 */
#ifndef OIB_BENCH_KMEM_H
#define OIB_BENCH_KMEM_H

struct file;

struct oib_bench_kmem {
	struct file *slabinfo;	/* /proc/slabinfo, open for every reading */
	char *buf;
};

/* Open /proc/slabinfo and the buffer it is read into: before the first reading. */
int oib_bench_kmem_open(struct oib_bench_kmem *k);
void oib_bench_kmem_close(struct oib_bench_kmem *k);
/*
 * The kernel's memory in use now, in bytes (see above); the kmalloc caches are shrunk first
 * (their CPU slabs flushed, their empty slabs freed), so that their counts are exact.
 */
int oib_bench_kmem_used(struct oib_bench_kmem *k, long *bytes);

#endif /* OIB_BENCH_KMEM_H */
