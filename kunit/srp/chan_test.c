// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of oib_srp's multichannel rules (drivers/infiniband/ulp/srp/srp_conn.c): how many
 * channels a host opens, and which LOGIN_RSP a channel's login takes: channel 0 logs in SINGLE
 * (the target may say it ended older channels of the port, never that it kept them), the others
 * MULTI (the target must say it kept the host's channels); sizes and credits as before.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <oib/kunit/srp.h>

static void chan_test_count(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, srp_ch_count_pick(4, 2, 2), 2);	/* the guest: 2 CPUs, 2 vectors */
	KUNIT_EXPECT_EQ(test, srp_ch_count_pick(4, 8, 8), 4);	/* as many as asked for */
	KUNIT_EXPECT_EQ(test, srp_ch_count_pick(4, 1, 8), 1);	/* one completion vector (siw) */
	KUNIT_EXPECT_EQ(test, srp_ch_count_pick(8, 8, 3), 3);	/* CPUs online */
	KUNIT_EXPECT_EQ(test, srp_ch_count_pick(1, 8, 8), 1);
	KUNIT_EXPECT_EQ(test, srp_ch_count_pick(0, 0, 0), 1);	/* one at least */
	KUNIT_EXPECT_EQ(test, srp_ch_count_pick(64, 64, 64), 16);	/* SRP_MAX_CH at most */
}

static struct oib_srp_login_answer chan_rsp(u8 result)
{
	return (struct oib_srp_login_answer){
		.req_lim_delta = 32, .max_it_iu_len = 1024, .max_ti_iu_len = 256,
		.buf_fmt = OIB_SRP_BUF_FMT_DIRECT | OIB_SRP_BUF_FMT_INDIRECT, .flags = result,
	};
}

static void chan_test_login_flags(struct kunit *test)
{
	struct oib_srp_login_answer a;
	const u8 single = OIB_SRP_MULTICHAN_SINGLE, multi = OIB_SRP_MULTICHAN_MULTI;

	a = chan_rsp(OIB_SRP_LOGIN_RSP_MULTICHAN_NO_CHAN);
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(single, 1024, &a), 0);
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(multi, 1024, &a), -EPROTO);
	a = chan_rsp(OIB_SRP_LOGIN_RSP_MULTICHAN_TERMINATED);
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(single, 1024, &a), 0);
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(multi, 1024, &a), -EPROTO);
	a = chan_rsp(OIB_SRP_LOGIN_RSP_MULTICHAN_MAINTAINED);
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(single, 1024, &a), -EPROTO);
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(multi, 1024, &a), 0);
	a = chan_rsp(3);	/* reserved */
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(single, 1024, &a), -EPROTO);
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(multi, 1024, &a), -EPROTO);
	/* the bits above the multichannel result are not it */
	a = chan_rsp(0xfc | OIB_SRP_LOGIN_RSP_MULTICHAN_MAINTAINED);
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(multi, 1024, &a), 0);
}

static void chan_test_login_limits(struct kunit *test)
{
	struct oib_srp_login_answer a = chan_rsp(0);

	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(0, 1024, &a), 0);
	a.req_lim_delta = 1;	/* a command and task management need 2 */
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(0, 1024, &a), -EPROTO);
	a = chan_rsp(0);
	a.max_ti_iu_len = 8244;	/* LIO's ib_srpt answers with the IU length we asked for */
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(0, 1024, &a), 0);
	a.max_ti_iu_len = 8245;	/* beyond our receives */
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(0, 1024, &a), -EPROTO);
	a = chan_rsp(0);
	a.max_it_iu_len = 1023;	/* our commands do not fit */
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(0, 1024, &a), -EPROTO);
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(0, 1023, &a), 0);	/* a host that asked less */
	a = chan_rsp(0);
	a.buf_fmt = OIB_SRP_BUF_FMT_DIRECT;
	KUNIT_EXPECT_EQ(test, srp_login_rsp_check(0, 1024, &a), -EPROTO);
}

static struct kunit_case chan_test_cases[] = {
	KUNIT_CASE(chan_test_count),
	KUNIT_CASE(chan_test_login_flags),
	KUNIT_CASE(chan_test_login_limits),
	{}
};

static struct kunit_suite chan_test_suite = {
	.name = "oib_srp_chan",
	.test_cases = chan_test_cases,
};

kunit_test_suite(chan_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for oib_srp's multichannel login rules");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
