// SPDX-License-Identifier: GPL-2.0-only
/*
 * DESTROY_QP against GET_ASYNC_FD and the QP's own async event (issue 33, bug 3).
 *
 * Each round is a context without an async event file and an RC pair on it (ioctls, no rings).
 * A posts one train of 16 packets to B: RACE_SENDS sends, then a write to a key B refuses, whose
 * QP_ACCESS_ERR B raises at the train's end.  The receive path holds B from the train's first
 * packet to its last, so a DESTROY_QP of B made once B's first receive completes waits for the
 * train: the destroy has begun, and the event is still to come.  Then, on the same CPU, a
 * second thread asks for the async event file (it runs once the destroyer sleeps).  A kernel
 * that looked for the context's async file before the destroy left B's event queued on the new
 * file, pointing into the freed QP: reading it gives a QP_ACCESS_ERR of a QP already destroyed
 * (a "ghost", which this counts) and KASAN reports the use after free.  A correct kernel drops
 * B's unread events in the destroy, wherever the race puts them.  OIB_FUZZ_SEED seeds how long
 * each thread waits; OIB_RACE_ROUNDS sets the rounds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ktap.h"
#include "uverbs_util.h"
#include "uverbs_uabi.h"

#define RACE_SENDS	15	/* and a write: one train (16 packets, MTU 1024) */
#define RACE_LEN	1024
#define HALF		(BUF_SIZE / 2)

struct race {
	struct oibv_context *ctx;
	int cpu;
	unsigned int spin;	/* the getter's yields after @go */
	int go;			/* the destroyer saw B's first receive */
	int async_fd;		/* the getter's answer, or -1 */
	int async_err;
	int64_t got_ns;		/* when it had it */
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *race_getter(void *arg)
{
	struct race *r = arg;
	struct oib_uverbs_new_fd c = { 0 };
	unsigned int i;

	pin(r->cpu);
	while (!__atomic_load_n(&r->go, __ATOMIC_ACQUIRE))
		sched_yield();
	for (i = 0; i < r->spin; i++)
		sched_yield();
	r->async_err = raw_cmd(r->ctx->cmd_fd, OIB_UVERBS_GET_ASYNC_FD, &c, sizeof(c));
	r->async_fd = r->async_err ? -1 : c.fd;
	r->got_ns = now_ns();
	return NULL;
}

/* B's receives, and A's train: the sends, then the write to a key B does not give out. */
static bool race_post(struct pair *p)
{
	struct oibv_sge rs[RACE_SENDS], ss[RACE_SENDS + 1];
	uintptr_t buf = (uintptr_t)p->buf;
	struct oibv_recv_wr rwr[RACE_SENDS], *rbad;
	struct oibv_send_wr swr[RACE_SENDS + 1], *sbad;
	int i;

	memset(rwr, 0, sizeof(rwr));
	memset(swr, 0, sizeof(swr));
	for (i = 0; i < RACE_SENDS; i++) {
		rs[i] = (struct oibv_sge){ buf + HALF + i * RACE_LEN, RACE_LEN, p->mr->lkey };
		rwr[i] = (struct oibv_recv_wr){ .wr_id = i, .sg_list = &rs[i], .num_sge = 1,
						.next = i + 1 < RACE_SENDS ? &rwr[i + 1] : NULL };
		ss[i] = (struct oibv_sge){ buf + i * RACE_LEN, RACE_LEN, p->mr->lkey };
		swr[i] = (struct oibv_send_wr){ .wr_id = i, .sg_list = &ss[i], .num_sge = 1,
						.opcode = OIBV_WR_SEND, .next = &swr[i + 1] };
	}
	ss[i] = (struct oibv_sge){ buf, 8, p->mr->lkey };
	swr[i] = (struct oibv_send_wr){
		.wr_id = i, .sg_list = &ss[i], .num_sge = 1, .opcode = OIBV_WR_RDMA_WRITE,
		.send_flags = OIBV_SEND_SIGNALED,
		.wr.rdma = { buf + HALF, p->mr->lkey },
	};
	return CHECK(!oibv_post_recv(p->b, rwr, &rbad)) &&
	       CHECK(!oibv_post_send(p->a, swr, &sbad));
}

/* Events on @fd naming @user_handle (B, destroyed): each is one the destroy should have dropped. */
static int race_ghosts(int fd, uint64_t user_handle)
{
	struct oib_uverbs_event ev[8];
	int n, i, ghosts = 0;

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	while ((n = read(fd, ev, sizeof(ev))) > 0)
		for (i = 0; i < n / (int)sizeof(ev[0]); i++)
			ghosts += ev[i].user_handle == user_handle;
	return ghosts;
}

/*
 * One round: 1 if B's event outlived its destroy, 0 if not, -1 on a setup error; *@window is
 * set if the getter had its file while the destroy still waited for the train.
 */
static int race_round(unsigned int *seed, bool *window)
{
	struct race r = { .async_fd = -1, .cpu = sched_getcpu() };
	struct oibv_wc wc;
	cpu_set_t all;
	pthread_t getter;
	struct pair p;
	uint64_t b_handle;
	int64_t end, destroyed_ns;
	int ghosts = -1;
	bool ok;

	r.spin = rand_r(seed) % 4;
	r.ctx = ctx_without_async(test_dev);
	if (!CHECK(r.ctx) || !CHECK(!sched_getaffinity(0, sizeof(all), &all)))
		return -1;
	pin(r.cpu);
	ok = pair_setup(&p, r.ctx, OIBV_QPT_RC, NULL, NULL) &&
	     CHECK(!pthread_create(&getter, NULL, race_getter, &r));
	if (!ok)
		goto out;
	b_handle = (uintptr_t)p.b;
	ok = race_post(&p);
	for (end = now_ms() + 10000; ok && oibv_poll_cq(p.cq_b, 1, &wc) == 0 && now_ms() < end;)
		;
	__atomic_store_n(&r.go, 1, __ATOMIC_RELEASE);
	ok = CHECK(!oibv_destroy_qp(p.b)) && ok;
	destroyed_ns = now_ns();
	p.b = NULL;
	pthread_join(getter, NULL);
	ok = CHECK(!r.async_err) && ok;
	*window = r.async_fd >= 0 && r.got_ns < destroyed_ns;
	if (ok)
		ghosts = race_ghosts(r.async_fd, b_handle) > 0;
	r.ctx->async_fd = r.async_fd;	/* closed with the context */
out:
	pair_teardown(&p);
	CHECK(!oibv_close_device(r.ctx));
	sched_setaffinity(0, sizeof(all), &all);
	return ghosts;
}

bool t_async_destroy_race(void)
{
	unsigned int seed = getenv("OIB_FUZZ_SEED") ? atoi(getenv("OIB_FUZZ_SEED")) : getpid();
	int rounds = getenv("OIB_RACE_ROUNDS") ? atoi(getenv("OIB_RACE_ROUNDS")) : 200;
	int i, ret, ghosts = 0, windows = 0;
	bool window, ok = true;

	diag("seed %u (OIB_FUZZ_SEED), %d rounds (OIB_RACE_ROUNDS)", seed, rounds);
	for (i = 0; i < rounds && ok; i++) {
		window = false;
		ret = race_round(&seed, &window);
		ok = CHECK(ret >= 0);
		ghosts += ret > 0;
		windows += window;
	}
	diag("%d rounds: the async file given while the destroy waited in %d", i, windows);
	diag("events of a destroyed QP read: %d", ghosts);
	return ok && CHECK(!ghosts) && CHECK(objects_back_to(base_objects));
}
