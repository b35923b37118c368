// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdpbench: make bench's socket figures, one program for SDP and TCP so that both run the same
 * calls: a listener on ADDR, a child that accepts and serves, the parent that connects and is
 * timed.  stream: SIZE-byte writes, COUNT of them, the reader checking every byte and answering
 * one byte at the end; lat: SIZE bytes there and back, COUNT times, each echo checked, both
 * ends with TCP_NODELAY.  Prints "ops=N bytes=N ns=N" (ops: writes or round trips).
 * Usage: sdpbench sdp|tcp ADDR stream|lat SIZE COUNT
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define AF_INET_SDP	27
#define PERIOD		65521		/* the stream's bytes repeat with this period (a prime) */
#define MAX_SIZE	1048576

static uint8_t *pat;			/* PERIOD + MAX_SIZE bytes: the stream from any offset */

static const uint8_t *at(uint64_t off)
{
	return pat + off % PERIOD;
}

static bool write_all(int fd, const void *p, size_t n)
{
	ssize_t w;

	for (; n; n -= w, p = (const char *)p + w) {
		w = write(fd, p, n);
		if (w <= 0)
			return false;
	}
	return true;
}

static bool read_all(int fd, void *p, size_t n)
{
	ssize_t r;

	for (; n; n -= r, p = (char *)p + r) {
		r = read(fd, p, n);
		if (r <= 0)
			return false;
	}
	return true;
}

/* The accepted side: read and check the stream, or echo. */
static bool serve(int fd, bool stream, size_t size, uint64_t count)
{
	uint64_t total = size * count, off = 0;
	uint8_t *buf = malloc(MAX_SIZE);
	ssize_t r;

	if (!buf)
		return false;
	if (stream) {
		while (off < total) {
			r = read(fd, buf, total - off < MAX_SIZE ? total - off : MAX_SIZE);
			if (r <= 0 || memcmp(buf, at(off), r))
				return false;
			off += r;
		}
		return write_all(fd, "k", 1);
	}
	for (; count; count--)
		if (!read_all(fd, buf, size) || !write_all(fd, buf, size))
			return false;
	return true;
}

/* The timed side. */
static bool run(int fd, bool stream, size_t size, uint64_t count)
{
	uint8_t buf[MAX_SIZE > 65536 ? 65536 : MAX_SIZE];
	uint64_t i;

	if (stream) {
		for (i = 0; i < count; i++)
			if (!write_all(fd, at(i * size), size))
				return false;
		return read_all(fd, buf, 1) && buf[0] == 'k';
	}
	for (i = 0; i < count; i++)
		if (!write_all(fd, at(i * size), size) || !read_all(fd, buf, size) ||
		    memcmp(buf, at(i * size), size))
			return false;
	return true;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	int one = 1, family, lfd, fd, st;
	bool stream, ok;
	uint64_t count;
	size_t size, i;
	int64_t t0, t1;
	pid_t pid;

	if (argc != 6 || inet_pton(AF_INET, argv[2], &a.sin_addr) != 1 ||
	    (strcmp(argv[3], "stream") && strcmp(argv[3], "lat"))) {
		fprintf(stderr, "usage: sdpbench sdp|tcp ADDR stream|lat SIZE COUNT\n");
		return 2;
	}
	family = strcmp(argv[1], "sdp") ? AF_INET : AF_INET_SDP;
	stream = !strcmp(argv[3], "stream");
	size = strtoul(argv[4], NULL, 0);
	count = strtoull(argv[5], NULL, 0);
	pat = malloc(PERIOD + MAX_SIZE);
	if (!pat || !size || size > (stream ? MAX_SIZE : 65536) || !count)
		return 2;
	srand(35);
	for (i = 0; i < PERIOD + MAX_SIZE; i++)
		pat[i] = i < PERIOD ? rand() : pat[i - PERIOD];
	lfd = socket(family, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof(a)) || listen(lfd, 1) ||
	    getsockname(lfd, (struct sockaddr *)&a, &alen)) {
		perror("sdpbench: listener");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		fd = accept(lfd, NULL, NULL);
		if (fd >= 0 && !stream)
			setsockopt(fd, SOL_TCP, TCP_NODELAY, &one, sizeof(one));
		_exit(fd >= 0 && serve(fd, stream, size, count) ? 0 : 1);
	}
	close(lfd);
	fd = socket(family, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		perror("sdpbench: connect");
		return 1;
	}
	if (!stream)
		setsockopt(fd, SOL_TCP, TCP_NODELAY, &one, sizeof(one));
	t0 = now_ns();
	ok = run(fd, stream, size, count);
	t1 = now_ns();
	close(fd);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) || !ok) {
		fprintf(stderr, "sdpbench: %s %s failed\n", argv[1], argv[3]);
		return 1;
	}
	printf("ops=%llu bytes=%llu ns=%lld\n", (unsigned long long)count,
	       (unsigned long long)(size * count), (long long)(t1 - t0));
	return 0;
}
