// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit allocation-failure sweeps of oib_uverbs: a context's opening and each command that makes
 * an object (PD, CQ, QP, AH, SRQ, the async event file; CQs, QPs and SRQs with mapped rings too;
 * XRC domains, XRC SRQs, XRC initiators and targets, a domain's receive QP and its
 * registration), with the Nth allocation failing for every N.
 * A failed command leaves neither a handle nor a device object behind; a successful one is
 * undone; closing the context at the end finds nothing it should not.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/module.h>
#include <oib/kunit/uverbs.h>
#include "oib_toolkit.h"

struct uv_sweep {
	struct oib_device *device;
	struct oib_uverbs_file *ufile;	/* the context the commands run on */
	struct oib_uverbs_file *opened;	/* the sweep of opening: what the create opened */
	u32 pd, cq, handle;
	u32 xrc_obj;			/* the XRC SRQ or target sweep: the object */
	u32 ring_flags;			/* the CQ, QP and SRQ sweeps: mapped rings or not */
	unsigned int nobjects;
};

static void uv_close(void *ufile)
{
	oib_uverbs_test_close(ufile);
}

static struct uv_sweep *uv_setup(struct kunit *test)
{
	struct uv_sweep *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct oib_uverbs_alloc_pd pd = { 0 };
	struct oib_uverbs_create_cq cq = { .cqe = 16, .channel_fd = -1 };

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->device = oib_test_rxe_ports(test, 1);
	s->ufile = oib_uverbs_test_open(s->device);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s->ufile);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, uv_close, s->ufile));
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_ALLOC_PD, &pd), 0);
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_CREATE_CQ, &cq), 0);
	s->pd = pd.handle;
	s->cq = cq.handle;
	s->nobjects = oib_uverbs_test_nobjects(s->ufile);
	return s;
}

/* A command's result: on failure, the handle table must be as it was. */
static int uv_result(struct kunit *test, struct uv_sweep *s, int ret, u32 handle)
{
	if (ret)
		KUNIT_EXPECT_EQ(test, oib_uverbs_test_nobjects(s->ufile), s->nobjects);
	s->handle = handle;
	return ret;
}

static void uv_destroy(struct kunit *test, struct uv_sweep *s, unsigned int nr)
{
	struct oib_uverbs_destroy_reported d = { .handle = s->handle };

	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(s->ufile, nr, &d), 0);
}

static void uv_run(struct kunit *test, struct uv_sweep *s,
		   int (*create)(struct kunit *test, void *ctx),
		   void (*destroy)(struct kunit *test, void *ctx))
{
	int injected = oib_test_failslab_sweep(test, s->device, create, destroy, s);

	KUNIT_EXPECT_GT_MSG(test, injected, 0, "no allocation failure was injected");
	kunit_info(test, "%d allocation failures injected\n", injected);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_nobjects(s->ufile), s->nobjects);
}

static int open_create(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;

	s->opened = oib_uverbs_test_open(s->device);
	return PTR_ERR_OR_ZERO(s->opened);
}

static void open_destroy(struct kunit *test, void *ctx)
{
	oib_uverbs_test_close(((struct uv_sweep *)ctx)->opened);
}

static void failslab_open(struct kunit *test)
{
	uv_run(test, uv_setup(test), open_create, open_destroy);
}

static int pd_create(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_alloc_pd c = { 0 };

	int ret = oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_ALLOC_PD, &c);

	return uv_result(test, s, ret, c.handle);
}

static void pd_destroy(struct kunit *test, void *ctx)
{
	uv_destroy(test, ctx, OIB_UVERBS_DEALLOC_PD);
}

static void failslab_pd(struct kunit *test)
{
	uv_run(test, uv_setup(test), pd_create, pd_destroy);
}

static int cq_create(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_create_cq c = { .cqe = 64, .channel_fd = -1,
					  .ring_flags = s->ring_flags };

	int ret = oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_CREATE_CQ, &c);

	return uv_result(test, s, ret, c.handle);
}

static void cq_destroy(struct kunit *test, void *ctx)
{
	uv_destroy(test, ctx, OIB_UVERBS_DESTROY_CQ);
}

static void failslab_cq(struct kunit *test)
{
	uv_run(test, uv_setup(test), cq_create, cq_destroy);
}

static void failslab_cq_mapped(struct kunit *test)
{
	struct uv_sweep *s = uv_setup(test);

	s->ring_flags = OIB_UVERBS_CREATE_MAPPED;
	uv_run(test, s, cq_create, cq_destroy);
}

static int qp_create(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_create_qp c = {
		.pd_handle = s->pd, .send_cq_handle = s->cq, .recv_cq_handle = s->cq,
		.qp_type = OIB_UVERBS_QPT_RC, .ring_flags = s->ring_flags,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1 },
	};

	int ret = oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_CREATE_QP, &c);

	return uv_result(test, s, ret, c.handle);
}

static void qp_destroy(struct kunit *test, void *ctx)
{
	uv_destroy(test, ctx, OIB_UVERBS_DESTROY_QP);
}

static void failslab_qp(struct kunit *test)
{
	uv_run(test, uv_setup(test), qp_create, qp_destroy);
}

static void failslab_qp_mapped(struct kunit *test)
{
	struct uv_sweep *s = uv_setup(test);

	s->ring_flags = OIB_UVERBS_CREATE_MAPPED | OIB_UVERBS_CREATE_MAPPED_RQ;
	uv_run(test, s, qp_create, qp_destroy);
}

static int ah_create(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_create_ah c = {
		.pd_handle = s->pd, .attr = { .is_global = 1, .port_num = 1, .hop_limit = 64 },
	};

	int ret = oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_CREATE_AH, &c);

	return uv_result(test, s, ret, c.handle);
}

static void ah_destroy(struct kunit *test, void *ctx)
{
	uv_destroy(test, ctx, OIB_UVERBS_DESTROY_AH);
}

static void failslab_ah(struct kunit *test)
{
	uv_run(test, uv_setup(test), ah_create, ah_destroy);
}

static int srq_create(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_create_srq c = {
		.pd_handle = s->pd, .attr = { .max_wr = 16, .max_sge = 1 },
		.ring_flags = s->ring_flags,
	};

	int ret = oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_CREATE_SRQ, &c);

	return uv_result(test, s, ret, c.handle);
}

static void srq_destroy(struct kunit *test, void *ctx)
{
	uv_destroy(test, ctx, OIB_UVERBS_DESTROY_SRQ);
}

static void failslab_srq(struct kunit *test)
{
	uv_run(test, uv_setup(test), srq_create, srq_destroy);
}

static void failslab_srq_mapped(struct kunit *test)
{
	struct uv_sweep *s = uv_setup(test);

	s->ring_flags = OIB_UVERBS_CREATE_MAPPED;
	uv_run(test, s, srq_create, srq_destroy);
}

/* A private XRC domain (fd -1): the handle in s->handle. */
static int xrcd_create(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_open_xrcd c = { .fd = -1 };

	int ret = oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_OPEN_XRCD, &c);

	return uv_result(test, s, ret, c.handle);
}

static void xrcd_destroy(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_destroy d = { .handle = s->handle };

	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_CLOSE_XRCD, &d), 0);
}

static void failslab_xrcd(struct kunit *test)
{
	uv_run(test, uv_setup(test), xrcd_create, xrcd_destroy);
}

/* An XRC SRQ on a domain of its own (both made here, both undone on failure). */
static int xrc_srq_create(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_create_srq c = {
		.pd_handle = s->pd, .attr = { .max_wr = 16, .max_sge = 1 },
		.srq_type = OIB_UVERBS_SRQT_XRC, .cq_handle = s->cq,
	};
	int ret = xrcd_create(test, ctx);

	if (ret)
		return ret;
	c.xrcd_handle = s->handle;
	ret = oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_CREATE_SRQ, &c);
	if (ret)
		xrcd_destroy(test, ctx);
	s->xrc_obj = c.handle;
	return ret;
}

static void xrc_srq_destroy(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_destroy_reported d = { .handle = s->xrc_obj };

	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_DESTROY_SRQ, &d), 0);
	xrcd_destroy(test, ctx);
}

static void failslab_xrc_srq(struct kunit *test)
{
	uv_run(test, uv_setup(test), xrc_srq_create, xrc_srq_destroy);
}

static int xrc_ini_create(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_create_qp c = {
		.pd_handle = s->pd, .send_cq_handle = s->cq, .qp_type = OIB_UVERBS_QPT_XRC_INI,
		.ring_flags = OIB_UVERBS_CREATE_MAPPED,
		.cap = { .max_send_wr = 8, .max_send_sge = 1 },
	};

	int ret = oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_CREATE_QP, &c);

	return uv_result(test, s, ret, c.handle);
}

static void failslab_xrc_ini(struct kunit *test)
{
	uv_run(test, uv_setup(test), xrc_ini_create, qp_destroy);
}

/* An owner's XRC target on a domain of its own (the QP's handle in s->xrc_obj). */
static int xrc_tgt_create(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_create_qp c = { .qp_type = OIB_UVERBS_QPT_XRC_TGT };
	int ret = xrcd_create(test, ctx);

	if (ret)
		return ret;
	c.xrcd_handle = s->handle;
	ret = oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_CREATE_QP, &c);
	if (ret)
		xrcd_destroy(test, ctx);
	s->xrc_obj = c.handle;
	return ret;
}

static void xrc_tgt_destroy(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_destroy_reported d = { .handle = s->xrc_obj };

	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_DESTROY_QP, &d), 0);
	xrcd_destroy(test, ctx);
}

static void failslab_xrc_tgt(struct kunit *test)
{
	uv_run(test, uv_setup(test), xrc_tgt_create, xrc_tgt_destroy);
}

/* A domain, its receive QP and a registration; closing the domain undoes all three. */
static int xrc_rcv_create(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_create_xrc_rcv_qp c = {
		.attr = {
			.attr_mask = OIB_UVERBS_QP_PKEY_INDEX | OIB_UVERBS_QP_PORT |
				     OIB_UVERBS_QP_ACCESS_FLAGS | OIB_UVERBS_QP_AV |
				     OIB_UVERBS_QP_PATH_MTU | OIB_UVERBS_QP_DEST_QPN |
				     OIB_UVERBS_QP_RQ_PSN | OIB_UVERBS_QP_MAX_DEST_RD_ATOMIC |
				     OIB_UVERBS_QP_MIN_RNR_TIMER,
			.port_num = 1, .path_mtu = OIB_MTU_1024, .dest_qp_num = 1,
			.max_dest_rd_atomic = 1,
			.ah_attr = { .is_global = 1, .port_num = 1, .hop_limit = 64 },
		},
	};
	struct oib_uverbs_xrc_rcv_qp_reg r;
	int ret = xrcd_create(test, ctx);

	if (ret)
		return ret;
	c.attr.handle = s->handle;
	ret = oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_CREATE_XRC_RCV_QP, &c);
	r = (struct oib_uverbs_xrc_rcv_qp_reg){ .xrcd_handle = s->handle, .qp_num = c.qp_num };
	if (!ret)
		ret = oib_uverbs_test_cmd(s->ufile, OIB_UVERBS_REG_XRC_RCV_QP, &r);
	if (ret)
		xrcd_destroy(test, ctx);
	return ret;
}

static void failslab_xrc_rcv(struct kunit *test)
{
	uv_run(test, uv_setup(test), xrc_rcv_create, xrcd_destroy);
}

/* The async event file: a context has at most one, so each run opens a context of its own. */
static int async_create(struct kunit *test, void *ctx)
{
	struct uv_sweep *s = ctx;
	struct oib_uverbs_event_file *ef;
	int ret = open_create(test, ctx);

	if (ret)
		return ret;
	ef = oib_uverbs_test_async(s->opened);
	if (IS_ERR(ef)) {
		oib_uverbs_test_close(s->opened);
		return PTR_ERR(ef);
	}
	return 0;
}

static void failslab_async(struct kunit *test)
{
	uv_run(test, uv_setup(test), async_create, open_destroy);
}

static struct kunit_case failslab_test_cases[] = {
	KUNIT_CASE(failslab_open),
	KUNIT_CASE(failslab_pd),
	KUNIT_CASE(failslab_cq),
	KUNIT_CASE(failslab_cq_mapped),
	KUNIT_CASE(failslab_qp),
	KUNIT_CASE(failslab_qp_mapped),
	KUNIT_CASE(failslab_ah),
	KUNIT_CASE(failslab_srq),
	KUNIT_CASE(failslab_srq_mapped),
	KUNIT_CASE(failslab_async),
	KUNIT_CASE(failslab_xrcd),
	KUNIT_CASE(failslab_xrc_srq),
	KUNIT_CASE(failslab_xrc_ini),
	KUNIT_CASE(failslab_xrc_tgt),
	KUNIT_CASE(failslab_xrc_rcv),
	{}
};

static struct kunit_suite failslab_test_suite = {
	.name = "oib_uverbs_failslab",
	.test_cases = failslab_test_cases,
};

kunit_test_suite(failslab_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit allocation-failure sweeps of oib_uverbs's contexts and commands");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
