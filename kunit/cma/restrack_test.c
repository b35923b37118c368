// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_cma's ids in oib_core's resource tracking (oib res show cm_id), between two oib_rxe
 * devices: a wildcard listener among the ids bound to no device, a listener on an address in its
 * device's table; an id bound to the wildcard address, then moved to its device's table by the
 * resolution of its address; a connection's two ids ESTABLISHED in their devices' tables with
 * their port, QP number and addresses, owned by the module whose call made them (the passive one
 * by its listener's); every one gone once destroyed.
 */
#include <linux/module.h>
#include <net/ipv6.h>
#include <oib/kunit/core.h>
#include <oib/restrack.h>
#include "oib_toolkit_cma.h"

#define RT_PORT	7290

static bool rt_addr_eq(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	const struct sockaddr_in6 *a6 = (const void *)a, *b6 = (const void *)b;
	const struct sockaddr_in *a4 = (const void *)a, *b4 = (const void *)b;

	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return a4->sin_port == b4->sin_port && a4->sin_addr.s_addr == b4->sin_addr.s_addr;
	return a->ss_family == AF_INET6 && a6->sin6_port == b6->sin6_port &&
	       ipv6_addr_equal(&a6->sin6_addr, &b6->sin6_addr);
}

/*
 * The id tracked in @dev's table (NULL: the unbound ids') whose source is @src (and destination
 * @dst, if given): true, its owner in @res and its snapshot in @c.
 */
static bool rt_find(struct oib_device *dev, const struct sockaddr_storage *src,
		    const struct sockaddr_storage *dst, struct oib_res *res,
		    struct oib_res_cm_id_snap *c)
{
	union oib_res_ulp_snap s;
	unsigned long id = 0;

	while (oib_res_ulp_next(dev, OIB_RES_CM_ID, &id, res, &s)) {
		id++;
		if (rt_addr_eq(&s.cm_id.src, src) && (!dst || rt_addr_eq(&s.cm_id.dst, dst))) {
			*c = s.cm_id;
			return true;
		}
	}
	return false;
}

static void rt_any(struct sockaddr_storage *ss, u16 port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
}

static void rt_listeners(struct kunit *test)
{
	struct cmat_ctx *ctx = cmat_ctx(test);
	struct sockaddr_storage any, b;
	struct oib_res_cm_id_snap c;
	struct cmat_rec *wild, *spec;
	struct oib_res res;

	rt_any(&any, RT_PORT);
	cmat_addr(&b, false, 2, RT_PORT + 1);
	wild = cmat_listen(ctx, &ctx->b, &any, CMAT_ACCEPT);
	spec = cmat_listen(ctx, &ctx->b, &b, CMAT_ACCEPT);
	KUNIT_ASSERT_TRUE(test, rt_find(NULL, &any, NULL, &res, &c));
	KUNIT_EXPECT_STREQ(test, c.state, "LISTEN");
	KUNIT_EXPECT_TRUE(test, c.listening);
	KUNIT_EXPECT_EQ(test, c.ps, (u32)OIB_PS_TCP);
	KUNIT_EXPECT_EQ(test, c.qp_type, (u8)OIB_QPT_RC);
	KUNIT_EXPECT_EQ(test, c.port, 0U);
	KUNIT_EXPECT_EQ(test, c.qpn, 0U);
	KUNIT_EXPECT_EQ(test, c.dst.ss_family, 0);
	KUNIT_EXPECT_TRUE(test, within_module(res.caller, THIS_MODULE));
	KUNIT_EXPECT_FALSE(test, rt_find(ctx->b.dev, &any, NULL, &res, &c));

	KUNIT_ASSERT_TRUE(test, rt_find(ctx->b.dev, &b, NULL, &res, &c));
	KUNIT_EXPECT_STREQ(test, c.state, "LISTEN");
	KUNIT_EXPECT_TRUE(test, c.listening);
	KUNIT_EXPECT_EQ(test, c.port, 1U);
	KUNIT_EXPECT_FALSE(test, rt_find(NULL, &b, NULL, &res, &c));

	cmat_destroy(wild);
	cmat_destroy(spec);
	KUNIT_EXPECT_FALSE(test, rt_find(NULL, &any, NULL, &res, &c));
	KUNIT_EXPECT_FALSE(test, rt_find(ctx->b.dev, &b, NULL, &res, &c));
}

/* Bound to the wildcard address: unbound; its address resolved: in its device's table. */
static void rt_moves(struct kunit *test)
{
	struct cmat_ctx *ctx = cmat_ctx(test);
	struct sockaddr_storage any, a, b;
	struct oib_res_cm_id_snap c;
	struct cmat_rec *r;
	struct oib_res res;

	rt_any(&any, RT_PORT + 2);
	cmat_addr(&a, false, 1, RT_PORT + 2);
	cmat_addr(&b, false, 2, RT_PORT + 3);
	r = cmat_id(ctx, &ctx->a, OIB_PS_TCP);
	KUNIT_ASSERT_EQ(test, oib_cma_bind_addr(r->id, (struct sockaddr *)&any), 0);
	KUNIT_ASSERT_TRUE(test, rt_find(NULL, &any, NULL, &res, &c));
	KUNIT_EXPECT_STREQ(test, c.state, "ADDR_BOUND");
	KUNIT_EXPECT_FALSE(test, c.listening);
	KUNIT_ASSERT_EQ(test, oib_cma_resolve_addr(r->id, NULL, (struct sockaddr *)&b, 2000), 0);
	KUNIT_ASSERT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_ADDR_RESOLVED, 1));
	KUNIT_EXPECT_FALSE(test, rt_find(NULL, &any, NULL, &res, &c));
	KUNIT_ASSERT_TRUE(test, rt_find(ctx->a.dev, &a, &b, &res, &c));
	KUNIT_EXPECT_STREQ(test, c.state, "ADDR_RESOLVED");
	KUNIT_EXPECT_EQ(test, c.port, 1U);
	cmat_destroy(r);
	KUNIT_EXPECT_FALSE(test, rt_find(ctx->a.dev, &a, &b, &res, &c));
}

static void rt_connection(struct kunit *test)
{
	struct cmat_ctx *ctx = cmat_ctx(test);
	struct cmat_rec *l, *act, *pas;
	struct sockaddr_storage b, src;
	struct oib_res_cm_id_snap c;
	struct oib_res res;

	cmat_addr(&b, false, 2, RT_PORT + 4);
	l = cmat_listen(ctx, &ctx->b, &b, CMAT_ACCEPT);
	act = cmat_connect(ctx, &b, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(act, OIB_CMA_EVENT_ESTABLISHED, 1));
	pas = cmat_spawned(l, 0);
	KUNIT_ASSERT_NOT_NULL(test, pas);
	KUNIT_ASSERT_TRUE(test, cmat_wait(pas, OIB_CMA_EVENT_ESTABLISHED, 1));

	memcpy(&src, oib_cma_src_addr(act->id), sizeof(src));
	KUNIT_ASSERT_TRUE(test, rt_find(ctx->a.dev, &src, &b, &res, &c));
	KUNIT_EXPECT_STREQ(test, c.state, "ESTABLISHED");
	KUNIT_EXPECT_FALSE(test, c.listening);
	KUNIT_EXPECT_EQ(test, c.port, act->id->port_num);
	KUNIT_EXPECT_EQ(test, c.qpn, act->id->qp->qp_num);
	KUNIT_EXPECT_TRUE(test, within_module(res.caller, THIS_MODULE));

	KUNIT_ASSERT_TRUE(test, rt_find(ctx->b.dev, &b, &src, &res, &c));
	KUNIT_EXPECT_STREQ(test, c.state, "ESTABLISHED");
	KUNIT_EXPECT_EQ(test, c.qpn, pas->id->qp->qp_num);
	KUNIT_EXPECT_TRUE(test, within_module(res.caller, THIS_MODULE));

	cmat_destroy(act);
	cmat_destroy(pas);
	cmat_destroy(l);
	KUNIT_EXPECT_FALSE(test, rt_find(ctx->a.dev, &src, &b, &res, &c));
	KUNIT_EXPECT_FALSE(test, rt_find(ctx->b.dev, &b, &src, &res, &c));
	KUNIT_EXPECT_FALSE(test, rt_find(ctx->b.dev, &b, NULL, &res, &c));
}

static struct kunit_case rt_cases[] = {
	KUNIT_CASE(rt_listeners),
	KUNIT_CASE(rt_moves),
	KUNIT_CASE(rt_connection),
	{}
};

static struct kunit_suite rt_suite = {
	.name = "oib_cma_restrack",
	.test_cases = rt_cases,
};

kunit_test_suite(rt_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit: oib_cma's ids in oib_core's resource tracking");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
