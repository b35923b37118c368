/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_bench's connection phases over oib_cma (oib_bench_cma.c): connections per second between two
 * oib_rxe devices with IP addresses, one and 64 in flight; oib_bench_main.c calls it after the CM
 * phases.
 */
#ifndef OIB_BENCH_CMA_H
#define OIB_BENCH_CMA_H

/* Make two oib_rxe devices on @fabric, run the phases, print a result or n/a line each. */
void oib_bench_cma_run(const char *fabric, unsigned int timeout_ms);

#endif /* OIB_BENCH_CMA_H */
