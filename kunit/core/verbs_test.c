// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib verbs objects on oib_rxe: create/destroy, -EBUSY on destroy in use, device limits, invalid
 * arguments, the checked modify-QP path, posting rules, flush on error, CQ arming and overflow,
 * SRQs, MRs and AHs.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/completion.h>
#include "oib_toolkit.h"

/* ---- PD, MR, AH ---- */

static void pd_busy_until_dependents_go(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct oib_ah_attr ah_attr = { .port_num = 1, .flags = OIB_AH_GRH };
	struct oib_pd *pd = oib_alloc_pd(dev);
	struct oib_mr *mr;
	struct oib_ah *ah;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	KUNIT_EXPECT_EQ(test, 1, oib_object_count(dev, OIB_OBJ_PD));
	mr = oib_get_dma_mr(pd, OIB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	ah = oib_create_ah(pd, &ah_attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);

	KUNIT_EXPECT_EQ(test, -EBUSY, oib_dealloc_pd(pd));
	KUNIT_EXPECT_EQ(test, 0, oib_dereg_mr(mr));
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_dealloc_pd(pd));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_ah(ah));
	KUNIT_EXPECT_EQ(test, 0, oib_dealloc_pd(pd));
	KUNIT_EXPECT_EQ(test, 0, oib_object_count(dev, OIB_OBJ_PD));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_dealloc_pd(NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_alloc_pd(NULL)));
}

static void mr_keys_and_access(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct oib_pd *pd = oib_test_pd(test, dev);
	void *kbuf = kunit_kzalloc(test, 3 * PAGE_SIZE, GFP_KERNEL);
	void *vbuf = vzalloc(5 * PAGE_SIZE);
	struct oib_mr *a, *b, *c;

	KUNIT_ASSERT_NOT_NULL(test, kbuf);
	KUNIT_ASSERT_NOT_NULL(test, vbuf);

	a = oib_reg_kernel_mr(pd, kbuf + 100, 2 * PAGE_SIZE, OIB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_EXPECT_EQ(test, (u64)(uintptr_t)(kbuf + 100), a->iova);
	KUNIT_EXPECT_EQ(test, (u64)2 * PAGE_SIZE, a->length);
	KUNIT_EXPECT_EQ(test, 0u, a->rkey);	/* no remote access asked for */

	b = oib_reg_kernel_mr(pd, vbuf + 1, 4 * PAGE_SIZE,
			      OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_EQ(test, b->lkey, b->rkey);
	KUNIT_EXPECT_NE(test, a->lkey, b->lkey);

	c = oib_get_dma_mr(pd, OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_READ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	KUNIT_EXPECT_NE(test, c->lkey, a->lkey);
	KUNIT_EXPECT_NE(test, c->lkey, b->lkey);

	/* Remote write without local write, unknown bits, empty or bogus ranges. */
	KUNIT_EXPECT_EQ(test, -EINVAL,
			PTR_ERR(oib_reg_kernel_mr(pd, kbuf, 64, OIB_ACCESS_REMOTE_WRITE)));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			PTR_ERR(oib_reg_kernel_mr(pd, kbuf, 64, OIB_ACCESS_ALL + 1)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_reg_kernel_mr(pd, kbuf, 0, 0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_reg_kernel_mr(pd, NULL, 64, 0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_reg_kernel_mr(NULL, kbuf, 64, 0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_get_dma_mr(pd, OIB_ACCESS_REMOTE_ATOMIC)));

	KUNIT_EXPECT_EQ(test, 3, oib_object_count(dev, OIB_OBJ_MR));
	KUNIT_EXPECT_EQ(test, 0, oib_dereg_mr(a));
	KUNIT_EXPECT_EQ(test, 0, oib_dereg_mr(b));
	KUNIT_EXPECT_EQ(test, 0, oib_dereg_mr(c));
	KUNIT_EXPECT_EQ(test, 0, oib_object_count(dev, OIB_OBJ_MR));
	vfree(vbuf);
}

static void ah_attributes_checked(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 2);
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct oib_ah_attr attr = { .port_num = 2, .flags = OIB_AH_GRH };
	struct oib_ah *ah;

	ah = oib_create_ah(pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	KUNIT_EXPECT_EQ(test, 2u, ah->attr.port_num);
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_ah(ah));

	attr.flags = 0;		/* RoCE needs a GRH */
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_ah(pd, &attr)));
	attr.flags = OIB_AH_GRH;
	attr.grh.sgid_index = 5;	/* empty GID entry */
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_ah(pd, &attr)));
	attr.grh.sgid_index = 0;
	attr.port_num = 3;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_ah(pd, &attr)));
	attr.port_num = 1;
	attr.sl = 16;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_ah(pd, &attr)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_ah(pd, NULL)));
}

/* ---- CQ ---- */

static void cq_create_checked(struct kunit *test)
{
	struct oib_rxe_params p = { .num_ports = 1, .max_cqe = 64 };
	struct oib_device *dev = oib_test_rxe(test, &p);
	struct oib_cq_init_attr attr = { .cqe = 10 };
	struct oib_cq *cq;

	cq = oib_create_cq(dev, NULL, NULL, NULL, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_EXPECT_GE(test, cq->cqe, 10u);
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_cq(cq));

	attr.cqe = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_cq(dev, NULL, NULL, NULL, &attr)));
	attr.cqe = 65;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_cq(dev, NULL, NULL, NULL, &attr)));
	attr.cqe = 8;
	attr.comp_vector = dev->attrs.num_comp_vectors;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_cq(dev, NULL, NULL, NULL, &attr)));
	attr.comp_vector = 0;
	attr.flags = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_cq(dev, NULL, NULL, NULL, &attr)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_cq(dev, NULL, NULL, NULL, NULL)));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_destroy_cq(NULL));
}

static void cq_notify_flags_checked(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct oib_cq *cq = oib_test_cq(test, dev, 4);

	KUNIT_EXPECT_EQ(test, -EINVAL, oib_req_notify_cq(cq, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_req_notify_cq(cq, OIB_CQ_SOLICITED_MASK));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_req_notify_cq(cq, OIB_CQ_NEXT_COMP | BIT(7)));
	KUNIT_EXPECT_EQ(test, 0, oib_req_notify_cq(cq, OIB_CQ_NEXT_COMP |
						    OIB_CQ_REPORT_MISSED_EVENTS));
}

/* ---- QP creation ---- */

static void qp_create_checked(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 2);
	struct oib_device *other = oib_test_rxe_ports(test, 1);
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct oib_cq *cq = oib_test_cq(test, dev, 16);
	struct oib_cq *ocq = oib_test_cq(test, other, 16);
	struct oib_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .qp_type = OIB_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct oib_qp_init_attr bad;
	struct oib_qp *qp, *gsi;

	qp = oib_create_qp(pd, &ia);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_EXPECT_GE(test, qp->qp_num, 16u);
	KUNIT_EXPECT_EQ(test, OIB_QPS_RESET, qp->state);
	KUNIT_EXPECT_GE(test, ia.cap.max_send_wr, 4u);	/* granted caps come back */
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_destroy_cq(cq));
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_dealloc_pd(pd));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_qp(qp));

#define EXPECT_CREATE_FAILS(err, field, value) do {				\
		bad = ia;							\
		bad.field = value;						\
		KUNIT_EXPECT_EQ_MSG(test, (long)(err), PTR_ERR(oib_create_qp(pd, &bad)), \
				    #field " = " #value);			\
	} while (0)

	EXPECT_CREATE_FAILS(-EINVAL, send_cq, NULL);
	EXPECT_CREATE_FAILS(-EINVAL, recv_cq, NULL);
	EXPECT_CREATE_FAILS(-EINVAL, send_cq, ocq);
	EXPECT_CREATE_FAILS(-EINVAL, qp_type, OIB_QPT_MAX);
	/* XRC QPs with an RC QP's arguments (a receive CQ, a PD for the target): xrc_test.c */
	EXPECT_CREATE_FAILS(-EINVAL, qp_type, OIB_QPT_XRC_INI);
	EXPECT_CREATE_FAILS(-EINVAL, qp_type, OIB_QPT_XRC_TGT);
	EXPECT_CREATE_FAILS(-EINVAL, port_num, 1);	/* only special QPs name a port */
	EXPECT_CREATE_FAILS(-EINVAL, cap.max_send_wr, dev->attrs.max_qp_wr + 1);
	EXPECT_CREATE_FAILS(-EINVAL, cap.max_recv_sge, dev->attrs.max_recv_sge + 1);
	EXPECT_CREATE_FAILS(-EINVAL, cap.max_inline_data, dev->attrs.max_inline_data + 1);
	EXPECT_CREATE_FAILS(-EINVAL, sq_sig_type, 7);
	EXPECT_CREATE_FAILS(-EINVAL, create_flags, 1);
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(pd, NULL)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(NULL, &ia)));

	/* Special QPs: one GSI QP per port, numbered 1; no SMI on a RoCE port. */
	ia.qp_type = OIB_QPT_GSI;
	ia.port_num = 2;
	gsi = oib_create_qp(pd, &ia);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gsi);
	KUNIT_EXPECT_EQ(test, 1u, gsi->qp_num);
	KUNIT_EXPECT_EQ(test, 2u, gsi->port_num);
	KUNIT_EXPECT_EQ(test, -EBUSY, PTR_ERR(oib_create_qp(pd, &ia)));
	EXPECT_CREATE_FAILS(-EINVAL, port_num, 3);
	EXPECT_CREATE_FAILS(-EOPNOTSUPP, qp_type, OIB_QPT_SMI);
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_qp(gsi));
	gsi = oib_create_qp(pd, &ia);	/* the slot is free again */
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gsi);
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_qp(gsi));
#undef EXPECT_CREATE_FAILS
}

static void qp_limit_enforced(struct kunit *test)
{
	struct oib_rxe_params p = { .num_ports = 1, .max_qp = 2, .max_pd = 1 };
	struct oib_device *dev = oib_test_rxe(test, &p);
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct oib_cq *cq = oib_test_cq(test, dev, 4);
	struct oib_qp_init_attr ia = { .send_cq = cq, .recv_cq = cq, .qp_type = OIB_QPT_UD,
				       .cap = { .max_send_wr = 1, .max_send_sge = 1 } };

	KUNIT_EXPECT_EQ(test, -ENOSPC, PTR_ERR(oib_alloc_pd(dev)));
	oib_test_qp(test, pd, cq, OIB_QPT_UD, 1);
	oib_test_qp(test, pd, cq, OIB_QPT_RC, 1);
	KUNIT_EXPECT_EQ(test, -ENOSPC, PTR_ERR(oib_create_qp(pd, &ia)));
	KUNIT_EXPECT_EQ(test, 2, oib_object_count(dev, OIB_OBJ_QP));
}

/* ---- modify/query ---- */

static const enum oib_qp_type walk_types[] = { OIB_QPT_RC, OIB_QPT_UC, OIB_QPT_UD, OIB_QPT_GSI };

static void qp_type_desc(const enum oib_qp_type *t, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", oib_qp_type_name(*t));
}

KUNIT_ARRAY_PARAM(walk_type, walk_types, qp_type_desc);

static void qp_walks_the_state_machine(struct kunit *test)
{
	enum oib_qp_type type = *(const enum oib_qp_type *)test->param_value;
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct oib_cq *cq = oib_test_cq(test, dev, 16);
	struct oib_qp *qp = oib_test_qp(test, pd, cq, type, 4);
	struct oib_qp_init_attr init;
	struct oib_qp_attr attr = {};

	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(qp, OIB_QPS_RTS));
	KUNIT_EXPECT_EQ(test, OIB_QPS_RTS, qp->state);
	KUNIT_ASSERT_EQ(test, 0, oib_query_qp(qp, &attr, OIB_QP_ATTR_ALL, &init));
	KUNIT_EXPECT_EQ(test, OIB_QPS_RTS, attr.qp_state);
	KUNIT_EXPECT_EQ(test, 200u, attr.sq_psn);
	KUNIT_EXPECT_EQ(test, 1u, attr.port_num);
	KUNIT_EXPECT_EQ(test, type, init.qp_type);
	KUNIT_EXPECT_PTR_EQ(test, cq, init.send_cq);
	if (type == OIB_QPT_RC) {
		KUNIT_EXPECT_EQ(test, 100u, attr.rq_psn);
		KUNIT_EXPECT_EQ(test, 0x42u, attr.dest_qp_num);
		KUNIT_EXPECT_EQ(test, OIB_MTU_1024, attr.path_mtu);
		KUNIT_EXPECT_EQ(test, 14, attr.timeout);
	}

	/* RTS -> SQD -> RTS, then ERR, then RESET and all the way up again. */
	attr.qp_state = OIB_QPS_SQD;
	KUNIT_EXPECT_EQ(test, 0, oib_modify_qp(qp, &attr, OIB_QP_STATE));
	attr.qp_state = OIB_QPS_RTS;
	KUNIT_EXPECT_EQ(test, 0, oib_modify_qp(qp, &attr, OIB_QP_STATE));
	attr.qp_state = OIB_QPS_ERR;
	KUNIT_EXPECT_EQ(test, 0, oib_modify_qp(qp, &attr, OIB_QP_STATE));
	attr.qp_state = OIB_QPS_RTS;	/* ERR -> RTS is not a transition */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_qp(qp, &attr, OIB_QP_STATE));
	attr.qp_state = OIB_QPS_RESET;
	KUNIT_EXPECT_EQ(test, 0, oib_modify_qp(qp, &attr, OIB_QP_STATE));
	KUNIT_EXPECT_EQ(test, 0, oib_test_qp_to(qp, OIB_QPS_RTS));
}

static void qp_modify_values_checked(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct oib_cq *cq = oib_test_cq(test, dev, 16);
	struct oib_qp *rc = oib_test_qp(test, pd, cq, OIB_QPT_RC, 4);
	struct oib_qp *gsi = oib_test_qp(test, pd, cq, OIB_QPT_GSI, 4);
	struct oib_qp_attr a = { .qp_state = OIB_QPS_INIT, .port_num = 1 };
	const int init_mask = OIB_QP_STATE | OIB_QP_PKEY_INDEX | OIB_QP_PORT | OIB_QP_ACCESS_FLAGS;
	const int rtr_mask = OIB_QP_STATE | OIB_QP_AV | OIB_QP_PATH_MTU | OIB_QP_DEST_QPN |
			     OIB_QP_RQ_PSN | OIB_QP_MAX_DEST_RD_ATOMIC | OIB_QP_MIN_RNR_TIMER;
	struct oib_qp_attr r;

	a.port_num = 2;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_qp(rc, &a, init_mask));
	a.port_num = 1;
	a.pkey_index = 64;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_qp(rc, &a, init_mask));
	a.pkey_index = 0;
	a.qp_access_flags = OIB_ACCESS_ALL + 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_qp(rc, &a, init_mask));
	a.qp_access_flags = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_qp(rc, &a, init_mask & ~OIB_QP_PORT));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_qp(rc, &a, init_mask | OIB_QP_QKEY));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_qp(rc, &a, init_mask | BIT(25)));
	KUNIT_EXPECT_EQ(test, OIB_QPS_RESET, rc->state);	/* nothing above changed it */
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(rc, &a, init_mask));

	/* INIT -> RTR: each bad value on its own. */
	memset(&r, 0, sizeof(r));
	r.qp_state = OIB_QPS_RTR;
	r.ah_attr.port_num = 1;
	r.ah_attr.flags = OIB_AH_GRH;
	r.path_mtu = OIB_MTU_4096;
	r.dest_qp_num = 17;
#define EXPECT_RTR_FAILS(field, value) do {					\
		struct oib_qp_attr b = r;					\
		b.field = value;						\
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, oib_modify_qp(rc, &b, rtr_mask), \
				    #field " = " #value);			\
	} while (0)
	EXPECT_RTR_FAILS(path_mtu, 6);
	EXPECT_RTR_FAILS(path_mtu, 0);
	EXPECT_RTR_FAILS(dest_qp_num, 0x1000000);
	EXPECT_RTR_FAILS(rq_psn, 0x1000000);
	EXPECT_RTR_FAILS(min_rnr_timer, 32);
	EXPECT_RTR_FAILS(max_dest_rd_atomic, 255);
	EXPECT_RTR_FAILS(ah_attr.flags, 0);
	EXPECT_RTR_FAILS(ah_attr.port_num, 2);
	EXPECT_RTR_FAILS(ah_attr.grh.sgid_index, 3);
#undef EXPECT_RTR_FAILS
	/* CUR_STATE is not allowed on INIT -> RTR, even when it is right. */
	r.cur_qp_state = OIB_QPS_INIT;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_qp(rc, &r, rtr_mask | OIB_QP_CUR_STATE));
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(rc, &r, rtr_mask));

	/* RTR -> RTS with a stated current state: must match. */
	memset(&r, 0, sizeof(r));
	r.qp_state = OIB_QPS_RTS;
	r.cur_qp_state = OIB_QPS_RTS;
	r.timeout = 32;
	KUNIT_EXPECT_EQ(test, -EINVAL,
			oib_modify_qp(rc, &r, OIB_QP_STATE | OIB_QP_CUR_STATE | OIB_QP_SQ_PSN |
				      OIB_QP_TIMEOUT | OIB_QP_RETRY_CNT | OIB_QP_RNR_RETRY |
				      OIB_QP_MAX_QP_RD_ATOMIC));
	r.cur_qp_state = OIB_QPS_RTR;
	KUNIT_EXPECT_EQ(test, -EINVAL,		/* timeout 32 is out of range */
			oib_modify_qp(rc, &r, OIB_QP_STATE | OIB_QP_CUR_STATE | OIB_QP_SQ_PSN |
				      OIB_QP_TIMEOUT | OIB_QP_RETRY_CNT | OIB_QP_RNR_RETRY |
				      OIB_QP_MAX_QP_RD_ATOMIC));
	r.timeout = 31;
	r.retry_cnt = 8;
	KUNIT_EXPECT_EQ(test, -EINVAL,
			oib_modify_qp(rc, &r, OIB_QP_STATE | OIB_QP_SQ_PSN | OIB_QP_TIMEOUT |
				      OIB_QP_RETRY_CNT | OIB_QP_RNR_RETRY |
				      OIB_QP_MAX_QP_RD_ATOMIC));
	r.retry_cnt = 7;
	KUNIT_EXPECT_EQ(test, 0,
			oib_modify_qp(rc, &r, OIB_QP_STATE | OIB_QP_CUR_STATE | OIB_QP_SQ_PSN |
				      OIB_QP_TIMEOUT | OIB_QP_RETRY_CNT | OIB_QP_RNR_RETRY |
				      OIB_QP_MAX_QP_RD_ATOMIC));

	/* The GSI QP's Q_Key is fixed by the spec. */
	memset(&r, 0, sizeof(r));
	r.qp_state = OIB_QPS_INIT;
	r.qkey = 0x1234;
	KUNIT_EXPECT_EQ(test, -EINVAL,
			oib_modify_qp(gsi, &r, OIB_QP_STATE | OIB_QP_PKEY_INDEX | OIB_QP_QKEY));
	r.qkey = 0x80010000;
	KUNIT_EXPECT_EQ(test, 0,
			oib_modify_qp(gsi, &r, OIB_QP_STATE | OIB_QP_PKEY_INDEX | OIB_QP_QKEY));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_qp(NULL, &r, OIB_QP_STATE));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_qp(gsi, NULL, OIB_QP_STATE));
}

/* ---- Posting and flushing ---- */

struct cq_watch {
	struct completion comp;
	atomic_t comps;
	atomic_t errors;
};

static void watch_comp(struct oib_cq *cq, void *ctx)
{
	struct cq_watch *w = ctx;

	atomic_inc(&w->comps);
	complete(&w->comp);
}

static void watch_event(struct oib_event *ev, void *ctx)
{
	struct cq_watch *w = ctx;

	if (ev->event == OIB_EVENT_CQ_ERR)
		atomic_inc(&w->errors);
}

/* A test-managed CQ whose handlers count into @w. */
static struct oib_cq *watched_cq(struct kunit *test, struct oib_device *dev, u32 cqe,
				 struct cq_watch *w)
{
	init_completion(&w->comp);
	atomic_set(&w->comps, 0);
	atomic_set(&w->errors, 0);
	return oib_test_cq_handlers(test, dev, cqe, watch_comp, watch_event, w);
}

static void post_rules(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct oib_cq *cq = oib_test_cq(test, dev, 64);
	struct oib_qp *rc = oib_test_qp(test, pd, cq, OIB_QPT_RC, 4);
	struct oib_qp *ud = oib_test_qp(test, pd, cq, OIB_QPT_UD, 4);
	u64 buf[8] = {};
	struct oib_sge sge = { .addr = (u64)(uintptr_t)buf, .length = 8 };
	struct oib_send_wr wr[6] = {};
	struct oib_recv_wr rwr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 };
	const struct oib_send_wr *bad;
	const struct oib_recv_wr *rbad;
	int i;

	for (i = 0; i < ARRAY_SIZE(wr); i++) {
		wr[i].wr_id = i;
		wr[i].opcode = OIB_WR_SEND;
		wr[i].sg_list = &sge;
		wr[i].num_sge = 1;
		wr[i].next = i + 1 < ARRAY_SIZE(wr) ? &wr[i + 1] : NULL;
	}

	/* RESET refuses both; INIT takes receives but not sends. */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(rc, &wr[5], &bad));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_recv(rc, &rwr, &rbad));
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(rc, OIB_QPS_INIT));
	KUNIT_EXPECT_EQ(test, 0, oib_post_recv(rc, &rwr, &rbad));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(rc, &wr[5], &bad));
	KUNIT_EXPECT_PTR_EQ(test, &wr[5], bad);

	/* RTR accepts sends (they wait for RTS); a full queue stops at the first that won't fit. */
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(rc, OIB_QPS_RTR));
	KUNIT_EXPECT_EQ(test, -ENOMEM, oib_post_send(rc, &wr[0], &bad));
	KUNIT_EXPECT_PTR_EQ(test, &wr[4], bad);

	/* Bad requests: opcode, SGE count, flags, inline size, atomic shape. */
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(ud, OIB_QPS_RTS));
	wr[5].next = NULL;
	wr[5].opcode = OIB_WR_RDMA_WRITE;	/* not on UD */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(ud, &wr[5], &bad));
	wr[5].opcode = OIB_WR_SEND;		/* no AH */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(ud, &wr[5], &bad));
	wr[5].opcode = OIB_WR_MAX;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(ud, &wr[5], &bad));
	wr[5].opcode = OIB_WR_SEND;
	wr[5].num_sge = 3;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(ud, &wr[5], &bad));
	wr[5].num_sge = 1;
	wr[5].send_flags = BIT(9);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(ud, &wr[5], &bad));

	/* Receive SGE count over the QP's cap. */
	rwr.num_sge = 3;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_recv(ud, &rwr, &rbad));
	KUNIT_EXPECT_PTR_EQ(test, &rwr, rbad);
}

static void post_send_shapes_on_rc(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct oib_cq *cq = oib_test_cq(test, dev, 64);
	struct oib_qp *rc = oib_test_qp(test, pd, cq, OIB_QPT_RC, 16);
	u8 buf[128] = {};
	struct oib_sge sge = { .addr = (u64)(uintptr_t)buf, .length = 8 };
	struct oib_send_wr wr = { .sg_list = &sge, .num_sge = 1 };
	const struct oib_send_wr *bad;

	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(rc, OIB_QPS_RTS));
	wr.opcode = OIB_WR_ATOMIC_FETCH_AND_ADD;
	wr.wr.atomic.remote_addr = 0x1000;
	KUNIT_EXPECT_EQ(test, 0, oib_post_send(rc, &wr, &bad));
	wr.wr.atomic.remote_addr = 0x1004;	/* misaligned */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(rc, &wr, &bad));
	wr.wr.atomic.remote_addr = 0x1000;
	sge.length = 4;				/* atomics move exactly 8 bytes */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(rc, &wr, &bad));

	wr.opcode = OIB_WR_SEND;
	wr.send_flags = OIB_SEND_INLINE;
	sge.length = 64;			/* the QP's inline cap */
	KUNIT_EXPECT_EQ(test, 0, oib_post_send(rc, &wr, &bad));
	sge.length = 65;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(rc, &wr, &bad));
	wr.opcode = OIB_WR_RDMA_READ;
	sge.length = 8;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_send(rc, &wr, &bad));
	wr.send_flags = 0;
	KUNIT_EXPECT_EQ(test, 0, oib_post_send(rc, &wr, &bad));
	wr.opcode = OIB_WR_SEND;
	wr.num_sge = 0;				/* zero-length send */
	KUNIT_EXPECT_EQ(test, 0, oib_post_send(rc, &wr, &bad));
}

static void error_state_flushes_everything(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct cq_watch w;
	struct oib_cq *cq = watched_cq(test, dev, 32, &w);
	struct oib_qp *qp = oib_test_qp(test, pd, cq, OIB_QPT_RC, 8);
	u64 word;
	struct oib_sge sge = { .addr = (u64)(uintptr_t)&word, .length = 8 };
	struct oib_send_wr swr = { .opcode = OIB_WR_SEND, .sg_list = &sge, .num_sge = 1 };
	struct oib_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 };
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_ERR };
	struct oib_wc wc[16];
	int i, n, sends = 0, recvs = 0;

	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(qp, OIB_QPS_RTR));
	for (i = 0; i < 3; i++) {
		rwr.wr_id = 100 + i;
		KUNIT_ASSERT_EQ(test, 0, oib_post_recv(qp, &rwr, NULL));
		swr.wr_id = 200 + i;
		swr.send_flags = i == 1 ? OIB_SEND_SIGNALED : 0;	/* flushes ignore this */
		KUNIT_ASSERT_EQ(test, 0, oib_post_send(qp, &swr, NULL));
	}
	KUNIT_EXPECT_EQ(test, 0, oib_poll_cq(cq, 16, wc));
	KUNIT_ASSERT_EQ(test, 0, oib_req_notify_cq(cq, OIB_CQ_SOLICITED));

	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(qp, &attr, OIB_QP_STATE));
	/* Error completions wake even a CQ armed for solicited ones only. */
	KUNIT_EXPECT_NE(test, 0UL, wait_for_completion_timeout(&w.comp, 5 * HZ));

	n = oib_poll_cq(cq, 16, wc);
	KUNIT_ASSERT_EQ(test, 6, n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, OIB_WC_WR_FLUSH_ERR, wc[i].status);
		KUNIT_EXPECT_PTR_EQ(test, qp, wc[i].qp);
		if (wc[i].opcode == OIB_WC_RECV)
			KUNIT_EXPECT_EQ(test, 100 + recvs++, (int)wc[i].wr_id);
		else
			KUNIT_EXPECT_EQ(test, 200 + sends++, (int)wc[i].wr_id);
	}
	KUNIT_EXPECT_EQ(test, 3, sends);
	KUNIT_EXPECT_EQ(test, 3, recvs);

	/* Still in ERR: what is posted now completes at once, flushed. */
	reinit_completion(&w.comp);
	KUNIT_ASSERT_EQ(test, 0, oib_req_notify_cq(cq, OIB_CQ_NEXT_COMP));
	rwr.wr_id = 300;
	KUNIT_EXPECT_EQ(test, 0, oib_post_recv(qp, &rwr, NULL));
	KUNIT_EXPECT_NE(test, 0UL, wait_for_completion_timeout(&w.comp, 5 * HZ));
	KUNIT_ASSERT_EQ(test, 1, oib_poll_cq(cq, 16, wc));
	KUNIT_EXPECT_EQ(test, 300ULL, wc[0].wr_id);
	KUNIT_EXPECT_EQ(test, OIB_WC_WR_FLUSH_ERR, wc[0].status);
	KUNIT_EXPECT_EQ(test, 0, oib_req_notify_cq(cq, OIB_CQ_NEXT_COMP |
						    OIB_CQ_REPORT_MISSED_EVENTS));

	/* Back through RESET, the queues are empty: nothing more is flushed. */
	attr.qp_state = OIB_QPS_RESET;
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(qp, &attr, OIB_QP_STATE));
	KUNIT_EXPECT_EQ(test, 0, oib_poll_cq(cq, 16, wc));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&w.errors));
}

static void cq_overflow_raises_cq_error(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct cq_watch w;
	struct oib_cq *cq = watched_cq(test, dev, 2, &w);
	struct oib_qp_init_attr ia = { .send_cq = cq, .recv_cq = cq, .qp_type = OIB_QPT_UD,
				       .cap = { .max_recv_wr = 8, .max_recv_sge = 1 } };
	struct oib_recv_wr rwr = {};
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_ERR };
	struct oib_wc wc[8];
	struct oib_qp *qp;
	int i;

	qp = oib_create_qp(pd, &ia);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(qp, OIB_QPS_INIT));
	for (i = 0; i < 8; i++)
		KUNIT_ASSERT_EQ(test, 0, oib_post_recv(qp, &rwr, NULL));
	KUNIT_ASSERT_EQ(test, 0, oib_modify_qp(qp, &attr, OIB_QP_STATE));

	/*
	 * The event comes from the CQ's completion work, soon after.  All eight entries were added
	 * (six of them lost) inside the modify: once one event came, no other can follow.
	 */
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(&w.errors)));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&w.errors));	/* once, not per lost entry */
	KUNIT_EXPECT_EQ(test, (int)cq->cqe, oib_poll_cq(cq, 8, wc));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_qp(qp));
}

/* ---- SRQ ---- */

static void srq_lifecycle_and_checks(struct kunit *test)
{
	struct oib_device *dev = oib_test_rxe_ports(test, 1);
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct oib_cq *cq = oib_test_cq(test, dev, 16);
	struct oib_srq_init_attr sia = { .attr = { .max_wr = 4, .max_sge = 2 } };
	struct oib_srq_init_attr bad;
	struct oib_srq_attr sattr;
	struct oib_recv_wr rwr[5] = {};
	const struct oib_recv_wr *rbad;
	struct oib_qp_init_attr qia = { .send_cq = cq, .recv_cq = cq, .qp_type = OIB_QPT_RC,
					.cap = { .max_send_wr = 1, .max_send_sge = 1 } };
	struct oib_srq *srq;
	struct oib_qp *qp;
	int i;

	srq = oib_create_srq(pd, &sia);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	KUNIT_ASSERT_EQ(test, 0, oib_query_srq(srq, &sattr));
	KUNIT_EXPECT_EQ(test, 4u, sattr.max_wr);
	KUNIT_EXPECT_EQ(test, 0u, sattr.srq_limit);

#define EXPECT_SRQ_FAILS(err, field, value) do {				\
		bad = sia;							\
		bad.field = value;						\
		KUNIT_EXPECT_EQ_MSG(test, (long)(err), PTR_ERR(oib_create_srq(pd, &bad)), \
				    #field " = " #value);			\
	} while (0)
	EXPECT_SRQ_FAILS(-EINVAL, attr.max_wr, 0);
	EXPECT_SRQ_FAILS(-EINVAL, attr.max_wr, dev->attrs.max_srq_wr + 1);
	EXPECT_SRQ_FAILS(-EINVAL, attr.max_sge, dev->attrs.max_srq_sge + 1);
	EXPECT_SRQ_FAILS(-EINVAL, attr.srq_limit, 5);
	EXPECT_SRQ_FAILS(-EINVAL, srq_type, OIB_SRQT_XRC);	/* no domain, no CQ: xrc_test.c */
	EXPECT_SRQ_FAILS(-EINVAL, srq_type, 9);
#undef EXPECT_SRQ_FAILS

	/* Arm the limit; out-of-range limits and resizing are refused. */
	sattr.srq_limit = 2;
	KUNIT_EXPECT_EQ(test, 0, oib_modify_srq(srq, &sattr, OIB_SRQ_LIMIT));
	KUNIT_ASSERT_EQ(test, 0, oib_query_srq(srq, &sattr));
	KUNIT_EXPECT_EQ(test, 2u, sattr.srq_limit);
	sattr.srq_limit = 5;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_srq(srq, &sattr, OIB_SRQ_LIMIT));
	sattr.max_wr = 8;
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, oib_modify_srq(srq, &sattr, OIB_SRQ_MAX_WR));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_srq(srq, &sattr, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_modify_srq(srq, &sattr, BIT(5)));

	/* Posting: the fifth does not fit. */
	for (i = 0; i < 5; i++) {
		rwr[i].wr_id = i;
		rwr[i].next = i < 4 ? &rwr[i + 1] : NULL;
	}
	KUNIT_EXPECT_EQ(test, -ENOMEM, oib_post_srq_recv(srq, rwr, &rbad));
	KUNIT_EXPECT_PTR_EQ(test, &rwr[4], rbad);

	/* A QP on the SRQ: receive caps must be zero, receives go to the SRQ. */
	qia.srq = srq;
	qia.cap.max_recv_wr = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_create_qp(pd, &qia)));
	qia.cap.max_recv_wr = 0;
	qp = oib_create_qp(pd, &qia);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(qp, OIB_QPS_INIT));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_post_recv(qp, &rwr[4], &rbad));
	KUNIT_EXPECT_EQ(test, -EBUSY, oib_destroy_srq(srq));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_qp(qp));
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_srq(srq));
	KUNIT_EXPECT_EQ(test, 0, oib_object_count(dev, OIB_OBJ_SRQ));
}

static struct kunit_case oib_verbs_cases[] = {
	KUNIT_CASE(pd_busy_until_dependents_go),
	KUNIT_CASE(mr_keys_and_access),
	KUNIT_CASE(ah_attributes_checked),
	KUNIT_CASE(cq_create_checked),
	KUNIT_CASE(cq_notify_flags_checked),
	KUNIT_CASE(qp_create_checked),
	KUNIT_CASE(qp_limit_enforced),
	KUNIT_CASE_PARAM(qp_walks_the_state_machine, walk_type_gen_params),
	KUNIT_CASE(qp_modify_values_checked),
	KUNIT_CASE(post_rules),
	KUNIT_CASE(post_send_shapes_on_rc),
	KUNIT_CASE(error_state_flushes_everything),
	KUNIT_CASE(cq_overflow_raises_cq_error),
	KUNIT_CASE(srq_lifecycle_and_checks),
	{}
};

static struct kunit_suite oib_verbs_suite = {
	.name = "oib_core_verbs",
	.test_cases = oib_verbs_cases,
};

kunit_test_suite(oib_verbs_suite);

MODULE_DESCRIPTION("KUnit tests for oib verbs objects on oib_rxe");
MODULE_LICENSE("GPL");
