// SPDX-License-Identifier: GPL-2.0-only
/*
 * A test's lifetime: made by a ctl command (a server listens before the command returns, so a
 * bad or busy address is the write's error), run by a kernel thread of its own, stopped by stop
 * or unload (kthread_stop: every wait of the thread ends on it), freed by clear or unload.
 */
#include <linux/ktime.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include "krping.h"

static const char *const krping_states[] = {
	[KRPING_S_STARTING] = "starting", [KRPING_S_LISTENING] = "listening",
	[KRPING_S_CONNECTING] = "connecting", [KRPING_S_RUNNING] = "running",
	[KRPING_S_CLOSING] = "closing", [KRPING_S_DONE] = "done",
};

const char *krping_state_name(enum krping_state s)
{
	return s <= KRPING_S_DONE ? krping_states[s] : "?";
}

void krping_rtt(struct krping_test *t, u64 rtt)
{
	if (!t->rtt_min || rtt < t->rtt_min)
		t->rtt_min = rtt;
	t->rtt_max = max(t->rtt_max, rtt);
	t->rtt_sum += rtt;
}

/* One connection of a server: take it, set it up, accept, run the mode, close. */
static int krping_serve_one(struct krping_test *t)
{
	struct krping_conn *c;
	int ret;

	t->step = "wait_request";
	c = krping_next_conn(t);
	if (IS_ERR(c))
		return PTR_ERR(c);
	WRITE_ONCE(t->state, KRPING_S_CONNECTING);
	ret = krping_conn_setup(c);
	if (!ret)
		ret = krping_accept(c);
	if (!ret) {
		WRITE_ONCE(t->state, KRPING_S_RUNNING);
		t->step = krping_mode_name(t->o.mode);
		ret = t->o.mode == KRPING_PING ? krping_ping_server(c) : krping_perf_server(c);
	}
	WRITE_ONCE(t->state, KRPING_S_CLOSING);
	krping_conn_close(c);
	krping_conn_free(c);
	return ret;
}

/* One connection of a client: resolve, set up, connect, run the mode, close. */
static int krping_client_one(struct krping_test *t)
{
	struct krping_conn *c = krping_conn_alloc(t);
	int ret;

	if (!c)
		return -ENOMEM;
	WRITE_ONCE(t->state, KRPING_S_CONNECTING);
	ret = krping_connect(t, c);
	if (!ret) {
		WRITE_ONCE(t->state, KRPING_S_RUNNING);
		t->step = krping_mode_name(t->o.mode);
		ret = t->o.mode == KRPING_PING ? krping_ping_client(c) : krping_perf_client(c);
	}
	WRITE_ONCE(t->state, KRPING_S_CLOSING);
	krping_conn_close(c);
	krping_conn_free(c);
	return ret;
}

/* conn mode: count connections one after the other, timed as a whole. */
static int krping_conn_loop(struct krping_test *t)
{
	int ret = 0;

	t->t0 = ktime_get_ns();
	while (!ret && t->conns < t->o.count && !kthread_should_stop()) {
		ret = t->o.server ? krping_serve_one(t) : krping_client_one(t);
		if (!ret)
			t->iters = ++t->conns;
		t->ns = ktime_get_ns() - t->t0;
	}
	return ret;
}

static int krping_thread(void *arg)
{
	struct krping_test *t = arg;
	int ret;

	if (t->o.mode == KRPING_CONN)
		ret = krping_conn_loop(t);
	else
		ret = t->o.server ? krping_serve_one(t) : krping_client_one(t);
	if (ret == -EINTR && !t->o.count)
		ret = 0;		/* stopped: the normal end of an endless ping */
	if (t->o.server)
		krping_unlisten(t);
	t->result = ret;
	if (t->o.verbose || ret)
		pr_info("oib_krping: test %d (%s %s) ended: %d in %s after %llu iterations, %llu connections\n",
			t->id, t->o.server ? "server" : "client", krping_mode_name(t->o.mode), ret,
			t->step, t->iters, t->conns);
	smp_store_release(&t->state, KRPING_S_DONE);	/* result first: krping_wait_all() */
	atomic_inc(&krping_done_gen);
	wake_up_all(&krping_done_wq);
	/* stay until kthread_stop(), so that the task is always stopped the same way */
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return ret;
}

struct krping_test *krping_test_create(const struct krping_opts *o, int id)
{
	struct krping_test *t = kzalloc(sizeof(*t), GFP_KERNEL);
	int ret;

	if (!t)
		return ERR_PTR(-ENOMEM);
	t->id = id;
	t->o = *o;
	spin_lock_init(&t->lock);
	init_waitqueue_head(&t->wq);
	INIT_LIST_HEAD(&t->spawned);
	t->lconn.t = t;
	t->step = o->server ? "listen" : "start";
	if (o->server) {
		ret = krping_listen(t);
		if (ret)
			goto err;
	}
	t->task = kthread_create(krping_thread, t, "krping/%d", id);
	if (IS_ERR(t->task)) {
		ret = PTR_ERR(t->task);
		krping_unlisten(t);
		goto err;
	}
	get_task_struct(t->task);
	wake_up_process(t->task);
	return t;
err:
	kfree(t);
	return ERR_PTR(ret);
}

/* Stop @t's thread (at once if it is DONE); every wait of the thread checks kthread_should_stop. */
void krping_test_stop(struct krping_test *t)
{
	if (!t->task)
		return;
	spin_lock_irq(&t->lock);
	t->stopping = true;
	spin_unlock_irq(&t->lock);
	wake_up_all(&t->wq);
	kthread_stop(t->task);
	put_task_struct(t->task);
	t->task = NULL;
	if (READ_ONCE(t->state) == KRPING_S_DONE)
		return;
	/* stopped before the thread ever ran */
	if (t->o.server)
		krping_unlisten(t);
	t->result = -EINTR;
	smp_store_release(&t->state, KRPING_S_DONE);	/* result first: krping_wait_all() */
	atomic_inc(&krping_done_gen);
	wake_up_all(&krping_done_wq);
}

void krping_test_free(struct krping_test *t)
{
	krping_test_stop(t);
	kfree(t);
}
