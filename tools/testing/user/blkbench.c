// SPDX-License-Identifier: GPL-2.0-only
/*
 * blkbench: a block device load for make bench (busybox has no fio).  QD threads each keep one
 * direct (O_DIRECT) request of BS bytes in flight on DEV for SECONDS: sequential reads or writes
 * (the threads take the next offset in turn, wrapping at the end of the device) or random reads
 * (offsets aligned to BS, from a seeded generator per thread), or, untimed, writes the whole device
 * once (fill).
 * The data is checked: every 512-byte sector written carries a stamp (its byte offset and a
 * magic derived from it) and every sector read must carry its own, so fill a device before
 * reading it.  A wrong stamp is a failure (exit status 1, the offset on stderr).
 * Usage: blkbench DEV read|write|randread|fill BS QD SECONDS
 * Prints "ops=N bytes=N ns=N": the requests completed, their bytes, the wall time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define MAX_QD 256

enum mode { SEQ_READ, SEQ_WRITE, RAND_READ, FILL };

#define SECTOR		512
#define STAMP_MAGIC	0x6f6962626c6b0000ull	/* "oibblk" */

static const char *dev;
static enum mode mode;
static uint64_t bs, size, deadline_ns;
static atomic_uint_fast64_t cursor, ops;
static atomic_int failed;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* xorshift64: each thread's random offsets, reproducible from its index */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void stamp(uint64_t *buf, uint64_t off)
{
	uint64_t i;

	for (i = 0; i < bs / SECTOR; i++, off += SECTOR) {
		buf[i * SECTOR / 8] = off;
		buf[i * SECTOR / 8 + 1] = off ^ STAMP_MAGIC;
	}
}

/* The offset of the first sector of @buf (read at @off) without its stamp; -1 if none. */
static int64_t unstamped(const uint64_t *buf, uint64_t off)
{
	uint64_t i;

	for (i = 0; i < bs / SECTOR; i++, off += SECTOR)
		if (buf[i * SECTOR / 8] != off || buf[i * SECTOR / 8 + 1] != (off ^ STAMP_MAGIC))
			return off;
	return -1;
}

/* The next offset, or false when a fill has covered the device. */
static bool next_off(uint64_t *seed, uint64_t blocks, uint64_t *off)
{
	uint64_t n;

	if (mode == RAND_READ) {
		*off = next_rand(seed) % blocks * bs;
		return true;
	}
	n = atomic_fetch_add(&cursor, 1);
	*off = n % blocks * bs;
	return mode != FILL || n < blocks;
}

static void *worker(void *arg)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull * ((uintptr_t)arg + 1), off, blocks = size / bs;
	bool writes = mode == SEQ_WRITE || mode == FILL;
	int64_t bad = -1;
	void *buf;
	ssize_t n;
	int fd;

	fd = open(dev, (writes ? O_WRONLY : O_RDONLY) | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, 4096, bs)) {
		perror(dev);
		atomic_store(&failed, 1);
		return NULL;
	}
	memset(buf, 0x5a, bs);
	while ((mode == FILL || now_ns() < deadline_ns) && !atomic_load(&failed) &&
	       next_off(&seed, blocks, &off)) {
		if (writes)
			stamp(buf, off);
		n = writes ? pwrite(fd, buf, bs, off) : pread(fd, buf, bs, off);
		if (n == (ssize_t)bs && !writes)
			bad = unstamped(buf, off);
		if (n != (ssize_t)bs || bad >= 0) {
			fprintf(stderr, "%s: %s at %llu: %s\n", dev, writes ? "write" : "read",
				(unsigned long long)(bad >= 0 ? (uint64_t)bad : off),
				bad >= 0 ? "not the data written there" :
				n < 0 ? strerror(errno) : "short");
			atomic_store(&failed, 1);
			break;
		}
		atomic_fetch_add(&ops, 1);
	}
	free(buf);
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_QD];
	uint64_t t0, t1;
	long qd, secs, i;
	int fd;

	if (argc != 6) {
		fprintf(stderr, "usage: blkbench DEV read|write|randread|fill BS QD SECONDS\n");
		return 2;
	}
	dev = argv[1];
	mode = !strcmp(argv[2], "write") ? SEQ_WRITE : !strcmp(argv[2], "randread") ? RAND_READ :
	       !strcmp(argv[2], "fill") ? FILL : SEQ_READ;
	bs = strtoull(argv[3], NULL, 0);
	qd = strtol(argv[4], NULL, 0);
	secs = strtol(argv[5], NULL, 0);
	fd = open(dev, O_RDONLY);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size)) {
		perror(dev);
		return 1;
	}
	close(fd);
	if (!bs || bs % SECTOR || bs > size || qd < 1 || qd > MAX_QD ||
	    (mode != FILL && secs < 1)) {
		fprintf(stderr, "blkbench: bad BS, QD or SECONDS\n");
		return 2;
	}
	t0 = now_ns();
	deadline_ns = t0 + secs * 1000000000ull;
	for (i = 0; i < qd; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(uintptr_t)i))
			return 1;
	for (i = 0; i < qd; i++)
		pthread_join(th[i], NULL);
	t1 = now_ns();
	if (atomic_load(&failed))
		return 1;
	printf("ops=%llu bytes=%llu ns=%llu\n", (unsigned long long)atomic_load(&ops),
	       (unsigned long long)(atomic_load(&ops) * bs), (unsigned long long)(t1 - t0));
	return 0;
}
