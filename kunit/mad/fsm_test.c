// SPDX-License-Identifier: GPL-2.0-only
/*
 * The send MAD state table (drivers/infiniband/mad/mad_fsm.c) against the drawing in
 * Documentation/mad.md, encoded here on its own: a list of (from, event, to) edges, in the order
 * the drawing tells them.  Every (state, event) pair the list does not name must be refused.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <oib/kunit/mad.h>

struct fsmt_edge {
	enum mad_state from;
	enum mad_event event;
	enum mad_state to;
};

#define E(from, event, to)	{ MAD_##from, MAD_EV_##event, MAD_##to }

static const struct fsmt_edge fsmt_edges[] = {
	/* every send */
	E(IDLE, POST, QUEUED),
	E(QUEUED, WR_POSTED, POSTED),
	E(POSTED, SENT_DONE, DONE),
	E(POSTED, SENT_WAIT, WAIT_RESP),
	E(QUEUED, CANCEL, DONE),
	E(QUEUED, RESP, DONE),			/* a late response to an earlier try */
	E(WAIT_RESP, RETRY, QUEUED),
	E(WAIT_RESP, RESP, DONE),
	E(WAIT_RESP, TIMEOUT, DONE),
	E(WAIT_RESP, CANCEL, DONE),
	E(POSTED, RESP, RESP_EARLY),
	E(RESP_EARLY, SENT_WAIT, DONE),
	E(RESP_EARLY, SENT_DONE, DONE),
	E(RESP_EARLY, CANCEL, CANCELLED),
	E(POSTED, CANCEL, CANCELLED),
	E(CANCELLED, SENT_WAIT, DONE),
	E(CANCELLED, SENT_DONE, DONE),
	/* a work request completing in error */
	E(POSTED, SEND_ERR, DONE),
	E(RESP_EARLY, SEND_ERR, DONE),
	E(CANCELLED, SEND_ERR, DONE),
	/* RMPP sends */
	E(POSTED, SENT_MORE, QUEUED),
	E(POSTED, SENT_ACK, WAIT_ACK),
	E(WAIT_ACK, ACK_MORE, QUEUED),
	E(WAIT_ACK, RETRY, QUEUED),
	E(WAIT_ACK, ACKED_WAIT, WAIT_RESP),
	E(WAIT_ACK, ACKED_DONE, DONE),
	E(QUEUED, ACKED_WAIT, WAIT_RESP),
	E(QUEUED, ACKED_DONE, DONE),
	E(WAIT_ACK, CANCEL, DONE),
	E(WAIT_ACK, TIMEOUT, DONE),
	E(WAIT_ACK, RESP, DONE),		/* the response before the last ACK */
	/* ACKs that leave the state as it is (on the QP, the train's completion decides) */
	E(QUEUED, ACK, QUEUED),
	E(QUEUED, ACK_MORE, QUEUED),
	E(WAIT_ACK, ACK, WAIT_ACK),
	E(POSTED, ACK, POSTED),
	E(POSTED, ACK_MORE, POSTED),
	E(POSTED, ACKED_WAIT, POSTED),
	E(POSTED, ACKED_DONE, POSTED),
};

#undef E

/* The edge for (@from, @event), or NULL. */
static const struct fsmt_edge *fsmt_find(enum mad_state from, enum mad_event event)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fsmt_edges); i++)
		if (fsmt_edges[i].from == from && fsmt_edges[i].event == event)
			return &fsmt_edges[i];
	return NULL;
}

/* The list itself: in range, and no pair named twice. */
static void mad_fsm_list_sane(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fsmt_edges); i++) {
		const struct fsmt_edge *e = &fsmt_edges[i];

		KUNIT_EXPECT_LT(test, e->from, MAD_NSTATES);
		KUNIT_EXPECT_LT(test, e->event, MAD_NEVENTS);
		KUNIT_EXPECT_LT(test, e->to, MAD_NSTATES);
		KUNIT_EXPECT_PTR_EQ_MSG(test, fsmt_find(e->from, e->event), e,
					"edge %u: (%d, %d) named twice", i, e->from, e->event);
	}
}

/* Every (state, event) pair: the listed edge, or refused. */
static void mad_fsm_table_matches(struct kunit *test)
{
	const struct fsmt_edge *e;
	unsigned int from, event, valid = 0;
	int to;

	for (from = 0; from < MAD_NSTATES; from++) {
		for (event = 0; event < MAD_NEVENTS; event++) {
			e = fsmt_find(from, event);
			to = oib_mad_fsm_next(from, event);
			if (e) {
				KUNIT_EXPECT_EQ_MSG(test, to, (int)e->to, "state %u, event %u",
						    from, event);
				valid++;
			} else {
				KUNIT_EXPECT_EQ_MSG(test, to, -EINVAL, "state %u, event %u",
						    from, event);
			}
		}
	}
	KUNIT_EXPECT_EQ(test, valid, (unsigned int)ARRAY_SIZE(fsmt_edges));
}

/* Nothing leaves DONE, and a state or event out of range is refused, not read. */
static void mad_fsm_edges_of_the_table(struct kunit *test)
{
	unsigned int event;

	for (event = 0; event < MAD_NEVENTS; event++)
		KUNIT_EXPECT_EQ(test, oib_mad_fsm_next(MAD_DONE, event), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_mad_fsm_next(MAD_NSTATES, MAD_EV_POST), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_mad_fsm_next(MAD_IDLE, MAD_NEVENTS), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_mad_fsm_next((enum mad_state)-1, MAD_EV_POST), -EINVAL);
}

static struct kunit_case oib_mad_fsm_cases[] = {
	KUNIT_CASE(mad_fsm_list_sane),
	KUNIT_CASE(mad_fsm_table_matches),
	KUNIT_CASE(mad_fsm_edges_of_the_table),
	{}
};

static struct kunit_suite oib_mad_fsm_suite = {
	.name = "oib_mad_fsm",
	.test_cases = oib_mad_fsm_cases,
};

kunit_test_suite(oib_mad_fsm_suite);

MODULE_DESCRIPTION("KUnit test of the oib MAD layer's send MAD state table");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
