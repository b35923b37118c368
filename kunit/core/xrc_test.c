// SPDX-License-Identifier: GPL-2.0-only
/*
 * The XRC verbs of oib_core on oib_rxe: domains and their references, XRC SRQs, initiator and
 * target QPs, and the kernel-owned receive QPs, each with bad arguments, and the lifetimes:
 * -EBUSY while owners' objects use a domain, the domain's last put destroying its receive QPs,
 * and a registration keeping one past it.
 */
#include <linux/module.h>
#include "oib_toolkit.h"

struct xrc_objs {
	struct oib_device *dev;
	struct oib_pd *pd;
	struct oib_cq *cq;
	struct oib_xrcd *xrcd;
};

static void xrc_objs(struct kunit *test, struct xrc_objs *o)
{
	o->dev = oib_test_rxe_ports(test, 1);
	o->pd = oib_test_pd(test, o->dev);
	o->cq = oib_test_cq(test, o->dev, 64);
	o->xrcd = oib_test_xrcd(test, o->dev);
}

static struct oib_srq_init_attr xrc_srq_attr(struct xrc_objs *o)
{
	return (struct oib_srq_init_attr){
		.srq_type = OIB_SRQT_XRC, .attr = { .max_wr = 16, .max_sge = 1 },
		.xrc = { .xrcd = o->xrcd, .cq = o->cq },
	};
}

static struct oib_qp_init_attr xrc_ini_attr(struct xrc_objs *o)
{
	return (struct oib_qp_init_attr){
		.qp_type = OIB_QPT_XRC_INI, .send_cq = o->cq,
		.cap = { .max_send_wr = 8, .max_send_sge = 1 },
	};
}

static struct oib_qp_init_attr xrc_tgt_attr(struct xrc_objs *o)
{
	return (struct oib_qp_init_attr){ .qp_type = OIB_QPT_XRC_TGT, .xrcd = o->xrcd };
}

/* The attributes and mask the 2007 design gives a receive QP: RESET->INIT->RTR, nothing else. */
static int xrc_rcv_attr(struct oib_qp_attr *attr)
{
	struct oib_test_path path;

	oib_test_path_init(&path);
	*attr = (struct oib_qp_attr){
		.port_num = 1, .pkey_index = 0, .qp_access_flags = OIB_ACCESS_REMOTE_WRITE,
		.path_mtu = path.mtu, .dest_qp_num = path.dest_qpn, .rq_psn = path.rq_psn,
		.max_dest_rd_atomic = 4, .min_rnr_timer = 1,
		.ah_attr = { .port_num = 1, .flags = OIB_AH_GRH,
			     .grh = { .dgid = path.dgid, .hop_limit = 64 } },
	};
	return OIB_QP_ACCESS_FLAGS | OIB_QP_PKEY_INDEX | OIB_QP_PORT | OIB_QP_AV |
	       OIB_QP_PATH_MTU | OIB_QP_DEST_QPN | OIB_QP_RQ_PSN | OIB_QP_MIN_RNR_TIMER |
	       OIB_QP_MAX_DEST_RD_ATOMIC;
}

static void xrcd_args(struct kunit *test)
{
	struct xrc_objs o;

	xrc_objs(test, &o);
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_alloc_xrcd(NULL)));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_dealloc_xrcd(NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_xrcd_put(ERR_PTR(-ENOMEM)));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_reg_xrc_rcv_qp(NULL, 16));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_unreg_xrc_rcv_qp(NULL, 16));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_reg_xrc_rcv_qp(o.xrcd, 16));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_unreg_xrc_rcv_qp(o.xrcd, 16));
	KUNIT_EXPECT_EQ(test, 1, oib_object_count(o.dev, OIB_OBJ_XRCD));
}

/* Owners' SRQs and target QPs hold the domain: only its last put is refused, and kept. */
static void xrcd_busy(struct kunit *test)
{
	struct xrc_objs o;
	struct oib_srq_init_attr sa;
	struct oib_qp_init_attr ta;
	struct oib_xrcd *xrcd;
	struct oib_srq *srq;
	struct oib_qp *tgt;

	xrc_objs(test, &o);
	xrcd = oib_alloc_xrcd(o.dev);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, xrcd);
	o.xrcd = xrcd;
	sa = xrc_srq_attr(&o);
	ta = xrc_tgt_attr(&o);
	srq = oib_create_srq(o.pd, &sa);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	tgt = oib_create_qp(NULL, &ta);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tgt);

	KUNIT_EXPECT_EQ(test, -EBUSY, oib_dealloc_xrcd(xrcd));
	oib_xrcd_get(xrcd);
	KUNIT_EXPECT_EQ(test, 0, oib_xrcd_put(xrcd));	/* not the last */
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_xrcd_put(xrcd));
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_destroy_cq(o.cq));	/* the XRC SRQ completes there */
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_srq(srq));
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_dealloc_xrcd(xrcd));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_qp(tgt));
	KUNIT_EXPECT_EQ(test, 2, oib_object_count(o.dev, OIB_OBJ_XRCD));
	KUNIT_EXPECT_EQ(test, 0, oib_dealloc_xrcd(xrcd));
	KUNIT_EXPECT_EQ(test, 1, oib_object_count(o.dev, OIB_OBJ_XRCD));
}

static void xrc_srq_args(struct kunit *test)
{
	struct oib_srq *a, *b;
	struct oib_srq_init_attr sa;
	struct xrc_objs o;

	xrc_objs(test, &o);
	sa = xrc_srq_attr(&o);
	sa.xrc.xrcd = NULL;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_srq(o.pd, &sa)));
	sa = xrc_srq_attr(&o);
	sa.xrc.cq = NULL;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_srq(o.pd, &sa)));
	sa = xrc_srq_attr(&o);
	sa.srq_type = OIB_SRQT_BASIC;	/* a basic SRQ has no domain */
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_srq(o.pd, &sa)));
	sa.srq_type = OIB_SRQT_XRC + 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_srq(o.pd, &sa)));
	sa = xrc_srq_attr(&o);
	sa.attr.max_wr = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_srq(o.pd, &sa)));
	KUNIT_EXPECT_EQ(test, 0, oib_object_count(o.dev, OIB_OBJ_SRQ));

	sa = xrc_srq_attr(&o);
	a = oib_test_srq(test, o.pd, &sa);
	b = oib_test_srq(test, o.pd, &sa);
	KUNIT_EXPECT_EQ(test, a->srq_type, OIB_SRQT_XRC);
	KUNIT_EXPECT_PTR_EQ(test, a->xrcd, o.xrcd);
	KUNIT_EXPECT_PTR_EQ(test, a->cq, o.cq);
	KUNIT_EXPECT_NE(test, a->srq_num, 0u);
	KUNIT_EXPECT_NE(test, a->srq_num, b->srq_num);
	KUNIT_EXPECT_LE(test, a->srq_num, 0xffffffu);
}

static void xrc_qp_args(struct kunit *test)
{
	struct oib_qp_init_attr ia;
	struct oib_srq_init_attr sa;
	struct oib_recv_wr rwr = {};
	struct oib_send_wr swr = { .opcode = OIB_WR_SEND };
	struct oib_qp *ini, *tgt;
	struct oib_srq *srq;
	struct xrc_objs o;

	xrc_objs(test, &o);
	ia = xrc_ini_attr(&o);
	ia.recv_cq = o.cq;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(o.pd, &ia)));
	ia = xrc_ini_attr(&o);
	ia.cap.max_recv_wr = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(o.pd, &ia)));
	ia = xrc_ini_attr(&o);
	ia.xrcd = o.xrcd;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(o.pd, &ia)));
	ia = xrc_ini_attr(&o);
	ia.send_cq = NULL;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(o.pd, &ia)));
	ia = xrc_ini_attr(&o);
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(NULL, &ia)));

	ia = xrc_tgt_attr(&o);
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(o.pd, &ia)));	/* no PD */
	ia.send_cq = o.cq;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(NULL, &ia)));
	ia = xrc_tgt_attr(&o);
	ia.cap.max_send_wr = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(NULL, &ia)));
	ia = xrc_tgt_attr(&o);
	ia.xrcd = NULL;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(NULL, &ia)));
	KUNIT_EXPECT_EQ(test, 0, oib_object_count(o.dev, OIB_OBJ_QP));

	/* an RC QP takes no XRC SRQ */
	sa = xrc_srq_attr(&o);
	srq = oib_test_srq(test, o.pd, &sa);
	ia = (struct oib_qp_init_attr){ .qp_type = OIB_QPT_RC, .send_cq = o.cq, .recv_cq = o.cq,
					.srq = srq,
					.cap = { .max_send_wr = 1, .max_send_sge = 1 } };
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(o.pd, &ia)));

	ia = xrc_ini_attr(&o);
	ini = oib_test_qp_attr(test, o.pd, &ia);
	ia = xrc_tgt_attr(&o);
	tgt = oib_test_qp_attr(test, NULL, &ia);
	KUNIT_EXPECT_PTR_EQ(test, tgt->xrcd, o.xrcd);
	KUNIT_EXPECT_NULL(test, tgt->pd);
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(ini, OIB_QPS_RTS));
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(tgt, OIB_QPS_RTS));
	/* receives are the SRQs', sends the initiator's; a remote SRQ number is 24 bits */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_recv(ini, &rwr, NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_recv(tgt, &rwr, NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(tgt, &swr, NULL));
	swr.xrc_remote_srq_num = 1 << 24;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(ini, &swr, NULL));
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_dealloc_xrcd(o.xrcd));
}

/* Bad calls of the receive-QP verb leave nothing behind. */
static void xrc_rcv_args(struct kunit *test)
{
	struct oib_qp_attr attr;
	struct xrc_objs o;
	u32 qpn = 0;
	int mask;

	xrc_objs(test, &o);
	mask = xrc_rcv_attr(&attr);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_create_xrc_rcv_qp(NULL, &attr, mask, &qpn));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_create_xrc_rcv_qp(o.xrcd, NULL, mask, &qpn));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_create_xrc_rcv_qp(o.xrcd, &attr, mask, NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_create_xrc_rcv_qp(o.xrcd, &attr, mask | OIB_QP_STATE,
							     &qpn));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_create_xrc_rcv_qp(o.xrcd, &attr, mask | OIB_QP_SQ_PSN,
							     &qpn));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_create_xrc_rcv_qp(o.xrcd, &attr, mask & ~OIB_QP_AV,
							     &qpn));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_create_xrc_rcv_qp(o.xrcd, &attr,
							     mask & ~OIB_QP_PORT, &qpn));
	attr.port_num = 2;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_create_xrc_rcv_qp(o.xrcd, &attr, mask, &qpn));
	KUNIT_EXPECT_EQ(test, 0u, qpn);
	KUNIT_EXPECT_EQ(test, 0, oib_object_count(o.dev, OIB_OBJ_QP));
}

/*
 * The domain owns its receive QPs: registrations come and go, the domain's last put destroys
 * them; one registered then lives on until unregistered, and so does the domain's memory.
 */
static void xrc_rcv_lifetime(struct kunit *test)
{
	struct oib_qp_attr attr;
	struct xrc_objs o;
	u32 a, b;
	int mask;

	xrc_objs(test, &o);
	oib_test_disown(test, o.xrcd);
	mask = xrc_rcv_attr(&attr);
	KUNIT_ASSERT_EQ(test, 0, oib_create_xrc_rcv_qp(o.xrcd, &attr, mask, &a));
	KUNIT_ASSERT_EQ(test, 0, oib_create_xrc_rcv_qp(o.xrcd, &attr, mask, &b));
	KUNIT_EXPECT_NE(test, a, b);
	KUNIT_EXPECT_EQ(test, 2, oib_object_count(o.dev, OIB_OBJ_QP));
	/* the domain's own reference is no registration's to drop */
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_unreg_xrc_rcv_qp(o.xrcd, a));
	KUNIT_EXPECT_EQ(test, 0, oib_reg_xrc_rcv_qp(o.xrcd, a));
	KUNIT_EXPECT_EQ(test, 0, oib_reg_xrc_rcv_qp(o.xrcd, a));
	KUNIT_EXPECT_EQ(test, 0, oib_unreg_xrc_rcv_qp(o.xrcd, a));
	KUNIT_EXPECT_EQ(test, 2, oib_object_count(o.dev, OIB_OBJ_QP));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_reg_xrc_rcv_qp(o.xrcd, a + b));

	/* the last put: b goes, a stays for its registration */
	KUNIT_EXPECT_EQ(test, 0, oib_dealloc_xrcd(o.xrcd));
	KUNIT_EXPECT_EQ(test, 1, oib_object_count(o.dev, OIB_OBJ_QP));
	KUNIT_EXPECT_EQ(test, 1, oib_object_count(o.dev, OIB_OBJ_XRCD));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_unreg_xrc_rcv_qp(o.xrcd, b));
	KUNIT_EXPECT_EQ(test, 0, oib_unreg_xrc_rcv_qp(o.xrcd, a));
	KUNIT_EXPECT_EQ(test, 0, oib_object_count(o.dev, OIB_OBJ_QP));
	KUNIT_EXPECT_EQ(test, 0, oib_object_count(o.dev, OIB_OBJ_XRCD));
}

/* A receive QP is in RTR, an XRC target of its domain, and counted nowhere the owners are. */
static void xrc_rcv_state(struct kunit *test)
{
	struct oib_qp_attr attr;
	struct xrc_objs o;
	u32 qpn;
	int mask;

	xrc_objs(test, &o);
	mask = xrc_rcv_attr(&attr);
	KUNIT_ASSERT_EQ(test, 0, oib_create_xrc_rcv_qp(o.xrcd, &attr, mask, &qpn));
	KUNIT_EXPECT_GE(test, qpn, 16u);
	/* its QP does not hold the domain against its last put */
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&o.xrcd->usecnt));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&o.xrcd->rcv_events));
}

/*
 * Target QPs opened by number: bad opens, handles acting on the QP, and the QP living while it
 * has openers, its creator's destroy only letting go of it.
 */
static void xrc_open_close(struct kunit *test)
{
	struct oib_qp_open_attr oa = { .qp_type = OIB_QPT_XRC_TGT };
	struct oib_qp *tgt, *a, *b, *c;
	struct oib_qp_init_attr ta, ia;
	struct oib_recv_wr rwr = {};
	struct oib_qp_attr attr;
	struct oib_xrcd *other;
	struct xrc_objs o;
	u32 rcv;
	int mask;

	xrc_objs(test, &o);
	other = oib_test_xrcd(test, o.dev);
	ta = xrc_tgt_attr(&o);
	tgt = oib_create_qp(NULL, &ta);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tgt);
	mask = xrc_rcv_attr(&attr);
	KUNIT_ASSERT_EQ(test, 0, oib_create_xrc_rcv_qp(o.xrcd, &attr, mask, &rcv));

	oa.qp_num = tgt->qp_num;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_open_qp(NULL, &oa)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_open_qp(o.xrcd, NULL)));
	KUNIT_EXPECT_EQ(test, -ENOENT, PTR_ERR(oib_open_qp(other, &oa)));
	oa.qp_num = rcv;	/* the domain's own are registered, not opened */
	KUNIT_EXPECT_EQ(test, -ENOENT, PTR_ERR(oib_open_qp(o.xrcd, &oa)));
	oa.qp_num = tgt->qp_num;
	oa.qp_type = OIB_QPT_RC;
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, PTR_ERR(oib_open_qp(o.xrcd, &oa)));
	oa.qp_type = OIB_QPT_XRC_TGT;

	a = oib_open_qp(o.xrcd, &oa);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	b = oib_open_qp(o.xrcd, &oa);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_EQ(test, a->qp_num, tgt->qp_num);
	KUNIT_EXPECT_PTR_EQ(test, a->real_qp, tgt);
	KUNIT_EXPECT_EQ(test, 0, oib_test_qp_to(a, OIB_QPS_RTR));	/* through a handle */
	KUNIT_EXPECT_EQ(test, OIB_QPS_RTR, READ_ONCE(tgt->state));
	KUNIT_EXPECT_EQ(test, 0, oib_query_qp(b, &attr, OIB_QP_STATE, &ia));
	KUNIT_EXPECT_EQ(test, OIB_QPS_RTR, attr.qp_state);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_recv(a, &rwr, NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_destroy_qp(a));	/* handles are closed */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_close_qp(tgt));	/* and QPs destroyed */
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_dealloc_xrcd(o.xrcd));

	/* the creator lets go: the QP stays for its openers, and may be opened again */
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_qp(tgt));
	KUNIT_EXPECT_EQ(test, 2, oib_object_count(o.dev, OIB_OBJ_QP));
	c = oib_open_qp(o.xrcd, &oa);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	KUNIT_EXPECT_EQ(test, 0, oib_close_qp(a));
	KUNIT_EXPECT_EQ(test, 0, oib_close_qp(b));
	KUNIT_EXPECT_EQ(test, 2, oib_object_count(o.dev, OIB_OBJ_QP));
	KUNIT_EXPECT_EQ(test, 0, oib_close_qp(c));
	KUNIT_EXPECT_EQ(test, 1, oib_object_count(o.dev, OIB_OBJ_QP));	/* the receive QP */
	KUNIT_EXPECT_EQ(test, -ENOENT, PTR_ERR(oib_open_qp(o.xrcd, &oa)));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&o.xrcd->usecnt));
}

static struct kunit_case xrc_cases[] = {
	KUNIT_CASE(xrcd_args),
	KUNIT_CASE(xrcd_busy),
	KUNIT_CASE(xrc_srq_args),
	KUNIT_CASE(xrc_qp_args),
	KUNIT_CASE(xrc_rcv_args),
	KUNIT_CASE(xrc_rcv_lifetime),
	KUNIT_CASE(xrc_rcv_state),
	KUNIT_CASE(xrc_open_close),
	{}
};

static struct kunit_suite xrc_suite = {
	.name = "oib_core_xrc",
	.test_cases = xrc_cases,
};

kunit_test_suite(xrc_suite);

MODULE_DESCRIPTION("oib_core XRC verbs tests");
MODULE_LICENSE("GPL");
