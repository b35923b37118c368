/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A test RNIC for the oib_iwcm suites: a complete set of iWARP CM verbs whose connections are
 * made in memory between the ids of one device (no TCP, no MPA), and verbs objects that exist
 * but carry no data (posting work requests fails).  What it reports follows the provider
 * contract of include/oib/iw_cm.h, so the suites test oib_iwcm against that contract alone.
 */
#ifndef OIB_IWCM_TEST_RNIC_H
#define OIB_IWCM_TEST_RNIC_H

#include <kunit/test.h>
#include <oib/device.h>

/* A registered test RNIC with one port, unregistered when the test ends. */
struct oib_device *test_rnic(struct kunit *test);
/* Unregister it now (device removal); the test's teardown then leaves it alone. */
void test_rnic_remove(struct kunit *test, struct oib_device *device);
/* Connections the test RNIC set up (accepted) since it was made. */
int test_rnic_connections(struct oib_device *device);

#endif /* OIB_IWCM_TEST_RNIC_H */
