// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_sdp_user: the socket calls and their errors, as a TCP program meets them: socket, bind,
 * listen, accept and connect (blocking and not), the addresses, shutdown either way, close with
 * and without SO_LINGER or with unread data, SIOCINQ and SIOCOUTQ.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>
#include "ktap.h"
#include "sdp_cases.h"
#include "sdp_util.h"

bool t_socket(void)
{
	int fd4 = sdp_socket(false), fd6 = sdp_socket(true), fd;
	struct sockaddr_storage ss;
	socklen_t len = sdp_addr(&ss, true, SDP_HOST_SERVER, 0);
	bool ok = CHECK(fd4 >= 0) && CHECK(fd6 >= 0);

	ok = ok && CHECK_ERR(socket(AF_INET_SDP, SOCK_DGRAM, 0), ESOCKTNOSUPPORT);
	ok = ok && CHECK_ERR(socket(AF_INET_SDP, SOCK_STREAM, IPPROTO_UDP), EPROTONOSUPPORT);
	fd = socket(AF_INET6_SDP, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
	ok = ok && CHECK(fd >= 0) && CHECK(fcntl(fd, F_GETFL) & O_NONBLOCK) &&
	     CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	/* an IPv6 address on an AF_INET_SDP socket, a short one, none */
	ok = ok && CHECK_ERR(bind(fd4, (struct sockaddr *)&ss, len), EAFNOSUPPORT);
	ok = ok && CHECK_ERR(bind(fd6, (struct sockaddr *)&ss, 8), EINVAL);
	ok = ok && CHECK_ERR(bind(fd6, NULL, 0), EINVAL);
	/* nothing to talk to yet */
	ok = ok && CHECK_ERR(getpeername(fd4, (struct sockaddr *)&ss, &len), ENOTCONN);
	ok = ok && CHECK_ERR(shutdown(fd4, SHUT_WR), ENOTCONN);
	ok = ok && CHECK_ERR(recv(fd4, &ss, 1, 0), ENOTCONN);
	ok = ok && CHECK_ERR(send(fd4, &ss, 1, MSG_NOSIGNAL), EPIPE);
	ok = ok && CHECK_ERR(accept(fd4, NULL, NULL), EINVAL);
	ok = ok && CHECK_ERR(send(fd4, &ss, 1, MSG_OOB | MSG_NOSIGNAL), EOPNOTSUPP);
	close(fd4);
	close(fd6);
	return ok;
}

bool t_bind_listen(void)
{
	struct sockaddr_storage ss, got;
	socklen_t len = sdp_addr(&ss, false, SDP_HOST_SERVER, 0), glen = sizeof(got);
	int a = sdp_socket(false), b = sdp_socket(false), c = sdp_socket(false);
	uint16_t port;
	bool ok;

	/* port 0: one picked; a second bind refused; the port taken for another socket */
	ok = CHECK(!bind(a, (struct sockaddr *)&ss, len)) &&
	     CHECK(!getsockname(a, (struct sockaddr *)&got, &glen)) &&
	     CHECK(((struct sockaddr_in *)&got)->sin_port != 0) &&
	     CHECK(glen == sizeof(struct sockaddr_in));
	port = ntohs(((struct sockaddr_in *)&got)->sin_port);
	ok = ok && CHECK_ERR(bind(a, (struct sockaddr *)&ss, len), EINVAL);
	sdp_addr(&ss, false, SDP_HOST_SERVER, port);
	ok = ok && CHECK_ERR(bind(b, (struct sockaddr *)&ss, len), EADDRINUSE);
	/* an address no device has */
	sdp_addr(&ss, false, 99, 0);
	ok = ok && CHECK_ERR(bind(c, (struct sockaddr *)&ss, len), EADDRNOTAVAIL);
	/* listen, again (a new backlog), then connect on it refused */
	ok = ok && CHECK(!listen(a, 1)) && CHECK(!listen(a, 8));
	sdp_addr(&ss, false, SDP_HOST_SERVER, port);
	ok = ok && CHECK_ERR(connect(a, (struct sockaddr *)&ss, len), EINVAL);
	ok = ok && CHECK_ERR(ioctl(a, SIOCINQ, &glen), EINVAL);
	/* a listener without bind: the wildcard and a port of its own */
	glen = sizeof(got);
	ok = ok && CHECK(!listen(b, 1)) && CHECK(!getsockname(b, (struct sockaddr *)&got, &glen)) &&
	     CHECK(((struct sockaddr_in *)&got)->sin_port != 0) &&
	     CHECK(((struct sockaddr_in *)&got)->sin_addr.s_addr == htonl(INADDR_ANY));
	/* non-blocking accept with nobody there */
	ok = ok && CHECK(!fcntl(b, F_SETFL, O_NONBLOCK)) &&
	     CHECK_ERR(accept(b, NULL, NULL), EAGAIN);
	close(a);
	close(b);
	close(c);
	return ok;
}

bool t_connect_refused(void)
{
	struct sockaddr_storage ss;
	socklen_t len = sdp_addr(&ss, false, SDP_HOST_SERVER, 7);
	int fd = sdp_socket(false), err = 0;
	socklen_t elen = sizeof(err);
	bool ok;

	ok = CHECK_ERR(connect(fd, (struct sockaddr *)&ss, len), ECONNREFUSED);
	close(fd);
	/* non-blocking: EINPROGRESS, then POLLOUT with SO_ERROR */
	fd = socket(AF_INET6_SDP, SOCK_STREAM | SOCK_NONBLOCK, 0);
	len = sdp_addr(&ss, true, SDP_HOST_SERVER, 7);
	ok = ok && CHECK_ERR(connect(fd, (struct sockaddr *)&ss, len), EINPROGRESS) &&
	     CHECK(wait_events(fd, POLLOUT, 10000) & (POLLOUT | POLLERR)) &&
	     CHECK(!getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen)) &&
	     CHECK(err == ECONNREFUSED);
	close(fd);
	/* an address nothing reaches */
	fd = sdp_socket(false);
	len = sdp_addr(&ss, false, 99, 7);
	ok = ok && CHECK_ERR(connect(fd, (struct sockaddr *)&ss, len), EHOSTUNREACH);
	close(fd);
	return ok;
}

bool t_connect_nonblocking(void)
{
	uint16_t port = 0;
	int lfd = sdp_listener(true, &port, 4), fd, afd, r, err = -1;
	struct sockaddr_storage ss, peer;
	socklen_t len = sdp_addr(&ss, true, SDP_HOST_SERVER, port), plen = sizeof(peer);
	bool ok = CHECK(lfd >= 0);

	fd = socket(AF_INET6_SDP, SOCK_STREAM | SOCK_NONBLOCK, 0);
	ok = ok && CHECK_ERR(connect(fd, (struct sockaddr *)&ss, len), EINPROGRESS);
	/* again while it is under way, or already done */
	r = connect(fd, (struct sockaddr *)&ss, len);
	ok = ok && CHECK(r == -1 && (errno == EALREADY || errno == EISCONN));
	ok = ok && CHECK(wait_events(fd, POLLOUT, 10000) == POLLOUT);
	plen = sizeof(err);
	ok = ok && CHECK(!getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &plen)) && CHECK(err == 0);
	/* as TCP: the first connect after it completed says 0, the next EISCONN */
	ok = ok && CHECK(!connect(fd, (struct sockaddr *)&ss, len)) &&
	     CHECK_ERR(connect(fd, (struct sockaddr *)&ss, len), EISCONN);
	/* the listener polls readable; accept4 gives the flags asked for */
	ok = ok && CHECK(wait_events(lfd, POLLIN, 10000) & POLLIN);
	afd = accept4(lfd, (struct sockaddr *)&peer, &plen, SOCK_NONBLOCK);
	plen = sizeof(peer);
	ok = ok && CHECK(afd >= 0) && CHECK(fcntl(afd, F_GETFL) & O_NONBLOCK);
	ok = ok && CHECK(!getpeername(fd, (struct sockaddr *)&peer, &plen)) &&
	     CHECK(plen == sizeof(struct sockaddr_in6)) && CHECK(!memcmp(&peer, &ss, plen));
	/* nothing to read yet: EAGAIN, not a block */
	ok = ok && CHECK_ERR(recv(afd, &err, sizeof(err), 0), EAGAIN);
	sdp_close_pair(fd, afd);
	close(lfd);
	return ok;
}

bool t_names(void)
{
	struct sockaddr_storage s, p, want;
	socklen_t slen = sizeof(s), plen = sizeof(p);
	int cfd, afd;
	bool ok = true;
	int v6;

	for (v6 = 0; ok && v6 < 2; v6++) {
		if (!sdp_pair_new(v6, &cfd, &afd))
			return false;
		slen = sizeof(s);
		plen = sizeof(s);
		/* the accepted socket: the server's address; its peer: the client's */
		ok = CHECK(!getsockname(afd, (struct sockaddr *)&s, &slen)) &&
		     CHECK(!getpeername(cfd, (struct sockaddr *)&p, &plen)) &&
		     CHECK(slen == plen) && CHECK(!memcmp(&s, &p, slen));
		sdp_addr(&want, v6, SDP_HOST_SERVER, 0);
		ok = ok && CHECK(s.ss_family == (v6 ? AF_INET6 : AF_INET));
		ok = ok && CHECK(v6 ? !memcmp(&((struct sockaddr_in6 *)&s)->sin6_addr,
					     &((struct sockaddr_in6 *)&want)->sin6_addr, 16) :
				 ((struct sockaddr_in *)&s)->sin_addr.s_addr ==
				 ((struct sockaddr_in *)&want)->sin_addr.s_addr);
		slen = sizeof(s);
		plen = sizeof(s);
		ok = ok && CHECK(!getsockname(cfd, (struct sockaddr *)&s, &slen)) &&
		     CHECK(!getpeername(afd, (struct sockaddr *)&p, &plen)) &&
		     CHECK(!memcmp(&s, &p, slen));
		sdp_close_pair(cfd, afd);
	}
	return ok;
}

static int sigpipes;

static void on_sigpipe(int sig)
{
	sigpipes += sig == SIGPIPE;
}

bool t_shutdown(void)
{
	int cfd, afd;
	char b[8];
	bool ok;

	if (!sdp_pair_new(false, &cfd, &afd))
		return false;
	ok = CHECK_ERR(shutdown(cfd, 7), EINVAL);
	/* the client's write side: the server reads EOF, and still writes to the client */
	ok = ok && CHECK(write(cfd, "abc", 3) == 3) && CHECK(!shutdown(cfd, SHUT_WR));
	ok = ok && CHECK(read(afd, b, sizeof(b)) == 3) && CHECK(read(afd, b, sizeof(b)) == 0);
	ok = ok && CHECK(wait_events(afd, POLLIN | POLLRDHUP, 1000) & POLLRDHUP);
	ok = ok && CHECK(write(afd, "back", 4) == 4) && CHECK(read(cfd, b, sizeof(b)) == 4);
	/* writing after our shutdown: EPIPE, and SIGPIPE unless MSG_NOSIGNAL */
	ok = ok && CHECK_ERR(send(cfd, b, 1, MSG_NOSIGNAL), EPIPE) && CHECK(sigpipes == 0);
	signal(SIGPIPE, on_sigpipe);
	ok = ok && CHECK_ERR(write(cfd, b, 1), EPIPE) && CHECK(sigpipes == 1);
	signal(SIGPIPE, SIG_IGN);
	/* the server's both ways: the client reads EOF */
	ok = ok && CHECK(!shutdown(afd, SHUT_RDWR)) && CHECK(read(cfd, b, sizeof(b)) == 0);
	ok = ok && CHECK(read(afd, b, sizeof(b)) == 0);
	sdp_close_pair(cfd, afd);
	/* SHUT_RD alone: reads end, writes go on */
	if (!sdp_pair_new(true, &cfd, &afd))
		return false;
	ok = ok && CHECK(!shutdown(afd, SHUT_RD)) && CHECK(read(afd, b, sizeof(b)) == 0) &&
	     CHECK(write(afd, "x", 1) == 1) && CHECK(read(cfd, b, 1) == 1);
	sdp_close_pair(cfd, afd);
	return ok;
}

/* Read until EOF or an error: the bytes read, and *@err the error (0: EOF). */
static long drain(int fd, int *err)
{
	char b[4096];
	long total = 0;
	ssize_t r;

	while ((r = read(fd, b, sizeof(b))) > 0)
		total += r;
	*err = r ? errno : 0;
	return total;
}

bool t_close(void)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };
	socklen_t llen = sizeof(l);
	int cfd, afd, err;
	bool ok;

	/* graceful: the peer reads what was written, then EOF */
	if (!sdp_pair_new(false, &cfd, &afd))
		return false;
	ok = CHECK(write(cfd, "last words", 10) == 10);
	close(cfd);
	ok = ok && CHECK(drain(afd, &err) == 10) && CHECK(err == 0);
	close(afd);
	/* SO_LINGER 0: abortive, the peer sees ECONNRESET, then EOF */
	if (!sdp_pair_new(false, &cfd, &afd))
		return false;
	ok = ok && CHECK(!setsockopt(cfd, SOL_SOCKET, SO_LINGER, &l, sizeof(l))) &&
	     CHECK(!getsockopt(cfd, SOL_SOCKET, SO_LINGER, &l, &llen)) && CHECK(l.l_onoff);
	close(cfd);
	ok = ok && CHECK(drain(afd, &err) == 0) && CHECK(err == ECONNRESET);
	ok = ok && CHECK(read(afd, &err, 1) == 0);
	close(afd);
	/* unread data at close: abortive too */
	if (!sdp_pair_new(true, &cfd, &afd))
		return false;
	ok = ok && CHECK(write(afd, "unread", 6) == 6) && wait_inq(cfd, 6);
	close(cfd);
	ok = ok && CHECK(wait_events(afd, POLLIN, 10000) & (POLLERR | POLLHUP));
	ok = ok && CHECK_ERR(send(afd, "x", 1, MSG_NOSIGNAL), ECONNRESET);
	close(afd);
	/* SO_LINGER with a time: close waits until our end went out */
	if (!sdp_pair_new(true, &cfd, &afd))
		return false;
	l.l_linger = 10;
	ok = ok && CHECK(!setsockopt(cfd, SOL_SOCKET, SO_LINGER, &l, sizeof(l))) &&
	     CHECK(write(cfd, "bye", 3) == 3) && CHECK(!close(cfd));
	ok = ok && CHECK(drain(afd, &err) == 3) && CHECK(err == 0);
	close(afd);
	return ok;
}

bool t_ioctls(void)
{
	int cfd, afd, n = -1;
	char b[100];
	bool ok;

	if (!sdp_pair_new(false, &cfd, &afd))
		return false;
	ok = CHECK(inq(afd) == 0) && CHECK(!ioctl(cfd, SIOCOUTQ, &n)) && CHECK(n == 0);
	ok = ok && CHECK(write(cfd, b, sizeof(b)) == sizeof(b)) && wait_inq(afd, 100);
	ok = ok && CHECK(read(afd, b, 30) == 30) && CHECK(inq(afd) == 70);
	ok = ok && CHECK(recv(afd, b, 70, MSG_PEEK) == 70) && CHECK(inq(afd) == 70);
	ok = ok && CHECK_ERR(ioctl(afd, _IO('x', 1), &n), ENOTTY);
	sdp_close_pair(cfd, afd);
	return ok;
}
