// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit checks of oib_uverbs's mapped rings, driven from the kernel side: the commands run on a
 * context without a file and the test writes the ring through the kernel's own mapping, as a
 * process would through its mapping.  Bad producer indices and bad entries are refused with
 * nothing posted and the consumer index where it was; a mapped CQ refuses POLL_CQ; the create
 * commands check their ring fields.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <oib/kunit/uverbs.h>
#include "oib_toolkit.h"

struct uv_ring {
	struct oib_uverbs_file *ufile;
	u32 pd, cq, qp;
	struct oib_uverbs_ring sq;		/* where the QP's ring is */
	struct oib_uverbs_ring_hdr *hdr;	/* its kernel mapping */
};

static void uv_close(void *ufile)
{
	oib_uverbs_test_close(ufile);
}

/* A context with a PD, a mapped CQ and an RC QP with a mapped send queue (in RESET). */
static struct uv_ring *uv_ring_setup(struct kunit *test)
{
	struct uv_ring *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct oib_uverbs_create_cq cq = { .cqe = 16, .channel_fd = -1,
					   .ring_flags = OIB_UVERBS_CREATE_MAPPED };
	struct oib_uverbs_alloc_pd pd = { 0 };
	struct oib_uverbs_create_qp qp = {
		.qp_type = OIB_UVERBS_QPT_RC, .ring_flags = OIB_UVERBS_CREATE_MAPPED,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 2, .max_recv_sge = 1 },
	};

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->ufile = oib_uverbs_test_open(oib_test_rxe_ports(test, 1));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r->ufile);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, uv_close, r->ufile));
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_ALLOC_PD, &pd), 0);
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_CQ, &cq), 0);
	qp.pd_handle = pd.handle;
	qp.send_cq_handle = cq.handle;
	qp.recv_cq_handle = cq.handle;
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_QP, &qp), 0);
	r->pd = pd.handle;
	r->cq = cq.handle;
	r->qp = qp.handle;
	r->sq = qp.sq;
	r->hdr = oib_uverbs_test_ring(r->ufile, qp.sq.offset);
	KUNIT_ASSERT_NOT_NULL(test, r->hdr);
	/* the CQ's ring: a power of two no smaller than the CQ, struct oib_uverbs_wc entries */
	KUNIT_EXPECT_GE(test, cq.ring.entries, cq.cqe);
	KUNIT_EXPECT_TRUE(test, is_power_of_2(cq.ring.entries));
	KUNIT_EXPECT_EQ(test, cq.ring.stride, sizeof(struct oib_uverbs_wc));
	KUNIT_EXPECT_NE(test, cq.ring.offset, qp.sq.offset);
	KUNIT_EXPECT_TRUE(test, PAGE_ALIGNED(cq.ring.offset) && cq.ring.offset);
	return r;
}

static int uv_doorbell(struct uv_ring *r, struct oib_uverbs_doorbell *db)
{
	*db = (struct oib_uverbs_doorbell){ .handle = r->qp };
	return oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_DOORBELL, db);
}

static struct oib_uverbs_send_wr *uv_entry(struct uv_ring *r, u32 index)
{
	return (void *)r->hdr + sizeof(*r->hdr) + (index & (r->sq.entries - 1)) * r->sq.stride;
}

/* Beyond the ring, behind the consumer, huge: -EINVAL, nothing consumed. */
static void ring_bad_producer(struct kunit *test)
{
	struct uv_ring *r = uv_ring_setup(test);
	u32 bad[] = { r->sq.entries + 1, U32_MAX, 0x80000000u, 0x7fffffffu };
	struct oib_uverbs_doorbell db;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, r->sq.entries, 8);
	KUNIT_EXPECT_EQ(test, r->sq.stride, sizeof(struct oib_uverbs_send_wr) + 2 * 16);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		WRITE_ONCE(r->hdr->producer, bad[i]);
		KUNIT_EXPECT_EQ(test, uv_doorbell(r, &db), -EINVAL);
		KUNIT_EXPECT_EQ(test, db.posted, 0);
		KUNIT_EXPECT_EQ(test, db.bad_wr, 0);
		KUNIT_EXPECT_EQ(test, READ_ONCE(r->hdr->consumer), 0);
	}
	WRITE_ONCE(r->hdr->producer, 0);
	KUNIT_EXPECT_EQ(test, uv_doorbell(r, &db), 0);
	KUNIT_EXPECT_EQ(test, db.posted, 0);
}

/* Entries POST_SEND would refuse (a u32 at an offset of the entry). */
#define UV_WR sizeof(struct oib_uverbs_send_wr)
static const struct uv_spoil {
	const char *what;
	size_t off;
	u32 val;
} uv_spoils[] = {
	{ "opcode", offsetof(struct oib_uverbs_send_wr, opcode), 99 },
	{ "num_sge > max_send_sge", offsetof(struct oib_uverbs_send_wr, num_sge), 3 },
	{ "num_sge huge", offsetof(struct oib_uverbs_send_wr, num_sge), U32_MAX },
	{ "sg_list", offsetof(struct oib_uverbs_send_wr, sg_list), 0x1000 },
	{ "imm_data on SEND", offsetof(struct oib_uverbs_send_wr, imm_data), 1 },
	{ "send_flags", offsetof(struct oib_uverbs_send_wr, send_flags), 1u << 9 },
	{ "ah_handle on RC", offsetof(struct oib_uverbs_send_wr, ah_handle), 1 },
	{ "lkey of no MR", UV_WR + offsetof(struct oib_uverbs_sge, lkey), 0x5a5a5a },
};

/* Each is refused before anything reaches the provider: nothing consumed. */
static void ring_bad_wqe(struct kunit *test)
{
	struct uv_ring *r = uv_ring_setup(test);
	struct oib_uverbs_doorbell db;
	struct oib_uverbs_send_wr *e = uv_entry(r, 0);
	struct oib_uverbs_sge *sge = (void *)(e + 1);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(uv_spoils); i++) {
		*e = (struct oib_uverbs_send_wr){ .opcode = OIB_UVERBS_WR_SEND, .num_sge = 1 };
		*sge = (struct oib_uverbs_sge){ .addr = 0x1000, .length = 8 };
		memcpy((void *)e + uv_spoils[i].off, &uv_spoils[i].val, sizeof(u32));
		WRITE_ONCE(r->hdr->producer, 1);
		KUNIT_EXPECT_EQ_MSG(test, uv_doorbell(r, &db), -EINVAL, "%s", uv_spoils[i].what);
		KUNIT_EXPECT_EQ(test, db.posted, 0);
		KUNIT_EXPECT_EQ(test, db.bad_wr, 0);
		KUNIT_EXPECT_EQ(test, READ_ONCE(r->hdr->consumer), 0);
	}
}

/* POLL_CQ on a mapped CQ, DOORBELL on a QP without a ring, ring fields in creates. */
static void ring_commands(struct kunit *test)
{
	struct uv_ring *r = uv_ring_setup(test);
	struct oib_uverbs_poll_cq pc = { .handle = r->cq, .count = 1 };
	struct oib_uverbs_create_cq cq = { .cqe = 4, .channel_fd = -1, .ring_flags = 2 };
	struct oib_uverbs_create_qp qp = {
		.pd_handle = r->pd, .send_cq_handle = r->cq, .recv_cq_handle = r->cq,
		.qp_type = OIB_UVERBS_QPT_RC, .cap = { .max_send_wr = 1, .max_recv_wr = 1 },
	};
	struct oib_uverbs_doorbell db = { .handle = 0 };

	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_POLL_CQ, &pc), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_CQ, &cq), -EINVAL);
	cq = (struct oib_uverbs_create_cq){ .cqe = 4, .channel_fd = -1, .ring.size = 1 };
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_CQ, &cq), -EINVAL);
	qp.ring_flags = 4;
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_QP, &qp), -EINVAL);
	qp.ring_flags = 0;
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_QP, &qp), 0);
	KUNIT_EXPECT_EQ(test, qp.sq.offset, 0);
	db.handle = qp.handle;
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_DOORBELL, &db), -EINVAL);
	db = (struct oib_uverbs_doorbell){ .handle = r->qp, .reserved = 1 };
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_DOORBELL, &db), -EINVAL);
	/* a destroyed QP's ring leaves the table: no new mapping finds it */
	KUNIT_EXPECT_NOT_NULL(test, oib_uverbs_test_ring(r->ufile, r->sq.offset));
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_DESTROY_QP,
						  &(struct oib_uverbs_destroy_reported){
							.handle = r->qp }), 0);
	KUNIT_EXPECT_NULL(test, oib_uverbs_test_ring(r->ufile, r->sq.offset));
}

static struct kunit_case ring_test_cases[] = {
	KUNIT_CASE(ring_bad_producer),
	KUNIT_CASE(ring_bad_wqe),
	KUNIT_CASE(ring_commands),
	{}
};

static struct kunit_suite ring_test_suite = {
	.name = "oib_uverbs_ring",
	.test_cases = ring_test_cases,
};

kunit_test_suite(ring_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit checks of oib_uverbs's mapped rings: indices and entries refused");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
