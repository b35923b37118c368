// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for cm_ids and their tables (drivers/infiniband/cm/cm_id.c): local comm IDs,
 * the remote (comm ID, GID) and (CA GUID, QPN) tables, listeners, handler delivery and destroy.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <oib/kunit/cm.h>
#include "oib_toolkit.h"

#define ID_MANY		64
#define ID_WAIT		(10 * HZ)
#define ID_CHURNERS	4
#define ID_CHURN_ROUNDS	200

struct id_ctx {
	int calls;
	int ret;			/* what the handler returns */
	enum oib_cm_event_type last;
};

static int id_handler(struct oib_cm_id *id, const struct oib_cm_event *event)
{
	struct id_ctx *ctx = id->context;

	ctx->calls++;
	ctx->last = event->type;
	return ctx->ret;
}

static struct oib_cm_id *id_create(struct kunit *test, struct oib_device *device,
				   struct id_ctx *ctx)
{
	struct oib_cm_id *id = oib_cm_create_id(device, id_handler, ctx);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, id);
	return id;
}

static bool id_is_found(u32 local_id)
{
	struct oib_cm_id *id = oib_cm_id_find_local(local_id);

	if (id)
		oib_cm_id_put(id);
	return id;
}

static void id_create_validates(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PTR_ERR(oib_cm_create_id(NULL, NULL, NULL)), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_cm_listen(NULL, 1, 0), -EINVAL);
	oib_cm_destroy_id(NULL);
}

/* IDs are non-zero, distinct, found while they live and not after. */
static void id_local_ids(struct kunit *test)
{
	struct oib_cm_id *ids[ID_MANY], *found;
	struct id_ctx ctx = {};
	int i, j;

	for (i = 0; i < ID_MANY; i++) {
		ids[i] = id_create(test, NULL, &ctx);
		KUNIT_EXPECT_NE(test, ids[i]->local_id, 0);
		KUNIT_EXPECT_EQ(test, ids[i]->state, OIB_CM_IDLE);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, ids[i]->local_id, ids[j]->local_id);
	}
	for (i = 0; i < ID_MANY; i++) {
		found = oib_cm_id_find_local(ids[i]->local_id);
		KUNIT_EXPECT_PTR_EQ(test, found, ids[i]);
		if (found)
			oib_cm_id_put(found);
	}
	for (i = 0; i < ID_MANY; i++) {
		u32 local_id = ids[i]->local_id;

		oib_cm_destroy_id(ids[i]);
		KUNIT_EXPECT_FALSE(test, id_is_found(local_id));
	}
	KUNIT_EXPECT_EQ(test, ctx.calls, 0);
}

/* A destroyed ID does not come back at once: allocation is cyclic. */
static void id_local_ids_cycle(struct kunit *test)
{
	struct id_ctx ctx = {};
	struct oib_cm_id *id;
	u32 first;
	int i;

	id = id_create(test, NULL, &ctx);
	first = id->local_id;
	oib_cm_destroy_id(id);
	for (i = 0; i < ID_MANY; i++) {
		id = id_create(test, NULL, &ctx);
		KUNIT_EXPECT_NE(test, id->local_id, first);
		oib_cm_destroy_id(id);
	}
}

/* The remote table is keyed by (remote comm ID, GID); a destroyed id leaves it. */
static void id_remote_ids(struct kunit *test)
{
	union oib_gid gid_a = { .raw = { 0xfe, 0x80, [15] = 1 } };
	union oib_gid gid_b = { .raw = { 0xfe, 0x80, [15] = 2 } };
	struct oib_cm_id *a, *b, *c, *dup;
	struct id_ctx ctx = {};

	a = id_create(test, NULL, &ctx);
	b = id_create(test, NULL, &ctx);
	c = id_create(test, NULL, &ctx);
	KUNIT_EXPECT_NULL(test, oib_cm_id_insert_remote(a, 5, &gid_a));
	KUNIT_EXPECT_EQ(test, a->remote_id, 5);
	dup = oib_cm_id_insert_remote(b, 5, &gid_a);
	KUNIT_EXPECT_PTR_EQ(test, dup, a);
	if (dup)
		oib_cm_id_put(dup);
	KUNIT_EXPECT_EQ(test, b->remote_id, 0);
	KUNIT_EXPECT_NULL(test, oib_cm_id_insert_remote(b, 5, &gid_b));
	KUNIT_EXPECT_NULL(test, oib_cm_id_insert_remote(c, 6, &gid_a));
	oib_cm_destroy_id(a);
	a = id_create(test, NULL, &ctx);
	KUNIT_EXPECT_NULL(test, oib_cm_id_insert_remote(a, 5, &gid_a));
	oib_cm_destroy_id(a);
	oib_cm_destroy_id(b);
	oib_cm_destroy_id(c);
}

/* The remote QP table is keyed by (CA GUID, QPN): a second connection to a QP is stale. */
static void id_remote_qpns(struct kunit *test)
{
	struct oib_cm_id *a, *b, *old;
	struct id_ctx ctx = {};

	a = id_create(test, NULL, &ctx);
	b = id_create(test, NULL, &ctx);
	KUNIT_EXPECT_NULL(test, oib_cm_id_insert_remote_qpn(a, 0x0002c90300001234ULL, 0x11));
	old = oib_cm_id_insert_remote_qpn(b, 0x0002c90300001234ULL, 0x11);
	KUNIT_EXPECT_PTR_EQ(test, old, a);
	if (old)
		oib_cm_id_put(old);
	KUNIT_EXPECT_NULL(test, oib_cm_id_insert_remote_qpn(b, 0x0002c90300001234ULL, 0x12));
	oib_cm_destroy_id(a);
	a = id_create(test, NULL, &ctx);
	KUNIT_EXPECT_NULL(test, oib_cm_id_insert_remote_qpn(a, 0x0002c90300001234ULL, 0x11));
	oib_cm_destroy_id(a);
	oib_cm_destroy_id(b);
}

static void id_expect_listener(struct kunit *test, struct oib_device *device, u64 sid,
			       struct oib_cm_id *want)
{
	struct oib_cm_id *got = oib_cm_id_find_listener(device, sid);

	KUNIT_EXPECT_PTR_EQ(test, got, want);
	if (got)
		oib_cm_id_put(got);
}

/* Listeners: validation, overlap, the device's own before every device's, masks. */
static void id_listeners(struct kunit *test)
{
	struct oib_device *dev_a = oib_test_rxe_ports(test, 1);
	struct oib_device *dev_b = oib_test_rxe_ports(test, 1);
	struct oib_cm_id *on_a, *clash, *on_all, *masked;
	struct id_ctx ctx = {};

	on_a = id_create(test, dev_a, &ctx);
	clash = id_create(test, dev_a, &ctx);
	on_all = id_create(test, NULL, &ctx);
	masked = id_create(test, NULL, &ctx);

	KUNIT_EXPECT_EQ(test, oib_cm_listen(on_a, 0x1ff, 0xff00), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_cm_listen(on_a, 0x100, 0), 0);
	KUNIT_EXPECT_EQ(test, on_a->state, OIB_CM_LISTEN);
	KUNIT_EXPECT_EQ(test, oib_cm_listen(on_a, 0x200, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, oib_cm_listen(clash, 0x100, 0xf00), -EBUSY);
	KUNIT_EXPECT_EQ(test, clash->state, OIB_CM_IDLE);
	KUNIT_EXPECT_EQ(test, oib_cm_listen(on_all, 0x100, 0), 0);
	KUNIT_EXPECT_EQ(test, oib_cm_listen(masked, 0x1000, 0xff00), 0);

	id_expect_listener(test, dev_a, 0x100, on_a);
	id_expect_listener(test, dev_b, 0x100, on_all);
	id_expect_listener(test, dev_a, 0x10ab, masked);
	id_expect_listener(test, dev_b, 0x2000, NULL);
	oib_cm_destroy_id(on_a);
	id_expect_listener(test, dev_a, 0x100, on_all);
	KUNIT_EXPECT_EQ(test, oib_cm_listen(clash, 0x100, 0xf00), 0);
	id_expect_listener(test, dev_a, 0x1ab, clash);
	oib_cm_destroy_id(clash);
	oib_cm_destroy_id(on_all);
	oib_cm_destroy_id(masked);
	id_expect_listener(test, NULL, 0x1000, NULL);
}

/* A handler returning 0 keeps its id; non-zero has it destroyed after the call. */
static void id_handler_destroys(struct kunit *test)
{
	struct oib_cm_event ev = { .type = OIB_CM_EVENT_REQ_RECEIVED };
	struct id_ctx ctx = {};
	struct oib_cm_id *id;
	u32 local_id;

	id = id_create(test, NULL, &ctx);
	local_id = id->local_id;
	oib_cm_id_deliver(id, &ev);
	KUNIT_EXPECT_EQ(test, ctx.calls, 1);
	KUNIT_EXPECT_TRUE(test, id_is_found(local_id));
	ctx.ret = -ECONNREFUSED;
	ev.type = OIB_CM_EVENT_REP_ERROR;
	oib_cm_id_deliver(id, &ev);
	KUNIT_EXPECT_EQ(test, ctx.calls, 2);
	KUNIT_EXPECT_EQ(test, ctx.last, OIB_CM_EVENT_REP_ERROR);
	KUNIT_EXPECT_FALSE(test, id_is_found(local_id));
	oib_cm_id_flush();
}

struct id_destroyer {
	struct oib_cm_id *id;
	struct completion done;
};

static int id_destroy_thread(void *arg)
{
	struct id_destroyer *d = arg;

	oib_cm_destroy_id(d->id);
	complete(&d->done);
	return 0;
}

/*
 * Destroy waits for the references lookups hold; meanwhile the id is unfindable and a delivery
 * through such a reference calls no handler.
 */
static void id_destroy_waits(struct kunit *test)
{
	struct oib_cm_event ev = { .type = OIB_CM_EVENT_DREQ_RECEIVED };
	struct id_destroyer d = {};
	struct id_ctx ctx = {};
	struct oib_cm_id *ref;
	struct task_struct *t;
	unsigned long until;
	u32 local_id;

	d.id = id_create(test, NULL, &ctx);
	local_id = d.id->local_id;
	init_completion(&d.done);
	ref = oib_cm_id_find_local(local_id);
	KUNIT_ASSERT_PTR_EQ(test, ref, d.id);
	t = kthread_run(id_destroy_thread, &d, "oib_cm_id_test");
	if (IS_ERR(t)) {
		oib_cm_id_put(ref);
		oib_cm_destroy_id(d.id);
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return;
	}
	until = jiffies + ID_WAIT;
	while (id_is_found(local_id) && time_before(jiffies, until))
		cond_resched();
	KUNIT_EXPECT_FALSE(test, id_is_found(local_id));
	KUNIT_EXPECT_FALSE(test, completion_done(&d.done));
	KUNIT_EXPECT_EQ(test, ref->state, OIB_CM_DESTROYING);
	oib_cm_id_deliver(ref, &ev);
	KUNIT_EXPECT_EQ(test, ctx.calls, 0);
	oib_cm_id_put(ref);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&d.done, ID_WAIT), 0);
}

struct id_churn {
	struct completion done;
	int errors;
	u32 seed;
};

/* Create, key, listen, look up and destroy ids, racing the other churners. */
static int id_churn_thread(void *arg)
{
	union oib_gid gid = { .raw = { 0xfe, 0x80 } };
	struct id_churn *c = arg;
	struct id_ctx ctx = {};
	struct oib_cm_id *id, *other;
	int i;

	for (i = 0; i < ID_CHURN_ROUNDS; i++) {
		id = oib_cm_create_id(NULL, id_handler, &ctx);
		if (IS_ERR(id)) {
			c->errors++;
			continue;
		}
		other = oib_cm_id_insert_remote(id, i % 8, &gid);
		if (other)
			oib_cm_id_put(other);
		other = oib_cm_id_insert_remote_qpn(id, c->seed, i % 8);
		if (other)
			oib_cm_id_put(other);
		if (oib_cm_listen(id, (u64)c->seed << 32 | i, 0))
			c->errors++;
		other = oib_cm_id_find_listener(NULL, (u64)c->seed << 32 | i);
		if (other != id)
			c->errors++;
		if (other)
			oib_cm_id_put(other);
		oib_cm_destroy_id(id);
	}
	complete(&c->done);
	return 0;
}

/* Churners race on every table (lockdep and KASAN watch); none sees another's id as its own. */
static void id_churn(struct kunit *test)
{
	struct id_churn c[ID_CHURNERS] = {};
	struct task_struct *t;
	int i;

	for (i = 0; i < ID_CHURNERS; i++) {
		init_completion(&c[i].done);
		c[i].seed = i + 1;
		t = kthread_run(id_churn_thread, &c[i], "oib_cm_churn%d", i);
		if (IS_ERR(t)) {
			KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
			complete(&c[i].done);
		}
	}
	for (i = 0; i < ID_CHURNERS; i++) {
		KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&c[i].done, 6 * ID_WAIT), 0);
		KUNIT_EXPECT_EQ(test, c[i].errors, 0);
	}
}

static struct kunit_case id_test_cases[] = {
	KUNIT_CASE(id_create_validates),
	KUNIT_CASE(id_local_ids),
	KUNIT_CASE(id_local_ids_cycle),
	KUNIT_CASE(id_remote_ids),
	KUNIT_CASE(id_remote_qpns),
	KUNIT_CASE(id_listeners),
	KUNIT_CASE(id_handler_destroys),
	KUNIT_CASE(id_destroy_waits),
	KUNIT_CASE_SLOW(id_churn),
	{}
};

static struct kunit_suite id_test_suite = {
	.name = "oib_cm_id",
	.test_cases = id_test_cases,
};

kunit_test_suite(id_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for oib_cm's cm_ids and their lookup tables");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
