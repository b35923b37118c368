/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_bench's fan-in phases (oib_bench_xrc.c): one sender to N = 1..64 receivers between two
 * oib_rxe devices, over one XRC initiator and N XRC SRQs against N RC QP pairs: message rate and
 * kernel memory per connection.  oib_bench_main.c calls it after the RC phases.
 */
#ifndef OIB_BENCH_XRC_H
#define OIB_BENCH_XRC_H

/*
 * Make two oib_rxe devices on the bench fabric, run the fan-in phases, print their lines; -ENOMEM
 * when it could not start (nothing printed).
 */
int oib_bench_fanin_run(unsigned int timeout_ms);

#endif /* OIB_BENCH_XRC_H */
