// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * oibv_channel_demo: one epoll loop serving 64 CQs on 2 completion channels over the device's
 * completion vectors, as the completion-channel design thread describes them.  32 pairs of
 * connected RC QPs, each QP with a CQ of its own; CQ i uses channel i % 2 and vector
 * i % num_comp_vectors.  Each round arms every CQ, sends once on every pair (one completion on
 * each of the 64 CQs) and collects the 64 events through epoll; at the end it prints how many
 * events each channel and each vector's CPU delivered.
 *
 *   oibv_channel_demo [-d DEVICE] [-r ROUNDS]
 */
#include <getopt.h>
#include <unistd.h>
#include <sys/epoll.h>
#include "example.h"

#define NCQ	64
#define NCH	2
#define MAXVEC	64

static struct oibv_context *ctx;
static struct oibv_pd *pd;
static struct oibv_mr *mr;
static char buf[4096];
static struct oibv_comp_channel *ch[NCH];
static struct oibv_cq *cq[NCQ];
static struct oibv_qp *qp[NCQ];

static void setup(void)
{
	union oibv_gid gid;
	int i;

	pd = oibv_alloc_pd(ctx);
	mr = pd ? oibv_reg_mr(pd, buf, sizeof(buf), OIBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!mr || oibv_query_gid(ctx, 1, 0, &gid))
		die("cannot make PD and MR: %s", strerror(errno));
	for (i = 0; i < NCH; i++) {
		ch[i] = oibv_create_comp_channel(ctx);
		if (!ch[i])
			die("cannot make a channel: %s", strerror(errno));
	}
	for (i = 0; i < NCQ; i++) {
		struct oibv_qp_init_attr ia = {
			.qp_type = OIBV_QPT_RC, .sq_sig_all = 1,
			.cap = { .max_send_wr = 2, .max_recv_wr = 2, .max_send_sge = 1,
				 .max_recv_sge = 1 },
		};

		cq[i] = oibv_create_cq(ctx, 4, (void *)(uintptr_t)i, ch[i % NCH],
				       i % ctx->num_comp_vectors);
		ia.send_cq = cq[i];
		ia.recv_cq = cq[i];
		qp[i] = cq[i] ? oibv_create_qp(pd, &ia) : NULL;
		if (!qp[i])
			die("cannot make CQ and QP %d: %s", i, strerror(errno));
	}
	for (i = 0; i < NCQ; i += 2) {
		connect_rc(qp[i], qp[i + 1]->qp_num, &gid);
		connect_rc(qp[i + 1], qp[i]->qp_num, &gid);
	}
}

static void teardown(void)
{
	int i;

	for (i = 0; i < NCQ; i++)
		if (oibv_destroy_qp(qp[i]) || oibv_destroy_cq(cq[i]))
			die("cannot destroy QP and CQ %d", i);
	for (i = 0; i < NCH; i++)
		if (oibv_destroy_comp_channel(ch[i]))
			die("cannot destroy a channel");
	if (oibv_dereg_mr(mr) || oibv_dealloc_pd(pd) || oibv_close_device(ctx))
		die("cannot close");
}

/* Arm all, send on every pair: QP 2k sends to 2k+1, which receives. */
static void fire(void)
{
	struct oibv_sge sge = { (uintptr_t)buf, 64, mr->lkey };
	struct oibv_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 }, *rbad;
	struct oibv_send_wr swr = {
		.sg_list = &sge, .num_sge = 1, .opcode = OIBV_WR_SEND,
		.send_flags = OIBV_SEND_SIGNALED,
	}, *sbad;
	int i;

	for (i = 0; i < NCQ; i++)
		if (oibv_req_notify_cq(cq[i], 0))
			die("cannot arm CQ %d", i);
	for (i = 0; i < NCQ; i += 2)
		if (oibv_post_recv(qp[i + 1], &rwr, &rbad) || oibv_post_send(qp[i], &swr, &sbad))
			die("cannot post on pair %d", i / 2);
}

int main(int argc, char **argv)
{
	int rounds = 10, opt, ep, r, i, n, got, per_ch[NCH] = { 0 }, per_cpu[MAXVEC] = { 0 };
	const char *name = NULL;
	struct epoll_event ev[16];
	struct oibv_wc wc;

	while ((opt = getopt(argc, argv, "d:r:")) != -1) {
		switch (opt) {
		case 'd':
			name = optarg;
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		default:
			die("usage: %s [-d DEVICE] [-r ROUNDS]", argv[0]);
		}
	}
	ctx = oibv_open_device(find_device(name));
	if (!ctx)
		die("cannot open the device: %s", strerror(errno));
	setup();
	ep = epoll_create1(EPOLL_CLOEXEC);
	for (i = 0; i < NCH; i++) {
		struct epoll_event e = { .events = EPOLLIN, .data.u32 = i };

		if (epoll_ctl(ep, EPOLL_CTL_ADD, ch[i]->fd, &e))
			die("epoll_ctl failed");
	}
	for (r = 0; r < rounds; r++) {
		fire();
		for (got = 0; got < NCQ;) {
			n = epoll_wait(ep, ev, 16, 10000);
			if (n <= 0)
				die("round %d: no event for 10 s (%d of %d)", r, got, NCQ);
			for (i = 0; i < n; i++) {
				struct oibv_cq *c;
				void *cctx;
				int cpu, k;

				if (oibv_get_cq_event_cpu(ch[ev[i].data.u32], &c, &cctx, &cpu))
					die("get_cq_event failed");
				oibv_ack_cq_events(c, 1);
				k = oibv_poll_cq(c, 1, &wc);
				if (k != 1 || wc.status != OIBV_WC_SUCCESS)
					die("round %d, CQ %d: %d completions, status %d", r,
					    (int)(uintptr_t)cctx, k, k == 1 ? (int)wc.status : -1);
				per_ch[ev[i].data.u32]++;
				if (cpu >= 0 && cpu < MAXVEC)
					per_cpu[cpu]++;
				got++;
			}
		}
	}
	close(ep);
	teardown();
	printf("%d rounds, %d events: channel 0 %d, channel 1 %d\n", rounds, rounds * NCQ,
	       per_ch[0], per_ch[1]);
	for (i = 0; i < MAXVEC; i++)
		if (per_cpu[i])
			printf("CPU %d: %d events\n", i, per_cpu[i]);
	return 0;
}
