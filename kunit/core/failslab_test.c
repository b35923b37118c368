// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation failure: every create path of oib_core and oib_rxe, run with the Nth slab allocation
 * failing for N = 1, 2, ... until the path needs no more (current->fail_nth; the guest sets
 * failslab's ignore-gfp-wait to N so sleeping allocations fail too).  Each failure must surface
 * as an error with the device's object counts unchanged; kmemleak, after the modules are
 * unloaded, catches anything else left behind.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "oib_toolkit.h"

struct sweep {
	struct oib_device *dev;
	struct oib_pd *pd;
	struct oib_cq *cq;
	struct oib_srq *srq;
	struct oib_xrcd *xrcd;	/* XRC SRQs' */
	void *buf;
	enum oib_qp_type qp_type;
	void *obj;		/* what create made, for destroy */
};

static struct sweep *sweep_setup(struct kunit *test, bool with_srq)
{
	struct sweep *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct oib_srq_init_attr sia = { .attr = { .max_wr = 4, .max_sge = 1 } };

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->dev = oib_test_rxe_ports(test, 2);
	s->pd = oib_test_pd(test, s->dev);
	s->cq = oib_test_cq(test, s->dev, 16);
	s->buf = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->buf);
	if (with_srq) {
		s->srq = oib_create_srq(s->pd, &sia);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s->srq);
	}
	return s;
}

static void sweep_teardown(struct sweep *s)
{
	if (s->srq)
		oib_destroy_srq(s->srq);
}

static int obj_result(struct sweep *s, void *obj)
{
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	s->obj = obj;
	return 0;
}

/* Run one sweep and insist that it injected at least one failure: a sweep that cannot fail
 * anything proves nothing (for instance if failslab were not set up to fail sleeping allocations).
 */
static void run_sweep(struct kunit *test, struct sweep *s,
		      int (*create)(struct kunit *test, void *ctx),
		      void (*destroy)(struct kunit *test, void *ctx))
{
	int injected = oib_test_failslab_sweep(test, s ? s->dev : NULL, create, destroy, s);

	KUNIT_EXPECT_GT_MSG(test, injected, 0, "no allocation failure was injected");
	kunit_info(test, "%d allocation failures injected\n", injected);
}

/* ---- PD ---- */

static int pd_create(struct kunit *test, void *ctx)
{
	struct sweep *s = ctx;

	return obj_result(s, oib_alloc_pd(s->dev));
}

static void pd_destroy(struct kunit *test, void *ctx)
{
	KUNIT_EXPECT_EQ(test, 0, oib_dealloc_pd(((struct sweep *)ctx)->obj));
}

static void failslab_pd(struct kunit *test)
{
	run_sweep(test, sweep_setup(test, false), pd_create, pd_destroy);
}

/* ---- CQ ---- */

static int cq_create(struct kunit *test, void *ctx)
{
	struct sweep *s = ctx;
	struct oib_cq_init_attr attr = { .cqe = 64, .comp_vector = 0 };

	return obj_result(s, oib_create_cq(s->dev, NULL, NULL, NULL, &attr));
}

static void cq_destroy(struct kunit *test, void *ctx)
{
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_cq(((struct sweep *)ctx)->obj));
}

static void failslab_cq(struct kunit *test)
{
	run_sweep(test, sweep_setup(test, false), cq_create, cq_destroy);
}

/* ---- QP, one sweep per type ---- */

static int qp_create(struct kunit *test, void *ctx)
{
	struct sweep *s = ctx;
	struct oib_qp_init_attr ia = {
		.send_cq = s->cq, .recv_cq = s->cq, .qp_type = s->qp_type,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 2,
			 .max_recv_sge = 2, .max_inline_data = 32 },
		.port_num = s->qp_type == OIB_QPT_GSI ? 2 : 0,
	};

	if (s->srq) {
		ia.srq = s->srq;
		ia.cap.max_recv_wr = 0;
		ia.cap.max_recv_sge = 0;
	}
	return obj_result(s, oib_create_qp(s->pd, &ia));
}

static void qp_destroy(struct kunit *test, void *ctx)
{
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_qp(((struct sweep *)ctx)->obj));
}

struct qp_case {
	const char *name;
	enum oib_qp_type type;
	bool srq;
};

static const struct qp_case qp_cases[] = {
	{ "RC", OIB_QPT_RC, false },
	{ "RC on SRQ", OIB_QPT_RC, true },
	{ "UC", OIB_QPT_UC, false },
	{ "UD", OIB_QPT_UD, false },
	{ "GSI", OIB_QPT_GSI, false },
};

static void qp_case_desc(const struct qp_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(qp_case, qp_cases, qp_case_desc);

static void failslab_qp(struct kunit *test)
{
	const struct qp_case *c = test->param_value;
	struct sweep *s = sweep_setup(test, c->srq);

	s->qp_type = c->type;
	run_sweep(test, s, qp_create, qp_destroy);
	sweep_teardown(s);
}

/* ---- SRQ ---- */

static int srq_create(struct kunit *test, void *ctx)
{
	struct sweep *s = ctx;
	struct oib_srq_init_attr sia = { .attr = { .max_wr = 16, .max_sge = 2, .srq_limit = 4 } };

	return obj_result(s, oib_create_srq(s->pd, &sia));
}

static void srq_destroy(struct kunit *test, void *ctx)
{
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_srq(((struct sweep *)ctx)->obj));
}

static void failslab_srq(struct kunit *test)
{
	run_sweep(test, sweep_setup(test, false), srq_create, srq_destroy);
}

/* ---- XRC: domains, XRC SRQs, kernel-owned receive QPs (with their domain) ---- */

static int xrcd_create(struct kunit *test, void *ctx)
{
	struct sweep *s = ctx;

	return obj_result(s, oib_alloc_xrcd(s->dev));
}

static void xrcd_destroy(struct kunit *test, void *ctx)
{
	KUNIT_EXPECT_EQ(test, 0, oib_dealloc_xrcd(((struct sweep *)ctx)->obj));
}

static void failslab_xrcd(struct kunit *test)
{
	run_sweep(test, sweep_setup(test, false), xrcd_create, xrcd_destroy);
}

static int xrc_srq_create(struct kunit *test, void *ctx)
{
	struct sweep *s = ctx;
	struct oib_srq_init_attr sia = { .srq_type = OIB_SRQT_XRC,
					 .attr = { .max_wr = 16, .max_sge = 2 },
					 .xrc = { .xrcd = s->xrcd, .cq = s->cq } };

	return obj_result(s, oib_create_srq(s->pd, &sia));
}

static void failslab_xrc_srq(struct kunit *test)
{
	struct sweep *s = sweep_setup(test, false);

	s->xrcd = oib_test_xrcd(test, s->dev);
	run_sweep(test, s, xrc_srq_create, srq_destroy);
}

/* A domain and its receive QP, made and gone together: the domain's put destroys the QP. */
static int xrc_rcv_create(struct kunit *test, void *ctx)
{
	struct sweep *s = ctx;
	struct oib_test_path p;
	struct oib_qp_attr attr;
	struct oib_xrcd *xrcd;
	u32 qpn;
	int ret;

	oib_test_path_init(&p);
	attr = (struct oib_qp_attr){
		.port_num = 1, .path_mtu = p.mtu, .dest_qp_num = p.dest_qpn, .rq_psn = p.rq_psn,
		.max_dest_rd_atomic = 4,
		.ah_attr = { .port_num = 1, .flags = OIB_AH_GRH,
			     .grh = { .dgid = p.dgid, .hop_limit = 64 } },
	};
	xrcd = oib_alloc_xrcd(s->dev);
	if (IS_ERR(xrcd))
		return PTR_ERR(xrcd);
	ret = oib_create_xrc_rcv_qp(xrcd, &attr, OIB_QP_ACCESS_FLAGS | OIB_QP_PKEY_INDEX |
				    OIB_QP_PORT | OIB_QP_AV | OIB_QP_PATH_MTU | OIB_QP_DEST_QPN |
				    OIB_QP_RQ_PSN | OIB_QP_MIN_RNR_TIMER |
				    OIB_QP_MAX_DEST_RD_ATOMIC, &qpn);
	if (ret) {
		oib_dealloc_xrcd(xrcd);
		return ret;
	}
	s->obj = xrcd;
	return 0;
}

static void failslab_xrc_rcv_qp(struct kunit *test)
{
	run_sweep(test, sweep_setup(test, false), xrc_rcv_create, xrcd_destroy);
}

/* ---- MR ---- */

static int kmr_create(struct kunit *test, void *ctx)
{
	struct sweep *s = ctx;

	return obj_result(s, oib_reg_kernel_mr(s->pd, s->buf, 2 * PAGE_SIZE,
					       OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_READ));
}

static int dma_mr_create(struct kunit *test, void *ctx)
{
	struct sweep *s = ctx;

	return obj_result(s, oib_get_dma_mr(s->pd, OIB_ACCESS_LOCAL_WRITE));
}

static void mr_destroy(struct kunit *test, void *ctx)
{
	KUNIT_EXPECT_EQ(test, 0, oib_dereg_mr(((struct sweep *)ctx)->obj));
}

static void failslab_kernel_mr(struct kunit *test)
{
	run_sweep(test, sweep_setup(test, false), kmr_create, mr_destroy);
}

static void failslab_dma_mr(struct kunit *test)
{
	run_sweep(test, sweep_setup(test, false), dma_mr_create, mr_destroy);
}

/* ---- AH ---- */

static int ah_create(struct kunit *test, void *ctx)
{
	struct sweep *s = ctx;
	struct oib_ah_attr attr = { .port_num = 2, .flags = OIB_AH_GRH };

	return obj_result(s, oib_create_ah(s->pd, &attr));
}

static void ah_destroy(struct kunit *test, void *ctx)
{
	KUNIT_EXPECT_EQ(test, 0, oib_destroy_ah(((struct sweep *)ctx)->obj));
}

static void failslab_ah(struct kunit *test)
{
	run_sweep(test, sweep_setup(test, false), ah_create, ah_destroy);
}

/* ---- Devices and clients ---- */

static int dummy_add(struct oib_device *device)
{
	return 0;
}

static void dummy_remove(struct oib_device *device, void *data)
{
}

static struct oib_client dummy_client = {
	.name = "failslab_dummy",
	.add = dummy_add,
	.remove = dummy_remove,
};

static int orxe_dev_create(struct kunit *test, void *ctx)
{
	struct oib_rxe_params p = { .num_ports = 1 };
	struct sweep *s = ctx;

	return obj_result(s, oib_rxe_add(&p));
}

static void orxe_dev_destroy(struct kunit *test, void *ctx)
{
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_remove(((struct sweep *)ctx)->obj));
}

/* Device registration, with a client present so its add() path is swept too. */
/*
 * Registering a device makes some 550 allocations: the sweep is cut into ranges of
 * FAILSLAB_DEVICE_SPAN, one case each, so that none nears KUnit's time limit on a slow machine.
 * The last range is open; the first must inject something.
 */
#define FAILSLAB_DEVICE_SPAN	100
static const unsigned int failslab_device_starts[] = { 1, 101, 201, 301, 401, 501 };

static void failslab_device_desc(const unsigned int *first, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "allocations %u-", *first);
}

KUNIT_ARRAY_PARAM(failslab_device, failslab_device_starts, failslab_device_desc);

static void failslab_device(struct kunit *test)
{
	const unsigned int *first = test->param_value;
	bool open = *first == failslab_device_starts[ARRAY_SIZE(failslab_device_starts) - 1];
	struct sweep *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	int injected;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, 0, oib_register_client(&dummy_client));
	injected = oib_test_failslab_sweep_range(test, NULL, orxe_dev_create, orxe_dev_destroy, s,
						 *first, open ? UINT_MAX :
						 *first + FAILSLAB_DEVICE_SPAN - 1);
	oib_unregister_client(&dummy_client);
	if (*first == 1)
		KUNIT_EXPECT_GT_MSG(test, injected, 0, "no allocation failure was injected");
	kunit_info(test, "%d allocation failures injected\n", injected);
}

static struct oib_client second_client = {
	.name = "failslab_second",
	.add = dummy_add,
	.remove = dummy_remove,
};

static int client_create(struct kunit *test, void *ctx)
{
	return oib_register_client(&second_client);
}

static void client_destroy(struct kunit *test, void *ctx)
{
	oib_unregister_client(&second_client);
}

/*
 * Client registration with devices present.  A first client is registered beforehand so the
 * second one's id and per-device entries need xarray nodes: those allocations are what can fail.
 */
static void failslab_client(struct kunit *test)
{
	struct sweep *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->dev = oib_test_rxe_ports(test, 1);
	oib_test_rxe_ports(test, 1);
	KUNIT_ASSERT_EQ(test, 0, oib_register_client(&dummy_client));
	run_sweep(test, s, client_create, client_destroy);
	oib_unregister_client(&dummy_client);
}

static struct kunit_case oib_failslab_cases[] = {
	KUNIT_CASE(failslab_pd),
	KUNIT_CASE(failslab_cq),
	KUNIT_CASE_PARAM(failslab_qp, qp_case_gen_params),
	KUNIT_CASE(failslab_srq),
	KUNIT_CASE(failslab_xrcd),
	KUNIT_CASE(failslab_xrc_srq),
	KUNIT_CASE(failslab_xrc_rcv_qp),
	KUNIT_CASE(failslab_kernel_mr),
	KUNIT_CASE(failslab_dma_mr),
	KUNIT_CASE(failslab_ah),
	KUNIT_CASE_PARAM_ATTR(failslab_device, failslab_device_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(failslab_client),
	{}
};

static struct kunit_suite oib_failslab_suite = {
	.name = "oib_core_failslab",
	.test_cases = oib_failslab_cases,
};

kunit_test_suite(oib_failslab_suite);

MODULE_DESCRIPTION("KUnit allocation-failure sweeps over oib create paths");
MODULE_LICENSE("GPL");
