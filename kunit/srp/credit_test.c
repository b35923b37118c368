// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of what oib_srp takes of an SRP_CRED_REQ (drivers/infiniband/ulp/srp/srp_tiu.c):
 * its tag and delta; refused for a bad length, another opcode, or a delta that would take the
 * channel's credits beyond SRP_MAX_CREDITS (4096).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <oib/kunit/srp.h>

static void credit_test_taken(struct kunit *test)
{
	u8 iu[sizeof(struct oib_srp_t_iu)];
	u32 delta;
	u64 tag;

	oib_srp_pack_small(iu, OIB_SRP_CRED_REQ, 0x1122334455667788ULL, 7);
	KUNIT_EXPECT_EQ(test, srp_cred_req_check(iu, sizeof(iu), 31, &tag, &delta), 0);
	KUNIT_EXPECT_EQ(test, tag, 0x1122334455667788ULL);	/* opaque: as it came */
	KUNIT_EXPECT_EQ(test, delta, 7);
	/* a longer receive (the IU in a bigger buffer) is fine; the delta's bytes big-endian */
	KUNIT_EXPECT_EQ(test, iu[4], 0);
	KUNIT_EXPECT_EQ(test, iu[7], 7);
	oib_srp_pack_small(iu, OIB_SRP_CRED_REQ, 1, 0);
	KUNIT_EXPECT_EQ(test, srp_cred_req_check(iu, sizeof(iu), 0, &tag, &delta), 0);
	KUNIT_EXPECT_EQ(test, delta, 0);
}

static void credit_test_refused(struct kunit *test)
{
	u8 iu[sizeof(struct oib_srp_t_iu)];
	u32 delta;
	u64 tag;

	oib_srp_pack_small(iu, OIB_SRP_CRED_REQ, 1, 1);
	KUNIT_EXPECT_EQ(test, srp_cred_req_check(iu, 15, 0, &tag, &delta), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, srp_cred_req_check(iu, 0, 0, &tag, &delta), -EMSGSIZE);
	oib_srp_pack_small(iu, OIB_SRP_T_LOGOUT, 1, 1);
	KUNIT_EXPECT_EQ(test, srp_cred_req_check(iu, sizeof(iu), 0, &tag, &delta), -EBADMSG);
	/* the limit: what the channel holds plus the delta */
	oib_srp_pack_small(iu, OIB_SRP_CRED_REQ, 1, 4096);
	KUNIT_EXPECT_EQ(test, srp_cred_req_check(iu, sizeof(iu), 0, &tag, &delta), 0);
	KUNIT_EXPECT_EQ(test, srp_cred_req_check(iu, sizeof(iu), 1, &tag, &delta), -ERANGE);
	oib_srp_pack_small(iu, OIB_SRP_CRED_REQ, 1, 0xffffffff);	/* no wrap-around */
	KUNIT_EXPECT_EQ(test, srp_cred_req_check(iu, sizeof(iu), 31, &tag, &delta), -ERANGE);
}

static struct kunit_case credit_test_cases[] = {
	KUNIT_CASE(credit_test_taken),
	KUNIT_CASE(credit_test_refused),
	{}
};

static struct kunit_suite credit_test_suite = {
	.name = "oib_srp_credit",
	.test_cases = credit_test_cases,
};

kunit_test_suite(credit_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for oib_srp's answer to SRP_CRED_REQ");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
