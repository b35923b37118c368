// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for oib_iwcm over the toolkit's test RNIC (oib_toolkit_rnic.h): connect and
 * accept with private data and IRD/ORD both ways, reject with private data, no listener,
 * disconnect from either side, destroy in each state, a handler refusing a request, a listener
 * gone before its request is delivered, and the calls' argument and state checks.  Each id
 * records what its owner heard; the tests wait for the records.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/module.h>
#include <oib/iwcm.h>
#include "oib_toolkit.h"
#include "oib_toolkit_rnic.h"

#define REC_MAX	8

/* What one id's owner heard, in order. */
struct rec {
	wait_queue_head_t wq;
	atomic_t n;
	u8 events[REC_MAX];
	int status[REC_MAX];
	u8 pdata[OIB_IW_CM_PRIVATE_DATA_SIZE];
	u8 pdata_len;
	u32 ird, ord;
	/* A listener's: the request's new id, and what to do with it. */
	struct oib_iwcm_id *child;
	struct rec *child_rec;
	struct oib_iwcm_id *listen_id;
	int refuse;			/* returned from the CONNECT_REQUEST handler */
};

static struct rec *rec_new(struct kunit *test)
{
	struct rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	init_waitqueue_head(&r->wq);
	return r;
}

static void rec_add(struct rec *r, const struct oib_iwcm_event *ev)
{
	int i = atomic_read(&r->n);

	if (i >= REC_MAX)
		return;
	r->events[i] = ev->event;
	r->status[i] = ev->status;
	if (ev->private_data_len) {
		memcpy(r->pdata, ev->private_data, ev->private_data_len);
		r->pdata_len = ev->private_data_len;
	}
	if (ev->event == OIB_IW_CM_EVENT_CONNECT_REQUEST ||
	    ev->event == OIB_IW_CM_EVENT_CONNECT_REPLY) {
		r->ird = ev->ird;
		r->ord = ev->ord;
	}
	atomic_inc(&r->n);
	wake_up(&r->wq);
}

static int rec_handler(struct oib_iwcm_id *id, const struct oib_iwcm_event *ev)
{
	struct rec *r = id->context;

	if (ev->event == OIB_IW_CM_EVENT_CONNECT_REQUEST) {
		/* id->context is still the listener's record. */
		r->child = id;
		r->listen_id = ev->listen_id;
		id->context = r->child_rec;
		rec_add(r->child_rec, ev);
		rec_add(r, ev);
		return r->refuse;
	}
	rec_add(r, ev);
	return 0;
}

/* Wait for @r's @i-th event (from 0) and check it is @type. */
static void rec_expect(struct kunit *test, struct rec *r, int i, enum oib_iw_cm_event_type type)
{
	KUNIT_ASSERT_TRUE_MSG(test, oib_test_wait_count(&r->wq, &r->n, i + 1),
			      "event %d (%s) never came", i, oib_iwcm_event_msg(type));
	KUNIT_EXPECT_STREQ(test, oib_iwcm_event_msg(r->events[i]), oib_iwcm_event_msg(type));
}

static struct sockaddr_in v4(u8 last, u16 port)
{
	return (struct sockaddr_in){
		.sin_family = AF_INET,
		.sin_addr.s_addr = last ? htonl(0x0a000000 | last) : 0,
		.sin_port = htons(port),
	};
}

struct side {
	struct oib_iwcm_id *id;
	struct oib_qp *qp;
	struct rec *rec;
};

static void side_release(void *arg)
{
	oib_iwcm_destroy_id(arg);
}

static struct oib_iwcm_id *test_id(struct kunit *test, struct oib_device *dev, struct rec *r)
{
	struct oib_iwcm_id *id = oib_iwcm_create_id(dev, rec_handler, r);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, id);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, side_release, id));
	return id;
}

static void test_destroy(struct kunit *test, struct oib_iwcm_id *id)
{
	kunit_release_action(test, side_release, id);
}

static struct oib_qp *test_rc_qp(struct kunit *test, struct oib_device *dev)
{
	struct oib_pd *pd = oib_test_pd(test, dev);
	struct oib_cq *cq = oib_test_cq(test, dev, 16);

	struct oib_qp *qp = oib_test_qp(test, pd, cq, OIB_QPT_RC, 8);

	KUNIT_ASSERT_EQ(test, 0, oib_test_qp_to(qp, OIB_QPS_INIT));	/* as oib_cma has it */
	return qp;
}

struct pair {
	struct oib_device *dev;
	struct oib_iwcm_id *listen, *active;
	struct rec *lrec, *arec, *prec;
	struct oib_qp *aqp, *pqp;
};

/* A listener on 10.0.0.1:@port (or the wildcard) and an active id with its QP. */
static void pair_setup(struct kunit *test, struct pair *p, bool wildcard, u16 port)
{
	struct sockaddr_in laddr = v4(wildcard ? 0 : 1, port);

	p->dev = oib_test_rnic(test);
	oib_test_rnic_addr(test, p->dev, 1);
	p->lrec = rec_new(test);
	p->arec = rec_new(test);
	p->prec = rec_new(test);
	p->lrec->child_rec = p->prec;
	p->listen = test_id(test, p->dev, p->lrec);
	KUNIT_ASSERT_EQ(test, 0, oib_iwcm_listen(p->listen, (struct sockaddr *)&laddr, 8));
	p->active = test_id(test, p->dev, p->arec);
	p->aqp = test_rc_qp(test, p->dev);
	p->pqp = test_rc_qp(test, p->dev);
}

static int pair_connect(struct pair *p, const char *pdata, u32 ird, u32 ord)
{
	struct sockaddr_in src = v4(2, 0), dst = v4(1, 7174);
	struct oib_iw_cm_conn_param param = {
		.private_data = pdata,
		.private_data_len = pdata ? strlen(pdata) : 0,
		.ird = ird,
		.ord = ord,
		.qp = p->aqp,
	};

	return oib_iwcm_connect(p->active, (struct sockaddr *)&src, (struct sockaddr *)&dst,
				&param);
}

/* Connect, accept, both sides up; the passive id is the test's to destroy. */
static void pair_establish(struct kunit *test, struct pair *p)
{
	struct oib_iw_cm_conn_param acc = {
		.private_data = "accepted",
		.private_data_len = 8,
		.ird = 3,
		.ord = 5,
		.qp = p->pqp,
	};
	int base = atomic_read(&p->arec->n);	/* what the active side heard before */

	KUNIT_ASSERT_EQ(test, 0, pair_connect(p, "hello", 5, 3));
	rec_expect(test, p->prec, 0, OIB_IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, side_release, p->lrec->child));
	KUNIT_EXPECT_PTR_EQ(test, p->lrec->listen_id, p->listen);
	KUNIT_EXPECT_EQ(test, p->prec->pdata_len, 5);
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->prec->pdata, "hello", 5));
	KUNIT_EXPECT_EQ(test, p->prec->ird, 3);	/* the peer's ORD */
	KUNIT_EXPECT_EQ(test, p->prec->ord, 5);
	KUNIT_EXPECT_EQ(test, 0, oib_iwcm_accept(p->lrec->child, &acc));
	rec_expect(test, p->arec, base, OIB_IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, p->arec->status[base], 0);
	KUNIT_EXPECT_EQ(test, p->arec->pdata_len, 8);
	KUNIT_EXPECT_EQ(test, 0, memcmp(p->arec->pdata, "accepted", 8));
	rec_expect(test, p->prec, 1, OIB_IW_CM_EVENT_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, oib_test_rnic_connections(p->dev), 1);
}

static void connect_disconnect_active(struct kunit *test)
{
	struct pair p;

	pair_setup(test, &p, false, 7174);
	pair_establish(test, &p);
	/*
	 * Not asked again while closing: the test RNIC's CLOSE may be delivered before a second
	 * call, which then finds nothing to disconnect (it failed so once in CI).
	 */
	KUNIT_EXPECT_EQ(test, 0, oib_iwcm_disconnect(p.active));
	rec_expect(test, p.arec, 1, OIB_IW_CM_EVENT_CLOSE);
	rec_expect(test, p.prec, 2, OIB_IW_CM_EVENT_DISCONNECT);
	rec_expect(test, p.prec, 3, OIB_IW_CM_EVENT_CLOSE);
	/* Over: nothing to disconnect, and the ids may go. */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_disconnect(p.active));
	test_destroy(test, p.active);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.arec->n), 2);
}

static void connect_disconnect_passive(struct kunit *test)
{
	struct pair p;

	pair_setup(test, &p, true, 7174);
	pair_establish(test, &p);
	KUNIT_EXPECT_EQ(test, 0, oib_iwcm_disconnect(p.lrec->child));
	rec_expect(test, p.prec, 2, OIB_IW_CM_EVENT_CLOSE);
	rec_expect(test, p.arec, 1, OIB_IW_CM_EVENT_DISCONNECT);
	rec_expect(test, p.arec, 2, OIB_IW_CM_EVENT_CLOSE);
	/* Over on both sides: nothing left to disconnect. */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_disconnect(p.active));
}

/* Destroying a connected id closes the connection; the peer hears it. */
static void connect_destroy_connected(struct kunit *test)
{
	struct pair p;

	pair_setup(test, &p, false, 7174);
	pair_establish(test, &p);
	test_destroy(test, p.active);
	rec_expect(test, p.prec, 2, OIB_IW_CM_EVENT_DISCONNECT);
	rec_expect(test, p.prec, 3, OIB_IW_CM_EVENT_CLOSE);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.arec->n), 1);	/* the owner heard no more */
}

static void connect_reject_with_private_data(struct kunit *test)
{
	struct pair p;

	pair_setup(test, &p, false, 7174);
	KUNIT_ASSERT_EQ(test, 0, pair_connect(&p, "let me in", 1, 1));
	rec_expect(test, p.prec, 0, OIB_IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, side_release, p.lrec->child));
	KUNIT_EXPECT_EQ(test, 0, oib_iwcm_reject(p.lrec->child, "go away", 7));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_reject(p.lrec->child, NULL, 0));
	rec_expect(test, p.arec, 0, OIB_IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, p.arec->status[0], -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, p.arec->pdata_len, 7);
	KUNIT_EXPECT_EQ(test, 0, memcmp(p.arec->pdata, "go away", 7));
	/* Refused, the id may connect again; this time it is taken. */
	p.prec = rec_new(test);
	p.lrec->child_rec = p.prec;
	pair_establish(test, &p);
}

static void connect_no_listener(struct kunit *test)
{
	struct pair p;

	pair_setup(test, &p, false, 7000);	/* listening on another port */
	KUNIT_ASSERT_EQ(test, 0, pair_connect(&p, "anyone?", 1, 1));
	rec_expect(test, p.arec, 0, OIB_IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, p.arec->status[0], -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, p.arec->pdata_len, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.lrec->n), 0);
}

/* A CONNECT_REQUEST handler returning non-zero refuses the request; its id goes. */
static void connect_handler_refuses(struct kunit *test)
{
	struct pair p;

	pair_setup(test, &p, false, 7174);
	p.lrec->refuse = 1;
	KUNIT_ASSERT_EQ(test, 0, pair_connect(&p, NULL, 0, 0));
	rec_expect(test, p.arec, 0, OIB_IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, p.arec->status[0], -ECONNREFUSED);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.prec->n), 1);
}

/* The active side gives up before the answer: accept fails, the request id is the owner's. */
static void connect_destroy_while_connecting(struct kunit *test)
{
	struct oib_iw_cm_conn_param acc = {};
	struct pair p;

	pair_setup(test, &p, false, 7174);
	KUNIT_ASSERT_EQ(test, 0, pair_connect(&p, NULL, 0, 0));
	rec_expect(test, p.prec, 0, OIB_IW_CM_EVENT_CONNECT_REQUEST);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, side_release, p.lrec->child));
	test_destroy(test, p.active);
	KUNIT_EXPECT_EQ(test, atomic_read(&p.arec->n), 0);
	acc.qp = p.pqp;
	KUNIT_EXPECT_EQ(test, -ECONNRESET, oib_iwcm_accept(p.lrec->child, &acc));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_disconnect(p.lrec->child));
	KUNIT_EXPECT_EQ(test, oib_test_rnic_connections(p.dev), 0);
}

/* The listener goes: a later request finds nobody. */
static void connect_listener_gone(struct kunit *test)
{
	struct pair p;

	pair_setup(test, &p, false, 7174);
	test_destroy(test, p.listen);
	KUNIT_ASSERT_EQ(test, 0, pair_connect(&p, NULL, 0, 0));
	rec_expect(test, p.arec, 0, OIB_IW_CM_EVENT_CONNECT_REPLY);
	KUNIT_EXPECT_EQ(test, p.arec->status[0], -ECONNREFUSED);
}

/* The QP may go before the id once the connection has let go of it. */
static void connect_release_qp(struct kunit *test)
{
	struct pair p;

	pair_setup(test, &p, false, 7174);
	pair_establish(test, &p);
	oib_iwcm_release_qp(p.active);
	rec_expect(test, p.arec, 1, OIB_IW_CM_EVENT_CLOSE);
	rec_expect(test, p.prec, 3, OIB_IW_CM_EVENT_CLOSE);
}

static void calls_checked(struct kunit *test)
{
	struct oib_device *rxe = oib_test_rxe_ports(test, 1);
	struct oib_device *dev = oib_test_rnic(test);
	struct sockaddr_in a = v4(1, 7174), b = v4(2, 0);
	struct oib_iw_cm_conn_param param = {};
	u8 big[OIB_IW_CM_PRIVATE_DATA_SIZE + 1] = {};
	struct rec *r = rec_new(test);
	struct oib_iwcm_id *id, *other;

	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_iwcm_create_id(rxe, rec_handler, r)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_iwcm_create_id(dev, NULL, r)));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_iwcm_create_id(NULL, rec_handler, r)));
	id = test_id(test, dev, r);
	/* connect: a QP of this device, RC, private data within MPA's limit */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_connect(id, (void *)&b, (void *)&a, &param));
	param.qp = test_rc_qp(test, dev);
	param.private_data = big;
	param.private_data_len = sizeof(big);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_connect(id, (void *)&b, (void *)&a, &param));
	param.private_data_len = 4;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_connect(id, NULL, (void *)&a, &param));
	/* Nothing to answer or close on a new id. */
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_accept(id, &param));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_reject(id, NULL, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_disconnect(id));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_listen(id, NULL, 0));
	/* Listening once; the provider refuses a second listener on the same address. */
	KUNIT_EXPECT_EQ(test, 0, oib_iwcm_listen(id, (void *)&a, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_listen(id, (void *)&a, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_iwcm_connect(id, (void *)&b, (void *)&a, &param));
	other = test_id(test, dev, r);
	KUNIT_EXPECT_EQ(test, -EADDRINUSE, oib_iwcm_listen(other, (void *)&a, 0));
	/* The refused listen took its step back: the id may listen elsewhere. */
	KUNIT_EXPECT_EQ(test, 0, oib_iwcm_listen(other, (void *)&b, 0));
}

static struct kunit_case connect_test_cases[] = {
	KUNIT_CASE(connect_disconnect_active),
	KUNIT_CASE(connect_disconnect_passive),
	KUNIT_CASE(connect_destroy_connected),
	KUNIT_CASE(connect_reject_with_private_data),
	KUNIT_CASE(connect_no_listener),
	KUNIT_CASE(connect_handler_refuses),
	KUNIT_CASE(connect_destroy_while_connecting),
	KUNIT_CASE(connect_listener_gone),
	KUNIT_CASE(connect_release_qp),
	KUNIT_CASE(calls_checked),
	{}
};

static struct kunit_suite connect_test_suite = {
	.name = "oib_iwcm_connect",
	.test_cases = connect_test_cases,
};

kunit_test_suite(connect_test_suite);

MODULE_DESCRIPTION("KUnit: oib_iwcm connections over a test RNIC");
MODULE_LICENSE("GPL");
