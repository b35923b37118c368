// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for oib_sdp's buffered-copy credits (drivers/infiniband/ulp/sdp/sdp_credit.c): the
 * formula on a received BSDH, what each kind of message needs, when a credit update is due, the
 * BSDHs refused; then two ends over a simulated wire, both sending as fast as credits allow while
 * their owners do not read: no message ever arrives without a posted buffer, and once the owners
 * read, everything sent arrives and both can send again (no deadlock with both sides full).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <oib/kunit/sdp.h>

static void credit_test_formula(struct kunit *test)
{
	struct sdp_credit c;
	struct oib_sdp_hdr h = {};
	int i;

	sdp_credit_init(&c, 8, 4);
	KUNIT_EXPECT_EQ(test, c.tx_credits, 8);
	for (i = 0; i < 5; i++)
		sdp_credit_tx(&c, &h);
	KUNIT_EXPECT_EQ(test, h.mseq, 5);
	KUNIT_EXPECT_EQ(test, h.mseq_ack, 0);
	KUNIT_EXPECT_EQ(test, h.bufs, 4);
	KUNIT_EXPECT_EQ(test, c.tx_credits, 3);
	/* the peer got our 1..2, posted 6 buffers: 3..5 are on their way into them */
	h = (struct oib_sdp_hdr){ .mseq = 1, .mseq_ack = 2, .bufs = 6 };
	KUNIT_ASSERT_EQ(test, sdp_credit_rx(&c, &h), 0);
	KUNIT_EXPECT_EQ(test, c.tx_credits, 3);
	KUNIT_EXPECT_EQ(test, c.rx_posted, 3);
	/* then all of them, and it posted again */
	h = (struct oib_sdp_hdr){ .mseq = 2, .mseq_ack = 5, .bufs = 10 };
	KUNIT_ASSERT_EQ(test, sdp_credit_rx(&c, &h), 0);
	KUNIT_EXPECT_EQ(test, c.tx_credits, 10);
	sdp_credit_tx(&c, &h);
	KUNIT_EXPECT_EQ(test, h.mseq, 6);
	KUNIT_EXPECT_EQ(test, h.mseq_ack, 2);
	KUNIT_EXPECT_EQ(test, h.bufs, 2);
}

static void credit_test_refused(struct kunit *test)
{
	struct sdp_credit c;
	struct oib_sdp_hdr h = {};

	sdp_credit_init(&c, 4, 2);
	sdp_credit_tx(&c, &h);
	sdp_credit_tx(&c, &h);				/* our 1 and 2 sent */
	h = (struct oib_sdp_hdr){ .mseq = 2, .mseq_ack = 0, .bufs = 4 };
	KUNIT_EXPECT_EQ(test, sdp_credit_rx(&c, &h), -EPROTO);	/* out of order */
	h = (struct oib_sdp_hdr){ .mseq = 1, .mseq_ack = 3, .bufs = 4 };
	KUNIT_EXPECT_EQ(test, sdp_credit_rx(&c, &h), -EPROTO);	/* acks what we never sent */
	h = (struct oib_sdp_hdr){ .mseq = 1, .mseq_ack = 0, .bufs = 1 };
	KUNIT_EXPECT_EQ(test, sdp_credit_rx(&c, &h), -EPROTO);	/* fewer buffers than in flight */
	h = (struct oib_sdp_hdr){ .mseq = 1, .mseq_ack = 2, .bufs = 1 };
	KUNIT_EXPECT_EQ(test, sdp_credit_rx(&c, &h), 0);
	h = (struct oib_sdp_hdr){ .mseq = 2, .mseq_ack = 1, .bufs = 1 };
	KUNIT_EXPECT_EQ(test, sdp_credit_rx(&c, &h), -EPROTO);	/* the ack went backwards */
	h = (struct oib_sdp_hdr){ .mseq = 2, .mseq_ack = 2, .bufs = 1 };
	KUNIT_EXPECT_EQ(test, sdp_credit_rx(&c, &h), 0);
	h = (struct oib_sdp_hdr){ .mseq = 3, .mseq_ack = 2, .bufs = 1 };
	KUNIT_EXPECT_EQ(test, sdp_credit_rx(&c, &h), -EPROTO);	/* no buffer was posted */
}

static void credit_test_kinds(struct kunit *test)
{
	struct sdp_credit c;

	sdp_credit_init(&c, 3, 4);
	KUNIT_EXPECT_TRUE(test, sdp_credit_may_send(&c, SDP_TX_DATA));
	c.tx_credits = 2;
	KUNIT_EXPECT_FALSE(test, sdp_credit_may_send(&c, SDP_TX_DATA));
	KUNIT_EXPECT_TRUE(test, sdp_credit_may_send(&c, SDP_TX_CONTROL));
	c.tx_credits = 1;
	KUNIT_EXPECT_FALSE(test, sdp_credit_may_send(&c, SDP_TX_CONTROL));
	/* the last credit: only for a message that grants credits */
	KUNIT_EXPECT_FALSE(test, sdp_credit_may_send(&c, SDP_TX_UPDATE));
	sdp_credit_posted(&c, 1);
	KUNIT_EXPECT_TRUE(test, sdp_credit_may_send(&c, SDP_TX_UPDATE));
	c.tx_credits = 0;
	KUNIT_EXPECT_FALSE(test, sdp_credit_may_send(&c, SDP_TX_UPDATE));
}

static void credit_test_update_due(struct kunit *test)
{
	struct sdp_credit c;
	struct oib_sdp_hdr h;

	sdp_credit_init(&c, 8, 6);
	KUNIT_EXPECT_FALSE(test, sdp_credit_update_due(&c));
	c.remote_credits = 4;				/* 4 of 6: two thirds */
	KUNIT_EXPECT_FALSE(test, sdp_credit_update_due(&c));
	c.remote_credits = 3;
	KUNIT_EXPECT_TRUE(test, sdp_credit_update_due(&c));
	sdp_credit_tx(&c, &h);				/* any message tells the peer */
	KUNIT_EXPECT_FALSE(test, sdp_credit_update_due(&c));
	c.rx_posted = 0;
	c.remote_credits = 0;
	KUNIT_EXPECT_FALSE(test, sdp_credit_update_due(&c));
	/* two buffers could take no data: no update, or they would ping-pong */
	c.rx_posted = 2;
	c.remote_credits = 1;
	KUNIT_EXPECT_FALSE(test, sdp_credit_update_due(&c));
	c.rx_posted = 3;
	KUNIT_EXPECT_TRUE(test, sdp_credit_update_due(&c));
}

/* The simulated pair: each end's credits, its wire to the other, and its owner's unread data. */
#define SIM_RING	16
#define SIM_WIRE	64

struct sim_end {
	struct sdp_credit c;
	struct oib_sdp_hdr wire[SIM_WIRE];	/* in flight to the other end */
	bool wire_data[SIM_WIRE];
	unsigned int wire_head, wire_tail;
	unsigned int held;			/* buffers holding unread data */
	unsigned long sent, received;		/* data messages */
};

static void sim_send(struct kunit *test, struct sim_end *e, bool data)
{
	unsigned int i = e->wire_tail++ % SIM_WIRE;

	KUNIT_ASSERT_LT(test, e->wire_tail - e->wire_head, SIM_WIRE + 1);
	sdp_credit_tx(&e->c, &e->wire[i]);
	e->wire_data[i] = data;
	e->sent += data;
}

/* What an end's transmitter does when it gets a turn; true if it sent. */
static bool sim_tx(struct kunit *test, struct sim_end *e, bool want_data)
{
	if (sdp_credit_update_due(&e->c) && sdp_credit_may_send(&e->c, SDP_TX_UPDATE)) {
		sim_send(test, e, false);
		return true;
	}
	if (want_data && sdp_credit_may_send(&e->c, SDP_TX_DATA)) {
		sim_send(test, e, true);
		return true;
	}
	return false;
}

/* Deliver @from's oldest message to @to; false if none is in flight. */
static bool sim_deliver(struct kunit *test, struct sim_end *from, struct sim_end *to)
{
	unsigned int i = from->wire_head % SIM_WIRE;

	if (from->wire_head == from->wire_tail)
		return false;
	from->wire_head++;
	KUNIT_ASSERT_GT_MSG(test, to->c.rx_posted, 0, "a message without a posted buffer");
	KUNIT_ASSERT_EQ(test, sdp_credit_rx(&to->c, &from->wire[i]), 0);
	if (from->wire_data[i]) {
		to->held++;
		to->received++;
	} else {
		sdp_credit_posted(&to->c, 1);		/* nothing to keep: posted again */
	}
	return true;
}

static void sim_read(struct sim_end *e)
{
	if (e->held) {
		e->held--;
		sdp_credit_posted(&e->c, 1);
	}
}

/* One random step of end r & 1 of @ends: its transmitter, its wire, or its owner reading. */
static bool sim_step(struct kunit *test, struct sim_end *ends, u32 r, bool read)
{
	struct sim_end *e = &ends[r & 1], *peer = &ends[!(r & 1)];

	switch ((r >> 1) % 3) {
	case 0:
		return sim_tx(test, e, true);
	case 1:
		return sim_deliver(test, e, peer);
	default:
		if (read && e->held) {
			sim_read(e);
			return true;
		}
		return false;
	}
}

static void credit_test_full_both_ways(struct kunit *test)
{
	struct sim_end *ends = kunit_kzalloc(test, 2 * sizeof(*ends), GFP_KERNEL);
	struct rnd_state rnd;
	unsigned long before[2];
	unsigned int i, idle;

	KUNIT_ASSERT_NOT_NULL(test, ends);
	prandom_seed_state(&rnd, 35);
	sdp_credit_init(&ends[0].c, SIM_RING, SIM_RING);
	sdp_credit_init(&ends[1].c, SIM_RING, SIM_RING);

	/* both send, nobody reads: until nothing moves */
	for (i = 0, idle = 0; i < 100000 && idle < 1000; i++) {
		idle = sim_step(test, ends, prandom_u32_state(&rnd), false) ? 0 : idle + 1;
		if (test->status == KUNIT_FAILURE)
			return;
	}
	KUNIT_ASSERT_EQ_MSG(test, idle, 1000, "credit updates never stop");
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, ends[i].wire_head, ends[i].wire_tail);
		KUNIT_EXPECT_EQ(test, ends[i ^ 1].received, ends[i].sent);
		KUNIT_EXPECT_LE(test, ends[i].held, SIM_RING);
		KUNIT_EXPECT_FALSE(test, sdp_credit_may_send(&ends[i].c, SDP_TX_DATA));
		before[i] = ends[i].sent;
	}
	kunit_info(test, "full: %lu and %lu messages of data", ends[0].sent, ends[1].sent);

	/* the owners read: the updates must let both send again, far beyond one ring */
	for (i = 0; i < 200000 && (ends[0].sent < before[0] + 10 * SIM_RING ||
				   ends[1].sent < before[1] + 10 * SIM_RING); i++) {
		sim_step(test, ends, prandom_u32_state(&rnd), true);
		if (test->status == KUNIT_FAILURE)
			return;
	}
	KUNIT_EXPECT_GE(test, ends[0].sent, before[0] + 10 * SIM_RING);
	KUNIT_EXPECT_GE(test, ends[1].sent, before[1] + 10 * SIM_RING);
}

static struct kunit_case credit_test_cases[] = {
	KUNIT_CASE(credit_test_formula),
	KUNIT_CASE(credit_test_refused),
	KUNIT_CASE(credit_test_kinds),
	KUNIT_CASE(credit_test_update_due),
	KUNIT_CASE(credit_test_full_both_ways),
	{}
};

static struct kunit_suite credit_test_suite = {
	.name = "oib_sdp_credit",
	.test_cases = credit_test_cases,
};

kunit_test_suite(credit_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for oib_sdp's buffered-copy credits");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
