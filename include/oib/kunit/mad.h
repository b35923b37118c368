/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_mad internals for its KUnit suites only: exported with EXPORT_SYMBOL_IF_KUNIT (namespace
 * EXPORTED_FOR_KUNIT_TESTING) when the kernel has KUnit, absent otherwise.  Never for ULPs.
 */
#ifndef OIB_KUNIT_MAD_H
#define OIB_KUNIT_MAD_H

#include <oib/mad.h>

/* The port's GSI QP. */
struct oib_qp *oib_mad_port_qp(struct oib_device *device, u32 port);

/* Hold back the port's send completions (true) or let them through (false). */
int oib_mad_port_hold_send_completions(struct oib_device *device, u32 port, bool hold);

/*
 * How long the port keeps a partial RMPP message with no progress, and a delivered one in
 * time-wait (jiffies; 0: the default), so that a seeded case is never raced by them.
 */
int oib_mad_port_set_reasm_timeouts(struct oib_device *device, u32 port, unsigned long idle,
				    unsigned long time_wait);

#endif /* OIB_KUNIT_MAD_H */
