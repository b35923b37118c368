// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for oib_sdp's socket state table (drivers/infiniband/ulp/sdp/sdp_state.c).
 *
 * The expectations come from an independent encoding: the oracle below derives each transition
 * from a few properties of the states (connected, our side shut, the peer's side shut, our
 * DisConn completed) and TCP's rules, instead of listing them; every (state, event) pair of the
 * table must agree with it.  Then both ends of a connection walk the closes TCP knows (one side
 * first, both at once, a reset) and every state must lead back to CLOSED.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <oib/kunit/sdp.h>

static bool st_connected(enum sdp_state s)
{
	return s >= SDP_ESTABLISHED && s < SDP_NSTATES;
}

static bool st_we_shut(enum sdp_state s)
{
	return s == SDP_FIN_WAIT1 || s == SDP_FIN_WAIT2 || s == SDP_CLOSING ||
	       s == SDP_LAST_ACK || s == SDP_TIME_WAIT;
}

static bool st_peer_shut(enum sdp_state s)
{
	return s == SDP_CLOSE_WAIT || s == SDP_CLOSING || s == SDP_LAST_ACK ||
	       s == SDP_TIME_WAIT;
}

static bool st_ours_done(enum sdp_state s)
{
	return s == SDP_FIN_WAIT2 || s == SDP_TIME_WAIT;
}

/* The end of a connection: what the socket reports, and whether the CM is still to be told. */
static u16 st_end(enum sdp_state s, bool cm_told)
{
	u16 a = SDP_DO_RELEASE | SDP_DO_WAKE;

	if (!(st_we_shut(s) && st_peer_shut(s)))
		a |= SDP_DO_ERR_RESET;
	if (!st_peer_shut(s))
		a |= SDP_DO_EOF;
	if (!cm_told && s != SDP_TIME_WAIT)
		a |= SDP_DO_CM_DISCONNECT;
	return a;
}

static bool st_oracle(enum sdp_state s, enum sdp_event e, enum sdp_state *next, u16 *a)
{
	*next = SDP_CLOSED;
	*a = 0;
	switch (e) {
	case SDP_EV_CONNECT:
		*next = SDP_SYN_SENT;
		*a = SDP_DO_RESOLVE;
		return s == SDP_CLOSED;
	case SDP_EV_LISTEN:
		*next = SDP_LISTEN;
		*a = SDP_DO_LISTEN;
		return s == SDP_CLOSED || s == SDP_LISTEN;
	case SDP_EV_REQUEST:
		*next = SDP_SYN_RECV;
		*a = SDP_DO_ACCEPT;
		return s == SDP_CLOSED;
	case SDP_EV_CLOSE:
		*a = s == SDP_LISTEN ? SDP_DO_RELEASE | SDP_DO_WAKE : 0;
		return s == SDP_CLOSED || s == SDP_LISTEN;
	case SDP_EV_ESTABLISHED:
		*next = SDP_ESTABLISHED;
		*a = SDP_DO_WAKE;
		return s == SDP_SYN_SENT || s == SDP_SYN_RECV;
	default:
		break;
	}
	if (s == SDP_SYN_SENT || s == SDP_SYN_RECV) {
		/* nobody but the owner of an active socket hears of a failed connection */
		if (e != SDP_EV_REFUSED && e != SDP_EV_RESET && e != SDP_EV_ABORT)
			return false;
		*a = SDP_DO_RELEASE;
		if (s == SDP_SYN_RECV)
			return true;
		*a |= SDP_DO_WAKE;
		if (e == SDP_EV_REFUSED)
			*a |= SDP_DO_ERR_REFUSED;
		if (e == SDP_EV_RESET)
			*a |= SDP_DO_ERR_RESET;
		return true;
	}
	if (!st_connected(s))
		return false;

	switch (e) {
	case SDP_EV_SHUT_WR:
		if (st_we_shut(s)) {
			*next = s;
			return true;
		}
		*next = s == SDP_ESTABLISHED ? SDP_FIN_WAIT1 : SDP_LAST_ACK;
		*a = SDP_DO_SEND_DISCONN;
		return true;
	case SDP_EV_DISCONN_SENT:
		if (!st_we_shut(s) || st_ours_done(s))
			return false;
		*next = st_peer_shut(s) ? SDP_TIME_WAIT : SDP_FIN_WAIT2;
		*a = st_peer_shut(s) ? SDP_DO_CM_DISCONNECT : 0;
		return true;
	case SDP_EV_DISCONN_RCVD:
		if (st_peer_shut(s))
			return false;
		*a = SDP_DO_EOF | SDP_DO_WAKE;
		if (!st_we_shut(s))
			*next = SDP_CLOSE_WAIT;
		else if (!st_ours_done(s))
			*next = SDP_CLOSING;
		else
			*next = SDP_TIME_WAIT;
		if (*next == SDP_TIME_WAIT)
			*a |= SDP_DO_CM_DISCONNECT;
		return true;
	case SDP_EV_CM_DISCONNECTED:
		*a = st_end(s, true);
		return true;
	case SDP_EV_RESET:
		*a = st_end(s, false);
		return true;
	case SDP_EV_ABORT:
		*a = st_end(s, false) & ~(SDP_DO_ERR_RESET | SDP_DO_EOF);
		return true;
	case SDP_EV_TIMEOUT:
		*a = st_end(s, false) & ~(SDP_DO_ERR_RESET | SDP_DO_EOF);
		return st_we_shut(s);
	default:
		return false;
	}
}

static void state_test_table(struct kunit *test)
{
	unsigned int s, e, valid = 0;

	for (s = 0; s < SDP_NSTATES; s++) {
		for (e = 0; e < SDP_NEVENTS; e++) {
			struct sdp_transition t = sdp_state_next(s, e);
			enum sdp_state next;
			u16 a;
			bool ok = st_oracle(s, e, &next, &a);

			KUNIT_EXPECT_EQ_MSG(test, t.valid, ok, "%s on %s", sdp_event_name(e),
					    sdp_state_name(s));
			if (!ok || !t.valid)
				continue;
			valid++;
			KUNIT_EXPECT_EQ_MSG(test, t.next, next, "%s on %s", sdp_event_name(e),
					    sdp_state_name(s));
			KUNIT_EXPECT_EQ_MSG(test, t.actions, a, "%s on %s", sdp_event_name(e),
					    sdp_state_name(s));
		}
	}
	kunit_info(test, "%u valid transitions", valid);
	KUNIT_EXPECT_FALSE(test, sdp_state_next(SDP_NSTATES, SDP_EV_CLOSE).valid);
	KUNIT_EXPECT_FALSE(test, sdp_state_next(SDP_CLOSED, SDP_NEVENTS).valid);
	KUNIT_EXPECT_FALSE(test, sdp_state_next(-1, SDP_EV_CLOSE).valid);
}

static void state_test_names(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < SDP_NSTATES; i++)
		KUNIT_EXPECT_NE(test, sdp_state_name(i)[0], '?');
	for (i = 0; i < SDP_NEVENTS; i++)
		KUNIT_EXPECT_NE(test, sdp_event_name(i)[0], '?');
	KUNIT_EXPECT_STREQ(test, sdp_state_name(SDP_NSTATES), "?");
	KUNIT_EXPECT_STREQ(test, sdp_state_name(SDP_CLOSE_WAIT), "CLOSE_WAIT");
}

static void state_test_send_recv(struct kunit *test)
{
	unsigned int s;

	for (s = 0; s < SDP_NSTATES; s++) {
		KUNIT_EXPECT_EQ_MSG(test, sdp_state_can_send(s),
				    st_connected(s) && !st_we_shut(s), "%s", sdp_state_name(s));
		KUNIT_EXPECT_EQ_MSG(test, sdp_state_can_recv(s),
				    st_connected(s) && !st_peer_shut(s), "%s", sdp_state_name(s));
	}
}

/* Apply @e to *@s, which must take it; returns the actions. */
static u16 st_step(struct kunit *test, enum sdp_state *s, enum sdp_event e)
{
	struct sdp_transition t = sdp_state_next(*s, e);

	KUNIT_ASSERT_TRUE_MSG(test, t.valid, "%s on %s", sdp_event_name(e), sdp_state_name(*s));
	*s = t.next;
	return t.actions;
}

static void state_test_close_one_first(struct kunit *test)
{
	enum sdp_state a = SDP_CLOSED, b = SDP_CLOSED;

	KUNIT_EXPECT_EQ(test, st_step(test, &a, SDP_EV_CONNECT), SDP_DO_RESOLVE);
	KUNIT_EXPECT_EQ(test, st_step(test, &b, SDP_EV_REQUEST), SDP_DO_ACCEPT);
	st_step(test, &b, SDP_EV_ESTABLISHED);
	st_step(test, &a, SDP_EV_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, st_step(test, &a, SDP_EV_SHUT_WR), SDP_DO_SEND_DISCONN);
	KUNIT_EXPECT_TRUE(test, st_step(test, &b, SDP_EV_DISCONN_RCVD) & SDP_DO_EOF);
	st_step(test, &a, SDP_EV_DISCONN_SENT);
	KUNIT_EXPECT_TRUE(test, sdp_state_can_send(b));		/* half closed */
	KUNIT_EXPECT_TRUE(test, sdp_state_can_recv(a));
	KUNIT_EXPECT_EQ(test, st_step(test, &b, SDP_EV_SHUT_WR), SDP_DO_SEND_DISCONN);
	KUNIT_EXPECT_TRUE(test, st_step(test, &a, SDP_EV_DISCONN_RCVD) & SDP_DO_CM_DISCONNECT);
	KUNIT_EXPECT_EQ(test, st_step(test, &b, SDP_EV_DISCONN_SENT), SDP_DO_CM_DISCONNECT);
	KUNIT_EXPECT_EQ(test, a, SDP_TIME_WAIT);
	KUNIT_EXPECT_EQ(test, b, SDP_TIME_WAIT);
	KUNIT_EXPECT_EQ(test, st_step(test, &a, SDP_EV_CM_DISCONNECTED),
			SDP_DO_RELEASE | SDP_DO_WAKE);
	KUNIT_EXPECT_EQ(test, st_step(test, &b, SDP_EV_CM_DISCONNECTED),
			SDP_DO_RELEASE | SDP_DO_WAKE);
	KUNIT_EXPECT_EQ(test, a, SDP_CLOSED);
	KUNIT_EXPECT_EQ(test, b, SDP_CLOSED);
}

static void state_test_close_both(struct kunit *test)
{
	enum sdp_state a = SDP_ESTABLISHED, b = SDP_ESTABLISHED;

	st_step(test, &a, SDP_EV_SHUT_WR);
	st_step(test, &b, SDP_EV_SHUT_WR);
	st_step(test, &a, SDP_EV_DISCONN_RCVD);
	st_step(test, &b, SDP_EV_DISCONN_RCVD);
	KUNIT_EXPECT_EQ(test, a, SDP_CLOSING);
	KUNIT_EXPECT_EQ(test, st_step(test, &a, SDP_EV_DISCONN_SENT), SDP_DO_CM_DISCONNECT);
	/* a's DREQ reaches b before b's DisConn completion does: no error either way */
	KUNIT_EXPECT_FALSE(test, st_step(test, &b, SDP_EV_CM_DISCONNECTED) & SDP_DO_ERR_RESET);
	KUNIT_EXPECT_FALSE(test, st_step(test, &a, SDP_EV_CM_DISCONNECTED) & SDP_DO_ERR_RESET);
	KUNIT_EXPECT_EQ(test, a, SDP_CLOSED);
	KUNIT_EXPECT_EQ(test, b, SDP_CLOSED);
}

static void state_test_reset_and_refused(struct kunit *test)
{
	enum sdp_state a = SDP_ESTABLISHED, b = SDP_ESTABLISHED, c = SDP_CLOSED;

	/* a's owner aborts: b sees the CM disconnect with its data still going: a reset */
	KUNIT_EXPECT_TRUE(test, st_step(test, &a, SDP_EV_ABORT) & SDP_DO_CM_DISCONNECT);
	KUNIT_EXPECT_TRUE(test, st_step(test, &b, SDP_EV_CM_DISCONNECTED) & SDP_DO_ERR_RESET);
	st_step(test, &c, SDP_EV_CONNECT);
	KUNIT_EXPECT_TRUE(test, st_step(test, &c, SDP_EV_REFUSED) & SDP_DO_ERR_REFUSED);
	KUNIT_EXPECT_EQ(test, c, SDP_CLOSED);
}

/* Every state is reached from CLOSED, and every state leads back to it. */
static void state_test_reachable(struct kunit *test)
{
	unsigned long seen = BIT(SDP_CLOSED), back = BIT(SDP_CLOSED), prev;
	unsigned int s, e;

	do {
		prev = seen | back << 16;
		for (s = 0; s < SDP_NSTATES; s++) {
			for (e = 0; e < SDP_NEVENTS; e++) {
				struct sdp_transition t = sdp_state_next(s, e);

				if (!t.valid)
					continue;
				if (seen & BIT(s))
					seen |= BIT(t.next);
				if (back & BIT(t.next))
					back |= BIT(s);
			}
		}
	} while ((seen | back << 16) != prev);
	KUNIT_EXPECT_EQ(test, seen, BIT(SDP_NSTATES) - 1);
	KUNIT_EXPECT_EQ(test, back, BIT(SDP_NSTATES) - 1);
}

static struct kunit_case state_test_cases[] = {
	KUNIT_CASE(state_test_table),
	KUNIT_CASE(state_test_names),
	KUNIT_CASE(state_test_send_recv),
	KUNIT_CASE(state_test_close_one_first),
	KUNIT_CASE(state_test_close_both),
	KUNIT_CASE(state_test_reset_and_refused),
	KUNIT_CASE(state_test_reachable),
	{}
};

static struct kunit_suite state_test_suite = {
	.name = "oib_sdp_state",
	.test_cases = state_test_cases,
};

kunit_test_suite(state_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for oib_sdp's socket state table");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
