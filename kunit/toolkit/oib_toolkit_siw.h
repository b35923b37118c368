/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The toolkit's oib_siw part (toolkit_siw.c): oib_siw devices on the netdevs the guest makes in
 * the initial namespace for the KUnit phase (kunit_net in tools/testing/guest/lib.sh): oibsiw0
 * with 10.0.0.1 and fd00::1, oibsiw1 with 10.0.0.2 and fd00::2, oibsiw2 with 10.0.0.3 and
 * fd00::3.  All three are in one namespace, so their TCP connections go over the loopback.  A
 * test that finds no such netdev skips.  Linked into each suite module that uses it.
 */
#ifndef OIB_TOOLKIT_SIW_H
#define OIB_TOOLKIT_SIW_H

#include "oib_toolkit_cma.h"

/* oib_cma contexts of oib_siw devices (cmat_ctx_of()). */
extern const struct cmat_kind cmat_siw;
/* The kinds a suite runs each case over: oib_rxe's, oib_siw's. */
extern const struct cmat_kind *const cmat_kinds[2];

/* The oib_siw device of 10.0.0.@host's netdev (1 to 3); @managed: removed when the test ends. */
struct oib_device *oib_test_siw(struct kunit *test, u8 host, bool managed);

#endif /* OIB_TOOLKIT_SIW_H */
