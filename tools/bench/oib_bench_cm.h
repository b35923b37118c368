/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_bench's CM phases (oib_bench_cm.c): connections per second through oib_cm between two
 * oib_rxe devices, one and 64 attempts in flight, and teardowns per second.  oib_bench_main.c
 * calls it after the MAD phases.
 */
#ifndef OIB_BENCH_CM_H
#define OIB_BENCH_CM_H

/* Make two oib_rxe devices on @fabric, run the CM phases, print a result or n/a line each. */
void oib_bench_cm_run(const char *fabric, unsigned int timeout_ms);

#endif /* OIB_BENCH_CM_H */
