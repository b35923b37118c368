/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark logic shared by oib_bench (oib verbs) and oib_bench_intree (the in-tree verbs over
 * the in-tree rdma_cm, on rdma_rxe or siw): both modules include this header and give it the same
 * three calls over their own verbs API, so the phases, sizes, iteration counts, queue depths and
 * timing are the same code for every stack.
 *
 * OIB_BENCH_PAIRS pairs of connected RC QPs: in each pair side 0 (the client) and side 1 (the
 * server); every side has a buffer of OIB_BENCH_BIG bytes registered for local and remote access.
 * The phases (pair 0 unless said):
 *   rc_send_64B_rate     64 B SENDs from side 0, OIB_BENCH_DEPTH outstanding, side 1 reposting
 *                        its receives
 *   rc_send_4KiB_rate    the same with 4 KiB SENDs
 *   rdma_write_64KiB_bw  64 KiB RDMA WRITEs from side 0 into side 1's buffer, same depth
 *   rdma_read_64KiB_bw   64 KiB RDMA READs by side 0 of side 1's buffer, same depth
 *   rdma_write_1MiB_bw   1 MiB RDMA WRITEs, OIB_BENCH_BIG_DEPTH outstanding
 *   rc_send_64B_lat      64 B SEND ping-pong, one message in flight
 *   agg8_write_64KiB_bw  64 KiB RDMA WRITEs on all OIB_BENCH_PAIRS pairs at once,
 *                        OIB_BENCH_AGG_DEPTH outstanding on each
 * Each runs a warm-up of a tenth of its operations, then measures a fixed number of operations with
 * ktime_get_ns().  Every WR is signalled; completions are busy-polled (with cond_resched(), or
 * sleeping idle_us when a poll finds nothing) by the loading thread for every side.  A SEND is
 * posted only while its receiver has a receive posted for it (iWARP has no RNR: a SEND without a
 * receive breaks the connection).  A wait that sees no completion for timeout_ms fails the phase
 * (-ETIMEDOUT) and the remaining phases are reported as not run.
 *
 * Results go to the kernel log, one line each, for tools/bench.sh to turn into figures:
 *   oib-bench: result STACK TEST ops=N bytes=N ns=N
 *   oib-bench: n/a STACK TEST REASON
 *   oib-bench: clock khz=N cpus=N        (the guest's TSC and online CPUs, for cycles per message)
 *   oib-bench: idle STACK TEST permille=N (the vCPUs' idle time over the phase, warm-up included)
 * The memcpy reference (oib_bench_memcpy()) prints the same way with STACK "memcpy".
 */
#ifndef OIB_BENCH_CORE_H
#define OIB_BENCH_CORE_H

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/kernel_stat.h>
#include <linux/tick.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/moduleparam.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif
#include "oib_bench_line.h"

#define OIB_BENCH_BUF		(64 * 1024)	/* the bandwidth phases' message; a receive */
#define OIB_BENCH_BIG		(1024 * 1024)	/* a side's buffer; the 1 MiB phase's message */
#define OIB_BENCH_SMALL		64
#define OIB_BENCH_MID		4096
#define OIB_BENCH_PAIRS		8		/* QP pairs; the aggregate phase uses all */
#define OIB_BENCH_DEPTH		32		/* outstanding WRs for rate/bandwidth */
#define OIB_BENCH_BIG_DEPTH	8		/* outstanding 1 MiB WRITEs */
#define OIB_BENCH_AGG_DEPTH	8		/* outstanding WRs per pair, aggregate phase */
#define OIB_BENCH_RQ_DEPTH	(2 * OIB_BENCH_DEPTH)	/* receives kept posted */
#define OIB_BENCH_SQ_DEPTH	(2 * OIB_BENCH_DEPTH)
#define OIB_BENCH_CQ_DEPTH	(OIB_BENCH_SQ_DEPTH + OIB_BENCH_RQ_DEPTH)

static char *only;
module_param(only, charp, 0444);
MODULE_PARM_DESC(only, "run only the RC or MAD phase of this name (PROFILE=NAME): others n/a");
static unsigned int send_iters = 20000;
module_param(send_iters, uint, 0444);
MODULE_PARM_DESC(send_iters, "measured 64 B SENDs in the message rate phase");
static unsigned int mid_iters = 10000;
module_param(mid_iters, uint, 0444);
MODULE_PARM_DESC(mid_iters, "measured 4 KiB SENDs in the 4 KiB message rate phase");
static unsigned int bw_iters = 2000;
module_param(bw_iters, uint, 0444);
MODULE_PARM_DESC(bw_iters, "measured 64 KiB RDMA WRITEs and READs in the bandwidth phases, aggregate too");
static unsigned int big_iters = 200;
module_param(big_iters, uint, 0444);
MODULE_PARM_DESC(big_iters, "measured 1 MiB RDMA WRITEs");
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

/* What each module implements over its verbs API; @ctx is the module's connections. */
struct oib_bench_ops {
	const char *stack;
	/*
	 * Post one signalled @op of @len bytes on pair @pair: SEND from @side's buffer, or RDMA
	 * between it and the peer's buffer.
	 */
	int (*post_send)(void *ctx, int pair, int side, enum oib_bench_op op, u32 len);
	/* Post one receive of up to OIB_BENCH_BUF bytes on side @side of pair @pair. */
	int (*post_recv)(void *ctx, int pair, int side);
	/*
	 * Poll the CQ of side @side of pair @pair once (a batch): add its successful send and
	 * receive completions to *@sends and *@recvs.  A completion in error gives -EIO (after
	 * printing its status).
	 */
	int (*poll)(void *ctx, int pair, int side, unsigned int *sends, unsigned int *recvs);
};

/* Counts per pair and side; completions seen, WRs posted, SENDs posted (each takes a receive). */
struct oib_bench_end {
	unsigned int sends, recvs;
	unsigned int posted_sends, posted_recvs;
	unsigned int msgs;
};

struct oib_bench_state {
	const struct oib_bench_ops *ops;
	void *ctx;
	struct oib_bench_end end[OIB_BENCH_PAIRS][2];
	u64 last_progress;			/* ktime of the last completion */
};

static inline void oib_bench_clock(void)
{
#ifdef CONFIG_X86
	pr_info("oib-bench: clock khz=%u cpus=%u\n", tsc_khz, num_online_cpus());
#endif
}

/* The online CPUs' idle time so far in us (NO_HZ's count, or the ticks' without it). */
static inline u64 oib_bench_idle_us(void)
{
	u64 sum = 0, t;
	int cpu;

	for_each_online_cpu(cpu) {
		t = get_cpu_idle_time_us(cpu, NULL);
		if (t == (u64)-1)
			t = div_u64(kcpustat_cpu(cpu).cpustat[CPUTIME_IDLE], NSEC_PER_USEC);
		sum += t;
	}
	return sum;
}

/* Poll side @side of pair @p once; side 1 keeps its receive queue full. */
static inline int oib_bench_poll(struct oib_bench_state *s, int p, int side)
{
	struct oib_bench_end *e = &s->end[p][side];
	unsigned int before = e->sends + e->recvs;
	int ret = s->ops->poll(s->ctx, p, side, &e->sends, &e->recvs);

	if (ret)
		return ret;
	while (side == 1 && e->posted_recvs - e->recvs < OIB_BENCH_RQ_DEPTH) {
		ret = s->ops->post_recv(s->ctx, p, 1);
		if (ret)
			return ret;
		e->posted_recvs++;
	}
	if (e->sends + e->recvs != before) {
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

/* Post @n receives on side @side of pair @p. */
static inline int oib_bench_fill_rq(struct oib_bench_state *s, int p, int side, unsigned int n)
{
	int ret;

	while (n--) {
		ret = s->ops->post_recv(s->ctx, p, side);
		if (ret)
			return ret;
		s->end[p][side].posted_recvs++;
	}
	return 0;
}

/* Post one @op from side @side of pair @p, counted. */
static inline int oib_bench_post(struct oib_bench_state *s, int p, int side, enum oib_bench_op op,
				 u32 len)
{
	int ret = s->ops->post_send(s->ctx, p, side, op, len);

	if (ret)
		return ret;
	s->end[p][side].posted_sends++;
	if (op == OIB_BENCH_SEND)
		s->end[p][side].msgs++;
	return 0;
}

/* May side 0 of pair @p post one more @op now, with @depth outstanding at most? */
static inline bool oib_bench_may_post(struct oib_bench_state *s, int p, enum oib_bench_op op,
				      unsigned int depth)
{
	struct oib_bench_end *e = &s->end[p][0];

	if (e->posted_sends - e->sends >= depth)
		return false;
	/* a SEND only while side 1 surely has a receive for it (posted before its last poll) */
	return op != OIB_BENCH_SEND || e->msgs - s->end[p][1].recvs < OIB_BENCH_RQ_DEPTH;
}

/* Completions of side 0 over pairs [0, @npairs). */
static inline unsigned int oib_bench_done(struct oib_bench_state *s, int npairs)
{
	unsigned int n = 0;
	int p;

	for (p = 0; p < npairs; p++)
		n += s->end[p][0].sends;
	return n;
}

/*
 * Stream @warmup + @iters operations of @op and @len from side 0 of pairs [0, @npairs), spread
 * evenly, with up to @depth outstanding on each; *@ns is the time from the completion of the last
 * warm-up operation to that of the last one.
 */
static inline int oib_bench_stream(struct oib_bench_state *s, enum oib_bench_op op, u32 len,
				   int npairs, unsigned int depth, unsigned int warmup,
				   unsigned int iters, u64 *ns)
{
	unsigned int base = oib_bench_done(s, npairs), total = warmup + iters, posted = 0, done;
	unsigned int quota[OIB_BENCH_PAIRS];
	u64 start = 0;
	int p, ret;

	for (p = 0; p < npairs; p++)
		quota[p] = total / npairs + (p < total % npairs);
	s->last_progress = ktime_get_ns();
	for (;;) {
		done = oib_bench_done(s, npairs) - base;
		if (done >= warmup && !start)
			start = ktime_get_ns();
		if (done >= total)
			break;
		for (p = 0; p < npairs; p++) {
			while (quota[p] && oib_bench_may_post(s, p, op, depth)) {
				ret = oib_bench_post(s, p, 0, op, len);
				if (ret)
					return ret;
				quota[p]--;
				posted++;
			}
			ret = oib_bench_poll(s, p, 0);
			if (!ret)
				ret = oib_bench_poll(s, p, 1);
			if (ret)
				return ret;
		}
	}
	*ns = ktime_get_ns() - start;
	return 0;
}

/* Wait until side @side of pair 0 has seen @n receive completions in all. */
static inline int oib_bench_wait_recv(struct oib_bench_state *s, int side, unsigned int n)
{
	int ret;

	while (s->end[0][side].recvs < n) {
		ret = oib_bench_poll(s, 0, side);
		if (!ret)
			ret = oib_bench_poll(s, 0, !side);
		if (ret)
			return ret;
	}
	return 0;
}

/* Wait until side @side of pair 0 has fewer than @n sends outstanding. */
static inline int oib_bench_wait_sq(struct oib_bench_state *s, int side, unsigned int n)
{
	struct oib_bench_end *e = &s->end[0][side];
	int ret;

	while (e->posted_sends - e->sends >= n) {
		ret = oib_bench_poll(s, 0, side);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Ping-pong @len byte SENDs on pair 0: side 0 sends, side 1 answers on receipt; @warmup + @iters
 * round trips, *@ns the time of the last @iters.
 */
static inline int oib_bench_pingpong(struct oib_bench_state *s, u32 len, unsigned int warmup,
				     unsigned int iters, u64 *ns)
{
	struct oib_bench_end *e0 = &s->end[0][0];
	unsigned int i, total = warmup + iters;
	u64 start = 0;
	int side, ret;

	ret = oib_bench_fill_rq(s, 0, 0, OIB_BENCH_RQ_DEPTH - (e0->posted_recvs - e0->recvs));
	if (ret)
		return ret;
	s->last_progress = ktime_get_ns();
	for (i = 0; i < total; i++) {
		if (i == warmup)
			start = ktime_get_ns();
		for (side = 0; side < 2; side++) {
			ret = oib_bench_wait_sq(s, side, OIB_BENCH_DEPTH);
			if (!ret)
				ret = oib_bench_post(s, 0, side, OIB_BENCH_SEND, len);
			if (!ret)
				ret = oib_bench_wait_recv(s, !side, s->end[0][!side].recvs + 1);
			/* side 1 reposts in oib_bench_poll(); side 0 here */
			if (!ret && side == 1)
				ret = oib_bench_fill_rq(s, 0, 0, 1);
			if (ret)
				return ret;
		}
	}
	*ns = ktime_get_ns() - start;
	/* reap the last send completions so the next phase starts clean */
	ret = oib_bench_wait_sq(s, 0, 1);
	return ret ? ret : oib_bench_wait_sq(s, 1, 1);
}

/* The phases, in the order run; pairs 0: the ping-pong. */
struct oib_bench_phase {
	const char *name;
	enum oib_bench_op op;
	u32 len;
	unsigned int *iters;
	int pairs;
	unsigned int depth;
};

static const struct oib_bench_phase oib_bench_phases[] = {
	{ "rc_send_64B_rate", OIB_BENCH_SEND, OIB_BENCH_SMALL, &send_iters, 1, OIB_BENCH_DEPTH },
	{ "rc_send_4KiB_rate", OIB_BENCH_SEND, OIB_BENCH_MID, &mid_iters, 1, OIB_BENCH_DEPTH },
	{ "rdma_write_64KiB_bw", OIB_BENCH_WRITE, OIB_BENCH_BUF, &bw_iters, 1, OIB_BENCH_DEPTH },
	{ "rdma_read_64KiB_bw", OIB_BENCH_READ, OIB_BENCH_BUF, &bw_iters, 1, OIB_BENCH_DEPTH },
	{ "rdma_write_1MiB_bw", OIB_BENCH_WRITE, OIB_BENCH_BIG, &big_iters, 1,
	  OIB_BENCH_BIG_DEPTH },
	{ "rc_send_64B_lat", OIB_BENCH_SEND, OIB_BENCH_SMALL, &lat_iters, 0, 1 },
	{ "agg8_write_64KiB_bw", OIB_BENCH_WRITE, OIB_BENCH_BUF, &bw_iters, OIB_BENCH_PAIRS,
	  OIB_BENCH_AGG_DEPTH },
};

/* Run the phases over OIB_BENCH_PAIRS connected pairs; prints a result or n/a line for each. */
static inline void oib_bench_run(const struct oib_bench_ops *ops, void *ctx)
{
	struct oib_bench_state state = { .ops = ops, .ctx = ctx }, *s = &state;
	const struct oib_bench_phase *ph;
	int i, p, ret = 0, failed = -1;
	u64 ns = 0, idle, wall;
	unsigned int n;

	oib_bench_clock();
	for (p = 0; p < OIB_BENCH_PAIRS && !ret; p++)
		ret = oib_bench_fill_rq(s, p, 1, OIB_BENCH_RQ_DEPTH);
	for (i = 0; i < ARRAY_SIZE(oib_bench_phases) && !ret; i++) {
		ph = &oib_bench_phases[i];
		if (only && strcmp(only, ph->name)) {
			pr_info("oib-bench: n/a %s %s not_selected\n", ops->stack, ph->name);
			continue;
		}
		n = max(*ph->iters, 1U);
		idle = oib_bench_idle_us();
		wall = ktime_get_ns();
		if (ph->pairs)
			ret = oib_bench_stream(s, ph->op, ph->len, ph->pairs, ph->depth, n / 10, n,
					       &ns);
		else
			ret = oib_bench_pingpong(s, ph->len, n / 10, n, &ns);
		if (ret) {
			failed = i;
			break;
		}
		oib_bench_result(ops->stack, ph->name, n, (u64)n * ph->len, ns);
		wall = (ktime_get_ns() - wall) / NSEC_PER_USEC * num_online_cpus();
		if (wall)
			pr_info("oib-bench: idle %s %s permille=%llu\n", ops->stack, ph->name,
				div64_u64((oib_bench_idle_us() - idle) * 1000, wall));
	}
	if (ret && failed < 0) {
		failed = 0;
		pr_info("oib-bench: %s: posting the initial receives failed (%d)\n",
			ops->stack, ret);
	}
	for (i = max(failed, 0); failed >= 0 && i < ARRAY_SIZE(oib_bench_phases); i++)
		pr_info("oib-bench: n/a %s %s %s%s (%d)\n", ops->stack, oib_bench_phases[i].name,
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
		{ "copy_1MiB", OIB_BENCH_BIG, 1000 },
	};
	u32 len;
	void *src, *dst;
	unsigned int i, j;
	u64 start, ns;

	src = kvmalloc(OIB_BENCH_BIG, GFP_KERNEL);
	dst = kvmalloc(OIB_BENCH_BIG, GFP_KERNEL);
	if (!src || !dst) {
		kvfree(src);
		kvfree(dst);
		return -ENOMEM;
	}
	memset(src, 0x5a, OIB_BENCH_BIG);
	memset(dst, 0, OIB_BENCH_BIG);
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		len = runs[i].len;
		OPTIMIZER_HIDE_VAR(len);
		for (j = 0; j < runs[i].iters / 10; j++)
			memcpy(dst, src, len);
		start = ktime_get_ns();
		for (j = 0; j < runs[i].iters; j++) {
			memcpy(dst, src, len);
			barrier();
			if (!(j & 1023) || len > OIB_BENCH_BUF)
				cond_resched();
		}
		ns = ktime_get_ns() - start;
		oib_bench_result("memcpy", runs[i].name, runs[i].iters,
				 (u64)runs[i].iters * runs[i].len, ns);
	}
	kvfree(src);
	kvfree(dst);
	return 0;
}

#endif /* OIB_BENCH_CORE_H */
