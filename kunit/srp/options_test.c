// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of what oib_srp's add_target takes (drivers/infiniband/ulp/srp/srp_options.c):
 * ours, "ADDRESS PORT", and the in-tree ib_srp's grammar where it applies (id_ext, ioc_guid,
 * dest, max_it_iu_size): the target port ID id_ext first, both big-endian; IPv4 and bracketed
 * IPv6 destinations; the IU cap; everything else refused.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <oib/kunit/srp.h>

static void options_test_ours(struct kunit *test)
{
	struct srp_target_spec s;
	struct sockaddr_in *sin = (struct sockaddr_in *)&s.dst;

	KUNIT_ASSERT_EQ(test, srp_target_parse("10.11.0.2 5600\n", &s), 0);
	KUNIT_EXPECT_EQ(test, sin->sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 5600);
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr), 0x0a0b0002);
	KUNIT_EXPECT_MEMEQ(test, s.port_id, "oib_srpt\0\0\0\0\0\0\0", 16);
	KUNIT_EXPECT_EQ(test, s.it_iu_len, 8244);	/* 8 KiB of immediate data at 52 */
	KUNIT_EXPECT_EQ(test, srp_target_parse("10.11.0.2", &s), -EINVAL);
}

static void options_test_intree(struct kunit *test)
{
	static const u8 id[16] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
				   0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 };
	static const char line[] =
		"id_ext=0011223344556677,ioc_guid=0x0102030405060708,dest=10.11.0.2:5600\n";
	struct srp_target_spec s;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&s.dst;
	struct sockaddr_in *sin = (struct sockaddr_in *)&s.dst;

	KUNIT_ASSERT_EQ(test, srp_target_parse(line, &s), 0);
	KUNIT_EXPECT_MEMEQ(test, s.port_id, id, 16);
	KUNIT_EXPECT_EQ(test, sin->sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 5600);
	KUNIT_EXPECT_EQ(test, s.it_iu_len, 8244);	/* 8 KiB of immediate data at 52 */

	KUNIT_ASSERT_EQ(test, srp_target_parse("dest=[fd11::2]:5601,max_it_iu_size=600", &s), 0);
	KUNIT_EXPECT_EQ(test, sin6->sin6_family, AF_INET6);
	KUNIT_EXPECT_EQ(test, ntohs(sin6->sin6_port), 5601);
	KUNIT_EXPECT_EQ(test, sin6->sin6_addr.s6_addr[15], 2);
	KUNIT_EXPECT_MEMEQ(test, s.port_id, "oib_srpt\0\0\0\0\0\0\0", 16);	/* no IDs */
	KUNIT_EXPECT_EQ(test, s.it_iu_len, 600);
	KUNIT_EXPECT_EQ(test, s.ch_count, 0);	/* the module parameter's */
	KUNIT_ASSERT_EQ(test, srp_target_parse("dest=10.0.0.1:1,max_it_iu_size=8260,ch_count=2",
					       &s), 0);
	KUNIT_EXPECT_EQ(test, s.it_iu_len, 8244);	/* a cap: we send no more than 8244 */
	KUNIT_EXPECT_EQ(test, s.ch_count, 2);
	KUNIT_EXPECT_EQ(test, srp_target_parse("dest=10.0.0.1:1,ch_count=0", &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, srp_target_parse("dest=10.0.0.1:1,ch_count=17", &s), -EINVAL);

	KUNIT_EXPECT_EQ(test, srp_target_parse("id_ext=1,ioc_guid=2", &s), -EINVAL); /* no dest */
	KUNIT_EXPECT_EQ(test, srp_target_parse("id_ext=1,dest=10.0.0.1:1", &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, srp_target_parse("ioc_guid=2,dest=10.0.0.1:1", &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, srp_target_parse("id_ext=xyz,ioc_guid=2,dest=10.0.0.1:1", &s),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, srp_target_parse("dest=10.0.0.1", &s), -EINVAL);	/* no port */
	KUNIT_EXPECT_EQ(test, srp_target_parse("dest=fd11::2:5600", &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, srp_target_parse("dest=[fd11::2]", &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, srp_target_parse("dest=10.0.0.1:1,max_it_iu_size=100", &s),
			-EINVAL);	/* 32 descriptors do not fit */
	KUNIT_EXPECT_EQ(test, srp_target_parse("dest=10.0.0.1:1,pkey=ffff", &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, srp_target_parse("dest=10.0.0.1:1,queue_size", &s), -EINVAL);
}

static struct kunit_case options_test_cases[] = {
	KUNIT_CASE(options_test_ours),
	KUNIT_CASE(options_test_intree),
	{}
};

static struct kunit_suite options_test_suite = {
	.name = "oib_srp_options",
	.test_cases = options_test_cases,
};

kunit_test_suite(options_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of oib_srp's add_target grammar");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
