// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the RDMA CM id's state table (drivers/infiniband/cma/cma_fsm.c).
 *
 * fsm_spec[] is a second, independent encoding: (from, event, to, what the owner hears) tuples
 * written event by event from the rdma_cm's documented behaviour, where the table is written state
 * by state.  Every tuple must be in the table and every pair not listed must be refused.  Then
 * lifetimes are walked through the table.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <oib/kunit/cma_fsm.h>

#define T(from, ev, to, hears)	{ CMA_##from, CMA_EV_##ev, CMA_##to, OIB_CMA_EVENT_##hears }
#define NONE_	CMA_NO_EVENT
#define OIB_CMA_EVENT_NONE	CMA_NO_EVENT

struct fsm_tuple {
	u8 from, event, to, hears;
};

static const struct fsm_tuple fsm_spec[] = {
	/* Addresses. */
	T(IDLE, BIND, ADDR_BOUND, NONE),
	T(IDLE, RESOLVE_ADDR, ADDR_QUERY, NONE),
	T(ADDR_BOUND, RESOLVE_ADDR, ADDR_QUERY, NONE),
	T(ADDR_RESOLVED, RESOLVE_ADDR, ADDR_QUERY, NONE),
	T(ADDR_QUERY, ADDR_OK, ADDR_RESOLVED, ADDR_RESOLVED),
	T(ADDR_QUERY, ADDR_ERR, ADDR_BOUND, ADDR_ERROR),
	T(ADDR_RESOLVED, RESOLVE_ROUTE, ROUTE_QUERY, NONE),
	T(ROUTE_RESOLVED, RESOLVE_ROUTE, ROUTE_QUERY, NONE),
	T(ROUTE_QUERY, ROUTE_OK, ROUTE_RESOLVED, ROUTE_RESOLVED),
	T(ROUTE_QUERY, ROUTE_ERR, ADDR_RESOLVED, ROUTE_ERROR),
	T(ADDR_BOUND, LISTEN, LISTEN, NONE),
	/* Active. */
	T(ROUTE_RESOLVED, CONNECT, CONNECT, NONE),
	T(CONNECT, CM_REP, CONNECT, NONE),
	T(CONNECT, CM_REP_CONFIRM, REP_RCVD, CONNECT_RESPONSE),
	T(REP_RCVD, ACCEPT, CONNECT, NONE),
	T(REP_RCVD, REJECT, DISCONNECTED, NONE),
	T(CONNECT, CM_SIDR_OK, ESTABLISHED, ESTABLISHED),
	T(CONNECT, CM_ESTABLISHED, ESTABLISHED, ESTABLISHED),
	T(CONNECT, CM_REQ_ERR, DISCONNECTED, UNREACHABLE),
	/* Passive. */
	T(IDLE, CM_REQ, REQ_RCVD, CONNECT_REQUEST),
	T(REQ_RCVD, ACCEPT, ACCEPTED, NONE),
	T(REQ_RCVD, REJECT, DISCONNECTED, NONE),
	T(ACCEPTED, CM_ESTABLISHED, ESTABLISHED, ESTABLISHED),
	T(ACCEPTED, CM_REP_ERR, DISCONNECTED, CONNECT_ERROR),
	T(ACCEPTED, DISCONNECT, DISCONNECTED, NONE),
	/* REJ, wherever one can come. */
	T(CONNECT, CM_REJ, DISCONNECTED, REJECTED),
	T(REP_RCVD, CM_REJ, DISCONNECTED, REJECTED),
	T(REQ_RCVD, CM_REJ, DISCONNECTED, REJECTED),
	T(ACCEPTED, CM_REJ, DISCONNECTED, REJECTED),
	T(ESTABLISHED, CM_REJ, DISCONNECTED, DISCONNECTED),
	T(DISCONNECT, CM_REJ, DISCONNECTED, DISCONNECTED),
	/* Release. */
	T(ESTABLISHED, DISCONNECT, DISCONNECT, NONE),
	T(DISCONNECT, DISCONNECT, DISCONNECT, NONE),
	T(DREQ_RCVD, DISCONNECT, DISCONNECTED, NONE),
	T(DISCONNECTED, DISCONNECT, DISCONNECTED, NONE),
	T(CONNECT, CM_DREQ, DREQ_RCVD, DISCONNECTED),
	T(REP_RCVD, CM_DREQ, DREQ_RCVD, DISCONNECTED),
	T(ACCEPTED, CM_DREQ, DREQ_RCVD, DISCONNECTED),
	T(ESTABLISHED, CM_DREQ, DREQ_RCVD, DISCONNECTED),
	T(DISCONNECT, CM_DREQ, DISCONNECTED, DISCONNECTED),
	T(DISCONNECT, CM_DREQ_DONE, DISCONNECTED, DISCONNECTED),
	T(DISCONNECTED, CM_TIMEWAIT_EXIT, DISCONNECTED, TIMEWAIT_EXIT),
	/* The bound address left its port. */
	T(ADDR_BOUND, ADDR_CHANGE, ADDR_BOUND, ADDR_CHANGE),
	T(ADDR_RESOLVED, ADDR_CHANGE, ADDR_RESOLVED, ADDR_CHANGE),
	T(ROUTE_RESOLVED, ADDR_CHANGE, ROUTE_RESOLVED, ADDR_CHANGE),
	T(CONNECT, ADDR_CHANGE, CONNECT, ADDR_CHANGE),
	T(ACCEPTED, ADDR_CHANGE, ACCEPTED, ADDR_CHANGE),
	T(ESTABLISHED, ADDR_CHANGE, ESTABLISHED, ADDR_CHANGE),
};

/* Destroy in every state but DESTROYING; device removal in every state but those two. */
static bool fsm_spec_always(u8 from, u8 event, struct cma_step *st)
{
	if (event == CMA_EV_DESTROY && from != CMA_DESTROYING) {
		*st = (struct cma_step){ 1, CMA_DESTROYING, CMA_NO_EVENT };
		return true;
	}
	if (event == CMA_EV_DEVICE_REMOVAL && from != CMA_DESTROYING &&
	    from != CMA_DEVICE_REMOVAL) {
		*st = (struct cma_step){ 1, CMA_DEVICE_REMOVAL, OIB_CMA_EVENT_DEVICE_REMOVAL };
		return true;
	}
	return false;
}

static bool fsm_spec_find(u8 from, u8 event, struct cma_step *st)
{
	size_t i;

	if (fsm_spec_always(from, event, st))
		return true;
	for (i = 0; i < ARRAY_SIZE(fsm_spec); i++) {
		if (fsm_spec[i].from == from && fsm_spec[i].event == event) {
			*st = (struct cma_step){ 1, fsm_spec[i].to, fsm_spec[i].hears };
			return true;
		}
	}
	return false;
}

static void fsm_test_table(struct kunit *test)
{
	struct cma_step want, got;
	int s, e;

	for (s = 0; s < CMA_NSTATES; s++) {
		for (e = 0; e < CMA_NEVENTS; e++) {
			got = cma_fsm_step(s, e);
			if (!fsm_spec_find(s, e, &want)) {
				KUNIT_EXPECT_FALSE_MSG(test, got.valid, "%s + %s should be refused",
						       cma_state_name(s), cma_event_name(e));
				continue;
			}
			KUNIT_EXPECT_TRUE_MSG(test, got.valid, "%s + %s missing",
					      cma_state_name(s), cma_event_name(e));
			KUNIT_EXPECT_EQ_MSG(test, got.next, want.next, "%s + %s",
					    cma_state_name(s), cma_event_name(e));
			KUNIT_EXPECT_EQ_MSG(test, got.deliver, want.deliver, "%s + %s",
					    cma_state_name(s), cma_event_name(e));
		}
	}
}

static void fsm_test_names_and_range(struct kunit *test)
{
	int i;

	for (i = 0; i < CMA_NSTATES; i++)
		KUNIT_EXPECT_STRNEQ(test, cma_state_name(i), "?");
	for (i = 0; i < CMA_NEVENTS; i++)
		KUNIT_EXPECT_STRNEQ(test, cma_event_name(i), "?");
	for (i = 0; i < OIB_CMA_NEVENTS; i++)
		KUNIT_EXPECT_STRNEQ(test, oib_cma_event_msg(i), "?");
	KUNIT_EXPECT_STREQ(test, cma_state_name(CMA_NSTATES), "?");
	KUNIT_EXPECT_FALSE(test, cma_fsm_step(CMA_NSTATES, CMA_EV_DESTROY).valid);
	KUNIT_EXPECT_FALSE(test, cma_fsm_step(CMA_IDLE, CMA_NEVENTS).valid);
}

/* Walk @events from @state; returns the last state, expecting each step taken. */
static enum cma_state fsm_walk(struct kunit *test, enum cma_state state, const u8 *events,
			       int n, const u8 *hears)
{
	int i;

	for (i = 0; i < n; i++) {
		struct cma_step st = cma_fsm_step(state, events[i]);

		KUNIT_ASSERT_TRUE_MSG(test, st.valid, "%s + %s", cma_state_name(state),
				      cma_event_name(events[i]));
		KUNIT_EXPECT_EQ(test, st.deliver, hears[i]);
		state = st.next;
	}
	return state;
}

static void fsm_test_lifetimes(struct kunit *test)
{
	static const u8 active[] = { CMA_EV_RESOLVE_ADDR, CMA_EV_ADDR_OK, CMA_EV_RESOLVE_ROUTE,
		CMA_EV_ROUTE_OK, CMA_EV_CONNECT, CMA_EV_CM_REP, CMA_EV_CM_ESTABLISHED,
		CMA_EV_DISCONNECT, CMA_EV_CM_DREQ_DONE, CMA_EV_CM_TIMEWAIT_EXIT, CMA_EV_DESTROY };
	static const u8 active_hears[] = { NONE_, OIB_CMA_EVENT_ADDR_RESOLVED, NONE_,
		OIB_CMA_EVENT_ROUTE_RESOLVED, NONE_, NONE_, OIB_CMA_EVENT_ESTABLISHED, NONE_,
		OIB_CMA_EVENT_DISCONNECTED, OIB_CMA_EVENT_TIMEWAIT_EXIT, NONE_ };
	static const u8 passive[] = { CMA_EV_CM_REQ, CMA_EV_ACCEPT, CMA_EV_CM_ESTABLISHED,
		CMA_EV_CM_DREQ, CMA_EV_DISCONNECT, CMA_EV_CM_TIMEWAIT_EXIT, CMA_EV_DESTROY };
	static const u8 passive_hears[] = { OIB_CMA_EVENT_CONNECT_REQUEST, NONE_,
		OIB_CMA_EVENT_ESTABLISHED, OIB_CMA_EVENT_DISCONNECTED, NONE_,
		OIB_CMA_EVENT_TIMEWAIT_EXIT, NONE_ };

	KUNIT_EXPECT_EQ(test, fsm_walk(test, CMA_IDLE, active, ARRAY_SIZE(active), active_hears),
			CMA_DESTROYING);
	KUNIT_EXPECT_EQ(test, fsm_walk(test, CMA_IDLE, passive, ARRAY_SIZE(passive),
				       passive_hears), CMA_DESTROYING);
}

/* Only destroy leaves DEVICE_REMOVAL and nothing leaves DESTROYING. */
static void fsm_test_terminal(struct kunit *test)
{
	int e;

	for (e = 0; e < CMA_NEVENTS; e++) {
		KUNIT_EXPECT_FALSE(test, cma_fsm_step(CMA_DESTROYING, e).valid);
		KUNIT_EXPECT_EQ(test, cma_fsm_step(CMA_DEVICE_REMOVAL, e).valid,
				e == CMA_EV_DESTROY);
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
	.name = "oib_cma_fsm",
	.test_cases = fsm_test_cases,
};

kunit_test_suite(fsm_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the oib_cma id state table");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
