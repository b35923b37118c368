// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_cm over XRC between two oib_rxe devices: an XRC initiator (a) connects to an owner's XRC
 * target QP (b), or to a kernel-owned receive QP b makes from what the REQ negotiated; messages
 * reach the XRC SRQ each names, reads work, the target is established without the RTU, the REQ
 * and REP carry XRC as the wire wants it (tshark checks a capture), and a REP's QP must be of
 * the REQ's transport.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/string.h>
#include "oib_toolkit_cm.h"

#define XC_NSRQ		2
#define XC_BUF		8192
#define XC_ACCESS	(OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE | \
			 OIB_ACCESS_REMOTE_READ)

/* The pair's XRC ends, beside the RC QPs cmt_pair() made (which the tests leave idle). */
struct xc {
	struct cmt_pair *p;
	struct oib_qp *rc_a, *rc_b;		/* cmt_pair()'s RC QPs */
	struct oib_qp *ini;			/* a's */
	struct oib_xrcd *xrcd;			/* b's */
	struct oib_qp *tgt;			/* b's, owned */
	struct oib_cq *cq[XC_NSRQ];
	struct oib_srq *srq[XC_NSRQ];
	u8 *abuf, *bbuf;
	struct oib_mr *amr, *bmr;
};

/* The ids go before the XRC QPs (registered after them): a watched QP cannot be destroyed. */
static void xc_release_ids(void *arg)
{
	struct cmt_pair *p = arg;

	oib_cm_destroy_id(p->a.id);
	oib_cm_destroy_id(p->b.id);
	p->a.id = NULL;
	p->b.id = NULL;
}

static void xc_ends(struct kunit *test, struct xc *x)
{
	struct oib_qp_init_attr ia = {
		.qp_type = OIB_QPT_XRC_INI, .sq_sig_type = OIB_SIGNAL_ALL_WR,
		.send_cq = x->p->a.cq, .cap = { .max_send_wr = CMT_WR, .max_send_sge = 1 },
	};
	struct oib_qp_init_attr ta = { .qp_type = OIB_QPT_XRC_TGT };
	struct oib_srq_init_attr sa = {
		.srq_type = OIB_SRQT_XRC, .attr = { .max_wr = CMT_WR, .max_sge = 1 },
	};
	int n;

	x->ini = oib_test_qp_attr(test, x->p->a.pd, &ia);
	x->xrcd = oib_test_xrcd(test, x->p->b.dev);
	ta.xrcd = x->xrcd;
	x->tgt = oib_test_qp_attr(test, NULL, &ta);
	for (n = 0; n < XC_NSRQ; n++) {
		x->cq[n] = oib_test_cq(test, x->p->b.dev, CMT_WR);
		sa.xrc.xrcd = x->xrcd;
		sa.xrc.cq = x->cq[n];
		x->srq[n] = oib_test_srq(test, x->p->b.pd, &sa);
	}
}

static struct xc *xc_pair(struct kunit *test)
{
	struct xc *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	struct cmt_pair *p;

	KUNIT_ASSERT_NOT_NULL(test, x);
	p = cmt_pair(test);
	x->p = p;
	x->rc_a = p->a.qp;
	x->rc_b = p->b.qp;
	xc_ends(test, x);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, xc_release_ids, p));
	x->abuf = oib_test_vzalloc(test, XC_BUF);
	x->bbuf = oib_test_vzalloc(test, XC_BUF);
	x->amr = oib_test_kernel_mr(test, p->a.pd, x->abuf, XC_BUF, XC_ACCESS);
	x->bmr = oib_test_kernel_mr(test, p->b.pd, x->bbuf, XC_BUF, XC_ACCESS);
	p->a.qp = x->ini;
	p->b.qp = x->tgt;
	p->req.qp = x->ini;
	return x;
}

static void xc_post_srq_recv(struct kunit *test, struct xc *x, int n)
{
	struct oib_sge sge = { .addr = (u64)(uintptr_t)(x->bbuf + n * 1024), .length = 1024,
			       .lkey = x->bmr->lkey };
	struct oib_recv_wr wr = { .wr_id = 100 + n, .sg_list = &sge, .num_sge = 1 };

	KUNIT_ASSERT_EQ(test, 0, oib_post_srq_recv(x->srq[n], &wr, NULL));
}

/* a sends @len bytes of @n's pattern to SRQ @n (a receive posted there). */
static int xc_send(struct xc *x, int n, u32 len)
{
	struct oib_sge sge = { .addr = (u64)(uintptr_t)(x->abuf + 4096), .length = len,
			       .lkey = x->amr->lkey };
	struct oib_send_wr wr = { .wr_id = n, .opcode = OIB_WR_SEND, .sg_list = &sge,
				  .num_sge = 1, .send_flags = OIB_SEND_SIGNALED,
				  .xrc_remote_srq_num = x->srq[n]->srq_num };

	memset(x->abuf + 4096, 0x40 + n, len);
	return oib_post_send(x->ini, &wr, NULL);
}

static void xc_expect_wc(struct kunit *test, struct oib_cq *cq, u64 wr_id, u32 len)
{
	struct oib_wc wc;

	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(cq, &wc, 1));
	KUNIT_EXPECT_EQ_MSG(test, wc.status, OIB_WC_SUCCESS, "%s", oib_wc_status_msg(wc.status));
	KUNIT_EXPECT_EQ(test, wc.wr_id, wr_id);
	if (len)
		KUNIT_EXPECT_EQ(test, wc.byte_len, len);
}

/* One message to each SRQ arrives there, on that SRQ's CQ, whole. */
static void xc_traffic(struct kunit *test, struct xc *x)
{
	int n;

	for (n = 0; n < XC_NSRQ; n++) {
		xc_post_srq_recv(test, x, n);
		KUNIT_ASSERT_EQ(test, 0, xc_send(x, n, 100 + n));
		xc_expect_wc(test, x->p->a.cq, n, 0);
		xc_expect_wc(test, x->cq[n], 100 + n, 100 + n);
		KUNIT_EXPECT_EQ(test, x->bbuf[n * 1024 + 99 + n], 0x40 + n);
	}
}

/* a reads 512 bytes of b's memory through the target: the negotiated read resources work. */
static void xc_read(struct kunit *test, struct xc *x)
{
	struct oib_sge sge = { .addr = (u64)(uintptr_t)x->abuf, .length = 512,
			       .lkey = x->amr->lkey };
	struct oib_send_wr wr = {
		.wr_id = 7, .opcode = OIB_WR_RDMA_READ, .sg_list = &sge, .num_sge = 1,
		.send_flags = OIB_SEND_SIGNALED, .xrc_remote_srq_num = x->srq[0]->srq_num,
		.wr.rdma = { .remote_addr = (u64)(uintptr_t)(x->bbuf + 2048),
			     .rkey = x->bmr->rkey },
	};

	memset(x->bbuf + 2048, 0x5a, 512);
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(x->ini, &wr, NULL));
	xc_expect_wc(test, x->p->a.cq, 7, 512);
	KUNIT_EXPECT_EQ(test, x->abuf[511], 0x5a);
}

/* An XRC connection through the CM: what each side was told, data, a read, a disconnect. */
static void xc_connect(struct kunit *test)
{
	struct xc *x = xc_pair(test);
	struct cmt_pair *p = x->p;
	const struct oib_cm_req_event_param *req;
	const struct oib_cm_rep_event_param *rep;

	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	cmt_expect_established(test, p);
	req = &p->b.last[OIB_CM_EVENT_REQ_RECEIVED].param.req;
	KUNIT_EXPECT_EQ(test, req->transport, OIB_CM_TRANSPORT_XRC);
	KUNIT_EXPECT_EQ(test, req->remote_qpn, x->ini->qp_num);
	/* what only a responder uses is 0 from an initiator without one */
	KUNIT_EXPECT_EQ(test, req->responder_resources, 0);
	KUNIT_EXPECT_EQ(test, req->retry_count, 0);
	KUNIT_EXPECT_EQ(test, req->rnr_retry_count, 0);
	KUNIT_EXPECT_FALSE(test, req->srq);
	KUNIT_EXPECT_EQ(test, req->initiator_depth, 4);
	rep = &p->a.last[OIB_CM_EVENT_REP_RECEIVED].param.rep;
	KUNIT_EXPECT_EQ(test, rep->remote_qpn, x->tgt->qp_num);
	KUNIT_EXPECT_TRUE(test, rep->srq);
	KUNIT_EXPECT_EQ(test, rep->initiator_depth, 0);
	KUNIT_EXPECT_EQ(test, rep->responder_resources, 4);

	xc_traffic(test, x);
	xc_read(test, x);
	cmt_disconnect(test, p, &p->a);
}

/*
 * The RTU is lost: the initiator's first message raises the target's COMM_EST, which
 * establishes b with no call (the target's receives complete on SRQ CQs, so no first-receive
 * watch); data flows before and after.
 */
static void xc_established_without_rtu(struct kunit *test)
{
	struct xc *x = xc_pair(test);
	struct cmt_pair *p = x->p;

	p->a.rtu_on_rep = false;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_REP_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, READ_ONCE(x->tgt->state), OIB_QPS_RTR);
	cmt_rule(p, ORXE_FAULT_DROP, 1, 0);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rtu(p->a.id, NULL, 0));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_ESTABLISHED, 1));
	xc_traffic(test, x);
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_ESTABLISHED, 1));
	KUNIT_EXPECT_EQ(test, READ_ONCE(x->tgt->state), OIB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, cmt_stat(&p->b, OIB_CM_STAT_RECEIVED, CM_ATTR_RTU), 0);
	xc_traffic(test, x);
	cmt_disconnect(test, p, &p->b);
}

/* b's REQ_RECEIVED: a kernel-owned receive QP from the CM's INIT and RTR attributes. */
static u32 xc_rcv_qp(struct kunit *test, struct xc *x, u32 psn)
{
	struct oib_qp_attr init = { .qp_state = OIB_QPS_INIT }, rtr = { .qp_state = OIB_QPS_RTR };
	int imask, rmask;
	u32 qpn;

	KUNIT_ASSERT_EQ(test, 0, oib_cm_init_qp_attr(x->p->b.id, &init, &imask));
	KUNIT_ASSERT_EQ(test, 0, oib_cm_init_qp_attr(x->p->b.id, &rtr, &rmask));
	KUNIT_EXPECT_TRUE(test, rmask & OIB_QP_MAX_DEST_RD_ATOMIC);
	rtr.port_num = init.port_num;
	rtr.pkey_index = init.pkey_index;
	rtr.rq_psn = psn;
	imask = (imask | rmask) & ~OIB_QP_STATE;
	KUNIT_ASSERT_EQ(test, 0, oib_create_xrc_rcv_qp(x->xrcd, &rtr, imask, &qpn));
	return qpn;
}

/*
 * The design thread's receive QP through the CM: b answers the REQ with the number of a
 * kernel-owned receive QP it made from what the REQ negotiated.  The CM drives no QP of b's; the
 * RTU establishes b; messages reach both SRQs; after the disconnect the receive QP, the
 * domain's, still answers.
 */
static void xc_kernel_owned_rcv_qp(struct kunit *test)
{
	struct xc *x = xc_pair(test);
	struct cmt_pair *p = x->p;
	struct oib_cm_rep_param rep = { .starting_psn = 0x333, .responder_resources = 4,
					.rnr_retry_count = 7 };

	p->b.on_req = CMT_NOTHING;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_REQ_RECEIVED, 1));
	rep.xrc_rcv_qpn = xc_rcv_qp(test, x, rep.starting_psn);
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rep(p->b.id, &rep));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_ESTABLISHED, 1));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_ESTABLISHED, 1));
	KUNIT_EXPECT_EQ(test, p->a.last[OIB_CM_EVENT_REP_RECEIVED].param.rep.remote_qpn,
			rep.xrc_rcv_qpn);
	KUNIT_EXPECT_NULL(test, p->b.id->qp);
	xc_traffic(test, x);
	xc_read(test, x);

	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_dreq(p->a.id, NULL, 0));
	KUNIT_EXPECT_TRUE(test, cmt_wait(&p->a, OIB_CM_EVENT_TIMEWAIT_EXIT, 1));
	KUNIT_EXPECT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_TIMEWAIT_EXIT, 1));
	KUNIT_EXPECT_EQ(test, READ_ONCE(x->ini->state), OIB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, oib_reg_xrc_rcv_qp(x->xrcd, rep.xrc_rcv_qpn), 0);
	KUNIT_EXPECT_EQ(test, oib_unreg_xrc_rcv_qp(x->xrcd, rep.xrc_rcv_qpn), 0);
}

/* The REQ's QP: an XRC target (or no QP) cannot ask, an XRC initiator cannot be peer to peer. */
static void xc_req_checked(struct kunit *test)
{
	struct xc *x = xc_pair(test);
	struct cmt_pair *p = x->p;
	struct oib_qp_init_attr ta = { .qp_type = OIB_QPT_XRC_TGT };

	ta.xrcd = oib_test_xrcd(test, p->a.dev);
	p->req.qp = oib_test_qp_attr(test, NULL, &ta);
	KUNIT_EXPECT_EQ(test, -EINVAL, cmt_connect(p));
	p->req.qp = ERR_PTR(-ENOMEM);
	KUNIT_EXPECT_EQ(test, -EINVAL, cmt_connect(p));
	p->req.qp = x->ini;
	p->req.peer_to_peer = true;
	KUNIT_EXPECT_EQ(test, -EINVAL, cmt_connect(p));
	p->req.peer_to_peer = false;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	cmt_expect_established(test, p);
}

/* An XRC REQ is answered by an XRC target or a receive QP's number, nothing else. */
static void xc_rep_checked_xrc(struct kunit *test)
{
	struct xc *x = xc_pair(test);
	struct cmt_pair *p = x->p;
	struct oib_cm_rep_param rep = { .qp = x->rc_b, .responder_resources = 4 };

	p->b.on_req = CMT_NOTHING;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_REQ_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rep(p->b.id, &rep));
	rep.qp = ERR_PTR(-ENOMEM);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rep(p->b.id, &rep));
	rep.qp = x->tgt;
	rep.xrc_rcv_qpn = 5;				/* both */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rep(p->b.id, &rep));
	rep.qp = NULL;
	rep.xrc_rcv_qpn = BIT(24);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rep(p->b.id, &rep));
	rep.xrc_rcv_qpn = 0;				/* neither */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rep(p->b.id, &rep));
	KUNIT_EXPECT_EQ(test, p->b.id->state, OIB_CM_REQ_RCVD);
	rep.qp = x->tgt;
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rep(p->b.id, &rep));
	cmt_expect_established(test, p);
	xc_traffic(test, x);
}

/* An RC REQ is not answered by an XRC target nor a receive QP's number. */
static void xc_rep_checked_rc(struct kunit *test)
{
	struct xc *x = xc_pair(test);
	struct cmt_pair *p = x->p;
	struct oib_cm_rep_param rep = { .qp = x->tgt, .responder_resources = 4 };

	p->a.qp = x->rc_a;
	p->b.qp = x->rc_b;
	p->req.qp = x->rc_a;
	p->b.on_req = CMT_NOTHING;
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	KUNIT_ASSERT_TRUE(test, cmt_wait(&p->b, OIB_CM_EVENT_REQ_RECEIVED, 1));
	KUNIT_EXPECT_EQ(test, p->b.last[OIB_CM_EVENT_REQ_RECEIVED].param.req.transport,
			OIB_CM_TRANSPORT_RC);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rep(p->b.id, &rep));
	rep.qp = NULL;
	rep.xrc_rcv_qpn = 5;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cm_send_rep(p->b.id, &rep));
	rep.qp = x->rc_b;
	rep.xrc_rcv_qpn = 0;
	KUNIT_ASSERT_EQ(test, 0, oib_cm_send_rep(p->b.id, &rep));
	cmt_expect_established(test, p);
	cmt_exchange(test, &p->a, &p->b, 64, 9);
}

static void xc_expect_field(const char *field, u64 value)
{
	pr_info("OIB-PCAP-EXPECT oib_cm_xrc infiniband.cm.%s %#llx\n", field, value);
}

/*
 * The capture of an XRC connection goes to the console; make check has tshark decode its REQ
 * as transport 3, extended type 1, without responder resources, and its REP with the target's
 * number in the EECN field, none in the QPN field, and the SRQ bit.
 */
static void xc_capture(struct kunit *test)
{
	struct xc *x = xc_pair(test);
	struct cmt_pair *p = x->p;
	size_t size = 64 * 1024;
	u8 *pcap = oib_test_vzalloc(test, size);
	loff_t pos = 0;
	ssize_t got;

	oib_test_capture_start(test, p->f, size);
	KUNIT_ASSERT_EQ(test, 0, cmt_connect(p));
	cmt_expect_established(test, p);
	xc_traffic(test, x);
	oib_rxe_fabric_capture_stop(p->f);
	got = oib_rxe_fabric_capture_read(p->f, pcap, size, &pos);
	KUNIT_ASSERT_GT(test, got, 24);

	xc_expect_field("req.localqpn", x->ini->qp_num);
	xc_expect_field("req.transpsvctype", OIB_CM_TRANSPORT_XRC);
	xc_expect_field("req.ext_transport", 1);
	xc_expect_field("req.responderres", 0);
	xc_expect_field("rep.localqpn", 0);
	xc_expect_field("rep.localeecn", x->tgt->qp_num);
	xc_expect_field("rep.srq", 1);
	oib_test_pcap_print("oib_cm_xrc", pcap, got);
}

static struct kunit_case cm_xrc_cases[] = {
	KUNIT_CASE(xc_connect),
	KUNIT_CASE(xc_established_without_rtu),
	KUNIT_CASE(xc_kernel_owned_rcv_qp),
	KUNIT_CASE(xc_req_checked),
	KUNIT_CASE(xc_rep_checked_xrc),
	KUNIT_CASE(xc_rep_checked_rc),
	KUNIT_CASE(xc_capture),
	{}
};

static struct kunit_suite cm_xrc_suite = {
	.name = "oib_cm_xrc",
	.test_cases = cm_xrc_cases,
};

kunit_test_suite(cm_xrc_suite);

MODULE_DESCRIPTION("oib_cm over XRC end to end");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
