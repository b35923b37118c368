// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_uverbs_user's cases between processes: a parent and a forked child, each with a context
 * of its own, exchange QP numbers over pipes, connect (RC, UC) or make an AH (UD) and play
 * ping-pong: the parent sends a numbered message, the child checks it and sends it back.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "ktap.h"
#include "uverbs_util.h"
#include "uverbs_rdma.h"

#define MSG 256
#define ROUNDS 100
#define NRECV 8
#define UD_QKEY 0x2222
#define GRH 40

/* One side: its own context and objects; buf's first half sends, its second receives. */
struct peer {
	struct oibv_context *ctx;
	struct oibv_pd *pd;
	struct oibv_cq *cq;
	struct oibv_mr *mr;
	struct oibv_qp *qp;
	struct oibv_ah *ah;	/* UD: to the peer's GID (ours: one device) */
	enum oibv_qp_type type;
	uint32_t remote_qpn;
	char *buf;
};

static bool peer_make(struct peer *s, enum oibv_qp_type type)
{
	struct oibv_qp_init_attr ia = {
		.qp_type = type,
		.cap = { .max_send_wr = 16, .max_recv_wr = NRECV, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	memset(s, 0, sizeof(*s));
	s->type = type;
	s->buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	s->ctx = s->buf != MAP_FAILED ? oibv_open_device(test_dev) : NULL;
	s->pd = s->ctx ? oibv_alloc_pd(s->ctx) : NULL;
	s->cq = s->pd ? oibv_create_cq(s->ctx, 64, NULL, NULL, 0) : NULL;
	s->mr = s->cq ? oibv_reg_mr(s->pd, s->buf, BUF_SIZE, OIBV_ACCESS_LOCAL_WRITE) : NULL;
	ia.send_cq = s->cq;
	ia.recv_cq = s->cq;
	s->qp = s->mr ? oibv_create_qp(s->pd, &ia) : NULL;
	return CHECK(s->qp);
}

/* Everything goes with the context (closing it is the teardown the tests rely on). */
static void peer_free(struct peer *s)
{
	if (s->ctx)
		oibv_close_device(s->ctx);
	if (s->buf && s->buf != MAP_FAILED)
		munmap(s->buf, BUF_SIZE);
}

static bool ud_up(struct peer *s, const union oibv_gid *gid)
{
	struct oibv_qp_attr a = { .qp_state = OIBV_QPS_INIT, .port_num = 1, .qkey = UD_QKEY };
	struct oibv_ah_attr aa = {
		.is_global = 1, .port_num = 1, .grh = { .dgid = *gid, .hop_limit = 64 },
	};

	if (!CHECK(!oibv_modify_qp(s->qp, &a, OIBV_QP_STATE | OIBV_QP_PKEY_INDEX |
				   OIBV_QP_PORT | OIBV_QP_QKEY)))
		return false;
	a.qp_state = OIBV_QPS_RTR;
	if (!CHECK(!oibv_modify_qp(s->qp, &a, OIBV_QP_STATE)))
		return false;
	a.qp_state = OIBV_QPS_RTS;
	if (!CHECK(!oibv_modify_qp(s->qp, &a, OIBV_QP_STATE | OIBV_QP_SQ_PSN)))
		return false;
	s->ah = oibv_create_ah(s->pd, &aa);
	return CHECK(s->ah);
}

static bool post_recv_slot(struct peer *s, int slot)
{
	struct oibv_sge sge = {
		(uintptr_t)s->buf + BUF_SIZE / 2 + slot * 1024, 1024, s->mr->lkey,
	};
	struct oibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge, .num_sge = 1 }, *bad;

	return CHECK(!oibv_post_recv(s->qp, &wr, &bad));
}

/* Exchange QP numbers over (@rfd, @wfd), bring the QP up, post receives, then meet the peer. */
static bool peer_up(struct peer *s, int rfd, int wfd)
{
	union oibv_gid gid;
	char ready = 'R';
	int i;

	if (!CHECK(write(wfd, &s->qp->qp_num, 4) == 4) ||
	    !CHECK(read(rfd, &s->remote_qpn, 4) == 4) ||
	    !CHECK(!oibv_query_gid(s->ctx, 1, 0, &gid)))
		return false;
	if (s->type == OIBV_QPT_UD ? !ud_up(s, &gid) : !qp_connect(s->qp, s->remote_qpn, &gid))
		return false;
	for (i = 0; i < NRECV; i++)
		if (!post_recv_slot(s, i))
			return false;
	return CHECK(write(wfd, &ready, 1) == 1) && CHECK(read(rfd, &ready, 1) == 1);
}

static bool send_msg(struct peer *s, const char *data)
{
	struct oibv_sge sge = { (uintptr_t)s->buf, MSG, s->mr->lkey };
	struct oibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = OIBV_WR_SEND,
		.send_flags = OIBV_SEND_SIGNALED,
		.wr.ud = { .ah = s->ah, .remote_qpn = s->remote_qpn, .remote_qkey = UD_QKEY },
	}, *bad;

	memcpy(s->buf, data, MSG);
	return CHECK(!oibv_post_send(s->qp, &wr, &bad));
}

/*
 * Poll until a message arrived (copied to @data, its receive reposted) or, with @data NULL,
 * until *@sends (our send completions so far) reaches @want.
 */
static bool wait_cq(struct peer *s, char *data, int *sends, int want)
{
	int64_t end = now_ms() + 10000;
	int off = s->type == OIBV_QPT_UD ? GRH : 0;
	struct oibv_wc wc;
	int n;

	while (now_ms() < end && (data || *sends < want)) {
		n = oibv_poll_cq(s->cq, 1, &wc);
		if (n < 0 || (n && !CHECK(wc.status == OIBV_WC_SUCCESS)))
			return false;
		if (!n) {
			usleep(100);
			continue;
		}
		if (wc.opcode == OIBV_WC_SEND) {
			(*sends)++;
			continue;
		}
		if (!CHECK(data) || !CHECK(wc.byte_len == MSG + off))
			return false;
		memcpy(data, s->buf + BUF_SIZE / 2 + wc.wr_id * 1024 + off, MSG);
		return post_recv_slot(s, wc.wr_id);
	}
	return CHECK(!data && *sends == want);
}

static void pattern(char *b, int round, bool back)
{
	int i;

	for (i = 0; i < MSG; i++)
		b[i] = (char)(round * 31 + i + (back ? 7 : 0));
}

/* The child: checks each message and answers it; exit status 0 if every one was right. */
static int echo_child(enum oibv_qp_type type, int rfd, int wfd)
{
	char msg[MSG], want[MSG];
	struct peer s;
	int i, sends = 0, ret = 0;

	if (!peer_make(&s, type) || !peer_up(&s, rfd, wfd))
		return 2;
	for (i = 0; i < ROUNDS && !ret; i++) {
		pattern(want, i, false);
		if (!wait_cq(&s, msg, &sends, 0) || memcmp(msg, want, MSG))
			ret = 3;
		pattern(want, i, true);
		if (!ret && !send_msg(&s, want))
			ret = 4;
	}
	if (!ret && !wait_cq(&s, NULL, &sends, ROUNDS))
		ret = 5;
	peer_free(&s);
	return ret;
}

static bool parent_rounds(struct peer *s)
{
	char msg[MSG], want[MSG];
	int i, sends = 0;

	for (i = 0; i < ROUNDS; i++) {
		pattern(want, i, false);
		if (!send_msg(s, want) || !wait_cq(s, msg, &sends, 0))
			return false;
		pattern(want, i, true);
		if (!CHECK(!memcmp(msg, want, MSG)))
			return false;
	}
	return wait_cq(s, NULL, &sends, ROUNDS);
}

static bool between_processes(enum oibv_qp_type type)
{
	int p2c[2], c2p[2], st = -1;
	int64_t t0 = now_ms();
	struct peer s = { 0 };
	pid_t pid;
	bool ok;

	if (!CHECK(!pipe(p2c)) || !CHECK(!pipe(c2p)))
		return false;
	pid = fork();
	if (pid == 0) {
		close(p2c[1]);
		close(c2p[0]);
		_exit(echo_child(type, p2c[0], c2p[1]));
	}
	close(p2c[0]);
	close(c2p[1]);
	ok = CHECK(pid > 0) && peer_make(&s, type) && peer_up(&s, c2p[0], p2c[1]) &&
	     parent_rounds(&s);
	if (ok)
		diag("%d round trips of %d bytes in %lld ms", ROUNDS, MSG,
		     (long long)(now_ms() - t0));
	peer_free(&s);
	close(p2c[1]);
	close(c2p[0]);
	if (pid > 0 && !ok)
		kill(pid, SIGKILL);
	if (pid <= 0 || !CHECK(waitpid(pid, &st, 0) == pid))
		return false;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		diag("child status %#x", st);
	return ok && CHECK(WIFEXITED(st) && !WEXITSTATUS(st));
}

bool t_rc_between_processes(void)
{
	return between_processes(OIBV_QPT_RC);
}

bool t_uc_between_processes(void)
{
	return between_processes(OIBV_QPT_UC);
}

bool t_ud_between_processes(void)
{
	return between_processes(OIBV_QPT_UD);
}
