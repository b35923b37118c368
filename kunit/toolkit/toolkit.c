// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers shared by the oib KUnit suites; see oib_test_util.h.  Built as a module of its own
 * (oib_test_util.ko) that the suites depend on.
 */
#include <linux/sched.h>
#include <kunit/resource.h>
#include <linux/module.h>
#include "oib_toolkit.h"

static void oib_test_rxe_release(void *device)
{
	oib_rxe_remove(device);
}

struct oib_device *oib_test_rxe(struct kunit *test, const struct oib_rxe_params *params)
{
	struct oib_device *device = oib_rxe_add(params);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, device);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_rxe_release, device));
	return device;
}
EXPORT_SYMBOL(oib_test_rxe);

struct oib_device *oib_test_rxe_ports(struct kunit *test, u32 num_ports)
{
	struct oib_rxe_params p = { .num_ports = num_ports };

	return oib_test_rxe(test, &p);
}
EXPORT_SYMBOL(oib_test_rxe_ports);

void oib_test_rxe_remove(struct kunit *test, struct oib_device *device)
{
	kunit_release_action(test, oib_test_rxe_release, device);
}
EXPORT_SYMBOL(oib_test_rxe_remove);

static void oib_test_pd_release(void *pd)
{
	oib_dealloc_pd(pd);
}

struct oib_pd *oib_test_pd(struct kunit *test, struct oib_device *device)
{
	struct oib_pd *pd = oib_alloc_pd(device);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_pd_release, pd));
	return pd;
}
EXPORT_SYMBOL(oib_test_pd);

static void oib_test_cq_release(void *cq)
{
	oib_destroy_cq(cq);
}

struct oib_cq *oib_test_cq(struct kunit *test, struct oib_device *device, u32 cqe)
{
	struct oib_cq_init_attr attr = { .cqe = cqe };
	struct oib_cq *cq = oib_create_cq(device, NULL, NULL, NULL, &attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_cq_release, cq));
	return cq;
}
EXPORT_SYMBOL(oib_test_cq);

static void oib_test_qp_release(void *qp)
{
	oib_destroy_qp(qp);
}

struct oib_qp *oib_test_qp(struct kunit *test, struct oib_pd *pd, struct oib_cq *cq,
			   enum oib_qp_type type, u32 wr)
{
	struct oib_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .qp_type = type,
		.cap = { .max_send_wr = wr, .max_recv_wr = wr, .max_send_sge = 2,
			 .max_recv_sge = 2, .max_inline_data = 64 },
		.port_num = (type == OIB_QPT_GSI || type == OIB_QPT_SMI) ? 1 : 0,
	};
	struct oib_qp *qp = oib_create_qp(pd, &ia);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_qp_release, qp));
	return qp;
}
EXPORT_SYMBOL(oib_test_qp);

static void oib_test_fill_path(struct oib_ah_attr *ah)
{
	memset(ah, 0, sizeof(*ah));
	ah->port_num = 1;
	ah->flags = OIB_AH_GRH;
	ah->grh.sgid_index = 0;
	ah->grh.hop_limit = 64;
	ah->grh.dgid.raw[0] = 0xfe;
	ah->grh.dgid.raw[1] = 0x80;
	ah->grh.dgid.raw[15] = 1;
}

int oib_test_qp_to(struct oib_qp *qp, enum oib_qp_state target)
{
	static const enum oib_qp_state path[] = { OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPS_RTS };
	bool ud = qp->qp_type == OIB_QPT_UD || qp->qp_type == OIB_QPT_GSI;
	struct oib_qp_attr attr;
	int i, mask, ret;

	for (i = 0; i < ARRAY_SIZE(path) && path[i] <= target; i++) {
		if (path[i] <= qp->state)	/* already past this step */
			continue;
		memset(&attr, 0, sizeof(attr));
		attr.qp_state = path[i];
		mask = OIB_QP_STATE;
		switch (path[i]) {
		case OIB_QPS_INIT:
			mask |= OIB_QP_PKEY_INDEX;
			if (qp->qp_type != OIB_QPT_GSI)
				mask |= OIB_QP_PORT;
			attr.port_num = 1;
			if (ud) {
				mask |= OIB_QP_QKEY;
				attr.qkey = qp->qp_type == OIB_QPT_GSI ? 0x80010000 : 0x1234;
			} else {
				mask |= OIB_QP_ACCESS_FLAGS;
				attr.qp_access_flags = OIB_ACCESS_REMOTE_WRITE |
						       OIB_ACCESS_REMOTE_READ;
			}
			break;
		case OIB_QPS_RTR:
			if (ud)
				break;
			mask |= OIB_QP_AV | OIB_QP_PATH_MTU | OIB_QP_DEST_QPN | OIB_QP_RQ_PSN;
			oib_test_fill_path(&attr.ah_attr);
			attr.path_mtu = OIB_MTU_1024;
			attr.dest_qp_num = 0x42;
			attr.rq_psn = 100;
			if (qp->qp_type == OIB_QPT_RC) {
				mask |= OIB_QP_MAX_DEST_RD_ATOMIC | OIB_QP_MIN_RNR_TIMER;
				attr.max_dest_rd_atomic = 4;
				attr.min_rnr_timer = 12;
			}
			break;
		default:
			mask |= OIB_QP_SQ_PSN;
			attr.sq_psn = 200;
			if (qp->qp_type == OIB_QPT_RC) {
				mask |= OIB_QP_TIMEOUT | OIB_QP_RETRY_CNT | OIB_QP_RNR_RETRY |
					OIB_QP_MAX_QP_RD_ATOMIC;
				attr.timeout = 14;
				attr.retry_cnt = 7;
				attr.rnr_retry = 7;
				attr.max_rd_atomic = 4;
			}
			break;
		}
		ret = oib_modify_qp(qp, &attr, mask);
		if (ret)
			return ret;
	}
	if (target > OIB_QPS_RTS) {
		memset(&attr, 0, sizeof(attr));
		attr.qp_state = target;
		return oib_modify_qp(qp, &attr, OIB_QP_STATE);
	}
	return 0;
}
EXPORT_SYMBOL(oib_test_qp_to);

static void oib_test_counts(struct oib_device *device, int *counts)
{
	int i;

	for (i = 0; i < OIB_OBJ_MAX; i++)
		counts[i] = device ? oib_object_count(device, i) : 0;
}

int oib_test_failslab_sweep(struct kunit *test, struct oib_device *device,
			    int (*create)(struct kunit *test, void *ctx),
			    void (*destroy)(struct kunit *test, void *ctx), void *ctx)
{
	int before[OIB_OBJ_MAX], after[OIB_OBJ_MAX];
	unsigned int n, left;
	int injected = 0, ret, i;

	for (n = 1; n < 10000; n++) {
		oib_test_counts(device, before);
		current->fail_nth = n;
		ret = create(test, ctx);
		left = current->fail_nth;
		current->fail_nth = 0;

		if (!left)
			injected++;
		if (!ret) {
			destroy(test, ctx);
			if (left)	/* nothing failed: every allocation has been tried */
				break;
			continue;	/* a failure was injected and absorbed (retried) */
		}

		KUNIT_EXPECT_EQ_MSG(test, left, 0, "create failed (%d), nothing injected", ret);
		KUNIT_EXPECT_LT_MSG(test, ret, 0, "allocation %u failed but create succeeded", n);
		oib_test_counts(device, after);
		for (i = 0; i < OIB_OBJ_MAX; i++)
			KUNIT_EXPECT_EQ_MSG(test, before[i], after[i],
					    "object type %d leaked after failing allocation %u",
					    i, n);
	}
	KUNIT_EXPECT_LT(test, n, 10000u);
	return injected;
}
EXPORT_SYMBOL(oib_test_failslab_sweep);

MODULE_DESCRIPTION("oib KUnit helpers");
MODULE_LICENSE("GPL");
