// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_uverbs_user's cases for RDMA WRITE and READ, atomics, MR access checks (which the peer's
 * responder or our own QP completes with an error for), and UD QPs with address handles.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ktap.h"
#include "uverbs_util.h"
#include "uverbs_rdma.h"

#define HALF (BUF_SIZE / 2)

/* A second MR over the pair's buffer's upper half (B's side), with @access. */
static struct oibv_mr *upper_mr(struct pair *p, int access)
{
	return oibv_reg_mr(p->pd, p->buf + HALF, HALF, access);
}

/* A posts @wr (signalled); its completion must have @status. */
static bool post_one(struct pair *p, struct oibv_send_wr *wr, enum oibv_wc_status status)
{
	struct oibv_send_wr *bad;
	struct oibv_wc wc;

	wr->send_flags |= OIBV_SEND_SIGNALED;
	if (!CHECK(!oibv_post_send(p->a, wr, &bad)) || !poll_n(p->cq_a, 1, &wc))
		return false;
	if (wc.status != status)
		diag("wr %llu: status %d, expected %d", (unsigned long long)wr->wr_id, wc.status,
		     status);
	return CHECK(wc.status == status) && CHECK(wc.wr_id == wr->wr_id);
}

static void fill(char *b, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (char)(seed + i * 7);
}

/*
 * Whether @n bytes at @a and @b are (or, within 5 s, become) equal.  A UC WRITE completes when its
 * last packet leaves, so its data may still be on its way when the completion is polled.
 */
static bool landed(const char *a, const char *b, size_t n)
{
	struct timespec ts = { 0, 1000000 };
	int i;

	for (i = 0; i < 5000 && memcmp(a, b, n); i++)
		nanosleep(&ts, NULL);
	return !memcmp(a, b, n);
}

/* WRITE A's first 5000 bytes into B's half, then WRITE_WITH_IMM, then (RC) READ them back. */
static bool rdma_case(enum oibv_qp_type type)
{
	struct pair p;
	struct oibv_mr *rmr;
	struct oibv_sge ls;
	struct oibv_send_wr wr = { .num_sge = 1, .sg_list = &ls };
	struct oibv_recv_wr rwr = { .wr_id = 9 }, *rbad;
	struct oibv_wc wc;
	bool ok;

	if (!pair_setup(&p, ctx_for_tests(), type, NULL, NULL))
		return false;
	rmr = upper_mr(&p, OIBV_ACCESS_LOCAL_WRITE | OIBV_ACCESS_REMOTE_WRITE |
		       OIBV_ACCESS_REMOTE_READ);
	if (!CHECK(rmr) || !CHECK(rmr->rkey))
		goto out;
	fill(p.buf, 5000, 3);
	memset(p.buf + HALF, 0, 5000);
	ls = (struct oibv_sge){ (uintptr_t)p.buf, 5000, p.mr->lkey };
	wr.opcode = OIBV_WR_RDMA_WRITE;
	wr.wr_id = 1;
	wr.wr.rdma.remote_addr = (uintptr_t)p.buf + HALF;
	wr.wr.rdma.rkey = rmr->rkey;
	ok = post_one(&p, &wr, OIBV_WC_SUCCESS) && CHECK(landed(p.buf, p.buf + HALF, 5000));
	/* WRITE_WITH_IMM consumes a receive of B's, which reports the immediate */
	wr.opcode = OIBV_WR_RDMA_WRITE_WITH_IMM;
	wr.wr_id = 2;
	wr.imm_data = 0x12345678;
	fill(p.buf, 100, 11);
	ok = ok && CHECK(!oibv_post_recv(p.b, &rwr, &rbad)) && post_one(&p, &wr, OIBV_WC_SUCCESS) &&
	     poll_n(p.cq_b, 1, &wc) && CHECK(wc.status == OIBV_WC_SUCCESS) &&
	     CHECK(wc.opcode == OIBV_WC_RECV_RDMA_WITH_IMM) && CHECK(wc.wr_id == 9) &&
	     CHECK((wc.wc_flags & OIBV_WC_WITH_IMM) && wc.imm_data == 0x12345678) &&
	     CHECK(!memcmp(p.buf, p.buf + HALF, 100));
	if (ok && type == OIBV_QPT_RC) {
		fill(p.buf + HALF, 3000, 5);
		wr = (struct oibv_send_wr){
			.wr_id = 3, .sg_list = &ls, .num_sge = 1, .opcode = OIBV_WR_RDMA_READ,
			.wr.rdma = { (uintptr_t)p.buf + HALF + 1000, rmr->rkey },
		};
		ls.length = 2000;
		ok = post_one(&p, &wr, OIBV_WC_SUCCESS) &&
		     CHECK(!memcmp(p.buf, p.buf + HALF + 1000, 2000));
	}
	CHECK(!oibv_dereg_mr(rmr));
	pair_teardown(&p);
	return ok;
out:
	pair_teardown(&p);
	return false;
}

bool t_rc_rdma(void)
{
	return rdma_case(OIBV_QPT_RC);
}

bool t_uc_rdma_write(void)
{
	return rdma_case(OIBV_QPT_UC);
}

bool t_rc_atomics(void)
{
	struct pair p;
	struct oibv_mr *rmr;
	uint64_t *target, *result;
	struct oibv_sge ls;
	struct oibv_send_wr wr = { .num_sge = 1, .sg_list = &ls };
	bool ok;

	if (!pair_setup(&p, ctx_for_tests(), OIBV_QPT_RC, NULL, NULL))
		return false;
	rmr = upper_mr(&p, OIBV_ACCESS_LOCAL_WRITE | OIBV_ACCESS_REMOTE_ATOMIC);
	target = (uint64_t *)(p.buf + HALF + 64);
	result = (uint64_t *)p.buf;
	*target = 1000;
	ls = (struct oibv_sge){ (uintptr_t)result, 8, p.mr->lkey };
	wr.opcode = OIBV_WR_ATOMIC_FETCH_AND_ADD;
	wr.wr_id = 1;
	wr.wr.atomic.remote_addr = (uintptr_t)target;
	wr.wr.atomic.compare_add = 23;
	wr.wr.atomic.rkey = rmr ? rmr->rkey : 0;
	ok = CHECK(rmr) && post_one(&p, &wr, OIBV_WC_SUCCESS) && CHECK(*result == 1000) &&
	     CHECK(*target == 1023);
	/* compare and swap: a mismatch leaves the word, a match swaps it */
	wr.opcode = OIBV_WR_ATOMIC_CMP_AND_SWP;
	wr.wr_id = 2;
	wr.wr.atomic.compare_add = 5;
	wr.wr.atomic.swap = 77;
	ok = ok && post_one(&p, &wr, OIBV_WC_SUCCESS) && CHECK(*result == 1023) &&
	     CHECK(*target == 1023);
	wr.wr_id = 3;
	wr.wr.atomic.compare_add = 1023;
	ok = ok && post_one(&p, &wr, OIBV_WC_SUCCESS) && CHECK(*result == 1023) &&
	     CHECK(*target == 77);
	/* misaligned: refused at posting */
	wr.wr.atomic.remote_addr += 4;
	ok = ok && CHECK_ERR(oibv_post_send(p.a, &wr, &(struct oibv_send_wr *){ NULL }), EINVAL);
	if (rmr)
		CHECK(!oibv_dereg_mr(rmr));
	pair_teardown(&p);
	return ok;
}

/* The responder's side of a refused remote access: B's QP_ACCESS_ERR on the async event file. */
static bool access_event(struct pair *p)
{
	struct oibv_async_event ev;

	if (!CHECK(readable(p->ctx->async_fd, 10000)) ||
	    !CHECK(!oibv_get_async_event(p->ctx, &ev)))
		return false;
	oibv_ack_async_event(&ev);
	return CHECK(ev.event_type == OIBV_EVENT_QP_ACCESS_ERR) && CHECK(ev.element.qp == p->b);
}

/*
 * One request of A's that must fail with @status (the QP then goes to error); a remote access
 * error also raises the responder's event.
 */
static bool denied(int rmr_access, int lmr_access, enum oibv_wr_opcode op,
		   enum oibv_wc_status status)
{
	struct pair p;
	struct oibv_mr *rmr, *lmr;
	struct oibv_sge ls;
	struct oibv_send_wr wr = { .wr_id = 1, .num_sge = 1, .sg_list = &ls, .opcode = op };
	bool ok;

	if (!pair_setup(&p, ctx_for_tests(), OIBV_QPT_RC, NULL, NULL))
		return false;
	rmr = upper_mr(&p, rmr_access);
	lmr = oibv_reg_mr(p.pd, p.buf, 4096, lmr_access);
	ok = CHECK(rmr && lmr);
	if (ok) {
		memset(p.buf + HALF, 0x11, 64);
		ls = (struct oibv_sge){ (uintptr_t)p.buf, 64, lmr->lkey };
		wr.wr.rdma.remote_addr = (uintptr_t)p.buf + HALF;
		wr.wr.rdma.rkey = rmr->rkey ? rmr->rkey : rmr->lkey;
		ok = post_one(&p, &wr, status) && CHECK(p.buf[HALF] == 0x11);
		if (ok && status == OIBV_WC_REM_ACCESS_ERR)
			ok = access_event(&p);
	}
	if (rmr)
		CHECK(!oibv_dereg_mr(rmr));
	if (lmr)
		CHECK(!oibv_dereg_mr(lmr));
	pair_teardown(&p);
	return ok;
}

bool t_mr_permissions(void)
{
	struct pair p;
	struct oibv_mr *mr;
	bool ok;

	if (!pair_setup(&p, ctx_for_tests(), OIBV_QPT_RC, NULL, NULL))
		return false;
	/* remote write or atomics without local write; unknown bits */
	ok = CHECK(!upper_mr(&p, OIBV_ACCESS_REMOTE_WRITE)) && CHECK(errno == EINVAL) &&
	     CHECK(!upper_mr(&p, OIBV_ACCESS_REMOTE_ATOMIC)) && CHECK(errno == EINVAL) &&
	     CHECK(!upper_mr(&p, 1 << 4)) && CHECK(errno == EINVAL);
	mr = upper_mr(&p, OIBV_ACCESS_REMOTE_READ);
	ok = ok && CHECK(mr) && CHECK(mr->rkey) && CHECK(!oibv_dereg_mr(mr));
	pair_teardown(&p);
	diag("write to a read-only MR, write to a local-only key, read from a write-only MR");
	ok = ok && denied(OIBV_ACCESS_REMOTE_READ, OIBV_ACCESS_LOCAL_WRITE, OIBV_WR_RDMA_WRITE,
			  OIBV_WC_REM_ACCESS_ERR) &&
	     denied(OIBV_ACCESS_LOCAL_WRITE, OIBV_ACCESS_LOCAL_WRITE, OIBV_WR_RDMA_WRITE,
		    OIBV_WC_REM_ACCESS_ERR) &&
	     denied(OIBV_ACCESS_LOCAL_WRITE | OIBV_ACCESS_REMOTE_WRITE, OIBV_ACCESS_LOCAL_WRITE,
		    OIBV_WR_RDMA_READ, OIBV_WC_REM_ACCESS_ERR);
	diag("a READ into memory we may not write");
	return ok && denied(OIBV_ACCESS_REMOTE_READ, 0, OIBV_WR_RDMA_READ, OIBV_WC_LOC_PROT_ERR);
}

/* Two UD QPs of one PD, in RTS with Q_Key @qkey, and an AH to our own GID. */
struct ud_pair {
	struct pair p;
	struct oibv_ah *ah;
};

static bool ud_ready(struct oibv_qp *qp, uint32_t qkey)
{
	struct oibv_qp_attr a = { .qp_state = OIBV_QPS_INIT, .port_num = 1, .qkey = qkey };

	if (!CHECK(!oibv_modify_qp(qp, &a, OIBV_QP_STATE | OIBV_QP_PKEY_INDEX | OIBV_QP_PORT |
				   OIBV_QP_QKEY)))
		return false;
	a.qp_state = OIBV_QPS_RTR;
	if (!CHECK(!oibv_modify_qp(qp, &a, OIBV_QP_STATE)))
		return false;
	a.qp_state = OIBV_QPS_RTS;
	return CHECK(!oibv_modify_qp(qp, &a, OIBV_QP_STATE | OIBV_QP_SQ_PSN));
}

static bool ud_setup(struct ud_pair *u)
{
	struct oibv_ah_attr aa = { .is_global = 1, .port_num = 1, .grh = { .hop_limit = 64 } };

	u->ah = NULL;
	if (!pair_setup_qps(&u->p, ctx_for_tests(), OIBV_QPT_UD) || !ud_ready(u->p.a, 0x1234) ||
	    !ud_ready(u->p.b, 0x1234) || !CHECK(!oibv_query_gid(u->p.ctx, 1, 0, &aa.grh.dgid)))
		return false;
	u->ah = oibv_create_ah(u->p.pd, &aa);
	return CHECK(u->ah);
}

static void ud_teardown(struct ud_pair *u)
{
	if (u->ah)
		CHECK(!oibv_destroy_ah(u->ah));
	pair_teardown(&u->p);
}

/* A sends @len bytes to B's QPN with @qkey: 0 or the post's errno. */
static int ud_send(struct ud_pair *u, struct oibv_ah *ah, uint32_t len, uint32_t qkey)
{
	struct oibv_sge ss = { (uintptr_t)u->p.buf, len, u->p.mr->lkey };
	struct oibv_send_wr wr = {
		.wr_id = 5, .sg_list = &ss, .num_sge = 1, .opcode = OIBV_WR_SEND,
		.send_flags = OIBV_SEND_SIGNALED,
		.wr.ud = { .ah = ah, .remote_qpn = u->p.b->qp_num, .remote_qkey = qkey },
	};
	struct oibv_send_wr *bad;

	return oibv_post_send(u->p.a, &wr, &bad);
}

static bool ud_recv(struct ud_pair *u)
{
	struct oibv_sge rs = { (uintptr_t)u->p.buf + HALF, HALF, u->p.mr->lkey };
	struct oibv_recv_wr rwr = { .wr_id = 6, .sg_list = &rs, .num_sge = 1 }, *bad;

	return CHECK(!oibv_post_recv(u->p.b, &rwr, &bad));
}

bool t_ud_send_recv(void)
{
	struct oibv_wc wc[2];
	struct ud_pair u;
	bool ok;

	if (!ud_setup(&u)) {
		ud_teardown(&u);
		return false;
	}
	fill(u.p.buf, 512, 9);
	/* a datagram lands after the 40-byte GRH */
	ok = ud_recv(&u) && CHECK(!ud_send(&u, u.ah, 512, 0x1234)) && poll_n(u.p.cq_a, 1, wc) &&
	     CHECK(wc[0].status == OIBV_WC_SUCCESS) && poll_n(u.p.cq_b, 1, wc + 1) &&
	     CHECK(wc[1].status == OIBV_WC_SUCCESS) && CHECK(wc[1].byte_len == 512 + 40) &&
	     CHECK(wc[1].src_qp == u.p.a->qp_num) && CHECK(wc[1].wc_flags & OIBV_WC_GRH) &&
	     CHECK(!memcmp(u.p.buf, u.p.buf + HALF + 40, 512));
	/* a wrong Q_Key is dropped by the receiver: the next datagram takes the receive */
	ok = ok && ud_recv(&u) && CHECK(!ud_send(&u, u.ah, 64, 0x4321)) &&
	     CHECK(!ud_send(&u, u.ah, 128, 0x1234)) && poll_n(u.p.cq_a, 2, wc) &&
	     CHECK(wc[0].status == OIBV_WC_SUCCESS && wc[1].status == OIBV_WC_SUCCESS) &&
	     poll_n(u.p.cq_b, 1, wc) && CHECK(wc[0].byte_len == 128 + 40);
	/* the AH destroyed right after posting: the send still goes out (the AH is retired) */
	ok = ok && ud_recv(&u) && CHECK(!ud_send(&u, u.ah, 100, 0x1234)) &&
	     CHECK(!oibv_destroy_ah(u.ah)) && poll_n(u.p.cq_a, 1, wc) &&
	     CHECK(wc[0].status == OIBV_WC_SUCCESS) && poll_n(u.p.cq_b, 1, wc + 1) &&
	     CHECK(wc[1].byte_len == 100 + 40);
	u.ah = NULL;
	ud_teardown(&u);
	return ok;
}

bool t_ud_checks(void)
{
	struct oibv_ah_attr bad_port = { .is_global = 1, .port_num = 2 };
	struct oibv_ah_attr no_grh = { .port_num = 1 };
	struct oibv_ah_attr other = { .is_global = 1, .port_num = 1, .grh.dgid.raw = { 0xfe } };
	struct oibv_ah stale, foreign = { 0 };
	struct oibv_pd *pd2;
	struct oibv_ah *ah2;
	struct ud_pair u;
	bool ok;

	if (!ud_setup(&u)) {
		ud_teardown(&u);
		return false;
	}
	pd2 = oibv_alloc_pd(u.p.ctx);
	ah2 = pd2 ? oibv_create_ah(pd2, &other) : NULL;
	stale = *u.ah;
	stale.handle += 1000;
	ok = CHECK(pd2 && ah2) && CHECK(!oibv_create_ah(u.p.pd, &bad_port)) &&
	     CHECK(errno == EINVAL) && CHECK(!oibv_create_ah(u.p.pd, &no_grh)) &&
	     CHECK(errno == EINVAL) &&
	     CHECK(ud_send(&u, NULL, 8, 0x1234) == EINVAL) &&
	     CHECK(ud_send(&u, &stale, 8, 0x1234) == EINVAL) &&
	     CHECK(ud_send(&u, &foreign, 8, 0x1234) == EINVAL) &&
	     /* another PD's AH: the provider refuses it */
	     CHECK(ud_send(&u, ah2, 8, 0x1234) == EINVAL) &&
	     CHECK_ERR(oibv_dealloc_pd(pd2), EBUSY);
	if (ah2)
		CHECK(!oibv_destroy_ah(ah2));
	if (pd2)
		CHECK(!oibv_dealloc_pd(pd2));
	ud_teardown(&u);
	return ok;
}

/* Root may ask for QP1: oib_mad has it, so the core refuses it as taken; port 0 is no port. */
bool t_qp1_root(void)
{
	struct oibv_context *c = ctx_for_tests();
	struct oibv_pd *pd = oibv_alloc_pd(c);
	struct oibv_cq *cq = oibv_create_cq(c, 4, NULL, NULL, 0);
	struct oibv_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .qp_type = OIBV_QPT_GSI, .port_num = 1,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	bool ok = CHECK(pd && cq);

	ok = ok && CHECK(!oibv_create_qp(pd, &ia)) && CHECK(errno == EBUSY);
	ia.port_num = 0;
	ok = ok && CHECK(!oibv_create_qp(pd, &ia)) && CHECK(errno == EINVAL);
	ia.qp_type = 7;
	ok = ok && CHECK(!oibv_create_qp(pd, &ia)) && CHECK(errno == EOPNOTSUPP);
	if (cq)
		CHECK(!oibv_destroy_cq(cq));
	if (pd)
		CHECK(!oibv_dealloc_pd(pd));
	return ok;
}
