/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark logic shared by oib_bench (oib verbs) and oib_bench_ibrxe (the in-tree verbs on
 * rdma_rxe): both modules include this header and give it the same three calls over their own verbs
 * API, so the phases, sizes, iteration counts, queue depths and timing are the same code for both.
 *
 * Two RC QPs, side 0 (the client) and side 1 (the server), are connected to each other; each side
 * has a buffer of OIB_BENCH_BUF bytes registered for local and remote access.  The phases:
 *   rc_send_64B_rate    64 B SENDs from side 0, OIB_BENCH_DEPTH outstanding, side 1 reposting
 *                       its receives
 *   rdma_write_64KiB_bw 64 KiB RDMA WRITEs from side 0 into side 1's buffer, same depth
 *   rdma_read_64KiB_bw  64 KiB RDMA READs by side 0 of side 1's buffer, same depth
 *   rc_send_64B_lat     64 B SEND ping-pong, one message in flight
 * Each runs a warm-up of a tenth of its iterations, then measures a fixed number of operations with
 * ktime_get_ns().  Every WR is signalled; completions are busy-polled (with cond_resched(), or
 * sleeping idle_us when a poll finds nothing) by the loading thread for both sides.  A wait that
 * sees no completion for timeout_ms fails the phase (-ETIMEDOUT) and the remaining phases are
 * reported as not run.
 *
 * Results go to the kernel log, one line each, for tools/bench.sh to turn into figures:
 *   oib-bench: result STACK TEST ops=N bytes=N ns=N
 *   oib-bench: n/a STACK TEST REASON
 * The memcpy reference (oib_bench_memcpy()) prints the same way with STACK "memcpy".
 */
#ifndef OIB_BENCH_CORE_H
#define OIB_BENCH_CORE_H

#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/moduleparam.h>

#define OIB_BENCH_BUF		(64 * 1024)
#define OIB_BENCH_SMALL		64
#define OIB_BENCH_DEPTH		32			/* outstanding WRs for rate/bandwidth */
#define OIB_BENCH_RQ_DEPTH	(2 * OIB_BENCH_DEPTH)	/* receives kept posted */
#define OIB_BENCH_SQ_DEPTH	(2 * OIB_BENCH_DEPTH)
#define OIB_BENCH_CQ_DEPTH	(OIB_BENCH_SQ_DEPTH + OIB_BENCH_RQ_DEPTH)

static unsigned int send_iters = 20000;
module_param(send_iters, uint, 0444);
MODULE_PARM_DESC(send_iters, "measured 64 B SENDs in the message rate phase");
static unsigned int bw_iters = 2000;
module_param(bw_iters, uint, 0444);
MODULE_PARM_DESC(bw_iters, "measured 64 KiB RDMA WRITEs and READs in the bandwidth phases");
static unsigned int lat_iters = 5000;
module_param(lat_iters, uint, 0444);
MODULE_PARM_DESC(lat_iters, "measured round trips in the ping-pong phase");
static unsigned int timeout_ms = 5000;
module_param(timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms, "a wait with no completion for this long fails the phase");
static unsigned int idle_us;
module_param(idle_us, uint, 0444);
MODULE_PARM_DESC(idle_us, "0: busy-poll (cond_resched); else sleep this long when a poll finds nothing");

enum oib_bench_op {
	OIB_BENCH_SEND,
	OIB_BENCH_WRITE,
	OIB_BENCH_READ,
};

/* What each module implements over its verbs API; @ctx is the module's connection. */
struct oib_bench_ops {
	const char *stack;
	/* Post one signalled @op of @len bytes: SEND from @side's buffer, or RDMA with the peer. */
	int (*post_send)(void *ctx, int side, enum oib_bench_op op, u32 len);
	/* Post one receive of up to OIB_BENCH_BUF bytes on side @side. */
	int (*post_recv)(void *ctx, int side);
	/*
	 * Poll side @side's CQ once (a batch): add its successful send and receive completions to
	 * *@sends and *@recvs.  A completion in error gives -EIO (after printing its status).
	 */
	int (*poll)(void *ctx, int side, unsigned int *sends, unsigned int *recvs);
};

struct oib_bench_state {
	const struct oib_bench_ops *ops;
	void *ctx;
	unsigned int sends[2], recvs[2];	/* completions seen per side */
	unsigned int posted_sends[2];
	unsigned int posted_recvs[2];
	u64 last_progress;			/* ktime of the last completion */
};

static inline int oib_bench_poll(struct oib_bench_state *s, int side)
{
	unsigned int before = s->sends[side] + s->recvs[side];
	int ret = s->ops->poll(s->ctx, side, &s->sends[side], &s->recvs[side]);

	if (ret)
		return ret;
	/* side 1 keeps its receive queue full */
	while (side == 1 && s->posted_recvs[1] - s->recvs[1] < OIB_BENCH_RQ_DEPTH) {
		ret = s->ops->post_recv(s->ctx, 1);
		if (ret)
			return ret;
		s->posted_recvs[1]++;
	}
	if (s->sends[side] + s->recvs[side] != before) {
		s->last_progress = ktime_get_ns();
	} else {
		if (ktime_get_ns() - s->last_progress > (u64)timeout_ms * NSEC_PER_MSEC)
			return -ETIMEDOUT;
		if (idle_us)
			usleep_range(idle_us, 2 * idle_us);
		else
			cond_resched();
	}
	return 0;
}

/* Post @n receives on side @side. */
static inline int oib_bench_fill_rq(struct oib_bench_state *s, int side, unsigned int n)
{
	int ret;

	while (n--) {
		ret = s->ops->post_recv(s->ctx, side);
		if (ret)
			return ret;
		s->posted_recvs[side]++;
	}
	return 0;
}

/*
 * Stream @warmup + @iters operations of @op and @len from side 0 with up to OIB_BENCH_DEPTH
 * outstanding; *@ns is the time from the completion of the last warm-up operation to that of the
 * last one.
 */
static inline int oib_bench_stream(struct oib_bench_state *s, enum oib_bench_op op, u32 len,
				   unsigned int warmup, unsigned int iters, u64 *ns)
{
	unsigned int base = s->sends[0], total = warmup + iters, posted = 0, done;
	u64 start = 0;
	int ret;

	s->last_progress = ktime_get_ns();
	for (;;) {
		done = s->sends[0] - base;
		if (done >= warmup && !start)
			start = ktime_get_ns();
		if (done >= total)
			break;
		while (posted < total && posted - done < OIB_BENCH_DEPTH) {
			ret = s->ops->post_send(s->ctx, 0, op, len);
			if (ret)
				return ret;
			posted++;
		}
		ret = oib_bench_poll(s, 0);
		if (!ret)
			ret = oib_bench_poll(s, 1);
		if (ret)
			return ret;
	}
	*ns = ktime_get_ns() - start;
	s->posted_sends[0] += posted;
	return 0;
}

/* Wait until side @side has seen @n receive completions in all. */
static inline int oib_bench_wait_recv(struct oib_bench_state *s, int side, unsigned int n)
{
	int ret;

	while (s->recvs[side] < n) {
		ret = oib_bench_poll(s, side);
		if (!ret)
			ret = oib_bench_poll(s, !side);
		if (ret)
			return ret;
	}
	return 0;
}

/* Wait until side @side has fewer than @n sends outstanding. */
static inline int oib_bench_wait_sq(struct oib_bench_state *s, int side, unsigned int n)
{
	int ret;

	while (s->posted_sends[side] - s->sends[side] >= n) {
		ret = oib_bench_poll(s, side);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Ping-pong @len byte SENDs: side 0 sends, side 1 answers on receipt; @warmup + @iters round trips,
 * *@ns the time of the last @iters.
 */
static inline int oib_bench_pingpong(struct oib_bench_state *s, u32 len, unsigned int warmup,
				     unsigned int iters, u64 *ns)
{
	unsigned int i, total = warmup + iters;
	u64 start = 0;
	int side, ret;

	ret = oib_bench_fill_rq(s, 0, OIB_BENCH_RQ_DEPTH - (s->posted_recvs[0] - s->recvs[0]));
	if (ret)
		return ret;
	s->last_progress = ktime_get_ns();
	for (i = 0; i < total; i++) {
		if (i == warmup)
			start = ktime_get_ns();
		for (side = 0; side < 2; side++) {
			ret = oib_bench_wait_sq(s, side, OIB_BENCH_DEPTH);
			if (ret)
				return ret;
			ret = s->ops->post_send(s->ctx, side, OIB_BENCH_SEND, len);
			if (ret)
				return ret;
			s->posted_sends[side]++;
			ret = oib_bench_wait_recv(s, !side, s->recvs[!side] + 1);
			if (ret)
				return ret;
			/* side 1 reposts in oib_bench_poll(); side 0 here */
			if (side == 1) {
				ret = oib_bench_fill_rq(s, 0, 1);
				if (ret)
					return ret;
			}
		}
	}
	*ns = ktime_get_ns() - start;
	/* reap the last send completions so the next phase starts clean */
	ret = oib_bench_wait_sq(s, 0, 1);
	return ret ? ret : oib_bench_wait_sq(s, 1, 1);
}

static inline void oib_bench_result(const char *stack, const char *test, u64 ops, u64 bytes,
				    u64 ns)
{
	pr_info("oib-bench: result %s %s ops=%llu bytes=%llu ns=%llu\n",
		stack, test, ops, bytes, ns);
}

static inline const char *oib_bench_reason(int err)
{
	switch (err) {
	case -ETIMEDOUT:
		return "timeout_waiting_for_completions";
	case -EIO:
		return "completion_error";
	case -ENOMEM:
		return "queue_full_or_no_memory";
	case -EINVAL:
		return "post_refused";
	default:
		return "error";
	}
}

/* Run the four phases over a connected pair; prints a result or n/a line for each. */
static inline void oib_bench_run(const struct oib_bench_ops *ops, void *ctx)
{
	static const char * const names[] = {
		"rc_send_64B_rate", "rdma_write_64KiB_bw", "rdma_read_64KiB_bw",
		"rc_send_64B_lat",
	};
	struct oib_bench_state s = { .ops = ops, .ctx = ctx };
	unsigned int iters[] = { send_iters, bw_iters, bw_iters, lat_iters };
	int i, ret = 0, failed = -1;
	u64 ns = 0;

	ret = oib_bench_fill_rq(&s, 1, OIB_BENCH_RQ_DEPTH);
	for (i = 0; i < ARRAY_SIZE(names) && !ret; i++) {
		u32 len = (i == 1 || i == 2) ? OIB_BENCH_BUF : OIB_BENCH_SMALL;
		unsigned int n = max(iters[i], 1U);

		switch (i) {
		case 0:
			ret = oib_bench_stream(&s, OIB_BENCH_SEND, len, n / 10, n, &ns);
			break;
		case 1:
			ret = oib_bench_stream(&s, OIB_BENCH_WRITE, len, n / 10, n, &ns);
			break;
		case 2:
			ret = oib_bench_stream(&s, OIB_BENCH_READ, len, n / 10, n, &ns);
			break;
		default:
			ret = oib_bench_pingpong(&s, len, n / 10, n, &ns);
			break;
		}
		if (ret) {
			failed = i;
			break;
		}
		oib_bench_result(ops->stack, names[i], n, (u64)n * len, ns);
	}
	if (ret && failed < 0) {
		failed = 0;
		pr_info("oib-bench: %s: posting the initial receives failed (%d)\n",
			ops->stack, ret);
	}
	for (i = max(failed, 0); failed >= 0 && i < ARRAY_SIZE(names); i++)
		pr_info("oib-bench: n/a %s %s %s%s (%d)\n", ops->stack, names[i],
			i == failed ? "" : "not_run_after_", oib_bench_reason(ret), ret);
}

/*
 * The physical reference: the kernel's memcpy() over the same sizes, as many operations as the
 * matching phase plus a warm-up, on cache-hot buffers.  The length is hidden from the optimiser so
 * that the compiler calls memcpy() rather than inlining moves.
 */
static inline int oib_bench_memcpy(void)
{
	static const struct {
		const char *name;
		u32 len;
		unsigned int iters;
	} runs[] = {
		{ "copy_64B", OIB_BENCH_SMALL, 1000000 },
		{ "copy_64KiB", OIB_BENCH_BUF, 20000 },
	};
	u32 len;
	void *src, *dst;
	unsigned int i, j;
	u64 start, ns;

	src = kmalloc(OIB_BENCH_BUF, GFP_KERNEL);
	dst = kmalloc(OIB_BENCH_BUF, GFP_KERNEL);
	if (!src || !dst) {
		kfree(src);
		kfree(dst);
		return -ENOMEM;
	}
	memset(src, 0x5a, OIB_BENCH_BUF);
	memset(dst, 0, OIB_BENCH_BUF);
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		len = runs[i].len;
		OPTIMIZER_HIDE_VAR(len);
		for (j = 0; j < runs[i].iters / 10; j++)
			memcpy(dst, src, len);
		start = ktime_get_ns();
		for (j = 0; j < runs[i].iters; j++) {
			memcpy(dst, src, len);
			barrier();
			if (!(j & 1023))
				cond_resched();
		}
		ns = ktime_get_ns() - start;
		oib_bench_result("memcpy", runs[i].name, runs[i].iters,
				 (u64)runs[i].iters * runs[i].len, ns);
	}
	kfree(src);
	kfree(dst);
	return 0;
}

#endif /* OIB_BENCH_CORE_H */
