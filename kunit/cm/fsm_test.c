// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the CM connection state table (drivers/infiniband/cm/cm_fsm.c).
 *
 * fsm_spec[] is a second, independent encoding of the table: (from, event, action, to) tuples
 * written event by event from IBTA vol. 1 12.9's diagrams and the duplicate, stale and
 * crossing rules, where the table is written state by state.  Every tuple must be in the table
 * and every pair not listed must be a protocol error.  Then whole connection lifetimes are
 * walked through the table, one side or two.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <oib/kunit/cm.h>

#define ST(s)	OIB_CM_##s
#define T(from, ev, act, to)	{ ST(from), CM_EV_##ev, CM_ACT_##act, ST(to) }

struct fsm_tuple {
	u8 from, event, action, to;
};

static const struct fsm_tuple fsm_spec[] = {
	/* Local calls. */
	T(IDLE, LISTEN, NONE, LISTEN),
	T(IDLE, SEND_REQ, SEND_REQ, REQ_SENT),
	T(REQ_RCVD, SEND_MRA, SEND_MRA_REQ, MRA_REQ_SENT),
	T(REP_RCVD, SEND_MRA, SEND_MRA_REP, MRA_REP_SENT),
	T(REQ_RCVD, SEND_REP, SEND_REP, REP_SENT),
	T(MRA_REQ_SENT, SEND_REP, SEND_REP, REP_SENT),
	T(REP_RCVD, SEND_RTU, SEND_RTU, ESTABLISHED),
	T(MRA_REP_SENT, SEND_RTU, SEND_RTU, ESTABLISHED),
	T(REQ_SENT, SEND_REJ, SEND_REJ, IDLE),
	T(MRA_REQ_RCVD, SEND_REJ, SEND_REJ, IDLE),
	T(REQ_RCVD, SEND_REJ, SEND_REJ, IDLE),
	T(MRA_REQ_SENT, SEND_REJ, SEND_REJ, IDLE),
	T(REP_RCVD, SEND_REJ, SEND_REJ, IDLE),
	T(MRA_REP_SENT, SEND_REJ, SEND_REJ, IDLE),
	T(REP_SENT, SEND_REJ, SEND_REJ, TIMEWAIT),
	T(MRA_REP_RCVD, SEND_REJ, SEND_REJ, TIMEWAIT),
	T(ESTABLISHED, SEND_DREQ, SEND_DREQ, DREQ_SENT),
	T(DREQ_RCVD, SEND_DREP, SEND_DREP, TIMEWAIT),
	T(IDLE, SEND_SIDR_REQ, SEND_SIDR_REQ, SIDR_REQ_SENT),
	T(SIDR_REQ_RCVD, SEND_SIDR_REP, SEND_SIDR_REP, IDLE),
	/* Destroy, in every state but DESTROYING. */
	T(IDLE, DESTROY, DESTROY, DESTROYING),
	T(LISTEN, DESTROY, DESTROY, DESTROYING),
	T(REQ_SENT, DESTROY, DESTROY_REJ_TIMEOUT, DESTROYING),
	T(MRA_REQ_RCVD, DESTROY, DESTROY_REJ_TIMEOUT, DESTROYING),
	T(REQ_RCVD, DESTROY, DESTROY_REJ, DESTROYING),
	T(MRA_REQ_SENT, DESTROY, DESTROY_REJ, DESTROYING),
	T(REP_SENT, DESTROY, DESTROY_REJ, DESTROYING),
	T(MRA_REP_RCVD, DESTROY, DESTROY_REJ, DESTROYING),
	T(REP_RCVD, DESTROY, DESTROY_REJ, DESTROYING),
	T(MRA_REP_SENT, DESTROY, DESTROY_REJ, DESTROYING),
	T(ESTABLISHED, DESTROY, DESTROY_DREQ, DESTROYING),
	T(DREQ_SENT, DESTROY, DESTROY, DESTROYING),
	T(DREQ_RCVD, DESTROY, DESTROY_DREP, DESTROYING),
	T(TIMEWAIT, DESTROY, DESTROY, DESTROYING),
	T(SIDR_REQ_SENT, DESTROY, DESTROY, DESTROYING),
	T(SIDR_REQ_RCVD, DESTROY, DESTROY_SIDR_REJ, DESTROYING),
	/* REQ: new on a listener or a fresh cm_id; duplicates answered with what we sent. */
	T(LISTEN, RECV_REQ, SPAWN, LISTEN),
	T(IDLE, RECV_REQ, DELIVER_REQ, REQ_RCVD),
	T(REQ_RCVD, RECV_REQ, DROP_DUP, REQ_RCVD),
	T(MRA_REQ_SENT, RECV_REQ, RESEND_MRA, MRA_REQ_SENT),
	T(REP_SENT, RECV_REQ, RESEND_REP, REP_SENT),
	T(MRA_REP_RCVD, RECV_REQ, RESEND_REP, MRA_REP_RCVD),
	T(ESTABLISHED, RECV_REQ, DROP_DUP, ESTABLISHED),
	T(DREQ_SENT, RECV_REQ, DROP_DUP, DREQ_SENT),
	T(DREQ_RCVD, RECV_REQ, DROP_DUP, DREQ_RCVD),
	T(TIMEWAIT, RECV_REQ, SEND_REJ_STALE, TIMEWAIT),
	/* A REQ for a connection we believe exists: REJ stale; a live one is released. */
	T(ESTABLISHED, RECV_REQ_STALE, STALE_DREQ, DREQ_SENT),
	T(REP_SENT, RECV_REQ_STALE, SEND_REJ_STALE, REP_SENT),
	T(MRA_REP_RCVD, RECV_REQ_STALE, SEND_REJ_STALE, MRA_REP_RCVD),
	T(REP_RCVD, RECV_REQ_STALE, SEND_REJ_STALE, REP_RCVD),
	T(MRA_REP_SENT, RECV_REQ_STALE, SEND_REJ_STALE, MRA_REP_SENT),
	T(DREQ_SENT, RECV_REQ_STALE, SEND_REJ_STALE, DREQ_SENT),
	T(DREQ_RCVD, RECV_REQ_STALE, SEND_REJ_STALE, DREQ_RCVD),
	T(TIMEWAIT, RECV_REQ_STALE, SEND_REJ_STALE, TIMEWAIT),
	/* REQ crossing REQ. */
	T(REQ_SENT, RECV_REQ_CROSS_ACTIVE, IGNORE, REQ_SENT),
	T(REQ_SENT, RECV_REQ_CROSS_PASSIVE, CROSS_PASSIVE, REQ_RCVD),
	/* MRA: extends the wait it answers; duplicates and late ones dropped. */
	T(REQ_SENT, RECV_MRA_REQ, MRA_RCVD, MRA_REQ_RCVD),
	T(MRA_REQ_RCVD, RECV_MRA_REQ, DROP_DUP, MRA_REQ_RCVD),
	T(REP_RCVD, RECV_MRA_REQ, DROP_DUP, REP_RCVD),
	T(MRA_REP_SENT, RECV_MRA_REQ, DROP_DUP, MRA_REP_SENT),
	T(ESTABLISHED, RECV_MRA_REQ, DROP_DUP, ESTABLISHED),
	T(REP_SENT, RECV_MRA_REP, MRA_RCVD, MRA_REP_RCVD),
	T(MRA_REP_RCVD, RECV_MRA_REP, DROP_DUP, MRA_REP_RCVD),
	T(ESTABLISHED, RECV_MRA_REP, DROP_DUP, ESTABLISHED),
	/* REJ, in every state it may arrive in; "stale connection" goes to timewait. */
	T(REQ_SENT, RECV_REJ, REJ_RCVD, IDLE),
	T(MRA_REQ_RCVD, RECV_REJ, REJ_RCVD, IDLE),
	T(REQ_RCVD, RECV_REJ, REJ_RCVD, IDLE),
	T(MRA_REQ_SENT, RECV_REJ, REJ_RCVD, IDLE),
	T(REP_SENT, RECV_REJ, REJ_RCVD, IDLE),
	T(MRA_REP_RCVD, RECV_REJ, REJ_RCVD, IDLE),
	T(REP_RCVD, RECV_REJ, REJ_RCVD, TIMEWAIT),
	T(MRA_REP_SENT, RECV_REJ, REJ_RCVD, TIMEWAIT),
	T(ESTABLISHED, RECV_REJ, REJ_RCVD, TIMEWAIT),
	T(DREQ_SENT, RECV_REJ, REJ_RCVD, TIMEWAIT),
	T(TIMEWAIT, RECV_REJ, IGNORE, TIMEWAIT),
	T(REQ_SENT, RECV_REJ_STALE, REJ_RCVD, TIMEWAIT),
	T(MRA_REQ_RCVD, RECV_REJ_STALE, REJ_RCVD, TIMEWAIT),
	T(REQ_RCVD, RECV_REJ_STALE, REJ_RCVD, TIMEWAIT),
	T(MRA_REQ_SENT, RECV_REJ_STALE, REJ_RCVD, TIMEWAIT),
	T(REP_SENT, RECV_REJ_STALE, REJ_RCVD, TIMEWAIT),
	T(MRA_REP_RCVD, RECV_REJ_STALE, REJ_RCVD, TIMEWAIT),
	T(REP_RCVD, RECV_REJ_STALE, REJ_RCVD, TIMEWAIT),
	T(MRA_REP_SENT, RECV_REJ_STALE, REJ_RCVD, TIMEWAIT),
	T(ESTABLISHED, RECV_REJ_STALE, REJ_RCVD, TIMEWAIT),
	T(DREQ_SENT, RECV_REJ_STALE, REJ_RCVD, TIMEWAIT),
	T(TIMEWAIT, RECV_REJ_STALE, IGNORE, TIMEWAIT),
	/* REP: taken once; a duplicate resends our MRA or RTU, else is dropped. */
	T(REQ_SENT, RECV_REP, DELIVER_REP, REP_RCVD),
	T(MRA_REQ_RCVD, RECV_REP, DELIVER_REP, REP_RCVD),
	T(REP_RCVD, RECV_REP, DROP_DUP, REP_RCVD),
	T(MRA_REP_SENT, RECV_REP, RESEND_MRA, MRA_REP_SENT),
	T(ESTABLISHED, RECV_REP, RESEND_RTU, ESTABLISHED),
	T(DREQ_SENT, RECV_REP, DROP_DUP, DREQ_SENT),
	T(DREQ_RCVD, RECV_REP, DROP_DUP, DREQ_RCVD),
	T(TIMEWAIT, RECV_REP, DROP_DUP, TIMEWAIT),
	/* The passive side is established by the first of RTU, COMM_EST, a receive, notify. */
	T(REP_SENT, RECV_RTU, ESTABLISH, ESTABLISHED),
	T(REP_SENT, COMM_EST, ESTABLISH, ESTABLISHED),
	T(REP_SENT, FIRST_RECV, ESTABLISH, ESTABLISHED),
	T(REP_SENT, NOTIFY, ESTABLISH, ESTABLISHED),
	T(MRA_REP_RCVD, RECV_RTU, ESTABLISH, ESTABLISHED),
	T(MRA_REP_RCVD, COMM_EST, ESTABLISH, ESTABLISHED),
	T(MRA_REP_RCVD, FIRST_RECV, ESTABLISH, ESTABLISHED),
	T(MRA_REP_RCVD, NOTIFY, ESTABLISH, ESTABLISHED),
	/* ... and the later ones are ignored quietly. */
	T(ESTABLISHED, RECV_RTU, IGNORE, ESTABLISHED),
	T(ESTABLISHED, COMM_EST, IGNORE, ESTABLISHED),
	T(ESTABLISHED, FIRST_RECV, IGNORE, ESTABLISHED),
	T(ESTABLISHED, NOTIFY, IGNORE, ESTABLISHED),
	T(DREQ_SENT, RECV_RTU, IGNORE, DREQ_SENT),
	T(DREQ_SENT, COMM_EST, IGNORE, DREQ_SENT),
	T(DREQ_SENT, FIRST_RECV, IGNORE, DREQ_SENT),
	T(DREQ_SENT, NOTIFY, IGNORE, DREQ_SENT),
	T(DREQ_RCVD, RECV_RTU, IGNORE, DREQ_RCVD),
	T(DREQ_RCVD, COMM_EST, IGNORE, DREQ_RCVD),
	T(DREQ_RCVD, FIRST_RECV, IGNORE, DREQ_RCVD),
	T(DREQ_RCVD, NOTIFY, IGNORE, DREQ_RCVD),
	T(TIMEWAIT, RECV_RTU, IGNORE, TIMEWAIT),
	T(TIMEWAIT, COMM_EST, IGNORE, TIMEWAIT),
	T(TIMEWAIT, FIRST_RECV, IGNORE, TIMEWAIT),
	T(TIMEWAIT, NOTIFY, IGNORE, TIMEWAIT),
	/* The active side's QP may see traffic before its RTU is out: nothing to do. */
	T(REP_RCVD, COMM_EST, IGNORE, REP_RCVD),
	T(REP_RCVD, FIRST_RECV, IGNORE, REP_RCVD),
	T(MRA_REP_SENT, COMM_EST, IGNORE, MRA_REP_SENT),
	T(MRA_REP_SENT, FIRST_RECV, IGNORE, MRA_REP_SENT),
	/* DREQ: also before the RTU; crossing our own; again in timewait. */
	T(ESTABLISHED, RECV_DREQ, DREQ_RCVD, DREQ_RCVD),
	T(REP_SENT, RECV_DREQ, DREQ_RCVD, DREQ_RCVD),
	T(MRA_REP_RCVD, RECV_DREQ, DREQ_RCVD, DREQ_RCVD),
	T(DREQ_SENT, RECV_DREQ, DREQ_CROSSED, TIMEWAIT),
	T(DREQ_RCVD, RECV_DREQ, DROP_DUP, DREQ_RCVD),
	T(TIMEWAIT, RECV_DREQ, RESEND_DREP, TIMEWAIT),
	/* DREP. */
	T(DREQ_SENT, RECV_DREP, DREP_RCVD, TIMEWAIT),
	T(TIMEWAIT, RECV_DREP, IGNORE, TIMEWAIT),
	/* SIDR. */
	T(LISTEN, RECV_SIDR_REQ, SPAWN, LISTEN),
	T(IDLE, RECV_SIDR_REQ, DELIVER_SIDR_REQ, SIDR_REQ_RCVD),
	T(SIDR_REQ_RCVD, RECV_SIDR_REQ, DROP_DUP, SIDR_REQ_RCVD),
	T(SIDR_REQ_SENT, RECV_SIDR_REP, SIDR_REP_RCVD, IDLE),
	/* LAP: alternate paths are not supported. */
	T(ESTABLISHED, RECV_LAP, SEND_APR_UNSUPPORTED, ESTABLISHED),
	/* Timers. */
	T(REQ_SENT, REQ_TIMEOUT, REQ_TIMEOUT, IDLE),
	T(MRA_REQ_RCVD, REQ_TIMEOUT, REQ_TIMEOUT, IDLE),
	T(REP_SENT, REP_TIMEOUT, REP_TIMEOUT, IDLE),
	T(MRA_REP_RCVD, REP_TIMEOUT, REP_TIMEOUT, IDLE),
	T(DREQ_SENT, DREQ_TIMEOUT, DREQ_TIMEOUT, TIMEWAIT),
	T(SIDR_REQ_SENT, SIDR_REQ_TIMEOUT, SIDR_REQ_TIMEOUT, IDLE),
	T(TIMEWAIT, TIMEWAIT_EXPIRED, TIMEWAIT_EXIT, IDLE),
};

static const struct fsm_tuple *fsm_spec_find(u8 from, u8 event)
{
	const struct fsm_tuple *t;

	for (t = fsm_spec; t < fsm_spec + ARRAY_SIZE(fsm_spec); t++)
		if (t->from == from && t->event == event)
			return t;
	return NULL;
}

static void fsm_expect_step(struct kunit *test, u8 from, u8 event, u8 action, u8 to)
{
	struct cm_step step = oib_cm_fsm_step(from, event);

	KUNIT_EXPECT_EQ_MSG(test, step.action, action, "%s + %s: %s, not %s",
			    oib_cm_state_name(from), oib_cm_event_name(event),
			    oib_cm_action_name(step.action), oib_cm_action_name(action));
	KUNIT_EXPECT_EQ_MSG(test, step.next, to, "%s + %s: to %s, not %s",
			    oib_cm_state_name(from), oib_cm_event_name(event),
			    oib_cm_state_name(step.next), oib_cm_state_name(to));
}

/* The table and the spec agree on every pair; what the spec leaves out is a protocol error. */
static void fsm_test_table(struct kunit *test)
{
	unsigned int s, e, listed = 0;

	for (s = 0; s < OIB_CM_NSTATES; s++) {
		for (e = 0; e < CM_NEVENTS; e++) {
			const struct fsm_tuple *t = fsm_spec_find(s, e);

			if (t) {
				listed++;
				fsm_expect_step(test, s, e, t->action, t->to);
			} else {
				fsm_expect_step(test, s, e, CM_ACT_PROTOCOL_ERROR, s);
			}
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, listed, (unsigned int)ARRAY_SIZE(fsm_spec),
			    "a (state, event) pair is listed twice in the spec");
	kunit_info(test, "%u of %u pairs defined\n", listed, OIB_CM_NSTATES * CM_NEVENTS);
}

/* Out of range is a protocol error too, never a read past the table. */
static void fsm_test_out_of_range(struct kunit *test)
{
	fsm_expect_step(test, OIB_CM_NSTATES, CM_EV_DESTROY, CM_ACT_PROTOCOL_ERROR,
			OIB_CM_NSTATES);
	fsm_expect_step(test, 255, CM_EV_RECV_REQ, CM_ACT_PROTOCOL_ERROR, 255);
	fsm_expect_step(test, OIB_CM_IDLE, CM_NEVENTS, CM_ACT_PROTOCOL_ERROR, OIB_CM_IDLE);
	fsm_expect_step(test, OIB_CM_ESTABLISHED, 200, CM_ACT_PROTOCOL_ERROR, OIB_CM_ESTABLISHED);
	fsm_expect_step(test, OIB_CM_IDLE, CM_EV_RECV_RTU, CM_ACT_PROTOCOL_ERROR, OIB_CM_IDLE);
	fsm_expect_step(test, OIB_CM_DESTROYING, CM_EV_DESTROY, CM_ACT_PROTOCOL_ERROR,
			OIB_CM_DESTROYING);
}

/* Every state, event and action has a name; anything else is "?". */
static void fsm_test_names(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < OIB_CM_NSTATES; i++)
		KUNIT_EXPECT_STRNEQ(test, oib_cm_state_name(i), "?");
	for (i = 0; i < CM_NEVENTS; i++)
		KUNIT_EXPECT_STRNEQ(test, oib_cm_event_name(i), "?");
	for (i = 0; i < CM_NACTIONS; i++)
		KUNIT_EXPECT_STRNEQ(test, oib_cm_action_name(i), "?");
	KUNIT_EXPECT_STREQ(test, oib_cm_state_name(OIB_CM_NSTATES), "?");
	KUNIT_EXPECT_STREQ(test, oib_cm_event_name(CM_NEVENTS), "?");
	KUNIT_EXPECT_STREQ(test, oib_cm_action_name(CM_NACTIONS), "?");
	KUNIT_EXPECT_STREQ(test, oib_cm_state_name(OIB_CM_MRA_REP_RCVD), "mra_rep_rcvd");
}

/*
 * The shape of the machine: every state is reachable from IDLE, DESTROYING is reached from
 * every other state and left by nothing, every state can get back to IDLE or DESTROYING, and
 * every state with a wait has a timer event out of it.
 */
static void fsm_test_shape(struct kunit *test)
{
	static const u8 waits[][2] = {
		{ ST(REQ_SENT), CM_EV_REQ_TIMEOUT }, { ST(MRA_REQ_RCVD), CM_EV_REQ_TIMEOUT },
		{ ST(REP_SENT), CM_EV_REP_TIMEOUT }, { ST(MRA_REP_RCVD), CM_EV_REP_TIMEOUT },
		{ ST(DREQ_SENT), CM_EV_DREQ_TIMEOUT },
		{ ST(SIDR_REQ_SENT), CM_EV_SIDR_REQ_TIMEOUT },
		{ ST(TIMEWAIT), CM_EV_TIMEWAIT_EXPIRED },
	};
	bool seen[OIB_CM_NSTATES] = { [OIB_CM_IDLE] = true };
	unsigned int s, e, i, round;

	for (round = 0; round < OIB_CM_NSTATES; round++)
		for (s = 0; s < OIB_CM_NSTATES; s++)
			for (e = 0; seen[s] && e < CM_NEVENTS; e++)
				seen[oib_cm_fsm_step(s, e).next] = true;
	for (s = 0; s < OIB_CM_NSTATES; s++)
		KUNIT_EXPECT_TRUE_MSG(test, seen[s], "%s unreachable", oib_cm_state_name(s));
	for (s = 0; s < OIB_CM_NSTATES; s++) {
		struct cm_step d = oib_cm_fsm_step(s, CM_EV_DESTROY);

		if (s == OIB_CM_DESTROYING)
			KUNIT_EXPECT_EQ(test, d.action, CM_ACT_PROTOCOL_ERROR);
		else
			KUNIT_EXPECT_EQ(test, d.next, OIB_CM_DESTROYING);
	}
	for (i = 0; i < ARRAY_SIZE(waits); i++) {
		struct cm_step t = oib_cm_fsm_step(waits[i][0], waits[i][1]);

		KUNIT_EXPECT_NE(test, t.action, CM_ACT_PROTOCOL_ERROR);
		KUNIT_EXPECT_TRUE(test, t.next == OIB_CM_IDLE || t.next == OIB_CM_TIMEWAIT);
	}
}

/* ---- Walks ---- */

struct fsm_move {
	u8 event;
	u8 action;	/* expected */
};

#define MV(ev, act)	{ CM_EV_##ev, CM_ACT_##act }

static u8 fsm_walk(struct kunit *test, u8 state, const struct fsm_move *moves, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct cm_step step = oib_cm_fsm_step(state, moves[i].event);

		KUNIT_EXPECT_EQ_MSG(test, step.action, moves[i].action, "step %u: %s + %s -> %s",
				    i, oib_cm_state_name(state), oib_cm_event_name(moves[i].event),
				    oib_cm_action_name(step.action));
		state = step.next;
	}
	return state;
}

static void fsm_test_active_lifetime(struct kunit *test)
{
	static const struct fsm_move moves[] = {
		MV(SEND_REQ, SEND_REQ), MV(RECV_REP, DELIVER_REP), MV(SEND_RTU, SEND_RTU),
		MV(COMM_EST, IGNORE), MV(SEND_DREQ, SEND_DREQ), MV(RECV_DREP, DREP_RCVD),
		MV(RECV_DREQ, RESEND_DREP), MV(TIMEWAIT_EXPIRED, TIMEWAIT_EXIT),
		MV(DESTROY, DESTROY),
	};

	KUNIT_EXPECT_EQ(test, fsm_walk(test, ST(IDLE), moves, ARRAY_SIZE(moves)), ST(DESTROYING));
}

static void fsm_test_passive_lifetime(struct kunit *test)
{
	static const struct fsm_move listen[] = {
		MV(LISTEN, NONE), MV(RECV_REQ, SPAWN), MV(RECV_SIDR_REQ, SPAWN),
	};
	static const struct fsm_move moves[] = {
		MV(RECV_REQ, DELIVER_REQ), MV(RECV_REQ, DROP_DUP), MV(SEND_REP, SEND_REP),
		MV(RECV_RTU, ESTABLISH), MV(RECV_DREQ, DREQ_RCVD), MV(RECV_DREQ, DROP_DUP),
		MV(SEND_DREP, SEND_DREP), MV(TIMEWAIT_EXPIRED, TIMEWAIT_EXIT),
	};

	KUNIT_EXPECT_EQ(test, fsm_walk(test, ST(IDLE), listen, ARRAY_SIZE(listen)), ST(LISTEN));
	KUNIT_EXPECT_EQ(test, fsm_walk(test, ST(IDLE), moves, ARRAY_SIZE(moves)), ST(IDLE));
}

static void fsm_test_mra_both_sides(struct kunit *test)
{
	static const struct fsm_move active[] = {
		MV(SEND_REQ, SEND_REQ), MV(RECV_MRA_REQ, MRA_RCVD), MV(RECV_MRA_REQ, DROP_DUP),
		MV(RECV_REP, DELIVER_REP), MV(SEND_MRA, SEND_MRA_REP), MV(RECV_REP, RESEND_MRA),
		MV(SEND_RTU, SEND_RTU), MV(RECV_REP, RESEND_RTU),
	};
	static const struct fsm_move passive[] = {
		MV(RECV_REQ, DELIVER_REQ), MV(SEND_MRA, SEND_MRA_REQ), MV(RECV_REQ, RESEND_MRA),
		MV(SEND_REP, SEND_REP), MV(RECV_MRA_REP, MRA_RCVD), MV(RECV_MRA_REP, DROP_DUP),
		MV(RECV_REQ, RESEND_REP), MV(RECV_RTU, ESTABLISH), MV(RECV_RTU, IGNORE),
	};

	KUNIT_EXPECT_EQ(test, fsm_walk(test, ST(IDLE), active, ARRAY_SIZE(active)),
			ST(ESTABLISHED));
	KUNIT_EXPECT_EQ(test, fsm_walk(test, ST(IDLE), passive, ARRAY_SIZE(passive)),
			ST(ESTABLISHED));
}

/* How each state is reached from IDLE (only tables' own steps). */
static const struct {
	u8 state;
	u8 n;
	u8 events[6];
} fsm_paths[] = {
	{ ST(LISTEN), 1, { CM_EV_LISTEN } },
	{ ST(REQ_SENT), 1, { CM_EV_SEND_REQ } },
	{ ST(MRA_REQ_RCVD), 2, { CM_EV_SEND_REQ, CM_EV_RECV_MRA_REQ } },
	{ ST(REQ_RCVD), 1, { CM_EV_RECV_REQ } },
	{ ST(MRA_REQ_SENT), 2, { CM_EV_RECV_REQ, CM_EV_SEND_MRA } },
	{ ST(REP_SENT), 2, { CM_EV_RECV_REQ, CM_EV_SEND_REP } },
	{ ST(MRA_REP_RCVD), 3, { CM_EV_RECV_REQ, CM_EV_SEND_REP, CM_EV_RECV_MRA_REP } },
	{ ST(REP_RCVD), 2, { CM_EV_SEND_REQ, CM_EV_RECV_REP } },
	{ ST(MRA_REP_SENT), 3, { CM_EV_SEND_REQ, CM_EV_RECV_REP, CM_EV_SEND_MRA } },
	{ ST(ESTABLISHED), 3, { CM_EV_SEND_REQ, CM_EV_RECV_REP, CM_EV_SEND_RTU } },
	{ ST(DREQ_SENT), 4,
	  { CM_EV_SEND_REQ, CM_EV_RECV_REP, CM_EV_SEND_RTU, CM_EV_SEND_DREQ } },
	{ ST(DREQ_RCVD), 4, { CM_EV_RECV_REQ, CM_EV_SEND_REP, CM_EV_COMM_EST, CM_EV_RECV_DREQ } },
	{ ST(TIMEWAIT), 5, { CM_EV_SEND_REQ, CM_EV_RECV_REP, CM_EV_SEND_RTU, CM_EV_SEND_DREQ,
			     CM_EV_RECV_DREP } },
	{ ST(SIDR_REQ_SENT), 1, { CM_EV_SEND_SIDR_REQ } },
	{ ST(SIDR_REQ_RCVD), 1, { CM_EV_RECV_SIDR_REQ } },
};

static u8 fsm_reach(struct kunit *test, u8 state)
{
	unsigned int i, j;
	u8 s = ST(IDLE);

	for (i = 0; i < ARRAY_SIZE(fsm_paths); i++) {
		if (fsm_paths[i].state != state)
			continue;
		for (j = 0; j < fsm_paths[i].n; j++) {
			struct cm_step step = oib_cm_fsm_step(s, fsm_paths[i].events[j]);

			KUNIT_ASSERT_NE(test, step.action, CM_ACT_PROTOCOL_ERROR);
			s = step.next;
		}
	}
	KUNIT_ASSERT_EQ(test, s, state);
	return s;
}

/* REJ in every state it may arrive in, reached by a walk; in the others, a protocol error. */
static void fsm_test_rej_everywhere(struct kunit *test)
{
	static const u8 to_idle[] = { ST(REQ_SENT), ST(MRA_REQ_RCVD), ST(REQ_RCVD),
				      ST(MRA_REQ_SENT), ST(REP_SENT), ST(MRA_REP_RCVD) };
	static const u8 to_timewait[] = { ST(REP_RCVD), ST(MRA_REP_SENT), ST(ESTABLISHED),
					  ST(DREQ_SENT) };
	static const u8 refused[] = { ST(LISTEN), ST(DREQ_RCVD), ST(SIDR_REQ_SENT),
				      ST(SIDR_REQ_RCVD) };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(to_idle); i++) {
		fsm_expect_step(test, fsm_reach(test, to_idle[i]), oib_cm_fsm_rej_event(28),
				CM_ACT_REJ_RCVD, ST(IDLE));
		fsm_expect_step(test, to_idle[i], oib_cm_fsm_rej_event(OIB_CM_REJ_STALE_CONN),
				CM_ACT_REJ_RCVD, ST(TIMEWAIT));
	}
	for (i = 0; i < ARRAY_SIZE(to_timewait); i++) {
		fsm_expect_step(test, fsm_reach(test, to_timewait[i]), CM_EV_RECV_REJ,
				CM_ACT_REJ_RCVD, ST(TIMEWAIT));
		fsm_expect_step(test, to_timewait[i], CM_EV_RECV_REJ_STALE, CM_ACT_REJ_RCVD,
				ST(TIMEWAIT));
	}
	fsm_expect_step(test, fsm_reach(test, ST(TIMEWAIT)), CM_EV_RECV_REJ, CM_ACT_IGNORE,
			ST(TIMEWAIT));
	for (i = 0; i < ARRAY_SIZE(refused); i++)
		fsm_expect_step(test, fsm_reach(test, refused[i]), CM_EV_RECV_REJ,
				CM_ACT_PROTOCOL_ERROR, refused[i]);
	KUNIT_EXPECT_EQ(test, oib_cm_fsm_rej_event(4), CM_EV_RECV_REJ);
	KUNIT_EXPECT_EQ(test, oib_cm_fsm_rej_event(10), CM_EV_RECV_REJ_STALE);
}

/* Each establishment signal winning the race in REP_SENT and MRA_REP_RCVD; the rest ignored. */
static void fsm_test_established_race(struct kunit *test)
{
	static const u8 hooks[] = { CM_EV_RECV_RTU, CM_EV_COMM_EST, CM_EV_FIRST_RECV,
				    CM_EV_NOTIFY };
	static const u8 from[] = { ST(REP_SENT), ST(MRA_REP_RCVD) };
	unsigned int f, w, l;

	for (f = 0; f < ARRAY_SIZE(from); f++) {
		for (w = 0; w < ARRAY_SIZE(hooks); w++) {
			struct cm_step step = oib_cm_fsm_step(fsm_reach(test, from[f]), hooks[w]);

			KUNIT_EXPECT_EQ(test, step.action, CM_ACT_ESTABLISH);
			KUNIT_ASSERT_EQ(test, step.next, ST(ESTABLISHED));
			for (l = 0; l < ARRAY_SIZE(hooks); l++)	/* the winner again, too */
				fsm_expect_step(test, step.next, hooks[l], CM_ACT_IGNORE,
						ST(ESTABLISHED));
		}
	}
}

/* Two sides, each with its own state, trading events. */
struct fsm_pair {
	u8 s[2];
};

static void fsm_pair_step(struct kunit *test, struct fsm_pair *p, int side, u8 event, u8 action)
{
	struct cm_step step = oib_cm_fsm_step(p->s[side], event);

	KUNIT_EXPECT_EQ_MSG(test, step.action, action, "side %d: %s + %s -> %s", side,
			    oib_cm_state_name(p->s[side]), oib_cm_event_name(event),
			    oib_cm_action_name(step.action));
	p->s[side] = step.next;
}

/* Both sides disconnect at once: each answers the other's DREQ, both reach timewait, leave. */
static void fsm_test_dreq_crossing(struct kunit *test)
{
	struct fsm_pair p = { { fsm_reach(test, ST(ESTABLISHED)), ST(ESTABLISHED) } };
	int side;

	for (side = 0; side < 2; side++)
		fsm_pair_step(test, &p, side, CM_EV_SEND_DREQ, CM_ACT_SEND_DREQ);
	for (side = 0; side < 2; side++)
		fsm_pair_step(test, &p, side, CM_EV_RECV_DREQ, CM_ACT_DREQ_CROSSED);
	for (side = 0; side < 2; side++) {
		fsm_pair_step(test, &p, side, CM_EV_RECV_DREP, CM_ACT_IGNORE);
		fsm_pair_step(test, &p, side, CM_EV_RECV_DREQ, CM_ACT_RESEND_DREP);
		KUNIT_EXPECT_EQ(test, p.s[side], ST(TIMEWAIT));
		fsm_pair_step(test, &p, side, CM_EV_TIMEWAIT_EXPIRED, CM_ACT_TIMEWAIT_EXIT);
		KUNIT_EXPECT_EQ(test, p.s[side], ST(IDLE));
	}
}

/* Peers connecting to each other at once: the greater (CA GUID, QPN) stays active. */
static void fsm_test_req_crossing(struct kunit *test)
{
	static const struct { u64 guid[2]; u32 qpn[2]; } peers[] = {
		{ { 0x0002c90300000002ULL, 0x0002c90300000001ULL }, { 0x11, 0x22 } },
		{ { 0x0002c90300000005ULL, 0x0002c90300000005ULL }, { 0x99, 0x42 } },
	};
	unsigned int i;
	int side, a;

	for (i = 0; i < ARRAY_SIZE(peers); i++) {
		struct fsm_pair p = { { ST(IDLE), ST(IDLE) } };

		for (side = 0; side < 2; side++)
			fsm_pair_step(test, &p, side, CM_EV_SEND_REQ, CM_ACT_SEND_REQ);
		for (side = 0; side < 2; side++) {
			u8 ev = oib_cm_fsm_cross_event(peers[i].guid[side], peers[i].qpn[side],
						       peers[i].guid[!side], peers[i].qpn[!side]);

			fsm_pair_step(test, &p, side, ev, side == 0 ? CM_ACT_IGNORE :
				      CM_ACT_CROSS_PASSIVE);
		}
		a = 0;		/* side 0 has the greater GUID or, GUIDs equal, QPN */
		KUNIT_EXPECT_EQ(test, p.s[a], ST(REQ_SENT));
		KUNIT_EXPECT_EQ(test, p.s[!a], ST(REQ_RCVD));
		fsm_pair_step(test, &p, !a, CM_EV_SEND_REP, CM_ACT_SEND_REP);
		fsm_pair_step(test, &p, a, CM_EV_RECV_REP, CM_ACT_DELIVER_REP);
		fsm_pair_step(test, &p, a, CM_EV_SEND_RTU, CM_ACT_SEND_RTU);
		fsm_pair_step(test, &p, !a, CM_EV_RECV_RTU, CM_ACT_ESTABLISH);
		KUNIT_EXPECT_EQ(test, p.s[0], ST(ESTABLISHED));
		KUNIT_EXPECT_EQ(test, p.s[1], ST(ESTABLISHED));
	}
}

/* A REQ for a live connection: REJ stale and a DREQ; the DREQ times out into timewait. */
static void fsm_test_stale(struct kunit *test)
{
	static const struct fsm_move moves[] = {
		MV(RECV_REQ_STALE, STALE_DREQ), MV(RECV_REQ_STALE, SEND_REJ_STALE),
		MV(DREQ_TIMEOUT, DREQ_TIMEOUT), MV(RECV_REQ, SEND_REJ_STALE),
		MV(TIMEWAIT_EXPIRED, TIMEWAIT_EXIT),
	};

	KUNIT_EXPECT_EQ(test, fsm_walk(test, fsm_reach(test, ST(ESTABLISHED)), moves,
				       ARRAY_SIZE(moves)), ST(IDLE));
}

/* Lost messages: REQ and REP time out, SIDR both ways, a LAP is answered unsupported. */
static void fsm_test_timeouts_sidr_lap(struct kunit *test)
{
	static const struct fsm_move req_lost[] = { MV(SEND_REQ, SEND_REQ),
						    MV(REQ_TIMEOUT, REQ_TIMEOUT) };
	static const struct fsm_move rtu_lost[] = {
		MV(RECV_REQ, DELIVER_REQ), MV(SEND_REP, SEND_REP), MV(REP_TIMEOUT, REP_TIMEOUT),
	};
	static const struct fsm_move sidr[] = {
		MV(SEND_SIDR_REQ, SEND_SIDR_REQ), MV(RECV_SIDR_REP, SIDR_REP_RCVD),
		MV(RECV_SIDR_REQ, DELIVER_SIDR_REQ), MV(RECV_SIDR_REQ, DROP_DUP),
		MV(SEND_SIDR_REP, SEND_SIDR_REP), MV(SEND_SIDR_REQ, SEND_SIDR_REQ),
		MV(SIDR_REQ_TIMEOUT, SIDR_REQ_TIMEOUT),
	};
	static const struct fsm_move lap[] = {
		MV(RECV_LAP, SEND_APR_UNSUPPORTED), MV(RECV_APR, PROTOCOL_ERROR),
		MV(RECV_MRA_OTHER, PROTOCOL_ERROR),
	};

	KUNIT_EXPECT_EQ(test, fsm_walk(test, ST(IDLE), req_lost, ARRAY_SIZE(req_lost)), ST(IDLE));
	KUNIT_EXPECT_EQ(test, fsm_walk(test, ST(IDLE), rtu_lost, ARRAY_SIZE(rtu_lost)), ST(IDLE));
	KUNIT_EXPECT_EQ(test, fsm_walk(test, ST(IDLE), sidr, ARRAY_SIZE(sidr)), ST(IDLE));
	KUNIT_EXPECT_EQ(test, fsm_walk(test, ST(ESTABLISHED), lap, ARRAY_SIZE(lap)),
			ST(ESTABLISHED));
}

static struct kunit_case fsm_test_cases[] = {
	KUNIT_CASE(fsm_test_table),
	KUNIT_CASE(fsm_test_out_of_range),
	KUNIT_CASE(fsm_test_names),
	KUNIT_CASE(fsm_test_shape),
	KUNIT_CASE(fsm_test_active_lifetime),
	KUNIT_CASE(fsm_test_passive_lifetime),
	KUNIT_CASE(fsm_test_mra_both_sides),
	KUNIT_CASE(fsm_test_rej_everywhere),
	KUNIT_CASE(fsm_test_established_race),
	KUNIT_CASE(fsm_test_dreq_crossing),
	KUNIT_CASE(fsm_test_req_crossing),
	KUNIT_CASE(fsm_test_stale),
	KUNIT_CASE(fsm_test_timeouts_sidr_lap),
	{}
};

static struct kunit_suite fsm_test_suite = {
	.name = "oib_cm_fsm",
	.test_cases = fsm_test_cases,
};

kunit_test_suite(fsm_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the oib_cm connection state table");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
