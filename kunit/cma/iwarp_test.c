// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for oib_cma over iWARP: the oib_cma_connect cases that apply, rerun between two
 * of the toolkit's test RNICs (oib_toolkit_rnic.h), through oib_iwcm.  The ULP's calls are the
 * same; what differs is iWARP's: private data up to 252 bytes with no cma header, a refusal is
 * REJECTED with -ECONNREFUSED, no TIMEWAIT_EXIT, no SIDR and no confirmed REP.  The test RNIC
 * carries no data, so there is no traffic here (oib_siw's suites will have it).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <oib/iw_cm.h>
#include "oib_toolkit_cma.h"
#include "oib_toolkit_rnic.h"

/* Two test RNICs, a before b: an address both reach resolves on a. */
static struct cmat_ctx *iwt_ctx(struct kunit *test)
{
	struct oib_device *a = oib_test_rnic(test);

	return cmat_ctx_on(test, a, oib_test_rnic(test));
}

/* Connect, both ends' view, disconnect from @who's side(s). */
static void iwt_connect_one(struct kunit *test, bool v6, int who)
{
	struct cmat_ctx *ctx = iwt_ctx(test);
	struct sockaddr_storage laddr, dst;
	const struct oib_cma_event *req;
	struct cmat_rec *l, *a, *b;
	size_t len;

	cmat_addr(&laddr, v6, v6 ? 0 : 2, CMAT_PORT);
	cmat_addr(&dst, v6, 2, CMAT_PORT);
	if (v6)		/* the IPv6 wildcard */
		memset(&((struct sockaddr_in6 *)&laddr)->sin6_addr, 0, 16);
	l = cmat_listen(ctx, &ctx->b, &laddr, CMAT_ACCEPT);
	l->pdata_len = OIB_IW_CM_PRIVATE_DATA_SIZE;
	a = cmat_connect_from(ctx, &ctx->a, NULL, &dst, OIB_PS_TCP, OIB_IW_CM_PRIVATE_DATA_SIZE);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
	b = cmat_spawned(l, 0);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_TRUE(test, cmat_wait(b, OIB_CMA_EVENT_ESTABLISHED, 1));

	req = &b->last[OIB_CMA_EVENT_CONNECT_REQUEST];
	KUNIT_EXPECT_EQ(test, req->param.conn.private_data_len, OIB_IW_CM_PRIVATE_DATA_SIZE);
	KUNIT_EXPECT_EQ(test, b->pdata[OIB_CMA_EVENT_CONNECT_REQUEST][251], 0x5a);
	KUNIT_EXPECT_EQ(test, req->param.conn.responder_resources, 1);
	KUNIT_EXPECT_EQ(test, req->param.conn.initiator_depth, 1);
	KUNIT_EXPECT_EQ(test, a->last[OIB_CMA_EVENT_ESTABLISHED].param.conn.private_data_len,
			OIB_IW_CM_PRIVATE_DATA_SIZE);
	KUNIT_EXPECT_EQ(test, a->pdata[OIB_CMA_EVENT_ESTABLISHED][251], 0x5a);
	KUNIT_EXPECT_PTR_EQ(test, a->id->device, ctx->a.dev);
	KUNIT_EXPECT_PTR_EQ(test, b->id->device, ctx->b.dev);
	len = v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	KUNIT_EXPECT_EQ(test, 0, memcmp(oib_cma_dst_addr(b->id), oib_cma_src_addr(a->id), len));
	KUNIT_EXPECT_EQ(test, 0, memcmp(oib_cma_src_addr(b->id), &dst, len));
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->id->qp->state), OIB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->id->qp->state), OIB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, oib_test_rnic_connections(ctx->b.dev), 1);

	if (who & 1)
		KUNIT_EXPECT_EQ(test, 0, oib_cma_disconnect(a->id));
	if (who & 2)
		KUNIT_EXPECT_EQ(test, 0, oib_cma_disconnect(b->id));
	KUNIT_EXPECT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_DISCONNECTED, 1));
	KUNIT_EXPECT_TRUE(test, cmat_wait(b, OIB_CMA_EVENT_DISCONNECTED, 1));
	KUNIT_EXPECT_EQ(test, cmat_count(a, OIB_CMA_EVENT_DISCONNECTED), 1);
	KUNIT_EXPECT_EQ(test, cmat_count(b, OIB_CMA_EVENT_DISCONNECTED), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->id->qp->state), OIB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->id->qp->state), OIB_QPS_ERR);
}

static void iwt_connect_v4(struct kunit *test)
{
	iwt_connect_one(test, false, 1);
}

static void iwt_connect_v6(struct kunit *test)
{
	iwt_connect_one(test, true, 1);
}

static void iwt_disconnect_passive(struct kunit *test)
{
	iwt_connect_one(test, false, 2);
}

static void iwt_disconnect_both(struct kunit *test)
{
	iwt_connect_one(test, false, 3);
}

static void iwt_reject(struct kunit *test)
{
	struct cmat_ctx *ctx = iwt_ctx(test);
	struct sockaddr_storage dst;
	struct cmat_rec *l, *a;

	cmat_addr(&dst, false, 2, CMAT_PORT);
	l = cmat_listen(ctx, &ctx->b, &dst, CMAT_REJECT);
	l->pdata_len = 100;
	a = cmat_connect(ctx, &dst, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_REJECTED, 1));
	KUNIT_EXPECT_EQ(test, a->last[OIB_CMA_EVENT_REJECTED].status, -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, a->last[OIB_CMA_EVENT_REJECTED].param.conn.private_data_len, 100);
	KUNIT_EXPECT_EQ(test, a->pdata[OIB_CMA_EVENT_REJECTED][99], 0x5a);
	KUNIT_EXPECT_EQ(test, cmat_count(a, OIB_CMA_EVENT_ESTABLISHED), 0);
	KUNIT_EXPECT_EQ(test, oib_test_rnic_connections(ctx->b.dev), 0);
}

/* Nobody listens on the port: the TCP connection is refused. */
static void iwt_no_listener(struct kunit *test)
{
	struct cmat_ctx *ctx = iwt_ctx(test);
	struct sockaddr_storage dst, other;
	struct cmat_rec *a;

	cmat_addr(&other, false, 1, 4444);	/* a listener on the wrong device */
	cmat_listen(ctx, &ctx->a, &other, CMAT_ACCEPT);
	cmat_addr(&dst, false, 2, 4444);
	a = cmat_connect(ctx, &dst, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_REJECTED, 1));
	KUNIT_EXPECT_EQ(test, a->last[OIB_CMA_EVENT_REJECTED].status, -ECONNREFUSED);
}

/* A request handler returning non-zero refuses it; an ESTABLISHED one drops the connection. */
static void iwt_destroy_in_handler(struct kunit *test)
{
	struct cmat_ctx *ctx = iwt_ctx(test);
	struct sockaddr_storage dst;
	struct cmat_rec *l, *a, *b;

	cmat_addr(&dst, false, 2, CMAT_PORT);
	l = cmat_listen(ctx, &ctx->b, &dst, CMAT_NOTHING);
	l->destroy_on = OIB_CMA_EVENT_CONNECT_REQUEST + 1;
	a = cmat_connect(ctx, &dst, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_REJECTED, 1));

	l->destroy_on = OIB_CMA_EVENT_ESTABLISHED + 1;
	l->on_req = CMAT_ACCEPT;
	a = cmat_connect(ctx, &dst, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_DISCONNECTED, 1));
	b = cmat_spawned(l, 1);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(b->gone));
}

/* A wildcard listener covers an RNIC that comes after it, and stops covering one that goes. */
static void iwt_wildcard_devices(struct kunit *test)
{
	struct cmat_ctx *ctx = iwt_ctx(test);
	struct sockaddr_storage any, dst;
	struct cmat_rec *l, *a, *on_c;

	cmat_addr(&any, true, 0, CMAT_PORT);
	memset(&((struct sockaddr_in6 *)&any)->sin6_addr, 0, 16);
	l = cmat_listen(ctx, &ctx->b, &any, CMAT_ACCEPT);
	cmat_end_on(test, &ctx->c, oib_test_rnic(test), 3);
	cmat_addr(&dst, false, 3, CMAT_PORT);
	a = cmat_connect(ctx, &dst, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
	on_c = cmat_spawned(l, 0);
	KUNIT_ASSERT_NOT_NULL(test, on_c);
	KUNIT_EXPECT_PTR_EQ(test, on_c->id->device, ctx->c.dev);
	/* b too, through the same listener */
	cmat_addr(&dst, false, 2, CMAT_PORT);
	a = cmat_connect(ctx, &dst, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
	KUNIT_EXPECT_EQ(test, oib_test_rnic_connections(ctx->b.dev), 1);
	KUNIT_EXPECT_EQ(test, oib_test_rnic_connections(ctx->c.dev), 1);
	cmat_destroy(on_c);	/* its QP before c's CQ and PD, which go before the context */
}

struct iwt_removal {
	struct work_struct work;
	struct kunit *test;
	struct oib_device *dev;
};

static void iwt_removal_work(struct work_struct *work)
{
	struct iwt_removal *rm = container_of(work, struct iwt_removal, work);

	oib_test_rnic_remove(rm->test, rm->dev);
}

/*
 * The device of a connected id goes: the id hears DEVICE_REMOVAL (its handler destroys it), its
 * peer DISCONNECTED; a wildcard listener elsewhere keeps listening.
 */
static void iwt_device_removal(struct kunit *test)
{
	struct cmat_ctx *ctx = iwt_ctx(test);
	struct oib_cq_init_attr cq_attr = { .cqe = 64 };
	struct iwt_removal rm = { .test = test };
	struct sockaddr_storage any, dst, v6;
	struct cmat_end *c = &ctx->c;
	struct cmat_rec *l, *a, *b;

	cmat_addr(&any, true, 0, CMAT_PORT);
	memset(&((struct sockaddr_in6 *)&any)->sin6_addr, 0, 16);
	l = cmat_listen(ctx, &ctx->a, &any, CMAT_ACCEPT);
	/* c's objects are the test's own: they go before the device */
	c->dev = oib_test_rnic(test);
	c->pd = oib_alloc_pd(c->dev);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c->pd);
	c->cq = oib_create_cq(c->dev, NULL, NULL, NULL, &cq_attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c->cq);
	cmat_addr(&c->addr, false, 3, 0);
	KUNIT_ASSERT_EQ(test, 0, cmat_dev_addr(c->dev, &c->addr, true));
	cmat_addr(&v6, true, 3, 0);
	KUNIT_ASSERT_EQ(test, 0, cmat_dev_addr(c->dev, &v6, true));

	cmat_addr(&dst, false, 1, CMAT_PORT);
	a = cmat_connect_from(ctx, c, &c->addr, &dst, OIB_PS_TCP, 8);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
	b = cmat_spawned(l, 0);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_TRUE(test, cmat_wait(b, OIB_CMA_EVENT_ESTABLISHED, 1));

	/* a user reference: the removal waits for it, so c's PD and CQ go before it checks */
	KUNIT_ASSERT_TRUE(test, oib_device_try_get(c->dev));
	rm.dev = c->dev;
	INIT_WORK_ONSTACK(&rm.work, iwt_removal_work);
	schedule_work(&rm.work);
	KUNIT_EXPECT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_DEVICE_REMOVAL, 1));
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(READ_ONCE(a->gone)));
	cmat_end_free_objects(c);
	oib_device_put(rm.dev);
	flush_work(&rm.work);
	destroy_work_on_stack(&rm.work);
	KUNIT_EXPECT_TRUE(test, cmat_wait(b, OIB_CMA_EVENT_DISCONNECTED, 1));

	/* The wildcard listener still listens on a. */
	a = cmat_connect_from(ctx, &ctx->b, &ctx->b.addr, &dst, OIB_PS_TCP, 8);
	KUNIT_EXPECT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
}

/* What iWARP has not: UDP's SIDR, the confirmed REP; private data beyond MPA's 252 bytes. */
static void iwt_refused_calls(struct kunit *test)
{
	struct cmat_ctx *ctx = iwt_ctx(test);
	struct oib_cma_conn_param p = { .flags = OIB_CMA_CONFIRM_REP };
	u8 big[OIB_IW_CM_PRIVATE_DATA_SIZE + 1] = {};
	struct sockaddr_storage dst;
	struct cmat_rec *r;

	cmat_addr(&dst, false, 2, CMAT_PORT);
	cmat_listen(ctx, &ctx->b, &dst, CMAT_ACCEPT);
	r = cmat_id(ctx, &ctx->a, OIB_PS_TCP);
	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_addr(r->id, NULL, (struct sockaddr *)&dst, 2000));
	KUNIT_ASSERT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_ADDR_RESOLVED, 1));
	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_route(r->id, 2000));
	KUNIT_ASSERT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_ROUTE_RESOLVED, 1));
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, oib_cma_connect(r->id, &p));
	p.flags = 0;
	p.private_data = big;
	p.private_data_len = sizeof(big);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cma_connect(r->id, &p));
	r = cmat_id(ctx, &ctx->a, OIB_PS_UDP);
	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_addr(r->id, NULL, (struct sockaddr *)&dst, 2000));
	KUNIT_ASSERT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_ADDR_RESOLVED, 1));
	p.private_data_len = 0;
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, oib_cma_connect(r->id, &p));
}

static struct kunit_case iwt_cases[] = {
	KUNIT_CASE(iwt_connect_v4),
	KUNIT_CASE(iwt_connect_v6),
	KUNIT_CASE(iwt_disconnect_passive),
	KUNIT_CASE(iwt_disconnect_both),
	KUNIT_CASE(iwt_reject),
	KUNIT_CASE(iwt_no_listener),
	KUNIT_CASE(iwt_destroy_in_handler),
	KUNIT_CASE(iwt_wildcard_devices),
	KUNIT_CASE(iwt_device_removal),
	KUNIT_CASE(iwt_refused_calls),
	{}
};

static struct kunit_suite iwt_suite = {
	.name = "oib_cma_iwarp",
	.test_cases = iwt_cases,
};

kunit_test_suite(iwt_suite);

MODULE_DESCRIPTION("KUnit: oib_cma over iWARP (oib_iwcm and test RNICs)");
MODULE_LICENSE("GPL");
