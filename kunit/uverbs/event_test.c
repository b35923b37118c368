// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for oib_uverbs's event files (drivers/infiniband/uverbs/event.c), the queue behind
 * completion channels and the async event file: order, per-object counts of events read,
 * dropping an object's unread events, a closed file, the cap on unread events, and producers
 * racing a reader.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <oib/kunit/uverbs.h>

/* An object's view of the queue, as a CQ has it. */
struct ev_obj {
	struct list_head unread;
	u32 read;
	u32 handle;
};

static void ev_obj_init(struct ev_obj *o, u32 handle)
{
	INIT_LIST_HEAD(&o->unread);
	o->read = 0;
	o->handle = handle;
}

static void ev_queue(struct oib_uverbs_event_file *ef, struct ev_obj *o, u32 cpu)
{
	struct oib_uverbs_event desc = {
		.user_handle = 0x1000 + o->handle, .handle = o->handle,
		.type = OIB_UVERBS_EVENT_COMP, .cpu = cpu,
	};

	oib_uverbs_event_queue(ef, &o->unread, &o->read, &desc);
}

static void ef_close(void *ef)
{
	oib_uverbs_event_file_close(ef);
}

static struct oib_uverbs_event_file *ev_file(struct kunit *test)
{
	struct oib_uverbs_event_file *ef = oib_uverbs_event_file_alloc(NULL);

	KUNIT_ASSERT_NOT_NULL(test, ef);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, ef_close, ef));
	return ef;
}

static void event_order_and_counts(struct kunit *test)
{
	struct oib_uverbs_event_file *ef = ev_file(test);
	struct oib_uverbs_event ev;
	struct ev_obj a, b;
	int i;

	ev_obj_init(&a, 1);
	ev_obj_init(&b, 2);
	ev_queue(ef, &a, 0);
	ev_queue(ef, &b, 1);
	ev_queue(ef, &a, 2);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_TRUE(test, oib_uverbs_test_event_take(ef, &ev));
		KUNIT_EXPECT_EQ(test, ev.cpu, i);
		KUNIT_EXPECT_EQ(test, ev.handle, i == 1 ? 2 : 1);
		KUNIT_EXPECT_EQ(test, ev.user_handle, 0x1000 + ev.handle);
		KUNIT_EXPECT_EQ(test, ev.type, OIB_UVERBS_EVENT_COMP);
	}
	KUNIT_EXPECT_FALSE(test, oib_uverbs_test_event_take(ef, &ev));
	KUNIT_EXPECT_EQ(test, a.read, 2);
	KUNIT_EXPECT_EQ(test, b.read, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&a.unread));
	KUNIT_EXPECT_TRUE(test, list_empty(&b.unread));
}

/* Destroying an object drops only its unread events, which are not counted as read. */
static void event_drop_unread(struct kunit *test)
{
	struct oib_uverbs_event_file *ef = ev_file(test);
	struct oib_uverbs_event ev;
	struct ev_obj a, b;

	ev_obj_init(&a, 1);
	ev_obj_init(&b, 2);
	ev_queue(ef, &a, 0);
	KUNIT_ASSERT_TRUE(test, oib_uverbs_test_event_take(ef, &ev));
	ev_queue(ef, &a, 0);
	ev_queue(ef, &b, 0);
	ev_queue(ef, &a, 0);
	KUNIT_EXPECT_EQ(test, oib_uverbs_event_drop_unread(ef, &a.unread, &a.read), 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&a.unread));
	KUNIT_ASSERT_TRUE(test, oib_uverbs_test_event_take(ef, &ev));
	KUNIT_EXPECT_EQ(test, ev.handle, 2);
	KUNIT_EXPECT_FALSE(test, oib_uverbs_test_event_take(ef, &ev));
	KUNIT_EXPECT_EQ(test, a.read, 1);
	KUNIT_EXPECT_EQ(test, b.read, 1);
}

/* Port events belong to no object: no list, no counter. */
static void event_without_object(struct kunit *test)
{
	struct oib_uverbs_event_file *ef = ev_file(test);
	struct oib_uverbs_event desc = { .user_handle = 1, .type = 12 }, ev;

	oib_uverbs_event_queue(ef, NULL, NULL, &desc);
	KUNIT_ASSERT_TRUE(test, oib_uverbs_test_event_take(ef, &ev));
	KUNIT_EXPECT_EQ(test, ev.user_handle, 1);
	KUNIT_EXPECT_EQ(test, ev.handle, 0);
	KUNIT_EXPECT_EQ(test, ev.type, 12);
}

/* Closing the file drops what it had: the object's list is empty, nothing counted as read. */
static void event_closed_file(struct kunit *test)
{
	struct oib_uverbs_event_file *ef = oib_uverbs_event_file_alloc(NULL);
	struct ev_obj a;

	KUNIT_ASSERT_NOT_NULL(test, ef);
	ev_obj_init(&a, 1);
	ev_queue(ef, &a, 0);
	ev_queue(ef, &a, 0);
	oib_uverbs_event_file_close(ef);	/* the last reference: ef is freed */
	KUNIT_EXPECT_TRUE(test, list_empty(&a.unread));
	KUNIT_EXPECT_EQ(test, a.read, 0);
}

/*
 * A queue holds OIB_UVERBS_EVENTS_MAX unread events: the newer ones are dropped (not counted as
 * read, not on the object's list) until a read makes room.
 */
static void event_queue_cap(struct kunit *test)
{
	struct oib_uverbs_event_file *ef = ev_file(test);
	struct oib_uverbs_event ev;
	struct ev_obj a;
	u32 i, got = 0;

	ev_obj_init(&a, 1);
	for (i = 0; i < OIB_UVERBS_EVENTS_MAX + 10; i++)
		ev_queue(ef, &a, i);
	KUNIT_ASSERT_TRUE(test, oib_uverbs_test_event_take(ef, &ev));
	KUNIT_EXPECT_EQ(test, ev.cpu, 0);
	ev_queue(ef, &a, 1234567);		/* the room the read made */
	ev_queue(ef, &a, 7654321);		/* dropped */
	while (oib_uverbs_test_event_take(ef, &ev)) {
		got++;
		if (got == OIB_UVERBS_EVENTS_MAX)
			KUNIT_EXPECT_EQ(test, ev.cpu, 1234567);
	}
	KUNIT_EXPECT_EQ(test, got, OIB_UVERBS_EVENTS_MAX);
	KUNIT_EXPECT_EQ(test, a.read, OIB_UVERBS_EVENTS_MAX + 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&a.unread));
}

#define EV_PRODUCERS	4
#define EV_EACH		2000

struct ev_race {
	struct oib_uverbs_event_file *ef;
	struct ev_obj obj[EV_PRODUCERS];
	struct completion done[EV_PRODUCERS];
};

struct ev_producer {
	struct ev_race *race;
	int i;
};

static int ev_produce(void *arg)
{
	struct ev_producer *p = arg;
	int n;

	for (n = 0; n < EV_EACH; n++)
		ev_queue(p->race->ef, &p->race->obj[p->i], n);
	complete(&p->race->done[p->i]);
	return 0;
}

static bool ev_all_done(struct ev_race *race)
{
	int i;

	for (i = 0; i < EV_PRODUCERS; i++)
		if (!completion_done(&race->done[i]))
			return false;
	return true;
}

/* Producers on every CPU race a reader: every event read once, in each producer's order. */
static void event_producers_race_reader(struct kunit *test)
{
	struct ev_race *race = kunit_kzalloc(test, sizeof(*race), GFP_KERNEL);
	struct ev_producer *prod = kunit_kcalloc(test, EV_PRODUCERS, sizeof(*prod), GFP_KERNEL);
	u32 next[EV_PRODUCERS] = { 0 };
	struct oib_uverbs_event ev;
	int i, started = 0, got = 0, misordered = 0;
	bool done;

	KUNIT_ASSERT_NOT_NULL(test, race);
	KUNIT_ASSERT_NOT_NULL(test, prod);
	race->ef = ev_file(test);
	for (i = 0; i < EV_PRODUCERS; i++) {
		ev_obj_init(&race->obj[i], i + 1);
		init_completion(&race->done[i]);
	}
	for (i = 0; i < EV_PRODUCERS; i++) {
		prod[i] = (struct ev_producer){ .race = race, .i = i };
		if (IS_ERR(kthread_run(ev_produce, &prod[i], "oib_uv_ev%d", i)))
			complete(&race->done[i]);
		else
			started++;
	}
	for (;;) {
		done = ev_all_done(race);	/* before the take that may find nothing */
		if (oib_uverbs_test_event_take(race->ef, &ev)) {
			misordered += ev.cpu != next[ev.handle - 1];
			next[ev.handle - 1] = ev.cpu + 1;
			got++;
			continue;
		}
		if (done)
			break;
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, started, EV_PRODUCERS);
	KUNIT_EXPECT_EQ(test, misordered, 0);
	KUNIT_EXPECT_EQ(test, got, started * EV_EACH);
	for (i = 0; i < started; i++)
		KUNIT_EXPECT_EQ(test, race->obj[i].read, EV_EACH);
}

static struct kunit_case event_test_cases[] = {
	KUNIT_CASE(event_order_and_counts),
	KUNIT_CASE(event_drop_unread),
	KUNIT_CASE(event_without_object),
	KUNIT_CASE(event_closed_file),
	KUNIT_CASE(event_queue_cap),
	KUNIT_CASE(event_producers_race_reader),
	{}
};

static struct kunit_suite event_test_suite = {
	.name = "oib_uverbs_event",
	.test_cases = event_test_cases,
};

kunit_test_suite(event_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for oib_uverbs's event files");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
