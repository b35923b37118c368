// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_cma end to end between devices with IP addresses: address and route resolution (one
 * device, several, unknown addresses), connect and accept over IPv4 and IPv6 with private data
 * both ways and traffic, disconnects from either side and both at once, rejects, no listener,
 * specific and wildcard listeners and their port conflicts, a wildcard listener serving a device
 * that came after it, the confirmed REP, the UDP port space over SIDR, destroy from inside
 * handlers, and device removal in each id state.
 *
 * Every case runs once per device kind, its parameter: between oib_rxe devices (through oib_cm)
 * and between oib_siw devices (through oib_iwcm over TCP, on the guest's test netdevs).  What the
 * ULP sees differently is in struct cma_expect; a case that cannot apply to iWARP skips saying
 * why.
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <oib/iw_cm.h>
#include "oib_toolkit_siw.h"

/* What a connected RC QP with responder resources lets the peer do (no atomics on iWARP). */
#define CMA_TEST_ACCESS	(OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE | \
			 OIB_ACCESS_REMOTE_READ | OIB_ACCESS_REMOTE_ATOMIC)

/*
 * What the ULP sees of the connection manager under oib_cma: the IB CM's (a cma header takes
 * private data room, REJ reasons, a time wait) or iWARP's (MPA's 252 bytes as they are, a
 * refusal is -ECONNREFUSED, no time wait).
 */
struct cma_expect {
	u8 req_pdata;		/* the most private data a connect and an accept carry */
	u8 rep_pdata;
	u8 rej_pdata;		/* what a reject with 100 bytes delivers */
	int rejected;		/* REJECTED's status: the peer's reject, no listener */
	int no_listener;
	int backlog;		/* a request beyond the listener's backlog */
	bool timewait;		/* TIMEWAIT_EXIT after DISCONNECTED */
	int access;		/* the connected QP's access flags */
};

static const struct cma_expect cma_expect_ib = {
	.req_pdata = OIB_CMA_REQ_PRIVATE_DATA_SIZE, .rep_pdata = OIB_CM_REP_PRIVATE_DATA_SIZE,
	.rej_pdata = OIB_CM_REJ_PRIVATE_DATA_SIZE, .rejected = OIB_CM_REJ_CONSUMER_DEFINED,
	.no_listener = OIB_CM_REJ_INVALID_SERVICE_ID, .backlog = OIB_CM_REJ_NO_RESOURCES,
	.timewait = true, .access = CMA_TEST_ACCESS,
};

static const struct cma_expect cma_expect_iw = {
	.req_pdata = OIB_IW_CM_PRIVATE_DATA_SIZE, .rep_pdata = OIB_IW_CM_PRIVATE_DATA_SIZE,
	.rej_pdata = 100, .rejected = -ECONNREFUSED, .no_listener = -ECONNREFUSED,
	.backlog = -ECONNREFUSED,
	.access = CMA_TEST_ACCESS & ~OIB_ACCESS_REMOTE_ATOMIC,
};

/* ---- The parameters: a device kind, and the case's own (if it has a table) ---- */

struct cma_param {
	const struct cmat_kind *kind;
	const void *sub;		/* an entry of the case's table, or NULL */
};

/*
 * The parameter after @prev, from @params (room for every kind times @n entries of @table, each
 * @size bytes, named by the string at its start); the case's parameters are generated before it
 * runs them, one case at a time.
 */
static const void *cma_gen(struct cma_param *params, const void *table, size_t n, size_t size,
			   const void *prev, char *desc)
{
	struct cma_param *p = prev ? (struct cma_param *)prev + 1 : params;
	size_t i = p - params;

	if (i >= ARRAY_SIZE(cmat_kinds) * n)
		return NULL;
	p->kind = cmat_kinds[i / n];
	p->sub = table ? table + i % n * size : NULL;
	if (table)
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s_%s", p->kind->name,
			 *(const char * const *)p->sub);
	else
		strscpy(desc, p->kind->name, KUNIT_PARAM_DESC_SIZE);
	return p;
}

static struct cma_param cma_kind_params[ARRAY_SIZE(cmat_kinds)];

static const void *cma_kind_gen_params(const void *prev, char *desc)
{
	return cma_gen(cma_kind_params, NULL, 1, 0, prev, desc);
}

static const struct cmat_kind *cma_kind(struct kunit *test)
{
	return ((const struct cma_param *)test->param_value)->kind;
}

static const void *cma_sub(struct kunit *test)
{
	return ((const struct cma_param *)test->param_value)->sub;
}

static const struct cma_expect *cma_expect(struct kunit *test)
{
	return cma_kind(test)->iwarp ? &cma_expect_iw : &cma_expect_ib;
}

/* Two devices of the case's kind. */
static struct cmat_ctx *cma_ctx(struct kunit *test)
{
	return cmat_ctx_of(test, cma_kind(test));
}

/* The case tests what iWARP has not (@why): it skips over oib_siw. */
static void cma_ib_only(struct kunit *test, const char *why)
{
	if (cma_kind(test)->iwarp)
		kunit_skip(test, "not on iWARP: %s", why);
}

static void cma_test_path_v(struct kunit *test, bool v6)
{
	struct cmat_ctx *ctx = cma_ctx(test);
	struct sockaddr_storage dst, src;
	struct cmat_rec *r = cmat_id(ctx, &ctx->a, OIB_PS_TCP);
	const struct oib_cm_path *path = &r->id->route.path;
	union oib_gid a_gid, b_gid;
	u16 sport;

	cmat_addr(&dst, v6, 2, 9999);
	cmat_addr(&src, v6, 1, 0);
	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_addr(r->id, NULL, (struct sockaddr *)&dst, 1000));
	KUNIT_ASSERT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_ADDR_RESOLVED, 1));
	KUNIT_EXPECT_PTR_EQ(test, r->id->device, ctx->a.dev);
	KUNIT_EXPECT_EQ(test, r->id->port_num, 1);
	KUNIT_EXPECT_EQ(test, oib_cma_src_addr(r->id)->sa_family, v6 ? AF_INET6 : AF_INET);
	sport = v6 ? ntohs(((struct sockaddr_in6 *)oib_cma_src_addr(r->id))->sin6_port) :
		     ntohs(((struct sockaddr_in *)oib_cma_src_addr(r->id))->sin_port);
	KUNIT_EXPECT_GE(test, sport, 32768);
	cmat_addr(&src, v6, 1, sport);
	KUNIT_EXPECT_EQ(test, 0, memcmp(oib_cma_src_addr(r->id), &src,
					v6 ? sizeof(struct sockaddr_in6) :
					sizeof(struct sockaddr_in)));

	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_route(r->id, 1000));
	KUNIT_ASSERT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_ROUTE_RESOLVED, 1));
	if (cma_kind(test)->iwarp)
		return;		/* the path record is IB's: iWARP's route is TCP's */
	if (v6) {
		a_gid.in6 = ((struct sockaddr_in6 *)&src)->sin6_addr;
		b_gid.in6 = ((struct sockaddr_in6 *)&dst)->sin6_addr;
	} else {
		ipv6_addr_set_v4mapped(((struct sockaddr_in *)&src)->sin_addr.s_addr, &a_gid.in6);
		ipv6_addr_set_v4mapped(((struct sockaddr_in *)&dst)->sin_addr.s_addr, &b_gid.in6);
	}
	KUNIT_EXPECT_EQ(test, 0, memcmp(&path->sgid, &a_gid, 16));
	KUNIT_EXPECT_EQ(test, 0, memcmp(&path->dgid, &b_gid, 16));
	KUNIT_EXPECT_EQ(test, path->hop_limit, 64);
	KUNIT_EXPECT_EQ(test, path->pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, path->packet_life_time, 16);
	KUNIT_EXPECT_EQ(test, path->slid, 0);
	KUNIT_EXPECT_EQ(test, path->flow_label, (sport * 31 + 9999) & 0xfffff);
	KUNIT_EXPECT_GE(test, path->mtu, OIB_MTU_1024);
	KUNIT_EXPECT_EQ(test, cmat_count(r, OIB_CMA_EVENT_ADDR_ERROR), 0);
}

static void cma_test_resolve_v4(struct kunit *test)
{
	cma_test_path_v(test, false);
}

static void cma_test_resolve_v6(struct kunit *test)
{
	cma_test_path_v(test, true);
}

/* Unknown destinations, sources not ours, bad arguments. */
static void cma_test_resolve_errors(struct kunit *test)
{
	struct cmat_ctx *ctx = cma_ctx(test);
	struct cmat_rec *r = cmat_id(ctx, &ctx->a, OIB_PS_TCP);
	struct cmat_rec *r2 = cmat_id(ctx, &ctx->a, OIB_PS_TCP);
	struct sockaddr_storage dst, src, any = { .ss_family = AF_INET }, v6;
	struct oib_cma_conn_param cp = {};

	/* TEST-NET-2: off the test fabric, and the guest has no route there */
	cmat_addr(&dst, false, 99, 1);
	((struct sockaddr_in *)&dst)->sin_addr.s_addr = htonl(0xc6336401);
	cmat_addr(&v6, true, 2, 1);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cma_resolve_addr(r->id, NULL, NULL, 1000));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cma_resolve_addr(r->id, NULL,
							    (struct sockaddr *)&any, 1000));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cma_resolve_addr(r->id, NULL,
							    (struct sockaddr *)&dst, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cma_resolve_addr(r->id, (struct sockaddr *)&v6,
							    (struct sockaddr *)&dst, 1000));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cma_resolve_route(r->id, 1000));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cma_connect(r->id, &cp));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cma_accept(r->id, &cp));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cma_disconnect(r->id));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cma_listen(NULL, 0));
	KUNIT_EXPECT_PTR_EQ(test, oib_cma_create_id(&init_net, NULL, NULL, OIB_PS_TCP, OIB_QPT_RC),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, oib_cma_create_id(&init_net, (oib_cma_handler)1, NULL,
						    OIB_PS_UDP, OIB_QPT_RC), ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, oib_cma_create_id(&init_net, (oib_cma_handler)1, NULL,
						    OIB_PS_IB, OIB_QPT_RC), ERR_PTR(-EAFNOSUPPORT));

	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_addr(r->id, NULL, (struct sockaddr *)&dst, 1000));
	KUNIT_ASSERT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_ADDR_ERROR, 1));
	KUNIT_EXPECT_EQ(test, r->last[OIB_CMA_EVENT_ADDR_ERROR].status, -EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, cmat_count(r, OIB_CMA_EVENT_ADDR_RESOLVED), 0);

	cmat_addr(&src, false, 77, 0);
	cmat_addr(&dst, false, 2, 1);
	KUNIT_EXPECT_EQ(test, -EADDRNOTAVAIL,
			oib_cma_resolve_addr(r2->id, (struct sockaddr *)&src,
					     (struct sockaddr *)&dst, 1000));
	KUNIT_EXPECT_EQ(test, -EADDRNOTAVAIL, oib_cma_bind_addr(r2->id, (struct sockaddr *)&src));
}

static bool cma_test_same_addr(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
	       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
}

/* Three devices on two fabrics: the destination picks the device that reaches it. */
static void cma_test_resolve_multi(struct kunit *test)
{
	struct sockaddr_storage c_addr, d_addr, a_addr;
	struct cmat_rec *r, *bound;
	struct oib_device *c, *d;
	struct cmat_ctx *ctx;

	cma_ib_only(test, "oib_rxe's fabrics; oib_siw reaches what its namespace routes to");
	ctx = cma_ctx(test);
	c = oib_test_rxe_on(test, "oib_cma_other", 1);
	d = oib_test_rxe_on(test, "oib_cma_other", 1);
	r = cmat_id(ctx, &ctx->a, OIB_PS_TCP);
	bound = cmat_id(ctx, &ctx->a, OIB_PS_TCP);
	cmat_addr(&c_addr, false, 33, 5);
	cmat_addr(&d_addr, false, 44, 0);
	cmat_addr(&a_addr, false, 1, 0);
	KUNIT_ASSERT_EQ(test, 0, cmat_dev_addr(c, &c_addr, true));
	KUNIT_ASSERT_EQ(test, 0, cmat_dev_addr(d, &d_addr, true));
	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_addr(r->id, NULL, (struct sockaddr *)&c_addr,
						      1000));
	KUNIT_ASSERT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_ADDR_RESOLVED, 1));
	KUNIT_EXPECT_PTR_EQ(test, r->id->device, d);
	KUNIT_EXPECT_TRUE(test, cma_test_same_addr(oib_cma_src_addr(r->id), &d_addr));

	/* bound to a's address: a's fabric does not reach c */
	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_addr(bound->id, (struct sockaddr *)&a_addr,
						      (struct sockaddr *)&c_addr, 1000));
	KUNIT_ASSERT_TRUE(test, cmat_wait(bound, OIB_CMA_EVENT_ADDR_ERROR, 1));
	KUNIT_EXPECT_PTR_EQ(test, bound->id->device, ctx->a.dev);
}

static int cma_test_access(struct kunit *test, struct cmat_rec *r)
{
	struct oib_qp_init_attr init;
	struct oib_qp_attr attr;

	KUNIT_ASSERT_EQ(test, 0, oib_query_qp(r->id->qp, &attr, OIB_QP_ACCESS_FLAGS, &init));
	return attr.qp_access_flags;
}

/* Connect, check both ends' view, traffic both ways, disconnect from one side. */
static void cma_test_connect_one(struct kunit *test, bool v6, int who)
{
	const struct cma_expect *x = cma_expect(test);
	struct cmat_ctx *ctx = cma_ctx(test);
	struct sockaddr_storage laddr, dst;
	struct cmat_rec *l, *a, *b;
	size_t len;
	const struct oib_cma_event *req;

	cmat_addr(&laddr, v6, v6 ? 0 : 2, CMAT_PORT);	/* IPv6: the wildcard */
	cmat_addr(&dst, v6, 2, CMAT_PORT);
	if (v6)
		memset(&((struct sockaddr_in6 *)&laddr)->sin6_addr, 0, 16);
	l = cmat_listen(ctx, &ctx->b, &laddr, CMAT_ACCEPT);
	l->pdata_len = x->rep_pdata;
	a = cmat_connect_from(ctx, &ctx->a, NULL, &dst, OIB_PS_TCP, x->req_pdata);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
	b = cmat_spawned(l, 0);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_TRUE(test, cmat_wait(b, OIB_CMA_EVENT_ESTABLISHED, 1));

	req = &b->last[OIB_CMA_EVENT_CONNECT_REQUEST];
	KUNIT_EXPECT_EQ(test, req->param.conn.private_data_len, x->req_pdata);
	KUNIT_EXPECT_EQ(test, b->pdata[OIB_CMA_EVENT_CONNECT_REQUEST][x->req_pdata - 1], 0x5a);
	KUNIT_EXPECT_EQ(test, req->param.conn.responder_resources, 1);
	KUNIT_EXPECT_EQ(test, a->last[OIB_CMA_EVENT_ESTABLISHED].param.conn.private_data_len,
			x->rep_pdata);
	KUNIT_EXPECT_EQ(test, a->pdata[OIB_CMA_EVENT_ESTABLISHED][x->rep_pdata - 1], 0x5a);
	KUNIT_EXPECT_PTR_EQ(test, b->id->device, ctx->b.dev);
	len = v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	KUNIT_EXPECT_EQ(test, 0, memcmp(oib_cma_dst_addr(b->id), oib_cma_src_addr(a->id), len));
	KUNIT_EXPECT_EQ(test, 0, memcmp(oib_cma_src_addr(b->id), &dst, len));
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->id->qp->state), OIB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->id->qp->state), OIB_QPS_RTS);
	/* the QPs went to INIT at creation; the connection's resources open reads and atomics */
	KUNIT_EXPECT_EQ(test, cma_test_access(test, a), x->access);
	KUNIT_EXPECT_EQ(test, cma_test_access(test, b), x->access);
	cmat_exchange(test, a, b, 100, 1);
	cmat_exchange(test, b, a, 3000, 2);

	if (who & 1)
		KUNIT_EXPECT_EQ(test, 0, oib_cma_disconnect(a->id));
	if (who & 2)
		KUNIT_EXPECT_EQ(test, 0, oib_cma_disconnect(b->id));
	KUNIT_EXPECT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_DISCONNECTED, 1));
	KUNIT_EXPECT_TRUE(test, cmat_wait(b, OIB_CMA_EVENT_DISCONNECTED, 1));
	if (x->timewait) {
		KUNIT_EXPECT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_TIMEWAIT_EXIT, 1));
		KUNIT_EXPECT_TRUE(test, cmat_wait(b, OIB_CMA_EVENT_TIMEWAIT_EXIT, 1));
	}
	KUNIT_EXPECT_EQ(test, cmat_count(a, OIB_CMA_EVENT_DISCONNECTED), 1);
	KUNIT_EXPECT_EQ(test, cmat_count(b, OIB_CMA_EVENT_DISCONNECTED), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->id->qp->state), OIB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->id->qp->state), OIB_QPS_ERR);
}

static void cma_test_connect_v4(struct kunit *test)
{
	cma_test_connect_one(test, false, 1);
}

static void cma_test_connect_v6(struct kunit *test)
{
	cma_test_connect_one(test, true, 1);
}

static void cma_test_disconnect_passive(struct kunit *test)
{
	cma_test_connect_one(test, false, 2);
}

static void cma_test_disconnect_both(struct kunit *test)
{
	cma_test_connect_one(test, false, 3);
}

static void cma_test_reject(struct kunit *test)
{
	const struct cma_expect *x = cma_expect(test);
	struct cmat_ctx *ctx = cma_ctx(test);
	struct sockaddr_storage dst;
	struct cmat_rec *l, *a;

	cmat_addr(&dst, false, 2, CMAT_PORT);
	l = cmat_listen(ctx, &ctx->b, &dst, CMAT_REJECT);
	l->pdata_len = 100;
	a = cmat_connect(ctx, &dst, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_REJECTED, 1));
	KUNIT_EXPECT_EQ(test, a->last[OIB_CMA_EVENT_REJECTED].status, x->rejected);
	KUNIT_EXPECT_EQ(test, a->last[OIB_CMA_EVENT_REJECTED].param.conn.private_data_len,
			x->rej_pdata);
	KUNIT_EXPECT_EQ(test, a->pdata[OIB_CMA_EVENT_REJECTED][99], 0x5a);
	KUNIT_EXPECT_EQ(test, a->pdata[OIB_CMA_EVENT_REJECTED][100], 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->id->qp->state), OIB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, cmat_count(a, OIB_CMA_EVENT_ESTABLISHED), 0);
}

/* No listener on the port: the IB CM refuses the service ID, TCP the connection. */
static void cma_test_no_listener(struct kunit *test)
{
	struct cmat_ctx *ctx = cma_ctx(test);
	struct sockaddr_storage dst;
	struct cmat_rec *a;

	cmat_addr(&dst, false, 2, 4444);
	a = cmat_connect(ctx, &dst, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_REJECTED, 1));
	KUNIT_EXPECT_EQ(test, a->last[OIB_CMA_EVENT_REJECTED].status,
			cma_expect(test)->no_listener);
}

/* A specific listener takes only its address; overlapping binds are refused. */
static void cma_test_listeners(struct kunit *test)
{
	struct cmat_ctx *ctx = cma_ctx(test);
	struct sockaddr_storage b1, b2, any4, v6, other;
	struct cmat_rec *l, *l6, *a, *a2, *w;

	cma_ib_only(test, "it gives b a second address as a GID; oib_siw's are its netdev's");
	cmat_addr(&b1, false, 2, CMAT_PORT);
	cmat_addr(&b2, false, 22, CMAT_PORT);
	cmat_addr(&any4, false, 0, CMAT_PORT);
	memset(&((struct sockaddr_in *)&any4)->sin_addr, 0, 4);
	cmat_addr(&v6, true, 2, CMAT_PORT);
	KUNIT_ASSERT_EQ(test, 0, cmat_dev_addr(ctx->b.dev, &b2, true));
	l = cmat_listen(ctx, &ctx->b, &b1, CMAT_ACCEPT);
	l6 = cmat_listen(ctx, &ctx->b, &v6, CMAT_ACCEPT);	/* another family: fine */
	w = cmat_id(ctx, &ctx->b, OIB_PS_TCP);
	KUNIT_EXPECT_EQ(test, -EADDRINUSE, oib_cma_bind_addr(w->id, (struct sockaddr *)&any4));
	KUNIT_EXPECT_EQ(test, -EADDRINUSE, oib_cma_bind_addr(w->id, (struct sockaddr *)&b1));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_cma_listen(l->id, 0));

	a = cmat_connect(ctx, &b2, OIB_PS_TCP);		/* b's, but nobody listens there */
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_REJECTED, 1));
	KUNIT_EXPECT_EQ(test, a->last[OIB_CMA_EVENT_REJECTED].status,
			OIB_CM_REJ_CONSUMER_DEFINED);
	a2 = cmat_connect(ctx, &b1, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a2, OIB_CMA_EVENT_ESTABLISHED, 1));
	KUNIT_EXPECT_NOT_NULL(test, cmat_spawned(l, 0));
	KUNIT_EXPECT_EQ(test, l6->nevents, 0);

	/* the port is free again once the specific ones go */
	cmat_destroy(l);
	cmat_destroy(l6);
	cmat_addr(&other, false, 0, CMAT_PORT);
	memset(&((struct sockaddr_in *)&other)->sin_addr, 0, 4);
	KUNIT_EXPECT_EQ(test, 0, oib_cma_bind_addr(w->id, (struct sockaddr *)&other));
}

/* A wildcard listener serves a device that came after it. */
static void cma_test_wildcard_future_device(struct kunit *test)
{
	struct cmat_ctx *ctx = cma_ctx(test);
	struct sockaddr_storage any, c_addr;
	struct cmat_rec *l, *a, *c;

	cmat_addr(&any, true, 0, CMAT_PORT);
	memset(&((struct sockaddr_in6 *)&any)->sin6_addr, 0, 16);
	l = cmat_listen(ctx, &ctx->b, &any, CMAT_ACCEPT);
	cmat_end_add(test, ctx, &ctx->c, 3, true);
	cmat_addr(&c_addr, false, 3, CMAT_PORT);
	a = cmat_connect(ctx, &c_addr, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
	c = cmat_spawned(l, 0);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_PTR_EQ(test, c->id->device, ctx->c.dev);
	KUNIT_EXPECT_TRUE(test, cmat_wait(c, OIB_CMA_EVENT_ESTABLISHED, 1));
	cmat_exchange(test, a, c, 64, 3);
	cmat_destroy(c);	/* its QP before c's CQ and PD, which go before the context */
}

/* OIB_CMA_CONFIRM_REP: the owner sees the REP and sends the RTU itself. */
static void cma_test_confirm_rep(struct kunit *test)
{
	struct cmat_ctx *ctx = cma_ctx(test);
	struct sockaddr_storage dst;
	struct cmat_rec *l, *a;

	cma_ib_only(test, "MPA has no REP to confirm (oib_cma refuses OIB_CMA_CONFIRM_REP)");
	cmat_addr(&dst, false, 2, CMAT_PORT);
	l = cmat_listen(ctx, &ctx->b, &dst, CMAT_ACCEPT);
	l->pdata_len = 9;
	a = cmat_id(ctx, &ctx->a, OIB_PS_TCP);
	a->auto_connect = true;
	a->confirm = true;
	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_addr(a->id, NULL, (struct sockaddr *)&dst, 1000));
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
	KUNIT_EXPECT_EQ(test, cmat_count(a, OIB_CMA_EVENT_CONNECT_RESPONSE), 1);
	KUNIT_EXPECT_EQ(test, a->pdata[OIB_CMA_EVENT_CONNECT_RESPONSE][8], 0x5a);
	KUNIT_ASSERT_NOT_NULL(test, cmat_spawned(l, 0));
	KUNIT_EXPECT_TRUE(test, cmat_wait(cmat_spawned(l, 0), OIB_CMA_EVENT_ESTABLISHED, 1));
}

/* UDP: SIDR gives the active side the passive side's UD QP and Q_Key; a datagram crosses. */
static void cma_test_udp(struct kunit *test)
{
	struct cmat_ctx *ctx = cma_ctx(test);
	struct sockaddr_storage dst;
	struct cmat_rec *l, *a, *b;
	const struct oib_cma_ud_param *ud;
	u8 *sbuf = kunit_kzalloc(test, 64, GFP_KERNEL);
	u8 *rbuf = kunit_kzalloc(test, 128, GFP_KERNEL);
	struct oib_sge ssge = { .addr = (uintptr_t)sbuf, .length = 64 };
	struct oib_sge rsge = { .addr = (uintptr_t)rbuf, .length = 128 };
	struct oib_send_wr swr = { .sg_list = &ssge, .num_sge = 1, .opcode = OIB_WR_SEND,
				   .send_flags = OIB_SEND_SIGNALED };
	struct oib_recv_wr rwr = { .sg_list = &rsge, .num_sge = 1 };
	struct oib_ah *ah;
	struct oib_wc wc;

	cma_ib_only(test, "no datagrams, no SIDR");
	cmat_addr(&dst, false, 2, CMAT_PORT);
	l = cmat_listen_ps(ctx, &ctx->b, &dst, CMAT_ACCEPT, OIB_PS_UDP);
	l->pdata_len = 20;
	a = cmat_connect_from(ctx, &ctx->a, NULL, &dst, OIB_PS_UDP, 30);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
	b = cmat_spawned(l, 0);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, b->last[OIB_CMA_EVENT_CONNECT_REQUEST].param.ud.private_data_len,
			OIB_CMA_SIDR_PRIVATE_DATA_SIZE);
	KUNIT_EXPECT_EQ(test, b->pdata[OIB_CMA_EVENT_CONNECT_REQUEST][29], 0x5a);
	ud = &a->last[OIB_CMA_EVENT_ESTABLISHED].param.ud;
	KUNIT_EXPECT_EQ(test, ud->qp_num, b->id->qp->qp_num);
	KUNIT_EXPECT_EQ(test, ud->qkey, OIB_CMA_UDP_QKEY);
	KUNIT_EXPECT_EQ(test, a->pdata[OIB_CMA_EVENT_ESTABLISHED][19], 0x5a);

	KUNIT_ASSERT_TRUE(test, sbuf && rbuf);
	ah = oib_create_ah(ctx->a.pd, &ud->ah_attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	ssge.lkey = ctx->a.pd->local_dma_lkey;
	rsge.lkey = ctx->b.pd->local_dma_lkey;
	swr.wr.ud.ah = ah;
	swr.wr.ud.remote_qpn = ud->qp_num;
	swr.wr.ud.remote_qkey = ud->qkey;
	KUNIT_ASSERT_EQ(test, 0, oib_post_recv(b->id->qp, &rwr, NULL));
	KUNIT_ASSERT_EQ(test, 0, oib_post_send(a->id->qp, &swr, NULL));
	KUNIT_EXPECT_EQ(test, 1, oib_test_poll_cq(ctx->a.cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, 1, oib_test_poll_cq(ctx->b.cq, &wc, 1));
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 64 + 40);
	oib_destroy_ah(ah);
}

/* A backlog of one: the second request waits for nobody and is refused (IB: "no resources"). */
static void cma_test_backlog(struct kunit *test)
{
	struct cmat_ctx *ctx = cma_ctx(test);
	struct sockaddr_storage dst;
	struct cmat_rec *l = cmat_id(ctx, &ctx->b, OIB_PS_TCP), *a1, *a2;

	cmat_addr(&dst, false, 2, CMAT_PORT);
	l->listener = true;
	l->on_req = CMAT_NOTHING;
	KUNIT_ASSERT_EQ(test, 0, oib_cma_bind_addr(l->id, (struct sockaddr *)&dst));
	KUNIT_ASSERT_EQ(test, 0, oib_cma_listen(l->id, 1));
	a1 = cmat_connect(ctx, &dst, OIB_PS_TCP);
	KUNIT_ASSERT_NOT_NULL(test, cmat_spawned(l, 0));
	a2 = cmat_connect(ctx, &dst, OIB_PS_TCP);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a2, OIB_CMA_EVENT_REJECTED, 1));
	KUNIT_EXPECT_EQ(test, a2->last[OIB_CMA_EVENT_REJECTED].status, cma_expect(test)->backlog);
	/* answering the first makes room */
	KUNIT_ASSERT_EQ(test, 0, oib_cma_reject(cmat_spawned(l, 0)->id, NULL, 0));
	KUNIT_ASSERT_TRUE(test, cmat_wait(a1, OIB_CMA_EVENT_REJECTED, 1));
	l->on_req = CMAT_ACCEPT;
	a2 = cmat_connect(ctx, &dst, OIB_PS_TCP);
	KUNIT_EXPECT_TRUE(test, cmat_wait(a2, OIB_CMA_EVENT_ESTABLISHED, 1));
}

/* The bound address leaves the port: ADDR_CHANGE, once. */
static void cma_test_addr_change(struct kunit *test)
{
	struct cmat_ctx *ctx = cma_ctx(test);
	struct sockaddr_storage b2, b3;
	struct cmat_rec *r = cmat_id(ctx, &ctx->b, OIB_PS_TCP);
	struct cmat_rec *other = cmat_id(ctx, &ctx->b, OIB_PS_TCP);

	cma_ib_only(test, "it adds and takes b's GIDs; oib_siw's follow its netdev's addresses");
	cmat_addr(&b2, false, 22, 0);
	cmat_addr(&b3, false, 23, 0);
	KUNIT_ASSERT_EQ(test, 0, cmat_dev_addr(ctx->b.dev, &b2, true));
	KUNIT_ASSERT_EQ(test, 0, cmat_dev_addr(ctx->b.dev, &b3, true));
	KUNIT_ASSERT_EQ(test, 0, oib_cma_bind_addr(r->id, (struct sockaddr *)&b2));
	KUNIT_ASSERT_EQ(test, 0, oib_cma_bind_addr(other->id, (struct sockaddr *)&b3));
	KUNIT_ASSERT_EQ(test, 0, cmat_dev_addr(ctx->b.dev, &b2, false));
	KUNIT_ASSERT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_ADDR_CHANGE, 1));
	KUNIT_ASSERT_EQ(test, 0, cmat_dev_addr(ctx->b.dev, &b3, false));
	KUNIT_ASSERT_TRUE(test, cmat_wait(other, OIB_CMA_EVENT_ADDR_CHANGE, 1));
	KUNIT_EXPECT_EQ(test, cmat_count(r, OIB_CMA_EVENT_ADDR_CHANGE), 1);
}

/* ---- Destroy from inside a handler ---- */

struct cma_destroy_case {
	const char *name;
	bool passive;
	enum oib_cma_event_type on;
	enum oib_cma_event_type peer_sees;	/* OIB_CMA_NEVENTS: nothing to check */
};

static const struct cma_destroy_case cma_destroy_cases[] = {
	{ "active_addr_resolved", false, OIB_CMA_EVENT_ADDR_RESOLVED, OIB_CMA_NEVENTS },
	{ "active_route_resolved", false, OIB_CMA_EVENT_ROUTE_RESOLVED, OIB_CMA_NEVENTS },
	{ "active_established", false, OIB_CMA_EVENT_ESTABLISHED, OIB_CMA_EVENT_DISCONNECTED },
	{ "active_disconnected", false, OIB_CMA_EVENT_DISCONNECTED, OIB_CMA_EVENT_DISCONNECTED },
	{ "passive_connect_request", true, OIB_CMA_EVENT_CONNECT_REQUEST, OIB_CMA_EVENT_REJECTED },
	{ "passive_established", true, OIB_CMA_EVENT_ESTABLISHED, OIB_CMA_EVENT_DISCONNECTED },
	{ "passive_disconnected", true, OIB_CMA_EVENT_DISCONNECTED, OIB_CMA_EVENT_DISCONNECTED },
};

static struct cma_param cma_destroy_params[ARRAY_SIZE(cmat_kinds) * ARRAY_SIZE(cma_destroy_cases)];

static_assert(offsetof(struct cma_destroy_case, name) == 0);	/* cma_gen() names it */

static const void *cma_destroy_gen_params(const void *prev, char *desc)
{
	return cma_gen(cma_destroy_params, cma_destroy_cases, ARRAY_SIZE(cma_destroy_cases),
		       sizeof(cma_destroy_cases[0]), prev, desc);
}

static void cma_test_destroy_in_handler(struct kunit *test)
{
	const struct cma_destroy_case *c = cma_sub(test);
	struct cmat_ctx *ctx = cma_ctx(test);
	struct sockaddr_storage dst;
	struct cmat_rec *l, *a, *b, *me, *peer;

	cmat_addr(&dst, false, 2, CMAT_PORT);
	/* refusing by destroying: before accepting (else the peer is established, then not) */
	l = cmat_listen(ctx, &ctx->b, &dst, c->on == OIB_CMA_EVENT_CONNECT_REQUEST ?
			CMAT_NOTHING : CMAT_ACCEPT);
	if (c->passive)
		l->destroy_on = c->on + 1;
	a = cmat_id(ctx, &ctx->a, OIB_PS_TCP);
	a->auto_connect = true;
	if (!c->passive)
		a->destroy_on = c->on + 1;
	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_addr(a->id, NULL, (struct sockaddr *)&dst, 1000));
	if (c->on == OIB_CMA_EVENT_DISCONNECTED) {	/* the other side disconnects */
		KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
		b = cmat_spawned(l, 0);
		KUNIT_ASSERT_NOT_NULL(test, b);
		KUNIT_ASSERT_TRUE(test, cmat_wait(b, OIB_CMA_EVENT_ESTABLISHED, 1));
		KUNIT_ASSERT_EQ(test, 0, oib_cma_disconnect(c->passive ? a->id : b->id));
	}
	me = c->passive ? cmat_spawned(l, 0) : a;
	KUNIT_ASSERT_NOT_NULL(test, me);
	KUNIT_ASSERT_TRUE(test, cmat_wait(me, c->on, 1));
	KUNIT_EXPECT_TRUE(test, READ_ONCE(me->gone));
	if (c->peer_sees == OIB_CMA_NEVENTS)
		return;
	peer = c->passive ? a : cmat_spawned(l, 0);
	KUNIT_ASSERT_NOT_NULL(test, peer);
	KUNIT_EXPECT_TRUE(test, cmat_wait(peer, c->peer_sees, 1));
}

/* ---- Device removal ---- */

struct cma_removal_case {
	const char *name;
	int state;		/* what c's id does before its device goes */
	bool destroy_in_handler;
};

enum { RM_BOUND, RM_LISTEN, RM_RESOLVED, RM_CONNECTING, RM_CONNECTED, RM_PASSIVE };

static const struct cma_removal_case cma_removal_cases[] = {
	{ "bound", RM_BOUND, false },
	{ "listening", RM_LISTEN, true },
	{ "route_resolved", RM_RESOLVED, false },
	{ "connecting", RM_CONNECTING, true },
	{ "connected", RM_CONNECTED, false },
	{ "connected_in_handler", RM_CONNECTED, true },
	{ "passive", RM_PASSIVE, false },
};

static struct cma_param cma_removal_params[ARRAY_SIZE(cmat_kinds) * ARRAY_SIZE(cma_removal_cases)];

static_assert(offsetof(struct cma_removal_case, name) == 0);

static const void *cma_removal_gen_params(const void *prev, char *desc)
{
	return cma_gen(cma_removal_params, cma_removal_cases, ARRAY_SIZE(cma_removal_cases),
		       sizeof(cma_removal_cases[0]), prev, desc);
}

struct cma_removal {
	struct work_struct work;
	const struct cmat_kind *kind;
	struct oib_device *dev;
	int ret;
};

static void cma_removal_work(struct work_struct *work)
{
	struct cma_removal *rm = container_of(work, struct cma_removal, work);

	rm->ret = rm->kind->remove(rm->dev);
}

static struct cmat_rec *cma_removal_setup(struct kunit *test, struct cmat_ctx *ctx, int state,
					  struct cmat_rec **peer)
{
	struct sockaddr_storage c_addr, c_src, b_addr;
	struct cmat_rec *r, *l;

	cmat_addr(&c_addr, false, 3, CMAT_PORT);
	cmat_addr(&c_src, false, 3, 0);	/* TCP: not the port the listeners' socket has */
	cmat_addr(&b_addr, false, 2, CMAT_PORT);
	*peer = NULL;
	switch (state) {
	case RM_BOUND:
		r = cmat_id(ctx, &ctx->c, OIB_PS_TCP);
		KUNIT_ASSERT_EQ(test, 0, oib_cma_bind_addr(r->id, (struct sockaddr *)&c_addr));
		return r;
	case RM_LISTEN:
		return cmat_listen(ctx, &ctx->c, &c_addr, CMAT_ACCEPT);
	case RM_RESOLVED:
		r = cmat_id(ctx, &ctx->c, OIB_PS_TCP);
		KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_addr(r->id, (struct sockaddr *)&c_addr,
							      (struct sockaddr *)&b_addr, 1000));
		KUNIT_ASSERT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_ADDR_RESOLVED, 1));
		KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_route(r->id, 1000));
		KUNIT_ASSERT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_ROUTE_RESOLVED, 1));
		return r;
	case RM_CONNECTING:
	case RM_CONNECTED:
		l = cmat_listen(ctx, &ctx->b, &b_addr,
				state == RM_CONNECTING ? CMAT_NOTHING : CMAT_ACCEPT);
		r = cmat_connect_from(ctx, &ctx->c, &c_src, &b_addr, OIB_PS_TCP, 0);
		*peer = cmat_spawned(l, 0);
		KUNIT_ASSERT_NOT_NULL(test, *peer);
		if (state == RM_CONNECTED)
			KUNIT_ASSERT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_ESTABLISHED, 1));
		return r;
	default:	/* RM_PASSIVE: c's listener spawned an established id */
		l = cmat_listen(ctx, &ctx->c, &c_addr, CMAT_ACCEPT);
		*peer = cmat_connect(ctx, &c_addr, OIB_PS_TCP);
		KUNIT_ASSERT_TRUE(test, cmat_wait(*peer, OIB_CMA_EVENT_ESTABLISHED, 1));
		r = cmat_spawned(l, 0);
		KUNIT_ASSERT_NOT_NULL(test, r);
		return r;
	}
}

static void cma_test_device_removal(struct kunit *test)
{
	const struct cma_removal_case *c = cma_sub(test);
	struct cmat_ctx *ctx = cma_ctx(test);
	struct cma_removal rm = {};
	struct cmat_rec *r, *peer, *l = NULL;

	cmat_end_add(test, ctx, &ctx->c, 3, false);
	r = cma_removal_setup(test, ctx, c->state, &peer);
	if (c->state == RM_PASSIVE)
		l = r->spawner;
	r->keep_on_removal = !c->destroy_in_handler;
	if (l)
		l->keep_on_removal = !c->destroy_in_handler;
	/* a user reference: the removal waits for it, so c's PD and CQ go before it checks */
	KUNIT_ASSERT_TRUE(test, oib_device_try_get(ctx->c.dev));
	INIT_WORK_ONSTACK(&rm.work, cma_removal_work);
	rm.dev = ctx->c.dev;
	rm.kind = ctx->kind;
	schedule_work(&rm.work);
	KUNIT_EXPECT_TRUE(test, cmat_wait(r, OIB_CMA_EVENT_DEVICE_REMOVAL, 1));
	if (l)
		KUNIT_EXPECT_TRUE(test, cmat_wait(l, OIB_CMA_EVENT_DEVICE_REMOVAL, 1));
	if (!c->destroy_in_handler) {
		cmat_destroy(r);
		if (l)
			cmat_destroy(l);
	}
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(READ_ONCE(r->gone)));
	/* the owner frees its objects of the device too, as a ULP's client would */
	cmat_end_free_objects(&ctx->c);
	oib_device_put(rm.dev);
	flush_work(&rm.work);
	destroy_work_on_stack(&rm.work);
	KUNIT_EXPECT_EQ(test, rm.ret, 0);
	KUNIT_EXPECT_EQ(test, cmat_count(r, OIB_CMA_EVENT_DEVICE_REMOVAL), 1);
	if (peer && (c->state == RM_CONNECTED || c->state == RM_PASSIVE))
		KUNIT_EXPECT_TRUE(test, cmat_wait(peer, OIB_CMA_EVENT_DISCONNECTED, 1));
	if (peer && c->state == RM_CONNECTING && !cma_kind(test)->iwarp)
		KUNIT_EXPECT_TRUE(test, cmat_wait(peer, OIB_CMA_EVENT_REJECTED, 1));
	/*
	 * iWARP: a request whose initiator went is no news to its owner until it answers (the
	 * in-tree siw does the same): its accept finds the connection closed.
	 */
	if (peer && c->state == RM_CONNECTING && cma_kind(test)->iwarp)
		KUNIT_EXPECT_EQ(test, cmat_count(peer, OIB_CMA_EVENT_ESTABLISHED), 0);
}

static struct kunit_case cma_connect_cases[] = {
	KUNIT_CASE_PARAM(cma_test_resolve_v4, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_resolve_v6, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_resolve_errors, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_resolve_multi, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_connect_v4, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_connect_v6, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_disconnect_passive, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_disconnect_both, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_reject, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_no_listener, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_listeners, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_wildcard_future_device, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_confirm_rep, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_udp, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_backlog, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_addr_change, cma_kind_gen_params),
	KUNIT_CASE_PARAM(cma_test_destroy_in_handler, cma_destroy_gen_params),
	KUNIT_CASE_PARAM(cma_test_device_removal, cma_removal_gen_params),
	{}
};

static struct kunit_suite cma_connect_suite = {
	.name = "oib_cma_connect",
	.test_cases = cma_connect_cases,
};

kunit_test_suite(cma_connect_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for oib_cma: IP connections end to end");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
