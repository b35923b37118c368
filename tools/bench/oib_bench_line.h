/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark modules' output lines (tools/bench.sh reads them): a figure's raw counts, and the
 * word an n/a line gives for an error.
 *   oib-bench: result STACK TEST ops=N bytes=N ns=N
 */
#ifndef OIB_BENCH_LINE_H
#define OIB_BENCH_LINE_H

#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/types.h>

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

#endif /* OIB_BENCH_LINE_H */
