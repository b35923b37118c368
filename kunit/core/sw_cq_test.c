// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software providers' CQ (struct oib_sw_cq, core/sw_cq.c), alone, on a CQ of its own: the
 * capacity it grants, completions polled in order with their QP number and solicited flag, a full
 * CQ that overflows into CQ_ERR once and stays in error, arming (NEXT_COMP, SOLICITED, no
 * downgrade, missed events), a producer racing the consumer through a small ring, and a destroy
 * with a handler call queued.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/workqueue.h>
#include <oib/sw.h>
#include "oib_toolkit.h"

#define SWCQ_RACE_N	20000

struct swcq {
	struct oib_sw_cq cq;
	struct oib_qp qp;		/* only its number is read */
	atomic_t comps, events;
	bool destroyed;
};

static void swcq_comp(struct oib_cq *cq, void *ctx)
{
	atomic_inc(&((struct swcq *)ctx)->comps);
}

static void swcq_event(struct oib_event *ev, void *ctx)
{
	struct swcq *t = ctx;

	if (ev->event == OIB_EVENT_CQ_ERR && ev->element.cq == &t->cq.ib)
		atomic_inc(&t->events);
}

static void swcq_release(void *p)
{
	struct swcq *t = p;

	if (!t->destroyed)
		oib_sw_destroy_cq(&t->cq.ib);
}

static struct swcq *swcq_new(struct kunit *test, u32 cqe)
{
	struct oib_cq_init_attr attr = { .cqe = cqe };
	struct swcq *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->cq.ib.comp_handler = swcq_comp;
	t->cq.ib.event_handler = swcq_event;
	t->cq.ib.cq_context = t;
	t->qp.qp_num = 0x1234;
	KUNIT_ASSERT_EQ(test, 0, oib_sw_cq_init(&t->cq, &attr, system_wq, WORK_CPU_UNBOUND));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, swcq_release, t));
	return t;
}

static void swcq_post(struct swcq *t, u64 wr_id, enum oib_wc_status status, bool solicited)
{
	struct oib_wc wc = { .wr_id = wr_id, .status = status, .qp = &t->qp,
			     .opcode = OIB_WC_RECV };

	oib_sw_cq_post(&t->cq, &wc, solicited);
}

static void swcq_test_capacity(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, swcq_new(test, 0)->cq.ib.cqe, 1u);
	KUNIT_EXPECT_EQ(test, swcq_new(test, 1)->cq.ib.cqe, 1u);
	KUNIT_EXPECT_EQ(test, swcq_new(test, 5)->cq.ib.cqe, 8u);
	KUNIT_EXPECT_EQ(test, swcq_new(test, 64)->cq.ib.cqe, 64u);
}

static void swcq_test_order(struct kunit *test)
{
	struct swcq *t = swcq_new(test, 16);
	struct oib_wc wc[16];
	int i, round;

	/* three rounds: the free-running indices go round the ring */
	for (round = 0; round < 3; round++) {
		for (i = 0; i < 10; i++)
			swcq_post(t, round * 100 + i, OIB_WC_SUCCESS, i == 3);
		KUNIT_ASSERT_EQ(test, oib_sw_poll_cq(&t->cq.ib, 4, wc), 4);
		KUNIT_ASSERT_EQ(test, oib_sw_poll_cq(&t->cq.ib, 16, wc + 4), 6);
		for (i = 0; i < 10; i++) {
			KUNIT_EXPECT_EQ(test, wc[i].wr_id, (u64)(round * 100 + i));
			KUNIT_EXPECT_EQ(test, wc[i].qp_num, 0x1234u);
			KUNIT_EXPECT_EQ(test, !!(wc[i].wc_flags & OIB_WC_SOLICITED), i == 3);
		}
	}
	KUNIT_EXPECT_EQ(test, oib_sw_poll_cq(&t->cq.ib, 16, wc), 0);
	KUNIT_EXPECT_EQ(test, oib_sw_poll_cq(&t->cq.ib, 0, wc), 0);
	/* no QP: number 0 */
	oib_sw_cq_post(&t->cq, &(struct oib_wc){ .wr_id = 7 }, false);
	KUNIT_ASSERT_EQ(test, oib_sw_poll_cq(&t->cq.ib, 1, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].qp_num, 0u);
	oib_sw_cq_flush(&t->cq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->comps), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->events), 0);
}

static void swcq_test_overflow(struct kunit *test)
{
	struct swcq *t = swcq_new(test, 8);
	struct oib_wc wc[9];
	int i;

	KUNIT_EXPECT_EQ(test, oib_sw_req_notify_cq(&t->cq.ib, OIB_CQ_NEXT_COMP), 0);
	for (i = 0; i < 8; i++)
		swcq_post(t, i, OIB_WC_SUCCESS, false);
	oib_sw_cq_flush(&t->cq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->comps), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->events), 0);

	/* the ninth is lost: CQ_ERR, once */
	swcq_post(t, 8, OIB_WC_SUCCESS, false);
	oib_sw_cq_flush(&t->cq);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->events), 1);

	/* in error for good: room again, but what comes is lost silently, armed or not */
	KUNIT_ASSERT_EQ(test, oib_sw_poll_cq(&t->cq.ib, 9, wc), 8);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, (u64)i);
	oib_sw_req_notify_cq(&t->cq.ib, OIB_CQ_NEXT_COMP);
	for (i = 0; i < 3; i++)
		swcq_post(t, 100 + i, OIB_WC_SUCCESS, true);
	oib_sw_cq_flush(&t->cq);
	KUNIT_EXPECT_EQ(test, oib_sw_poll_cq(&t->cq.ib, 9, wc), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->events), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->comps), 1);
}

/* Post one completion and wait for what it queued; whether the handler was called. */
static bool swcq_woke(struct swcq *t, enum oib_wc_status status, bool solicited)
{
	int before = atomic_read(&t->comps);
	struct oib_wc wc;

	swcq_post(t, 0, status, solicited);
	oib_sw_cq_flush(&t->cq);
	oib_sw_poll_cq(&t->cq.ib, 1, &wc);
	return atomic_read(&t->comps) != before;
}

static void swcq_test_arm(struct kunit *test)
{
	struct swcq *t = swcq_new(test, 4);
	struct oib_wc wc;

	KUNIT_EXPECT_FALSE(test, swcq_woke(t, OIB_WC_SUCCESS, true));	/* not armed */

	oib_sw_req_notify_cq(&t->cq.ib, OIB_CQ_NEXT_COMP);
	KUNIT_EXPECT_TRUE(test, swcq_woke(t, OIB_WC_SUCCESS, false));
	KUNIT_EXPECT_FALSE(test, swcq_woke(t, OIB_WC_SUCCESS, false));	/* disarmed by it */

	oib_sw_req_notify_cq(&t->cq.ib, OIB_CQ_SOLICITED);
	KUNIT_EXPECT_FALSE(test, swcq_woke(t, OIB_WC_SUCCESS, false));
	KUNIT_EXPECT_TRUE(test, swcq_woke(t, OIB_WC_SUCCESS, true));
	oib_sw_req_notify_cq(&t->cq.ib, OIB_CQ_SOLICITED);
	KUNIT_EXPECT_TRUE(test, swcq_woke(t, OIB_WC_REM_ACCESS_ERR, false));	/* errors wake */

	/* SOLICITED after NEXT_COMP leaves NEXT_COMP */
	oib_sw_req_notify_cq(&t->cq.ib, OIB_CQ_NEXT_COMP);
	oib_sw_req_notify_cq(&t->cq.ib, OIB_CQ_SOLICITED);
	KUNIT_EXPECT_TRUE(test, swcq_woke(t, OIB_WC_SUCCESS, false));

	/* missed events: 1 while completions wait, armed all the same */
	swcq_post(t, 1, OIB_WC_SUCCESS, false);
	KUNIT_EXPECT_EQ(test, oib_sw_req_notify_cq(&t->cq.ib, OIB_CQ_NEXT_COMP |
						   OIB_CQ_REPORT_MISSED_EVENTS), 1);
	KUNIT_EXPECT_EQ(test, oib_sw_poll_cq(&t->cq.ib, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, oib_sw_req_notify_cq(&t->cq.ib, OIB_CQ_NEXT_COMP |
						   OIB_CQ_REPORT_MISSED_EVENTS), 0);
	KUNIT_EXPECT_TRUE(test, swcq_woke(t, OIB_WC_SUCCESS, false));
	KUNIT_EXPECT_EQ(test, atomic_read(&t->events), 0);
}

/* A producer on a work item posts while the ring has room by what the consumer polled. */
struct swcq_race {
	struct swcq *t;
	struct work_struct work;
	atomic_t polled;
};

static void swcq_produce(struct work_struct *work)
{
	struct swcq_race *r = container_of(work, struct swcq_race, work);
	u32 cap = r->t->cq.ib.cqe;
	u32 i = 0;

	while (i < SWCQ_RACE_N) {
		if (i - (u32)atomic_read(&r->polled) < cap) {
			swcq_post(r->t, i, OIB_WC_SUCCESS, !(i % 7));
			i++;
		} else {
			cond_resched();
		}
	}
}

static void swcq_test_race(struct kunit *test)
{
	struct swcq_race r = { .t = swcq_new(test, 16) };
	unsigned long deadline = jiffies + msecs_to_jiffies(OIB_TEST_WAIT_MS);
	struct oib_wc wc[5];
	u32 got = 0, bad = 0;
	int i, n;

	INIT_WORK_ONSTACK(&r.work, swcq_produce);
	queue_work(system_unbound_wq, &r.work);
	while (got < SWCQ_RACE_N && time_before(jiffies, deadline)) {
		oib_sw_req_notify_cq(&r.t->cq.ib, OIB_CQ_NEXT_COMP);
		n = oib_sw_poll_cq(&r.t->cq.ib, ARRAY_SIZE(wc), wc);
		for (i = 0; i < n; i++)
			bad += wc[i].wr_id != got + i;
		got += n;
		atomic_add(n, &r.polled);
		if (!n)
			cond_resched();
	}
	if (got < SWCQ_RACE_N)
		atomic_set(&r.polled, SWCQ_RACE_N);	/* let the producer end */
	flush_work(&r.work);
	destroy_work_on_stack(&r.work);
	oib_sw_cq_flush(&r.t->cq);
	KUNIT_EXPECT_EQ(test, got, SWCQ_RACE_N);
	KUNIT_EXPECT_EQ(test, bad, 0u);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.t->events), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&r.t->comps), 0);
}

/* Destroy with a handler call queued: none runs after it, nothing is left behind. */
static void swcq_test_destroy_pending(struct kunit *test)
{
	struct swcq *t = swcq_new(test, 2);

	oib_sw_req_notify_cq(&t->cq.ib, OIB_CQ_NEXT_COMP);
	swcq_post(t, 0, OIB_WC_SUCCESS, false);
	swcq_post(t, 1, OIB_WC_SUCCESS, false);
	swcq_post(t, 2, OIB_WC_SUCCESS, false);		/* overflow: CQ_ERR queued too */
	oib_sw_destroy_cq(&t->cq.ib);
	t->destroyed = true;
	KUNIT_EXPECT_LE(test, atomic_read(&t->comps), 1);
	KUNIT_EXPECT_LE(test, atomic_read(&t->events), 1);
}

static struct kunit_case swcq_test_cases[] = {
	KUNIT_CASE(swcq_test_capacity),
	KUNIT_CASE(swcq_test_order),
	KUNIT_CASE(swcq_test_overflow),
	KUNIT_CASE(swcq_test_arm),
	KUNIT_CASE(swcq_test_race),
	KUNIT_CASE(swcq_test_destroy_pending),
	{}
};

static struct kunit_suite swcq_test_suite = {
	.name = "oib_core_sw_cq",
	.test_cases = swcq_test_cases,
};

kunit_test_suite(swcq_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the software providers' CQ");
