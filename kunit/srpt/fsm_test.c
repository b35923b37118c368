// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the SRP target channel's state table (drivers/infiniband/ulp/srpt/srpt_fsm.c).
 *
 * fsm_spec[] is a second encoding, written event by event from the channel's story (a login is
 * accepted or refused; commands are served from the accept on, before ESTABLISHED too; logout,
 * errors, the CM, the device and the target all end it in the release work; after that
 * everything is late and ignored).  Every tuple must be in the table, every pair not listed
 * refused; then lifetimes are walked.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <oib/kunit/srpt.h>

#define T(from, ev, to, act) \
	{ SRPT_CH_##from, SRPT_EV_##ev, SRPT_CH_##to, SRPT_ACT_##act }

struct fsm_tuple {
	u8 from, event, to, action;
};

static const struct fsm_tuple fsm_spec[] = {
	/* The login. */
	T(NEW, LOGIN_OK, CONNECTING, ACCEPT),
	T(NEW, LOGIN_BAD, RELEASING, REJECT),
	/* ESTABLISHED. */
	T(CONNECTING, ESTABLISHED, LIVE, IGNORE),
	T(RELEASING, ESTABLISHED, RELEASING, IGNORE),
	/* Commands: from the accept on. */
	T(CONNECTING, IU, CONNECTING, SERVE),
	T(LIVE, IU, LIVE, SERVE),
	T(RELEASING, IU, RELEASING, IGNORE),
	/* Logout. */
	T(CONNECTING, LOGOUT, RELEASING, RELEASE),
	T(LIVE, LOGOUT, RELEASING, RELEASE),
	T(RELEASING, LOGOUT, RELEASING, IGNORE),
	/* QP errors. */
	T(CONNECTING, QP_ERROR, RELEASING, RELEASE),
	T(LIVE, QP_ERROR, RELEASING, RELEASE),
	T(RELEASING, QP_ERROR, RELEASING, IGNORE),
	/* The CM's end of the connection. */
	T(CONNECTING, CM_GONE, RELEASING, RELEASE),
	T(LIVE, CM_GONE, RELEASING, RELEASE),
	T(RELEASING, CM_GONE, RELEASING, IGNORE),
	/* The device. */
	T(CONNECTING, DEVICE_REMOVAL, RELEASING, RELEASE),
	T(LIVE, DEVICE_REMOVAL, RELEASING, RELEASE),
	T(RELEASING, DEVICE_REMOVAL, RELEASING, IGNORE),
	/* The target. */
	T(CONNECTING, STOP, RELEASING, RELEASE),
	T(LIVE, STOP, RELEASING, LOGOUT),
	T(RELEASING, STOP, RELEASING, IGNORE),
};

static const struct fsm_tuple *fsm_spec_find(u8 from, u8 event)
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
	struct srpt_ch_step st;
	u8 s, e;

	for (s = 0; s < SRPT_CH_NSTATES; s++) {
		for (e = 0; e < SRPT_EV_NEVENTS; e++) {
			st = srpt_ch_fsm_step(s, e);
			want = fsm_spec_find(s, e);
			KUNIT_EXPECT_EQ_MSG(test, st.valid, want ? 1 : 0, "state %s event %u",
					    srpt_ch_state_name(s), e);
			if (!want || !st.valid)
				continue;
			KUNIT_EXPECT_EQ_MSG(test, st.next, want->to, "state %s event %u",
					    srpt_ch_state_name(s), e);
			KUNIT_EXPECT_EQ_MSG(test, st.action, want->action, "state %s event %u",
					    srpt_ch_state_name(s), e);
		}
	}
}

static void fsm_test_range(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, srpt_ch_fsm_step(SRPT_CH_NSTATES, SRPT_EV_IU).valid, 0);
	KUNIT_EXPECT_EQ(test, srpt_ch_fsm_step(SRPT_CH_LIVE, SRPT_EV_NEVENTS).valid, 0);
	KUNIT_EXPECT_STREQ(test, srpt_ch_state_name(SRPT_CH_LIVE), "LIVE");
	KUNIT_EXPECT_STREQ(test, srpt_ch_state_name(SRPT_CH_NSTATES), "?");
}

/* Walk @n events from NEW; the state reached, or -1 at a refused step. */
static int fsm_walk(const u8 *ev, int n, u8 *last_action)
{
	struct srpt_ch_step st;
	u8 s = SRPT_CH_NEW;
	int i;

	for (i = 0; i < n; i++) {
		st = srpt_ch_fsm_step(s, ev[i]);
		if (!st.valid)
			return -1;
		s = st.next;
		*last_action = st.action;
	}
	return s;
}

static void fsm_test_lifetimes(struct kunit *test)
{
	static const u8 served[] = { SRPT_EV_LOGIN_OK, SRPT_EV_IU, SRPT_EV_ESTABLISHED,
				     SRPT_EV_IU, SRPT_EV_LOGOUT, SRPT_EV_CM_GONE, SRPT_EV_IU };
	static const u8 refused[] = { SRPT_EV_LOGIN_BAD };
	static const u8 early_iu[] = { SRPT_EV_IU };
	static const u8 twice[] = { SRPT_EV_LOGIN_OK, SRPT_EV_ESTABLISHED,
				    SRPT_EV_ESTABLISHED };
	static const u8 stopped[] = { SRPT_EV_LOGIN_OK, SRPT_EV_ESTABLISHED, SRPT_EV_STOP,
				      SRPT_EV_CM_GONE };
	static const u8 stopped_early[] = { SRPT_EV_LOGIN_OK, SRPT_EV_STOP };
	u8 act = SRPT_ACT_IGNORE;

	KUNIT_EXPECT_EQ(test, fsm_walk(served, ARRAY_SIZE(served), &act), SRPT_CH_RELEASING);
	KUNIT_EXPECT_EQ(test, act, SRPT_ACT_IGNORE);
	KUNIT_EXPECT_EQ(test, fsm_walk(served, 2, &act), SRPT_CH_CONNECTING);
	KUNIT_EXPECT_EQ(test, act, SRPT_ACT_SERVE);
	KUNIT_EXPECT_EQ(test, fsm_walk(served, 5, &act), SRPT_CH_RELEASING);
	KUNIT_EXPECT_EQ(test, act, SRPT_ACT_RELEASE);
	KUNIT_EXPECT_EQ(test, fsm_walk(refused, 1, &act), SRPT_CH_RELEASING);
	KUNIT_EXPECT_EQ(test, act, SRPT_ACT_REJECT);
	KUNIT_EXPECT_EQ(test, fsm_walk(early_iu, 1, &act), -1);
	KUNIT_EXPECT_EQ(test, fsm_walk(twice, 3, &act), -1);
	KUNIT_EXPECT_EQ(test, fsm_walk(stopped, 3, &act), SRPT_CH_RELEASING);
	KUNIT_EXPECT_EQ(test, act, SRPT_ACT_LOGOUT);
	KUNIT_EXPECT_EQ(test, fsm_walk(stopped, 4, &act), SRPT_CH_RELEASING);
	KUNIT_EXPECT_EQ(test, act, SRPT_ACT_IGNORE);
	KUNIT_EXPECT_EQ(test, fsm_walk(stopped_early, 2, &act), SRPT_CH_RELEASING);
	KUNIT_EXPECT_EQ(test, act, SRPT_ACT_RELEASE);	/* not established: no T_LOGOUT */
}

/* RELEASE (or LOGOUT) is the action of exactly one step per lifetime: nothing leaves RELEASING. */
static void fsm_test_release_once(struct kunit *test)
{
	struct srpt_ch_step st;
	u8 e;

	for (e = 0; e < SRPT_EV_NEVENTS; e++) {
		st = srpt_ch_fsm_step(SRPT_CH_RELEASING, e);
		if (!st.valid)
			continue;
		KUNIT_EXPECT_EQ(test, st.next, SRPT_CH_RELEASING);
		KUNIT_EXPECT_EQ(test, st.action, SRPT_ACT_IGNORE);
	}
}

static struct kunit_case fsm_test_cases[] = {
	KUNIT_CASE(fsm_test_table),
	KUNIT_CASE(fsm_test_range),
	KUNIT_CASE(fsm_test_lifetimes),
	KUNIT_CASE(fsm_test_release_once),
	{}
};

static struct kunit_suite fsm_test_suite = {
	.name = "oib_srpt_fsm",
	.test_cases = fsm_test_cases,
};

kunit_test_suite(fsm_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the oib_srpt channel state table");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
