// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of SDP's connection over oib_cma between two oib_rxe devices, IPv4 and IPv6: the
 * SDP port space (service ID 0x1PPPP) apart from TCP's, the Hello as the REQ's whole private
 * data, the passive side's addresses taken from it, receives posted before the REP (the QP in
 * INIT, then RTR) with the HelloAck in the REP, and the first Data message numbered and counted
 * by the credits on both ends.  A Hello the CMA cannot read is refused.
 */
#include <linux/module.h>
#include <net/net_namespace.h>
#include <oib/kunit/sdp.h>
#include "oib_toolkit_cma.h"

#define SDPT_PORT	7175
#define SDPT_RECVS	4
#define SDPT_BUF	256

/* An RC QP on @r's id, and @n receives of SDPT_BUF bytes each posted into @bufs. */
static void sdpt_qp(struct kunit *test, struct cmat_rec *r, u8 *bufs, int n)
{
	struct oib_qp_init_attr attr = {
		.send_cq = r->end->cq, .recv_cq = r->end->cq, .qp_type = OIB_QPT_RC,
		.cap = { .max_send_wr = CMAT_WR, .max_recv_wr = CMAT_WR, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	int i;

	KUNIT_ASSERT_EQ(test, oib_cma_create_qp(r->id, r->end->pd, &attr), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(r->id->qp->state), OIB_QPS_INIT);
	for (i = 0; i < n; i++) {
		struct oib_sge sge = { .addr = (uintptr_t)(bufs + i * SDPT_BUF),
				       .length = SDPT_BUF, .lkey = r->end->pd->local_dma_lkey };
		struct oib_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 };

		KUNIT_ASSERT_EQ(test, oib_post_recv(r->id->qp, &wr, NULL), 0);
	}
}

/* The Hello an active id sends: its addresses and port, @bufs receives posted. */
static void sdpt_hello(struct oib_cma_id *id, u8 *buf, u16 bufs, u8 ipv_cap)
{
	const struct sockaddr_storage *src = &id->route.addr.src_addr;
	const struct sockaddr_storage *dst = &id->route.addr.dst_addr;
	struct oib_sdp_hello h = {
		.hdr = { .bufs = bufs }, .version = OIB_SDP_VERSION, .max_adverts = 1,
		.desremrcvsz = SDPT_BUF, .localrcvsz = SDPT_BUF,
	};

	if (src->ss_family == AF_INET) {
		h.ip_version = 4;
		h.src.s6_addr32[3] = ((const struct sockaddr_in *)src)->sin_addr.s_addr;
		h.dst.s6_addr32[3] = ((const struct sockaddr_in *)dst)->sin_addr.s_addr;
		h.port = ntohs(((const struct sockaddr_in *)src)->sin_port);
	} else {
		h.ip_version = 6;
		h.src = ((const struct sockaddr_in6 *)src)->sin6_addr;
		h.dst = ((const struct sockaddr_in6 *)dst)->sin6_addr;
		h.port = ntohs(((const struct sockaddr_in6 *)src)->sin6_port);
	}
	oib_sdp_pack_hello(buf, &h);
	if (ipv_cap)
		buf[offsetof(struct oib_sdp_hh, ipv_cap)] = ipv_cap;
}

/* An active SDP id of a's to @dst: resolved, its QP and receives made, connecting. */
static struct cmat_rec *sdpt_connect(struct kunit *test, struct cmat_ctx *ctx,
				     const struct sockaddr_storage *dst, u8 *bufs, u8 ipv_cap)
{
	struct cmat_rec *a = cmat_id(ctx, &ctx->a, OIB_PS_SDP);
	u8 hello[sizeof(struct oib_sdp_hh)];
	struct oib_cma_conn_param p = {
		.private_data = hello, .private_data_len = sizeof(hello),
		.responder_resources = 4, .initiator_depth = 4, .retry_count = 5,
		.rnr_retry_count = 7,
	};

	KUNIT_ASSERT_EQ(test, oib_cma_resolve_addr(a->id, NULL, (struct sockaddr *)dst, 2000), 0);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ADDR_RESOLVED, 1));
	KUNIT_ASSERT_EQ(test, oib_cma_resolve_route(a->id, 2000), 0);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ROUTE_RESOLVED, 1));
	sdpt_qp(test, a, bufs, SDPT_RECVS);
	sdpt_hello(a->id, hello, SDPT_RECVS, ipv_cap);
	KUNIT_ASSERT_EQ(test, oib_cma_connect(a->id, &p), 0);
	return a;
}

static bool sdpt_same_addr(const struct sockaddr_storage *x, const struct sockaddr_storage *y)
{
	size_t len = x->ss_family == AF_INET ? sizeof(struct sockaddr_in) :
					       sizeof(struct sockaddr_in6);

	if (x->ss_family != y->ss_family)
		return false;
	if (x->ss_family == AF_INET6)	/* flow info and scope are no part of it */
		return !memcmp(&((const struct sockaddr_in6 *)x)->sin6_addr,
			       &((const struct sockaddr_in6 *)y)->sin6_addr, 16) &&
		       ((const struct sockaddr_in6 *)x)->sin6_port ==
		       ((const struct sockaddr_in6 *)y)->sin6_port;
	return !memcmp(x, y, len);
}

/* The passive side's CONNECT_REQUEST: a whole Hello, and the id's addresses from it. */
static void sdpt_check_request(struct kunit *test, struct cmat_rec *a, struct cmat_rec *p,
			       const struct sockaddr_storage *laddr, struct oib_sdp_hello *h)
{
	const struct oib_cma_event *ev = &p->last[OIB_CMA_EVENT_CONNECT_REQUEST];

	KUNIT_EXPECT_EQ(test, ev->param.conn.private_data_len, sizeof(struct oib_sdp_hh));
	KUNIT_ASSERT_EQ(test, oib_sdp_parse_hello(p->pdata[OIB_CMA_EVENT_CONNECT_REQUEST],
						  ev->param.conn.private_data_len, h), 0);
	KUNIT_EXPECT_EQ(test, h->hdr.bufs, SDPT_RECVS);
	KUNIT_EXPECT_EQ(test, h->ip_version, laddr->ss_family == AF_INET ? 4 : 6);
	KUNIT_EXPECT_TRUE(test, sdpt_same_addr(&p->id->route.addr.dst_addr,
					       &a->id->route.addr.src_addr));
	KUNIT_EXPECT_TRUE(test, sdpt_same_addr(&p->id->route.addr.src_addr, laddr));
	KUNIT_EXPECT_EQ(test, p->id->ps, OIB_PS_SDP);
}

/* One Data message from @from to @to, numbered by @cf, checked by @ct on arrival. */
static void sdpt_data(struct kunit *test, struct cmat_rec *from, struct cmat_rec *to,
		      struct sdp_credit *cf, struct sdp_credit *ct, u8 *rbufs)
{
	static const char payload[] = "over SDP";
	u8 *sbuf = kunit_kzalloc(test, SDPT_BUF, GFP_KERNEL);
	struct oib_sdp_msg msg = { .hdr = { .mid = OIB_SDP_MID_DATA },
				   .payload_len = sizeof(payload) };
	struct oib_sge sge = { .addr = (uintptr_t)sbuf, .lkey = from->end->pd->local_dma_lkey };
	struct oib_send_wr wr = { .sg_list = &sge, .num_sge = 1, .opcode = OIB_WR_SEND,
				  .send_flags = OIB_SEND_SIGNALED };
	struct oib_wc wc;

	KUNIT_ASSERT_NOT_NULL(test, sbuf);
	KUNIT_ASSERT_TRUE(test, sdp_credit_may_send(cf, SDP_TX_DATA));
	sdp_credit_tx(cf, &msg.hdr);
	sge.length = oib_sdp_pack_msg(sbuf, &msg, payload);
	KUNIT_ASSERT_EQ(test, oib_post_send(from->id->qp, &wr, NULL), 0);
	KUNIT_ASSERT_EQ(test, oib_test_poll_cq(from->end->cq, &wc, 1), 1);
	KUNIT_EXPECT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, oib_test_poll_cq(to->end->cq, &wc, 1), 1);
	KUNIT_ASSERT_EQ(test, wc.status, OIB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, oib_sdp_parse_msg(rbufs + wc.wr_id * SDPT_BUF, wc.byte_len, &msg), 0);
	KUNIT_EXPECT_EQ(test, msg.hdr.mseq, 1);
	KUNIT_EXPECT_EQ(test, msg.hdr.bufs, SDPT_RECVS);
	KUNIT_EXPECT_EQ(test, msg.payload_len, sizeof(payload));
	KUNIT_EXPECT_MEMEQ(test, msg.payload, payload, sizeof(payload));
	KUNIT_EXPECT_EQ(test, sdp_credit_rx(ct, &msg.hdr), 0);
	KUNIT_EXPECT_EQ(test, ct->rx_posted, SDPT_RECVS - 1);
}

static void conn_test_hello(struct kunit *test)
{
	bool v6 = *(const bool *)test->param_value;
	struct cmat_ctx *ctx = cmat_ctx(test);
	u8 *abufs = kunit_kzalloc(test, SDPT_RECVS * SDPT_BUF, GFP_KERNEL);
	u8 *pbufs = kunit_kzalloc(test, SDPT_RECVS * SDPT_BUF, GFP_KERNEL);
	struct oib_sdp_hello_ack ack = { .hdr = { .bufs = SDPT_RECVS }, .version = OIB_SDP_VERSION,
					 .ip_version = v6 ? 6 : 4, .max_adverts = 1,
					 .actrcvsz = SDPT_BUF };
	u8 hah[sizeof(struct oib_sdp_hah)];
	struct oib_cma_conn_param param = {
		.private_data = hah, .private_data_len = sizeof(hah), .responder_resources = 4,
		.initiator_depth = 4, .rnr_retry_count = 7,
	};
	struct sdp_credit ca, cp;
	struct sockaddr_storage laddr;
	struct oib_sdp_hello hello;
	struct cmat_rec *l, *a, *p;
	const struct oib_cma_event *ev;

	KUNIT_ASSERT_TRUE(test, abufs && pbufs);
	cmat_addr(&laddr, v6, 2, SDPT_PORT);
	l = cmat_listen_ps(ctx, &ctx->b, &laddr, CMAT_NOTHING, OIB_PS_SDP);
	a = sdpt_connect(test, ctx, &laddr, abufs, 0);
	p = cmat_spawned(l, 0);
	KUNIT_ASSERT_NOT_NULL(test, p);
	sdpt_check_request(test, a, p, &laddr, &hello);

	/* receives posted before the REP; the HelloAck in it */
	sdpt_qp(test, p, pbufs, SDPT_RECVS);
	oib_sdp_pack_hello_ack(hah, &ack);
	KUNIT_ASSERT_EQ(test, oib_cma_accept(p->id, &param), 0);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_ESTABLISHED, 1));
	ev = &a->last[OIB_CMA_EVENT_ESTABLISHED];
	KUNIT_ASSERT_EQ(test, oib_sdp_parse_hello_ack(a->pdata[OIB_CMA_EVENT_ESTABLISHED],
						      ev->param.conn.private_data_len, &ack), 0);
	KUNIT_EXPECT_EQ(test, ack.hdr.bufs, SDPT_RECVS);
	KUNIT_EXPECT_EQ(test, ack.actrcvsz, SDPT_BUF);

	/* the credits each side starts with: the other's receives */
	sdp_credit_init(&ca, ack.hdr.bufs, SDPT_RECVS);
	sdp_credit_init(&cp, hello.hdr.bufs, SDPT_RECVS);
	sdpt_data(test, a, p, &ca, &cp, pbufs);
	KUNIT_EXPECT_TRUE(test, cmat_wait(p, OIB_CMA_EVENT_ESTABLISHED, 1));
	KUNIT_EXPECT_EQ(test, a->errors + p->errors, 0);
}

static void conn_test_bad_hello(struct kunit *test)
{
	struct cmat_ctx *ctx = cmat_ctx(test);
	u8 *bufs = kunit_kzalloc(test, SDPT_RECVS * SDPT_BUF, GFP_KERNEL);
	struct sockaddr_storage laddr;
	struct cmat_rec *l, *a;

	KUNIT_ASSERT_NOT_NULL(test, bufs);
	cmat_addr(&laddr, false, 2, SDPT_PORT);
	l = cmat_listen_ps(ctx, &ctx->b, &laddr, CMAT_ACCEPT, OIB_PS_SDP);
	a = sdpt_connect(test, ctx, &laddr, bufs, 0x50);	/* neither IPv4 nor IPv6 */
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_REJECTED, 1));
	KUNIT_EXPECT_EQ(test, a->last[OIB_CMA_EVENT_REJECTED].status,
			OIB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, cmat_count(l, OIB_CMA_EVENT_CONNECT_REQUEST), 0);
}

/* SDP's port 7175 is not TCP's: each has its own listener and bindings. */
static void conn_test_port_space(struct kunit *test)
{
	struct cmat_ctx *ctx = cmat_ctx(test);
	u8 *bufs = kunit_kzalloc(test, SDPT_RECVS * SDPT_BUF, GFP_KERNEL);
	struct sockaddr_storage laddr;
	struct cmat_rec *tcp, *sdp, *a;

	KUNIT_ASSERT_NOT_NULL(test, bufs);
	cmat_addr(&laddr, false, 2, SDPT_PORT);
	tcp = cmat_listen_ps(ctx, &ctx->b, &laddr, CMAT_ACCEPT, OIB_PS_TCP);
	a = sdpt_connect(test, ctx, &laddr, bufs, 0);
	KUNIT_ASSERT_TRUE(test, cmat_wait(a, OIB_CMA_EVENT_REJECTED, 1));
	KUNIT_EXPECT_EQ(test, a->last[OIB_CMA_EVENT_REJECTED].status,
			OIB_CM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, cmat_count(tcp, OIB_CMA_EVENT_CONNECT_REQUEST), 0);
	/* an SDP listener on the same address and port beside it; SDP takes RC QPs only */
	sdp = cmat_listen_ps(ctx, &ctx->b, &laddr, CMAT_NOTHING, OIB_PS_SDP);
	KUNIT_EXPECT_EQ(test, PTR_ERR(oib_cma_create_id(&init_net, sdp->id->event_handler, NULL,
							OIB_PS_SDP, OIB_QPT_UC)), -EINVAL);
}

static const bool conn_test_v6[] = { false, true };

static void conn_test_v6_desc(const bool *v6, char *desc)
{
	strscpy(desc, *v6 ? "ipv6" : "ipv4", KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(conn_test_ip, conn_test_v6, conn_test_v6_desc);

static struct kunit_case conn_test_cases[] = {
	KUNIT_CASE_PARAM(conn_test_hello, conn_test_ip_gen_params),
	KUNIT_CASE(conn_test_bad_hello),
	KUNIT_CASE(conn_test_port_space),
	{}
};

static struct kunit_suite conn_test_suite = {
	.name = "oib_sdp_conn",
	.test_cases = conn_test_cases,
};

kunit_test_suite(conn_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of SDP's connection over oib_cma");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
