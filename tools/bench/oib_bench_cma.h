/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_bench's connection phases over oib_cma (oib_bench_cma.c): connections per second between two
 * devices with IP addresses, one and 64 in flight; oib_bench_main.c calls it after the CM phases
 * (oib_rxe) and after the iWARP RC phases (oib_siw).
 */
#ifndef OIB_BENCH_CMA_H
#define OIB_BENCH_CMA_H

struct oib_device;

/*
 * The phases between @dev[0] and @dev[1], whose IPv4 addresses are @addr[0] and @addr[1]: a
 * result or n/a line each, for @stack.
 */
void oib_bench_cma_run(const char *stack, struct oib_device *const dev[2],
		       const char *const addr[2], unsigned int timeout_ms);
/* The same between two oib_rxe devices on @fabric, with 10.77.0.1 and 10.77.0.2, as "oib". */
void oib_bench_cma_rxe(const char *fabric, unsigned int timeout_ms);

#endif /* OIB_BENCH_CMA_H */
