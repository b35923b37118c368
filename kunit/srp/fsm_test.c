// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the SRP initiator connection's state table (drivers/infiniband/ulp/srp/
 * srp_fsm.c), against a second encoding written event by event: the first login's answer
 * wakes the waiter whatever it is; a live connection that goes holds its commands and is logged
 * in again until it is given up, when they fail; removal ends everything and absorbs what comes
 * late.
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
	/* The first login: its answer wakes add_target, whatever it is; a failure is final. */
	T(IDLE, CONNECT, CONNECTING, LOGIN),
	T(CONNECTING, STEP, CONNECTING, WAKE),
	T(CONNECTING, LOGGED_IN, LIVE, WAKE),
	T(CONNECTING, REFUSED, FAILED, WAKE),
	T(CONNECTING, GONE, FAILED, WAKE),
	/* A live connection going: commands held, the reconnect work started. */
	T(LIVE, GONE, DOWN, RECOVER),
	T(LIVE, REFUSED, DOWN, RECOVER),
	T(LIVE, GIVE_UP, LIVE, NOTHING),
	/* Down: the old connection's late news ignored; log in again or give up. */
	T(DOWN, STEP, DOWN, NOTHING),
	T(DOWN, LOGGED_IN, DOWN, NOTHING),
	T(DOWN, REFUSED, DOWN, NOTHING),
	T(DOWN, GONE, DOWN, NOTHING),
	T(DOWN, RETRY, RECONNECTING, LOGIN),
	T(DOWN, GIVE_UP, FAILED, RELEASE),
	/* A new login: its answer wakes the reconnect work. */
	T(RECONNECTING, STEP, RECONNECTING, WAKE),
	T(RECONNECTING, LOGGED_IN, LIVE, WAKE),
	T(RECONNECTING, REFUSED, DOWN, WAKE),
	T(RECONNECTING, GONE, DOWN, WAKE),
	T(RECONNECTING, GIVE_UP, FAILED, RELEASE),
	/* Failed: commands fail; nothing brings it back. */
	T(FAILED, STEP, FAILED, NOTHING),
	T(FAILED, LOGGED_IN, FAILED, NOTHING),
	T(FAILED, REFUSED, FAILED, NOTHING),
	T(FAILED, GONE, FAILED, NOTHING),
	T(FAILED, GIVE_UP, FAILED, NOTHING),
	/* Removal, and what comes after it. */
	T(IDLE, REMOVE, REMOVING, NOTHING),
	T(CONNECTING, REMOVE, REMOVING, WAKE),
	T(LIVE, REMOVE, REMOVING, NOTHING),
	T(DOWN, REMOVE, REMOVING, RELEASE),
	T(RECONNECTING, REMOVE, REMOVING, RELEASE),
	T(FAILED, REMOVE, REMOVING, NOTHING),
	T(REMOVING, STEP, REMOVING, NOTHING),
	T(REMOVING, LOGGED_IN, REMOVING, NOTHING),
	T(REMOVING, REFUSED, REMOVING, NOTHING),
	T(REMOVING, GONE, REMOVING, NOTHING),
	T(REMOVING, GIVE_UP, REMOVING, NOTHING),
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

/*
 * RECOVER (hold the commands, start the reconnect work) only from LIVE; only a login's state
 * reaches LIVE; RELEASE (let held commands fail) only where they are held.
 */
static void fsm_test_actions(struct kunit *test)
{
	struct srp_conn_step st;
	u8 s, e;

	for (s = 0; s < SRP_CONN_NSTATES; s++) {
		for (e = 0; e < SRP_CEV_NEVENTS; e++) {
			st = srp_conn_fsm_step(s, e);
			if (!st.valid)
				continue;
			if (st.action == SRP_DO_RECOVER)
				KUNIT_EXPECT_EQ(test, s, SRP_CONN_LIVE);
			if (st.action == SRP_DO_RELEASE)
				KUNIT_EXPECT_TRUE(test, s == SRP_CONN_DOWN ||
						  s == SRP_CONN_RECONNECTING);
			if (st.next == SRP_CONN_LIVE && s != SRP_CONN_LIVE)
				KUNIT_EXPECT_TRUE(test, s == SRP_CONN_CONNECTING ||
						  s == SRP_CONN_RECONNECTING);
		}
	}
}

static u8 fsm_walk(struct kunit *test, const u8 *events, int n, u8 *actions)
{
	struct srp_conn_step st;
	u8 s = SRP_CONN_IDLE;
	int i;

	for (i = 0; i < n; i++) {
		st = srp_conn_fsm_step(s, events[i]);
		KUNIT_EXPECT_EQ_MSG(test, st.valid, 1, "step %d", i);
		actions[i] = st.action;
		s = st.next;
	}
	return s;
}

/*
 * Lifetimes: lost twice and back twice, then away for good; a host reset under a login; a login
 * of two channels.
 */
static void fsm_test_lifetimes(struct kunit *test)
{
	static const u8 back[] = {
		SRP_CEV_CONNECT, SRP_CEV_STEP, SRP_CEV_STEP, SRP_CEV_LOGGED_IN,
		SRP_CEV_GONE, SRP_CEV_GONE, SRP_CEV_RETRY, SRP_CEV_REFUSED, SRP_CEV_RETRY,
		SRP_CEV_LOGGED_IN, SRP_CEV_GONE, SRP_CEV_RETRY, SRP_CEV_LOGGED_IN,
		SRP_CEV_REMOVE,
	};
	static const u8 back_do[] = {
		SRP_DO_LOGIN, SRP_DO_WAKE, SRP_DO_WAKE, SRP_DO_WAKE,
		SRP_DO_RECOVER, SRP_DO_NOTHING, SRP_DO_LOGIN, SRP_DO_WAKE, SRP_DO_LOGIN,
		SRP_DO_WAKE, SRP_DO_RECOVER, SRP_DO_LOGIN, SRP_DO_WAKE,
		SRP_DO_NOTHING,
	};
	static const u8 away[] = {
		SRP_CEV_CONNECT, SRP_CEV_LOGGED_IN, SRP_CEV_REFUSED, SRP_CEV_RETRY,
		SRP_CEV_GIVE_UP, SRP_CEV_LOGGED_IN, SRP_CEV_GONE, SRP_CEV_GIVE_UP,
		SRP_CEV_REMOVE, SRP_CEV_GONE,
	};
	static const u8 away_do[] = {
		SRP_DO_LOGIN, SRP_DO_WAKE, SRP_DO_RECOVER, SRP_DO_LOGIN,
		SRP_DO_RELEASE, SRP_DO_NOTHING, SRP_DO_NOTHING, SRP_DO_NOTHING,
		SRP_DO_NOTHING, SRP_DO_NOTHING,
	};
	/* Two channels: each one's address, route and login a STEP, but the last one's login. */
	static const u8 two[] = {
		SRP_CEV_CONNECT, SRP_CEV_STEP, SRP_CEV_STEP, SRP_CEV_STEP,
		SRP_CEV_STEP, SRP_CEV_STEP, SRP_CEV_LOGGED_IN,
	};
	static const u8 two_do[] = {
		SRP_DO_LOGIN, SRP_DO_WAKE, SRP_DO_WAKE, SRP_DO_WAKE,
		SRP_DO_WAKE, SRP_DO_WAKE, SRP_DO_WAKE,
	};
	u8 got[ARRAY_SIZE(back)];

	KUNIT_EXPECT_EQ(test, fsm_walk(test, back, ARRAY_SIZE(back), got), SRP_CONN_REMOVING);
	KUNIT_EXPECT_MEMEQ(test, got, back_do, sizeof(back_do));
	KUNIT_EXPECT_EQ(test, fsm_walk(test, away, ARRAY_SIZE(away), got), SRP_CONN_REMOVING);
	KUNIT_EXPECT_MEMEQ(test, got, away_do, sizeof(away_do));
	KUNIT_EXPECT_EQ(test, fsm_walk(test, two, ARRAY_SIZE(two), got), SRP_CONN_LIVE);
	KUNIT_EXPECT_MEMEQ(test, got, two_do, sizeof(two_do));
	/* The first login is never retried: its failure is final. */
	KUNIT_EXPECT_EQ(test, srp_conn_fsm_step(SRP_CONN_FAILED, SRP_CEV_RETRY).valid, 0);
	KUNIT_EXPECT_EQ(test, srp_conn_fsm_step(SRP_CONN_FAILED, SRP_CEV_CONNECT).valid, 0);
}

static struct kunit_case fsm_test_cases[] = {
	KUNIT_CASE(fsm_test_table),
	KUNIT_CASE(fsm_test_actions),
	KUNIT_CASE(fsm_test_lifetimes),
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
