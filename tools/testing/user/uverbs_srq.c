// SPDX-License-Identifier: GPL-2.0-only
/* oib_uverbs_user's SRQ cases: receives from an SRQ, its limit event, its checks. */
#include <errno.h>
#include <string.h>
#include "ktap.h"
#include "uverbs_util.h"
#include "uverbs_rdma.h"

#define HALF (BUF_SIZE / 2)

/* @n receives of 1 KiB each into the pair's upper half, posted to its SRQ in one call. */
static bool srq_post(struct pair *p, int n)
{
	struct oibv_sge sge[8];
	struct oibv_recv_wr wr[8], *bad;
	uintptr_t up = (uintptr_t)p->buf + HALF;
	int i;

	for (i = 0; i < n; i++) {
		sge[i] = (struct oibv_sge){ up + i * 1024, 1024, p->mr->lkey };
		wr[i] = (struct oibv_recv_wr){
			.wr_id = 100 + i, .next = i + 1 < n ? &wr[i + 1] : NULL, .sg_list = &sge[i],
			.num_sge = 1,
		};
	}
	return CHECK(!oibv_post_srq_recv(p->srq, wr, &bad));
}

/* A sends @n messages of 64 bytes (from buf + 64 * i); B's completions come from the SRQ. */
static bool srq_sends(struct pair *p, int n)
{
	struct oibv_wc wc[8];
	int i;
	bool ok = true;

	for (i = 0; ok && i < n; i++) {
		struct oibv_sge s = { (uintptr_t)p->buf + 64 * i, 64, p->mr->lkey };
		struct oibv_send_wr wr = {
			.wr_id = i, .sg_list = &s, .num_sge = 1, .opcode = OIBV_WR_SEND,
			.send_flags = OIBV_SEND_SIGNALED,
		}, *bad;

		ok = CHECK(!oibv_post_send(p->a, &wr, &bad));
	}
	ok = ok && poll_n(p->cq_a, n, wc) && poll_n(p->cq_b, n, wc);
	for (i = 0; ok && i < n; i++)
		ok = CHECK(wc[i].status == OIBV_WC_SUCCESS) &&
		     CHECK(wc[i].qp_num == p->b->qp_num) && CHECK(wc[i].opcode == OIBV_WC_RECV) &&
		     CHECK(wc[i].byte_len == 64);
	return ok;
}

bool t_srq_recv(void)
{
	struct oibv_srq_attr sa;
	struct oibv_recv_wr rwr = { .wr_id = 1 }, *rbad;
	struct pair p;
	int i;
	bool ok;

	if (!pair_setup_srq(&p, ctx_for_tests(), OIBV_QPT_RC)) {
		pair_teardown(&p);
		return false;
	}
	for (i = 0; i < 8; i++)
		memset(p.buf + 64 * i, 'a' + i, 64);
	ok = CHECK(!oibv_query_srq(p.srq, &sa)) && CHECK(sa.max_wr >= 64) &&
	     CHECK(sa.max_sge >= 2) && CHECK(sa.srq_limit == 0) && srq_post(&p, 8) &&
	     srq_sends(&p, 8);
	for (i = 0; ok && i < 8; i++)
		ok = CHECK(p.buf[HALF + i * 1024] == 'a' + i);
	/* B's own receive queue is the SRQ: posting to the QP is refused; the SRQ is in use */
	ok = ok && CHECK(oibv_post_recv(p.b, &rwr, &rbad)) &&
	     CHECK_ERR(oibv_destroy_srq(p.srq), EBUSY);
	pair_teardown(&p);
	return ok;
}

/* The limit: armed at 3 with 4 posted, the second receive consumed fires it once. */
bool t_srq_limit_event(void)
{
	struct oibv_context *ctx = ctx_for_tests();
	struct oibv_srq_attr sa = { .srq_limit = 3 };
	struct oibv_async_event ev;
	struct pair p;
	bool ok;

	if (!pair_setup_srq(&p, ctx, OIBV_QPT_RC)) {
		pair_teardown(&p);
		return false;
	}
	ok = srq_post(&p, 4) && CHECK(!oibv_modify_srq(p.srq, &sa, OIBV_SRQ_LIMIT)) &&
	     srq_sends(&p, 1) && CHECK(!readable(ctx->async_fd, 0)) && srq_sends(&p, 1) &&
	     CHECK(readable(ctx->async_fd, 10000)) && CHECK(!oibv_get_async_event(ctx, &ev)) &&
	     CHECK(ev.event_type == OIBV_EVENT_SRQ_LIMIT_REACHED) && CHECK(ev.element.srq == p.srq);
	if (ok)
		oibv_ack_async_event(&ev);
	/* disarmed now: no second event */
	ok = ok && CHECK(!oibv_query_srq(p.srq, &sa)) && CHECK(sa.srq_limit == 0) &&
	     srq_sends(&p, 1) && CHECK(!readable(ctx->async_fd, 0));
	pair_teardown(&p);
	return ok;
}

bool t_srq_checks(void)
{
	struct oibv_context *ctx = ctx_for_tests();
	struct oibv_pd *pd = oibv_alloc_pd(ctx);
	struct oibv_srq_init_attr big = { .attr = { .max_wr = 8, .max_sge = 17 } };
	struct oibv_srq_init_attr zero = { .attr = { .max_wr = 0, .max_sge = 1 } };
	struct oibv_srq_init_attr limit = { .attr = { .max_wr = 8, .max_sge = 1, .srq_limit = 9 } };
	struct oibv_srq_init_attr ok_attr = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct oib_uverbs_modify_srq q = { 0 };
	struct oibv_srq_attr sa = { 0 };
	struct oibv_srq *srq, stale;
	bool ok = CHECK(pd);

	ok = ok && CHECK(!oibv_create_srq(pd, &big)) && CHECK(errno == EINVAL) &&
	     CHECK(!oibv_create_srq(pd, &zero)) && CHECK(errno == EINVAL) &&
	     CHECK(!oibv_create_srq(pd, &limit)) && CHECK(errno == EINVAL);
	srq = ok ? oibv_create_srq(pd, &ok_attr) : NULL;
	ok = ok && CHECK(srq) && CHECK_ERR(oibv_dealloc_pd(pd), EBUSY) &&
	     CHECK_ERR(oibv_modify_srq(srq, &sa, 0), EINVAL) &&
	     CHECK_ERR(oibv_modify_srq(srq, &sa, 1 << 2), EINVAL);
	if (srq) {
		q.handle = srq->handle;
		q.attr.max_sge = 1;	/* QUERY_SRQ: answers only */
		ok = ok &&
		     CHECK(raw_cmd(ctx->cmd_fd, OIB_UVERBS_QUERY_SRQ, &q, sizeof(q)) == EINVAL);
		stale = *srq;
		ok = CHECK(!oibv_destroy_srq(srq)) && ok &&
		     CHECK_ERR(oibv_query_srq(&stale, &sa), EINVAL);
	}
	return CHECK(pd && !oibv_dealloc_pd(pd)) && ok;
}
