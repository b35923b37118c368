// SPDX-License-Identifier: GPL-2.0-only
/* oib_uverbs_xrc's helpers: the initiator side, a receiver's SRQ, what debugfs and sysfs say. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "ktap.h"
#include "uverbs_util.h"
#include "uverbs_xrc.h"

#define NRECV 32

bool ini_make(struct xrc_ini *s, struct oibv_context *ctx)
{
	struct oibv_qp_init_attr ia = {
		.qp_type = OIBV_QPT_XRC, .sq_sig_all = 1,
		.cap = { .max_send_wr = 16, .max_send_sge = 1 },
	};

	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	s->buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	s->pd = s->buf != MAP_FAILED ? oibv_alloc_pd(ctx) : NULL;
	s->cq = s->pd ? oibv_create_cq(ctx, 32, NULL, NULL, 0) : NULL;
	s->mr = s->cq ? oibv_reg_mr(s->pd, s->buf, BUF_SIZE, OIBV_ACCESS_LOCAL_WRITE) : NULL;
	ia.send_cq = s->cq;
	s->qp = s->mr ? oibv_create_qp(s->pd, &ia) : NULL;
	return CHECK(s->qp);
}

void ini_free(struct xrc_ini *s)
{
	if (s->qp)
		CHECK(!oibv_destroy_qp(s->qp));
	if (s->mr)
		CHECK(!oibv_dereg_mr(s->mr));
	if (s->cq)
		CHECK(!oibv_destroy_cq(s->cq));
	if (s->pd)
		CHECK(!oibv_dealloc_pd(s->pd));
	if (s->buf && s->buf != MAP_FAILED)
		munmap(s->buf, BUF_SIZE);
	memset(s, 0, sizeof(*s));
}

bool ini_connect(struct xrc_ini *s, uint32_t rcv_qpn)
{
	struct oibv_qp_attr a = { .qp_state = OIBV_QPS_INIT, .port_num = 1 };

	if (!CHECK(!oibv_modify_qp(s->qp, &a, OIBV_QP_STATE | OIBV_QP_PKEY_INDEX | OIBV_QP_PORT |
				   OIBV_QP_ACCESS_FLAGS)))
		return false;
	a = (struct oibv_qp_attr){
		.qp_state = OIBV_QPS_RTR, .path_mtu = OIBV_MTU_1024, .dest_qp_num = rcv_qpn,
		.ah_attr = { .is_global = 1, .port_num = 1,
			     .grh = { .dgid = rx_gid, .hop_limit = 64 } },
	};
	if (!CHECK(!oibv_modify_qp(s->qp, &a, OIBV_QP_STATE | OIBV_QP_AV | OIBV_QP_PATH_MTU |
				   OIBV_QP_DEST_QPN | OIBV_QP_RQ_PSN)))
		return false;
	/*
	 * 4.096 us * 2^16, about 270 ms (the debug kernel under TCG is slow): an unanswered
	 * request is retried twice, then RETRY_EXC_ERR, within a second or so
	 */
	a = (struct oibv_qp_attr){
		.qp_state = OIBV_QPS_RTS, .timeout = 16, .retry_cnt = 2, .rnr_retry = 7,
		.max_rd_atomic = 1,
	};
	return CHECK(!oibv_modify_qp(s->qp, &a, OIBV_QP_STATE | OIBV_QP_SQ_PSN |
				     OIBV_QP_TIMEOUT | OIBV_QP_RETRY_CNT | OIBV_QP_RNR_RETRY |
				     OIBV_QP_MAX_QP_RD_ATOMIC));
}

int ini_send(struct xrc_ini *s, uint32_t srq_num, uint32_t seq)
{
	struct oibv_sge sge = { (uintptr_t)s->buf, XRC_MSG, s->mr->lkey };
	struct oibv_send_wr wr = {
		.wr_id = seq, .sg_list = &sge, .num_sge = 1, .opcode = OIBV_WR_SEND,
		.send_flags = OIBV_SEND_SIGNALED, .xrc_remote_srq_num = srq_num,
	};
	struct oibv_send_wr *bad;
	struct oibv_wc wc;

	snprintf(s->buf, XRC_MSG, "srq %u seq %u", srq_num, seq);
	if (!CHECK(!oibv_post_send(s->qp, &wr, &bad)) || !poll_n(s->cq, 1, &wc))
		return -1;
	if (wc.status)
		diag("send %u to SRQ %u: status %d", seq, srq_num, wc.status);
	return wc.status;
}

void rcv_qp_attr(uint32_t ini_qpn, struct oibv_qp_attr *a)
{
	*a = (struct oibv_qp_attr){
		.port_num = 1, .path_mtu = OIBV_MTU_1024, .dest_qp_num = ini_qpn,
		.max_dest_rd_atomic = 1, .min_rnr_timer = 1,
		.ah_attr = { .is_global = 1, .port_num = 1,
			     .grh = { .dgid = tx_gid, .hop_limit = 64 } },
	};
}

int rcv_qp_make(struct oibv_xrcd *d, uint32_t ini_qpn, uint32_t *qpn)
{
	struct oibv_qp_attr a;

	rcv_qp_attr(ini_qpn, &a);
	return oibv_create_xrc_rcv_qp(d, &a, XRC_RCV_MASK, qpn);
}

static bool rcv_post(struct xrc_rcv *r, uint32_t slot)
{
	struct oibv_sge sge = { (uintptr_t)r->buf + slot * XRC_MSG, XRC_MSG, r->mr->lkey };
	struct oibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge, .num_sge = 1 };
	struct oibv_recv_wr *bad;

	return CHECK(!oibv_post_srq_recv(r->srq, &wr, &bad));
}

bool rcv_make_on(struct xrc_rcv *r, struct oibv_context *ctx, struct oibv_xrcd *xrcd)
{
	struct oibv_srq_init_attr sa = { .attr = { .max_wr = NRECV, .max_sge = 1 } };
	uint32_t i;

	r->ctx = ctx;
	r->xrcd = xrcd;
	r->buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	r->pd = r->buf != MAP_FAILED ? oibv_alloc_pd(ctx) : NULL;
	r->cq = r->pd ? oibv_create_cq(ctx, 2 * NRECV, NULL, NULL, 0) : NULL;
	r->mr = r->cq ? oibv_reg_mr(r->pd, r->buf, BUF_SIZE, OIBV_ACCESS_LOCAL_WRITE) : NULL;
	r->srq = r->mr ? oibv_create_srq_xrc(r->pd, xrcd, r->cq, &sa) : NULL;
	for (i = 0; r->srq && i < NRECV; i++)
		if (!rcv_post(r, i))
			return false;
	return CHECK(r->srq);
}

bool rcv_make(struct xrc_rcv *r, struct oibv_context *ctx, int fd, int oflags)
{
	struct oibv_xrcd *d = oibv_open_xrcd(ctx, fd, oflags);

	memset(r, 0, sizeof(*r));
	if (!d) {
		diag("open_xrcd(%d, %#x): %s", fd, oflags, strerror(errno));
		return false;
	}
	r->own_xrcd = true;
	return rcv_make_on(r, ctx, d);
}

int rcv_poll(struct xrc_rcv *r, int *good, int *bad)
{
	struct oibv_wc wc[8];
	char want[XRC_MSG];
	int n = oibv_poll_cq(r->cq, 8, wc), i;

	snprintf(want, sizeof(want), "srq %u ", r->srq->xrc_srq_num);
	for (i = 0; i < n; i++) {
		const char *msg = r->buf + wc[i].wr_id * XRC_MSG;

		if (wc[i].status || wc[i].opcode != OIBV_WC_RECV ||
		    strncmp(msg, want, strlen(want)))
			++*bad;
		else
			++*good;
		if (!wc[i].status && !rcv_post(r, wc[i].wr_id))
			return -1;
	}
	if (!n)
		usleep(200);	/* TCG: leave the CPU to the fabric */
	return n;
}

void rcv_free(struct xrc_rcv *r)
{
	if (r->srq)
		CHECK(!oibv_destroy_srq(r->srq));
	if (r->own_xrcd)
		CHECK(!oibv_close_xrcd(r->xrcd));
	if (r->mr)
		CHECK(!oibv_dereg_mr(r->mr));
	if (r->cq)
		CHECK(!oibv_destroy_cq(r->cq));
	if (r->pd)
		CHECK(!oibv_dealloc_pd(r->pd));
	if (r->buf && r->buf != MAP_FAILED)
		munmap(r->buf, BUF_SIZE);
	memset(r, 0, sizeof(*r));
}

int rcv_qp_listed(uint32_t qpn)
{
	char path[128];
	unsigned int n;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/oib/%s/xrc_rcv_qps", test_ibdev);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%u", &n) == 1)
		found |= !qpn || n == qpn;
	fclose(f);
	return found;
}

int xrcd_files(void)
{
	char path[128];
	int n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/oib_uverbs/%s/%s", test_dev->name, "xrcd_files");
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

bool xrc_state_is(int n, uint32_t qpn, bool listed)
{
	int64_t end = now_ms() + 10000;

	while ((xrcd_files() != n || rcv_qp_listed(qpn) != listed) && now_ms() < end)
		usleep(1000);
	if (xrcd_files() != n || rcv_qp_listed(qpn) != listed)
		diag("domain files %d (want %d), receive QP %u listed %d (want %d)", xrcd_files(),
		     n, qpn, rcv_qp_listed(qpn), listed);
	return xrcd_files() == n && rcv_qp_listed(qpn) == listed;
}

int domain_file(char *path, size_t len)
{
	static int seq;

	snprintf(path, len, "/tmp/oib_xrcd.%d.%d", (int)getpid(), seq++);
	return open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
}
