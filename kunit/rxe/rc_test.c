// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RC and UC transports between two oib_rxe devices over a private fabric: every operation with
 * its data checked (zero-length, one packet, many MTUs, scatter/gather lists, PSNs wrapping), the
 * completions and statuses the IBTA gives, loss/duplication/reordering with exactly-once in-order
 * delivery, retry and RNR exhaustion, late receives, COMM_EST, sends posted in RTR, seeded fuzzes
 * of frames and of trains into the ports, an MR deregistered in the middle of a message, and
 * device removal with traffic in flight.
 */
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/sizes.h>
#include <linux/skbuff.h>
#include <linux/vmalloc.h>
#include <oib/provider.h>
#include "oib_toolkit.h"
#include <oib/kunit/rxe.h>
#include "mem_oracle.h"

#define RC_FABRIC	"oib_rc_test"
#define RC_BUF		(512 * 1024)
#define RC_WR		256
#define RC_ACCESS	(OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE | \
			 OIB_ACCESS_REMOTE_READ | OIB_ACCESS_REMOTE_ATOMIC)

/*
 * The connection's knobs; zero fields take the defaults in rc_pair_of().  The timeout is generous:
 * a TCG guest sharing its host can take tens of milliseconds for a round trip.
 */
struct rc_cfg {
	enum oib_qp_type type;
	enum oib_mtu mtu;
	u32 psn;		/* both directions start here */
	u8 timeout, retry_cnt, rnr_retry, min_rnr_timer;
	bool no_rnr_retry;	/* rnr_retry 0 */
	bool ipv4;		/* address the ends by IPv4 GIDs added for the test */
	bool srq;		/* b receives from an SRQ */
	u8 max_rd_atomic;
};

struct rc_end {
	struct oib_device *dev;
	struct oib_pd *pd;
	struct oib_cq *scq, *rcq;
	struct oib_qp *qp;
	struct oib_srq *srq;
	struct oib_mr *mr;
	atomic_t comps;		/* calls of rcq's completion handler */
	union oib_gid gid;	/* the one the peer sends to */
	u8 sgid_index;		/* of gid */
	u8 *buf;		/* RC_BUF bytes, registered as mr */
	atomic_t events[OIB_EVENT_GID_CHANGE + 1];
};

struct rc_pair {
	struct rc_end a, b;
	struct orxe_fabric *f;
	struct rc_cfg cfg;
};

static void rc_event(struct oib_event *ev, void *ctx)
{
	struct rc_end *e = ctx;

	if (ev->event <= OIB_EVENT_GID_CHANGE)
		atomic_inc(&e->events[ev->event]);
}

static void rc_comp(struct oib_cq *cq, void *ctx)
{
	struct rc_end *e = ctx;

	atomic_inc(&e->comps);
}

/*
 * One end on the test fabric.  Its objects are destroyed at test end if @managed, else by whoever
 * removes the device (rc_client_remove(), as a ULP would).
 */
static void rc_end_init(struct kunit *test, struct rc_end *e, enum oib_qp_type type, bool managed,
			bool srq)
{
	struct oib_srq_init_attr sa = { .event_handler = rc_event, .srq_context = e,
					.attr = { .max_wr = RC_WR, .max_sge = 4 } };
	struct oib_qp_init_attr ia = {
		.event_handler = rc_event, .qp_context = e, .qp_type = type,
		.sq_sig_type = OIB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = RC_WR, .max_recv_wr = RC_WR, .max_send_sge = 4,
			 .max_recv_sge = 4, .max_inline_data = 64 },
	};

	e->dev = oib_test_rxe_on(test, RC_FABRIC, 1);
	e->pd = oib_test_pd(test, e->dev);
	e->scq = oib_test_cq(test, e->dev, 2 * RC_WR);
	e->rcq = oib_test_cq_handlers(test, e->dev, 2 * RC_WR, rc_comp, NULL, e);
	if (srq) {
		e->srq = oib_test_srq(test, e->pd, &sa);
		ia.srq = e->srq;
		ia.cap.max_recv_wr = 0;
		ia.cap.max_recv_sge = 0;
	}
	ia.send_cq = e->scq;
	ia.recv_cq = e->rcq;
	e->qp = oib_test_qp_attr(test, e->pd, &ia);
	KUNIT_ASSERT_EQ(test, 0, oib_query_gid(e->dev, 1, 0, &e->gid, NULL));
	e->buf = oib_test_vzalloc(test, RC_BUF);
	e->mr = oib_test_kernel_mr(test, e->pd, e->buf, RC_BUF, RC_ACCESS);
	if (!managed) {
		oib_test_disown(test, e->mr);
		oib_test_disown(test, e->qp);
		oib_test_disown(test, e->srq);
		oib_test_disown(test, e->rcq);
		oib_test_disown(test, e->scq);
		oib_test_disown(test, e->pd);
	}
}

static int rc_modify(struct rc_pair *p, struct rc_end *e, struct rc_end *peer,
		     enum oib_qp_state state)
{
	const struct rc_cfg *c = &p->cfg;
	struct oib_test_path path = {
		.dgid = peer->gid, .sgid_index = e->sgid_index, .dest_qpn = peer->qp->qp_num,
		.mtu = c->mtu, .rq_psn = c->psn, .sq_psn = c->psn,
		.access = RC_ACCESS & ~OIB_ACCESS_LOCAL_WRITE,
		.timeout = c->timeout, .retry_cnt = c->retry_cnt, .rnr_retry = c->rnr_retry,
		.min_rnr_timer = c->min_rnr_timer, .max_rd_atomic = c->max_rd_atomic,
		.max_dest_rd_atomic = c->max_rd_atomic,
	};

	return oib_test_qp_step(e->qp, state, &path);
}

/* Give @e the GID ::ffff:10.0.0.@host and make it the one its peer sends to. */
static void rc_ipv4_gid(struct kunit *test, struct rc_end *e, u8 host)
{
	int idx;

	oib_test_gid_v4(&e->gid, 10, 0, 0, host);
	idx = oib_add_gid(e->dev, 1, &e->gid, OIB_GID_TYPE_ROCE_V2);
	KUNIT_ASSERT_GT(test, idx, 0);
	e->sgid_index = idx;
}

/*
 * Two connected ends: a in @a_state, b in @b_state (INIT..RTS), per @cfg with defaults filled;
 * @managed as for rc_end_init().
 */
static struct rc_pair *rc_pair_of(struct kunit *test, const struct rc_cfg *cfg,
				  enum oib_qp_state a_state, enum oib_qp_state b_state,
				  bool managed)
{
	static const enum oib_qp_state steps[] = { OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPS_RTS };
	struct rc_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->cfg = *cfg;
	p->cfg.type = p->cfg.type ?: OIB_QPT_RC;
	p->cfg.mtu = p->cfg.mtu ?: OIB_MTU_1024;
	p->cfg.timeout = p->cfg.timeout ?: 14;		/* 67 ms */
	p->cfg.retry_cnt = p->cfg.retry_cnt ?: 7;
	p->cfg.rnr_retry = p->cfg.no_rnr_retry ? 0 : p->cfg.rnr_retry ?: 7;
	p->cfg.max_rd_atomic = p->cfg.max_rd_atomic ?: 8;
	p->cfg.min_rnr_timer = p->cfg.min_rnr_timer ?: 1;
	rc_end_init(test, &p->a, p->cfg.type, managed, false);
	rc_end_init(test, &p->b, p->cfg.type, managed, cfg->srq);
	if (cfg->ipv4) {
		rc_ipv4_gid(test, &p->a, 1);
		rc_ipv4_gid(test, &p->b, 2);
	}
	p->f = oib_test_fabric(test, RC_FABRIC, 0);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		if (steps[i] <= a_state)
			KUNIT_ASSERT_EQ(test, 0, rc_modify(p, &p->a, &p->b, steps[i]));
		if (steps[i] <= b_state)
			KUNIT_ASSERT_EQ(test, 0, rc_modify(p, &p->b, &p->a, steps[i]));
	}
	return p;
}

static struct rc_pair *rc_pair(struct kunit *test, const struct rc_cfg *cfg,
			       enum oib_qp_state a_state, enum oib_qp_state b_state)
{
	return rc_pair_of(test, cfg, a_state, b_state, true);
}

static int rc_poll(struct oib_cq *cq, struct oib_wc *wc, int n)
{
	return oib_test_poll_cq(cq, wc, n);
}

static struct oib_sge rc_sge(struct rc_end *e, u32 off, u32 len)
{
	return (struct oib_sge){ .addr = (u64)(uintptr_t)(e->buf + off), .length = len,
				 .lkey = e->mr->lkey };
}

static void rc_post_recv(struct kunit *test, struct rc_end *e, u64 wr_id, u32 off, u32 len)
{
	struct oib_sge sge = rc_sge(e, off, len);
	struct oib_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 };

	KUNIT_ASSERT_EQ(test, 0, oib_post_recv(e->qp, &wr, NULL));
}

/* Post one signalled request of @op from @e: @len local bytes at @off, remote ones at @roff. */
static int rc_post(struct rc_end *e, struct rc_end *peer, enum oib_wr_opcode op, u64 wr_id,
		   u32 off, u32 len, u32 roff)
{
	struct oib_sge sge = rc_sge(e, off, len);
	struct oib_send_wr wr = {
		.wr_id = wr_id, .opcode = op, .send_flags = OIB_SEND_SIGNALED,
		.sg_list = &sge, .num_sge = 1,
		.ex.imm_data = cpu_to_be32(0x1234abcd),
		.wr.rdma = { .remote_addr = (u64)(uintptr_t)(peer->buf + roff),
			     .rkey = peer->mr->rkey },
	};

	return oib_post_send(e->qp, &wr, NULL);
}

static void rc_fill(u8 *p, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = (u8)(seed * 131 + i * 7 + (i >> 8));
}

static void rc_expect_wc(struct kunit *test, struct oib_cq *cq, u64 wr_id,
			 enum oib_wc_status status, enum oib_wc_opcode op, u32 len)
{
	struct oib_wc wc;

	KUNIT_ASSERT_EQ(test, 1, rc_poll(cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.wr_id, wr_id);
	KUNIT_EXPECT_EQ(test, wc.status, status);
	if (status == OIB_WC_SUCCESS) {
		KUNIT_EXPECT_EQ(test, wc.opcode, op);
		KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	}
}

static u64 rc_stat(struct rc_end *e, enum oib_rxe_port_stat s)
{
	return oib_rxe_port_stat(e->dev, 1, s);
}

static const u32 rc_sizes[] = { 0, 1, 1023, 1024, 1025, 4096, 65536 + 17, 300000 };

/* SEND and SEND_WITH_IMM of every size, PSNs starting just before they wrap. */
static void rc_send_sizes(struct kunit *test)
{
	struct rc_cfg cfg = { .psn = 0xfffff0 };
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	struct oib_wc wc;
	int i, imm;

	for (imm = 0; imm < 2; imm++) {
		for (i = 0; i < ARRAY_SIZE(rc_sizes); i++) {
			u32 len = rc_sizes[i];

			rc_fill(p->a.buf, len, i + imm);
			memset(p->b.buf, 0, len + 16);
			rc_post_recv(test, &p->b, 100 + i, 0, RC_BUF);
			KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, imm ? OIB_WR_SEND_WITH_IMM :
							 OIB_WR_SEND, i, 0, len, 0));
			rc_expect_wc(test, p->a.scq, i, OIB_WC_SUCCESS, OIB_WC_SEND, len);
			KUNIT_ASSERT_EQ(test, 1, rc_poll(p->b.rcq, &wc, 1));
			KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
			KUNIT_EXPECT_EQ(test, wc.opcode, OIB_WC_RECV);
			KUNIT_EXPECT_EQ(test, wc.wr_id, 100 + i);
			KUNIT_EXPECT_EQ(test, wc.byte_len, len);
			KUNIT_EXPECT_EQ(test, !!(wc.wc_flags & OIB_WC_WITH_IMM), imm);
			if (imm)
				KUNIT_EXPECT_EQ(test, be32_to_cpu(wc.ex.imm_data), 0x1234abcd);
			KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.buf, p->b.buf, len));
			KUNIT_EXPECT_EQ(test, 0, p->b.buf[len]);	/* nothing beyond */
		}
	}
}

/* Scatter/gather on both sides: 3 send SGEs into 4 receive SGEs of other sizes, inline too. */
static void rc_send_sgl(struct kunit *test)
{
	struct rc_cfg cfg = { .mtu = OIB_MTU_256 };
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	struct oib_sge s[3] = { rc_sge(&p->a, 0, 100), rc_sge(&p->a, 5000, 700),
				rc_sge(&p->a, 9000, 333) };
	struct oib_sge r[4] = { rc_sge(&p->b, 0, 10), rc_sge(&p->b, 100, 500),
				rc_sge(&p->b, 1000, 1), rc_sge(&p->b, 2000, 1000) };
	struct oib_send_wr wr = { .wr_id = 1, .opcode = OIB_WR_SEND,
				  .send_flags = OIB_SEND_SIGNALED, .sg_list = s, .num_sge = 3 };
	struct oib_recv_wr rwr = { .wr_id = 2, .sg_list = r, .num_sge = 4 };
	u8 *want = kunit_kzalloc(test, 1133, GFP_KERNEL), *got;
	u32 i, off = 0;

	KUNIT_ASSERT_NOT_NULL(test, want);
	rc_fill(p->a.buf, RC_BUF / 2, 3);
	for (i = 0; i < 3; i++) {
		memcpy(want + off, (void *)(uintptr_t)s[i].addr, s[i].length);
		off += s[i].length;
	}
	KUNIT_ASSERT_EQ(test, 0, oib_post_recv(p->b.qp, &rwr, NULL));
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(p->a.qp, &wr, NULL));
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_SUCCESS, OIB_WC_SEND, 1133);
	rc_expect_wc(test, p->b.rcq, 2, OIB_WC_SUCCESS, OIB_WC_RECV, 1133);
	got = kunit_kzalloc(test, 1133, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, got);
	for (i = 0, off = 0; i < 4 && off < 1133; i++) {
		u32 n = min(r[i].length, 1133 - off);

		memcpy(got + off, (void *)(uintptr_t)r[i].addr, n);
		off += n;
	}
	KUNIT_EXPECT_EQ(test, 0, memcmp(want, got, 1133));

	/* inline: the buffer may change as soon as post returns */
	memset(p->a.buf, 0x5a, 64);
	wr.send_flags |= OIB_SEND_INLINE;
	wr.num_sge = 1;
	s[0].length = 64;
	rc_post_recv(test, &p->b, 3, 0, 64);
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(p->a.qp, &wr, NULL));
	memset(p->a.buf, 0, 64);
	rc_expect_wc(test, p->b.rcq, 3, OIB_WC_SUCCESS, OIB_WC_RECV, 64);
	KUNIT_EXPECT_EQ(test, p->b.buf[0], 0x5a);
	KUNIT_EXPECT_EQ(test, p->b.buf[63], 0x5a);
}

/* RDMA WRITE (and with immediate) of every size, read back with RDMA READ. */
static void rc_write_read(struct kunit *test)
{
	struct rc_cfg cfg = { .psn = 0xfffffe, .mtu = OIB_MTU_4096 };
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	u32 half = RC_BUF / 2;
	int i;

	for (i = 0; i < ARRAY_SIZE(rc_sizes); i++) {
		u32 len = min(rc_sizes[i], half);

		rc_fill(p->a.buf, len, i);
		memset(p->b.buf, 0, half);
		KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_RDMA_WRITE, i, 0, len, 0));
		rc_expect_wc(test, p->a.scq, i, OIB_WC_SUCCESS, OIB_WC_RDMA_WRITE, len);
		KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.buf, p->b.buf, len));

		memset(p->a.buf + half, 0, half);
		KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_RDMA_READ, 50 + i, half, len,
						 0));
		rc_expect_wc(test, p->a.scq, 50 + i, OIB_WC_SUCCESS, OIB_WC_RDMA_READ, len);
		KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.buf, p->a.buf + half, len));
	}

	/* with immediate: consumes a receive, which says how much was written */
	rc_fill(p->a.buf, 5000, 9);
	rc_post_recv(test, &p->b, 77, half, 16);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_RDMA_WRITE_WITH_IMM, 1, 0, 5000, 8));
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_SUCCESS, OIB_WC_RDMA_WRITE, 5000);
	rc_expect_wc(test, p->b.rcq, 77, OIB_WC_SUCCESS, OIB_WC_RECV_RDMA_WITH_IMM, 5000);
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.buf, p->b.buf + 8, 5000));
}

/*
 * GIDs beyond the link-local one: an IPv4 address given to each port is answered on the fabric
 * (IPv4 frames) while it is in the table, and no longer once it leaves.
 */
static void rc_ipv4(struct kunit *test)
{
	struct rc_cfg cfg = { .ipv4 = true };
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	u8 mac[ETH_ALEN];

	rc_fill(p->b.buf, 4000, 1);
	rc_post_recv(test, &p->b, 1, 8192, 100);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 1, 0, 100, 0));
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_RDMA_READ, 2, 0, 4000, 0));
	rc_expect_wc(test, p->b.rcq, 1, OIB_WC_SUCCESS, OIB_WC_RECV, 100);
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_SUCCESS, OIB_WC_SEND, 100);
	rc_expect_wc(test, p->a.scq, 2, OIB_WC_SUCCESS, OIB_WC_RDMA_READ, 4000);
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.buf, p->b.buf, 4000));

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_resolve(p->f, &p->b.gid, mac));
	KUNIT_ASSERT_EQ(test, 0, oib_del_gid(p->b.dev, 1, &p->b.gid));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_rxe_fabric_resolve(p->f, &p->b.gid, mac));
	/* a's path still has b's MAC, but b no longer takes frames for that GID */
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_RDMA_WRITE, 3, 0, 10, 0));
	rc_expect_wc(test, p->a.scq, 3, OIB_WC_RETRY_EXC_ERR, 0, 0);
	KUNIT_EXPECT_EQ(test, rc_stat(&p->b, OIB_RXE_RX_DROP_DGID), 8);
}

/* Receives from an SRQ, its limit event, and a CQ armed for solicited completions only. */
static void rc_srq_solicited(struct kunit *test)
{
	struct rc_cfg cfg = { .srq = true };
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	struct oib_srq_attr limit = { .srq_limit = 2 };
	struct oib_sge sge = rc_sge(&p->a, 0, 100);
	struct oib_send_wr wr = { .wr_id = 2, .opcode = OIB_WR_SEND, .sg_list = &sge, .num_sge = 1,
				  .send_flags = OIB_SEND_SIGNALED | OIB_SEND_SOLICITED };
	atomic_t *limit_events;
	struct oib_wc wc[3];
	int i;

	for (i = 0; i < 4; i++) {
		struct oib_sge r = rc_sge(&p->b, i * 1024, 1024);
		struct oib_recv_wr rwr = { .wr_id = 10 + i, .sg_list = &r, .num_sge = 1 };

		KUNIT_ASSERT_EQ(test, 0, oib_post_srq_recv(p->b.srq, &rwr, NULL));
	}
	KUNIT_ASSERT_EQ(test, 0, oib_modify_srq(p->b.srq, &limit, OIB_SRQ_LIMIT));
	KUNIT_ASSERT_EQ(test, 0, oib_req_notify_cq(p->b.rcq, OIB_CQ_SOLICITED));

	/*
	 * Not solicited: the CQ stays quiet.  The send's completion means b added its receive
	 * completion (b answers after it), and a wake would have queued the CQ's completion work
	 * then: once that work is flushed, a wrong handler call would have been counted.
	 */
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 1, 0, 100, 0));
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_SUCCESS, OIB_WC_SEND, 100);
	oib_rxe_cq_flush(p->b.rcq);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->b.comps));
	/* solicited: it wakes */
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(p->a.qp, &wr, NULL));
	rc_expect_wc(test, p->a.scq, 2, OIB_WC_SUCCESS, OIB_WC_SEND, 100);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(&p->b.comps)));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->b.comps));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->b.events[OIB_EVENT_SRQ_LIMIT_REACHED]));
	/* the third receive takes the SRQ below its limit of 2 */
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 3, 0, 100, 0));
	rc_expect_wc(test, p->a.scq, 3, OIB_WC_SUCCESS, OIB_WC_SEND, 100);
	limit_events = &p->b.events[OIB_EVENT_SRQ_LIMIT_REACHED];
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(limit_events)));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->b.events[OIB_EVENT_SRQ_LIMIT_REACHED]));
	KUNIT_ASSERT_EQ(test, 3, rc_poll(p->b.rcq, wc, 3));
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, 10 + i);
		KUNIT_EXPECT_EQ(test, wc[i].byte_len, 100);
	}
}

/* Many reads in flight at once, more than max_rd_atomic: all complete, in order, right. */
static void rc_read_many(struct kunit *test)
{
	struct rc_cfg cfg = { .max_rd_atomic = 2 };
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	struct oib_wc *wc = kunit_kcalloc(test, 32, sizeof(*wc), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, wc);
	rc_fill(p->b.buf, 32 * 3000, 5);
	for (i = 0; i < 32; i++)
		KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_RDMA_READ, i, i * 3000, 3000,
						 i * 3000));
	KUNIT_ASSERT_EQ(test, 32, rc_poll(p->a.scq, wc, 32));
	for (i = 0; i < 32; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, i);
		KUNIT_EXPECT_EQ(test, wc[i].status, OIB_WC_SUCCESS);
	}
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.buf, p->b.buf, 32 * 3000));
}

static int rc_atomic(struct rc_end *e, struct rc_end *peer, enum oib_wr_opcode op, u64 wr_id,
		     u32 roff, u64 compare_add, u64 swap)
{
	struct oib_sge sge = rc_sge(e, 0, 8);
	struct oib_send_wr wr = {
		.wr_id = wr_id, .opcode = op, .send_flags = OIB_SEND_SIGNALED,
		.sg_list = &sge, .num_sge = 1,
		.wr.atomic = { .remote_addr = (u64)(uintptr_t)(peer->buf + roff),
			       .compare_add = compare_add, .swap = swap, .rkey = peer->mr->rkey },
	};

	return oib_post_send(e->qp, &wr, NULL);
}

static void rc_atomics(struct kunit *test)
{
	struct rc_cfg cfg = {};
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	u64 *target = (u64 *)(p->b.buf + 64), *result = (u64 *)p->a.buf;

	*target = 40;
	KUNIT_ASSERT_EQ(test, 0, rc_atomic(&p->a, &p->b, OIB_WR_ATOMIC_FETCH_AND_ADD, 1, 64, 2, 0));
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_SUCCESS, OIB_WC_FETCH_ADD, 8);
	KUNIT_EXPECT_EQ(test, *result, 40);
	KUNIT_EXPECT_EQ(test, *target, 42);

	KUNIT_ASSERT_EQ(test, 0, rc_atomic(&p->a, &p->b, OIB_WR_ATOMIC_CMP_AND_SWP, 2, 64, 7, 99));
	rc_expect_wc(test, p->a.scq, 2, OIB_WC_SUCCESS, OIB_WC_COMP_SWAP, 8);
	KUNIT_EXPECT_EQ(test, *result, 42);
	KUNIT_EXPECT_EQ(test, *target, 42);	/* no match, no swap */

	KUNIT_ASSERT_EQ(test, 0, rc_atomic(&p->a, &p->b, OIB_WR_ATOMIC_CMP_AND_SWP, 3, 64, 42, 99));
	rc_expect_wc(test, p->a.scq, 3, OIB_WC_SUCCESS, OIB_WC_COMP_SWAP, 8);
	KUNIT_EXPECT_EQ(test, *result, 42);
	KUNIT_EXPECT_EQ(test, *target, 99);

	/* misaligned: the responder refuses it as an invalid request */
	KUNIT_EXPECT_EQ(test, -EINVAL, rc_atomic(&p->a, &p->b, OIB_WR_ATOMIC_FETCH_AND_ADD, 4, 65,
						 1, 0));
}

/*
 * SEND_WITH_INV and LOCAL_INV revoke only fast-registration keys (fastreg_test proves that they
 * do): naming the key of an MR registered when made (a kernel or a user registration) is refused,
 * so that no peer can take away memory a process or a ULP registered.
 */
static void rc_invalidate_refused(struct kunit *test)
{
	struct rc_cfg cfg = {};
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	struct oib_sge sge = rc_sge(&p->a, 0, 16);
	struct oib_send_wr wr = { .wr_id = 1, .opcode = OIB_WR_SEND_WITH_INV,
				  .send_flags = OIB_SEND_SIGNALED, .sg_list = &sge, .num_sge = 1,
				  .ex.invalidate_rkey = p->b.mr->rkey };
	struct oib_wc wc;

	rc_post_recv(test, &p->b, 9, 0, 64);
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(p->a.qp, &wr, NULL));
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_REM_INV_REQ_ERR, 0, 0);
	KUNIT_ASSERT_EQ(test, 1, rc_poll(p->b.rcq, &wc, 1));
	KUNIT_EXPECT_NE(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_EXPECT_FALSE(test, wc.wc_flags & OIB_WC_WITH_INVALIDATE);

	/* a fresh pair: LOCAL_INV of the requester's own registered lkey fails, the key stays */
	p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	wr.opcode = OIB_WR_LOCAL_INV;
	wr.num_sge = 0;
	wr.ex.invalidate_rkey = p->a.mr->lkey;
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(p->a.qp, &wr, NULL));
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_LOC_PROT_ERR, 0, 0);
}

/* The error statuses, and the QP states they leave. */
static void rc_errors(struct kunit *test)
{
	struct rc_cfg cfg = {};
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	struct oib_qp_init_attr init;
	struct oib_qp_attr attr;

	/* a send longer than the receive: LOC_LEN_ERR there, REM_INV_REQ_ERR here */
	rc_post_recv(test, &p->b, 1, 0, 100);
	rc_post_recv(test, &p->b, 2, 0, 100);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 10, 0, 3000, 0));
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 11, 0, 10, 0));
	rc_expect_wc(test, p->b.rcq, 1, OIB_WC_LOC_LEN_ERR, 0, 0);
	rc_expect_wc(test, p->b.rcq, 2, OIB_WC_WR_FLUSH_ERR, 0, 0);
	rc_expect_wc(test, p->a.scq, 10, OIB_WC_REM_INV_REQ_ERR, 0, 0);
	rc_expect_wc(test, p->a.scq, 11, OIB_WC_WR_FLUSH_ERR, 0, 0);
	/* raised by b's receive path after its flush, maybe after a has seen the NAK */
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(&p->b.events[OIB_EVENT_QP_REQ_ERR])));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->b.events[OIB_EVENT_QP_REQ_ERR]));
	KUNIT_ASSERT_EQ(test, 0, oib_query_qp(p->a.qp, &attr, 0, &init));
	KUNIT_EXPECT_EQ(test, attr.qp_state, OIB_QPS_ERR);
	KUNIT_ASSERT_EQ(test, 0, oib_query_qp(p->b.qp, &attr, 0, &init));
	KUNIT_EXPECT_EQ(test, attr.qp_state, OIB_QPS_ERR);
	/* from ERR, only RESET (and ERR) lead on; RESET, then back to RTS works */
	KUNIT_EXPECT_EQ(test, -EINVAL, rc_modify(p, &p->a, &p->b, OIB_QPS_RTS));
	attr.qp_state = OIB_QPS_RESET;
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(p->a.qp, &attr, OIB_QP_STATE));
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(p->b.qp, &attr, OIB_QP_STATE));
	KUNIT_ASSERT_EQ(test, 0, rc_modify(p, &p->a, &p->b, OIB_QPS_INIT));
	KUNIT_ASSERT_EQ(test, 0, rc_modify(p, &p->b, &p->a, OIB_QPS_INIT));
	KUNIT_ASSERT_EQ(test, 0, rc_modify(p, &p->a, &p->b, OIB_QPS_RTR));
	KUNIT_ASSERT_EQ(test, 0, rc_modify(p, &p->b, &p->a, OIB_QPS_RTR));
	KUNIT_ASSERT_EQ(test, 0, rc_modify(p, &p->a, &p->b, OIB_QPS_RTS));
	KUNIT_ASSERT_EQ(test, 0, rc_modify(p, &p->b, &p->a, OIB_QPS_RTS));
	rc_post_recv(test, &p->b, 3, 0, 100);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 12, 0, 50, 0));
	rc_expect_wc(test, p->a.scq, 12, OIB_WC_SUCCESS, OIB_WC_SEND, 50);
	rc_expect_wc(test, p->b.rcq, 3, OIB_WC_SUCCESS, OIB_WC_RECV, 50);

	/* a bad lkey fails locally with LOC_PROT_ERR */
	{
		struct oib_sge sge = rc_sge(&p->a, 0, 8);
		struct oib_send_wr wr = { .wr_id = 13, .opcode = OIB_WR_SEND, .sg_list = &sge,
					  .num_sge = 1 };

		sge.lkey ^= 0xff;
		KUNIT_ASSERT_EQ(test, 0, oib_post_send(p->a.qp, &wr, NULL));
		rc_expect_wc(test, p->a.scq, 13, OIB_WC_LOC_PROT_ERR, 0, 0);
	}
}

/* Nobody answers: after retry_cnt retries the request fails with RETRY_EXC_ERR. */
static void rc_retry_exhausted(struct kunit *test)
{
	struct rc_cfg cfg = { .timeout = 8, .retry_cnt = 3 };
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	struct oib_wc wc;
	struct orxe_fault_rule drop = { .action = ORXE_FAULT_DROP, .opcode = ORXE_FAULT_ANY,
				       .qpn = p->b.qp->qp_num, .count = 1000 };

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_add_rule(p->f, &drop));
	rc_post_recv(test, &p->b, 1, 0, 100);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 1, 0, 10, 0));
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 2, 0, 10, 0));
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_RETRY_EXC_ERR, 0, 0);
	rc_expect_wc(test, p->a.scq, 2, OIB_WC_WR_FLUSH_ERR, 0, 0);
	KUNIT_EXPECT_EQ(test, rc_stat(&p->a, OIB_RXE_TX_TIMEOUTS), 4);
	KUNIT_EXPECT_EQ(test, rc_stat(&p->a, OIB_RXE_TX_RETRANSMITS), 3 * 2);	/* both, 3 times */
	/* The rule dropped every frame to b as it was sent: nothing is on its way to b. */
	KUNIT_EXPECT_EQ(test, 0, oib_poll_cq(p->b.rcq, 1, &wc));
}

/* No receive posted: RNR NAKs until one is, then the send completes. */
static void rc_rnr_late_recv(struct kunit *test)
{
	struct rc_cfg cfg = { .min_rnr_timer = 14 };	/* 1.28 ms, and retried for ever */
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);

	rc_fill(p->a.buf, 3000, 1);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 1, 0, 3000, 0));
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_RDMA_WRITE_WITH_IMM, 2, 0, 3000,
					 4096));
	KUNIT_EXPECT_TRUE(test, oib_test_wait_rxe_stat(p->b.dev, 1, OIB_RXE_TX_RNR_NAKS, 2));
	KUNIT_EXPECT_TRUE(test, oib_test_wait_rxe_stat(p->a.dev, 1, OIB_RXE_RX_RNR_NAKS, 2));
	KUNIT_EXPECT_GT(test, rc_stat(&p->b, OIB_RXE_TX_RNR_NAKS), 1);
	KUNIT_EXPECT_GT(test, rc_stat(&p->a, OIB_RXE_RX_RNR_NAKS), 1);
	rc_post_recv(test, &p->b, 10, 8192, 4000);
	rc_post_recv(test, &p->b, 11, 16384, 10);
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_SUCCESS, OIB_WC_SEND, 3000);
	rc_expect_wc(test, p->a.scq, 2, OIB_WC_SUCCESS, OIB_WC_RDMA_WRITE, 3000);
	rc_expect_wc(test, p->b.rcq, 10, OIB_WC_SUCCESS, OIB_WC_RECV, 3000);
	rc_expect_wc(test, p->b.rcq, 11, OIB_WC_SUCCESS, OIB_WC_RECV_RDMA_WITH_IMM, 3000);
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.buf, p->b.buf + 8192, 3000));
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.buf, p->b.buf + 4096, 3000));
}

/* rnr_retry 0: the first RNR NAK fails the send. */
static void rc_rnr_no_retry(struct kunit *test)
{
	struct rc_cfg cfg = { .no_rnr_retry = true };
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);

	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 1, 0, 10, 0));
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_RNR_RETRY_EXC_ERR, 0, 0);
	KUNIT_EXPECT_EQ(test, rc_stat(&p->a, OIB_RXE_RX_RNR_NAKS), 1);
}

/*
 * Sends posted in RTR wait for RTS; the first packet the peer gets in RTR raises COMM_EST, once.
 */
static void rc_rtr(struct kunit *test)
{
	struct rc_cfg cfg = {};
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTR, OIB_QPS_RTR);
	u64 tx = rc_stat(&p->a, OIB_RXE_TX_FRAMES);
	struct oib_wc wc;

	rc_post_recv(test, &p->b, 1, 0, 100);
	rc_post_recv(test, &p->b, 2, 0, 100);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 1, 0, 10, 0));
	/*
	 * Requests leave from the poster's own call (rxe.md): with a's frame count unchanged once
	 * post returned, nothing left, and nothing can reach b.
	 */
	KUNIT_EXPECT_EQ(test, rc_stat(&p->a, OIB_RXE_TX_FRAMES), tx);
	KUNIT_EXPECT_EQ(test, 0, oib_poll_cq(p->b.rcq, 1, &wc));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->b.events[OIB_EVENT_COMM_EST]));

	KUNIT_ASSERT_EQ(test, 0, rc_modify(p, &p->a, &p->b, OIB_QPS_RTS));
	rc_expect_wc(test, p->b.rcq, 1, OIB_WC_SUCCESS, OIB_WC_RECV, 10);
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_SUCCESS, OIB_WC_SEND, 10);	/* b ACKs in RTR */
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 2, 0, 10, 0));
	rc_expect_wc(test, p->b.rcq, 2, OIB_WC_SUCCESS, OIB_WC_RECV, 10);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->b.events[OIB_EVENT_COMM_EST]));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&p->a.events[OIB_EVENT_COMM_EST]));
}

/* A QP watch that counts its calls, and whether the QP's own handler had seen COMM_EST first. */
struct rc_watch {
	struct oib_qp_watch watch;
	struct rc_end *e;
	atomic_t comm_est, first_recv, ulp_before;
};

static void rc_watch_event(struct oib_qp_watch *w, const struct oib_event *ev)
{
	struct rc_watch *rw = container_of(w, struct rc_watch, watch);

	if (ev->event != OIB_EVENT_COMM_EST)
		return;
	atomic_inc(&rw->comm_est);
	if (atomic_read(&rw->e->events[OIB_EVENT_COMM_EST]))
		atomic_inc(&rw->ulp_before);
}

static void rc_watch_first_recv(struct oib_qp_watch *w)
{
	atomic_inc(&container_of(w, struct rc_watch, watch)->first_recv);
}

static const struct oib_qp_watch_ops rc_watch_ops = {
	.event = rc_watch_event,
	.first_recv = rc_watch_first_recv,
};

/*
 * A watched QP in RTR (the passive side of a connection): its COMM_EST reaches the watch before
 * the QP's own handler; the first receive completion polled calls first_recv once, later ones and
 * those in RTS never; a watched QP cannot be destroyed or watched twice; after unwatch nothing is
 * called.
 */
static void rc_qp_watch(struct kunit *test)
{
	struct rc_cfg cfg = {};
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTR);
	struct rc_watch *rw = kunit_kzalloc(test, sizeof(*rw), GFP_KERNEL);
	struct oib_qp_watch other = { .ops = &rc_watch_ops };

	KUNIT_ASSERT_NOT_NULL(test, rw);
	rw->e = &p->b;
	rw->watch.ops = &rc_watch_ops;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_qp_watch(p->b.qp, NULL));
	KUNIT_ASSERT_EQ(test, 0, oib_qp_watch(p->b.qp, &rw->watch));
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_qp_watch(p->b.qp, &other));
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_destroy_qp(p->b.qp));

	rc_post_recv(test, &p->b, 1, 0, 100);
	rc_post_recv(test, &p->b, 2, 0, 100);
	rc_post_recv(test, &p->b, 3, 0, 100);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 1, 0, 10, 0));
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 2, 0, 10, 0));
	rc_expect_wc(test, p->b.rcq, 1, OIB_WC_SUCCESS, OIB_WC_RECV, 10);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&rw->first_recv));
	rc_expect_wc(test, p->b.rcq, 2, OIB_WC_SUCCESS, OIB_WC_RECV, 10);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&rw->first_recv));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&rw->comm_est));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&rw->ulp_before));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->b.events[OIB_EVENT_COMM_EST]));

	KUNIT_ASSERT_EQ(test, 0, rc_modify(p, &p->b, &p->a, OIB_QPS_RTS));
	oib_qp_unwatch(&rw->watch);
	KUNIT_EXPECT_NULL(test, rw->watch.qp);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 3, 0, 10, 0));
	rc_expect_wc(test, p->b.rcq, 3, OIB_WC_SUCCESS, OIB_WC_RECV, 10);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&rw->first_recv));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&rw->comm_est));
}

static void rc_unwatch(void *watch)
{
	oib_qp_unwatch(watch);	/* nothing if it is not watching */
}

/*
 * A watch on a QP whose receive CQ also holds a completion of a QP destroyed since: the poll
 * finds watches by the completions' QP numbers and never reads the gone QP (KASAN would see it),
 * and the other QP's completion is not the watched one's first receive.
 */
static void rc_qp_watch_gone_qp(struct kunit *test)
{
	struct rc_cfg cfg = {};
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	struct rc_watch *rw = kunit_kzalloc(test, sizeof(*rw), GFP_KERNEL);
	struct oib_qp_init_attr ia = {
		.event_handler = rc_event, .qp_context = &p->b, .qp_type = OIB_QPT_RC,
		.sq_sig_type = OIB_SIGNAL_REQ_WR, .send_cq = p->b.scq, .recv_cq = p->b.rcq,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct oib_test_path path = { .dgid = p->a.gid, .dest_qpn = p->a.qp->qp_num,
				      .mtu = OIB_MTU_1024 };
	struct oib_qp *w;
	struct oib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, rw);
	rw->e = &p->b;
	rw->watch.ops = &rc_watch_ops;
	w = oib_test_qp_attr(test, p->b.pd, &ia);	/* before b's QP goes: its own number */
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_step(w, OIB_QPS_INIT, &path));
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_step(w, OIB_QPS_RTR, &path));
	KUNIT_ASSERT_EQ(test, 0, oib_qp_watch(w, &rw->watch));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rc_unwatch, &rw->watch));

	KUNIT_ASSERT_EQ(test, 0, oib_req_notify_cq(p->b.rcq, OIB_CQ_NEXT_COMP));
	rc_post_recv(test, &p->b, 1, 0, 100);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 1, 0, 10, 0));
	KUNIT_ASSERT_TRUE(test, oib_test_wait_for(atomic_read(&p->b.comps)));
	oib_test_disown(test, p->b.qp);
	KUNIT_ASSERT_EQ(test, 0, oib_destroy_qp(p->b.qp));
	p->b.qp = NULL;

	KUNIT_ASSERT_EQ(test, 1, rc_poll(p->b.rcq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&rw->first_recv));
}

struct rc_loss_case {
	const char *name;
	enum oib_qp_type type;
	u32 drop_ppm, dup_ppm, reorder_ppm;
	u64 seed;
};

static const struct rc_loss_case rc_loss_cases[] = {
	{ "rc_drop_1pct", OIB_QPT_RC, 10000, 10000, 10000, 1 },
	{ "rc_drop_10pct", OIB_QPT_RC, 100000, 20000, 50000, 2 },
	{ "rc_drop_30pct", OIB_QPT_RC, 300000, 50000, 50000, 3 },
	{ "uc_drop_10pct", OIB_QPT_UC, 100000, 20000, 50000, 4 },
};

KUNIT_ARRAY_PARAM_DESC(rc_loss, rc_loss_cases, name);

#define RC_LOSS_MARKER	(RC_LOSS_MSGS + 1)	/* wr_id of rc_uc_arrived()'s marker send */

#define RC_LOSS_MSGS	100
#define RC_LOSS_MAX	2500	/* up to three 1 KiB packets a message */
static_assert(2 * RC_LOSS_MSGS * RC_LOSS_MAX <= RC_BUF);

/*
 * The UC messages that made it to b, into @wc: with the faults off (which sends frames held for
 * reordering at once), a zero-length marker message goes after them; its arrival on the same path
 * says every earlier frame has been received.  It takes the first receive the lost messages left
 * posted, so it is known by its length, which no message has.  Returns how many came before it.
 */
static int rc_uc_arrived(struct kunit *test, struct rc_pair *p, struct oib_wc *wc)
{
	struct oib_wc marker;
	int n = 0;

	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_set_faults(p->f, NULL, NULL));
	rc_post_recv(test, &p->b, RC_LOSS_MARKER, 0, RC_LOSS_MAX);
	KUNIT_EXPECT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, RC_LOSS_MARKER, 0, 0, 0));
	rc_expect_wc(test, p->a.scq, RC_LOSS_MARKER, OIB_WC_SUCCESS, OIB_WC_SEND, 0);
	for (;;) {
		if (oib_test_poll_cq(p->b.rcq, &marker, 1) != 1) {
			KUNIT_FAIL(test, "the UC marker never arrived");
			return n;
		}
		if (marker.opcode == OIB_WC_RECV && !marker.byte_len)
			break;
		if (n < RC_LOSS_MSGS)
			wc[n] = marker;
		n++;
	}
	KUNIT_EXPECT_EQ(test, marker.status, OIB_WC_SUCCESS);
	return min(n, RC_LOSS_MSGS);
}

/*
 * Messages of 1 to 3 packets, sends and writes with immediate, over a lossy fabric: RC delivers
 * every one exactly once, in order, intact; UC delivers some, each whole and intact, in order.
 */
static void rc_loss(struct kunit *test)
{
	const struct rc_loss_case *c = test->param_value;
	struct rc_cfg cfg = { .type = c->type, .timeout = 16 };	/* 268 ms: a slow guest */
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	struct orxe_fault_cfg faults = { .drop_ppm = c->drop_ppm, .dup_ppm = c->dup_ppm,
					.reorder_ppm = c->reorder_ppm };
	struct oib_wc *wc = kunit_kcalloc(test, RC_LOSS_MSGS, sizeof(*wc), GFP_KERNEL);
	u8 *want = kunit_kzalloc(test, RC_LOSS_MAX, GFP_KERNEL);
	u32 i, n, len, last = 0;

	KUNIT_ASSERT_NOT_NULL(test, wc);
	KUNIT_ASSERT_NOT_NULL(test, want);
	oib_rxe_fabric_set_seed(p->f, c->seed);
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(p->f, NULL, &faults));
	for (i = 0; i < RC_LOSS_MSGS; i++) {
		len = 1 + (i * 997) % RC_LOSS_MAX;
		rc_fill(p->a.buf + i * RC_LOSS_MAX, len, i);
		rc_post_recv(test, &p->b, i, i * RC_LOSS_MAX, RC_LOSS_MAX);
	}
	for (i = 0; i < RC_LOSS_MSGS; i++) {
		len = 1 + (i * 997) % RC_LOSS_MAX;
		KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, i % 3 ? OIB_WR_SEND :
						 OIB_WR_RDMA_WRITE_WITH_IMM, i,
						 i * RC_LOSS_MAX, len,
						 RC_BUF / 2 + i * RC_LOSS_MAX));
	}
	n = oib_test_poll_cq_ms(p->a.scq, wc, RC_LOSS_MSGS, 90000);	/* 30%: many timeouts */
	KUNIT_ASSERT_EQ(test, n, RC_LOSS_MSGS);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, i);
		KUNIT_EXPECT_EQ(test, wc[i].status, OIB_WC_SUCCESS);
	}
	if (c->type == OIB_QPT_RC) {
		n = oib_test_poll_cq(p->b.rcq, wc, RC_LOSS_MSGS);
		KUNIT_EXPECT_EQ(test, n, RC_LOSS_MSGS);
	} else {
		n = rc_uc_arrived(test, p, wc);
		KUNIT_EXPECT_GT(test, n, RC_LOSS_MSGS / 2);
		KUNIT_EXPECT_LT(test, n, RC_LOSS_MSGS);
	}
	for (i = 0; i < n; i++) {
		u32 msg;
		u8 *got;

		KUNIT_EXPECT_EQ(test, wc[i].status, OIB_WC_SUCCESS);
		len = wc[i].byte_len;
		got = wc[i].opcode == OIB_WC_RECV_RDMA_WITH_IMM ?
		      p->b.buf + RC_BUF / 2 : p->b.buf + wc[i].wr_id * RC_LOSS_MAX;
		if (c->type == OIB_QPT_RC) {
			KUNIT_EXPECT_EQ(test, wc[i].wr_id, i);
			KUNIT_EXPECT_EQ(test, len, 1 + (i * 997) % RC_LOSS_MAX);
			KUNIT_EXPECT_EQ(test, wc[i].opcode, i % 3 ? OIB_WC_RECV :
							    OIB_WC_RECV_RDMA_WITH_IMM);
			got += wc[i].opcode == OIB_WC_RECV_RDMA_WITH_IMM ? i * RC_LOSS_MAX : 0;
			rc_fill(want, len, i);
			KUNIT_EXPECT_EQ_MSG(test, 0, memcmp(want, got, len), "message %u", i);
		} else {
			/* UC: which message is known from its length; it must be whole */
			for (msg = last; msg < RC_LOSS_MSGS; msg++)
				if (1 + (msg * 997) % RC_LOSS_MAX == len)
					break;
			KUNIT_ASSERT_LT(test, msg, RC_LOSS_MSGS);
			if (wc[i].opcode == OIB_WC_RECV_RDMA_WITH_IMM)
				got += msg * RC_LOSS_MAX;
			rc_fill(want, len, msg);
			KUNIT_EXPECT_EQ_MSG(test, 0, memcmp(want, got, len), "message %u", msg);
			last = msg + 1;
		}
	}
	/*
	 * Nothing more: RC consumed every receive posted, so a message delivered twice would have
	 * taken one of them above; UC's marker went after everything else.
	 */
	KUNIT_EXPECT_EQ(test, 0, oib_poll_cq(p->b.rcq, 1, wc));
	if (c->type == OIB_QPT_RC) {
		kunit_info(test, "retransmits %llu timeouts %llu naks %llu dups %llu\n",
			   rc_stat(&p->a, OIB_RXE_TX_RETRANSMITS),
			   rc_stat(&p->a, OIB_RXE_TX_TIMEOUTS), rc_stat(&p->a, OIB_RXE_RX_NAKS),
			   rc_stat(&p->b, OIB_RXE_RX_DUPLICATES));
		KUNIT_EXPECT_GT(test, rc_stat(&p->a, OIB_RXE_TX_RETRANSMITS), 0);
	}
}

static const u8 rc_fuzz_mac[ETH_ALEN] = { 0x02, 0x00, 0x5e, 0xf0, 0x22, 0x01 };

static void rc_fuzz_rx(struct orxe_fabric_port *fp, struct sk_buff *skb)
{
	kfree_skb(skb);
}

static void rc_fuzz_detach(void *fp)
{
	oib_rxe_fabric_detach(fp);
}

static const u8 rc_fuzz_ops[] = {
	ORXE_RC_SEND_FIRST, ORXE_RC_SEND_MIDDLE, ORXE_RC_SEND_LAST, ORXE_RC_SEND_ONLY,
	ORXE_RC_SEND_ONLY_WITH_IMMEDIATE, ORXE_RC_RDMA_WRITE_FIRST,
	ORXE_RC_RDMA_WRITE_MIDDLE,
	ORXE_RC_RDMA_WRITE_ONLY, ORXE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE,
	ORXE_RC_RDMA_READ_REQUEST, ORXE_RC_RDMA_READ_RESPONSE_FIRST,
	ORXE_RC_RDMA_READ_RESPONSE_MIDDLE, ORXE_RC_RDMA_READ_RESPONSE_ONLY,
	ORXE_RC_ACKNOWLEDGE, ORXE_RC_ATOMIC_ACKNOWLEDGE, ORXE_RC_COMPARE_SWAP,
	ORXE_RC_FETCH_ADD, ORXE_RC_SEND_ONLY_WITH_INVALIDATE, ORXE_UC_SEND_FIRST,
	ORXE_UC_SEND_ONLY, ORXE_UC_RDMA_WRITE_ONLY, ORXE_UC_RDMA_WRITE_LAST,
};

/* The fuzz's port, attached to @p's fabric until the test ends. */
static struct orxe_fabric_port *rc_fuzz_port(struct kunit *test, struct rc_pair *p)
{
	struct orxe_fabric_port *src = kunit_kzalloc(test, sizeof(*src), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, src);
	memcpy(src->mac, rc_fuzz_mac, ETH_ALEN);
	src->rx = rc_fuzz_rx;
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_attach(p->f, src));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rc_fuzz_detach, src));
	return src;
}

/*
 * Random headers of one of @ops from @src to a or b of @p: often @to's QP, a PSN near the start,
 * its buffer and R_Key; a payload of up to 1200 bytes, whole words, for an opcode that has one.
 * The end it is for.
 */
static struct rc_end *rc_fuzz_hdr(struct rnd_state *rnd, struct rc_pair *p,
				  struct orxe_fabric_port *src, const u8 *ops, u32 nops,
				  struct orxe_tx_hdr *h)
{
	struct rc_end *to = prandom_u32_state(rnd) & 1 ? &p->b : &p->a;
	struct rc_end *from = to == &p->a ? &p->b : &p->a;
	u32 r = prandom_u32_state(rnd);

	memset(h, 0, sizeof(*h));
	h->opcode = ops[r % nops];
	h->sgid = from->gid;
	h->dgid = to->gid;
	oib_rxe_fabric_resolve(p->f, &to->gid, h->dmac);
	memcpy(h->smac, src->mac, ETH_ALEN);
	h->hop_limit = 64;
	h->pkey = r & 0x100 ? 0xffff : prandom_u32_state(rnd);
	h->dest_qpn = r & 0x200 ? to->qp->qp_num : prandom_u32_state(rnd) & ORXE_QPN_MASK;
	h->psn = r & 0x400 ? prandom_u32_state(rnd) & ORXE_PSN_MASK :
			      (0 + (prandom_u32_state(rnd) & 7)) & ORXE_PSN_MASK;
	h->ack_req = r & 0x800;
	h->reth.va = (u64)prandom_u32_state(rnd) << 32 | prandom_u32_state(rnd);
	if (r & 0x1000)
		h->reth.va = (u64)(uintptr_t)to->buf + (h->reth.va & 0xffff);
	h->reth.rkey = r & 0x2000 ? to->mr->rkey : prandom_u32_state(rnd);
	h->reth.len = prandom_u32_state(rnd);
	if (r & 0x4000)
		h->reth.len &= 0x3fff;
	h->atmeth.va = h->reth.va & ~7ULL;
	h->atmeth.rkey = h->reth.rkey;
	h->aeth.syndrome = prandom_u32_state(rnd);
	h->aeth.msn = prandom_u32_state(rnd) & ORXE_MSN_MASK;
	h->ieth_rkey = h->reth.rkey;
	h->paylen = oib_rxe_opcode(h->opcode)->flags & ORXE_OPF_PAYLOAD ?
		    (prandom_u32_state(rnd) % 1200) & ~3 : 0;
	return to;
}

/*
 * a's own RDMA WRITE @k of 4 KiB into b's buffer, posted beside the fuzz's frames (whatever
 * becomes of it): writes the memory oracle must find allowed.
 */
static int rc_fuzz_write(struct rc_pair *p, struct rxe_mem_oracle *ob, u32 k)
{
	u32 roff = SZ_64K + (k % 64) * SZ_4K;

	rxe_mem_oracle_allow(ob, (uintptr_t)p->b.buf + roff, SZ_4K);
	return rc_post(&p->a, &p->b, OIB_WR_RDMA_WRITE, 1000 + k, (k % 16) * SZ_4K, SZ_4K, roff);
}

/* A fresh pair on @p's fabric works: what the fuzz did stayed with its QPs. */
static void rc_fuzz_after(struct kunit *test, const struct rc_cfg *cfg)
{
	struct rc_pair *p = rc_pair(test, cfg, OIB_QPS_RTS, OIB_QPS_RTS);

	rc_post_recv(test, &p->b, 1, 0, 100);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 1, 0, 50, 0));
	rc_expect_wc(test, p->b.rcq, 1, OIB_WC_SUCCESS, OIB_WC_RECV, 50);
}

/*
 * A seeded fuzz: frames of every RC/UC opcode, with random headers and payloads, to live QPs in
 * every state, through the real receive path (the ICRC is made right so the parser passes them),
 * amid a's own RDMA WRITEs to b (the first one done before the fuzz starts).  Nothing may crash
 * or leak; no byte of either end's memory may change that no frame could write (mem_oracle.c);
 * the QPs then are in whatever state the garbage drove them to, and a fresh
 * pair still works.
 */
static void rc_fuzz(struct kunit *test)
{
	struct rc_cfg cfg = { .timeout = 8, .rnr_retry = 1 };
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTR);
	struct orxe_fabric_port *src = rc_fuzz_port(test, p);
	u8 *payload = kunit_kzalloc(test, 4096, GFP_KERNEL);
	struct rxe_mem_oracle oa, ob;
	struct rnd_state rnd;
	struct oib_wc wc;
	u64 rx0 = rc_stat(&p->b, OIB_RXE_RX_FRAMES);
	u32 i, n = 3000, ca, cb;

	KUNIT_ASSERT_NOT_NULL(test, payload);
	prandom_seed_state(&rnd, 42);
	rxe_mem_oracle_init(test, &oa, p->a.buf, RC_BUF, p->a.mr, p->a.qp->qp_num,
			    ORXE_TRANSPORT_RC, 0, 1);
	rxe_mem_oracle_init(test, &ob, p->b.buf, RC_BUF, p->b.mr, p->b.qp->qp_num,
			    ORXE_TRANSPORT_RC, 8 * 1024, 2);
	for (i = 0; i < 64; i++)
		rc_post_recv(test, &p->b, i, (i % 8) * 1024, 1024);
	/*
	 * The first write done before the garbage: b takes it, though a's completion may be
	 * RETRY_EXC_ERR (the fuzz's 1 ms ACK timeout, on a host that stalls the guest longer).
	 */
	KUNIT_ASSERT_EQ(test, 0, rc_fuzz_write(p, &ob, 0));
	KUNIT_ASSERT_EQ(test, 1, rc_poll(p->a.scq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.wr_id, 1000);
	for (i = 0; i < n; i++) {
		struct orxe_tx_hdr h;
		struct sk_buff *skb;
		struct rc_end *to;

		if (i % 200 == 199)
			rc_fuzz_write(p, &ob, i / 200 + 1);	/* the QPs may be dead by now */
		to = rc_fuzz_hdr(&rnd, p, src, rc_fuzz_ops, ARRAY_SIZE(rc_fuzz_ops), &h);
		rxe_mem_oracle_frame(to == &p->a ? &oa : &ob, &h);
		prandom_bytes_state(&rnd, payload, h.paylen);
		skb = alloc_skb(2048, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		if (oib_rxe_frame_build_skb(&h, payload, skb)) {
			kfree_skb(skb);
			KUNIT_FAIL(test, "frame %u: opcode %u does not build", i, h.opcode);
			return;
		}
		oib_rxe_fabric_xmit(src, skb);
	}
	/* At least a third of the frames were for b's QP (and all fit its fabric queue). */
	KUNIT_EXPECT_TRUE(test, oib_test_wait_rxe_stat(p->b.dev, 1, OIB_RXE_RX_FRAMES,
						       rx0 + n / 3));
	KUNIT_EXPECT_GE(test, rc_stat(&p->b, OIB_RXE_RX_FRAMES) - rx0, n / 3);
	oib_test_fuzz_inputs(test, "rxe_rc_frames", n);
	ca = rxe_mem_oracle_check(test, &oa, p->a.mr);
	cb = rxe_mem_oracle_check(test, &ob, p->b.mr);
	kunit_info(test, "bytes changed: a %u, b %u, each where a frame could write", ca, cb);
	KUNIT_EXPECT_GT(test, cb, 0);	/* the oracle saw writes to judge */
	rc_fuzz_after(test, &cfg);
}

/* The opcodes with a payload: what a train carries. */
static const u8 rc_train_ops[] = {
	ORXE_RC_SEND_FIRST, ORXE_RC_SEND_MIDDLE, ORXE_RC_SEND_LAST, ORXE_RC_SEND_ONLY,
	ORXE_RC_RDMA_WRITE_FIRST, ORXE_RC_RDMA_WRITE_MIDDLE, ORXE_RC_RDMA_WRITE_ONLY,
	ORXE_RC_RDMA_READ_RESPONSE_FIRST, ORXE_RC_RDMA_READ_RESPONSE_MIDDLE,
	ORXE_UC_SEND_ONLY, ORXE_UC_RDMA_WRITE_LAST,
};

/*
 * A train of @segs random packets with payloads from @page, all to one end of @p: @to, or where
 * the first goes if @to is NULL.
 */
static struct sk_buff *rc_fuzz_train(struct kunit *test, struct rnd_state *rnd, struct rc_pair *p,
				     struct orxe_fabric_port *src, const u8 *page, u32 segs,
				     struct rc_end *to)
{
	struct orxe_tx_hdr h;
	struct orxe_train t;
	struct rc_end *end;
	u32 i;

	oib_rxe_train_init(&t, NULL, segs);
	for (i = 0; i < segs; i++) {
		do {
			end = rc_fuzz_hdr(rnd, p, src, rc_train_ops, ARRAY_SIZE(rc_train_ops), &h);
		} while (!h.paylen || (to && end != to));
		to = end;
		KUNIT_EXPECT_TRUE(test, oib_rxe_train_add(&t, &h, page +
							   prandom_u32_state(rnd) % 2048));
	}
	return oib_rxe_train_close(&t);
}

/*
 * Trains, as oib_rxe ports send them, of random packets: delivered whole to the receive path and
 * walked there, every packet counted.  A train whose first packet does not parse (its BTH's
 * transport version changed) is dropped whole, each of its packets counted as malformed; in one
 * whose packets alternate between the port's GID and another, each of the others is dropped; one
 * with a random byte of its headers changed loses what no longer parses (or, the fabric's view of
 * it changed, does not reach a port).  Nothing may crash or leak, and a fresh pair still works.
 */
static void rc_fuzz_trains(struct kunit *test)
{
	struct rc_cfg cfg = { .timeout = 8, .rnr_retry = 1 };
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	struct orxe_fabric_port *src = rc_fuzz_port(test, p);
	struct page *page = alloc_page(GFP_KERNEL);
	u64 rx0, bad0, clean = 0;
	struct orxe_tx_hdr h;
	struct orxe_train t;
	struct sk_buff *skb;
	struct rnd_state rnd;
	struct rc_end *end;
	u32 i, segs, bth;

	KUNIT_ASSERT_NOT_NULL(test, page);
	prandom_seed_state(&rnd, 43);
	prandom_bytes_state(&rnd, page_address(page), PAGE_SIZE);
	for (i = 0; i < 64; i++)
		rc_post_recv(test, &p->b, i, (i % 8) * 1024, 1024);

	rx0 = rc_stat(&p->b, OIB_RXE_RX_FRAMES);
	bad0 = rc_stat(&p->b, OIB_RXE_RX_DROP_MALFORMED);
	skb = rc_fuzz_train(test, &rnd, p, src, page_address(page), 5, &p->b);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	bth = ETH_HLEN + (((struct ethhdr *)skb->data)->h_proto == htons(ETH_P_IPV6) ? 40 : 20) + 8;
	skb->data[bth + 1] ^= ORXE_BTH_TVER_MASK;
	oib_rxe_fabric_xmit(src, skb);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_rxe_stat(p->b.dev, 1, OIB_RXE_RX_DROP_MALFORMED,
						       bad0 + 5));
	KUNIT_EXPECT_EQ(test, rc_stat(&p->b, OIB_RXE_RX_FRAMES) - rx0, 5);

	/* packets 1 and 3 to a GID nobody owns: each dropped, whatever the packet before was for */
	rx0 = rc_stat(&p->b, OIB_RXE_RX_FRAMES);
	bad0 = rc_stat(&p->b, OIB_RXE_RX_DROP_DGID);
	oib_rxe_train_init(&t, NULL, 5);
	for (i = 0; i < 5; i++) {
		do {
			end = rc_fuzz_hdr(&rnd, p, src, rc_train_ops, ARRAY_SIZE(rc_train_ops), &h);
		} while (!h.paylen || end != &p->b);
		if (i % 2)
			h.dgid.raw[15] ^= 0x5a;
		KUNIT_EXPECT_TRUE(test, oib_rxe_train_add(&t, &h, page_address(page)));
	}
	oib_rxe_fabric_xmit(src, oib_rxe_train_close(&t));
	KUNIT_EXPECT_TRUE(test,
			  oib_test_wait_rxe_stat(p->b.dev, 1, OIB_RXE_RX_DROP_DGID, bad0 + 2));
	KUNIT_EXPECT_EQ(test, rc_stat(&p->b, OIB_RXE_RX_FRAMES) - rx0, 5);

	rx0 = rc_stat(&p->a, OIB_RXE_RX_FRAMES) + rc_stat(&p->b, OIB_RXE_RX_FRAMES);
	for (i = 0; i < 300; i++) {
		segs = 1 + prandom_u32_state(&rnd) % ORXE_TRAIN_MAX;
		skb = rc_fuzz_train(test, &rnd, p, src, page_address(page), segs, NULL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		if (i % 4 == 3)		/* a random byte of the headers */
			skb->data[prandom_u32_state(&rnd) % skb_headlen(skb)] ^=
				1 + prandom_u32_state(&rnd) % 255;
		else
			clean += segs;
		oib_rxe_fabric_xmit(src, skb);
	}
	/* a train that reached a port is counted there, packet by packet: the unchanged ones */
	rx0 += clean;
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(rc_stat(&p->a, OIB_RXE_RX_FRAMES) +
						  rc_stat(&p->b, OIB_RXE_RX_FRAMES) >= rx0));
	__free_page(page);
	rc_fuzz_after(test, &cfg);
}

/* ---- Runs: a train's write middle packets executed at once (oib_rxe's orxe_port.c) ---- */

#define RC_RUN_PKTS	ORXE_TRAIN_MAX	/* one 64 KiB RDMA WRITE: first, middles, last */
#define RC_RUN_AT	6		/* the packet a case changes */

/* What a case changes in the train, at packet RC_RUN_AT (from it on, for a gap). */
enum rc_run_change {
	RC_RUN_NONE,
	RC_RUN_GAP,		/* a packet lost: the rest out of sequence */
	RC_RUN_DUP,		/* the packet before, again */
	RC_RUN_ACK_REQ,		/* an ACK asked for in the middle */
	RC_RUN_OPCODE,		/* a send's middle packet: invalid in a write */
	RC_RUN_PKEY,		/* another partition */
	RC_RUN_QPN,		/* for no QP */
	RC_RUN_SHORT,		/* a middle packet short of the MTU: invalid */
	RC_RUN_SPORT,		/* only the UDP source port: still valid */
};

struct rc_run_case {
	const char *name;
	enum rc_run_change change;
};

static const struct rc_run_case rc_run_cases[] = {
	{ "whole", RC_RUN_NONE },	{ "gap", RC_RUN_GAP },
	{ "dup", RC_RUN_DUP },		{ "ack_req", RC_RUN_ACK_REQ },
	{ "opcode", RC_RUN_OPCODE },	{ "pkey", RC_RUN_PKEY },
	{ "qpn", RC_RUN_QPN },		{ "short", RC_RUN_SHORT },
	{ "sport", RC_RUN_SPORT },
};

KUNIT_ARRAY_PARAM_DESC(rc_write_runs, rc_run_cases, name);

static void rc_run_change(struct orxe_tx_hdr *h, enum rc_run_change change, u32 i)
{
	if (change == RC_RUN_GAP && i >= RC_RUN_AT)
		h->psn = (h->psn + 1) & ORXE_PSN_MASK;
	if (i != RC_RUN_AT)
		return;
	switch (change) {
	case RC_RUN_DUP:
		h->psn = (h->psn - 1) & ORXE_PSN_MASK;
		break;
	case RC_RUN_ACK_REQ:
		h->ack_req = true;
		break;
	case RC_RUN_OPCODE:
		h->opcode = ORXE_RC_SEND_MIDDLE;
		break;
	case RC_RUN_PKEY:
		h->pkey = 0x7001;
		break;
	case RC_RUN_QPN:
		h->dest_qpn = ORXE_QPN_MASK;
		break;
	case RC_RUN_SHORT:
		h->paylen -= 4;
		break;
	case RC_RUN_SPORT:
		h->udp_sport ^= 1;
		break;
	default:
		break;
	}
}

/* Headers from the fuzz port @src to b's QP, as a's QP would send them. */
static void rc_run_hdr(struct rc_pair *p, struct orxe_fabric_port *src, struct orxe_tx_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->sgid = p->a.gid;
	h->dgid = p->b.gid;
	oib_rxe_fabric_resolve(p->f, &p->b.gid, h->dmac);
	memcpy(h->smac, src->mac, ETH_ALEN);
	h->hop_limit = 64;
	h->pkey = 0xffff;
	h->udp_sport = 0xc000;
	h->dest_qpn = p->b.qp->qp_num;
}

/*
 * Wait until @to's port is done with what @src sent it: a frame left unsealed (its ICRC 0) goes
 * behind, which the port counts as malformed when it gets there.
 */
static void rc_mark(struct kunit *test, struct rc_pair *p, struct rc_end *to,
		    struct orxe_fabric_port *src)
{
	u64 marks = rc_stat(to, OIB_RXE_RX_DROP_MALFORMED) + 1;
	struct orxe_tx_hdr h;
	struct sk_buff *skb;

	rc_run_hdr(p, src, &h);
	h.dgid = to->gid;
	oib_rxe_fabric_resolve(p->f, &to->gid, h.dmac);
	h.dest_qpn = to->qp->qp_num;
	h.opcode = ORXE_RC_SEND_ONLY;
	skb = alloc_skb(256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_frame_build_skb(&h, NULL, skb));
	oib_rxe_fabric_xmit(src, skb);
	KUNIT_ASSERT_TRUE(test, oib_test_wait_rxe_stat(to->dev, 1, OIB_RXE_RX_DROP_MALFORMED,
						       marks));
}

/*
 * One RDMA WRITE of RC_RUN_PKTS packets of a page each (@pages') into b's buffer as one train,
 * changed as @change says; then b's port is waited for (rc_mark()).
 */
static void rc_run_send(struct kunit *test, struct rc_pair *p, struct orxe_fabric_port *src,
			struct page **pages, enum rc_run_change change)
{
	struct orxe_tx_hdr h;
	struct orxe_train t;
	u32 i;

	oib_rxe_train_init(&t, NULL, RC_RUN_PKTS);
	for (i = 0; i < RC_RUN_PKTS; i++) {
		rc_run_hdr(p, src, &h);
		h.opcode = !i ? ORXE_RC_RDMA_WRITE_FIRST : i < RC_RUN_PKTS - 1 ?
			   ORXE_RC_RDMA_WRITE_MIDDLE : ORXE_RC_RDMA_WRITE_LAST;
		h.psn = (p->cfg.psn + i) & ORXE_PSN_MASK;
		h.ack_req = i == RC_RUN_PKTS - 1;
		h.reth.va = (u64)(uintptr_t)p->b.buf;
		h.reth.rkey = p->b.mr->rkey;
		h.reth.len = RC_RUN_PKTS * PAGE_SIZE;
		h.paylen = PAGE_SIZE;
		rc_run_change(&h, change, i);
		KUNIT_ASSERT_TRUE(test, oib_rxe_train_add(&t, &h, page_address(pages[i])));
	}
	oib_rxe_fabric_xmit(src, oib_rxe_train_close(&t));
	rc_mark(test, p, &p->b, src);
}

static void rc_run_restore(void *was)
{
	oib_rxe_set_rx_runs(*(bool *)was);
}

static void rc_run_free_pages(void *pages)
{
	u32 i;

	for (i = 0; i < RC_RUN_PKTS; i++)
		if (((struct page **)pages)[i])
			__free_page(((struct page **)pages)[i]);
}

/*
 * A train's RC write middle packets that repeat the one before but for the PSN are executed as a
 * run; whatever a case changes in the train, b ends as it does with runs off, packet by packet: the
 * same bytes written, the same counters (but the runs'), the same QP state.  A whole write is a run
 * of all its middle packets.
 */
static void rc_write_runs(struct kunit *test)
{
	const struct rc_run_case *c = test->param_value;
	struct rc_cfg cfg = { .psn = 0xfffff8, .mtu = OIB_MTU_4096, .timeout = 8 };
	struct page **pages = kunit_kcalloc(test, RC_RUN_PKTS, sizeof(*pages), GFP_KERNEL);
	u64 stats[2][OIB_RXE_PORT_NSTATS], runs[2];
	enum oib_qp_state state[2];
	struct oib_qp_init_attr init;
	struct oib_qp_attr attr;
	struct orxe_fabric_port *src;
	struct rc_pair *p[2];
	struct rnd_state rnd;
	bool *was = kunit_kzalloc(test, sizeof(*was), GFP_KERNEL);
	u32 i, on, s;

	KUNIT_ASSERT_NOT_NULL(test, pages);
	KUNIT_ASSERT_NOT_NULL(test, was);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rc_run_free_pages, pages));
	prandom_seed_state(&rnd, 44);
	for (i = 0; i < RC_RUN_PKTS; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
		prandom_bytes_state(&rnd, page_address(pages[i]), PAGE_SIZE);
	}
	*was = oib_rxe_set_rx_runs(true);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rc_run_restore, was));

	p[0] = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	p[1] = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	src = rc_fuzz_port(test, p[0]);		/* the pairs share their fabric */
	for (on = 0; on < 2; on++) {
		oib_rxe_set_rx_runs(on);
		for (s = 0; s < OIB_RXE_PORT_NSTATS; s++)
			stats[on][s] = rc_stat(&p[on]->b, s);
		rc_run_send(test, p[on], src, pages, c->change);
		for (s = 0; s < OIB_RXE_PORT_NSTATS; s++)
			stats[on][s] = rc_stat(&p[on]->b, s) - stats[on][s];
		runs[on] = stats[on][OIB_RXE_RX_WRITE_RUNS];
		stats[on][OIB_RXE_RX_WRITE_RUNS] = 0;
		KUNIT_ASSERT_EQ(test, 0, oib_query_qp(p[on]->b.qp, &attr, 0, &init));
		state[on] = attr.qp_state;
	}
	KUNIT_EXPECT_EQ(test, runs[0], 0);
	if (c->change == RC_RUN_NONE)
		KUNIT_EXPECT_EQ(test, runs[1], RC_RUN_PKTS - 2);
	else
		KUNIT_EXPECT_GT(test, runs[1], 0);
	for (s = 0; s < OIB_RXE_PORT_NSTATS; s++)
		KUNIT_EXPECT_EQ_MSG(test, stats[0][s], stats[1][s], "counter %u", s);
	KUNIT_EXPECT_EQ(test, state[0], state[1]);
	KUNIT_EXPECT_EQ(test, 0, memcmp(p[0]->b.buf, p[1]->b.buf, RC_RUN_PKTS * PAGE_SIZE));
	if (c->change == RC_RUN_NONE || c->change == RC_RUN_SPORT)
		for (i = 0; i < RC_RUN_PKTS; i++)
			KUNIT_EXPECT_EQ_MSG(test, 0, memcmp(p[1]->b.buf + i * PAGE_SIZE,
							    page_address(pages[i]), PAGE_SIZE),
					    "packet %u", i);
}

/* ---- An MR deregistered in the middle of a message (struct oib_sw_mr, as oib_rxe uses it) ---- */

#define RC_MID_PKTS	4		/* a message of four 1 KiB packets */
#define RC_MID_PAY	1024
#define RC_MID_LEN	(RC_MID_PKTS * RC_MID_PAY)

/* Which message the MR goes in the middle of. */
enum rc_mid_kind {
	RC_MID_WRITE,		/* an RC write to b, its later packets one by one */
	RC_MID_RUN,		/* the same, its later packets as a train: a run */
	RC_MID_UC,		/* a UC write to b */
	RC_MID_READ,		/* an RC read's responses to a, into a's local MR */
};

struct rc_mid_case {
	const char *name;
	enum rc_mid_kind kind;
};

static const struct rc_mid_case rc_mid_cases[] = {
	{ "rc_write", RC_MID_WRITE }, { "rc_write_run", RC_MID_RUN },
	{ "uc_write", RC_MID_UC },    { "read_responses", RC_MID_READ },
};

KUNIT_ARRAY_PARAM_DESC(rc_dereg_mid_message, rc_mid_cases, name);

/* The opcode of packet @i of the message of @kind. */
static u8 rc_mid_opcode(enum rc_mid_kind kind, u32 i)
{
	static const u8 write[] = { ORXE_RC_RDMA_WRITE_FIRST, ORXE_RC_RDMA_WRITE_MIDDLE,
				    ORXE_RC_RDMA_WRITE_LAST };
	static const u8 read[] = { ORXE_RC_RDMA_READ_RESPONSE_FIRST,
				   ORXE_RC_RDMA_READ_RESPONSE_MIDDLE,
				   ORXE_RC_RDMA_READ_RESPONSE_LAST };
	u32 at = !i ? 0 : i < RC_MID_PKTS - 1 ? 1 : 2;

	if (kind == RC_MID_READ)
		return read[at];
	return kind == RC_MID_UC ? write[at] | 0x20 : write[at];
}

/*
 * Packets [@from, @to) of the message of @kind from @src (a write to b at @va under @rkey, or a
 * read's responses to a), @payload each: one frame each, or (RC_MID_RUN) one train; then the end
 * they went to is waited for.
 */
static void rc_mid_send(struct kunit *test, struct rc_pair *p, struct orxe_fabric_port *src,
			enum rc_mid_kind kind, u64 va, u32 rkey, u32 from, u32 to,
			const u8 *payload)
{
	struct rc_end *dst = kind == RC_MID_READ ? &p->a : &p->b;
	struct orxe_tx_hdr h;
	struct orxe_train t;
	struct sk_buff *skb;
	u32 i;

	oib_rxe_train_init(&t, NULL, RC_MID_PKTS);
	for (i = from; i < to; i++) {
		rc_run_hdr(p, src, &h);
		if (kind == RC_MID_READ) {
			h.sgid = p->b.gid;
			h.dgid = p->a.gid;
			oib_rxe_fabric_resolve(p->f, &p->a.gid, h.dmac);
			h.dest_qpn = p->a.qp->qp_num;
			h.aeth.syndrome = orxe_aeth_syn_ack(ORXE_AETH_NO_CREDITS);
		}
		h.opcode = rc_mid_opcode(kind, i);
		h.psn = (p->cfg.psn + i) & ORXE_PSN_MASK;
		h.ack_req = (kind == RC_MID_WRITE || kind == RC_MID_RUN) &&
			    (!i || i == RC_MID_PKTS - 1);
		h.reth.va = va;
		h.reth.rkey = rkey;
		h.reth.len = RC_MID_LEN;
		h.paylen = RC_MID_PAY;
		if (kind == RC_MID_RUN && from) {
			KUNIT_ASSERT_TRUE(test, oib_rxe_train_add(&t, &h, payload));
			continue;
		}
		skb = alloc_skb(2 * RC_MID_PAY, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		KUNIT_ASSERT_EQ(test, 0, oib_rxe_frame_build_skb(&h, payload, skb));
		oib_rxe_fabric_xmit(src, skb);
	}
	skb = oib_rxe_train_close(&t);
	if (skb)
		oib_rxe_fabric_xmit(src, skb);
	rc_mark(test, p, dst, src);
}

static enum oib_qp_state rc_qp_state(struct kunit *test, struct oib_qp *qp)
{
	struct oib_qp_init_attr init;
	struct oib_qp_attr attr;

	KUNIT_EXPECT_EQ(test, 0, oib_query_qp(qp, &attr, 0, &init));
	return attr.qp_state;
}

static void rc_free_page(void *page)
{
	__free_page(page);
}

/*
 * A message's first packet reaches an MR, the MR is deregistered, then the rest of the message
 * arrives: it must neither be written there nor succeed.  A write to b: RC NAKs it with a remote
 * access error (b's QP in ERR, QP_ACCESS_ERR; a run of its middle packets refused too), UC drops
 * it.  A read's responses to a, into a's local MR: the read completes with LOC_PROT_ERR.  The
 * memory is kept until the rest is in, to see it untouched (a GCC 12 KASAN kernel does not check
 * memcpy(), which the data path copies with), and freed only then.
 */
static void rc_dereg_mid_message(struct kunit *test)
{
	const struct rc_mid_case *c = test->param_value;
	bool read = c->kind == RC_MID_READ, uc = c->kind == RC_MID_UC;
	struct rc_cfg cfg = { .type = uc ? OIB_QPT_UC : OIB_QPT_RC, .timeout = 18 };
	struct page *page = alloc_page(GFP_KERNEL);
	bool *was = kunit_kzalloc(test, sizeof(*was), GFP_KERNEL);
	struct oib_sge sge = { .length = RC_MID_LEN };
	struct oib_send_wr wr = { .wr_id = 1, .opcode = OIB_WR_RDMA_READ,
				  .send_flags = OIB_SEND_SIGNALED, .sg_list = &sge, .num_sge = 1 };
	u64 acks, naks, drops, runs;
	struct orxe_fabric_port *src;
	atomic_t *access_err;
	u32 rkey;
	struct rc_end *e;
	struct rc_pair *p;
	struct oib_mr *mr;
	u8 *buf;

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rc_free_page, page));
	KUNIT_ASSERT_NOT_NULL(test, was);
	get_random_bytes(page_address(page), RC_MID_PAY);
	*was = oib_rxe_set_rx_runs(true);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rc_run_restore, was));

	/* a read's responder says nothing: the test's port answers for it */
	p = rc_pair(test, &cfg, OIB_QPS_RTS, read ? OIB_QPS_INIT : OIB_QPS_RTS);
	e = read ? &p->a : &p->b;
	src = rc_fuzz_port(test, p);
	buf = kunit_kzalloc(test, RC_MID_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	mr = oib_test_kernel_mr(test, e->pd, buf, RC_MID_LEN, RC_ACCESS);
	if (read) {
		sge.addr = (u64)(uintptr_t)buf;
		sge.lkey = mr->lkey;
		wr.wr.rdma.remote_addr = (u64)(uintptr_t)p->b.buf;
		wr.wr.rdma.rkey = p->b.mr->rkey;
		KUNIT_ASSERT_EQ(test, 0, oib_post_send(p->a.qp, &wr, NULL));
	}
	acks = rc_stat(&p->b, OIB_RXE_TX_ACKS);
	naks = rc_stat(&p->b, OIB_RXE_TX_NAKS);
	drops = rc_stat(&p->b, OIB_RXE_RX_DROP_ACCESS);
	runs = rc_stat(&p->b, OIB_RXE_RX_WRITE_RUNS);

	rkey = mr->rkey;
	rc_mid_send(test, p, src, c->kind, (u64)(uintptr_t)buf, rkey, 0, 1, page_address(page));
	KUNIT_ASSERT_EQ(test, 0, memcmp(buf, page_address(page), RC_MID_PAY));
	oib_test_disown(test, mr);
	KUNIT_ASSERT_EQ(test, 0, oib_dereg_mr(mr));
	rc_mid_send(test, p, src, c->kind, (u64)(uintptr_t)buf, rkey, 1, RC_MID_PKTS,
		    page_address(page));
	KUNIT_EXPECT_NULL_MSG(test, memchr_inv(buf + RC_MID_PAY, 0, RC_MID_LEN - RC_MID_PAY),
			      "written after deregistration");
	kunit_kfree(test, buf);

	if (read) {
		rc_expect_wc(test, p->a.scq, 1, OIB_WC_LOC_PROT_ERR, 0, 0);
		KUNIT_EXPECT_EQ(test, rc_qp_state(test, p->a.qp), OIB_QPS_ERR);
		return;
	}
	KUNIT_EXPECT_EQ(test, rc_stat(&p->b, OIB_RXE_RX_WRITE_RUNS) - runs, 0);
	if (uc) {
		KUNIT_EXPECT_EQ(test, rc_stat(&p->b, OIB_RXE_RX_DROP_ACCESS) - drops, 1);
		KUNIT_EXPECT_EQ(test, rc_qp_state(test, p->b.qp), OIB_QPS_RTS);
		return;
	}
	/* the first packet's ACK, then one NAK for the next, nothing for the rest */
	KUNIT_EXPECT_EQ(test, rc_stat(&p->b, OIB_RXE_TX_ACKS) - acks, 1);
	KUNIT_EXPECT_EQ(test, rc_stat(&p->b, OIB_RXE_TX_NAKS) - naks, 1);
	KUNIT_EXPECT_EQ(test, rc_qp_state(test, p->b.qp), OIB_QPS_ERR);
	access_err = &p->b.events[OIB_EVENT_QP_ACCESS_ERR];
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(access_err)));
	KUNIT_EXPECT_EQ(test, atomic_read(access_err), 1);
}

/*
 * An RDMA READ's responses are read from the MR while they are built: b's MR is deregistered
 * from this thread as soon as the first response is out, from another CPU than the responder's
 * (the fabric moves a port a thread sends to off the thread's CPU).  oib_dereg_mr() must not
 * return before the last response is built, and the memory, freed then, is not read again
 * (KASAN).  When the responder has finished before the deregistration starts, the case still
 * holds, and says so.
 */
static void rc_dereg_mid_read_reply(struct kunit *test)
{
	const u32 len = SZ_256K, mtu = 256;
	struct rc_cfg cfg = { .mtu = OIB_MTU_256, .timeout = 18 };
	static u8 none[1];
	struct orxe_fabric_port *src;
	unsigned long deadline;
	struct orxe_tx_hdr h;
	struct sk_buff *skb;
	u64 tx0, at, done;
	struct rc_pair *p;
	struct oib_mr *mr;
	u8 *buf;

	p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	src = rc_fuzz_port(test, p);
	buf = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	mr = oib_test_kernel_mr(test, p->b.pd, buf, len, RC_ACCESS);

	rc_run_hdr(p, src, &h);
	h.opcode = ORXE_RC_RDMA_READ_REQUEST;
	h.psn = p->cfg.psn;
	h.reth.va = (u64)(uintptr_t)buf;
	h.reth.rkey = mr->rkey;
	h.reth.len = len;
	skb = alloc_skb(256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_frame_build_skb(&h, none, skb));
	tx0 = rc_stat(&p->b, OIB_RXE_TX_FRAMES);
	oib_rxe_fabric_xmit(src, skb);
	deadline = jiffies + msecs_to_jiffies(OIB_TEST_WAIT_MS);
	while (rc_stat(&p->b, OIB_RXE_TX_FRAMES) == tx0 && time_before(jiffies, deadline))
		cpu_relax();
	at = rc_stat(&p->b, OIB_RXE_TX_FRAMES) - tx0;
	KUNIT_ASSERT_GT(test, at, 0);

	oib_test_disown(test, mr);
	KUNIT_ASSERT_EQ(test, 0, oib_dereg_mr(mr));
	done = rc_stat(&p->b, OIB_RXE_TX_FRAMES) - tx0;
	kunit_kfree(test, buf);
	kunit_info(test, "deregistration began after %llu of %u responses", at, len / mtu);
	KUNIT_EXPECT_EQ(test, done, len / mtu);
	KUNIT_EXPECT_EQ(test, rc_qp_state(test, p->b.qp), OIB_QPS_RTS);
}

static int rc_client_add(struct oib_device *device)
{
	return 0;
}

/* As a ULP does when its device goes: destroy what it made there, traffic in flight or not. */
static void rc_client_remove(struct oib_device *device, void *data)
{
	struct rc_end *e = data;

	if (!e)
		return;
	oib_destroy_qp(e->qp);
	oib_dereg_mr(e->mr);
	oib_destroy_cq(e->scq);
	oib_destroy_cq(e->rcq);
	oib_dealloc_pd(e->pd);
}

static struct oib_client rc_client = {
	.name = "oib_rc_test",
	.add = rc_client_add,
	.remove = rc_client_remove,
};

/*
 * Remove both devices with requests in flight on a slow fabric and QPs in every state, their
 * objects destroyed by a client's remove callback: nothing hangs and nothing leaks (kmemleak
 * checks after the run).
 */
static void rc_remove_busy(struct kunit *test)
{
	static const enum oib_qp_state states[] = { OIB_QPS_RESET, OIB_QPS_INIT, OIB_QPS_RTR,
						    OIB_QPS_RTS, OIB_QPS_SQD, OIB_QPS_ERR };
	struct orxe_fault_cfg slow = { .delay_ppm = 500000, .delay_us = 20000, .dup_ppm = 100000 };
	struct rc_cfg cfg = {};
	struct rc_pair *p;
	int i, j;

	oib_test_client(test, &rc_client);
	for (i = 0; i < ARRAY_SIZE(states); i++) {
		enum oib_qp_state s = states[i] == OIB_QPS_SQD || states[i] == OIB_QPS_ERR ?
				      OIB_QPS_RTS : states[i];

		p = rc_pair_of(test, &cfg, s, OIB_QPS_RTS, false);
		KUNIT_ASSERT_EQ(test, 0, oib_set_client_data(p->a.dev, &rc_client, &p->a));
		KUNIT_ASSERT_EQ(test, 0, oib_set_client_data(p->b.dev, &rc_client, &p->b));
		KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(p->f, NULL, &slow));
		for (j = 0; j < 8; j++)
			rc_post_recv(test, &p->b, j, j * 8192, 8192);
		for (j = 0; j < 16 && s >= OIB_QPS_RTR; j++)
			KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, j % 2 ? OIB_WR_SEND :
							 OIB_WR_RDMA_READ, j, 0, 5000, 0));
		if (states[i] == OIB_QPS_SQD || states[i] == OIB_QPS_ERR) {
			struct oib_qp_attr attr = { .qp_state = states[i] };

			KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(p->a.qp, &attr, OIB_QP_STATE));
		}
		/* a sending: b has seen some of it, the fabric delays the rest */
		if (s == OIB_QPS_RTS)
			KUNIT_EXPECT_TRUE(test, oib_test_wait_rxe_stat(p->b.dev, 1,
								       OIB_RXE_RX_FRAMES, 1));
		oib_test_rxe_remove(test, p->a.dev);
		oib_test_rxe_remove(test, p->b.dev);
	}
}

/*
 * A WRITE and a READ behind it, the WRITE's ACK and the READ's response lost: the requester sends
 * both again, and the responder acknowledges the duplicate WRITE with the WRITE's PSN, never the
 * READ's (requesters such as the in-tree rxe take an ACK for a read's PSN as its completion, data
 * or not).  Then the READ's answer completes it with the bytes.  The ACK timeout is the pair's
 * default (67 ms, 7 retries): with 1 ms (timeout 8) the retries ran out whenever the guest's vCPUs
 * were descheduled for 8 ms, as on a loaded host, and the WRITE failed with RETRY_EXC_ERR.
 */
static void rc_dup_ack_psn(struct kunit *test)
{
	struct rc_cfg cfg = {};
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	struct orxe_fault_rule ack = { .action = ORXE_FAULT_DROP, .opcode = ORXE_RC_ACKNOWLEDGE,
				      .qpn = ORXE_FAULT_ANY, .count = 1 };
	struct orxe_fault_rule resp = { .action = ORXE_FAULT_DROP,
				       .opcode = ORXE_RC_RDMA_READ_RESPONSE_ONLY,
				       .qpn = ORXE_FAULT_ANY, .count = 1 };
	size_t size = 64 * 1024, off, len;
	u32 read_psn = ~0U, acks = 0, writes = 0;
	struct orxe_pkt pkt;
	loff_t pos = 0;
	ssize_t got;
	u8 *pcap;

	pcap = oib_test_vzalloc(test, size);
	oib_test_capture_start(test, p->f, size);
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_add_rule(p->f, &ack));
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_add_rule(p->f, &resp));
	rc_fill(p->a.buf, 64, 7);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_RDMA_WRITE, 1, 0, 64, 128));
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_RDMA_READ, 2, 256, 64, 128));
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_SUCCESS, OIB_WC_RDMA_WRITE, 64);
	rc_expect_wc(test, p->a.scq, 2, OIB_WC_SUCCESS, OIB_WC_RDMA_READ, 64);
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->a.buf, p->a.buf + 256, 64));
	oib_rxe_fabric_capture_stop(p->f);

	got = oib_rxe_fabric_capture_read(p->f, pcap, size, &pos);
	KUNIT_ASSERT_GT(test, got, 24);
	len = got;
	for (off = 24; off + 16 <= len; off += 16 + *(u32 *)(pcap + off + 8)) {
		KUNIT_ASSERT_EQ(test, 0, oib_rxe_pkt_parse(pcap + off + 16,
							   *(u32 *)(pcap + off + 8), &pkt));
		if (pkt.opcode == ORXE_RC_RDMA_READ_REQUEST)
			read_psn = pkt.psn;
		writes += pkt.opcode == ORXE_RC_RDMA_WRITE_ONLY;
		if (pkt.opcode != ORXE_RC_ACKNOWLEDGE)
			continue;
		acks++;
		KUNIT_EXPECT_NE_MSG(test, pkt.psn, read_psn, "an ACK names the READ's PSN");
	}
	/*
	 * A capture holds what was not dropped.  The WRITE went again after the timeout, asking
	 * for an ACK, as often as the timer fired; the first WRITE asked for one only if the READ
	 * was not queued behind it yet, and the first ACK, whichever it answered, was dropped.  So
	 * every captured ACK answers a duplicate WRITE, and there is at least one.
	 */
	KUNIT_EXPECT_GE(test, writes, 2);
	KUNIT_EXPECT_GE(test, acks, 1);
	KUNIT_EXPECT_LE(test, acks, writes - 1);
}

/*
 * A capture of every kind of RC packet (sends, writes, reads, atomics, ACKs, a sequence NAK and
 * the retransmission it causes, RNR NAKs): each captured frame parses as the opcode it should, and
 * the capture goes to the console, where make check pulls it out and has tshark decode it.
 */
static void rc_capture(struct kunit *test)
{
	struct rc_cfg cfg = { .mtu = OIB_MTU_256, .min_rnr_timer = 10 };
	struct rc_pair *p = rc_pair(test, &cfg, OIB_QPS_RTS, OIB_QPS_RTS);
	struct orxe_fault_rule drop = { .action = ORXE_FAULT_DROP, .opcode = ORXE_RC_SEND_MIDDLE,
				       .qpn = ORXE_FAULT_ANY, .count = 1 };
	size_t size = 256 * 1024, len, off;
	ssize_t got;
	DECLARE_BITMAP(seen, 256) = {};
	static const u8 want[] = {
		ORXE_RC_SEND_FIRST, ORXE_RC_SEND_MIDDLE, ORXE_RC_SEND_LAST, ORXE_RC_SEND_ONLY,
		ORXE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, ORXE_RC_RDMA_READ_REQUEST,
		ORXE_RC_RDMA_READ_RESPONSE_FIRST, ORXE_RC_RDMA_READ_RESPONSE_LAST,
		ORXE_RC_ACKNOWLEDGE, ORXE_RC_ATOMIC_ACKNOWLEDGE, ORXE_RC_FETCH_ADD,
	};
	loff_t pos = 0;
	struct orxe_pkt pkt;
	u8 *pcap;
	int i;

	pcap = oib_test_vzalloc(test, size);
	oib_test_capture_start(test, p->f, size);

	/* an RNR NAK first: no receive yet */
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 1, 0, 100, 0));
	KUNIT_ASSERT_TRUE(test, oib_test_wait_rxe_stat(p->a.dev, 1, OIB_RXE_RX_RNR_NAKS, 1));
	rc_post_recv(test, &p->b, 1, 0, 4096);
	rc_expect_wc(test, p->a.scq, 1, OIB_WC_SUCCESS, OIB_WC_SEND, 100);
	/* a lost middle packet: a sequence NAK, and the rest sent again */
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_add_rule(p->f, &drop));
	rc_post_recv(test, &p->b, 2, 0, 4096);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_SEND, 2, 0, 1000, 0));
	rc_expect_wc(test, p->a.scq, 2, OIB_WC_SUCCESS, OIB_WC_SEND, 1000);
	rc_post_recv(test, &p->b, 3, 0, 4096);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_RDMA_WRITE_WITH_IMM, 3, 0, 64, 0));
	rc_expect_wc(test, p->a.scq, 3, OIB_WC_SUCCESS, OIB_WC_RDMA_WRITE, 64);
	KUNIT_ASSERT_EQ(test, 0, rc_post(&p->a, &p->b, OIB_WR_RDMA_READ, 4, 0, 600, 0));
	rc_expect_wc(test, p->a.scq, 4, OIB_WC_SUCCESS, OIB_WC_RDMA_READ, 600);
	KUNIT_ASSERT_EQ(test, 0, rc_atomic(&p->a, &p->b, OIB_WR_ATOMIC_FETCH_AND_ADD, 5, 64, 1, 0));
	rc_expect_wc(test, p->a.scq, 5, OIB_WC_SUCCESS, OIB_WC_FETCH_ADD, 8);
	/* Frames are captured as sent: each one looked for below came before a completion. */
	oib_rxe_fabric_capture_stop(p->f);

	got = oib_rxe_fabric_capture_read(p->f, pcap, size, &pos);
	KUNIT_ASSERT_GT(test, got, 24);
	len = got;
	KUNIT_EXPECT_EQ(test, *(u32 *)pcap, 0xa1b2c3d4);
	for (off = 24; off + 16 <= len; ) {
		u32 caplen = *(u32 *)(pcap + off + 8);

		KUNIT_ASSERT_LE(test, off + 16 + caplen, len);
		KUNIT_ASSERT_EQ(test, 0, oib_rxe_pkt_parse(pcap + off + 16, caplen, &pkt));
		__set_bit(pkt.opcode, seen);
		if (pkt.opcode == ORXE_RC_ACKNOWLEDGE)
			__set_bit(256 - 1 - (orxe_aeth_syndrome(pkt.aeth) >> 5), seen);
		off += 16 + caplen;
	}
	KUNIT_EXPECT_EQ(test, off, len);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_TRUE_MSG(test, test_bit(want[i], seen), "no %s in the capture",
				      oib_rxe_opcode(want[i])->name);
	KUNIT_EXPECT_TRUE_MSG(test, test_bit(255 - 1, seen), "no RNR NAK in the capture");
	KUNIT_EXPECT_TRUE_MSG(test, test_bit(255 - 3, seen), "no NAK in the capture");
	oib_test_pcap_print(RC_FABRIC, pcap, len);
}

static struct kunit_case rc_cases[] = {
	KUNIT_CASE(rc_send_sizes),
	KUNIT_CASE(rc_send_sgl),
	KUNIT_CASE(rc_write_read),
	KUNIT_CASE(rc_ipv4),
	KUNIT_CASE(rc_srq_solicited),
	KUNIT_CASE(rc_read_many),
	KUNIT_CASE(rc_atomics),
	KUNIT_CASE(rc_invalidate_refused),
	KUNIT_CASE(rc_errors),
	KUNIT_CASE(rc_retry_exhausted),
	KUNIT_CASE(rc_dup_ack_psn),
	KUNIT_CASE(rc_rnr_late_recv),
	KUNIT_CASE(rc_rnr_no_retry),
	KUNIT_CASE(rc_rtr),
	KUNIT_CASE(rc_qp_watch),
	KUNIT_CASE(rc_qp_watch_gone_qp),
	KUNIT_CASE_PARAM_ATTR(rc_loss, rc_loss_gen_params, { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(rc_capture),
	KUNIT_CASE(rc_fuzz),
	KUNIT_CASE(rc_fuzz_trains),
	KUNIT_CASE_PARAM(rc_write_runs, rc_write_runs_gen_params),
	KUNIT_CASE_PARAM(rc_dereg_mid_message, rc_dereg_mid_message_gen_params),
	KUNIT_CASE(rc_dereg_mid_read_reply),
	KUNIT_CASE_SLOW(rc_remove_busy),
	{}
};

static struct kunit_suite rc_suite = {
	.name = "oib_rxe_rc",
	.test_cases = rc_cases,
};

kunit_test_suite(rc_suite);

MODULE_DESCRIPTION("oib_rxe RC and UC transport tests");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
