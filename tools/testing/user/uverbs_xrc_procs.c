// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 2007 XRC receive-QP design's scenario, between processes.  A opens the domain through a
 * file (O_CREAT), makes the kernel-owned receive QP for the parent's initiator (on the other
 * device), publishes its number on a pipe and goes; B and C open the same file, each make an
 * XRC SRQ on a CQ of its own, register the QP and keep receiving; every message must reach the
 * SRQ it named.  When the last of them closes the domain the QP is gone (debugfs) and the
 * initiator's next send ends with RETRY_EXC_ERR.  The same with kill -9 at each step.  Every
 * wait is on a pipe or a condition polled with a deadline.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "ktap.h"
#include "uverbs_util.h"
#include "uverbs_xrc.h"

#define WAIT_MS 20000

/* A child: the parent writes commands on @cmd and reads answers on @rep. */
struct child {
	pid_t pid;
	int cmd, rep;
};

/* What a child is told: its domain's file and the QP numbers it needs. */
struct role {
	int fd;
	uint32_t ini_qpn, rcv_qpn;
	bool hold;	/* A: do not publish; B: stop before registering */
};

enum { CMD_REPORT = 'R', CMD_CLOSE = 'C' };

static bool put_u32(int fd, uint32_t v)
{
	return write(fd, &v, sizeof(v)) == sizeof(v);
}

/* Read a u32 from @fd within @ms: false on EOF, error or timeout. */
static bool get_u32(int fd, uint32_t *v, int ms)
{
	return readable(fd, ms) && read(fd, v, sizeof(*v)) == sizeof(*v);
}

/* In a new child: close what it inherited but its pipes and the domain's file. */
static void close_inherited(int keep1, int keep2, int keep3)
{
	int fd;

	for (fd = 3; fd < 1024; fd++)
		if (fd != keep1 && fd != keep2 && fd != keep3)
			close(fd);
}

static bool spawn(struct child *c, void (*fn)(const struct role *r, int cmd, int rep),
		  const struct role *r)
{
	int cp[2], rp[2];

	if (!CHECK(!pipe(cp) && !pipe(rp)))
		return false;
	c->pid = fork();
	if (!c->pid) {
		/* the other children's pipes too: each must see EOF when the parent closes */
		close_inherited(cp[0], rp[1], r->fd);
		fn(r, cp[0], rp[1]);
		_exit(0);
	}
	close(cp[0]);
	close(rp[1]);
	c->cmd = cp[1];
	c->rep = rp[0];
	return CHECK(c->pid > 0);
}

/* End @c: SIGKILL if @kill9, else close its command pipe; true if it went as expected. */
static bool reap(struct child *c, bool kill9)
{
	int st = 0;

	if (c->pid <= 0)
		return true;
	if (kill9)
		kill(c->pid, SIGKILL);
	close(c->cmd);
	close(c->rep);
	if (!CHECK(waitpid(c->pid, &st, 0) == c->pid))
		return false;
	c->pid = 0;
	if (kill9)
		return CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	return CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* A: the domain (O_CREAT), the receive QP, its number on @rep; then waits for its end. */
static void role_a(const struct role *r, int cmd, int rep)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct oibv_xrcd *d = c ? oibv_open_xrcd(c, r->fd, O_CREAT) : NULL;
	uint32_t qpn = 0, v;

	if (!d || rcv_qp_make(d, r->ini_qpn, &qpn))
		_exit(1);
	put_u32(rep, r->hold ? 0 : qpn);
	get_u32(cmd, &v, -1);	/* EOF: the parent says go */
	_exit(oibv_close_xrcd(d) || oibv_close_device(c) ? 1 : 0);
}

/* A command on @fd, if one came: 1, 0 if none, -1 at EOF. */
static int cmd_poll(int fd, uint32_t *v)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (poll(&pfd, 1, 0) != 1)
		return 0;
	return read(fd, v, sizeof(*v)) == sizeof(*v) ? 1 : -1;
}

/* B and C's commands: a report once @want messages came, or closing the domain. */
static bool receiver_cmd(struct xrc_rcv *x, int cmd, int rep, int *good, int *bad)
{
	int64_t end;
	uint32_t c, want;
	int got = cmd_poll(cmd, &c);

	if (got <= 0)
		return !got;
	if (c == CMD_CLOSE) {
		rcv_free(x);
		return put_u32(rep, 0);
	}
	if (!get_u32(cmd, &want, WAIT_MS))
		return false;
	end = now_ms() + WAIT_MS;
	while (*good + *bad < (int)want && now_ms() < end && rcv_poll(x, good, bad) >= 0)
		;
	return put_u32(rep, *good) && put_u32(rep, *bad);
}

/* B, C: the same domain (no O_CREAT), an SRQ, the registration, its number on @rep; receive. */
static void role_receiver(const struct role *r, int cmd, int rep)
{
	struct oibv_context *c = oibv_open_device(test_dev);
	struct xrc_rcv x;
	int good = 0, bad = 0;
	uint32_t v;

	if (!c || !rcv_make(&x, c, r->fd, 0))
		_exit(1);
	if (r->hold) {
		put_u32(rep, x.srq->xrc_srq_num);
		get_u32(cmd, &v, -1);
		_exit(0);
	}
	if (oibv_reg_xrc_rcv_qp(x.xrcd, r->rcv_qpn))
		_exit(1);
	put_u32(rep, x.srq->xrc_srq_num);
	while (receiver_cmd(&x, cmd, rep, &good, &bad)) {
		struct pollfd pfd = { .fd = cmd, .events = POLLIN };

		if (x.srq && rcv_poll(&x, &good, &bad) < 0)
			_exit(1);
		if (!x.srq)	/* closed: nothing to receive, wait for the next command */
			poll(&pfd, 1, -1);
	}
	_exit(bad ? 2 : 0);
}

/* @c has received @want messages by now, all for its own SRQ. */
static bool report(struct child *c, uint32_t want)
{
	uint32_t good = 0, bad = 0;

	if (!CHECK(put_u32(c->cmd, CMD_REPORT) && put_u32(c->cmd, want)) ||
	    !CHECK(get_u32(c->rep, &good, 2 * WAIT_MS) && get_u32(c->rep, &bad, WAIT_MS)))
		return false;
	diag("pid %d: %u messages for its SRQ, %u not", (int)c->pid, good, bad);
	return CHECK(good == want) && CHECK(!bad);
}

static bool close_domain(struct child *c)
{
	uint32_t v;

	return CHECK(put_u32(c->cmd, CMD_CLOSE)) && CHECK(get_u32(c->rep, &v, WAIT_MS));
}

/* Everything one run of the scenario has. */
struct scene {
	struct xrc_ini ini;
	struct child a, b, c;
	struct role role;
	uint32_t srq_b, srq_c;
	char path[64];
};

/* A makes and publishes the QP, B and C open, make their SRQs and register. */
static bool scene_start(struct scene *s)
{
	memset(s, 0, sizeof(*s));
	s->role.fd = domain_file(s->path, sizeof(s->path));
	if (!CHECK(s->role.fd >= 0) || !CHECK(ini_make(&s->ini, tx_ctx)))
		return false;
	s->role.ini_qpn = s->ini.qp->qp_num;
	if (!spawn(&s->a, role_a, &s->role) ||
	    !CHECK(get_u32(s->a.rep, &s->role.rcv_qpn, WAIT_MS)))
		return false;
	diag("A (pid %d) published receive QP %u", (int)s->a.pid, s->role.rcv_qpn);
	return CHECK(ini_connect(&s->ini, s->role.rcv_qpn)) &&
	       spawn(&s->b, role_receiver, &s->role) && spawn(&s->c, role_receiver, &s->role) &&
	       CHECK(get_u32(s->b.rep, &s->srq_b, WAIT_MS)) &&
	       CHECK(get_u32(s->c.rep, &s->srq_c, WAIT_MS));
}

static void scene_end(struct scene *s)
{
	reap(&s->a, true);
	reap(&s->b, true);
	reap(&s->c, true);
	ini_free(&s->ini);
	if (s->role.fd >= 0)
		close(s->role.fd);
	unlink(s->path);
}

/* @n messages alternating between B's and C's SRQs (only C's if !@to_b). */
static bool traffic(struct scene *s, uint32_t first, int n, bool to_b)
{
	bool ok = true;
	int i;

	for (i = 0; i < n && ok; i++)
		ok = CHECK(ini_send(&s->ini, to_b && i % 2 ? s->srq_b : s->srq_c, first + i) ==
			   OIBV_WC_SUCCESS);
	return ok;
}

/* The QP is gone with the domain: nothing left, and the initiator's next send fails. */
static bool scene_gone(struct scene *s)
{
	return CHECK(xrc_state_is(0, s->role.rcv_qpn, false)) &&
	       CHECK(objects_back_to(base_objects)) &&
	       CHECK(ini_send(&s->ini, s->srq_c, 999) == OIBV_WC_RETRY_EXC_ERR);
}

bool xrc_scenario(void)
{
	struct scene s;
	bool ok = scene_start(&s);

	ok = ok && reap(&s.a, false) && CHECK(xrc_state_is(1, s.role.rcv_qpn, true));
	ok = ok && traffic(&s, 0, 20, true) && report(&s.b, 10) && report(&s.c, 10);
	ok = ok && close_domain(&s.b) && CHECK(xrc_state_is(1, s.role.rcv_qpn, true));
	ok = ok && traffic(&s, 20, 10, false) && report(&s.c, 20);
	ok = ok && close_domain(&s.c) && scene_gone(&s);
	ok = ok && reap(&s.b, false) && reap(&s.c, false);
	scene_end(&s);
	return ok;
}

/* Post @n sends to C's SRQ without waiting; their completions come later. */
static bool post_to_c(struct scene *s, uint32_t first, int n)
{
	struct oibv_sge sge = { (uintptr_t)s->ini.buf, XRC_MSG, s->ini.mr->lkey };
	struct oibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = OIBV_WR_SEND,
		.send_flags = OIBV_SEND_SIGNALED, .xrc_remote_srq_num = s->srq_c,
	};
	struct oibv_send_wr *bad;
	int i;

	snprintf(s->ini.buf, XRC_MSG, "srq %u seq burst", s->srq_c);
	for (i = 0; i < n; i++) {
		wr.wr_id = first + i;
		if (!CHECK(!oibv_post_send(s->ini.qp, &wr, &bad)))
			return false;
	}
	return true;
}

/* A killed after publishing, B killed while C's traffic flows, C killed after registering. */
bool xrc_scenario_kill9(void)
{
	struct oibv_wc wc[8];
	struct scene s;
	bool ok = scene_start(&s);
	int i;

	ok = ok && reap(&s.a, true) && CHECK(xrc_state_is(1, s.role.rcv_qpn, true));
	ok = ok && traffic(&s, 0, 10, true) && report(&s.b, 5) && report(&s.c, 5);
	ok = ok && post_to_c(&s, 10, 8) && reap(&s.b, true) && poll_n(s.ini.cq, 8, wc);
	for (i = 0; ok && i < 8; i++)
		ok = CHECK(wc[i].status == OIBV_WC_SUCCESS);
	ok = ok && report(&s.c, 13) && CHECK(xrc_state_is(1, s.role.rcv_qpn, true));
	ok = ok && traffic(&s, 20, 4, false) && report(&s.c, 17);
	ok = ok && reap(&s.c, true) && scene_gone(&s);
	scene_end(&s);
	return ok;
}

/* A killed with its QP made but not published: the domain and the QP go with it. */
bool xrc_kill9_before_publish(void)
{
	struct scene s;
	uint32_t v;
	bool ok;

	memset(&s, 0, sizeof(s));
	s.role.fd = domain_file(s.path, sizeof(s.path));
	s.role.ini_qpn = 1;
	s.role.hold = true;
	ok = CHECK(s.role.fd >= 0) && spawn(&s.a, role_a, &s.role) &&
	     CHECK(get_u32(s.a.rep, &v, WAIT_MS)) && CHECK(xrc_state_is(1, 0, true));
	ok = ok && reap(&s.a, true) && CHECK(xrc_state_is(0, 0, false)) &&
	     CHECK(objects_back_to(base_objects));
	ok = ok && CHECK(!oibv_open_xrcd(rx_ctx, s.role.fd, 0)) && CHECK(errno == ENOENT);
	scene_end(&s);
	return ok;
}

/* B killed after opening the domain and making its SRQ, A after publishing: nothing left. */
bool xrc_kill9_after_open(void)
{
	struct scene s;
	uint32_t v;
	bool ok;

	memset(&s, 0, sizeof(s));
	s.role.fd = domain_file(s.path, sizeof(s.path));
	s.role.ini_qpn = 1;
	ok = CHECK(s.role.fd >= 0) && spawn(&s.a, role_a, &s.role) &&
	     CHECK(get_u32(s.a.rep, &s.role.rcv_qpn, WAIT_MS));
	s.role.hold = true;
	ok = ok && spawn(&s.b, role_receiver, &s.role) && CHECK(get_u32(s.b.rep, &v, WAIT_MS));
	ok = ok && reap(&s.a, true) && CHECK(xrc_state_is(1, s.role.rcv_qpn, true));
	ok = ok && reap(&s.b, true) && CHECK(xrc_state_is(0, s.role.rcv_qpn, false)) &&
	     CHECK(objects_back_to(base_objects));
	scene_end(&s);
	return ok;
}

/* xorshift64*: the kill fuzz's one source of randomness, so a seed reproduces a run. */
static uint64_t rnd_state;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dULL;
}

/* @n messages to one receiver's SRQ, each answered. */
static bool traffic_to(struct scene *s, uint32_t srq_num, uint32_t first, int n)
{
	bool ok = true;
	int i;

	for (i = 0; i < n && ok; i++)
		ok = CHECK(ini_send(&s->ini, srq_num, first + i) == OIBV_WC_SUCCESS);
	return ok;
}

/* The end of one receiver: killed, or closing its domain and exiting, as the dice say. */
static bool receiver_end(struct child *c)
{
	bool kill9 = rnd() % 2;

	diag("pid %d: %s", (int)c->pid, kill9 ? "kill -9" : "closes its domain");
	return kill9 ? reap(c, true) : close_domain(c) && reap(c, false);
}

/* One round: the scenario with A, then B and C in a random order, each killed or not. */
static bool kill9_round(void)
{
	struct scene s;
	uint32_t n = rnd() % 6, m = 1 + rnd() % 6;
	bool b_first = rnd() % 2, a_kill = rnd() % 2, ok = scene_start(&s);
	struct child *first = b_first ? &s.b : &s.c, *last = b_first ? &s.c : &s.b;
	uint32_t last_srq = b_first ? s.srq_c : s.srq_b;

	diag("A %s, %u messages each, %s ends first, then %u to the other", a_kill ? "killed" :
	     "exits", n, b_first ? "B" : "C", m);
	ok = ok && reap(&s.a, a_kill) && CHECK(xrc_state_is(1, s.role.rcv_qpn, true));
	ok = ok && traffic(&s, 0, 2 * n, true) && report(&s.b, n) && report(&s.c, n);
	ok = ok && receiver_end(first) && CHECK(xrc_state_is(1, s.role.rcv_qpn, true));
	ok = ok && traffic_to(&s, last_srq, 100, m) && report(last, n + m);
	ok = ok && receiver_end(last) && scene_gone(&s);
	scene_end(&s);
	return ok;
}

#define KILL9_ROUNDS 6

/* Seeded (OIB_FUZZ_SEED reproduces a run): rounds of kill9_round(). */
bool xrc_kill9_fuzz(void)
{
	const char *env = getenv("OIB_FUZZ_SEED");
	bool ok = true;
	int i;

	rnd_state = env ? strtoull(env, NULL, 0) : 0x0b1b5eedULL;
	diag("seed %#llx (OIB_FUZZ_SEED), %d rounds", (unsigned long long)rnd_state,
	     KILL9_ROUNDS);
	for (i = 0; i < KILL9_ROUNDS && ok; i++)
		ok = kill9_round();
	return ok;
}
