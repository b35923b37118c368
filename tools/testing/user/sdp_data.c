// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_sdp_user: data over SDP sockets, checked byte for byte against a pattern: 1 B to 16 MiB
 * in one process (a writer thread), readv/writev, sendmsg/recvmsg, sendfile and splice, both
 * sides in two processes, a close with data in flight, a few hundred connections.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include "ktap.h"
#include "sdp_cases.h"
#include "sdp_util.h"

struct writer {
	pthread_t thread;
	int fd;
	uint64_t len;
	uint32_t seed;
	size_t chunk;
	bool close_after;	/* close the socket once all is written */
	bool ok;
};

static void *writer_run(void *arg)
{
	struct writer *w = arg;

	w->ok = send_stream(w->fd, w->len, w->seed, w->chunk);
	if (w->close_after)
		close(w->fd);
	return NULL;
}

static void writer_start(struct writer *w, int fd, uint64_t len, uint32_t seed, size_t chunk)
{
	*w = (struct writer){ .fd = fd, .len = len, .seed = seed, .chunk = chunk };
	pthread_create(&w->thread, NULL, writer_run, w);
}

static bool writer_end(struct writer *w)
{
	pthread_join(w->thread, NULL);
	return w->ok;
}

bool t_transfer_sizes(void)
{
	static const uint64_t sizes[] = { 1, 2, 4079, 4080, 4081, 65536, 1048583 };
	int cfd, afd, i;
	struct writer w;
	bool ok = true;
	int64_t t;

	for (i = 0; ok && i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		bool v6 = i & 1;

		if (!sdp_pair_new(v6, &cfd, &afd))
			return false;
		t = now_ms();
		/* one way in big writes and small reads, the other way back in odd pieces */
		writer_start(&w, cfd, sizes[i], i, 256 << 10);
		ok = recv_stream(afd, sizes[i], i, 3001) && CHECK(writer_end(&w));
		writer_start(&w, afd, sizes[i], i + 100, sizes[i] > 65536 ? 65536 : 777);
		ok = ok && recv_stream(cfd, sizes[i], i + 100, 1 << 20) && CHECK(writer_end(&w));
		if (ok && sizes[i] >= 1 << 20)
			diag("%llu bytes each way over IPv%d in %lld ms",
			     (unsigned long long)sizes[i], v6 ? 6 : 4, (long long)(now_ms() - t));
		sdp_close_pair(cfd, afd);
	}
	/* 16 MiB one way, through rings of 64 buffers (SO_RCVBUF, SO_SNDBUF) */
	if (!ok || !sdp_pair_new_bufs(false, 131072, &cfd, &afd))
		return false;
	t = now_ms();
	writer_start(&w, cfd, 16 << 20, 99, 1 << 20);
	ok = recv_stream(afd, 16 << 20, 99, 1 << 20) && CHECK(writer_end(&w));
	diag("16 MiB over IPv4 in %lld ms", (long long)(now_ms() - t));
	sdp_close_pair(cfd, afd);
	return ok;
}

bool t_iovecs(void)
{
	char a[10] = "0123456789", b[7] = "abcdefg", c[3] = "xyz", r1[5], r2[20], r3[20];
	struct iovec wv[3] = { { a, 10 }, { b, 7 }, { c, 3 } }, rv[2] = { { r1, 5 }, { r2, 15 } };
	struct msghdr m = { .msg_iov = wv, .msg_iovlen = 3 };
	int cfd, afd;
	bool ok;

	if (!sdp_pair_new(true, &cfd, &afd))
		return false;
	ok = CHECK(writev(cfd, wv, 3) == 20) && wait_inq(afd, 20);
	rv[1].iov_len = 20;	/* room for more than there is: a short read */
	ok = ok && CHECK(readv(afd, rv, 2) == 20) && CHECK(!memcmp(r1, "01234", 5)) &&
	     CHECK(!memcmp(r2, "56789abcdefgxyz", 15));
	ok = ok && CHECK(sendmsg(cfd, &m, 0) == 20) && wait_inq(afd, 20);
	rv[1].iov_len = 15;	/* MSG_WAITALL waits for all it has room for */
	m.msg_iov = rv;
	m.msg_iovlen = 2;
	/* MSG_PEEK leaves it there; MSG_WAITALL takes all of it */
	ok = ok && CHECK(recvmsg(afd, &m, MSG_PEEK) == 20) && CHECK(inq(afd) == 20);
	ok = ok && CHECK(recvmsg(afd, &m, MSG_WAITALL) == 20) && CHECK(!memcmp(r1, "01234", 5));
	ok = ok && CHECK_ERR(recv(afd, r3, sizeof(r3), MSG_DONTWAIT), EAGAIN);
	ok = ok && CHECK(recv(afd, r3, 0, 0) == 0);
	/* MSG_WAITALL across two writes */
	ok = ok && CHECK(write(cfd, a, 10) == 10) && CHECK(write(cfd, b, 7) == 7) &&
	     CHECK(recv(afd, r3, 17, MSG_WAITALL) == 17) && CHECK(!memcmp(r3 + 10, b, 7));
	sdp_close_pair(cfd, afd);
	return ok;
}

struct file_sender {
	pthread_t thread;
	int sock, file;
	size_t len;
	bool ok;
};

static void *file_sender_run(void *arg)
{
	struct file_sender *s = arg;
	off_t off = 0;
	ssize_t n = 1;

	while (n > 0 && off < (off_t)s->len)
		n = sendfile(s->sock, s->file, &off, s->len - off);
	s->ok = CHECK(off == (off_t)s->len);
	return NULL;
}

bool t_sendfile_splice(void)
{
	const size_t len = 512 << 10;
	char path[] = "/tmp/oib_sdp_XXXXXX";
	int f = mkstemp(path), cfd, afd, p[2];
	uint8_t *buf = malloc(len);
	struct file_sender fs;
	struct writer w;
	size_t got;
	bool ok;

	unlink(path);
	pattern_fill(buf, len, 7, 0);
	ok = CHECK(f >= 0) && CHECK(write(f, buf, len) == (ssize_t)len) && CHECK(!pipe(p));
	if (!ok || !sdp_pair_new(false, &cfd, &afd)) {
		free(buf);
		return false;
	}
	/* sendfile from the file while the reader checks */
	fs = (struct file_sender){ .sock = cfd, .file = f, .len = len };
	pthread_create(&fs.thread, NULL, file_sender_run, &fs);
	ok = recv_stream(afd, len, 7, 65536);
	pthread_join(fs.thread, NULL);
	ok = CHECK(fs.ok) && ok;
	/* splice from the socket into a pipe: the same bytes */
	writer_start(&w, cfd, len, 8, 65536);
	for (got = 0; ok && got < len;) {
		ssize_t n = splice(afd, NULL, p[1], NULL, 65536, 0), m;

		ok = CHECK(n > 0);
		m = ok ? read(p[0], buf, n) : 0;
		ok = ok && CHECK(m == n) && CHECK(pattern_check(buf, n, 8, got) < 0);
		got += n > 0 ? n : 0;
	}
	ok = CHECK(writer_end(&w)) && ok;
	sdp_close_pair(cfd, afd);
	close(p[0]);
	close(p[1]);
	close(f);
	free(buf);
	return ok;
}

/* A child that serves one connection: reads @len bytes of stream 11, checks them, answers 1. */
static int serve_one(int lfd, uint64_t len)
{
	int afd = accept(lfd, NULL, NULL);
	char ok;

	if (afd < 0)
		return 1;
	ok = recv_stream(afd, len, 11, 65536);
	if (write(afd, &ok, 1) != 1 || !ok)
		return 1;
	return read(afd, &ok, 1) == 0 ? 0 : 1;	/* the parent's close */
}

bool t_two_processes(void)
{
	const uint64_t len = 1 << 20;
	uint16_t port = 0;
	int lfd = sdp_listener(true, &port, 4), cfd, st = -1;
	struct sockaddr_storage ss;
	socklen_t slen = sdp_addr(&ss, true, SDP_HOST_SERVER, port);
	char verdict = 0;
	pid_t pid;
	bool ok;

	if (lfd < 0)
		return false;
	pid = fork();
	if (!pid)
		_exit(serve_one(lfd, len));
	close(lfd);
	cfd = sdp_socket(true);
	ok = CHECK(!connect(cfd, (struct sockaddr *)&ss, slen)) &&
	     send_stream(cfd, len, 11, 100000);
	ok = ok && CHECK(read(cfd, &verdict, 1) == 1) && CHECK(verdict == 1);
	close(cfd);
	ok = CHECK(waitpid(pid, &st, 0) == pid) && CHECK(WIFEXITED(st) && !WEXITSTATUS(st)) && ok;
	return ok;
}

/*
 * A child connects, leaves what it is sent unread (with @unread, once it has come: the parent's
 * send may be held a moment, as TCP's Nagle holds one), and is killed with SIGKILL.
 */
static bool killed_peer(bool unread)
{
	uint16_t port = 0;
	int lfd = sdp_listener(false, &port, 4), afd, err = 0, p[2];
	struct sockaddr_storage ss;
	socklen_t slen = sdp_addr(&ss, false, SDP_HOST_SERVER, port);
	int64_t end;
	char b[4096];
	pid_t pid;
	bool ok;

	if (lfd < 0 || pipe(p))
		return false;
	pid = fork();
	if (!pid) {
		int fd = sdp_socket(false);

		if (connect(fd, (struct sockaddr *)&ss, slen) || write(p[1], "c", 1) != 1)
			_exit(1);
		if (unread && (!wait_events(fd, POLLIN, 10000) || write(p[1], "d", 1) != 1))
			_exit(1);
		pause();
	}
	afd = accept(lfd, NULL, NULL);
	ok = CHECK(afd >= 0) && CHECK(read(p[0], b, 1) == 1);
	if (unread)		/* sent, and come: unread data at the child's end */
		ok = ok && CHECK(write(afd, b, 100) == 100) && CHECK(read(p[0], b, 1) == 1);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* unread data: reset; none: EOF, then writes fail once the connection is gone */
	ok = ok && CHECK(wait_events(afd, POLLIN, 10000));
	if (unread) {
		ok = ok && CHECK_ERR(read(afd, b, sizeof(b)), ECONNRESET);
	} else {
		ok = ok && CHECK(read(afd, b, sizeof(b)) == 0);
		/* the closed end resets on data, as TCP's does: no wait for its close timer */
		end = now_ms() + 10000;
		while (ok && now_ms() < end && (send(afd, b, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1 ||
						errno == EAGAIN))
			wait_events(afd, POLLOUT, 100);
		err = errno;
		diag("writes after the peer's death: %s", strerror(err));
		ok = ok && CHECK(err == EPIPE || err == ECONNRESET);
	}
	close(afd);
	close(lfd);
	close(p[0]);
	close(p[1]);
	return ok;
}

bool t_peer_killed(void)
{
	return killed_peer(false) && killed_peer(true);
}

bool t_close_in_flight(void)
{
	const uint64_t len = 1 << 20;
	struct writer w;
	int cfd, afd, err;
	char b;
	bool ok;

	if (!sdp_pair_new(false, &cfd, &afd))
		return false;
	/* the writer closes as soon as its last write returned: the rest is still on its way */
	writer_start(&w, cfd, len, 21, 256 << 10);
	w.close_after = true;
	ok = recv_stream(afd, len, 21, 4096) && CHECK(writer_end(&w));
	err = read(afd, &b, 1);
	ok = ok && CHECK(err == 0);
	close(afd);
	return ok;
}

#define NCONN	200

/* @n clients connect at once, non-blocking; the listener accepts them all. */
static int connect_many(int lfd, uint16_t port, int *cfd, int *afd, int n)
{
	struct sockaddr_storage ss;
	socklen_t len = sdp_addr(&ss, false, SDP_HOST_SERVER, port);
	int i, up = 0;
	bool ok = true;

	for (i = 0; ok && i < n; i++) {
		cfd[i] = socket(AF_INET_SDP, SOCK_STREAM | SOCK_NONBLOCK, 0);
		ok = CHECK(cfd[i] >= 0) &&
		     CHECK_ERR(connect(cfd[i], (struct sockaddr *)&ss, len), EINPROGRESS);
		n = ok ? n : i + (cfd[i] >= 0);
	}
	for (i = 0; ok && i < n; i++) {
		ok = CHECK(wait_events(lfd, POLLIN, 20000) & POLLIN);
		afd[i] = ok ? accept(lfd, NULL, NULL) : -1;
		ok = ok && CHECK(afd[i] >= 0);
		up += ok;
	}
	for (i = 0; ok && i < n; i++)
		ok = CHECK(wait_events(cfd[i], POLLOUT, 20000) == POLLOUT) &&
		     CHECK(!fcntl(cfd[i], F_SETFL, 0));
	for (i = up; i < n; i++)
		afd[i] = -1;
	return ok ? n : -n;
}

bool t_many_connections(void)
{
	static int cfd[NCONN], afd[NCONN];
	static bool seen[NCONN];
	uint16_t port = 0, v;
	int lfd = sdp_listener(false, &port, NCONN), i, n;
	int64_t t = now_ms();
	bool ok = lfd >= 0;

	n = ok ? connect_many(lfd, port, cfd, afd, NCONN) : 0;
	ok = n > 0;
	diag("%d connections up at once in %lld ms", n < 0 ? -n : n, (long long)(now_ms() - t));
	n = n < 0 ? -n : n;
	/* each client sends its number; whoever accepted it echoes it back */
	for (i = 0; ok && i < n; i++) {
		v = i;
		ok = CHECK(write(cfd[i], &v, 2) == 2);
	}
	for (i = 0; ok && i < n; i++) {
		ok = CHECK(read(afd[i], &v, 2) == 2) && CHECK(v < n && !seen[v]) &&
		     CHECK(write(afd[i], &v, 2) == 2);
		if (!ok)
			diag("connection %d: %s", i, strerror(errno));
		seen[ok ? v : 0] = true;
	}
	for (i = 0; ok && i < n; i++)
		ok = CHECK(read(cfd[i], &v, 2) == 2) && CHECK(v == i);
	for (i = 0; i < n; i++) {
		close(cfd[i]);
		if (afd[i] >= 0)
			close(afd[i]);
	}
	close(lfd);
	diag("and down, %lld ms in all", (long long)(now_ms() - t));
	return ok;
}
