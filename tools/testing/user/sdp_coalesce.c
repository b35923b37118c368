// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_sdp_user: small writes sharing Data messages (Documentation/sdp.md), counted by debugfs's
 * tx_msgs (Data messages with payload posted, all sockets: the cases run one at a time).
 * Nagle's rule through a reader that reads only when the writer is stopped, so that no more
 * than a few messages can go per ring's worth of writes; TCP_NODELAY posting each write;
 * TCP_CORK and MSG_MORE holding a partial message until it is full, uncorked, pushed by
 * TCP_NODELAY, followed by a plain write, or the socket shut down or closed: nothing stalls.
 * Every byte is checked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>
#include <unistd.h>
#include "ktap.h"
#include "sdp_cases.h"
#include "sdp_util.h"

#define PAYLOAD	4080	/* a Data message's payload */

static bool set_int(int fd, int level, int name, int v)
{
	return !setsockopt(fd, level, name, &v, sizeof(v));
}

/* Bytes not yet taken by the peer (SIOCOUTQ: sent and unacknowledged, or held); -1. */
static int outq(int fd)
{
	int n;

	return ioctl(fd, SIOCOUTQ, &n) ? -1 : n;
}

/* Wait (10 s at most) until SIOCOUTQ says @n. */
static bool wait_outq(int fd, int n)
{
	int64_t end = now_ms() + 10000;

	while (outq(fd) != n && now_ms() < end)
		wait_events(fd, POLLIN, 5);	/* the writer reads nothing: a 5 ms wait */
	return CHECK(outq(fd) == n);
}

/* Read what is there (non-blocking) and check it as stream @seed from *@off. */
static bool drain(int fd, uint32_t seed, uint64_t *off)
{
	char buf[8192];
	ssize_t r;

	while ((r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		if (!CHECK(pattern_check(buf, r, seed, *off) < 0))
			return false;
		*off += r;
	}
	return CHECK(r < 0 && errno == EAGAIN);
}

/* @len bytes of stream @seed from @off, in one write. */
static bool put(int fd, size_t len, uint32_t seed, uint64_t off, int flags)
{
	char buf[PAYLOAD * 2];

	pattern_fill(buf, len, seed, off);
	return CHECK(send(fd, buf, len, flags) == (ssize_t)len);
}

/* Exactly @len bytes of stream @seed from @off are there to read, and read. */
static bool got(int fd, size_t len, uint32_t seed, uint64_t off)
{
	char buf[PAYLOAD * 2];

	return wait_inq(fd, len) && CHECK(read(fd, buf, len) == (ssize_t)len) &&
	       CHECK(pattern_check(buf, len, seed, off) < 0);
}

/*
 * Nagle's rule: 7-byte writes, non-blocking, into a reader of 4 buffers that reads only when the
 * writer is stopped (EAGAIN).  The credits take two messages a round, the third fills to a whole
 * message before EAGAIN, and goes while the reader reads: three messages at most a round.
 */
bool t_coalesce_nagle(void)
{
	const uint64_t total = 256 * 1024;
	uint64_t wr = 0, rd = 0, writes = 0, rounds = 0, done;
	int64_t end = now_ms() + 60000;
	long long m0, msgs;
	char buf[7];
	int cfd, afd;
	bool ok;

	if (!sdp_pair_new_bufs(false, 8192, &cfd, &afd))
		return false;
	m0 = sdp_counter("tx_msgs");
	ok = CHECK(m0 >= 0) && CHECK(!fcntl(cfd, F_SETFL, O_NONBLOCK));
	while (ok && rd < total && now_ms() < end) {
		size_t n = total - wr < sizeof(buf) ? total - wr : sizeof(buf);
		ssize_t w = -1;

		done = writes;
		while (n) {
			pattern_fill(buf, n, 51, wr);
			w = send(cfd, buf, n, 0);
			if (w <= 0)
				break;
			wr += w;
			writes++;
			n = total - wr < sizeof(buf) ? total - wr : sizeof(buf);
		}
		if (n && !CHECK(w < 0 && errno == EAGAIN))
			ok = false;
		rounds += writes > done;
		/* the writer stopped: the reader takes what came */
		ok = ok && CHECK(wait_events(afd, POLLIN, 10000) & POLLIN) && drain(afd, 51, &rd);
	}
	msgs = sdp_counter("tx_msgs") - m0;
	ok = ok && CHECK(rd == total) && CHECK(wr == total);
	ok = ok && CHECK(msgs <= 3 * (long long)rounds + 3) && CHECK(msgs * 50 < (long long)writes);
	diag("Nagle: %llu writes of up to 7 bytes, %lld messages, %llu rounds",
	     (unsigned long long)writes, msgs, (unsigned long long)rounds);
	sdp_close_pair(cfd, afd);
	return ok;
}

/* TCP_NODELAY: each small write is a message of its own while the credits last. */
bool t_coalesce_nodelay(void)
{
	long long m0;
	int cfd, afd, i;
	bool ok;

	if (!sdp_pair_new(false, &cfd, &afd))
		return false;
	m0 = sdp_counter("tx_msgs");
	ok = CHECK(m0 >= 0) && CHECK(set_int(cfd, SOL_TCP, TCP_NODELAY, 1));
	for (i = 0; ok && i < 10; i++)
		ok = put(cfd, 3, 52, i * 3, 0);
	ok = ok && got(afd, 30, 52, 0) && CHECK(sdp_counter("tx_msgs") - m0 == 10);
	sdp_close_pair(cfd, afd);
	return ok;
}

/*
 * TCP_CORK: held until uncorked; a full message goes at once, the rest waits until TCP_NODELAY
 * pushes it; a corked message goes at close, before the EOF.
 */
bool t_coalesce_cork(void)
{
	uint64_t off = 0;
	int cfd, afd, i;
	long long m0;
	char c;
	bool ok;

	if (!sdp_pair_new(false, &cfd, &afd))
		return false;
	m0 = sdp_counter("tx_msgs");
	ok = CHECK(m0 >= 0) && CHECK(set_int(cfd, SOL_TCP, TCP_CORK, 1));
	for (i = 0; ok && i < 100; i++, off += 10)
		ok = put(cfd, 10, 53, off, 0);
	ok = ok && CHECK(outq(cfd) == 1000) && CHECK(inq(afd) == 0) &&
	     CHECK(sdp_counter("tx_msgs") == m0);
	ok = ok && CHECK(set_int(cfd, SOL_TCP, TCP_CORK, 0)) && got(afd, 1000, 53, 0) &&
	     CHECK(sdp_counter("tx_msgs") == m0 + 1) && wait_outq(cfd, 0);
	/* 5000 bytes corked: one full message, 920 held */
	ok = ok && CHECK(set_int(cfd, SOL_TCP, TCP_CORK, 1));
	for (i = 0; ok && i < 500; i++)
		ok = put(cfd, 10, 53, 1000 + i * 10, 0);
	ok = ok && got(afd, PAYLOAD, 53, 1000) && wait_outq(cfd, 5000 - PAYLOAD) &&
	     CHECK(sdp_counter("tx_msgs") == m0 + 2);
	ok = ok && CHECK(set_int(cfd, SOL_TCP, TCP_NODELAY, 1)) &&
	     got(afd, 5000 - PAYLOAD, 53, 1000 + PAYLOAD) &&
	     CHECK(sdp_counter("tx_msgs") == m0 + 3);
	/* still corked (TCP_NODELAY pushed once): 10 bytes held, then closed */
	ok = ok && wait_outq(cfd, 0) && put(cfd, 10, 53, 6000, 0) && CHECK(outq(cfd) == 10) &&
	     CHECK(inq(afd) == 0);
	close(cfd);
	ok = ok && got(afd, 10, 53, 6000) && CHECK(read(afd, &c, 1) == 0);
	close(afd);
	return ok;
}

/* MSG_MORE: held until a write without it; and until shutdown(SHUT_WR), before the EOF. */
bool t_coalesce_more(void)
{
	long long m0;
	int cfd, afd;
	char c;
	bool ok;

	if (!sdp_pair_new(true, &cfd, &afd))
		return false;
	m0 = sdp_counter("tx_msgs");
	ok = CHECK(m0 >= 0) && put(cfd, 10, 54, 0, MSG_MORE) && put(cfd, 10, 54, 10, MSG_MORE) &&
	     put(cfd, 10, 54, 20, MSG_MORE) && CHECK(outq(cfd) == 30) && CHECK(inq(afd) == 0) &&
	     CHECK(sdp_counter("tx_msgs") == m0);
	ok = ok && put(cfd, 10, 54, 30, 0) && got(afd, 40, 54, 0) &&
	     CHECK(sdp_counter("tx_msgs") == m0 + 1);
	ok = ok && wait_outq(cfd, 0) && put(cfd, 2 * PAYLOAD - 100, 54, 40, MSG_MORE) &&
	     got(afd, PAYLOAD, 54, 40) && wait_outq(cfd, PAYLOAD - 100);
	ok = ok && CHECK(!shutdown(cfd, SHUT_WR)) && got(afd, PAYLOAD - 100, 54, 40 + PAYLOAD) &&
	     CHECK(read(afd, &c, 1) == 0) && CHECK(sdp_counter("tx_msgs") == m0 + 3);
	sdp_close_pair(cfd, afd);
	return ok;
}

/*
 * A message held (corked) while the other way's data makes credit updates due: each update goes
 * before it (the writer there would stall without them), and the held message goes whole at
 * uncork.
 */
bool t_coalesce_updates(void)
{
	const uint64_t total = 256 * 1024;
	int64_t end = now_ms() + 60000;
	uint64_t wr = 0, rd = 0;
	char buf[16384];
	ssize_t w = 0;
	int cfd, afd;
	bool ok;

	if (!sdp_pair_new(false, &cfd, &afd))
		return false;
	ok = CHECK(set_int(cfd, SOL_TCP, TCP_CORK, 1)) && put(cfd, 100, 55, 0, 0) &&
	     CHECK(!fcntl(afd, F_SETFL, O_NONBLOCK));
	while (ok && rd < total && now_ms() < end) {
		while (wr < total) {
			size_t n = total - wr < sizeof(buf) ? total - wr : sizeof(buf);

			pattern_fill(buf, n, 56, wr);
			w = send(afd, buf, n, 0);
			if (w <= 0)
				break;
			wr += w;
		}
		if (w < 0 && !CHECK(errno == EAGAIN))
			ok = false;
		else if (rd < wr)
			ok = CHECK(wait_events(cfd, POLLIN, 10000) & POLLIN) && drain(cfd, 56, &rd);
		else
			ok = CHECK(wait_events(afd, POLLOUT, 10000) & POLLOUT);
	}
	ok = ok && CHECK(rd == total) && CHECK(outq(cfd) == 100) && CHECK(inq(afd) == 0);
	ok = ok && CHECK(set_int(cfd, SOL_TCP, TCP_CORK, 0)) && got(afd, 100, 55, 0);
	sdp_close_pair(cfd, afd);
	return ok;
}
