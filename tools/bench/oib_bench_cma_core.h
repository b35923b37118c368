/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The connection-rate phases shared by oib_bench (over oib_cma) and oib_bench_intree (over the
 * in-tree rdma_cm): both include this header and give it two calls over their own CM, so the
 * counting, the number in flight and the timing are the same code for every stack.
 *
 * A connection is everything a ULP does to get one: the client creates an id and resolves the
 * server's address; its handler resolves the route on ADDR_RESOLVED, creates the QP and connects
 * on ROUTE_RESOLVED; the server's listener handler creates a QP on the new id and accepts on
 * CONNECT_REQUEST.  It counts when both sides have seen ESTABLISHED.  Every id and QP is made
 * inside the timed phase; their destruction (reset) is not timed.
 *   cma_connect_1    connections made one at a time
 *   cma_connect_64   the same with 64 in flight
 * A failure, or no progress for timeout_ms, ends the phase as n/a.  Result lines as
 * oib_bench_core.h's: oib-bench: result STACK TEST ops=N bytes=0 ns=N.
 */
#ifndef OIB_BENCH_CMA_CORE_H
#define OIB_BENCH_CMA_CORE_H

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/printk.h>
#include <linux/wait.h>

#define OIB_BENCH_CMA_PORT	18516
#define OIB_BENCH_CMA_DEPTH	64

/* What each module implements over its CM; @ctx is the module's own state. */
struct oib_bench_cma_ops {
	const char *stack;
	/* Begin connection @i: create the client's id and resolve the server's address. */
	int (*start)(void *ctx, u32 i);
	/* Destroy every connection made so far, both sides, and get ready for the next phase. */
	void (*reset)(void *ctx);
};

/* What the handlers report: ESTABLISHED on either side, or anything that went wrong. */
struct oib_bench_cma_count {
	wait_queue_head_t wq;
	atomic_t established;
	atomic_t failed;
};

static inline void oib_bench_cma_count_init(struct oib_bench_cma_count *c)
{
	init_waitqueue_head(&c->wq);
	atomic_set(&c->established, 0);
	atomic_set(&c->failed, 0);
}

/* From a handler: one side established (@ok), or a failure. */
static inline void oib_bench_cma_event(struct oib_bench_cma_count *c, bool ok)
{
	atomic_inc(ok ? &c->established : &c->failed);
	wake_up_all(&c->wq);
}

/* Wait until @n sides are established; -EIO on a failure, -ETIMEDOUT without progress. */
static inline int oib_bench_cma_wait(struct oib_bench_cma_count *c, int n,
				     unsigned int timeout_ms)
{
	int last = -1;

	while (atomic_read(&c->established) < n && !atomic_read(&c->failed)) {
		if (atomic_read(&c->established) == last)
			return -ETIMEDOUT;
		last = atomic_read(&c->established);
		wait_event_timeout(c->wq, atomic_read(&c->established) >= n ||
				   atomic_read(&c->failed) ||
				   atomic_read(&c->established) != last,
				   msecs_to_jiffies(timeout_ms));
	}
	return atomic_read(&c->failed) ? -EIO : 0;
}

/* @n connections, at most @depth in flight: each needs both sides ESTABLISHED. */
static inline int oib_bench_cma_phase(const struct oib_bench_cma_ops *ops, void *ctx,
				      struct oib_bench_cma_count *c, u32 n, u32 depth,
				      unsigned int timeout_ms)
{
	u32 i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = oib_bench_cma_wait(c, 2 * ((int)i + 1 - (int)depth), timeout_ms);
		if (!ret)
			ret = ops->start(ctx, i);
		if (ret)
			return ret;
	}
	return oib_bench_cma_wait(c, 2 * n, timeout_ms);
}

/* Both phases, each followed by a reset; a result or n/a line each. */
static inline void oib_bench_cma_phases(const struct oib_bench_cma_ops *ops, void *ctx,
					struct oib_bench_cma_count *c, u32 n,
					unsigned int timeout_ms)
{
	static const u32 depth[] = { 1, OIB_BENCH_CMA_DEPTH };
	u64 t0;
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(depth); i++) {
		atomic_set(&c->established, 0);
		t0 = ktime_get_ns();
		ret = oib_bench_cma_phase(ops, ctx, c, n, depth[i], timeout_ms);
		t0 = ktime_get_ns() - t0;
		if (ret)
			pr_info("oib-bench: n/a %s cma_connect_%u failed (%d, %d of %u sides established)\n",
				ops->stack, depth[i], ret, atomic_read(&c->established), 2 * n);
		else
			pr_info("oib-bench: result %s cma_connect_%u ops=%u bytes=0 ns=%llu\n",
				ops->stack, depth[i], n, t0);
		ops->reset(ctx);
		if (ret)
			return;
	}
}

#endif /* OIB_BENCH_CMA_CORE_H */
