// SPDX-License-Identifier: GPL-2.0-only
/*
 * Coverage for the fuzzer: each of its threads traces the kernel code its own system calls run
 * (KCOV, in the test kernel for oib's modules only), and a call's trace is folded into one bitmap
 * of edges (pairs of consecutive PCs).  A program that sets a bit no program set before is kept
 * in the corpus.  Without /sys/kernel/debug/kcov (a kernel without KCOV) every call reports
 * nothing new and the fuzzer falls back on its (command, errno, state) signal.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "fuzz.h"

#define KCOV_PATH		"/sys/kernel/debug/kcov"
#define KCOV_INIT_TRACE		_IOR('c', 1, unsigned long)
#define KCOV_ENABLE		_IO('c', 100)
#define KCOV_TRACE_PC		0
#define COVER_WORDS		(256 * 1024)	/* PCs a call may leave, and the count */
#define EDGE_BITS		(4 * 1024 * 1024)

static uint8_t edges[EDGE_BITS / 8];
static unsigned int nedges;
static bool available;

/* The thread's trace buffer: word 0 counts the PCs after it.  NULL: not tracing. */
static __thread unsigned long *cover;

bool fz_cover_init(void)
{
	available = !access(KCOV_PATH, R_OK | W_OK);
	return available;
}

/* Trace the calling thread's system calls from now on (a thread of the fuzzer, once). */
void fz_cover_thread(void)
{
	unsigned long *c;
	int fd;

	if (!available || cover)
		return;
	fd = open(KCOV_PATH, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	if (ioctl(fd, KCOV_INIT_TRACE, COVER_WORDS))
		goto out;
	c = mmap(NULL, COVER_WORDS * sizeof(*c), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (c == MAP_FAILED)
		goto out;
	if (ioctl(fd, KCOV_ENABLE, KCOV_TRACE_PC)) {
		munmap(c, COVER_WORDS * sizeof(*c));
		goto out;
	}
	cover = c;
out:
	close(fd);	/* the mapping and the task keep the trace */
}

/* A forked child: its copy of the mapping is the parent's buffer, and the child is not traced. */
void fz_cover_forget(void)
{
	cover = NULL;
}

void fz_cover_begin(void)
{
	if (cover)
		__atomic_store_n(&cover[0], 0, __ATOMIC_RELAXED);
}

static uint32_t edge_of(unsigned long prev, unsigned long pc)
{
	uint64_t h = (pc ^ (prev >> 1)) * 0x9e3779b97f4a7c15ull;

	return h >> 42;		/* the top 22 bits */
}

/* Fold the trace since fz_cover_begin() into the edges; how many were new. */
unsigned int fz_cover_end(void)
{
	unsigned long n, i, prev = 0;
	unsigned int fresh = 0;
	uint32_t e;
	uint8_t bit;

	if (!cover)
		return 0;
	n = __atomic_load_n(&cover[0], __ATOMIC_RELAXED);
	if (n > COVER_WORDS - 1)
		n = COVER_WORDS - 1;
	for (i = 1; i <= n; i++) {
		e = edge_of(prev, cover[i]);
		prev = cover[i];
		bit = 1u << (e % 8);
		if (__atomic_load_n(&edges[e / 8], __ATOMIC_RELAXED) & bit)
			continue;
		if (!(__atomic_fetch_or(&edges[e / 8], bit, __ATOMIC_RELAXED) & bit))
			fresh++;
	}
	if (fresh)
		__atomic_add_fetch(&nedges, fresh, __ATOMIC_RELAXED);
	return fresh;
}

/* Edges seen so far, or -1 without KCOV. */
long fz_cover_edges(void)
{
	return available ? (long)__atomic_load_n(&nedges, __ATOMIC_RELAXED) : -1;
}
