/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The toolkit's test RNIC (toolkit_rnic.c), for the oib_iwcm and oib_cma suites: a complete
 * set of iWARP CM verbs whose connections are made in memory between the ids of test RNICs (no
 * TCP, no MPA), and verbs objects that exist but carry no data (posting work requests fails).
 * What it reports follows the provider contract of include/oib/iw_cm.h, so the suites test
 * oib_iwcm and oib_cma against that contract alone.  Linked into each suite module that uses
 * it; nothing exported.
 */
#ifndef OIB_TOOLKIT_RNIC_H
#define OIB_TOOLKIT_RNIC_H

#include <kunit/test.h>
#include <oib/device.h>

/* A registered test RNIC with one port, unregistered when the test ends. */
struct oib_device *oib_test_rnic(struct kunit *test);
/* Unregister it now (device removal); the test's teardown then leaves it alone. */
void oib_test_rnic_remove(struct kunit *test, struct oib_device *device);
/* Give the test RNIC the IPv4 address 10.0.0.@host (its GID ::ffff:10.0.0.@host). */
void oib_test_rnic_addr(struct kunit *test, struct oib_device *device, u8 host);
/* Connections the test RNIC accepted since it was made. */
int oib_test_rnic_connections(struct oib_device *device);

#endif /* OIB_TOOLKIT_RNIC_H */
