/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_bench's MAD phases (oib_bench_mad.c): request/response round trips and RMPP transfers
 * between the MAD agents of two oib_rxe devices.  oib_bench_main.c calls it after its RC phases.
 */
#ifndef OIB_BENCH_MAD_H
#define OIB_BENCH_MAD_H

/*
 * Make two oib_rxe devices on @fabric, run the MAD phases between them (only the one named @only,
 * when not NULL) and print a result or n/a line for each; @timeout_ms bounds every wait for a
 * response or for progress.
 */
void oib_bench_mad_run(const char *fabric, unsigned int timeout_ms, const char *only);

/* Whether @name is one of the MAD phases' names. */
bool oib_bench_mad_phase_name(const char *name);

#endif /* OIB_BENCH_MAD_H */
