// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_sdp_user: readiness: poll, select, and epoll level- and edge-triggered, on a connected
 * pair and on a listener; a non-blocking sender and receiver moving 1 MiB by epoll alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include "ktap.h"
#include "sdp_cases.h"
#include "sdp_util.h"

static int ep_wait(int ep, int ms, struct epoll_event *ev)
{
	return epoll_wait(ep, ev, 1, ms);
}

bool t_poll_select(void)
{
	struct timeval tv = { .tv_sec = 10 };
	int cfd, afd;
	fd_set r, w;
	char b[8];
	bool ok;

	if (!sdp_pair_new(false, &cfd, &afd))
		return false;
	/* writable, not readable; then readable once written to */
	ok = CHECK(wait_events(cfd, POLLIN | POLLOUT, 0) == POLLOUT) &&
	     CHECK(wait_events(afd, POLLIN, 0) == 0);
	ok = ok && CHECK(write(cfd, "ping", 4) == 4);
	FD_ZERO(&r);
	FD_SET(afd, &r);
	ok = ok && CHECK(select(afd + 1, &r, NULL, NULL, &tv) == 1) && CHECK(FD_ISSET(afd, &r));
	ok = ok && CHECK(read(afd, b, sizeof(b)) == 4);
	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_SET(afd, &r);
	FD_SET(afd, &w);
	tv = (struct timeval){ .tv_sec = 10 };
	ok = ok && CHECK(select(afd + 1, &r, &w, NULL, &tv) == 1) && CHECK(FD_ISSET(afd, &w)) &&
	     CHECK(!FD_ISSET(afd, &r));
	/* the peer's shutdown: readable with POLLRDHUP; its close: POLLHUP too */
	ok = ok && CHECK(!shutdown(cfd, SHUT_WR)) &&
	     CHECK(wait_events(afd, POLLIN | POLLRDHUP, 10000) == (POLLIN | POLLRDHUP));
	close(cfd);
	ok = ok && CHECK(read(afd, b, sizeof(b)) == 0);
	close(afd);
	return ok;
}

bool t_epoll(void)
{
	struct epoll_event ev = { .events = EPOLLIN }, got;
	int cfd, afd, lfd, ep = epoll_create1(0);
	struct sockaddr_storage ss;
	uint16_t port = 0;
	socklen_t slen;
	char b[64];
	bool ok;

	if (!sdp_pair_new(true, &cfd, &afd))
		return false;
	/* level: reported while anything is unread */
	ev.data.fd = afd;
	ok = CHECK(!epoll_ctl(ep, EPOLL_CTL_ADD, afd, &ev)) && CHECK(ep_wait(ep, 0, &got) == 0);
	ok = ok && CHECK(write(cfd, "12345678", 8) == 8) && CHECK(ep_wait(ep, 10000, &got) == 1) &&
	     CHECK(got.events == EPOLLIN && got.data.fd == afd);
	ok = ok && CHECK(read(afd, b, 3) == 3) && CHECK(ep_wait(ep, 0, &got) == 1);
	ok = ok && CHECK(read(afd, b, sizeof(b)) == 5) && CHECK(ep_wait(ep, 0, &got) == 0);
	/* edge: once drained to EAGAIN, nothing until more comes */
	ev.events = EPOLLIN | EPOLLET;
	ok = ok && CHECK(!epoll_ctl(ep, EPOLL_CTL_MOD, afd, &ev)) &&
	     CHECK(!fcntl(afd, F_SETFL, O_NONBLOCK));
	ok = ok && CHECK(write(cfd, "abc", 3) == 3) && CHECK(ep_wait(ep, 10000, &got) == 1);
	ok = ok && CHECK(read(afd, b, sizeof(b)) == 3) && CHECK_ERR(read(afd, b, 1), EAGAIN);
	ok = ok && CHECK(ep_wait(ep, 200, &got) == 0);
	ok = ok && CHECK(write(cfd, "de", 2) == 2) && CHECK(ep_wait(ep, 10000, &got) == 1) &&
	     CHECK(got.events & EPOLLIN) && CHECK(read(afd, b, sizeof(b)) == 2);
	/* the peer's close: EPOLLRDHUP */
	ev.events = EPOLLIN | EPOLLRDHUP;
	ok = ok && CHECK(!epoll_ctl(ep, EPOLL_CTL_MOD, afd, &ev));
	close(cfd);
	ok = ok && CHECK(ep_wait(ep, 10000, &got) == 1) && CHECK(got.events & EPOLLRDHUP);
	ok = ok && CHECK(!epoll_ctl(ep, EPOLL_CTL_DEL, afd, &ev));
	close(afd);
	/* a listener: readable once a connection waits, not once it is accepted */
	lfd = sdp_listener(true, &port, 4);
	ev.events = EPOLLIN;
	ev.data.fd = lfd;
	ok = ok && CHECK(lfd >= 0) && CHECK(!epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev)) &&
	     CHECK(ep_wait(ep, 0, &got) == 0);
	cfd = sdp_socket(true);
	slen = sdp_addr(&ss, true, SDP_HOST_SERVER, port);
	ok = ok && CHECK(!connect(cfd, (struct sockaddr *)&ss, slen)) &&
	     CHECK(ep_wait(ep, 10000, &got) == 1) && CHECK(got.data.fd == lfd);
	afd = ok ? accept(lfd, NULL, NULL) : -1;
	ok = ok && CHECK(afd >= 0) && CHECK(ep_wait(ep, 0, &got) == 0);
	sdp_close_pair(cfd, afd);
	close(lfd);
	close(ep);
	return ok;
}

/* Both ends non-blocking, driven by one epoll set: 1 MiB one way, every byte checked. */
bool t_epoll_stream(void)
{
	const uint64_t len = 1 << 20;
	int cfd, afd, ep = epoll_create1(0), n, i;
	struct epoll_event ev, evs[2];
	uint64_t sent = 0, rcvd = 0;
	uint8_t *buf = malloc(65536);
	int64_t end = now_ms() + 60000;
	bool ok = true;

	if (!sdp_pair_new(false, &cfd, &afd))
		return false;
	fcntl(cfd, F_SETFL, O_NONBLOCK);
	fcntl(afd, F_SETFL, O_NONBLOCK);
	ev = (struct epoll_event){ .events = EPOLLOUT | EPOLLET, .data.fd = cfd };
	ok = CHECK(!epoll_ctl(ep, EPOLL_CTL_ADD, cfd, &ev));
	ev = (struct epoll_event){ .events = EPOLLIN | EPOLLET, .data.fd = afd };
	ok = ok && CHECK(!epoll_ctl(ep, EPOLL_CTL_ADD, afd, &ev));
	while (ok && rcvd < len && now_ms() < end) {
		n = epoll_wait(ep, evs, 2, 10000);
		ok = CHECK(n > 0);
		for (i = 0; ok && i < n; i++) {
			ssize_t r = 1;

			if (evs[i].data.fd == cfd) {
				while (sent < len && r > 0) {
					size_t c = len - sent < 65536 ? len - sent : 65536;

					pattern_fill(buf, c, 31, sent);
					r = send(cfd, buf, c, MSG_NOSIGNAL);
					sent += r > 0 ? r : 0;
				}
				ok = CHECK(r > 0 || errno == EAGAIN);
				continue;
			}
			while (r > 0) {
				r = recv(afd, buf, 65536, 0);
				if (r > 0 && !CHECK(pattern_check(buf, r, 31, rcvd) < 0))
					ok = false;
				rcvd += r > 0 ? r : 0;
			}
			ok = ok && CHECK(r < 0 && errno == EAGAIN);
		}
	}
	ok = ok && CHECK(rcvd == len);
	sdp_close_pair(cfd, afd);
	close(ep);
	free(buf);
	return ok;
}
