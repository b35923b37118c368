// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's memory in use, for oib_bench's fan-in phases (oib_bench_kmem.h):
 *   the pages out of the page allocator: every zone's managed pages less its free ones (the
 *   per-CPU counter deltas folded in, the pages on the per-CPU lists counted as free)
 *   - the pages of the slab caches, + the bytes of their objects in use (both from /proc/slabinfo)
 * Large kmalloc()s, vmalloc() and page allocations count by their pages, slab objects by their
 * cache's object size.  The kmalloc caches are shrunk before each reading: flushing their CPU
 * slabs makes their counts exact (a CPU slab counts as all in use); other caches' CPU slabs can
 * make a reading up to a slab high.
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/seq_file.h>
#include <linux/nodemask.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>
#include "oib_bench_kmem.h"

#define KMEM_BUF	(256 * 1024)	/* /proc/slabinfo: a line of about 130 bytes a cache */
/*
 * A cache's line (version 2.1): name, objects in use, objects, object size, objects a slab, pages
 * a slab, tunables, slabs in use, slabs, shared
 */
#define KMEM_LINE	"%*s %lu %lu %lu %lu %lu : tunables %*u %*u %*u : slabdata %*u %lu"

/*
 * /proc/slabinfo, whole, into k->buf as a string; its length or an error.  kernel_read() refuses
 * the file (a proc_read, no read_iter), so its seq_file's operations print into a seq_file of
 * ours on k->buf, as seq_read() would into its own buffer.
 */
static long kmem_read_slabinfo(struct oib_bench_kmem *k)
{
	struct seq_file *file = k->slabinfo->private_data;
	struct seq_file m = { .buf = k->buf, .size = KMEM_BUF - 1, .op = file->op };
	loff_t pos = 0;
	void *p;
	int ret = 0;

	p = m.op->start(&m, &pos);
	while (p && !IS_ERR(p) && ret >= 0) {
		ret = m.op->show(&m, p);
		p = m.op->next(&m, p, &pos);
	}
	m.op->stop(&m, p);
	if (IS_ERR(p))
		return PTR_ERR(p);
	if (ret < 0)
		return ret;
	if (seq_has_overflowed(&m))
		return -EFBIG;
	k->buf[m.count] = '\0';
	return m.count;
}

/* Flush the kmalloc caches' CPU slabs and free their empty slabs. */
static void kmem_shrink(void)
{
	int t, i;

	for (t = 0; t < NR_KMALLOC_TYPES; t++)
		for (i = 0; i <= KMALLOC_SHIFT_HIGH; i++)
			if (kmalloc_caches[t][i])
				kmem_cache_shrink(kmalloc_caches[t][i]);
}

/* Pages the page allocator has handed out. */
static long kmem_pages_used(void)
{
	struct zone *zone;
	long pages = 0;
	int nid, z, cpu;

	for_each_online_node(nid) {
		for (z = 0; z < MAX_NR_ZONES; z++) {
			zone = &NODE_DATA(nid)->node_zones[z];
			if (!populated_zone(zone))
				continue;
			pages += zone_managed_pages(zone);
			pages -= zone_page_state_snapshot(zone, NR_FREE_PAGES);
			for_each_online_cpu(cpu)
				pages -= READ_ONCE(per_cpu_ptr(zone->per_cpu_pageset, cpu)->count);
		}
	}
	return pages;
}

/* From /proc/slabinfo: the bytes of the slab caches' objects in use less their slabs' bytes. */
static int kmem_slab_excess(struct oib_bench_kmem *k, long *bytes)
{
	unsigned long active, num, size, per_slab, pages, slabs;
	char *p, *line;
	long ret;

	ret = kmem_read_slabinfo(k);
	if (ret < 0)
		return ret;
	*bytes = 0;
	p = k->buf;
	while ((line = strsep(&p, "\n"))) {
		if (!*line || !strncmp(line, "slabinfo", 8) || *line == '#')
			continue;
		if (sscanf(line, KMEM_LINE, &active, &num, &size, &per_slab, &pages, &slabs) != 6) {
			pr_info("oib-bench: /proc/slabinfo: a line not understood: %s\n", line);
			return -EINVAL;
		}
		*bytes += (long)(active * size) - (long)(slabs * pages * PAGE_SIZE);
	}
	return 0;
}

int oib_bench_kmem_used(struct oib_bench_kmem *k, long *bytes)
{
	long slab;
	int ret;

	kmem_shrink();
	*bytes = kmem_pages_used() * PAGE_SIZE;
	ret = kmem_slab_excess(k, &slab);
	if (!ret)
		*bytes += slab;
	return ret;
}

int oib_bench_kmem_open(struct oib_bench_kmem *k)
{
	struct file *file;
	long ret;

	k->buf = vmalloc(KMEM_BUF);
	if (!k->buf)
		return -ENOMEM;
	file = filp_open("/proc/slabinfo", O_RDONLY, 0);
	if (IS_ERR(file)) {
		vfree(k->buf);
		k->buf = NULL;
		return PTR_ERR(file);
	}
	k->slabinfo = file;
	/* a first reading: the format checked before any measurement */
	return kmem_slab_excess(k, &ret);
}

void oib_bench_kmem_close(struct oib_bench_kmem *k)
{
	if (k->slabinfo)
		filp_close(k->slabinfo, NULL);
	vfree(k->buf);
	*k = (struct oib_bench_kmem){};
}
