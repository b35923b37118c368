// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the SRP initiator connection's state table (drivers/infiniband/ulp/srp/
 * srp_fsm.c), against a second encoding written event by event: the login starts once, its
 * answer wakes the waiter whatever it is, a live connection that goes fails its commands once,
 * removal ends everything and absorbs what comes late.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <oib/kunit/srp.h>

#define T(from, ev, to, act) \
	{ SRP_CONN_##from, SRP_CEV_##ev, SRP_CONN_##to, SRP_DO_##act }

struct fsm_tuple {
	u8 from, event, to, action;
};

static const struct fsm_tuple fsm_spec[] = {
	/* The login. */
	T(IDLE, CONNECT, CONNECTING, LOGIN),
	T(CONNECTING, LOGGED_IN, LIVE, WAKE),
	T(CONNECTING, REFUSED, LOST, WAKE),
	T(CONNECTING, GONE, LOST, WAKE),
	/* The connection going. */
	T(LIVE, GONE, LOST, FAIL),
	T(LIVE, REFUSED, LOST, FAIL),
	T(LOST, GONE, LOST, NOTHING),
	T(LOST, REFUSED, LOST, NOTHING),
	/* Removal, and what comes after it. */
	T(IDLE, REMOVE, REMOVING, NOTHING),
	T(CONNECTING, REMOVE, REMOVING, WAKE),
	T(LIVE, REMOVE, REMOVING, NOTHING),
	T(LOST, REMOVE, REMOVING, NOTHING),
	T(REMOVING, LOGGED_IN, REMOVING, NOTHING),
	T(REMOVING, REFUSED, REMOVING, NOTHING),
	T(REMOVING, GONE, REMOVING, NOTHING),
};

static const struct fsm_tuple *fsm_find(u8 from, u8 event)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(fsm_spec); i++)
		if (fsm_spec[i].from == from && fsm_spec[i].event == event)
			return &fsm_spec[i];
	return NULL;
}

static void fsm_test_table(struct kunit *test)
{
	const struct fsm_tuple *want;
	struct srp_conn_step st;
	u8 s, e;

	for (s = 0; s < SRP_CONN_NSTATES; s++) {
		for (e = 0; e < SRP_CEV_NEVENTS; e++) {
			st = srp_conn_fsm_step(s, e);
			want = fsm_find(s, e);
			KUNIT_EXPECT_EQ_MSG(test, st.valid, want ? 1 : 0, "state %u ev %u", s, e);
			if (!want || !st.valid)
				continue;
			KUNIT_EXPECT_EQ_MSG(test, st.next, want->to, "state %u ev %u", s, e);
			KUNIT_EXPECT_EQ_MSG(test, st.action, want->action, "state %u ev %u", s, e);
		}
	}
	KUNIT_EXPECT_EQ(test, srp_conn_fsm_step(SRP_CONN_NSTATES, 0).valid, 0);
	KUNIT_EXPECT_EQ(test, srp_conn_fsm_step(0, SRP_CEV_NEVENTS).valid, 0);
}

/* FAIL (the lost work) is the action of one step per lifetime at most: only LIVE has it. */
static void fsm_test_fail_once(struct kunit *test)
{
	struct srp_conn_step st;
	u8 s, e;

	for (s = 0; s < SRP_CONN_NSTATES; s++) {
		for (e = 0; e < SRP_CEV_NEVENTS; e++) {
			st = srp_conn_fsm_step(s, e);
			if (st.valid && st.action == SRP_DO_FAIL) {
				KUNIT_EXPECT_EQ(test, s, SRP_CONN_LIVE);
				KUNIT_EXPECT_NE(test, st.next, SRP_CONN_LIVE);
			}
		}
	}
	for (e = 0; e < SRP_CEV_NEVENTS; e++) {
		st = srp_conn_fsm_step(SRP_CONN_LIVE, e);
		KUNIT_EXPECT_NE(test, st.next, SRP_CONN_CONNECTING);
	}
}

static struct kunit_case fsm_test_cases[] = {
	KUNIT_CASE(fsm_test_table),
	KUNIT_CASE(fsm_test_fail_once),
	{}
};

static struct kunit_suite fsm_test_suite = {
	.name = "oib_srp_fsm",
	.test_cases = fsm_test_cases,
};

kunit_test_suite(fsm_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the oib_srp connection state table");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
