// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * oibv_rc_pingpong: ibv_rc_pingpong on liboibv.  Two processes (this one and a child it forks),
 * each with its own context, PD, MR, completion channel, CQ and RC QP, exchange their QP numbers
 * and GIDs over a pair of pipes, then bounce a message back and forth, each side polling its CQ
 * (or, with -e, sleeping on its completion channel) between messages.
 *
 *   oibv_rc_pingpong [-d DEVICE] [-e] [-n ITERATIONS] [-s SIZE]
 */
#include <getopt.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "example.h"

struct side {
	struct oibv_context *ctx;
	struct oibv_pd *pd;
	struct oibv_comp_channel *ch;
	struct oibv_cq *cq;
	struct oibv_mr *mr;
	struct oibv_qp *qp;
	char *buf;
	size_t size;
	int got[3];		/* completions polled, by wr_id: 1 receive, 2 send */
	bool events;		/* sleep on the completion channel instead of polling */
};

static void side_setup(struct side *s, struct oibv_device *dev, size_t size)
{
	struct oibv_qp_init_attr ia = {
		.qp_type = OIBV_QPT_RC, .sq_sig_all = 1,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 },
	};

	memset(s, 0, sizeof(*s));
	s->size = size;
	s->buf = calloc(1, size);
	s->ctx = oibv_open_device(dev);
	if (!s->buf || !s->ctx)
		die("cannot open %s: %s", dev->dev_path, strerror(errno));
	s->pd = oibv_alloc_pd(s->ctx);
	s->ch = oibv_create_comp_channel(s->ctx);
	s->cq = s->ch ? oibv_create_cq(s->ctx, 16, s, s->ch, 0) : NULL;
	s->mr = s->pd ? oibv_reg_mr(s->pd, s->buf, size, OIBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!s->pd || !s->cq || !s->mr)
		die("cannot make the verbs objects: %s", strerror(errno));
	ia.send_cq = s->cq;
	ia.recv_cq = s->cq;
	s->qp = oibv_create_qp(s->pd, &ia);
	if (!s->qp)
		die("cannot make the QP: %s", strerror(errno));
}

static void side_teardown(struct side *s)
{
	if (oibv_destroy_qp(s->qp) || oibv_dereg_mr(s->mr) || oibv_destroy_cq(s->cq) ||
	    oibv_destroy_comp_channel(s->ch) || oibv_dealloc_pd(s->pd) || oibv_close_device(s->ctx))
		die("teardown failed");
	free(s->buf);
}

static void post_recv(struct side *s)
{
	struct oibv_sge sge = { (uintptr_t)s->buf, s->size, s->mr->lkey };
	struct oibv_recv_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 }, *bad;

	if (oibv_post_recv(s->qp, &wr, &bad))
		die("cannot post a receive");
}

static void post_send(struct side *s)
{
	struct oibv_sge sge = { (uintptr_t)s->buf, s->size, s->mr->lkey };
	struct oibv_send_wr wr = {
		.wr_id = 2, .sg_list = &sge, .num_sge = 1, .opcode = OIBV_WR_SEND,
		.send_flags = OIBV_SEND_SIGNALED,
	}, *bad;

	if (oibv_post_send(s->qp, &wr, &bad))
		die("cannot post a send");
}

static void poll_all(struct side *s)
{
	struct oibv_wc wc;
	int n;

	while ((n = oibv_poll_cq(s->cq, 1, &wc)) == 1) {
		if (wc.status != OIBV_WC_SUCCESS || wc.wr_id < 1 || wc.wr_id > 2)
			die("completion status %d, wr_id %llu", wc.status,
			    (unsigned long long)wc.wr_id);
		s->got[wc.wr_id]++;
	}
	if (n < 0)
		die("poll failed");
}

/* Poll, or sleep on the channel, until @n completions with @wr_id came in all. */
static void wait_for(struct side *s, int wr_id, int n)
{
	struct oibv_cq *cq;
	void *ctx;

	for (;;) {
		poll_all(s);
		if (s->got[wr_id] >= n)
			return;
		if (!s->events)
			continue;
		if (oibv_req_notify_cq(s->cq, 0))
			die("arm failed");
		/* a completion may have come before the arming: look once more before sleeping */
		poll_all(s);
		if (s->got[wr_id] >= n)
			return;
		if (oibv_get_cq_event(s->ch, &cq, &ctx))
			die("get_cq_event failed");
		oibv_ack_cq_events(cq, 1);
	}
}

/* One side: connect to the peer over the pipes, then @iters round trips. */
static double run_side(struct oibv_device *dev, int rfd, int wfd, bool client, int iters,
		       size_t size, bool events)
{
	struct timespec t0, t1;
	uint32_t rqpn;
	struct side s;
	int i;

	side_setup(&s, dev, size);
	s.events = events;
	rqpn = connect_over_pipes(s.qp, rfd, wfd);
	printf("%s: local QPN %#08x, remote QPN %#08x\n", client ? "client" : "server",
	       s.qp->qp_num, rqpn);
	post_recv(&s);
	/* both sides are ready to receive before the first message */
	sync_over_pipes(rfd, wfd);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 1; i <= iters; i++) {
		if (client) {
			post_send(&s);
			wait_for(&s, 1, i);
			post_recv(&s);
		} else {
			wait_for(&s, 1, i);
			post_recv(&s);
			post_send(&s);
		}
		wait_for(&s, 2, i);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	side_teardown(&s);
	return ((t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3) / iters;
}

int main(int argc, char **argv)
{
	const char *name = NULL;
	int iters = 1000, c2s[2], s2c[2], st, opt;
	size_t size = 4096;
	struct oibv_device *dev;
	pid_t pid;
	bool events = false;
	double us;

	while ((opt = getopt(argc, argv, "d:en:s:")) != -1) {
		switch (opt) {
		case 'd':
			name = optarg;
			break;
		case 'e':
			events = true;
			break;
		case 'n':
			iters = atoi(optarg);
			break;
		case 's':
			size = strtoul(optarg, NULL, 0);
			break;
		default:
			die("usage: %s [-d DEVICE] [-e] [-n ITERATIONS] [-s SIZE]", argv[0]);
		}
	}
	if (iters < 1 || size < 1 || size > (1 << 20))
		die("bad iterations or size");
	dev = find_device(name);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pipe(c2s) || pipe(s2c))
		die("pipe failed");
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (pid == 0) {
		us = run_side(dev, s2c[0], c2s[1], true, iters, size, events);
		printf("client: %d round trips of %zu bytes, %.2f us each\n", iters, size, us);
		return 0;
	}
	run_side(dev, c2s[0], s2c[1], false, iters, size, events);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		die("the client failed");
	printf("server: done\n");
	return 0;
}
