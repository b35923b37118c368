// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_sdp_user: the fabric misbehaving under SDP.  Frames lost and duplicated on oib_rxe's fabric
 * (its seeded faults) under a transfer each way: RC's retries keep the stream whole.  Both
 * devices removed under a transfer: the writer and the reader learn it (ECONNRESET or EPIPE),
 * every socket goes (debugfs "sockets" empties once they are closed), and the devices come back
 * for the cases after.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "ktap.h"
#include "sdp_cases.h"
#include "sdp_util.h"

#define FABRIC	"/sys/kernel/debug/oib_rxe/fabrics/default/"

struct sender {
	pthread_t thread;
	int fd;
	uint64_t len;
	uint32_t seed;
	bool ok;
	int err;		/* errno of the write that failed */
};

/* Stream @seed until all is written or a write fails (its errno kept: no diagnostics here). */
static void *sender_run(void *arg)
{
	struct sender *s = arg;
	uint8_t *buf = malloc(65536);
	uint64_t off = 0;
	ssize_t w = 1;

	while (buf && off < s->len && w > 0) {
		size_t n = s->len - off < 65536 ? s->len - off : 65536;

		pattern_fill(buf, n, s->seed, off);
		w = send(s->fd, buf, n, MSG_NOSIGNAL);
		if (w > 0)
			off += w;
		else
			s->err = errno;
	}
	s->ok = buf && off == s->len;
	free(buf);
	return NULL;
}

static void sender_start(struct sender *s, int fd, uint64_t len, uint32_t seed)
{
	*s = (struct sender){ .fd = fd, .len = len, .seed = seed };
	pthread_create(&s->thread, NULL, sender_run, s);
}

static bool fabric_set(const char *file, const char *text)
{
	char path[128];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), FABRIC "%s", file);
	f = fopen(path, "w");
	if (!CHECK(f))
		return false;
	ok = fputs(text, f) >= 0;
	return CHECK(!fclose(f) && ok);
}

/* The sum of the fabric's per-port counter @name ("name N" in ports). */
static long long fabric_count(const char *name)
{
	FILE *f = fopen(FABRIC "ports", "r");
	char key[64];
	long long v, sum = 0;

	while (f && fscanf(f, "%63s", key) == 1)
		if (!strcmp(key, name) && fscanf(f, "%lld", &v) == 1)
			sum += v;
	if (f)
		fclose(f);
	return sum;
}

/* @ppm of the frames lost and as many duplicated; @len bytes each way, checked. */
static bool lossy(int ppm, uint64_t len, bool v6)
{
	long long drops = fabric_count("drop_fault");
	struct sender s;
	char faults[64];
	int cfd, afd;
	int64_t t = now_ms();
	bool ok;

	if (!sdp_pair_new(v6, &cfd, &afd))
		return false;
	snprintf(faults, sizeof(faults), "drop=%d dup=%d", ppm, ppm);
	ok = fabric_set("seed", "35") && fabric_set("faults", faults);
	sender_start(&s, cfd, len, 61);
	ok = recv_stream(afd, len, 61, 5000) && ok;
	pthread_join(s.thread, NULL);
	ok = CHECK(s.ok) && ok;
	sender_start(&s, afd, len, 62);
	ok = recv_stream(cfd, len, 62, 70000) && ok;
	pthread_join(s.thread, NULL);
	ok = CHECK(s.ok) && ok;
	ok = fabric_set("faults", "off") && ok;
	diag("%d ppm lost and duplicated: %llu bytes each way in %lld ms, %lld frames dropped",
	     ppm, (unsigned long long)len, (long long)(now_ms() - t),
	     fabric_count("drop_fault") - drops);
	ok = ok && CHECK(fabric_count("drop_fault") > drops);
	sdp_close_pair(cfd, afd);
	return ok;
}

bool t_frame_loss(void)
{
	return lossy(10000, 1 << 20, false) && lossy(10000, 256 << 10, true);
}

/* debugfs "sockets" has no line (10 s at most). */
static bool no_sockets(void)
{
	int64_t end = now_ms() + 10000;
	char line[512];
	bool empty = false;
	FILE *f;

	while (!empty && now_ms() < end) {
		f = fopen("/sys/kernel/debug/oib_sdp/sockets", "r");
		empty = f && !fgets(line, sizeof(line), f);
		if (f)
			fclose(f);
		if (!empty)
			wait_events(-1, 0, 10);		/* nothing to wait on: 10 ms */
	}
	if (!empty)
		diag("left: %s", line);
	return CHECK(empty);
}

bool t_device_removed(void)
{
	struct sender s;
	char buf[65536];
	ssize_t r = 1;
	int cfd, afd, err;
	bool ok;

	if (!sdp_pair_new(false, &cfd, &afd))
		return false;
	sender_start(&s, cfd, 1ULL << 40, 63);
	ok = recv_stream(afd, 256 << 10, 63, 65536);
	ok = sdp_remove_devices() && ok;
	pthread_join(s.thread, NULL);
	ok = ok && CHECK(!s.ok) && CHECK(s.err == ECONNRESET || s.err == EPIPE);
	if (s.err)
		diag("the writer: %s", strerror(s.err));
	/* what arrived before may still be read; then the reset */
	while (r > 0)
		r = read(afd, buf, sizeof(buf));
	err = errno;
	ok = ok && CHECK(r < 0) && CHECK(err == ECONNRESET);
	ok = ok && CHECK(write(afd, "x", 1) < 0) && CHECK(errno == EPIPE || errno == ECONNRESET);
	sdp_close_pair(cfd, afd);
	ok = no_sockets() && ok;
	return sdp_setup_devices() && ok;
}
