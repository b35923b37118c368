// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit checks of oib_uverbs's receive rings (a QP's and an SRQ's), driven from the kernel side:
 * the test writes the ring through the kernel's own mapping, as a process would through its
 * mapping, and pulls from the object's receive source as the provider does.  A good entry is
 * copied out and consumed; a bad producer index and each kind of bad entry break the ring (the
 * pull fails once, OIB_UVERBS_RING_ERROR is set, the consumer index stays, nothing more is
 * pulled); a flush pull marks the ring; a QP moved to RESET discards what its ring holds, mends a
 * broken one and clears the mark; the create commands check their ring fields.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <oib/kunit/uverbs.h>
#include "oib_toolkit.h"

#define UV_RQ_SGE	2

struct uv_rq {
	struct oib_uverbs_file *ufile;
	u32 pd, cq;
};

/* One receive ring: its object's handle, geometry and kernel mapping. */
struct uv_rq_ring {
	u32 handle;
	struct oib_uverbs_ring ring;
	struct oib_uverbs_ring_hdr *hdr;
};

static void uv_rq_close(void *ufile)
{
	oib_uverbs_test_close(ufile);
}

/* A context with a PD and a CQ. */
static struct uv_rq *uv_rq_setup(struct kunit *test)
{
	struct uv_rq *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct oib_uverbs_create_cq cq = { .cqe = 16, .channel_fd = -1 };
	struct oib_uverbs_alloc_pd pd = { 0 };

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->ufile = oib_uverbs_test_open(oib_test_rxe_ports(test, 1));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r->ufile);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, uv_rq_close, r->ufile));
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_ALLOC_PD, &pd), 0);
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_CQ, &cq), 0);
	r->pd = pd.handle;
	r->cq = cq.handle;
	return r;
}

static struct oib_uverbs_create_qp uv_rq_qp_cmd(struct uv_rq *r, u32 ring_flags)
{
	return (struct oib_uverbs_create_qp){
		.pd_handle = r->pd, .send_cq_handle = r->cq, .recv_cq_handle = r->cq,
		.qp_type = OIB_UVERBS_QPT_RC, .ring_flags = ring_flags,
		.cap = { .max_send_wr = 4, .max_recv_wr = 8, .max_send_sge = 1,
			 .max_recv_sge = UV_RQ_SGE },
	};
}

/* An RC QP (in RESET) with a receive ring. */
static void uv_rq_qp(struct kunit *test, struct uv_rq *r, struct uv_rq_ring *q)
{
	struct oib_uverbs_create_qp qp = uv_rq_qp_cmd(r, OIB_UVERBS_CREATE_MAPPED_RQ);

	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_QP, &qp), 0);
	q->handle = qp.handle;
	q->ring = qp.rq;
	q->hdr = oib_uverbs_test_ring(r->ufile, qp.rq.offset);
	KUNIT_ASSERT_NOT_NULL(test, q->hdr);
	KUNIT_EXPECT_EQ(test, qp.sq.offset, 0);
	KUNIT_EXPECT_GE(test, qp.rq.entries, qp.cap.max_recv_wr);
	KUNIT_EXPECT_TRUE(test, is_power_of_2(qp.rq.entries));
	KUNIT_EXPECT_EQ(test, qp.rq.stride, sizeof(struct oib_uverbs_recv_wr) +
			UV_RQ_SGE * sizeof(struct oib_uverbs_sge));
}

/* An SRQ with a receive ring. */
static void uv_rq_srq(struct kunit *test, struct uv_rq *r, struct uv_rq_ring *q)
{
	struct oib_uverbs_create_srq srq = {
		.pd_handle = r->pd, .ring_flags = OIB_UVERBS_CREATE_MAPPED,
		.attr = { .max_wr = 8, .max_sge = UV_RQ_SGE },
	};

	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_SRQ, &srq), 0);
	q->handle = srq.handle;
	q->ring = srq.ring;
	q->hdr = oib_uverbs_test_ring(r->ufile, srq.ring.offset);
	KUNIT_ASSERT_NOT_NULL(test, q->hdr);
	KUNIT_EXPECT_GE(test, srq.ring.entries, srq.attr.max_wr);
	KUNIT_EXPECT_EQ(test, srq.ring.stride, sizeof(struct oib_uverbs_recv_wr) +
			UV_RQ_SGE * sizeof(struct oib_uverbs_sge));
}

static struct oib_uverbs_recv_wr *uv_rq_entry(struct uv_rq_ring *q, u32 index)
{
	return (void *)q->hdr + sizeof(*q->hdr) + (index & (q->ring.entries - 1)) * q->ring.stride;
}

static int uv_rq_pull(struct uv_rq *r, struct uv_rq_ring *q, struct oib_recv_wr *wr, u32 max_sge)
{
	struct oib_sge sge[OIB_UVERBS_MAX_SGE];

	return oib_uverbs_test_pull(r->ufile, q->handle, wr, sge, max_sge, 0);
}

/* A good entry without SGEs at @index, published. */
static void uv_rq_put_good(struct uv_rq_ring *q, u32 index, u64 wr_id)
{
	*uv_rq_entry(q, index) = (struct oib_uverbs_recv_wr){ .wr_id = wr_id };
	WRITE_ONCE(q->hdr->producer, index + 1);
}

/* The ring is broken at @cons: flagged, the consumer index on the bad entry, no more pulls. */
static void uv_rq_expect_broken(struct kunit *test, struct uv_rq *r, struct uv_rq_ring *q,
				u32 cons, const char *what)
{
	struct oib_recv_wr wr;

	KUNIT_EXPECT_TRUE_MSG(test, READ_ONCE(q->hdr->flags) & OIB_UVERBS_RING_ERROR, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, READ_ONCE(q->hdr->consumer), cons, "%s", what);
	uv_rq_put_good(q, cons, 7);
	KUNIT_EXPECT_EQ_MSG(test, uv_rq_pull(r, q, &wr, UV_RQ_SGE), 0, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, READ_ONCE(q->hdr->consumer), cons, "%s", what);
}

/* Empty, then a good entry: copied out (a later rewrite changes nothing), consumed. */
static void rq_ring_good(struct kunit *test)
{
	struct uv_rq *r = uv_rq_setup(test);
	struct uv_rq_ring q;
	struct oib_recv_wr wr;

	uv_rq_qp(test, r, &q);
	KUNIT_EXPECT_EQ(test, uv_rq_pull(r, &q, &wr, UV_RQ_SGE), 0);
	uv_rq_put_good(&q, 0, 0x1234);
	KUNIT_EXPECT_EQ(test, uv_rq_pull(r, &q, &wr, UV_RQ_SGE), 1);
	uv_rq_entry(&q, 0)->wr_id = 99;
	KUNIT_EXPECT_EQ(test, wr.wr_id, 0x1234);
	KUNIT_EXPECT_EQ(test, wr.num_sge, 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(q.hdr->consumer), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(q.hdr->flags), 0);
	KUNIT_EXPECT_EQ(test, uv_rq_pull(r, &q, &wr, UV_RQ_SGE), 0);
}

/* Beyond the ring, huge, behind the consumer: the ring breaks, nothing consumed. */
static void rq_ring_bad_producer(struct kunit *test)
{
	struct uv_rq *r = uv_rq_setup(test);
	u32 bad[] = { 9, U32_MAX, 0x80000000u, 0x7fffffffu };
	struct oib_recv_wr wr;
	struct uv_rq_ring q;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		uv_rq_qp(test, r, &q);
		KUNIT_EXPECT_EQ(test, q.ring.entries, 8);
		WRITE_ONCE(q.hdr->producer, bad[i]);
		KUNIT_EXPECT_EQ(test, uv_rq_pull(r, &q, &wr, UV_RQ_SGE), -EINVAL);
		uv_rq_expect_broken(test, r, &q, 0, "producer");
	}
	/* behind the consumer: one entry consumed, then the producer index goes back */
	uv_rq_qp(test, r, &q);
	uv_rq_put_good(&q, 0, 1);
	KUNIT_EXPECT_EQ(test, uv_rq_pull(r, &q, &wr, UV_RQ_SGE), 1);
	WRITE_ONCE(q.hdr->producer, 0);
	KUNIT_EXPECT_EQ(test, uv_rq_pull(r, &q, &wr, UV_RQ_SGE), -EINVAL);
	uv_rq_expect_broken(test, r, &q, 1, "behind");
}

/*
 * Entries POST_RECV would refuse: a good entry of @num_sge SGEs (no SGE can be good here: a
 * KUnit context has no user memory to register) with a u32 at an offset overwritten.
 */
#define UV_RWR sizeof(struct oib_uverbs_recv_wr)
static const struct uv_rq_spoil {
	const char *what;
	u32 num_sge;
	size_t off;
	u32 val;
} uv_rq_spoils[] = {
	{ "sg_list", 0, offsetof(struct oib_uverbs_recv_wr, sg_list), 0x1000 },
	{ "sg_list high", 0, offsetof(struct oib_uverbs_recv_wr, sg_list) + 4, 1 },
	{ "num_sge > max_recv_sge", 0, offsetof(struct oib_uverbs_recv_wr, num_sge),
	  UV_RQ_SGE + 1 },
	{ "num_sge > OIB_UVERBS_MAX_SGE", 0, offsetof(struct oib_uverbs_recv_wr, num_sge), 17 },
	{ "num_sge huge", 0, offsetof(struct oib_uverbs_recv_wr, num_sge), U32_MAX },
	{ "reserved", 0, offsetof(struct oib_uverbs_recv_wr, reserved), 1 },
	{ "lkey of no MR", 1, UV_RWR + offsetof(struct oib_uverbs_sge, lkey), 0x5a5a5a },
	{ "lkey 0", 1, UV_RWR + offsetof(struct oib_uverbs_sge, lkey), 0 },
};

/* A good entry, then a bad one: the first pulled, the second breaks the ring. */
static void uv_rq_spoiled(struct kunit *test, struct uv_rq *r, struct uv_rq_ring *q,
			  const struct uv_rq_spoil *s)
{
	struct oib_uverbs_recv_wr *e = uv_rq_entry(q, 1);
	struct oib_uverbs_sge *sge = (void *)(e + 1);
	struct oib_recv_wr wr;

	uv_rq_put_good(q, 0, 1);
	*e = (struct oib_uverbs_recv_wr){ .wr_id = 2, .num_sge = s->num_sge };
	sge[0] = (struct oib_uverbs_sge){ .addr = 0x1000, .length = 8 };
	memcpy((void *)e + s->off, &s->val, sizeof(u32));
	WRITE_ONCE(q->hdr->producer, 2);
	KUNIT_EXPECT_EQ_MSG(test, uv_rq_pull(r, q, &wr, UV_RQ_SGE), 1, "%s", s->what);
	KUNIT_EXPECT_EQ(test, wr.wr_id, 1);
	KUNIT_EXPECT_EQ_MSG(test, uv_rq_pull(r, q, &wr, UV_RQ_SGE), -EINVAL, "%s", s->what);
	uv_rq_expect_broken(test, r, q, 1, s->what);
}

/* Each kind of bad entry, on a QP's ring and on an SRQ's. */
static void rq_ring_bad_entry(struct kunit *test)
{
	struct uv_rq *r = uv_rq_setup(test);
	struct uv_rq_ring q;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(uv_rq_spoils); i++) {
		uv_rq_qp(test, r, &q);
		uv_rq_spoiled(test, r, &q, &uv_rq_spoils[i]);
		uv_rq_srq(test, r, &q);
		uv_rq_spoiled(test, r, &q, &uv_rq_spoils[i]);
	}
}

/* More SGEs than the provider asks for (its max_sge): refused as too many. */
static void rq_ring_provider_max_sge(struct kunit *test)
{
	struct uv_rq *r = uv_rq_setup(test);
	struct oib_recv_wr wr;
	struct uv_rq_ring q;

	uv_rq_qp(test, r, &q);
	*uv_rq_entry(&q, 0) = (struct oib_uverbs_recv_wr){ .wr_id = 1, .num_sge = 2 };
	WRITE_ONCE(q.hdr->producer, 1);
	KUNIT_EXPECT_EQ(test, uv_rq_pull(r, &q, &wr, 1), -EINVAL);
	uv_rq_expect_broken(test, r, &q, 0, "max_sge");
}

/* A QP moved to RESET: its ring's receives are discarded, a broken ring is whole again. */
static void rq_ring_reset(struct kunit *test)
{
	struct uv_rq *r = uv_rq_setup(test);
	struct oib_uverbs_modify_qp m = { .attr_mask = OIB_UVERBS_QP_STATE,
					  .qp_state = OIB_QPS_RESET };
	struct oib_sge sge[UV_RQ_SGE];
	struct oib_recv_wr wr;
	struct uv_rq_ring q;

	uv_rq_qp(test, r, &q);
	m.handle = q.handle;
	uv_rq_put_good(&q, 0, 1);
	uv_rq_put_good(&q, 1, 2);
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_MODIFY_QP, &m), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(q.hdr->consumer), 2);
	KUNIT_EXPECT_EQ(test, uv_rq_pull(r, &q, &wr, UV_RQ_SGE), 0);
	/* broken, then reset: pulls again from the producer index on */
	uv_rq_entry(&q, 2)->reserved = 1;
	WRITE_ONCE(q.hdr->producer, 3);
	KUNIT_EXPECT_EQ(test, uv_rq_pull(r, &q, &wr, UV_RQ_SGE), -EINVAL);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(q.hdr->flags) & OIB_UVERBS_RING_ERROR);
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_MODIFY_QP, &m), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(q.hdr->flags), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(q.hdr->consumer), 3);
	uv_rq_put_good(&q, 3, 4);
	KUNIT_EXPECT_EQ(test, uv_rq_pull(r, &q, &wr, UV_RQ_SGE), 1);
	KUNIT_EXPECT_EQ(test, wr.wr_id, 4);
	/* a flush pull marks the ring; RESET clears the mark */
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_pull(r->ufile, q.handle, &wr, sge, UV_RQ_SGE,
						   OIB_RECV_PULL_FLUSH), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(q.hdr->flags), OIB_UVERBS_RING_FLUSH);
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_MODIFY_QP, &m), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(q.hdr->flags), 0);
}

/* The ring fields of CREATE_QP and CREATE_SRQ; a QP without a receive ring has no source. */
static void rq_ring_commands(struct kunit *test)
{
	struct uv_rq *r = uv_rq_setup(test);
	struct oib_uverbs_create_srq srq = {
		.pd_handle = r->pd, .ring_flags = 2, .attr = { .max_wr = 4, .max_sge = 1 },
	};
	struct oib_uverbs_create_qp qp = uv_rq_qp_cmd(r, OIB_UVERBS_CREATE_MAPPED_RQ);
	struct oib_recv_wr wr;
	struct uv_rq_ring q;

	qp.rq.entries = 1;
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_QP, &qp), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_SRQ, &srq), -EINVAL);
	srq.ring_flags = OIB_UVERBS_CREATE_MAPPED;
	srq.reserved = 1;
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_SRQ, &srq), -EINVAL);
	srq.reserved = 0;
	srq.ring.size = 1;
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_SRQ, &srq), -EINVAL);
	srq.ring.size = 0;
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_SRQ, &srq), 0);
	/* a QP on an SRQ has no receive queue to map */
	qp = uv_rq_qp_cmd(r, OIB_UVERBS_CREATE_MAPPED_RQ);
	qp.cap.max_recv_wr = 0;
	qp.srq_handle = srq.handle;
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_QP, &qp), -EINVAL);
	qp = uv_rq_qp_cmd(r, 0);
	KUNIT_ASSERT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_CREATE_QP, &qp), 0);
	KUNIT_EXPECT_EQ(test, qp.rq.offset, 0);
	q.handle = qp.handle;
	KUNIT_EXPECT_EQ(test, uv_rq_pull(r, &q, &wr, 1), -ENOENT);
	/* a destroyed object's ring leaves the table: no new mapping finds it */
	uv_rq_qp(test, r, &q);
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_DESTROY_QP,
						  &(struct oib_uverbs_destroy_reported){
							.handle = q.handle }), 0);
	KUNIT_EXPECT_NULL(test, oib_uverbs_test_ring(r->ufile, q.ring.offset));
	KUNIT_EXPECT_NOT_NULL(test, oib_uverbs_test_ring(r->ufile, srq.ring.offset));
	KUNIT_EXPECT_EQ(test, oib_uverbs_test_cmd(r->ufile, OIB_UVERBS_DESTROY_SRQ,
						  &(struct oib_uverbs_destroy_reported){
							.handle = srq.handle }), 0);
	KUNIT_EXPECT_NULL(test, oib_uverbs_test_ring(r->ufile, srq.ring.offset));
}

static struct kunit_case rq_ring_test_cases[] = {
	KUNIT_CASE(rq_ring_good),
	KUNIT_CASE(rq_ring_bad_producer),
	KUNIT_CASE(rq_ring_bad_entry),
	KUNIT_CASE(rq_ring_provider_max_sge),
	KUNIT_CASE(rq_ring_reset),
	KUNIT_CASE(rq_ring_commands),
	{}
};

static struct kunit_suite rq_ring_test_suite = {
	.name = "oib_uverbs_rq_ring",
	.test_cases = rq_ring_test_cases,
};

kunit_test_suite(rq_ring_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit checks of oib_uverbs's receive rings: indices and entries refused");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
