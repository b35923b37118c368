// SPDX-License-Identifier: GPL-2.0-only
/*
 * The oib_rxe_xrc suite's two ends (xrc_pair.h): an XRC initiator on one oib_rxe device, a target
 * QP and XRC SRQs on another, connected; posting, waiting and injecting helpers.
 */
#include <linux/module.h>
#include <linux/skbuff.h>
#include "oib_toolkit.h"
#include <oib/kunit/rxe.h>
#include "xrc_pair.h"

void xrc_event(struct oib_event *ev, void *ctx)
{
	struct xrc_tgt *t = ctx;

	if (ev->event <= OIB_EVENT_GID_CHANGE)
		atomic_inc(&t->events[ev->event]);
}

static void xrc_ini_init(struct kunit *test, struct xrc_ini *i)
{
	struct oib_qp_init_attr ia = {
		.qp_type = OIB_QPT_XRC_INI, .sq_sig_type = OIB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = XRC_WR, .max_send_sge = 2, .max_inline_data = 64 },
	};

	i->dev = oib_test_rxe_on(test, XRC_FABRIC, 1);
	i->pd = oib_test_pd(test, i->dev);
	i->cq = oib_test_cq(test, i->dev, 2 * XRC_WR);
	ia.send_cq = i->cq;
	i->qp = oib_test_qp_attr(test, i->pd, &ia);
	KUNIT_ASSERT_EQ(test, 0, oib_query_gid(i->dev, 1, 0, &i->gid, NULL));
	i->buf = oib_test_vzalloc(test, XRC_BUF);
	i->mr = oib_test_kernel_mr(test, i->pd, i->buf, XRC_BUF, XRC_ACCESS);
}

struct oib_srq *xrc_srq(struct kunit *test, struct xrc_tgt *t, struct oib_xrcd *xrcd,
			struct oib_cq *cq)
{
	struct oib_srq_init_attr sa = {
		.event_handler = xrc_event, .srq_context = t, .srq_type = OIB_SRQT_XRC,
		.attr = { .max_wr = XRC_WR, .max_sge = 2 }, .xrc = { .xrcd = xrcd, .cq = cq },
	};

	return oib_test_srq(test, t->pd, &sa);
}

static void xrc_tgt_init(struct kunit *test, struct xrc_tgt *t)
{
	int n;

	t->dev = oib_test_rxe_on(test, XRC_FABRIC, 1);
	t->pd = oib_test_pd(test, t->dev);
	for (n = 0; n < XRC_NSRQ; n++)
		t->cq[n] = oib_test_cq(test, t->dev, 2 * XRC_WR);
	t->other_cq = oib_test_cq(test, t->dev, XRC_WR);
	t->xrcd = oib_test_xrcd(test, t->dev);
	t->other_xrcd = oib_test_xrcd(test, t->dev);
	for (n = 0; n < XRC_NSRQ; n++)
		t->srq[n] = xrc_srq(test, t, t->xrcd, t->cq[n]);
	t->other_srq = xrc_srq(test, t, t->other_xrcd, t->other_cq);
	KUNIT_ASSERT_EQ(test, 0, oib_query_gid(t->dev, 1, 0, &t->gid, NULL));
	t->buf = oib_test_vzalloc(test, XRC_BUF);
	t->mr = oib_test_kernel_mr(test, t->pd, t->buf, XRC_BUF, XRC_ACCESS);
}

/* What the kernel-owned receive QP is made with: the target path's RESET->INIT->RTR. */
int xrc_rcv_attr(const struct oib_test_path *p, struct oib_qp_attr *attr)
{
	*attr = (struct oib_qp_attr){
		.port_num = 1, .qp_access_flags = p->access, .path_mtu = p->mtu,
		.dest_qp_num = p->dest_qpn, .rq_psn = p->rq_psn,
		.max_dest_rd_atomic = p->max_dest_rd_atomic, .min_rnr_timer = p->min_rnr_timer,
		.ah_attr = { .port_num = 1, .flags = OIB_AH_GRH,
			     .grh = { .dgid = p->dgid, .hop_limit = 64 } },
	};
	return OIB_QP_ACCESS_FLAGS | OIB_QP_PKEY_INDEX | OIB_QP_PORT | OIB_QP_AV |
	       OIB_QP_PATH_MTU | OIB_QP_DEST_QPN | OIB_QP_RQ_PSN | OIB_QP_MIN_RNR_TIMER |
	       OIB_QP_MAX_DEST_RD_ATOMIC;
}

/*
 * An initiator and a target, connected: the target an owner's XRC_TGT QP in RTR (@owned) or a
 * kernel-owned receive QP of t.xrcd.  @timeout and @retry_cnt: the initiator's (0: 268 ms, 7).
 */
struct xrc_pair *xrc_pair(struct kunit *test, bool owned, u8 timeout, u8 retry_cnt)
{
	struct xrc_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct oib_qp_init_attr ta = { .qp_type = OIB_QPT_XRC_TGT, .event_handler = xrc_event };
	struct oib_qp_attr attr;
	int mask;

	KUNIT_ASSERT_NOT_NULL(test, p);
	xrc_ini_init(test, &p->i);
	xrc_tgt_init(test, &p->t);
	p->f = oib_test_fabric(test, XRC_FABRIC, 0);
	oib_test_path_init(&p->tpath);
	p->tpath.dgid = p->i.gid;
	p->tpath.dest_qpn = p->i.qp->qp_num;
	p->tpath.access = XRC_ACCESS & ~OIB_ACCESS_LOCAL_WRITE;
	p->tpath.max_dest_rd_atomic = 8;
	p->tpath.min_rnr_timer = 1;
	if (owned) {
		ta.qp_context = &p->t;
		ta.xrcd = p->t.xrcd;
		p->t.qp = oib_test_qp_attr(test, NULL, &ta);
		p->t.qpn = p->t.qp->qp_num;
		KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to_path(p->t.qp, OIB_QPS_RTR, &p->tpath));
	} else {
		mask = xrc_rcv_attr(&p->tpath, &attr);
		KUNIT_ASSERT_EQ(test, 0, oib_create_xrc_rcv_qp(p->t.xrcd, &attr, mask, &p->t.qpn));
	}
	p->ipath = p->tpath;
	p->ipath.dgid = p->t.gid;
	p->ipath.dest_qpn = p->t.qpn;
	p->ipath.sq_psn = p->tpath.rq_psn;
	p->ipath.timeout = timeout ?: 16;
	p->ipath.retry_cnt = retry_cnt ?: 7;
	p->ipath.max_rd_atomic = 8;
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to_path(p->i.qp, OIB_QPS_RTS, &p->ipath));
	return p;
}

struct oib_sge xrc_sge(struct oib_mr *mr, u8 *buf, u32 off, u32 len)
{
	return (struct oib_sge){ .addr = (u64)(uintptr_t)(buf + off), .length = len,
				 .lkey = mr->lkey };
}

void xrc_post_recv(struct kunit *test, struct xrc_tgt *t, struct oib_srq *srq, u64 wr_id,
		   u32 off, u32 len)
{
	struct oib_sge sge = xrc_sge(t->mr, t->buf, off, len);
	struct oib_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 };

	KUNIT_ASSERT_EQ(test, 0, oib_post_srq_recv(srq, &wr, NULL));
}

/* One signalled request of @op for @srqn: @len local bytes at @off, remote ones at @roff. */
int xrc_post(struct xrc_pair *p, enum oib_wr_opcode op, u32 srqn, u64 wr_id, u32 off,
	     u32 len, u32 roff)
{
	struct oib_sge sge = xrc_sge(p->i.mr, p->i.buf, off, len);
	struct oib_send_wr wr = {
		.wr_id = wr_id, .opcode = op, .send_flags = OIB_SEND_SIGNALED,
		.sg_list = &sge, .num_sge = 1, .xrc_remote_srq_num = srqn,
		.ex.imm_data = cpu_to_be32(0xabcd0000 | (u32)wr_id),
		.wr.rdma = { .remote_addr = (u64)(uintptr_t)(p->t.buf + roff),
			     .rkey = p->t.mr->rkey },
	};

	return oib_post_send(p->i.qp, &wr, NULL);
}

int xrc_atomic(struct xrc_pair *p, enum oib_wr_opcode op, u32 srqn, u64 wr_id, u32 off,
	       u32 roff, u64 compare_add, u64 swap)
{
	struct oib_sge sge = xrc_sge(p->i.mr, p->i.buf, off, 8);
	struct oib_send_wr wr = {
		.wr_id = wr_id, .opcode = op, .send_flags = OIB_SEND_SIGNALED,
		.sg_list = &sge, .num_sge = 1, .xrc_remote_srq_num = srqn,
		.wr.atomic = { .remote_addr = (u64)(uintptr_t)(p->t.buf + roff),
			       .rkey = p->t.mr->rkey, .compare_add = compare_add, .swap = swap },
	};

	return oib_post_send(p->i.qp, &wr, NULL);
}

void xrc_fill(u8 *b, u32 len, u32 seed)
{
	u32 k;

	for (k = 0; k < len; k++)
		b[k] = (u8)(seed * 151 + k * 13 + (k >> 8));
}

void xrc_expect_wc(struct kunit *test, struct oib_cq *cq, u64 wr_id,
		   enum oib_wc_status status, enum oib_wc_opcode op, u32 len)
{
	struct oib_wc wc;

	KUNIT_ASSERT_EQ(test, 1, oib_test_poll_cq(cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.wr_id, wr_id);
	KUNIT_EXPECT_EQ_MSG(test, wc.status, status, "%s", oib_wc_status_msg(wc.status));
	if (status == OIB_WC_SUCCESS) {
		KUNIT_EXPECT_EQ(test, wc.opcode, op);
		KUNIT_EXPECT_EQ(test, wc.byte_len, len);
	}
}

u64 xrc_stat(struct oib_device *dev, enum oib_rxe_port_stat s)
{
	return oib_rxe_port_stat(dev, 1, s);
}

/* Send @count messages of 200 bytes to SRQ @n, from wr_id @first, and see them arrive. */
void xrc_traffic(struct kunit *test, struct xrc_pair *p, int n, u32 first, u32 count)
{
	u32 k;

	for (k = first; k < first + count; k++) {
		xrc_fill(p->i.buf + k * 256, 200, k);
		xrc_post_recv(test, &p->t, p->t.srq[n], k, k * 256, 256);
		KUNIT_ASSERT_EQ(test, 0, xrc_post(p, OIB_WR_SEND, p->t.srq[n]->srq_num, k,
						  k * 256, 200, 0));
	}
	for (k = first; k < first + count; k++) {
		xrc_expect_wc(test, p->i.cq, k, OIB_WC_SUCCESS, OIB_WC_SEND, 200);
		xrc_expect_wc(test, p->t.cq[n], k, OIB_WC_SUCCESS, OIB_WC_RECV, 200);
		KUNIT_EXPECT_EQ(test, 0, memcmp(p->t.buf + k * 256, p->i.buf + k * 256, 200));
	}
}

const u8 xrc_fuzz_mac[ETH_ALEN] = { 0x02, 0x00, 0x5e, 0xf0, 0x33, 0x01 };

void xrc_fuzz_rx(struct orxe_fabric_port *fp, struct sk_buff *skb)
{
	kfree_skb(skb);
}

void xrc_fuzz_detach(void *fp)
{
	oib_rxe_fabric_detach(fp);
}

/* A frame of the test's own to the target QP, from @fp, as the initiator would send it. */
void xrc_inject(struct kunit *test, struct xrc_pair *p, struct orxe_fabric_port *fp,
		u8 opcode, u32 psn, u32 srqn, u32 paylen)
{
	xrc_inject_rdma(test, p, fp, opcode, psn, srqn, paylen, 0, 0, 0);
}

/* The same, with a RETH naming @len bytes at @va under @rkey (for opcodes that carry one). */
void xrc_inject_rdma(struct kunit *test, struct xrc_pair *p, struct orxe_fabric_port *fp,
		     u8 opcode, u32 psn, u32 srqn, u32 paylen, u64 va, u32 rkey, u32 len)
{
	static u8 payload[1024];
	struct orxe_tx_hdr h = {
		.sgid = p->i.gid, .dgid = p->t.gid, .hop_limit = 64, .opcode = opcode,
		.pkey = 0xffff, .dest_qpn = p->t.qpn, .psn = psn, .xrc_srqn = srqn,
		.ack_req = true, .paylen = paylen,
		.reth = { .va = va, .rkey = rkey, .len = len },
	};
	struct sk_buff *skb = alloc_skb(2048, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	memcpy(h.smac, fp->mac, ETH_ALEN);
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_resolve(p->f, &h.dgid, h.dmac));
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_frame_build_skb(&h, payload, skb));
	oib_rxe_fabric_xmit(fp, skb);
}
