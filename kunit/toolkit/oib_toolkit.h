/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the oib KUnit suites: software devices whose teardown KUnit manages, and the
 * allocation-failure sweep.
 */
#ifndef OIB_TEST_UTIL_H
#define OIB_TEST_UTIL_H

#include <kunit/test.h>
#include <oib/verbs.h>
#include <oib/device.h>
#include <oib/rxe.h>

/* An oib_rxe device removed when the test ends (or by oib_test_rxe_remove()). */
struct oib_device *oib_test_rxe(struct kunit *test, const struct oib_rxe_params *params);
struct oib_device *oib_test_rxe_ports(struct kunit *test, u32 num_ports);
void oib_test_rxe_remove(struct kunit *test, struct oib_device *device);

/* A PD, CQ and RC/UD QP set up for posting, all destroyed at test end. */
struct oib_test_qp {
	struct oib_device *device;
	struct oib_pd *pd;
	struct oib_cq *cq;
	struct oib_qp *qp;
};

struct oib_pd *oib_test_pd(struct kunit *test, struct oib_device *device);
struct oib_cq *oib_test_cq(struct kunit *test, struct oib_device *device, u32 cqe);
struct oib_qp *oib_test_qp(struct kunit *test, struct oib_pd *pd, struct oib_cq *cq,
			   enum oib_qp_type type, u32 wr);
/*
 * Drive a QP from its state (RESET, INIT or RTR) on to @state with valid attributes for its type
 * (RoCE path on port 1).
 */
int oib_test_qp_to(struct oib_qp *qp, enum oib_qp_state state);

/*
 * Run @create with the Nth slab allocation of this task failing, for N = 1, 2, ... until a run
 * sees no injected failure.  @create returns 0 or -errno and must leave nothing behind on error;
 * @destroy undoes a successful @create.  Returns the number of injected failures.  Each either
 * made @create fail, with the device's object counts unchanged, or was absorbed (an allocator
 * that retries) with @create succeeding.
 */
int oib_test_failslab_sweep(struct kunit *test, struct oib_device *device,
			    int (*create)(struct kunit *test, void *ctx),
			    void (*destroy)(struct kunit *test, void *ctx), void *ctx);

#endif /* OIB_TEST_UTIL_H */
