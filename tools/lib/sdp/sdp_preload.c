// SPDX-License-Identifier: GPL-2.0-only
/*
 * libsdp.so: LD_PRELOAD'ed into an unmodified program, it moves the program's TCP sockets
 * (AF_INET and AF_INET6, SOCK_STREAM) onto SDP (AF_INET_SDP 27, AF_INET6_SDP 28) as its policy
 * says (sdp_policy.h; Documentation/sdp.md).  A TCP socket is made as asked and stays TCP until
 * the program connects or listens: then, if the policy says SDP for that address and port, an
 * SDP socket is made with the options the program set (replayed), bound where the TCP one was,
 * connected or listening, and put in the TCP socket's place with dup2(), so that the program's
 * descriptor is the SDP socket from then on.  A bind to an address only an RDMA port has (the
 * TCP stack refuses it) makes the SDP socket there and then, for a server the policy sends to
 * SDP.  "both" on connect: SDP first, TCP when SDP has no
 * path to the peer (no RDMA device reaches the address, nobody listens over SDP, no oib_sdp);
 * on listen: a TCP and an SDP listener, accept() and poll() taking from either.
 *
 * Environment: LIBSDP_CONFIG_FILE (the policy file, default /etc/libsdp.conf); ALWAYS_USE_SDP or
 * SIMPLE_LIBSDP (any value): no file, every listener SDP and every connect SDP with the TCP
 * fallback; LIBSDP_DEBUG: each decision on stderr.
 *
 * The table of descriptors is guarded by one mutex; the calls into the C library are made
 * outside it but for the short ones that change a descriptor's entry.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sdp_policy.h"

#define AF_INET_SDP	27
#define AF_INET6_SDP	28
#define MAX_FDS		4096
#define MAX_OPTS	16
#define OPT_LEN		32

struct saved_opt {
	int level, name;
	socklen_t len;
	char val[OPT_LEN];
};

/* A TCP socket the library may still move, and a "both" listener's SDP twin. */
struct tracked {
	bool open;			/* a TCP socket not yet connected or listening */
	bool bound;
	struct sockaddr_storage addr;	/* where the program bound it */
	socklen_t addr_len;
	int nopts;
	struct saved_opt opts[MAX_OPTS];
	int twin;			/* the SDP listener beside this TCP one, or -1 */
};

static struct tracked fds[MAX_FDS];
static pthread_mutex_t fds_lock = PTHREAD_MUTEX_INITIALIZER;	/* fds[] */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static bool debug;

static int (*real_socket)(int, int, int);
static int (*real_bind)(int, const struct sockaddr *, socklen_t);
static int (*real_listen)(int, int);
static int (*real_connect)(int, const struct sockaddr *, socklen_t);
static int (*real_accept)(int, struct sockaddr *, socklen_t *);
static int (*real_accept4)(int, struct sockaddr *, socklen_t *, int);
static int (*real_setsockopt)(int, int, int, const void *, socklen_t);
static int (*real_close)(int);
static int (*real_dup2)(int, int);
static int (*real_poll)(struct pollfd *, nfds_t, int);

static void say(const char *fmt, ...)
{
	va_list ap;

	if (!debug)
		return;
	fprintf(stderr, "libsdp: %s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void load_policy(void)
{
	const char *path = getenv("LIBSDP_CONFIG_FILE");
	char *text;
	long n;
	FILE *f;
	int line;

	if (getenv("ALWAYS_USE_SDP") || getenv("SIMPLE_LIBSDP")) {
		sdp_policy_all(SDP_USE_SDP, SDP_USE_BOTH);
		return;
	}
	f = fopen(path ? path : "/etc/libsdp.conf", "r");
	if (!f)
		return;			/* no rules: everything stays TCP */
	text = calloc(1, 1 << 16);
	n = text ? fread(text, 1, (1 << 16) - 1, f) : 0;
	fclose(f);
	if (n >= 0 && text && sdp_policy_parse(text, &line))
		fprintf(stderr, "libsdp: %s: line %d is not a rule; every socket stays TCP\n",
			path ? path : "/etc/libsdp.conf", line);
	free(text);
}

static void init(void)
{
	int i;

	real_socket = dlsym(RTLD_NEXT, "socket");
	real_bind = dlsym(RTLD_NEXT, "bind");
	real_listen = dlsym(RTLD_NEXT, "listen");
	real_connect = dlsym(RTLD_NEXT, "connect");
	real_accept = dlsym(RTLD_NEXT, "accept");
	real_accept4 = dlsym(RTLD_NEXT, "accept4");
	real_setsockopt = dlsym(RTLD_NEXT, "setsockopt");
	real_close = dlsym(RTLD_NEXT, "close");
	real_dup2 = dlsym(RTLD_NEXT, "dup2");
	real_poll = dlsym(RTLD_NEXT, "poll");
	for (i = 0; i < MAX_FDS; i++)
		fds[i].twin = -1;
	debug = getenv("LIBSDP_DEBUG");
	load_policy();
}

static void setup(void)
{
	pthread_once(&init_once, init);
}

static bool in_table(int fd)
{
	return fd >= 0 && fd < MAX_FDS;
}

/* Take @fd's entry out of the table (a copy in *@t): whether it was an open TCP socket. */
static bool take(int fd, struct tracked *t)
{
	bool open = false;

	if (!in_table(fd))
		return false;
	pthread_mutex_lock(&fds_lock);
	open = fds[fd].open;
	if (open) {
		*t = fds[fd];
		fds[fd].open = false;
		fds[fd].nopts = 0;
		fds[fd].bound = false;
	}
	pthread_mutex_unlock(&fds_lock);
	return open;
}

int socket(int domain, int type, int protocol)
{
	int fd;

	setup();
	fd = real_socket(domain, type, protocol);
	if (in_table(fd) && (domain == AF_INET || domain == AF_INET6) &&
	    (type & 0xf) == SOCK_STREAM && (!protocol || protocol == IPPROTO_TCP)) {
		pthread_mutex_lock(&fds_lock);
		fds[fd] = (struct tracked){ .open = true, .twin = -1 };
		pthread_mutex_unlock(&fds_lock);
	}
	return fd;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	int ret;

	setup();
	ret = real_setsockopt(fd, level, name, val, len);
	if (ret || !in_table(fd) || len > OPT_LEN)
		return ret;
	pthread_mutex_lock(&fds_lock);
	if (fds[fd].open && fds[fd].nopts < MAX_OPTS) {
		struct saved_opt *o = &fds[fd].opts[fds[fd].nopts++];

		o->level = level;
		o->name = name;
		o->len = len;
		memcpy(o->val, val, len);
	}
	pthread_mutex_unlock(&fds_lock);
	return ret;
}

static int sdp_twin(int fd, const struct tracked *t);
static int replace(int fd, int s);

/*
 * An address only an RDMA port has (no interface of the TCP stack): a server the policy sends
 * to SDP binds its SDP socket there at once, and that is the program's socket from then on.
 */
static int bind_sdp_only(int fd, const struct sockaddr *addr, socklen_t len)
{
	struct tracked t;
	int s;

	if (sdp_policy_match(SDP_ROLE_SERVER, program_invocation_short_name, addr) ==
	    SDP_USE_TCP || !take(fd, &t)) {
		errno = EADDRNOTAVAIL;
		return -1;
	}
	s = sdp_twin(fd, &t);
	if (s < 0 || real_bind(s, addr, len)) {
		say("no TCP nor SDP socket on that address");
		if (s >= 0)
			real_close(s);
		errno = EADDRNOTAVAIL;
		return -1;
	}
	say("bound where only SDP reaches: SDP");
	return replace(fd, s);
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	int ret;

	setup();
	ret = real_bind(fd, addr, len);
	if (ret && errno == EADDRNOTAVAIL && addr && in_table(fd) &&
	    (addr->sa_family == AF_INET || addr->sa_family == AF_INET6))
		return bind_sdp_only(fd, addr, len);
	if (ret || !in_table(fd) || len > sizeof(struct sockaddr_storage))
		return ret;
	pthread_mutex_lock(&fds_lock);
	if (fds[fd].open) {
		memcpy(&fds[fd].addr, addr, len);
		fds[fd].addr_len = len;
		fds[fd].bound = true;
	}
	pthread_mutex_unlock(&fds_lock);
	return ret;
}

/* An SDP socket like TCP socket @fd (its family, flags, options); -1 and errno on failure. */
static int sdp_twin(int fd, const struct tracked *t)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int s, i, fl, fdfl;

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		return -1;
	s = real_socket(ss.ss_family == AF_INET6 ? AF_INET6_SDP : AF_INET_SDP, SOCK_STREAM, 0);
	if (s < 0)
		return -1;
	for (i = 0; i < t->nopts; i++)	/* what SDP does not take, it does not take */
		real_setsockopt(s, t->opts[i].level, t->opts[i].name, t->opts[i].val,
				t->opts[i].len);
	fl = fcntl(fd, F_GETFL);
	fdfl = fcntl(fd, F_GETFD);
	if ((fl >= 0 && fcntl(s, F_SETFL, fl & O_NONBLOCK)) ||
	    (fdfl >= 0 && fcntl(s, F_SETFD, fdfl))) {
		real_close(s);
		return -1;
	}
	return s;
}

/* Put SDP socket @s in @fd's place: 0, or -1 with errno (@s closed either way). */
static int replace(int fd, int s)
{
	int fdfl = fcntl(fd, F_GETFD), ret, err;

	ret = real_dup2(s, fd);
	err = errno;
	real_close(s);
	if (ret < 0) {
		errno = err;
		return -1;
	}
	if (fdfl >= 0)
		fcntl(fd, F_SETFD, fdfl);	/* dup2 cleared FD_CLOEXEC */
	return 0;
}

/* The address a TCP socket listens on: where it is bound (getsockname: its port too). */
static void listen_addr(int fd, struct sockaddr_storage *ss)
{
	socklen_t len = sizeof(*ss);

	if (getsockname(fd, (struct sockaddr *)ss, &len))
		memset(ss, 0, sizeof(*ss));
}

/* An SDP listener for TCP socket @fd, bound to its address and port: the socket or -1. */
static int sdp_listener(int fd, const struct tracked *t, int backlog)
{
	struct sockaddr_storage ss;
	int s = sdp_twin(fd, t), err;

	listen_addr(fd, &ss);
	if (s < 0)
		return -1;
	if (real_bind(s, (struct sockaddr *)&ss, ss.ss_family == AF_INET6 ?
		      sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in)) ||
	    real_listen(s, backlog)) {
		err = errno;
		real_close(s);
		errno = err;
		return -1;
	}
	return s;
}

int listen(int fd, int backlog)
{
	struct sockaddr_storage ss;
	enum sdp_use use;
	struct tracked t;
	int s;

	setup();
	if (!take(fd, &t))
		return real_listen(fd, backlog);
	if (!t.bound && real_listen(fd, backlog))
		return -1;		/* an unbound TCP listener gets its port this way */
	listen_addr(fd, &ss);
	use = sdp_policy_match(SDP_ROLE_SERVER, program_invocation_short_name,
			       (struct sockaddr *)&ss);
	say("listener on port %d: %s", ntohs(((struct sockaddr_in *)&ss)->sin_port),
	    sdp_use_name(use));
	if (use == SDP_USE_TCP)
		return t.bound ? real_listen(fd, backlog) : 0;
	s = sdp_listener(fd, &t, backlog);
	if (s < 0) {
		say("no SDP listener (%s)%s", strerror(errno),
		    use == SDP_USE_BOTH ? ": TCP only" : "");
		if (use == SDP_USE_SDP)
			return -1;
		return t.bound ? real_listen(fd, backlog) : 0;
	}
	if (use == SDP_USE_SDP)
		return replace(fd, s);
	if ((t.bound && real_listen(fd, backlog)) || !in_table(s)) {
		real_close(s);
		return -1;
	}
	pthread_mutex_lock(&fds_lock);
	fds[fd].twin = s;
	pthread_mutex_unlock(&fds_lock);
	return 0;
}

/* Errors of an SDP connect after which TCP may still reach the peer. */
static bool no_sdp_path(int err)
{
	return err == EHOSTUNREACH || err == ENETUNREACH || err == EADDRNOTAVAIL ||
	       err == ECONNREFUSED || err == ETIMEDOUT || err == EAFNOSUPPORT ||
	       err == ENODEV;
}

/* Connect SDP socket @s to @addr, blocking until it is known whether it gets there. */
static int sdp_try(int s, const struct tracked *t, const struct sockaddr *addr, socklen_t len,
		   bool wait)
{
	int fl = fcntl(s, F_GETFL);

	if (t->bound && real_bind(s, (struct sockaddr *)&t->addr, t->addr_len))
		return -1;
	if (wait && (fl & O_NONBLOCK))
		fcntl(s, F_SETFL, fl & ~O_NONBLOCK);
	if (real_connect(s, addr, len))
		return -1;
	if (wait && (fl & O_NONBLOCK))
		fcntl(s, F_SETFL, fl);
	return 0;
}

int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	enum sdp_use use;
	struct tracked t;
	int s, err;

	setup();
	if (!addr || (addr->sa_family != AF_INET && addr->sa_family != AF_INET6) ||
	    !take(fd, &t))
		return real_connect(fd, addr, len);
	use = sdp_policy_match(SDP_ROLE_CLIENT, program_invocation_short_name, addr);
	if (use == SDP_USE_TCP)
		return real_connect(fd, addr, len);
	s = sdp_twin(fd, &t);
	if (s >= 0 && !sdp_try(s, &t, addr, len, use == SDP_USE_BOTH)) {
		say("to port %d: SDP", ntohs(((struct sockaddr_in *)addr)->sin_port));
		return replace(fd, s);
	}
	if (s >= 0 && errno == EINPROGRESS && use == SDP_USE_SDP)
		return replace(fd, s) ?: (errno = EINPROGRESS, -1);
	err = errno;
	if (s >= 0)
		real_close(s);
	if (use == SDP_USE_SDP || !no_sdp_path(err)) {
		errno = err;
		return -1;
	}
	say("to port %d: TCP (no SDP path: %s)",
	    ntohs(((struct sockaddr_in *)addr)->sin_port), strerror(err));
	return real_connect(fd, addr, len);
}

/* A "both" listener's twin, or -1. */
static int twin_of(int fd)
{
	int s = -1;

	if (!in_table(fd))
		return -1;
	pthread_mutex_lock(&fds_lock);
	s = fds[fd].twin;
	pthread_mutex_unlock(&fds_lock);
	return s;
}

/* accept() on a TCP listener and its SDP twin: whichever has a connection first. */
static int accept_either(int fd, int twin, struct sockaddr *addr, socklen_t *len, int flags)
{
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = twin, .events = POLLIN } };
	bool nonblock = fcntl(fd, F_GETFL) & O_NONBLOCK;
	int i, c;

	for (;;) {
		if (real_poll(p, 2, nonblock ? 0 : -1) < 0)
			return -1;
		for (i = 0; i < 2; i++) {
			if (!p[i].revents)
				continue;
			c = real_accept4(p[i].fd, addr, len, flags | SOCK_NONBLOCK);
			if (c >= 0) {
				if (!(flags & SOCK_NONBLOCK))
					fcntl(c, F_SETFL, fcntl(c, F_GETFL) & ~O_NONBLOCK);
				return c;
			}
			if (errno != EAGAIN)
				return -1;
		}
		if (nonblock) {
			errno = EAGAIN;
			return -1;
		}
	}
}

int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
	int twin;

	setup();
	twin = twin_of(fd);
	if (twin < 0)
		return real_accept4(fd, addr, len, flags);
	return accept_either(fd, twin, addr, len, flags);
}

int accept(int fd, struct sockaddr *addr, socklen_t *len)
{
	setup();
	if (twin_of(fd) < 0)
		return real_accept(fd, addr, len);
	return accept4(fd, addr, len, 0);
}

/* poll(): a "both" listener is readable when either of its sockets is. */
int poll(struct pollfd *p, nfds_t n, int timeout)
{
	struct pollfd *all;
	nfds_t i, extra = 0;
	int ret, twin;

	setup();
	for (i = 0; i < n; i++)
		extra += twin_of(p[i].fd) >= 0;
	if (!extra)
		return real_poll(p, n, timeout);
	all = calloc(n + extra, sizeof(*all));
	if (!all)
		return real_poll(p, n, timeout);
	memcpy(all, p, n * sizeof(*p));
	for (i = 0, extra = n; i < n; i++) {
		twin = twin_of(p[i].fd);
		if (twin >= 0)
			all[extra++] = (struct pollfd){ .fd = twin, .events = p[i].events };
	}
	ret = real_poll(all, extra, timeout);
	for (i = 0, extra = n, ret = ret < 0 ? ret : 0; i < n; i++) {
		p[i].revents = all[i].revents;
		if (twin_of(p[i].fd) >= 0)
			p[i].revents |= all[extra++].revents;
		ret += ret >= 0 && p[i].revents;
	}
	free(all);
	return ret;
}

/* Forget @fd (closed, or about to be replaced); close a listener's twin. */
static void forget(int fd)
{
	int twin = -1;

	if (!in_table(fd))
		return;
	pthread_mutex_lock(&fds_lock);
	twin = fds[fd].twin;
	fds[fd] = (struct tracked){ .twin = -1 };
	pthread_mutex_unlock(&fds_lock);
	if (twin >= 0)
		real_close(twin);
}

int close(int fd)
{
	setup();
	forget(fd);
	return real_close(fd);
}

int dup2(int old, int new)
{
	setup();
	if (old != new)
		forget(new);
	return real_dup2(old, new);
}
