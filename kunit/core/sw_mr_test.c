// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software providers' MR key table (struct oib_sw_mr_table, core/sw_mr.c), alone, on a table
 * of its own: kernel MRs resolved through their lkey and rkey with every check (PD, key, access,
 * range); fast-registration MRs through FREE, REG_MR, invalidation and REG_MR again under a new
 * 8-bit variant, the old key dead; blocks that are not contiguous resolved a piece at a time;
 * indices allocated cyclically, wrapping, and a stale key of a reused index refused unless its
 * variant is the new one's; lookups racing a deregistration, none succeeding after it returned.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <oib/sw.h>
#include "oib_toolkit.h"

#define SWMR_LEN	(4 * PAGE_SIZE)
#define SWMR_INDEX_MAX	0xffffff

struct swmr {
	struct oib_sw_mr_table t;
	struct oib_pd pd, other_pd;	/* only their addresses count */
	u8 *buf;			/* SWMR_LEN bytes */
};

static void swmr_table_release(void *p)
{
	oib_sw_mr_table_destroy(&((struct swmr *)p)->t);
}

static struct swmr *swmr_new(struct kunit *test)
{
	struct swmr *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->buf = kunit_kzalloc(test, SWMR_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->buf);
	oib_sw_mr_table_init(&s->t);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, swmr_table_release, s));
	return s;
}

static struct oib_sw_mr *swmr_kernel(struct kunit *test, struct swmr *s, int access)
{
	struct oib_sw_mr *mr = kunit_kzalloc(test, sizeof(*mr), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mr);
	mr->ib.pd = &s->pd;
	mr->ib.type = OIB_MR_TYPE_KERNEL;
	mr->ib.access = access;
	mr->ib.iova = (u64)(uintptr_t)s->buf;
	mr->ib.length = SWMR_LEN;
	KUNIT_ASSERT_EQ(test, 0, oib_sw_mr_kernel(&s->t, mr, access, (u64)(uintptr_t)s->buf));
	return mr;
}

static struct oib_sw_mr *swmr_fast(struct kunit *test, struct swmr *s)
{
	struct oib_sw_mr *mr = kunit_kzalloc(test, sizeof(*mr), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mr);
	mr->ib.pd = &s->pd;
	mr->ib.type = OIB_MR_TYPE_MEM_REG;
	KUNIT_ASSERT_EQ(test, 0, oib_sw_mr_alloc(&s->t, mr, 4));
	return mr;
}

/* Resolve and let go at once: 0 or the error, the bytes contiguous into *@n. */
static int swmr_try(struct swmr *s, struct oib_pd *pd, u32 key, bool remote, u64 va, u32 len,
		    int access, u32 *n)
{
	struct oib_sw_mr_ref ref;
	int ret = oib_sw_mr_get(&s->t, pd, key, remote, va, len, access, &ref);

	if (!ret) {
		if (n)
			*n = ref.len;
		oib_sw_mr_put(ref.mr);
	}
	return ret;
}

static void swmr_test_kernel(struct kunit *test)
{
	struct swmr *s = swmr_new(test);
	u64 va = (u64)(uintptr_t)s->buf;
	struct oib_sw_mr *mr, *local;
	struct oib_sw_mr_ref ref;
	u32 n;

	mr = swmr_kernel(test, s, OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_READ);
	KUNIT_EXPECT_GE(test, mr->index, 1u);
	KUNIT_EXPECT_EQ(test, mr->ib.lkey >> 8, mr->index);
	KUNIT_EXPECT_EQ(test, mr->ib.rkey, mr->ib.lkey);
	KUNIT_EXPECT_EQ(test, mr->state, OIB_SW_MR_VALID);

	KUNIT_ASSERT_EQ(test, 0, oib_sw_mr_get(&s->t, &s->pd, mr->ib.lkey, false, va + 100, 50,
					       OIB_ACCESS_LOCAL_WRITE, &ref));
	KUNIT_EXPECT_PTR_EQ(test, ref.kva, s->buf + 100);
	KUNIT_EXPECT_EQ(test, ref.len, 50u);
	KUNIT_EXPECT_PTR_EQ(test, ref.mr, mr);
	KUNIT_EXPECT_EQ(test, refcount_read(&mr->ref), 2);
	oib_sw_mr_put(ref.mr);
	KUNIT_EXPECT_EQ(test, refcount_read(&mr->ref), 1);

	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, mr->ib.rkey, true, va, SWMR_LEN,
				       OIB_ACCESS_REMOTE_READ, &n), 0);
	KUNIT_EXPECT_EQ(test, n, (u32)SWMR_LEN);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, mr->ib.rkey, true, va, 8,
				       OIB_ACCESS_REMOTE_WRITE, NULL), -EACCES);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->other_pd, mr->ib.lkey, false, va, 8, 0, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, mr->ib.lkey ^ 1, false, va, 8, 0, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, mr->ib.lkey, false, va - 1, 8, 0, NULL),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, mr->ib.lkey, false, va + SWMR_LEN - 7, 8, 0,
				       NULL), -ERANGE);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, mr->ib.lkey, false, U64_MAX - 3, 8, 0, NULL),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, 0, false, va, 8, 0, NULL), -EINVAL);

	/* no remote access: no rkey, and the lkey is no remote key */
	local = swmr_kernel(test, s, OIB_ACCESS_LOCAL_WRITE);
	KUNIT_EXPECT_EQ(test, local->ib.rkey, 0u);
	KUNIT_EXPECT_NE(test, local->index, mr->index);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, local->ib.lkey, true, va, 8, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, local->ib.lkey, false, va, 8, 0, NULL), 0);

	/* kernel registrations are not revoked */
	KUNIT_EXPECT_EQ(test, oib_sw_mr_invalidate(&s->t, &s->pd, mr->ib.lkey, false), -EACCES);
	KUNIT_EXPECT_EQ(test, oib_sw_mr_invalidate(&s->t, &s->pd, mr->ib.rkey, true), -EACCES);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, mr->ib.lkey, false, va, 8, 0, NULL), 0);

	oib_sw_mr_dereg(&s->t, mr);
	oib_sw_mr_dereg(&s->t, local);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, mr->ib.lkey, false, va, 8, 0, NULL), -EINVAL);
}

static int swmr_reg(struct swmr *s, struct oib_pd *pd, struct oib_sw_mr *mr, u8 variant,
		    int access)
{
	struct oib_send_wr wr = { .opcode = OIB_WR_REG_MR };

	wr.wr.reg.mr = &mr->ib;
	wr.wr.reg.key = (mr->ib.lkey & ~0xffu) | variant;
	wr.wr.reg.access = access;
	return oib_sw_mr_reg(&s->t, pd, &wr);
}

/* Stage the blocks @order[] of s->buf, iova at @off into the first. */
static void swmr_stage(struct swmr *s, struct oib_sw_mr *mr, const int *order, u32 off)
{
	int i;

	for (i = 0; i < 4; i++)
		mr->staged[i] = (u64)(uintptr_t)(s->buf + order[i] * PAGE_SIZE);
	mr->nstaged = 4;
	mr->ib.page_size = PAGE_SIZE;
	mr->ib.iova = 0x10000 + off;
	mr->ib.length = SWMR_LEN - off;
}

static void swmr_test_fast_reg(struct kunit *test)
{
	static const int straight[4] = { 0, 1, 2, 3 }, mixed[4] = { 0, 2, 1, 3 };
	struct swmr *s = swmr_new(test);
	struct oib_sw_mr *mr = swmr_fast(test, s);
	u8 v1 = (mr->ib.lkey + 1) & 0xff, v2 = (mr->ib.lkey + 2) & 0xff;
	u32 k1 = (mr->ib.lkey & ~0xffu) | v1, k2 = (mr->ib.lkey & ~0xffu) | v2, n;
	int rw = OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE;
	struct oib_sw_mr_ref ref;

	KUNIT_EXPECT_EQ(test, mr->state, OIB_SW_MR_FREE);
	KUNIT_EXPECT_EQ(test, mr->ib.rkey, mr->ib.lkey);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, mr->ib.lkey, false, 0x10000, 8, 0, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, oib_sw_mr_invalidate(&s->t, &s->pd, mr->ib.lkey, false), -EINVAL);

	swmr_stage(s, mr, straight, 0);
	KUNIT_EXPECT_EQ(test, swmr_reg(s, &s->other_pd, mr, v1, rw), -EINVAL);
	KUNIT_EXPECT_EQ(test, swmr_reg(s, &s->pd, mr, v1, rw), 0);
	KUNIT_EXPECT_EQ(test, swmr_reg(s, &s->pd, mr, v2, rw), -EINVAL);	/* VALID */
	KUNIT_ASSERT_EQ(test, 0, oib_sw_mr_get(&s->t, &s->pd, k1, true, 0x10000 + 10,
					       SWMR_LEN - 10, OIB_ACCESS_REMOTE_WRITE, &ref));
	KUNIT_EXPECT_PTR_EQ(test, ref.kva, s->buf + 10);
	KUNIT_EXPECT_EQ(test, ref.len, (u32)(SWMR_LEN - 10));	/* contiguous blocks: one piece */
	oib_sw_mr_put(ref.mr);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, k1, true, 0x10000, 8, OIB_ACCESS_REMOTE_READ,
				       NULL), -EACCES);

	/* the variant is the key: invalidated, registered again under v2, v1 is dead */
	KUNIT_EXPECT_EQ(test, oib_sw_mr_invalidate(&s->t, &s->pd, k2, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_sw_mr_invalidate(&s->t, &s->other_pd, k1, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_sw_mr_invalidate(&s->t, &s->pd, k1, true), 0);
	KUNIT_EXPECT_EQ(test, oib_sw_mr_invalidate(&s->t, &s->pd, k1, false), 0);	/* again */
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, k1, false, 0x10000, 8, 0, NULL), -EINVAL);
	swmr_stage(s, mr, mixed, 100);
	KUNIT_EXPECT_EQ(test, swmr_reg(s, &s->pd, mr, v2, OIB_ACCESS_LOCAL_WRITE), 0);
	KUNIT_EXPECT_EQ(test, mr->rkey, 0u);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, k1, false, 0x10000 + 100, 8, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, k2, true, 0x10000 + 100, 8, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_sw_mr_invalidate(&s->t, &s->pd, k2, true), -EACCES);

	/* blocks 0, 2, 1, 3: pieces end where the next block does not follow */
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, k2, false, 0x10000 + 100, SWMR_LEN - 100, 0, &n),
			0);
	KUNIT_EXPECT_EQ(test, n, (u32)(PAGE_SIZE - 100));
	KUNIT_ASSERT_EQ(test, 0, oib_sw_mr_get(&s->t, &s->pd, k2, false, 0x10000 + PAGE_SIZE + 8,
					       16, 0, &ref));
	KUNIT_EXPECT_PTR_EQ(test, ref.kva, s->buf + 2 * PAGE_SIZE + 8);
	oib_sw_mr_put(ref.mr);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, k2, false, 0x10000 + 3 * PAGE_SIZE,
				       PAGE_SIZE + 1, 0, NULL), -ERANGE);
	oib_sw_mr_dereg(&s->t, mr);
	KUNIT_EXPECT_NULL(test, mr->pages);
}

/* Indices go round: the last one, then 1; a reused index takes stale keys only by its variant. */
static void swmr_test_index_reuse(struct kunit *test)
{
	struct swmr *s = swmr_new(test);
	struct oib_sw_mr *a, *b, *c;
	u64 va = (u64)(uintptr_t)s->buf;
	u32 stale;

	s->t.next = SWMR_INDEX_MAX;
	a = swmr_kernel(test, s, 0);
	KUNIT_EXPECT_EQ(test, a->index, (u32)SWMR_INDEX_MAX);
	KUNIT_EXPECT_EQ(test, a->ib.lkey >> 8, (u32)SWMR_INDEX_MAX);
	b = swmr_kernel(test, s, 0);
	KUNIT_EXPECT_EQ(test, b->index, 1u);

	stale = a->ib.lkey;
	oib_sw_mr_dereg(&s->t, a);
	s->t.next = SWMR_INDEX_MAX;
	c = swmr_kernel(test, s, 0);
	KUNIT_ASSERT_EQ(test, c->index, (u32)SWMR_INDEX_MAX);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, stale, false, va, 8, 0, NULL) == 0,
			stale == c->ib.lkey);
	KUNIT_EXPECT_EQ(test, swmr_try(s, &s->pd, c->ib.lkey, false, va, 8, 0, NULL), 0);
	oib_sw_mr_dereg(&s->t, b);
	oib_sw_mr_dereg(&s->t, c);
}

/* Lookups on a work item, each copying through what it resolved, while the test deregisters. */
struct swmr_race {
	struct swmr *s;
	u32 key;
	struct work_struct work;
	bool stop, gone;
	atomic_t ok, late;		/* resolved; resolved with the MR known gone before */
	atomic_t tries;
};

static void swmr_lookups(struct work_struct *work)
{
	struct swmr_race *r = container_of(work, struct swmr_race, work);
	u64 va = (u64)(uintptr_t)r->s->buf;
	struct oib_sw_mr_ref ref;
	bool gone;

	while (!READ_ONCE(r->stop)) {
		gone = READ_ONCE(r->gone);
		if (!oib_sw_mr_get(&r->s->t, &r->s->pd, r->key, true, va, SWMR_LEN,
				   OIB_ACCESS_REMOTE_WRITE, &ref)) {
			memset(ref.kva, 0x5a, ref.len);
			oib_sw_mr_put(ref.mr);
			atomic_inc(gone ? &r->late : &r->ok);
		}
		atomic_inc(&r->tries);
		cond_resched();
	}
}

static void swmr_test_lookup_vs_dereg(struct kunit *test)
{
	struct swmr *s = swmr_new(test);
	struct swmr_race r = { .s = s };
	struct oib_sw_mr *mr;
	int round, tries;

	INIT_WORK_ONSTACK(&r.work, swmr_lookups);
	for (round = 0; round < 20; round++) {
		mr = swmr_kernel(test, s, OIB_ACCESS_REMOTE_WRITE);
		r.key = mr->ib.rkey;
		WRITE_ONCE(r.gone, false);
		WRITE_ONCE(r.stop, false);
		atomic_set(&r.ok, 0);
		queue_work(system_unbound_wq, &r.work);
		KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(&r.ok) > 0));
		oib_sw_mr_dereg(&s->t, mr);
		WRITE_ONCE(r.gone, true);
		KUNIT_EXPECT_EQ(test, refcount_read(&mr->ref), 0);
		/* some more lookups, all refused */
		tries = atomic_read(&r.tries);
		KUNIT_EXPECT_TRUE(test, oib_test_wait_for(atomic_read(&r.tries) > tries + 10));
		WRITE_ONCE(r.stop, true);
		flush_work(&r.work);
	}
	destroy_work_on_stack(&r.work);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.late), 0);
}

static struct kunit_case swmr_test_cases[] = {
	KUNIT_CASE(swmr_test_kernel),
	KUNIT_CASE(swmr_test_fast_reg),
	KUNIT_CASE(swmr_test_index_reuse),
	KUNIT_CASE(swmr_test_lookup_vs_dereg),
	{}
};

static struct kunit_suite swmr_test_suite = {
	.name = "oib_core_sw_mr",
	.test_cases = swmr_test_cases,
};

kunit_test_suite(swmr_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the software providers' MR key table");
