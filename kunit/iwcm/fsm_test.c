// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the iWARP CM id's state table (drivers/infiniband/iwcm/iwcm_fsm.c).
 *
 * fsm_spec[] is a second, independent encoding: (from, event, to, what the owner hears) tuples
 * written event by event from the provider contract (include/oib/iw_cm.h) and the owner's calls
 * (include/oib/iwcm.h), where the table is written state by state.  Every tuple must be in the
 * table and every pair not listed must be refused.  Then lifetimes are walked through it.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <oib/iwcm.h>
#include <oib/kunit/iwcm_fsm.h>

#define T(from, ev, to, hears)	{ IWCM_##from, IWCM_EV_##ev, IWCM_##to, OIB_IW_CM_EVENT_##hears }
#define OIB_IW_CM_EVENT_NONE	IWCM_NO_EVENT
#define NONE_			IWCM_NO_EVENT

struct fsm_tuple {
	u8 from, event, to, hears;
};

static const struct fsm_tuple fsm_spec[] = {
	/* listen */
	T(IDLE, LISTEN, LISTEN, NONE),
	/* connect */
	T(IDLE, CONNECT, CONN_SENT, NONE),
	/* accept: ESTABLISHED or CLOSE comes later */
	T(CONN_RECV, ACCEPT, CONN_RECV, NONE),
	/* reject */
	T(CONN_RECV, REJECT, IDLE, NONE),
	/* disconnect: wherever a connection is (or is being accepted) */
	T(CONN_RECV, DISCONNECT, CLOSING, NONE),
	T(ESTABLISHED, DISCONNECT, CLOSING, NONE),
	T(CLOSING, DISCONNECT, CLOSING, NONE),
	/* a listener's request, on its new id */
	T(IDLE, CONNECT_REQUEST, CONN_RECV, CONNECT_REQUEST),
	/* the reply to our connect */
	T(CONN_SENT, CONNECT_REPLY_OK, ESTABLISHED, CONNECT_REPLY),
	T(CONN_SENT, CONNECT_REPLY_ERR, IDLE, CONNECT_REPLY),
	/* the accepted connection is up */
	T(CONN_RECV, ESTABLISHED, ESTABLISHED, ESTABLISHED),
	/* the peer closed */
	T(ESTABLISHED, DISCONNECT_IN, CLOSING, DISCONNECT),
	T(CLOSING, DISCONNECT_IN, CLOSING, NONE),
	/* the connection is gone */
	T(CONN_RECV, CLOSE, IDLE, CLOSE),
	T(ESTABLISHED, CLOSE, IDLE, CLOSE),
	T(CLOSING, CLOSE, IDLE, CLOSE),
};

static bool fsm_spec_find(u8 from, u8 event, struct iwcm_step *st)
{
	size_t i;

	if (event == IWCM_EV_DESTROY && from != IWCM_DESTROYING) {
		*st = (struct iwcm_step){ 1, IWCM_DESTROYING, IWCM_NO_EVENT };
		return true;
	}
	for (i = 0; i < ARRAY_SIZE(fsm_spec); i++) {
		if (fsm_spec[i].from == from && fsm_spec[i].event == event) {
			*st = (struct iwcm_step){ 1, fsm_spec[i].to, fsm_spec[i].hears };
			return true;
		}
	}
	return false;
}

static void fsm_test_table(struct kunit *test)
{
	struct iwcm_step want, got;
	int s, e;

	for (s = 0; s < IWCM_NSTATES; s++) {
		for (e = 0; e < IWCM_NEVENTS; e++) {
			got = iwcm_fsm_step(s, e);
			if (!fsm_spec_find(s, e, &want)) {
				KUNIT_EXPECT_FALSE_MSG(test, got.valid, "%s + %s should be refused",
						       iwcm_state_name(s), iwcm_event_name(e));
				continue;
			}
			KUNIT_EXPECT_TRUE_MSG(test, got.valid, "%s + %s missing",
					      iwcm_state_name(s), iwcm_event_name(e));
			KUNIT_EXPECT_EQ_MSG(test, got.next, want.next, "%s + %s",
					    iwcm_state_name(s), iwcm_event_name(e));
			KUNIT_EXPECT_EQ_MSG(test, got.deliver, want.deliver, "%s + %s",
					    iwcm_state_name(s), iwcm_event_name(e));
		}
	}
}

static void fsm_test_names_and_range(struct kunit *test)
{
	int i;

	for (i = 0; i < IWCM_NSTATES; i++)
		KUNIT_EXPECT_STRNEQ(test, iwcm_state_name(i), "?");
	for (i = 0; i < IWCM_NEVENTS; i++)
		KUNIT_EXPECT_STRNEQ(test, iwcm_event_name(i), "?");
	for (i = 0; i < OIB_IW_CM_NEVENTS; i++)
		KUNIT_EXPECT_STRNEQ(test, oib_iwcm_event_msg(i), "?");
	KUNIT_EXPECT_STREQ(test, iwcm_state_name(IWCM_NSTATES), "?");
	KUNIT_EXPECT_FALSE(test, iwcm_fsm_step(IWCM_NSTATES, IWCM_EV_DESTROY).valid);
	KUNIT_EXPECT_FALSE(test, iwcm_fsm_step(IWCM_IDLE, IWCM_NEVENTS).valid);
}

static enum iwcm_state fsm_walk(struct kunit *test, enum iwcm_state state, const u8 *events,
				int n, const u8 *hears)
{
	int i;

	for (i = 0; i < n; i++) {
		struct iwcm_step st = iwcm_fsm_step(state, events[i]);

		KUNIT_ASSERT_TRUE_MSG(test, st.valid, "%s + %s", iwcm_state_name(state),
				      iwcm_event_name(events[i]));
		KUNIT_EXPECT_EQ(test, st.deliver, hears[i]);
		state = st.next;
	}
	return state;
}

static void fsm_test_lifetimes(struct kunit *test)
{
	static const u8 active[] = { IWCM_EV_CONNECT, IWCM_EV_CONNECT_REPLY_OK,
		IWCM_EV_DISCONNECT, IWCM_EV_CLOSE, IWCM_EV_DESTROY };
	static const u8 active_hears[] = { NONE_, OIB_IW_CM_EVENT_CONNECT_REPLY, NONE_,
		OIB_IW_CM_EVENT_CLOSE, NONE_ };
	static const u8 passive[] = { IWCM_EV_CONNECT_REQUEST, IWCM_EV_ACCEPT,
		IWCM_EV_ESTABLISHED, IWCM_EV_DISCONNECT_IN, IWCM_EV_DISCONNECT, IWCM_EV_CLOSE,
		IWCM_EV_DESTROY };
	static const u8 passive_hears[] = { OIB_IW_CM_EVENT_CONNECT_REQUEST, NONE_,
		OIB_IW_CM_EVENT_ESTABLISHED, OIB_IW_CM_EVENT_DISCONNECT, NONE_,
		OIB_IW_CM_EVENT_CLOSE, NONE_ };
	static const u8 refused[] = { IWCM_EV_CONNECT, IWCM_EV_CONNECT_REPLY_ERR,
		IWCM_EV_CONNECT, IWCM_EV_CONNECT_REPLY_OK };
	static const u8 refused_hears[] = { NONE_, OIB_IW_CM_EVENT_CONNECT_REPLY, NONE_,
		OIB_IW_CM_EVENT_CONNECT_REPLY };

	KUNIT_EXPECT_EQ(test, fsm_walk(test, IWCM_IDLE, active, ARRAY_SIZE(active),
				       active_hears), IWCM_DESTROYING);
	KUNIT_EXPECT_EQ(test, fsm_walk(test, IWCM_IDLE, passive, ARRAY_SIZE(passive),
				       passive_hears), IWCM_DESTROYING);
	/* A refused connect leaves the id ready to connect again. */
	KUNIT_EXPECT_EQ(test, fsm_walk(test, IWCM_IDLE, refused, ARRAY_SIZE(refused),
				       refused_hears), IWCM_ESTABLISHED);
}

/* Nothing leaves DESTROYING, and a listener only stops. */
static void fsm_test_terminal(struct kunit *test)
{
	int e;

	for (e = 0; e < IWCM_NEVENTS; e++) {
		KUNIT_EXPECT_FALSE(test, iwcm_fsm_step(IWCM_DESTROYING, e).valid);
		KUNIT_EXPECT_EQ(test, iwcm_fsm_step(IWCM_LISTEN, e).valid, e == IWCM_EV_DESTROY);
	}
}

static struct kunit_case fsm_test_cases[] = {
	KUNIT_CASE(fsm_test_table),
	KUNIT_CASE(fsm_test_names_and_range),
	KUNIT_CASE(fsm_test_lifetimes),
	KUNIT_CASE(fsm_test_terminal),
	{}
};

static struct kunit_suite fsm_test_suite = {
	.name = "oib_iwcm_fsm",
	.test_cases = fsm_test_cases,
};

kunit_test_suite(fsm_test_suite);

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_DESCRIPTION("KUnit: oib_iwcm state table");
MODULE_LICENSE("GPL");
