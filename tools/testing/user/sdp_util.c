// SPDX-License-Identifier: GPL-2.0-only
/* What oib_sdp_user's tests share (sdp_util.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>
#include "ktap.h"
#include "sdp_util.h"

static char devs[2][32];	/* the client's device, the server's */

int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static bool oib_tool(const char *fmt, const char *dev, const char *arg)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), fmt, dev, arg);
	return CHECK(system(cmd) == 0);
}

/* Two oib_rxe devices (the first free oib_rxe<N>), each with its IPv4 and IPv6 address. */
bool sdp_setup_devices(void)
{
	char path[64], a[32];
	int i, n = 0, d;

	for (d = 0; d < 2; d++) {
		for (i = n;; i++) {
			snprintf(path, sizeof(path), "/sys/class/oib/oib_rxe%d", i);
			if (access(path, F_OK))
				break;
		}
		n = i + 1;
		snprintf(devs[d], sizeof(devs[d]), "oib_rxe%d", i);
		if (!oib_tool("oib link add %s type rxe%s", devs[d], ""))
			return false;
		snprintf(a, sizeof(a), "10.35.0.%d", d + 1);
		if (!oib_tool("oib addr add %s/1 %s", devs[d], a))
			return false;
		snprintf(a, sizeof(a), "fd35::%d", d + 1);
		if (!oib_tool("oib addr add %s/1 %s", devs[d], a))
			return false;
	}
	diag("devices %s (10.35.0.1, fd35::1) and %s (10.35.0.2, fd35::2)", devs[0], devs[1]);
	return true;
}

bool sdp_remove_devices(void)
{
	bool ok = true;
	int d;

	for (d = 0; d < 2; d++)
		if (devs[d][0])
			ok &= oib_tool("oib link delete %s%s", devs[d], "");
	return ok;
}

socklen_t sdp_addr(struct sockaddr_storage *ss, bool v6, int host, uint16_t port)
{
	char a[32];

	memset(ss, 0, sizeof(*ss));
	if (v6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		snprintf(a, sizeof(a), host == 99 ? "fd99::99" : "fd35::%d", host);
		if (host)
			inet_pton(AF_INET6, a, &s6->sin6_addr);
		return sizeof(*s6);
	}
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	s4->sin_family = AF_INET;
	s4->sin_port = htons(port);
	snprintf(a, sizeof(a), host == 99 ? "10.99.0.99" : "10.35.0.%d", host);
	if (host)
		inet_pton(AF_INET, a, &s4->sin_addr);
	return sizeof(*s4);
}

int sdp_socket(bool v6)
{
	return socket(v6 ? AF_INET6_SDP : AF_INET_SDP, SOCK_STREAM, 0);
}

int sdp_listener(bool v6, uint16_t *port, int backlog)
{
	struct sockaddr_storage ss;
	socklen_t len = sdp_addr(&ss, v6, SDP_HOST_SERVER, *port);
	int fd = sdp_socket(v6);

	if (!CHECK(fd >= 0))
		return -1;
	if (!CHECK(!bind(fd, (struct sockaddr *)&ss, len)) || !CHECK(!listen(fd, backlog)) ||
	    !CHECK(!getsockname(fd, (struct sockaddr *)&ss, &len))) {
		close(fd);
		return -1;
	}
	*port = ntohs(((struct sockaddr_in *)&ss)->sin_port);	/* sin6_port is there too */
	return fd;
}

bool sdp_pair(bool v6, int lfd, uint16_t port, int *cfd, int *afd)
{
	return sdp_pair_bufs(v6, lfd, port, 0, cfd, afd);
}

bool sdp_pair_bufs(bool v6, int lfd, uint16_t port, int bytes, int *cfd, int *afd)
{
	struct sockaddr_storage ss;
	socklen_t len = sdp_addr(&ss, v6, SDP_HOST_SERVER, port);

	*afd = -1;
	*cfd = sdp_socket(v6);
	if (!CHECK(*cfd >= 0))
		return false;
	if (bytes && (!CHECK(!setsockopt(*cfd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes))) ||
		      !CHECK(!setsockopt(*cfd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof(bytes))))) {
		close(*cfd);
		return false;
	}
	if (!CHECK(!connect(*cfd, (struct sockaddr *)&ss, len))) {
		diag("connect: %s", strerror(errno));
		close(*cfd);
		return false;
	}
	*afd = accept(lfd, NULL, NULL);
	if (!CHECK(*afd >= 0)) {
		close(*cfd);
		return false;
	}
	return true;
}

bool sdp_pair_new(bool v6, int *cfd, int *afd)
{
	return sdp_pair_new_bufs(v6, 0, cfd, afd);
}

bool sdp_pair_new_bufs(bool v6, int bytes, int *cfd, int *afd)
{
	struct sockaddr_storage ss;
	socklen_t len = sdp_addr(&ss, v6, SDP_HOST_SERVER, 0);
	int lfd = sdp_socket(v6);
	uint16_t port;
	bool ok;

	if (!CHECK(lfd >= 0))
		return false;
	ok = (!bytes || (CHECK(!setsockopt(lfd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes))) &&
			 CHECK(!setsockopt(lfd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof(bytes))))) &&
	     CHECK(!bind(lfd, (struct sockaddr *)&ss, len)) && CHECK(!listen(lfd, 4)) &&
	     CHECK(!getsockname(lfd, (struct sockaddr *)&ss, &len));
	port = ntohs(((struct sockaddr_in *)&ss)->sin_port);	/* sin6_port is there too */
	ok = ok && sdp_pair_bufs(v6, lfd, port, bytes, cfd, afd);
	close(lfd);
	return ok;
}

void sdp_close_pair(int cfd, int afd)
{
	close(cfd);
	close(afd);
}

uint8_t pattern_byte(uint32_t seed, uint64_t off)
{
	uint64_t x = (off >> 3) * 0x9e3779b97f4a7c15ULL ^ seed;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 32;
	return x >> ((off & 7) * 8);
}

void pattern_fill(void *buf, size_t len, uint32_t seed, uint64_t off)
{
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = pattern_byte(seed, off + i);
}

int64_t pattern_check(const void *buf, size_t len, uint32_t seed, uint64_t off)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != pattern_byte(seed, off + i))
			return off + i;
	return -1;
}

bool send_stream(int fd, uint64_t len, uint32_t seed, size_t chunk)
{
	uint8_t *buf = malloc(chunk);
	uint64_t off = 0;
	bool ok = true;

	while (ok && off < len) {
		size_t n = len - off < chunk ? len - off : chunk;
		ssize_t w;

		pattern_fill(buf, n, seed, off);
		w = send(fd, buf, n, MSG_NOSIGNAL);
		if (!CHECK(w > 0)) {
			diag("send at %llu: %s", (unsigned long long)off, strerror(errno));
			ok = false;
		}
		off += w > 0 ? w : 0;
	}
	free(buf);
	return ok;
}

bool recv_stream(int fd, uint64_t len, uint32_t seed, size_t chunk)
{
	uint8_t *buf = malloc(chunk);
	uint64_t off = 0;
	bool ok = true;

	while (ok && off < len) {
		size_t n = len - off < chunk ? len - off : chunk;
		ssize_t r = recv(fd, buf, n, 0);
		int64_t bad;

		if (!CHECK(r > 0)) {
			diag("recv at %llu of %llu: %s", (unsigned long long)off,
			     (unsigned long long)len, r ? strerror(errno) : "EOF");
			ok = false;
			break;
		}
		bad = pattern_check(buf, r, seed, off);
		if (!CHECK(bad < 0)) {
			diag("stream %u differs at byte %lld", seed, (long long)bad);
			ok = false;
		}
		off += r;
	}
	free(buf);
	return ok;
}

int wait_events(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };

	return poll(&p, 1, ms) == 1 ? p.revents : 0;
}

int inq(int fd)
{
	int n;

	return ioctl(fd, SIOCINQ, &n) ? -1 : n;
}

bool wait_inq(int fd, int n)
{
	int64_t end = now_ms() + 10000;

	while (inq(fd) != n && now_ms() < end)
		if (wait_events(fd, POLLIN, 10))
			usleep(1000);	/* readable, not all there yet */
	return CHECK(inq(fd) == n);
}

long long sdp_counter(const char *name)
{
	FILE *f = fopen("/sys/kernel/debug/oib_sdp/counters", "r");
	char key[64];
	long long v, found = -1;

	while (f && fscanf(f, "%63s %lld", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	if (f)
		fclose(f);
	return found;
}
