// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_sdp_user: socket options: SO_RCVBUF sizing the receive ring (what a sender can put into a
 * reader that does not read), SO_SNDBUF the send ring (debugfs "sockets"), both inherited from
 * a listener; SO_REUSEADDR, SO_KEEPALIVE with TCP_KEEPIDLE (its probes counted), SO_LINGER,
 * TCP_NODELAY, TCP_CORK, SDP_ZCOPY_THRESH and SDP_LAST_BIND_ERR.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ktap.h"
#include "sdp_cases.h"
#include "sdp_util.h"

#define PAYLOAD	4080	/* a Data message's payload: a 4 KiB buffer less its header */

static int get_int(int fd, int level, int name)
{
	socklen_t len = sizeof(int);
	int v = -1;

	return getsockopt(fd, level, name, &v, &len) ? -errno : v;
}

static bool set_int(int fd, int level, int name, int v)
{
	return !setsockopt(fd, level, name, &v, sizeof(v));
}

/* Whether @addr (as %pISpc prints it) ends in :@port. */
static bool has_port(const char *addr, uint16_t port)
{
	const char *c = strrchr(addr, ':');

	return c && (unsigned int)atoi(c + 1) == port;
}

/* The rings of the socket whose local (or remote) port is @port, from debugfs. */
static bool rings_of(uint16_t port, bool local, unsigned int *rx, unsigned int *tx)
{
	FILE *f = fopen("/sys/kernel/debug/oib_sdp/sockets", "r");
	char line[512], fam[16], st[16], loc[64], rem[64];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%15s %15s local %63s remote %63s rx_bufs %u tx_bufs %u", fam,
			       st, loc, rem, rx, tx) == 6 && !strcmp(st, "ESTABLISHED") &&
			has_port(local ? loc : rem, port);
	if (f)
		fclose(f);
	return found;
}

/*
 * A reader that never reads, its receive ring sized by @rcvbuf on the listener (0: the default):
 * what a non-blocking sender gets into it before EAGAIN (the credits' messages, and one more
 * held in the sender's ring), and that POLLOUT stays away then.
 */
static bool fill_unread(int rcvbuf, int bufs)
{
	uint16_t port = 0;
	int lfd = -1, cfd = -1, afd = -1, want = (bufs - 2) * PAYLOAD, total = 0;
	struct sockaddr_storage ss;
	char *buf = malloc(PAYLOAD);
	int64_t end = now_ms() + 10000;
	unsigned int rx, tx;
	ssize_t w;
	bool ok;

	lfd = sdp_socket(false);
	sdp_addr(&ss, false, SDP_HOST_SERVER, 0);
	ok = CHECK(!rcvbuf || set_int(lfd, SOL_SOCKET, SO_RCVBUF, rcvbuf)) &&
	     CHECK(!bind(lfd, (struct sockaddr *)&ss, sizeof(struct sockaddr_in))) &&
	     CHECK(!listen(lfd, 1));
	socklen_t slen = sizeof(ss);

	ok = ok && CHECK(!getsockname(lfd, (struct sockaddr *)&ss, &slen));
	port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	ok = ok && sdp_pair(false, lfd, port, &cfd, &afd);
	ok = ok && CHECK(rings_of(port, true, &rx, &tx)) && CHECK(rx == (unsigned int)bufs);
	ok = ok && CHECK(!fcntl(cfd, F_SETFL, O_NONBLOCK));
	/* credits for all but two of the reader's buffers (CA4-82 keeps the last ones) */
	pattern_fill(buf, PAYLOAD, 41, 0);
	while (ok && now_ms() < end && total < want + PAYLOAD) {
		w = send(cfd, buf, PAYLOAD, 0);
		if (w > 0)
			total += w;
		else if (!CHECK(errno == EAGAIN))
			ok = false;
		else
			wait_events(cfd, POLLOUT, 100);
	}
	ok = ok && CHECK(total == want + PAYLOAD) && wait_inq(afd, want);
	ok = ok && CHECK_ERR(send(cfd, buf, PAYLOAD, 0), EAGAIN) &&
	     CHECK(wait_events(cfd, POLLOUT, 200) == 0);
	diag("SO_RCVBUF %d: %d buffers, %d bytes sent into a reader that does not read",
	     rcvbuf, bufs, total);
	if (cfd >= 0)
		sdp_close_pair(cfd, afd);
	close(lfd);
	free(buf);
	return ok;
}

bool t_rcvbuf(void)
{
	return fill_unread(0, 16) && fill_unread(8192, 4) && fill_unread(131072, 64);
}

bool t_sndbuf(void)
{
	int lfd, cfd, afd;
	uint16_t port = 0;
	struct sockaddr_storage ss;
	socklen_t slen = sizeof(ss);
	unsigned int rx, tx;
	bool ok;

	lfd = sdp_socket(true);
	sdp_addr(&ss, true, SDP_HOST_SERVER, 0);
	ok = CHECK(set_int(lfd, SOL_SOCKET, SO_SNDBUF, 16384)) &&
	     CHECK(get_int(lfd, SOL_SOCKET, SO_SNDBUF) == 32768) &&
	     CHECK(!bind(lfd, (struct sockaddr *)&ss, sizeof(struct sockaddr_in6))) &&
	     CHECK(!listen(lfd, 1)) && CHECK(!getsockname(lfd, (struct sockaddr *)&ss, &slen));
	port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	if (!ok || !sdp_pair(true, lfd, port, &cfd, &afd)) {
		close(lfd);
		return false;
	}
	/* the accepted socket: 32 KiB of send buffers; the client: the defaults */
	ok = CHECK(rings_of(port, true, &rx, &tx)) && CHECK(tx == 8) && CHECK(rx == 16);
	ok = ok && CHECK(rings_of(port, false, &rx, &tx)) && CHECK(tx == 16);
	/* 12 messages through the ring of 8, all the client's 16 buffers take unread */
	ok = ok && send_stream(afd, 48000, 43, 4000) && recv_stream(cfd, 48000, 43, 65536);
	sdp_close_pair(cfd, afd);
	close(lfd);
	return ok;
}

bool t_tcp_options(void)
{
	int fd = sdp_socket(false), cfd, afd;
	uint16_t port = 0;
	bool ok;

	ok = CHECK(get_int(fd, SOL_TCP, TCP_NODELAY) == 0) &&
	     CHECK(set_int(fd, SOL_TCP, TCP_NODELAY, 1)) &&
	     CHECK(get_int(fd, SOL_TCP, TCP_NODELAY) == 1);
	ok = ok && CHECK(get_int(fd, SOL_TCP, TCP_CORK) == 0) &&
	     CHECK(set_int(fd, SOL_TCP, TCP_CORK, 1)) && CHECK(get_int(fd, SOL_TCP, TCP_CORK) == 1);
	ok = ok && CHECK(get_int(fd, SOL_TCP, SDP_ZCOPY_THRESH) == 65536) &&
	     CHECK(set_int(fd, SOL_TCP, SDP_ZCOPY_THRESH, 0)) &&
	     CHECK(get_int(fd, SOL_TCP, SDP_ZCOPY_THRESH) == 0) &&
	     CHECK(set_int(fd, SOL_TCP, SDP_ZCOPY_THRESH, 1 << 20)) &&
	     CHECK(!set_int(fd, SOL_TCP, SDP_ZCOPY_THRESH, 100) && errno == EINVAL) &&
	     CHECK(!set_int(fd, SOL_TCP, SDP_ZCOPY_THRESH, (1 << 20) + 1) && errno == EINVAL);
	ok = ok && CHECK(get_int(fd, SOL_TCP, SDP_LAST_BIND_ERR) == 0) &&
	     CHECK(!set_int(fd, SOL_TCP, SDP_LAST_BIND_ERR, 1) && errno == EPERM);
	ok = ok && CHECK(get_int(fd, SOL_TCP, TCP_KEEPIDLE) == 7200) &&
	     CHECK(!set_int(fd, SOL_TCP, TCP_KEEPIDLE, 0) && errno == EINVAL);
	ok = ok && CHECK(get_int(fd, SOL_TCP, TCP_MAXSEG) == -ENOPROTOOPT) &&
	     CHECK(get_int(fd, SOL_IP, IP_TOS) == -ENOPROTOOPT);
	ok = ok && CHECK(set_int(fd, SOL_SOCKET, SO_REUSEADDR, 1)) &&
	     CHECK(get_int(fd, SOL_SOCKET, SO_REUSEADDR) == 1);
	ok = ok && CHECK(get_int(fd, SOL_SOCKET, SO_TYPE) == SOCK_STREAM) &&
	     CHECK(get_int(fd, SOL_SOCKET, SO_DOMAIN) == AF_INET_SDP) &&
	     CHECK(get_int(fd, SOL_SOCKET, SO_PROTOCOL) == IPPROTO_TCP);
	close(fd);
	/* a listener's TCP options go to the sockets it accepts */
	fd = sdp_listener(false, &port, 1);
	ok = ok && CHECK(fd >= 0) && CHECK(set_int(fd, SOL_TCP, TCP_NODELAY, 1)) &&
	     CHECK(set_int(fd, SOL_TCP, TCP_KEEPIDLE, 77));
	if (ok && sdp_pair(false, fd, port, &cfd, &afd)) {
		ok = CHECK(get_int(afd, SOL_TCP, TCP_NODELAY) == 1) &&
		     CHECK(get_int(afd, SOL_TCP, TCP_KEEPIDLE) == 77) &&
		     CHECK(get_int(cfd, SOL_TCP, TCP_NODELAY) == 0);
		sdp_close_pair(cfd, afd);
	} else {
		ok = false;
	}
	close(fd);
	return ok;
}

bool t_last_bind_err(void)
{
	struct sockaddr_storage ss;
	socklen_t len = sdp_addr(&ss, false, 99, 5000);
	int fd = sdp_socket(false);
	bool ok;

	/* no device has the address: bind says so, and so does the option afterwards */
	ok = CHECK_ERR(bind(fd, (struct sockaddr *)&ss, len), EADDRNOTAVAIL) &&
	     CHECK(get_int(fd, SOL_TCP, SDP_LAST_BIND_ERR) == EADDRNOTAVAIL);
	close(fd);
	/* nothing reaches it: the connect's error, kept */
	fd = sdp_socket(false);
	ok = ok && CHECK_ERR(connect(fd, (struct sockaddr *)&ss, len), EHOSTUNREACH) &&
	     CHECK(get_int(fd, SOL_TCP, SDP_LAST_BIND_ERR) == EHOSTUNREACH);
	close(fd);
	return ok;
}

bool t_reuseaddr(void)
{
	uint16_t port = 0;
	int lfd = sdp_listener(false, &port, 4), cfd, afd, l2;
	struct sockaddr_storage ss;
	socklen_t len = sdp_addr(&ss, false, SDP_HOST_SERVER, port);
	bool ok;

	/* the listener goes while its connection lives: a new one takes the port at once */
	if (lfd < 0 || !sdp_pair(false, lfd, port, &cfd, &afd))
		return false;
	close(lfd);
	l2 = sdp_socket(false);
	ok = CHECK(set_int(l2, SOL_SOCKET, SO_REUSEADDR, 1)) &&
	     CHECK(!bind(l2, (struct sockaddr *)&ss, len)) && CHECK(!listen(l2, 1));
	ok = ok && CHECK(write(cfd, "r", 1) == 1) && CHECK(read(afd, &ss, 1) == 1);
	close(l2);
	sdp_close_pair(cfd, afd);
	return ok;
}

bool t_keepalive(void)
{
	long long before = sdp_counter("keepalives"), now = before;
	int64_t end = now_ms() + 10000;
	int cfd, afd;
	bool ok;

	if (!CHECK(before >= 0) || !sdp_pair_new(false, &cfd, &afd))
		return false;
	ok = CHECK(get_int(cfd, SOL_SOCKET, SO_KEEPALIVE) == 0) &&
	     CHECK(set_int(cfd, SOL_TCP, TCP_KEEPIDLE, 1)) &&
	     CHECK(set_int(cfd, SOL_SOCKET, SO_KEEPALIVE, 1)) &&
	     CHECK(get_int(cfd, SOL_SOCKET, SO_KEEPALIVE) == 1);
	/* an idle connection gets its probes; the peer's transport answers, nothing breaks */
	while (ok && now < before + 2 && now_ms() < end) {
		wait_events(cfd, POLLIN, 100);
		now = sdp_counter("keepalives");
	}
	ok = ok && CHECK(now >= before + 2);
	ok = ok && CHECK(write(afd, "k", 1) == 1) && CHECK(read(cfd, &end, 1) == 1) &&
	     CHECK(wait_events(cfd, POLLIN, 0) == 0);
	ok = ok && CHECK(set_int(cfd, SOL_SOCKET, SO_KEEPALIVE, 0));
	diag("%lld keepalive probes", now - before);
	sdp_close_pair(cfd, afd);
	return ok;
}
