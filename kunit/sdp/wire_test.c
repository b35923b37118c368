// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the SDP wire (drivers/infiniband/ulp/sdp/sdp_wire.c): field offsets checked
 * against the byte numbers of IBTA vol. 1 Annex A4 (written here from its tables, not from the
 * structs), bytes checked where the annex fixes them, every message packed and parsed back, and
 * bad lengths, IDs, flags and fields refused with the errno include/oib/sdp.h promises.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/stddef.h>
#include <oib/sdp.h>

#define OFF(type, field, byte) \
	KUNIT_EXPECT_EQ_MSG(test, offsetof(struct type, field), (size_t)(byte), #type "." #field)

static void wire_test_offsets(struct kunit *test)
{
	OFF(oib_sdp_bsdh, flags, 1);
	OFF(oib_sdp_bsdh, bufs, 2);
	OFF(oib_sdp_bsdh, len, 4);
	OFF(oib_sdp_bsdh, mseq, 8);
	OFF(oib_sdp_bsdh, mseq_ack, 12);
	OFF(oib_sdp_hh, majv_minv, 16);
	OFF(oib_sdp_hh, ipv_cap, 17);
	OFF(oib_sdp_hh, max_adverts, 19);
	OFF(oib_sdp_hh, desremrcvsz, 20);
	OFF(oib_sdp_hh, localrcvsz, 24);
	OFF(oib_sdp_hh, port, 28);
	OFF(oib_sdp_hh, src_addr, 32);
	OFF(oib_sdp_hh, dst_addr, 48);
	OFF(oib_sdp_hah, majv_minv, 16);
	OFF(oib_sdp_hah, ipv_cap, 17);
	OFF(oib_sdp_hah, ext_max_adverts, 19);
	OFF(oib_sdp_hah, actrcvsz, 20);
	OFF(oib_sdp_srcah, rkey, 4);
	OFF(oib_sdp_srcah, vaddr, 8);
	KUNIT_EXPECT_EQ(test, OIB_SDP_SERVICE_ID(0x1234), 0x11234ULL);
	KUNIT_EXPECT_EQ(test, OIB_SDP_SERVICE_ID(0xffff), 0x1ffffULL);
}

static void wire_test_bsdh_bytes(struct kunit *test)
{
	const struct oib_sdp_hdr in = {
		.mid = OIB_SDP_MID_DATA, .flags = OIB_SDP_OOB_PEND, .bufs = 0x1234,
		.len = 0x01020304, .mseq = 0x0a0b0c0d, .mseq_ack = 0xfffffffe,
	};
	static const u8 want[16] = {
		0xff, 0x02, 0x12, 0x34, 1, 2, 3, 4, 0x0a, 0x0b, 0x0c, 0x0d, 0xff, 0xff, 0xff, 0xfe,
	};
	struct oib_sdp_bsdh b;
	struct oib_sdp_hdr out;

	oib_sdp_pack_bsdh(&b, &in);
	KUNIT_EXPECT_MEMEQ(test, &b, want, sizeof(want));
	oib_sdp_parse_bsdh(&b, &out);
	KUNIT_EXPECT_MEMEQ(test, &in, &out, sizeof(in));
}

static void wire_test_hello_v4(struct kunit *test)
{
	struct oib_sdp_hello in = {
		.hdr = { .bufs = 64 }, .version = OIB_SDP_VERSION, .ip_version = 4,
		.max_adverts = 1, .desremrcvsz = 32768, .localrcvsz = 0x510, .port = 0xabcd,
	}, out;
	u8 buf[sizeof(struct oib_sdp_hh)];

	in.src.s6_addr32[3] = htonl(0x0a000001);
	in.dst.s6_addr32[3] = htonl(0x0a000002);
	oib_sdp_pack_hello(buf, &in);
	KUNIT_EXPECT_EQ(test, buf[0], OIB_SDP_MID_HELLO);
	KUNIT_EXPECT_EQ(test, buf[7], 92);		/* len: the whole Hello */
	KUNIT_EXPECT_EQ(test, buf[16], 0x22);
	KUNIT_EXPECT_EQ(test, buf[17], 0x40);
	KUNIT_EXPECT_EQ(test, buf[28], 0xab);
	KUNIT_EXPECT_EQ(test, buf[29], 0xcd);
	KUNIT_EXPECT_EQ(test, buf[32], 0);		/* IPv4 in the last 4 bytes */
	KUNIT_EXPECT_EQ(test, buf[44], 10);
	KUNIT_EXPECT_EQ(test, buf[47], 1);
	KUNIT_EXPECT_EQ(test, buf[63], 2);
	KUNIT_ASSERT_EQ(test, oib_sdp_parse_hello(buf, sizeof(buf), &out), 0);
	KUNIT_EXPECT_EQ(test, out.hdr.mid, OIB_SDP_MID_HELLO);
	KUNIT_EXPECT_EQ(test, out.hdr.len, 92);
	KUNIT_EXPECT_EQ(test, out.hdr.bufs, 64);
	KUNIT_EXPECT_EQ(test, out.ip_version, 4);
	KUNIT_EXPECT_EQ(test, out.max_adverts, 1);
	KUNIT_EXPECT_EQ(test, out.desremrcvsz, 32768);
	KUNIT_EXPECT_EQ(test, out.localrcvsz, 0x510);
	KUNIT_EXPECT_EQ(test, out.port, 0xabcd);
	KUNIT_EXPECT_MEMEQ(test, &out.src, &in.src, 16);
	KUNIT_EXPECT_MEMEQ(test, &out.dst, &in.dst, 16);
}

static void wire_test_hello_v6(struct kunit *test)
{
	struct oib_sdp_hello in = {
		.version = OIB_SDP_VERSION, .ip_version = 6, .max_adverts = 3, .port = 7,
	}, out;
	u8 buf[sizeof(struct oib_sdp_hh)];

	in.src.s6_addr[0] = 0xfd;
	in.src.s6_addr[15] = 1;
	in.dst.s6_addr[0] = 0xfd;
	in.dst.s6_addr[15] = 2;
	oib_sdp_pack_hello(buf, &in);
	KUNIT_EXPECT_EQ(test, buf[17], 0x60);
	KUNIT_EXPECT_EQ(test, buf[32], 0xfd);
	KUNIT_EXPECT_EQ(test, buf[63], 2);
	KUNIT_ASSERT_EQ(test, oib_sdp_parse_hello(buf, sizeof(buf), &out), 0);
	KUNIT_EXPECT_EQ(test, out.ip_version, 6);
	KUNIT_EXPECT_MEMEQ(test, &out.src, &in.src, 16);
	KUNIT_EXPECT_MEMEQ(test, &out.dst, &in.dst, 16);
}

static void wire_test_hello_refused(struct kunit *test)
{
	struct oib_sdp_hello in = {
		.version = OIB_SDP_VERSION, .ip_version = 4, .max_adverts = 1,
	}, out;
	u8 buf[sizeof(struct oib_sdp_hh)];

	oib_sdp_pack_hello(buf, &in);
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello(buf, 91, &out), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello(NULL, 92, &out), -EMSGSIZE);
	buf[7] = 91;					/* the BSDH's length */
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello(buf, sizeof(buf), &out), -EMSGSIZE);
	buf[7] = 92;
	buf[0] = OIB_SDP_MID_HELLO_ACK;			/* not a Hello */
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello(buf, sizeof(buf), &out), -EBADMSG);
	buf[0] = OIB_SDP_MID_HELLO;
	buf[1] = OIB_SDP_OOB_PRES;			/* no flags on a Hello */
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello(buf, sizeof(buf), &out), -EBADMSG);
	buf[1] = 0;
	buf[16] = 0x12;					/* major version 1 */
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello(buf, sizeof(buf), &out), -EINVAL);
	buf[16] = 0x22;
	buf[17] = 0x50;					/* neither IPv4 nor IPv6 */
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello(buf, sizeof(buf), &out), -EINVAL);
	buf[17] = 0x40;
	buf[19] = 0;					/* max_adverts 0 */
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello(buf, sizeof(buf), &out), -EINVAL);
	buf[19] = 1;
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello(buf, sizeof(buf), &out), 0);
}

static void wire_test_hello_ack(struct kunit *test)
{
	struct oib_sdp_hello_ack in = {
		.hdr = { .bufs = 16 }, .version = OIB_SDP_VERSION, .ip_version = 6,
		.max_adverts = 1, .actrcvsz = 0x10510,
	}, out;
	u8 buf[sizeof(struct oib_sdp_hah)];

	oib_sdp_pack_hello_ack(buf, &in);
	KUNIT_EXPECT_EQ(test, buf[0], OIB_SDP_MID_HELLO_ACK);
	KUNIT_EXPECT_EQ(test, buf[7], 196);
	KUNIT_EXPECT_EQ(test, buf[3], 16);
	KUNIT_EXPECT_EQ(test, buf[21], 0x01);
	KUNIT_EXPECT_EQ(test, buf[23], 0x10);
	KUNIT_ASSERT_EQ(test, oib_sdp_parse_hello_ack(buf, sizeof(buf), &out), 0);
	KUNIT_EXPECT_EQ(test, out.hdr.bufs, 16);
	KUNIT_EXPECT_EQ(test, out.ip_version, 6);
	KUNIT_EXPECT_EQ(test, out.max_adverts, 1);
	KUNIT_EXPECT_EQ(test, out.actrcvsz, 0x10510);
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello_ack(buf, 195, &out), -EMSGSIZE);
	buf[0] = OIB_SDP_MID_HELLO;
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello_ack(buf, sizeof(buf), &out), -EBADMSG);
	buf[0] = OIB_SDP_MID_HELLO_ACK;
	buf[16] = 0x32;
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello_ack(buf, sizeof(buf), &out), -EINVAL);
	in.actrcvsz = 16;				/* no room for a byte */
	oib_sdp_pack_hello_ack(buf, &in);
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_hello_ack(buf, sizeof(buf), &out), -EINVAL);
}

/* The extension's size of each ID the QP carries, from the annex; -1: not on the QP. */
static int wire_test_ext_size(u8 mid)
{
	switch (mid) {
	case 0x02: case 0x03: case 0x04: case 0x05: case 0x07: case 0x08: case 0x09:
	case 0x0a: case 0x0d: case 0x0e: case 0xfd: case 0xff:
		return 0;
	case 0x06: case 0x0b: case 0x0c:
		return 4;
	case 0xfe:
		return 16;
	default:
		return -1;
	}
}

static void wire_test_every_mid(struct kunit *test)
{
	u8 buf[64] = {};
	struct oib_sdp_msg msg;
	unsigned int mid;

	for (mid = 0; mid < 256; mid++) {
		int ext = wire_test_ext_size(mid);
		size_t len = 16 + (ext < 0 ? 0 : ext);

		memset(buf, 0, sizeof(buf));
		buf[0] = mid;
		buf[7] = len;
		if (ext > 0)
			buf[19] = 0x20;		/* the extension's length or size: in range */
		if (ext < 0) {
			KUNIT_EXPECT_EQ_MSG(test, oib_sdp_parse_msg(buf, len, &msg), -EBADMSG,
					    "mid %#x", mid);
			KUNIT_EXPECT_EQ(test, oib_sdp_msg_size(mid, 0), 0);
			continue;
		}
		KUNIT_EXPECT_EQ(test, oib_sdp_msg_size(mid, 0), len);
		KUNIT_EXPECT_EQ_MSG(test, oib_sdp_parse_msg(buf, len, &msg), 0, "mid %#x", mid);
		KUNIT_EXPECT_EQ(test, msg.hdr.mid, mid);
		/* a buffer longer than the BSDH says, or shorter */
		KUNIT_EXPECT_EQ(test, oib_sdp_parse_msg(buf, len + 1, &msg), -EMSGSIZE);
		KUNIT_EXPECT_EQ(test, oib_sdp_parse_msg(buf, len - 1, &msg), -EMSGSIZE);
		KUNIT_EXPECT_NE(test, oib_sdp_mid_name(mid)[0], '?');
	}
	KUNIT_EXPECT_STREQ(test, oib_sdp_mid_name(0x42), "?");
	KUNIT_EXPECT_STREQ(test, oib_sdp_mid_name(OIB_SDP_MID_DISCONN), "DisConn");
}

static void wire_test_data(struct kunit *test)
{
	static const char payload[] = "stream bytes";
	struct oib_sdp_msg in = {
		.hdr = { .mid = OIB_SDP_MID_DATA, .flags = OIB_SDP_OOB_PRES, .bufs = 9,
			 .mseq = 5, .mseq_ack = 4 },
		.payload_len = sizeof(payload),
	}, out;
	u8 buf[64];
	size_t n;

	n = oib_sdp_pack_msg(buf, &in, payload);
	KUNIT_ASSERT_EQ(test, n, 16 + sizeof(payload));
	KUNIT_EXPECT_EQ(test, buf[7], n);
	KUNIT_ASSERT_EQ(test, oib_sdp_parse_msg(buf, n, &out), 0);
	KUNIT_EXPECT_EQ(test, out.hdr.flags, OIB_SDP_OOB_PRES);
	KUNIT_EXPECT_EQ(test, out.hdr.bufs, 9);
	KUNIT_EXPECT_EQ(test, out.hdr.mseq, 5);
	KUNIT_EXPECT_EQ(test, out.hdr.mseq_ack, 4);
	KUNIT_EXPECT_EQ(test, out.payload_len, sizeof(payload));
	KUNIT_EXPECT_PTR_EQ(test, out.payload, (const u8 *)buf + 16);
	KUNIT_EXPECT_MEMEQ(test, out.payload, payload, sizeof(payload));

	/* an empty Data (a credit update) has no payload pointer and no OOB flag */
	in.payload_len = 0;
	in.hdr.flags = 0;
	n = oib_sdp_pack_msg(buf, &in, NULL);
	KUNIT_ASSERT_EQ(test, oib_sdp_parse_msg(buf, n, &out), 0);
	KUNIT_EXPECT_EQ(test, out.payload_len, 0);
	KUNIT_EXPECT_NULL(test, out.payload);
	buf[1] = OIB_SDP_OOB_PRES;
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_msg(buf, n, &out), -EINVAL);
	buf[1] = 0x04;					/* a reserved flag */
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_msg(buf, n, &out), -EBADMSG);
}

static void wire_test_extensions(struct kunit *test)
{
	struct oib_sdp_msg in = {
		.hdr = { .mid = OIB_SDP_MID_SRC_AVAIL }, .ext_len = 0x100000,
		.rkey = 0x11223344, .vaddr = 0x0102030405060708ULL, .payload_len = 4,
	}, out;
	u8 buf[64];
	size_t n;

	n = oib_sdp_pack_msg(buf, &in, "abcd");
	KUNIT_ASSERT_EQ(test, n, 36);
	KUNIT_EXPECT_EQ(test, buf[17], 0x10);		/* len */
	KUNIT_EXPECT_EQ(test, buf[20], 0x11);		/* rkey */
	KUNIT_EXPECT_EQ(test, buf[24], 0x01);		/* vaddr */
	KUNIT_EXPECT_EQ(test, buf[31], 0x08);
	KUNIT_ASSERT_EQ(test, oib_sdp_parse_msg(buf, n, &out), 0);
	KUNIT_EXPECT_EQ(test, out.ext_len, 0x100000);
	KUNIT_EXPECT_EQ(test, out.rkey, 0x11223344);
	KUNIT_EXPECT_EQ(test, out.vaddr, 0x0102030405060708ULL);
	KUNIT_EXPECT_MEMEQ(test, out.payload, "abcd", 4);

	in = (struct oib_sdp_msg){ .hdr = { .mid = OIB_SDP_MID_RDMA_RD_COMPL }, .ext_len = 7 };
	n = oib_sdp_pack_msg(buf, &in, NULL);
	KUNIT_ASSERT_EQ(test, n, 20);
	KUNIT_ASSERT_EQ(test, oib_sdp_parse_msg(buf, n, &out), 0);
	KUNIT_EXPECT_EQ(test, out.ext_len, 7);
	in.ext_len = 0;					/* nothing read */
	n = oib_sdp_pack_msg(buf, &in, NULL);
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_msg(buf, n, &out), -EINVAL);

	in = (struct oib_sdp_msg){ .hdr = { .mid = OIB_SDP_MID_CH_RCVBUF }, .ext_len = 16 };
	n = oib_sdp_pack_msg(buf, &in, NULL);
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_msg(buf, n, &out), -EINVAL);
	in.ext_len = 17;
	n = oib_sdp_pack_msg(buf, &in, NULL);
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_msg(buf, n, &out), 0);

	/* a control message carries nothing, and no flag */
	in = (struct oib_sdp_msg){ .hdr = { .mid = OIB_SDP_MID_DISCONN }, .payload_len = 5 };
	n = oib_sdp_pack_msg(buf, &in, "xxxxx");
	KUNIT_EXPECT_EQ(test, n, 16);
	buf[1] = OIB_SDP_OOB_PEND;
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_msg(buf, n, &out), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_msg(buf, 15, &out), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, oib_sdp_parse_msg(NULL, 16, &out), -EMSGSIZE);
}

static struct kunit_case wire_test_cases[] = {
	KUNIT_CASE(wire_test_offsets),
	KUNIT_CASE(wire_test_bsdh_bytes),
	KUNIT_CASE(wire_test_hello_v4),
	KUNIT_CASE(wire_test_hello_v6),
	KUNIT_CASE(wire_test_hello_refused),
	KUNIT_CASE(wire_test_hello_ack),
	KUNIT_CASE(wire_test_every_mid),
	KUNIT_CASE(wire_test_data),
	KUNIT_CASE(wire_test_extensions),
	{}
};

static struct kunit_suite wire_test_suite = {
	.name = "oib_sdp_wire",
	.test_cases = wire_test_cases,
};

kunit_test_suite(wire_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the SDP wire of oib_sdp");
