// SPDX-License-Identifier: GPL-2.0-only
/*
 * XRC between two oib_rxe devices over a private fabric: an initiator on one, a target QP (an
 * owner's, or a kernel-owned receive QP of the domain) and XRC SRQs on the other.  Messages are
 * steered to the SRQ each names, with its data checked on its CQ; RDMA WRITE, READ and atomics
 * go through the SRQ's PD, and an MR of that PD deregistered in the middle of a write fails the
 * rest of it; a message for an SRQ of another domain, or none, is NAKed and counted;
 * loss, duplication and reordering deliver exactly once, in order per SRQ; the creator of a
 * kernel-owned receive QP goes while traffic goes on; the domain's last put destroys it, and the
 * initiator then fails with RETRY_EXC_ERR; a capture for tshark; a seeded fuzz of XRC frames.
 */
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/sizes.h>
#include <linux/skbuff.h>
#include <oib/provider.h>
#include "oib_toolkit.h"
#include <oib/kunit/rxe.h>
#include "mem_oracle.h"
#include "xrc_pair.h"

/* Sends to every SRQ behind one target QP land on that SRQ's CQ, whole, in order. */
static void xrc_many_srqs(struct kunit *test, bool owned)
{
	static const u32 lens[] = { 0, 1, 1024, 3000 };
	struct xrc_pair *p = xrc_pair(test, owned, 0, 0);
	struct oib_wc wc;
	u32 n, k, len, id;

	for (k = 0; k < ARRAY_SIZE(lens); k++) {
		for (n = 0; n < XRC_NSRQ; n++) {
			id = k * XRC_NSRQ + n;
			len = lens[k];
			xrc_fill(p->i.buf + id * 4096, len, id);
			xrc_post_recv(test, &p->t, p->t.srq[n], id, id * 4096, 4096);
			KUNIT_ASSERT_EQ(test, 0, xrc_post(p, k & 1 ? OIB_WR_SEND_WITH_IMM :
							 OIB_WR_SEND, p->t.srq[n]->srq_num, id,
							 id * 4096, len, 0));
		}
	}
	for (k = 0; k < ARRAY_SIZE(lens) * XRC_NSRQ; k++)
		xrc_expect_wc(test, p->i.cq, k, OIB_WC_SUCCESS, OIB_WC_SEND, lens[k / XRC_NSRQ]);
	for (k = 0; k < ARRAY_SIZE(lens); k++) {
		for (n = 0; n < XRC_NSRQ; n++) {
			id = k * XRC_NSRQ + n;
			KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(p->t.cq[n], &wc, 1));
			KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
			KUNIT_EXPECT_EQ(test, wc.wr_id, id);
			KUNIT_EXPECT_EQ(test, wc.byte_len, lens[k]);
			KUNIT_EXPECT_EQ(test, wc.qp_num, p->t.qpn);
			KUNIT_EXPECT_EQ(test, !!(wc.wc_flags & OIB_WC_WITH_IMM), k & 1);
			KUNIT_EXPECT_EQ(test, 0, memcmp(p->t.buf + id * 4096, p->i.buf + id * 4096,
							lens[k]));
		}
	}
	for (n = 0; n < XRC_NSRQ; n++)
		KUNIT_EXPECT_EQ(test, 0, oib_poll_cq(p->t.cq[n], 1, &wc));
	KUNIT_EXPECT_EQ(test, 0, xrc_stat(p->t.dev, OIB_RXE_RX_DROP_XRC));
}

static void xrc_many_srqs_owned(struct kunit *test)
{
	xrc_many_srqs(test, true);
}

static void xrc_many_srqs_kernel(struct kunit *test)
{
	xrc_many_srqs(test, false);
}

/* WRITE (with immediate: a receive of the named SRQ), READ, and both atomics. */
static void xrc_rdma_atomics(struct kunit *test)
{
	struct xrc_pair *p = xrc_pair(test, false, 0, 0);
	u32 srqn = p->t.srq[3]->srq_num, len = 5000;
	u64 *remote = (u64 *)(p->t.buf + 64 * 1024), *local = (u64 *)(p->i.buf + 128 * 1024);

	xrc_fill(p->i.buf, len, 1);
	KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_RDMA_WRITE, srqn, 1, 0, len, 8192));
	xrc_expect_wc(test, p->i.cq, 1, OIB_WC_SUCCESS, OIB_WC_RDMA_WRITE, len);
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->t.buf + 8192, p->i.buf, len));

	xrc_post_recv(test, &p->t, p->t.srq[3], 7, 0, 64);
	KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_RDMA_WRITE_WITH_IMM, srqn, 2, 0, 100, 20000));
	xrc_expect_wc(test, p->i.cq, 2, OIB_WC_SUCCESS, OIB_WC_RDMA_WRITE, 100);
	xrc_expect_wc(test, p->t.cq[3], 7, OIB_WC_SUCCESS, OIB_WC_RECV_RDMA_WITH_IMM, 100);

	xrc_fill(p->t.buf + 32768, len, 2);
	KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_RDMA_READ, srqn, 3, 65536, len, 32768));
	xrc_expect_wc(test, p->i.cq, 3, OIB_WC_SUCCESS, OIB_WC_RDMA_READ, len);
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->t.buf + 32768, p->i.buf + 65536, len));

	*remote = 40;
	KUNIT_ASSERT_EQ(test, 0, xrc_atomic(p, OIB_WR_ATOMIC_FETCH_AND_ADD, srqn, 4,
					    128 * 1024, 64 * 1024, 2, 0));
	xrc_expect_wc(test, p->i.cq, 4, OIB_WC_SUCCESS, OIB_WC_FETCH_ADD, 8);
	KUNIT_EXPECT_EQ(test, *local, 40ull);
	KUNIT_ASSERT_EQ(test, 0, xrc_atomic(p, OIB_WR_ATOMIC_CMP_AND_SWP, srqn, 5,
					    128 * 1024, 64 * 1024, 42, 99));
	xrc_expect_wc(test, p->i.cq, 5, OIB_WC_SUCCESS, OIB_WC_COMP_SWAP, 8);
	KUNIT_EXPECT_EQ(test, *local, 42ull);
	KUNIT_EXPECT_EQ(test, *remote, 99ull);
}

/*
 * A message for an SRQ of another domain is a remote access error, one for no SRQ an invalid
 * request: NAKed, counted, and (as RC) the target goes to ERR with its event.
 */
static void xrc_refused(struct kunit *test, bool other_domain)
{
	struct xrc_pair *p = xrc_pair(test, true, 0, 0);
	u32 srqn = other_domain ? p->t.other_srq->srq_num : 0xfffff0;
	atomic_t *err_events = &p->t.events[other_domain ? OIB_EVENT_QP_ACCESS_ERR :
					     OIB_EVENT_QP_REQ_ERR];
	struct oib_wc wc;

	xrc_post_recv(test, &p->t, p->t.other_srq, 1, 0, 64);
	KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_SEND, srqn, 1, 0, 10, 0));
	xrc_expect_wc(test, p->i.cq, 1, other_domain ? OIB_WC_REM_ACCESS_ERR :
		      OIB_WC_REM_INV_REQ_ERR, OIB_WC_SEND, 0);
	KUNIT_EXPECT_EQ(test, 1, xrc_stat(p->t.dev, OIB_RXE_RX_DROP_XRC));
	KUNIT_EXPECT_EQ(test, 1, xrc_stat(p->t.dev, OIB_RXE_TX_NAKS));
	KUNIT_EXPECT_EQ(test, 0, oib_poll_cq(p->t.other_cq, 1, &wc));
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(READ_ONCE(p->t.qp->state) == OIB_QPS_ERR));
	/* the event follows the state, once the target's locks are let go */
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(err_events)));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(err_events));
}

static void xrc_refused_other_domain(struct kunit *test)
{
	xrc_refused(test, true);
}

static void xrc_refused_no_srq(struct kunit *test)
{
	xrc_refused(test, false);
}

/* An R_Key of a PD other than the SRQ's does not open the target's memory. */
static void xrc_rkey_other_pd(struct kunit *test)
{
	struct xrc_pair *p = xrc_pair(test, true, 0, 0);
	struct oib_pd *pd2 = oib_test_pd(test, p->t.dev);
	u8 *buf2 = oib_test_vzalloc(test, 4096);
	struct oib_mr *mr2 = oib_test_kernel_mr(test, pd2, buf2, 4096, XRC_ACCESS);
	struct oib_sge sge = xrc_sge(p->i.mr, p->i.buf, 0, 16);
	struct oib_send_wr wr = {
		.wr_id = 9, .opcode = OIB_WR_RDMA_WRITE, .send_flags = OIB_SEND_SIGNALED,
		.sg_list = &sge, .num_sge = 1, .xrc_remote_srq_num = p->t.srq[0]->srq_num,
		.wr.rdma = { .remote_addr = (u64)(uintptr_t)buf2, .rkey = mr2->rkey },
	};

	KUNIT_ASSERT_EQ(test, 0, oib_post_send(p->i.qp, &wr, NULL));
	xrc_expect_wc(test, p->i.cq, 9, OIB_WC_REM_ACCESS_ERR, OIB_WC_RDMA_WRITE, 0);
	KUNIT_EXPECT_EQ(test, 0, xrc_stat(p->t.dev, OIB_RXE_RX_DROP_XRC));
}

/*
 * @reads: every fourth request a read.  Not at 30%: a read's response packets are recovered by
 * the ACK timer alone, and 8 tries in a row that lose the request or its next response (about
 * 0.5^8 at 30% loss, for each of the ~70 response packets) make RETRY_EXC_ERR likely, which is
 * RC's right answer to such a path, not a failure of the transport.
 */
struct xrc_loss_case {
	const char *name;
	u32 drop_ppm, dup_ppm, reorder_ppm;
	u64 seed;
	bool reads;
};

static const struct xrc_loss_case xrc_loss_cases[] = {
	{ "drop_1pct", 10000, 10000, 10000, 11, true },
	{ "drop_10pct", 100000, 20000, 50000, 12, true },
	{ "drop_30pct", 300000, 50000, 50000, 13, false },
};

KUNIT_ARRAY_PARAM_DESC(xrc_loss, xrc_loss_cases, name);

#define XRC_LOSS_MSGS	96

static bool xrc_loss_read(const struct xrc_loss_case *c, u32 i)
{
	return c->reads && i % 4 == 3;
}

#define XRC_LOSS_MAX	2500

/*
 * Sends, writes with immediate and reads of 1 to 3 packets for four SRQs over a lossy fabric:
 * every message is delivered exactly once, to its SRQ, in order there, intact.
 */
static void xrc_loss(struct kunit *test)
{
	const struct xrc_loss_case *c = test->param_value;
	struct xrc_pair *p = xrc_pair(test, false, 0, 0);
	struct orxe_fault_cfg faults = { .drop_ppm = c->drop_ppm, .dup_ppm = c->dup_ppm,
					.reorder_ppm = c->reorder_ppm };
	u32 i, n, len, next[4] = {}, off;
	struct oib_wc *wc = kunit_kcalloc(test, XRC_LOSS_MSGS, sizeof(*wc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, wc);
	kunit_info(test, "fabric seed %llu\n", c->seed);
	oib_rxe_fabric_set_seed(p->f, c->seed);
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(p->f, NULL, &faults));
	for (i = 0; i < XRC_LOSS_MSGS; i++) {
		len = 1 + (i * 997) % XRC_LOSS_MAX;
		off = i * XRC_LOSS_MAX;
		xrc_fill(p->i.buf + off, len, i);
		if (xrc_loss_read(c, i))	/* a read brings back what the target holds */
			xrc_fill(p->t.buf + off, len, i);
		else
			xrc_post_recv(test, &p->t, p->t.srq[i % 4], i, off, XRC_LOSS_MAX);
	}
	for (i = 0; i < XRC_LOSS_MSGS; i++) {
		len = 1 + (i * 997) % XRC_LOSS_MAX;
		off = i * XRC_LOSS_MAX;
		KUNIT_ASSERT_EQ(test, 0, xrc_post(p, xrc_loss_read(c, i) ? OIB_WR_RDMA_READ :
						  i % 4 == 2 ? OIB_WR_RDMA_WRITE_WITH_IMM :
						  OIB_WR_SEND, p->t.srq[i % 4]->srq_num, i,
						  xrc_loss_read(c, i) ? XRC_BUF / 2 + off : off,
						  len, off));
	}
	n = oib_test_poll_cq_ms(p->i.cq, wc, XRC_LOSS_MSGS, 90000);
	kunit_info(test, "retransmits %llu timeouts %llu naks %llu/%llu drop_seq %llu dups %llu drop_resp %llu\n",
		   xrc_stat(p->i.dev, OIB_RXE_TX_RETRANSMITS),
		   xrc_stat(p->i.dev, OIB_RXE_TX_TIMEOUTS), xrc_stat(p->i.dev, OIB_RXE_RX_NAKS),
		   xrc_stat(p->t.dev, OIB_RXE_TX_NAKS), xrc_stat(p->t.dev, OIB_RXE_RX_DROP_SEQ),
		   xrc_stat(p->t.dev, OIB_RXE_RX_DUPLICATES),
		   xrc_stat(p->i.dev, OIB_RXE_RX_DROP_RESP));
	KUNIT_ASSERT_EQ(test, n, XRC_LOSS_MSGS);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, i);
		KUNIT_EXPECT_EQ_MSG(test, wc[i].status, OIB_WC_SUCCESS, "request %u: %s", i,
				    oib_wc_status_msg(wc[i].status));
		off = i * XRC_LOSS_MAX;
		if (xrc_loss_read(c, i))
			KUNIT_EXPECT_EQ_MSG(test, 0, memcmp(p->i.buf + XRC_BUF / 2 + off,
							    p->t.buf + off,
							    1 + (i * 997) % XRC_LOSS_MAX),
					    "read %u", i);
	}
	/* each SRQ got its messages, once each, in order; with reads SRQ 3 only served those */
	for (i = 0; i < 4; i++) {
		for (next[i] = 0; !xrc_loss_read(c, i) && next[i] < XRC_LOSS_MSGS / 4; next[i]++) {
			u32 msg = 4 * next[i] + i;

			KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(p->t.cq[i], wc, 1));
			KUNIT_EXPECT_EQ(test, wc->status, OIB_WC_SUCCESS);
			KUNIT_EXPECT_EQ(test, wc->wr_id, msg);
			len = 1 + (msg * 997) % XRC_LOSS_MAX;
			KUNIT_EXPECT_EQ(test, wc->byte_len, len);
			off = msg * XRC_LOSS_MAX;
			KUNIT_EXPECT_EQ_MSG(test, 0, memcmp(p->t.buf + off, p->i.buf + off, len),
					    "message %u", msg);
		}
		KUNIT_EXPECT_EQ(test, 0, oib_poll_cq(p->t.cq[i], 1, wc));
	}
	KUNIT_EXPECT_GT(test, xrc_stat(p->i.dev, OIB_RXE_TX_RETRANSMITS), 0);
}

/* ---- The kernel-owned receive QP's lifetime ---- */

/*
 * The creator of a receive QP, as a process would be: a client that holds the domain, makes the
 * QP on the target device and publishes its number; it drops its hold when it goes.
 */
static struct xrc_creator {
	struct oib_client client;
	struct xrc_pair *p;
	struct oib_test_path path;
	u32 qpn;
	int ret;
} xrc_creator;

static int xrc_creator_add(struct oib_device *device)
{
	struct xrc_creator *c = &xrc_creator;
	struct oib_qp_attr attr;
	int mask;

	if (device != c->p->t.dev)
		return -EOPNOTSUPP;
	oib_xrcd_get(c->p->t.xrcd);
	mask = xrc_rcv_attr(&c->path, &attr);
	c->ret = oib_create_xrc_rcv_qp(c->p->t.xrcd, &attr, mask, &c->qpn);
	return 0;
}

static void xrc_creator_remove(struct oib_device *device, void *data)
{
	WARN_ON(oib_xrcd_put(xrc_creator.p->t.xrcd));
}

static void xrc_creator_goes(struct kunit *test)
{
	struct xrc_pair *p = xrc_pair(test, true, 0, 0);	/* an owned target, left behind */
	struct oib_qp_attr reset = { .qp_state = OIB_QPS_RESET };
	struct xrc_creator *c = &xrc_creator;

	c->client = (struct oib_client){ .name = "oib_xrc_test_creator",
					 .add = xrc_creator_add, .remove = xrc_creator_remove };
	c->p = p;
	c->path = p->tpath;
	c->ret = -EINVAL;
	oib_test_client(test, &c->client);
	KUNIT_ASSERT_EQ(test, 0, c->ret);
	/* the initiator, moved over to the creator's receive QP */
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(p->i.qp, &reset, OIB_QP_STATE));
	p->ipath.dest_qpn = c->qpn;
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to_path(p->i.qp, OIB_QPS_RTS, &p->ipath));
	p->t.qpn = c->qpn;

	xrc_traffic(test, p, 1, 0, 20);
	kunit_release_action(test, oib_test_client_release, &c->client);	/* it goes */
	xrc_traffic(test, p, 2, 20, 20);
	KUNIT_EXPECT_EQ(test, 0, oib_reg_xrc_rcv_qp(p->t.xrcd, c->qpn));
	KUNIT_EXPECT_EQ(test, 0, oib_unreg_xrc_rcv_qp(p->t.xrcd, c->qpn));
	xrc_traffic(test, p, 1, 40, 20);
	/* a receive QP's events are logged and counted: COMM_EST, once */
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->t.xrcd->rcv_events));
}

/*
 * The domain's last put destroys its receive QP; the initiator's next request then goes
 * unanswered and fails with RETRY_EXC_ERR, as the 2007 design says.
 */
static void xrc_last_put(struct kunit *test)
{
	struct xrc_pair *p = xrc_pair(test, false, 14, 7);	/* 67 ms, 7 retries */
	int qps = oib_object_count(p->t.dev, OIB_OBJ_QP), n;

	xrc_traffic(test, p, 0, 0, 10);
	for (n = 0; n < XRC_NSRQ; n++) {
		KUNIT_ASSERT_EQ(test, 0, oib_destroy_srq(p->t.srq[n]));
		oib_test_disown(test, p->t.srq[n]);
	}
	oib_test_disown(test, p->t.xrcd);
	KUNIT_ASSERT_EQ(test, 0, oib_dealloc_xrcd(p->t.xrcd));
	KUNIT_EXPECT_EQ(test, qps - 1, oib_object_count(p->t.dev, OIB_OBJ_QP));

	KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_SEND, 1, 99, 0, 10, 0));
	xrc_expect_wc(test, p->i.cq, 99, OIB_WC_RETRY_EXC_ERR, OIB_WC_SEND, 0);
	KUNIT_EXPECT_GE(test, xrc_stat(p->t.dev, OIB_RXE_RX_DROP_NO_QP), 3);
}

/* A receive QP in ERR answers nothing: a second initiator's requests end with RETRY_EXC_ERR. */
static void xrc_rcv_error(struct kunit *test)
{
	struct xrc_pair *p = xrc_pair(test, false, 14, 7);
	struct oib_qp_init_attr ia = {
		.qp_type = OIB_QPT_XRC_INI, .send_cq = p->i.cq, .sq_sig_type = OIB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = 4, .max_send_sge = 1 },
	};
	struct oib_qp *qp2 = oib_test_qp_attr(test, p->i.pd, &ia);
	struct oib_sge sge = xrc_sge(p->i.mr, p->i.buf, 0, 8);
	struct oib_send_wr wr = { .wr_id = 5, .opcode = OIB_WR_SEND, .sg_list = &sge,
				  .num_sge = 1, .xrc_remote_srq_num = p->t.srq[0]->srq_num };

	KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_SEND, p->t.other_srq->srq_num, 1, 0, 8, 0));
	xrc_expect_wc(test, p->i.cq, 1, OIB_WC_REM_ACCESS_ERR, OIB_WC_SEND, 0);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(&p->t.xrcd->rcv_events) >= 2));

	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to_path(qp2, OIB_QPS_RTS, &p->ipath));
	xrc_post_recv(test, &p->t, p->t.srq[0], 5, 0, 64);
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(qp2, &wr, NULL));
	xrc_expect_wc(test, p->i.cq, 5, OIB_WC_RETRY_EXC_ERR, OIB_WC_SEND, 0);
	KUNIT_EXPECT_GE(test, xrc_stat(p->t.dev, OIB_RXE_RX_DROP_QP_STATE), 3);
}

/* ---- The wire ---- */

/*
 * A capture of XRC traffic: every request carries the XRCETH naming its SRQ, every answer is the
 * XRC opcode; make check has tshark decode it as InfiniBand XRC.
 */
static void xrc_capture(struct kunit *test)
{
	struct xrc_pair *p = xrc_pair(test, true, 0, 0);
	static const u8 want[] = {
		ORXE_XRC_SEND_FIRST, ORXE_XRC_SEND_LAST_WITH_IMMEDIATE, ORXE_XRC_SEND_ONLY,
		ORXE_XRC_RDMA_WRITE_ONLY, ORXE_XRC_RDMA_READ_REQUEST,
		ORXE_XRC_RDMA_READ_RESPONSE_ONLY, ORXE_XRC_ACKNOWLEDGE, ORXE_XRC_FETCH_ADD,
		ORXE_XRC_ATOMIC_ACKNOWLEDGE,
	};
	u32 srqn = p->t.srq[5]->srq_num;
	size_t size = 128 * 1024, len, off;
	DECLARE_BITMAP(seen, 256) = {};
	struct orxe_pkt pkt;
	loff_t pos = 0;
	ssize_t got;
	u8 *pcap;
	int k;

	pcap = oib_test_vzalloc(test, size);
	oib_test_capture_start(test, p->f, size);
	xrc_post_recv(test, &p->t, p->t.srq[5], 1, 0, 4096);
	xrc_post_recv(test, &p->t, p->t.srq[5], 2, 4096, 4096);
	KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_SEND_WITH_IMM, srqn, 1, 0, 1500, 0));
	KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_SEND, srqn, 2, 0, 10, 0));
	KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_RDMA_WRITE, srqn, 3, 0, 64, 8192));
	KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_RDMA_READ, srqn, 4, 0, 64, 8192));
	KUNIT_ASSERT_EQ(test, 0, xrc_atomic(p, OIB_WR_ATOMIC_FETCH_AND_ADD, srqn, 5, 1024, 16384,
					    1, 0));
	xrc_expect_wc(test, p->i.cq, 1, OIB_WC_SUCCESS, OIB_WC_SEND, 1500);
	xrc_expect_wc(test, p->i.cq, 2, OIB_WC_SUCCESS, OIB_WC_SEND, 10);
	xrc_expect_wc(test, p->i.cq, 3, OIB_WC_SUCCESS, OIB_WC_RDMA_WRITE, 64);
	xrc_expect_wc(test, p->i.cq, 4, OIB_WC_SUCCESS, OIB_WC_RDMA_READ, 64);
	xrc_expect_wc(test, p->i.cq, 5, OIB_WC_SUCCESS, OIB_WC_FETCH_ADD, 8);
	oib_rxe_fabric_capture_stop(p->f);

	got = oib_rxe_fabric_capture_read(p->f, pcap, size, &pos);
	KUNIT_ASSERT_GT(test, got, 24);
	len = got;
	for (off = 24; off + 16 <= len; ) {
		u32 caplen = *(u32 *)(pcap + off + 8);

		KUNIT_ASSERT_LE(test, off + 16 + caplen, len);
		KUNIT_ASSERT_EQ(test, 0, oib_rxe_pkt_parse(pcap + off + 16, caplen, &pkt));
		KUNIT_EXPECT_EQ(test, orxe_opcode_transport(pkt.opcode), ORXE_TRANSPORT_XRC);
		if (pkt.info->flags & ORXE_OPF_REQ) {
			KUNIT_ASSERT_NOT_NULL(test, pkt.xrceth);
			KUNIT_EXPECT_EQ(test, orxe_xrceth_srqn(pkt.xrceth), srqn);
		} else {
			KUNIT_EXPECT_NULL(test, pkt.xrceth);
		}
		__set_bit(pkt.opcode, seen);
		off += 16 + caplen;
	}
	KUNIT_EXPECT_EQ(test, off, len);
	for (k = 0; k < ARRAY_SIZE(want); k++)
		KUNIT_EXPECT_TRUE_MSG(test, test_bit(want[k], seen), "no %s in the capture",
				      oib_rxe_opcode(want[k])->name);
	oib_test_pcap_print(XRC_FABRIC, pcap, len);
	/* tshark must name each of them by its XRC opcode */
	for (k = 0; k < ARRAY_SIZE(want); k++)
		pr_info("OIB-PCAP-EXPECT %s infiniband.bth.opcode %u\n", XRC_FABRIC, want[k]);
}

/* The initiator's own RDMA WRITE @k of 4 KiB to SRQ 0's domain: writes the oracle must allow. */
static int xrc_fuzz_write(struct xrc_pair *p, struct rxe_mem_oracle *ot, u32 k)
{
	u32 roff = SZ_64K + (k % 64) * SZ_4K;

	rxe_mem_oracle_allow(ot, (uintptr_t)p->t.buf + roff, SZ_4K);
	return xrc_post(p, OIB_WR_RDMA_WRITE, p->t.srq[0]->srq_num, 1000 + k, (k % 16) * SZ_4K,
			SZ_4K, roff);
}

/*
 * A seeded fuzz: XRC frames of every opcode, with random PSNs, SRQ numbers (the target's, the
 * other domain's, none), keys and payloads, to the target QP and the initiator from a port of
 * the test's own, amid the initiator's own RDMA WRITEs (the first done before the fuzz starts).
 * Nothing may crash or leak, nor change memory no frame could write (mem_oracle.c); the
 * connection may die, and the counters move.
 */
static void xrc_fuzz(struct kunit *test)
{
	struct xrc_pair *p = xrc_pair(test, false, 0, 0);
	struct orxe_fabric_port *fp = kunit_kzalloc(test, sizeof(*fp), GFP_KERNEL);
	const u64 seed = 0x0c5eed16;
	struct rxe_mem_oracle oi, ot;
	struct orxe_tx_hdr h;
	struct rnd_state rnd;
	struct sk_buff *skb;
	u8 payload[256];
	u32 ci, ct;
	int k, n;

	KUNIT_ASSERT_NOT_NULL(test, fp);
	memcpy(fp->mac, xrc_fuzz_mac, ETH_ALEN);
	fp->rx = xrc_fuzz_rx;
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_attach(p->f, fp));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, xrc_fuzz_detach, fp));
	kunit_info(test, "seed %#llx\n", seed);
	prandom_seed_state(&rnd, seed);
	rxe_mem_oracle_init(test, &oi, p->i.buf, XRC_BUF, p->i.mr, p->i.qp->qp_num,
			    ORXE_TRANSPORT_XRC, 0, 1);
	rxe_mem_oracle_init(test, &ot, p->t.buf, XRC_BUF, p->t.mr, p->t.qpn, ORXE_TRANSPORT_XRC,
			    XRC_NSRQ * 8 * 256, 2);
	for (n = 0; n < XRC_NSRQ; n++)
		for (k = 0; k < 8; k++)
			xrc_post_recv(test, &p->t, p->t.srq[n], k, (n * 8 + k) * 256, 256);
	KUNIT_ASSERT_EQ(test, 0, xrc_fuzz_write(p, &ot, 0));
	xrc_expect_wc(test, p->i.cq, 1000, OIB_WC_SUCCESS, OIB_WC_RDMA_WRITE, SZ_4K);
	for (k = 0; k < 2000; k++) {
		bool to_tgt = prandom_u32_state(&rnd) & 1;
		const struct orxe_opcode_info *info;
		u8 opcode;

		if (k % 200 == 199)
			xrc_fuzz_write(p, &ot, k / 200 + 1);	/* the QPs may be dead by now */
		do {
			opcode = ORXE_XRC_OPCODE | (prandom_u32_state(&rnd) & 0x1f);
			info = oib_rxe_opcode(opcode);
		} while (!info);
		memset(&h, 0, sizeof(h));
		memcpy(h.smac, xrc_fuzz_mac, ETH_ALEN);
		h.dgid = to_tgt ? p->t.gid : p->i.gid;
		h.sgid = to_tgt ? p->i.gid : p->t.gid;
		KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_resolve(p->f, &h.dgid, h.dmac));
		h.hop_limit = 64;
		h.opcode = opcode;
		h.pkey = 0xffff;
		h.dest_qpn = to_tgt ? p->t.qpn : p->i.qp->qp_num;
		h.psn = (p->tpath.rq_psn + (prandom_u32_state(&rnd) % 64) - 16) & ORXE_PSN_MASK;
		h.ack_req = prandom_u32_state(&rnd) & 1;
		switch (prandom_u32_state(&rnd) % 3) {
		case 0:
			h.xrc_srqn = p->t.srq[prandom_u32_state(&rnd) % XRC_NSRQ]->srq_num;
			break;
		case 1:
			h.xrc_srqn = p->t.other_srq->srq_num;
			break;
		default:
			h.xrc_srqn = prandom_u32_state(&rnd) & ORXE_QPN_MASK;
			break;
		}
		h.reth.va = (u64)(uintptr_t)p->t.buf + (prandom_u32_state(&rnd) % XRC_BUF);
		h.reth.rkey = prandom_u32_state(&rnd) & 1 ? p->t.mr->rkey : prandom_u32_state(&rnd);
		h.reth.len = prandom_u32_state(&rnd) % 4096;
		h.atmeth.va = h.reth.va & ~7ull;
		h.atmeth.rkey = h.reth.rkey;
		h.aeth.syndrome = prandom_u32_state(&rnd);
		h.paylen = info->flags & ORXE_OPF_PAYLOAD ? 4 * (prandom_u32_state(&rnd) % 64) : 0;
		prandom_bytes_state(&rnd, payload, h.paylen);
		rxe_mem_oracle_frame(to_tgt ? &ot : &oi, &h);
		skb = alloc_skb(2048, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		KUNIT_ASSERT_EQ(test, 0, oib_rxe_frame_build_skb(&h, payload, skb));
		oib_rxe_fabric_xmit(fp, skb);
	}
	/* every frame was taken in by a port: they all came through */
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(xrc_stat(p->t.dev, OIB_RXE_RX_FRAMES) +
						  xrc_stat(p->i.dev, OIB_RXE_RX_FRAMES) >= 2000));
	kunit_info(test, "drop_xrc %llu naks %llu dups %llu drop_resp %llu\n",
		   xrc_stat(p->t.dev, OIB_RXE_RX_DROP_XRC), xrc_stat(p->t.dev, OIB_RXE_TX_NAKS),
		   xrc_stat(p->t.dev, OIB_RXE_RX_DUPLICATES),
		   xrc_stat(p->i.dev, OIB_RXE_RX_DROP_RESP));
	oib_test_fuzz_inputs(test, "rxe_xrc_frames", 2000);
	ci = rxe_mem_oracle_check(test, &oi, p->i.mr);
	ct = rxe_mem_oracle_check(test, &ot, p->t.mr);
	kunit_info(test, "bytes changed: initiator %u, target %u, each where a frame could write",
		   ci, ct);
	KUNIT_EXPECT_GT(test, ct, 0);	/* the oracle saw writes to judge */
}

/* An XRC SRQ's limit event goes to that SRQ, from the target's receive path. */
static void xrc_srq_limit(struct kunit *test)
{
	struct xrc_pair *p = xrc_pair(test, false, 0, 0);
	struct oib_srq_attr limit = { .srq_limit = 3 };
	atomic_t *limits = &p->t.events[OIB_EVENT_SRQ_LIMIT_REACHED];
	int k;

	for (k = 0; k < 3; k++)
		xrc_post_recv(test, &p->t, p->t.srq[4], k, k * 256, 256);
	KUNIT_ASSERT_EQ(test, 0, oib_modify_srq(p->t.srq[4], &limit, OIB_SRQ_LIMIT));
	KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_SEND, p->t.srq[4]->srq_num, 1, 0, 8, 0));
	xrc_expect_wc(test, p->i.cq, 1, OIB_WC_SUCCESS, OIB_WC_SEND, 8);
	xrc_expect_wc(test, p->t.cq[4], 0, OIB_WC_SUCCESS, OIB_WC_RECV, 8);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(limits) == 1));
}

/*
 * A message whose packets name two SRQs, or whose SRQ went between its packets: refused and
 * counted, the target in ERR, and the receive its first packet took flushed to that SRQ's CQ
 * if the SRQ is still there.
 */
static void xrc_split_message(struct kunit *test, bool srq_gone)
{
	struct xrc_pair *p = xrc_pair(test, true, 0, 0);
	struct orxe_fabric_port *fp = kunit_kzalloc(test, sizeof(*fp), GFP_KERNEL);
	u32 psn = p->tpath.rq_psn, a = p->t.srq[0]->srq_num;
	struct oib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, fp);
	memcpy(fp->mac, xrc_fuzz_mac, ETH_ALEN);
	fp->rx = xrc_fuzz_rx;
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_attach(p->f, fp));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, xrc_fuzz_detach, fp));
	xrc_post_recv(test, &p->t, p->t.srq[0], 1, 0, 4096);
	xrc_inject(test, p, fp, ORXE_XRC_SEND_FIRST, psn, a, 1024);
	KUNIT_ASSERT_TRUE(test, oib_test_wait_rxe_stat(p->t.dev, 1, OIB_RXE_TX_ACKS, 1));
	if (srq_gone) {
		KUNIT_ASSERT_EQ(test, 0, oib_destroy_srq(p->t.srq[0]));
		oib_test_disown(test, p->t.srq[0]);
	}
	xrc_inject(test, p, fp, ORXE_XRC_SEND_LAST, psn + 1, srq_gone ? a : p->t.srq[1]->srq_num,
		   16);
	KUNIT_EXPECT_TRUE(test, oib_test_wait_rxe_stat(p->t.dev, 1, OIB_RXE_RX_DROP_XRC, 1));
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(READ_ONCE(p->t.qp->state) == OIB_QPS_ERR));
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(&p->t.events[OIB_EVENT_QP_REQ_ERR])));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&p->t.events[OIB_EVENT_QP_REQ_ERR]));
	if (!srq_gone)
		xrc_expect_wc(test, p->t.cq[0], 1, OIB_WC_WR_FLUSH_ERR, 0, 0);
	KUNIT_EXPECT_EQ(test, 0, oib_poll_cq(p->t.cq[0], 1, &wc));
	KUNIT_EXPECT_EQ(test, 0, oib_poll_cq(p->t.cq[1], 1, &wc));
}

static void xrc_split_two_srqs(struct kunit *test)
{
	xrc_split_message(test, false);
}

static void xrc_split_srq_gone(struct kunit *test)
{
	xrc_split_message(test, true);
}

/*
 * An RDMA WRITE through the target to an MR of the XRC SRQ's PD (which neither the SRQ nor the
 * target counts on), the MR deregistered after the first packet: the rest is NAKed with a remote
 * access error, the target goes to ERR, and nothing more is written to the memory (kept until
 * then to be looked at: a GCC 12 KASAN kernel does not check the data path's memcpy()).
 */
static void xrc_dereg_mid_write(struct kunit *test)
{
	struct xrc_pair *p = xrc_pair(test, true, 0, 0);
	struct orxe_fabric_port *fp = kunit_kzalloc(test, sizeof(*fp), GFP_KERNEL);
	u32 psn = p->tpath.rq_psn, srqn = p->t.srq[0]->srq_num;
	u32 mtu = oib_mtu_to_int(p->tpath.mtu);
	u64 acks = xrc_stat(p->t.dev, OIB_RXE_TX_ACKS), naks = xrc_stat(p->t.dev, OIB_RXE_TX_NAKS);
	atomic_t *access_err = &p->t.events[OIB_EVENT_QP_ACCESS_ERR];
	struct oib_mr *mr;
	u8 *buf;

	KUNIT_ASSERT_NOT_NULL(test, fp);
	KUNIT_ASSERT_LE(test, mtu, 1024);	/* xrc_inject_rdma()'s payload */
	memcpy(fp->mac, xrc_fuzz_mac, ETH_ALEN);
	fp->rx = xrc_fuzz_rx;
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_attach(p->f, fp));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, xrc_fuzz_detach, fp));
	buf = kunit_kmalloc(test, 3 * mtu, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, 0xa5, 3 * mtu);
	mr = oib_test_kernel_mr(test, p->t.pd, buf, 3 * mtu, XRC_ACCESS);

	xrc_inject_rdma(test, p, fp, ORXE_XRC_RDMA_WRITE_FIRST, psn, srqn, mtu,
			(u64)(uintptr_t)buf, mr->rkey, 3 * mtu);
	KUNIT_ASSERT_TRUE(test, oib_test_wait_rxe_stat(p->t.dev, 1, OIB_RXE_TX_ACKS, acks + 1));
	KUNIT_EXPECT_NULL(test, memchr_inv(buf, 0, mtu));
	oib_test_disown(test, mr);
	KUNIT_ASSERT_EQ(test, 0, oib_dereg_mr(mr));
	xrc_inject(test, p, fp, ORXE_XRC_RDMA_WRITE_MIDDLE, psn + 1, srqn, mtu);
	xrc_inject(test, p, fp, ORXE_XRC_RDMA_WRITE_LAST, psn + 2, srqn, mtu);

	KUNIT_EXPECT_TRUE(test, oib_test_wait_rxe_stat(p->t.dev, 1, OIB_RXE_TX_NAKS, naks + 1));
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(READ_ONCE(p->t.qp->state) == OIB_QPS_ERR));
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(access_err)));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(access_err));
	KUNIT_EXPECT_EQ(test, xrc_stat(p->t.dev, OIB_RXE_TX_ACKS), acks + 1);
	KUNIT_EXPECT_NULL_MSG(test, memchr_inv(buf + mtu, 0xa5, 2 * mtu),
			      "written after deregistration");
	kunit_kfree(test, buf);
}

/* An opener of the target QP: counts the events its handle hears. */
struct xrc_opener {
	struct oib_qp *qp;
	atomic_t comm_est;
};

static void xrc_opener_event(struct oib_event *ev, void *ctx)
{
	struct xrc_opener *o = ctx;

	if (ev->event == OIB_EVENT_COMM_EST && ev->element.qp == o->qp)
		atomic_inc(&o->comm_est);
}

static void xrc_open_one(struct kunit *test, struct xrc_pair *p, struct xrc_opener *o)
{
	struct oib_qp_open_attr oa = { .event_handler = xrc_opener_event, .qp_context = o,
				       .qp_num = p->t.qpn, .qp_type = OIB_QPT_XRC_TGT };

	atomic_set(&o->comm_est, 0);
	o->qp = oib_open_qp(p->t.xrcd, &oa);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, o->qp);
}

/*
 * A target QP shared the upstream way: its events reach the creator and every opener; traffic
 * goes on after the creator lets go and after the first opener closes; the last close destroys
 * it, and the initiator then fails with RETRY_EXC_ERR.
 */
static void xrc_shared_target(struct kunit *test)
{
	struct xrc_pair *p = xrc_pair(test, true, 14, 7);
	struct xrc_opener a, b;
	atomic_t *comm_est;

	xrc_open_one(test, p, &a);
	xrc_open_one(test, p, &b);
	xrc_traffic(test, p, 0, 0, 5);
	comm_est = &p->t.events[OIB_EVENT_COMM_EST];
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(&b.comm_est) == 1 &&
						  atomic_read(&a.comm_est) == 1 &&
						  atomic_read(comm_est) == 1));

	oib_test_disown(test, p->t.qp);
	KUNIT_ASSERT_EQ(test, 0, oib_destroy_qp(p->t.qp));	/* the creator lets go */
	xrc_traffic(test, p, 1, 5, 5);
	KUNIT_ASSERT_EQ(test, 0, oib_close_qp(a.qp));
	xrc_traffic(test, p, 2, 10, 5);
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_dealloc_xrcd(p->t.xrcd));
	KUNIT_ASSERT_EQ(test, 0, oib_close_qp(b.qp));
	KUNIT_EXPECT_EQ(test, 0, oib_object_count(p->t.dev, OIB_OBJ_QP));

	KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_SEND, p->t.srq[0]->srq_num, 99, 0, 10, 0));
	xrc_expect_wc(test, p->i.cq, 99, OIB_WC_RETRY_EXC_ERR, OIB_WC_SEND, 0);
}

static struct kunit_case xrc_cases[] = {
	KUNIT_CASE(xrc_many_srqs_owned),
	KUNIT_CASE(xrc_many_srqs_kernel),
	KUNIT_CASE(xrc_rdma_atomics),
	KUNIT_CASE(xrc_refused_other_domain),
	KUNIT_CASE(xrc_refused_no_srq),
	KUNIT_CASE(xrc_rkey_other_pd),
	KUNIT_CASE(xrc_srq_limit),
	KUNIT_CASE(xrc_split_two_srqs),
	KUNIT_CASE(xrc_split_srq_gone),
	KUNIT_CASE(xrc_dereg_mid_write),
	KUNIT_CASE_PARAM_ATTR(xrc_loss, xrc_loss_gen_params, { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(xrc_creator_goes),
	KUNIT_CASE(xrc_last_put),
	KUNIT_CASE(xrc_shared_target),
	KUNIT_CASE(xrc_rcv_error),
	KUNIT_CASE(xrc_capture),
	KUNIT_CASE(xrc_fuzz),
	{}
};

static struct kunit_suite xrc_suite = {
	.name = "oib_rxe_xrc",
	.test_cases = xrc_cases,
};

kunit_test_suite(xrc_suite);

MODULE_DESCRIPTION("oib_rxe XRC transport tests");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
