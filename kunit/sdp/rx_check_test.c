// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of what oib_sdp makes of a received message (drivers/infiniband/ulp/sdp/
 * sdp_rx_check.c): Data, credit updates and DisConn taken where the state takes them and
 * counted by the credits; everything else a reset with its reason; then a seeded fuzz of
 * mutated messages: every one either taken or refused with a reason, and a refused one leaves
 * the credits as they were.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <oib/kunit/sdp.h>
#include "oib_toolkit.h"

#define RXT_BUF	64

struct rxt {
	u8 buf[RXT_BUF];
	size_t len;
	struct sdp_credit c;	/* the receiver's */
	u32 mseq;		/* the sender's next */
};

static void rxt_init(struct rxt *t)
{
	sdp_credit_init(&t->c, 8, 8);
	t->mseq = 1;
}

/* The next message from the peer: @mid with @payload bytes, acknowledging nothing. */
static void rxt_msg(struct rxt *t, u8 mid, u32 payload)
{
	struct oib_sdp_msg m = { .hdr = { .mid = mid, .bufs = 8, .mseq = t->mseq++ },
				 .payload_len = payload, .ext_len = 32 };
	static const u8 bytes[RXT_BUF];

	t->len = oib_sdp_pack_msg(t->buf, &m, bytes);
}

static enum sdp_rx_verdict rxt_classify(struct rxt *t, enum sdp_state state,
					enum sdp_rx_error *why)
{
	struct oib_sdp_msg msg;

	*why = SDP_RXE_NUM;
	return sdp_rx_classify(t->buf, t->len, state, &t->c, &msg, why);
}

static void rx_check_test_taken(struct kunit *test)
{
	enum sdp_rx_error why;
	struct rxt t;

	rxt_init(&t);
	rxt_msg(&t, OIB_SDP_MID_DATA, 10);
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_ESTABLISHED, &why), SDP_RX_DATA);
	KUNIT_EXPECT_EQ(test, t.c.rx_head, 1);
	KUNIT_EXPECT_EQ(test, t.c.rx_posted, 7);
	rxt_msg(&t, OIB_SDP_MID_DATA, 0);
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_ESTABLISHED, &why), SDP_RX_CREDITS);
	rxt_msg(&t, OIB_SDP_MID_DATA, 1);		/* we shut our side: data still comes */
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_FIN_WAIT2, &why), SDP_RX_DATA);
	rxt_msg(&t, OIB_SDP_MID_DISCONN, 0);
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_FIN_WAIT2, &why), SDP_RX_DISCONN);
	/* after the peer's DisConn, only credit updates */
	rxt_msg(&t, OIB_SDP_MID_DATA, 0);
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_TIME_WAIT, &why), SDP_RX_CREDITS);
	KUNIT_EXPECT_EQ(test, t.c.rx_head, 5);
}

static void rx_check_test_state(struct kunit *test)
{
	enum sdp_rx_error why;
	struct rxt t;

	rxt_init(&t);
	rxt_msg(&t, OIB_SDP_MID_DATA, 3);
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_CLOSE_WAIT, &why), SDP_RX_RESET);
	KUNIT_EXPECT_EQ(test, why, SDP_RXE_STATE);
	KUNIT_EXPECT_EQ(test, t.c.rx_head, 0);		/* not taken */
	t.mseq = 1;
	rxt_msg(&t, OIB_SDP_MID_DISCONN, 0);
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_LAST_ACK, &why), SDP_RX_RESET);
	KUNIT_EXPECT_EQ(test, why, SDP_RXE_STATE);
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_SYN_RECV, &why), SDP_RX_RESET);
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_ESTABLISHED, &why), SDP_RX_DISCONN);
}

static void rx_check_test_reasons(struct kunit *test)
{
	enum sdp_rx_error why;
	unsigned int mid;
	struct rxt t;

	rxt_init(&t);
	rxt_msg(&t, OIB_SDP_MID_ABORT_CONN, 0);
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_ESTABLISHED, &why), SDP_RX_RESET);
	KUNIT_EXPECT_EQ(test, why, SDP_RXE_ABORTED);
	for (mid = 0; mid < 256; mid++) {
		if (!oib_sdp_msg_size(mid, 0) || mid == OIB_SDP_MID_DATA ||
		    mid == OIB_SDP_MID_DISCONN || mid == OIB_SDP_MID_ABORT_CONN)
			continue;
		t.mseq = 1;
		rxt_msg(&t, mid, 4);
		KUNIT_EXPECT_EQ_MSG(test, rxt_classify(&t, SDP_ESTABLISHED, &why), SDP_RX_RESET,
				    "%s", oib_sdp_mid_name(mid));
		KUNIT_EXPECT_EQ_MSG(test, why, SDP_RXE_UNSUPPORTED, "%s", oib_sdp_mid_name(mid));
	}
	t.mseq = 1;
	rxt_msg(&t, OIB_SDP_MID_DATA, 4);
	t.len--;
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_ESTABLISHED, &why), SDP_RX_RESET);
	KUNIT_EXPECT_EQ(test, why, SDP_RXE_LENGTH);
	t.len++;
	t.buf[0] = OIB_SDP_MID_HELLO;
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_ESTABLISHED, &why), SDP_RX_RESET);
	KUNIT_EXPECT_EQ(test, why, SDP_RXE_ID);
	t.buf[0] = OIB_SDP_MID_DISCONN;			/* DisConn with a flag */
	t.buf[1] = OIB_SDP_OOB_PEND;
	t.len = 16;
	t.buf[7] = 16;
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_ESTABLISHED, &why), SDP_RX_RESET);
	KUNIT_EXPECT_EQ(test, why, SDP_RXE_FIELD);
	t.mseq = 2;					/* the first one missing */
	rxt_msg(&t, OIB_SDP_MID_DATA, 4);
	KUNIT_EXPECT_EQ(test, rxt_classify(&t, SDP_ESTABLISHED, &why), SDP_RX_RESET);
	KUNIT_EXPECT_EQ(test, why, SDP_RXE_SEQUENCE);
	for (why = 0; why < SDP_RXE_NUM; why++)
		KUNIT_EXPECT_NE(test, sdp_rx_error_name(why)[0], '?');
}

#define RXT_FUZZ_MSGS	1000000

static void rx_check_test_fuzz(struct kunit *test)
{
	unsigned int i, verdicts[SDP_RX_RESET + 1] = {}, reasons[SDP_RXE_NUM] = {};
	struct rnd_state rnd;
	struct rxt t;

	prandom_seed_state(&rnd, 35);
	rxt_init(&t);
	for (i = 0; i < RXT_FUZZ_MSGS; i++) {
		u32 r = prandom_u32_state(&rnd);
		struct sdp_credit before;
		struct oib_sdp_msg msg;
		enum sdp_rx_verdict v;
		enum sdp_rx_error why = SDP_RXE_NUM;

		if (!(i % 4096))
			cond_resched();
		rxt_msg(&t, r & 1 ? OIB_SDP_MID_DATA : r >> 24, (r >> 1) % 32);
		if (r & 2)				/* a byte of the header or extension */
			t.buf[(r >> 8) % 36] ^= (r >> 16) | 1;
		if (r & 4)
			t.len = (r >> 12) % (t.len + 2);
		if (!t.c.rx_posted)
			sdp_credit_posted(&t.c, 8);
		before = t.c;
		v = sdp_rx_classify(t.buf, t.len, SDP_ESTABLISHED, &t.c, &msg, &why);
		verdicts[v]++;
		if (v == SDP_RX_RESET) {
			KUNIT_ASSERT_LT(test, why, SDP_RXE_NUM);
			KUNIT_ASSERT_EQ(test, memcmp(&before, &t.c, sizeof(before)), 0);
			reasons[why]++;
			t.mseq = t.c.rx_head + 1;	/* as if that message had not come */
		} else {
			KUNIT_ASSERT_EQ(test, t.c.rx_head, before.rx_head + 1);
			KUNIT_ASSERT_LE(test, msg.payload_len, RXT_BUF);
			if (v != SDP_RX_DATA)
				sdp_credit_posted(&t.c, 1);
		}
	}
	kunit_info(test, "data %u, credits %u, disconn %u, reset %u",
		   verdicts[SDP_RX_DATA], verdicts[SDP_RX_CREDITS], verdicts[SDP_RX_DISCONN],
		   verdicts[SDP_RX_RESET]);
	for (i = 0; i < SDP_RXE_NUM; i++)
		kunit_info(test, "reset for %s: %u", sdp_rx_error_name(i), reasons[i]);
	KUNIT_EXPECT_GT(test, verdicts[SDP_RX_DATA], 0);
	KUNIT_EXPECT_GT(test, reasons[SDP_RXE_LENGTH], 0);
	KUNIT_EXPECT_GT(test, reasons[SDP_RXE_SEQUENCE], 0);
	oib_test_fuzz_inputs(test, "sdp_messages", RXT_FUZZ_MSGS);
}

static struct kunit_case rx_check_test_cases[] = {
	KUNIT_CASE(rx_check_test_taken),
	KUNIT_CASE(rx_check_test_state),
	KUNIT_CASE(rx_check_test_reasons),
	KUNIT_CASE(rx_check_test_fuzz),
	{}
};

static struct kunit_suite rx_check_test_suite = {
	.name = "oib_sdp_rx_check",
	.test_cases = rx_check_test_cases,
};

kunit_test_suite(rx_check_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of oib_sdp's received-message checks");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
