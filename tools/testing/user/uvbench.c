// SPDX-License-Identifier: GPL-2.0-only
/*
 * uvbench: make bench's userspace verbs load on liboibv, the oib side of perftest's ib_send_lat
 * and ib_send_bw.  Two processes, this one (the client) and a child it forks (the server), each
 * with a context of its own (the server's on DEVICE2 if given), one CQ and one RC QP, exchange
 * QP numbers and GIDs over pipes and connect.  Both busy-poll their CQs, as perftest does.
 *   lat: ITERS ping-pongs of SIZE-byte SENDs (a round trip: the client's SEND received by the
 *        server, the server's SEND received by the client).
 *   bw:  the client streams ITERS SENDs of SIZE bytes, at most DEPTH unfinished, every SIGNAL-th
 *        signalled; the server keeps RX_DEPTH receives posted, posting again what completes.
 * Usage: uvbench lat|bw DEVICE[,DEVICE2] SIZE ITERS
 * Prints "ops=N bytes=N ns=N": round trips (lat) or messages (bw), their payload bytes one way,
 * the client's wall time from its first post to its last completion.
 */
#include <time.h>
#include <sys/wait.h>
#include "../../examples/example.h"

#define DEPTH		128	/* bw: sends unfinished at most (perftest's tx depth) */
#define SIGNAL		32	/* bw: one send in SIGNAL is signalled */
#define RX_DEPTH	512	/* receives posted (perftest's rx depth) */
#define BATCH		64	/* requests per post call and completions per poll call at most */

struct side {
	struct oibv_context *ctx;
	struct oibv_pd *pd;
	struct oibv_cq *cq;
	struct oibv_mr *mr;
	struct oibv_qp *qp;
	char *buf;
	size_t size;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void side_setup(struct side *s, struct oibv_device *dev, size_t size)
{
	struct oibv_qp_init_attr ia = {
		.qp_type = OIBV_QPT_RC,
		.cap = { .max_send_wr = DEPTH, .max_recv_wr = RX_DEPTH, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	s->size = size;
	s->buf = calloc(1, size);
	s->ctx = oibv_open_device(dev);
	if (!s->buf || !s->ctx)
		die("cannot open %s: %s", dev->dev_path, strerror(errno));
	s->pd = oibv_alloc_pd(s->ctx);
	s->cq = oibv_create_cq(s->ctx, DEPTH + RX_DEPTH, NULL, NULL, 0);
	s->mr = s->pd ? oibv_reg_mr(s->pd, s->buf, size, OIBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!s->pd || !s->cq || !s->mr)
		die("cannot make the verbs objects: %s", strerror(errno));
	ia.send_cq = s->cq;
	ia.recv_cq = s->cq;
	s->qp = oibv_create_qp(s->pd, &ia);
	if (!s->qp)
		die("cannot make the QP: %s", strerror(errno));
}

/* Post @n receives (at most BATCH) in one call, each of the whole buffer. */
static void post_recvs(struct side *s, int n)
{
	struct oibv_sge sge = { (uintptr_t)s->buf, s->size, s->mr->lkey };
	struct oibv_recv_wr wr[BATCH], *bad;
	int i;

	for (i = 0; i < n; i++)
		wr[i] = (struct oibv_recv_wr){ .wr_id = 0, .sg_list = &sge, .num_sge = 1,
					       .next = i + 1 < n ? &wr[i + 1] : NULL };
	if (n && oibv_post_recv(s->qp, wr, &bad))
		die("cannot post a receive");
}

/*
 * Post @n sends (at most BATCH) in one call, numbered on from @sent (wr_id: the number, from 1);
 * every SIGNAL-th is signalled, and the last of @iters, or all with @signal_all.
 */
static void post_sends(struct side *s, int n, uint64_t *sent, uint64_t iters, bool signal_all)
{
	struct oibv_sge sge = { (uintptr_t)s->buf, s->size, s->mr->lkey };
	struct oibv_send_wr wr[BATCH], *bad;
	int i;

	for (i = 0; i < n; i++) {
		++*sent;
		wr[i] = (struct oibv_send_wr){
			.wr_id = *sent, .sg_list = &sge, .num_sge = 1, .opcode = OIBV_WR_SEND,
			.next = i + 1 < n ? &wr[i + 1] : NULL,
		};
		if (signal_all || !(*sent % SIGNAL) || *sent == iters)
			wr[i].send_flags = OIBV_SEND_SIGNALED;
	}
	if (n && oibv_post_send(s->qp, wr, &bad))
		die("cannot post a send");
}

/*
 * Poll once: receives counted into @recvs; @done set to the number of the last send completed
 * (a send's completion means every send before it completed too).  Dies on an error completion.
 */
static void poll_once(struct side *s, uint64_t *recvs, uint64_t *done)
{
	struct oibv_wc wc[BATCH];
	int i, n = oibv_poll_cq(s->cq, BATCH, wc);

	if (n < 0)
		die("poll failed");
	for (i = 0; i < n; i++) {
		if (wc[i].status != OIBV_WC_SUCCESS)
			die("completion status %d", wc[i].status);
		if (wc[i].wr_id)
			*done = wc[i].wr_id;
		else
			++*recvs;
	}
}

/* @iters round trips; the client sends first.  Returns the wall time. */
static uint64_t run_lat(struct side *s, bool client, uint64_t iters)
{
	uint64_t recvs = 0, done = 0, sent = 0, t0 = now_ns();

	while (sent < iters) {
		if (client)
			post_sends(s, 1, &sent, iters, true);
		while (recvs < sent + !client)
			poll_once(s, &recvs, &done);
		post_recvs(s, 1);
		if (!client)
			post_sends(s, 1, &sent, iters, true);
		while (sent - done >= DEPTH)
			poll_once(s, &recvs, &done);
	}
	while (done < iters)
		poll_once(s, &recvs, &done);
	return now_ns() - t0;
}

/* The client streams @iters sends; the server posts again what completes.  The wall time. */
static uint64_t run_bw(struct side *s, bool client, uint64_t iters)
{
	uint64_t recvs = 0, done = 0, sent = 0, posted = RX_DEPTH, n, t0 = now_ns();

	while (client ? done < iters : recvs < iters) {
		poll_once(s, &recvs, &done);
		if (client) {
			n = DEPTH - (sent - done);
			n = n < iters - sent ? n : iters - sent;
			post_sends(s, n < BATCH ? n : BATCH, &sent, iters, false);
		} else if (posted < iters) {
			/* as many as completed since, up to what the stream still needs */
			n = recvs + RX_DEPTH - posted;
			n = n < iters - posted ? n : iters - posted;
			post_recvs(s, n < BATCH ? n : BATCH);
			posted += n < BATCH ? n : BATCH;
		}
	}
	return now_ns() - t0;
}

/* One side: connect to the peer over the pipes, run.  Returns the wall time. */
static uint64_t run_side(struct oibv_device *dev, int rfd, int wfd, bool client, bool lat,
			 size_t size, uint64_t iters)
{
	struct side s = { 0 };
	uint64_t ns;
	int i;

	side_setup(&s, dev, size);
	connect_over_pipes(s.qp, rfd, wfd);
	for (i = 0; i < RX_DEPTH; i += BATCH)
		post_recvs(&s, BATCH);
	/* both sides have their receives posted before the first message */
	sync_over_pipes(rfd, wfd);
	ns = lat ? run_lat(&s, client, iters) : run_bw(&s, client, iters);
	if (oibv_destroy_qp(s.qp) || oibv_dereg_mr(s.mr) || oibv_destroy_cq(s.cq) ||
	    oibv_dealloc_pd(s.pd) || oibv_close_device(s.ctx))
		die("teardown failed");
	free(s.buf);
	return ns;
}

int main(int argc, char **argv)
{
	char *names = argc == 5 ? strdup(argv[2]) : NULL, *second;
	struct oibv_device *dev, *dev2;
	int c2s[2], s2c[2], st;
	uint64_t iters, ns;
	bool lat;
	size_t size;
	pid_t pid;

	if (!names || (strcmp(argv[1], "lat") && strcmp(argv[1], "bw")))
		die("usage: uvbench lat|bw DEVICE[,DEVICE2] SIZE ITERS");
	lat = !strcmp(argv[1], "lat");
	size = strtoul(argv[3], NULL, 0);
	iters = strtoull(argv[4], NULL, 0);
	if (size < 1 || size > (1 << 20) || iters < SIGNAL || iters > (1ull << 40))
		die("uvbench: bad SIZE or ITERS");
	second = strchr(names, ',');
	if (second)
		*second++ = '\0';
	dev = find_device(names);
	dev2 = second ? find_device(second) : dev;
	if (pipe(c2s) || pipe(s2c))
		die("pipe failed");
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0) {
		run_side(dev2, c2s[0], s2c[1], false, lat, size, iters);
		return 0;
	}
	ns = run_side(dev, s2c[0], c2s[1], true, lat, size, iters);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		die("the server failed");
	printf("ops=%llu bytes=%llu ns=%llu\n", (unsigned long long)iters,
	       (unsigned long long)(iters * size), (unsigned long long)ns);
	return 0;
}
