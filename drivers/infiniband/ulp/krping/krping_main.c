// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_krping: module init and exit, and the list of tests the ctl file starts, stops, clears and
 * waits for.  Unloading stops every test that still runs (Documentation/krping.md).
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched/signal.h>
#include "krping.h"

/* The test list and the next id; held while a test is made, stopped or freed. */
DEFINE_MUTEX(krping_lock);
LIST_HEAD(krping_tests);
DECLARE_WAIT_QUEUE_HEAD(krping_done_wq);
atomic_t krping_done_gen = ATOMIC_INIT(0);
static int krping_next_id = 1;

/* A new test with the next id; -ENOSPC when KRPING_MAX_TESTS are kept (clear some). */
int krping_start(const struct krping_opts *o)
{
	struct krping_test *t, *pos;
	int n = 0;

	mutex_lock(&krping_lock);
	list_for_each_entry(pos, &krping_tests, entry)
		n++;
	if (n >= KRPING_MAX_TESTS) {
		mutex_unlock(&krping_lock);
		return -ENOSPC;
	}
	t = krping_test_create(o, krping_next_id);
	if (!IS_ERR(t)) {
		krping_next_id++;
		list_add_tail(&t->entry, &krping_tests);
	}
	mutex_unlock(&krping_lock);
	return PTR_ERR_OR_ZERO(t);
}

/* Stop test @id (< 0: all); the tests stay listed, DONE.  -ENOENT: no such test. */
int krping_stop(int id)
{
	struct krping_test *t;
	int ret = id < 0 ? 0 : -ENOENT;

	mutex_lock(&krping_lock);
	/* newest first: clients end before the servers they were started against */
	list_for_each_entry_reverse(t, &krping_tests, entry) {
		if (id >= 0 && t->id != id)
			continue;
		krping_test_stop(t);
		ret = 0;
	}
	mutex_unlock(&krping_lock);
	return ret;
}

/* Forget the tests that are DONE. */
int krping_clear(void)
{
	struct krping_test *t, *tmp;

	mutex_lock(&krping_lock);
	list_for_each_entry_safe(t, tmp, &krping_tests, entry) {
		if (READ_ONCE(t->state) != KRPING_S_DONE)
			continue;
		list_del(&t->entry);
		krping_test_free(t);
	}
	mutex_unlock(&krping_lock);
	return 0;
}

/* Whether test @id (< 0: every test) is DONE; its (the first failed test's) result. */
static bool krping_all_done(int id, int *result)
{
	struct krping_test *t;
	bool done = true, found = id < 0;

	*result = 0;
	mutex_lock(&krping_lock);
	list_for_each_entry(t, &krping_tests, entry) {
		if (id >= 0 && t->id != id)
			continue;
		found = true;
		if (smp_load_acquire(&t->state) != KRPING_S_DONE)	/* then result */
			done = false;
		else if (t->result && !*result)
			*result = t->result;
	}
	mutex_unlock(&krping_lock);
	if (!found)
		*result = -ENOENT;
	return done;
}

/*
 * Sleep until test @id (< 0: every test) is DONE: its result (the first failed test's), -ENOENT
 * for no such test, or -ERESTARTSYS on a signal.  The list is looked at under its mutex, so not
 * in the wait's condition: each test reaching DONE bumps krping_done_gen, which it watches.
 */
int krping_wait_all(int id)
{
	int result, gen, ret;

	for (;;) {
		gen = atomic_read(&krping_done_gen);
		if (krping_all_done(id, &result))
			return result;
		ret = wait_event_interruptible(krping_done_wq,
					       atomic_read(&krping_done_gen) != gen);
		if (ret)
			return ret;
	}
}

static int __init krping_init(void)
{
	return krping_debugfs_init();
}

static void __exit krping_exit(void)
{
	struct krping_test *t, *tmp;

	krping_debugfs_exit();
	mutex_lock(&krping_lock);
	list_for_each_entry_safe_reverse(t, tmp, &krping_tests, entry) {
		list_del(&t->entry);
		krping_test_free(t);		/* stops it first */
	}
	mutex_unlock(&krping_lock);
}

module_init(krping_init);
module_exit(krping_exit);
MODULE_DESCRIPTION("oib_krping: rping's exchange, latency, bandwidth and connection rate over oib_cma");
MODULE_LICENSE("GPL");
