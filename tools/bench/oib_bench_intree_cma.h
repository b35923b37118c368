/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_bench_intree's connection phases (oib_bench_intree_cma.c): connections per second through
 * the in-tree rdma_cm on the device with @addr, one and 64 in flight; oib_bench_intree_main.c calls
 * it after the RC phases.
 */
#ifndef OIB_BENCH_INTREE_CMA_H
#define OIB_BENCH_INTREE_CMA_H

#include <linux/in.h>

/* Run the phases (oib_bench_cma_core.h) to @addr, printing a result or n/a line each. */
void oib_bench_intree_cma_run(const char *stack, const struct sockaddr_in *addr,
			      unsigned int timeout_ms);

#endif /* OIB_BENCH_INTREE_CMA_H */
