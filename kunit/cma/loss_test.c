// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_cma under load: 500 ids of one device connect at once to one listener on another; every
 * connection is established exactly once at both ends, and nothing is rejected, unreachable or
 * refused.  Between oib_rxe devices the fabric loses 5% of all frames meanwhile (the IB CM's
 * retries); between oib_siw devices the connections are TCP's over the loopback, which loses
 * nothing (TCP's own retransmission is not ours to test).
 */
#include <linux/module.h>
#include "oib_toolkit_siw.h"

#define LOSS_CONNS	500
#define LOSS_WAIT_MS	(15 * OIB_TEST_WAIT_MS)

static void cma_loss_kind_desc(const struct cmat_kind *const *kind, char *desc)
{
	strscpy(desc, (*kind)->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cma_loss, cmat_kinds, cma_loss_kind_desc);

static void cma_loss_500(struct kunit *test)
{
	const struct cmat_kind *const *kind = test->param_value;
	struct orxe_fault_cfg faults = { .drop_ppm = 50000 };
	struct cmat_ctx *ctx = cmat_ctx_of(test, *kind);
	struct sockaddr_storage any, dst;
	struct cmat_rec **a;
	struct cmat_rec *l, *b;
	int i, n;

	a = kunit_kcalloc(test, LOSS_CONNS, sizeof(*a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	cmat_addr(&any, false, 0, CMAT_PORT);
	memset(&((struct sockaddr_in *)&any)->sin_addr, 0, 4);
	cmat_addr(&dst, false, 2, CMAT_PORT);
	l = cmat_listen(ctx, &ctx->b, &any, CMAT_ACCEPT);
	if (ctx->f)
		KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, &faults));
	for (i = 0; i < LOSS_CONNS; i++)
		a[i] = cmat_connect(ctx, &dst, OIB_PS_TCP);

	KUNIT_ASSERT_TRUE(test, cmat_wait_total(ctx, OIB_CMA_EVENT_ESTABLISHED, 2 * LOSS_CONNS,
						LOSS_WAIT_MS));
	for (i = 0; i < LOSS_CONNS; i++)
		KUNIT_EXPECT_EQ(test, cmat_count(a[i], OIB_CMA_EVENT_ESTABLISHED), 1);
	for (n = 0; (b = cmat_spawned(l, n)); n++)
		KUNIT_EXPECT_EQ(test, cmat_count(b, OIB_CMA_EVENT_ESTABLISHED), 1);
	KUNIT_EXPECT_EQ(test, n, LOSS_CONNS);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->total[OIB_CMA_EVENT_REJECTED]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->total[OIB_CMA_EVENT_UNREACHABLE]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->total[OIB_CMA_EVENT_CONNECT_ERROR]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->total[OIB_CMA_EVENT_ESTABLISHED]), 2 * LOSS_CONNS);
	if (ctx->f)
		oib_rxe_fabric_set_faults(ctx->f, NULL, NULL);
}

static struct kunit_case cma_loss_cases[] = {
	KUNIT_CASE_PARAM_ATTR(cma_loss_500, cma_loss_gen_params, { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite cma_loss_suite = {
	.name = "oib_cma_loss",
	.test_cases = cma_loss_cases,
};

kunit_test_suite(cma_loss_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for oib_cma: 500 connections at once, under MAD loss");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
