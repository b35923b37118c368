// SPDX-License-Identifier: GPL-2.0-only
/*
 * The toolkit's devices, fabrics and verbs objects, each torn down by KUnit when the test ends,
 * and the allocation-failure sweep; see oib_toolkit.h.  The toolkit is a module of its own
 * (oib_toolkit.ko) that the suites depend on.
 */
#include <linux/base64.h>
#include <linux/sched.h>
#include <linux/vmalloc.h>
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

struct oib_device *oib_test_rxe_on(struct kunit *test, const char *fabric, u32 num_ports)
{
	struct oib_rxe_params p = { .num_ports = num_ports, .fabric = fabric };

	return oib_test_rxe(test, &p);
}
EXPORT_SYMBOL(oib_test_rxe_on);

void oib_test_rxe_remove(struct kunit *test, struct oib_device *device)
{
	kunit_release_action(test, oib_test_rxe_release, device);
}
EXPORT_SYMBOL(oib_test_rxe_remove);

static void oib_test_fabric_release(void *f)
{
	oib_rxe_fabric_clear_rules(f);
	oib_rxe_fabric_set_faults(f, NULL, NULL);
	oib_rxe_fabric_put(f);
}

struct orxe_fabric *oib_test_fabric(struct kunit *test, const char *name, u64 seed)
{
	struct orxe_fabric *f = oib_rxe_fabric_get(name);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_fabric_release, f));
	oib_rxe_fabric_set_seed(f, seed);
	return f;
}
EXPORT_SYMBOL(oib_test_fabric);

static void oib_test_capture_stop(void *f)
{
	oib_rxe_fabric_capture_stop(f);
}

void oib_test_capture_start(struct kunit *test, struct orxe_fabric *f, size_t size)
{
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_capture_start(f, size));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_capture_stop, f));
}
EXPORT_SYMBOL(oib_test_capture_start);

void oib_test_pcap_print(const char *name, const u8 *buf, size_t len)
{
	char line[80];
	size_t off;
	int n;

	pr_info("OIB-PCAP-BEGIN %s %zu\n", name, len);
	for (off = 0; off < len; off += 57) {	/* 57 bytes: a 76-character line */
		n = base64_encode(buf + off, min_t(size_t, 57, len - off), line);
		line[n] = '\0';
		pr_info("%s\n", line);
	}
	pr_info("OIB-PCAP-END %s\n", name);
}
EXPORT_SYMBOL(oib_test_pcap_print);

void oib_test_client_release(void *client)
{
	oib_unregister_client(client);
}
EXPORT_SYMBOL(oib_test_client_release);

void oib_test_client(struct kunit *test, struct oib_client *client)
{
	KUNIT_ASSERT_EQ(test, 0, oib_register_client(client));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_client_release, client));
}
EXPORT_SYMBOL(oib_test_client);

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

struct oib_cq *oib_test_cq_handlers(struct kunit *test, struct oib_device *device, u32 cqe,
				    oib_comp_handler_t comp, oib_event_handler_t event, void *ctx)
{
	struct oib_cq_init_attr attr = { .cqe = cqe };
	struct oib_cq *cq = oib_create_cq(device, comp, event, ctx, &attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_cq_release, cq));
	return cq;
}
EXPORT_SYMBOL(oib_test_cq_handlers);

struct oib_cq *oib_test_cq(struct kunit *test, struct oib_device *device, u32 cqe)
{
	return oib_test_cq_handlers(test, device, cqe, NULL, NULL, NULL);
}
EXPORT_SYMBOL(oib_test_cq);

static void oib_test_free_cq_release(void *cq)
{
	oib_free_cq(cq);
}

struct oib_cq *oib_test_alloc_cq(struct kunit *test, struct oib_device *device, u32 nr_cqe,
				 u32 comp_vector, enum oib_poll_context poll_ctx)
{
	struct oib_cq *cq = oib_alloc_cq(device, NULL, nr_cqe, comp_vector, poll_ctx);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_free_cq_release, cq));
	return cq;
}
EXPORT_SYMBOL(oib_test_alloc_cq);

static void oib_test_qp_release(void *qp)
{
	oib_destroy_qp(qp);
}

struct oib_qp *oib_test_qp_attr(struct kunit *test, struct oib_pd *pd,
				struct oib_qp_init_attr *attr)
{
	struct oib_qp *qp = oib_create_qp(pd, attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_qp_release, qp));
	return qp;
}
EXPORT_SYMBOL(oib_test_qp_attr);

struct oib_qp *oib_test_qp(struct kunit *test, struct oib_pd *pd, struct oib_cq *cq,
			   enum oib_qp_type type, u32 wr)
{
	struct oib_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .qp_type = type,
		.cap = { .max_send_wr = wr, .max_recv_wr = wr, .max_send_sge = 2,
			 .max_recv_sge = 2, .max_inline_data = 64 },
		.port_num = (type == OIB_QPT_GSI || type == OIB_QPT_SMI) ? 1 : 0,
	};

	return oib_test_qp_attr(test, pd, &ia);
}
EXPORT_SYMBOL(oib_test_qp);

static void oib_test_srq_release(void *srq)
{
	oib_destroy_srq(srq);
}

struct oib_srq *oib_test_srq(struct kunit *test, struct oib_pd *pd,
			     struct oib_srq_init_attr *attr)
{
	struct oib_srq *srq = oib_create_srq(pd, attr);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, srq);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_srq_release, srq));
	return srq;
}
EXPORT_SYMBOL(oib_test_srq);

static void oib_test_mr_release(void *mr)
{
	oib_dereg_mr(mr);
}

struct oib_mr *oib_test_kernel_mr(struct kunit *test, struct oib_pd *pd, void *addr, size_t len,
				  int access)
{
	struct oib_mr *mr = oib_reg_kernel_mr(pd, addr, len, access);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_mr_release, mr));
	return mr;
}
EXPORT_SYMBOL(oib_test_kernel_mr);

struct oib_mr *oib_test_alloc_mr(struct kunit *test, struct oib_pd *pd, u32 max_num_sg)
{
	struct oib_mr *mr = oib_alloc_mr(pd, OIB_MR_TYPE_MEM_REG, max_num_sg);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_mr_release, mr));
	return mr;
}
EXPORT_SYMBOL(oib_test_alloc_mr);

static void oib_test_vfree(void *p)
{
	vfree(p);
}

void *oib_test_vzalloc(struct kunit *test, size_t size)
{
	void *p = vzalloc(size);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_vfree, p));
	return p;
}
EXPORT_SYMBOL(oib_test_vzalloc);

static void oib_test_xrcd_release(void *xrcd)
{
	oib_dealloc_xrcd(xrcd);
}

struct oib_xrcd *oib_test_xrcd(struct kunit *test, struct oib_device *device)
{
	struct oib_xrcd *xrcd = oib_alloc_xrcd(device);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, xrcd);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, oib_test_xrcd_release, xrcd));
	return xrcd;
}
EXPORT_SYMBOL(oib_test_xrcd);

void oib_test_disown(struct kunit *test, void *obj)
{
	static kunit_action_t * const releases[] = {
		oib_test_pd_release, oib_test_cq_release, oib_test_qp_release,
		oib_test_srq_release, oib_test_mr_release, oib_test_free_cq_release,
		oib_test_xrcd_release,
	};
	int i;

	/* Removing an action that is not there does nothing. */
	for (i = 0; i < ARRAY_SIZE(releases); i++)
		kunit_remove_action(test, releases[i], obj);
}
EXPORT_SYMBOL(oib_test_disown);

void oib_test_path_init(struct oib_test_path *path)
{
	*path = (struct oib_test_path){
		.dgid.raw = { 0xfe, 0x80, [15] = 1 },
		.dest_qpn = 0x42, .mtu = OIB_MTU_1024, .rq_psn = 100, .sq_psn = 200,
		.access = OIB_ACCESS_REMOTE_WRITE | OIB_ACCESS_REMOTE_READ, .qkey = 0x1234,
		.timeout = 14, .retry_cnt = 7, .rnr_retry = 7, .min_rnr_timer = 12,
		.max_rd_atomic = 4, .max_dest_rd_atomic = 4,
	};
}
EXPORT_SYMBOL(oib_test_path_init);

int oib_test_qp_step(struct oib_qp *qp, enum oib_qp_state state, const struct oib_test_path *path)
{
	bool ud = qp->qp_type == OIB_QPT_UD || qp->qp_type == OIB_QPT_GSI;
	/* RC is both; an XRC initiator the requester alone, an XRC target the responder */
	bool rc = qp->qp_type == OIB_QPT_RC || qp->qp_type == OIB_QPT_XRC_TGT;
	bool req = qp->qp_type == OIB_QPT_RC || qp->qp_type == OIB_QPT_XRC_INI;
	struct oib_qp_attr attr = { .qp_state = state };
	int mask = OIB_QP_STATE;

	switch (state) {
	case OIB_QPS_INIT:
		mask |= OIB_QP_PKEY_INDEX;
		if (qp->qp_type != OIB_QPT_GSI)
			mask |= OIB_QP_PORT;
		attr.port_num = 1;
		if (ud) {
			mask |= OIB_QP_QKEY;
			/* QP1 takes the GSI Q_Key only */
			attr.qkey = qp->qp_type == OIB_QPT_GSI ? 0x80010000 : path->qkey;
		} else {
			mask |= OIB_QP_ACCESS_FLAGS;
			attr.qp_access_flags = path->access;
		}
		break;
	case OIB_QPS_RTR:
		if (ud)
			break;
		mask |= OIB_QP_AV | OIB_QP_PATH_MTU | OIB_QP_DEST_QPN | OIB_QP_RQ_PSN;
		attr.ah_attr.port_num = 1;
		attr.ah_attr.flags = OIB_AH_GRH;
		attr.ah_attr.grh.dgid = path->dgid;
		attr.ah_attr.grh.sgid_index = path->sgid_index;
		attr.ah_attr.grh.hop_limit = 64;
		attr.path_mtu = path->mtu;
		attr.dest_qp_num = path->dest_qpn;
		attr.rq_psn = path->rq_psn;
		if (rc) {
			mask |= OIB_QP_MAX_DEST_RD_ATOMIC | OIB_QP_MIN_RNR_TIMER;
			attr.max_dest_rd_atomic = path->max_dest_rd_atomic;
			attr.min_rnr_timer = path->min_rnr_timer;
		}
		break;
	case OIB_QPS_RTS:
		mask |= OIB_QP_SQ_PSN;
		attr.sq_psn = path->sq_psn;
		if (qp->qp_type == OIB_QPT_XRC_TGT) {
			mask |= OIB_QP_TIMEOUT;
			attr.timeout = path->timeout;
		}
		if (req) {
			mask |= OIB_QP_TIMEOUT | OIB_QP_RETRY_CNT | OIB_QP_RNR_RETRY |
				OIB_QP_MAX_QP_RD_ATOMIC;
			attr.timeout = path->timeout;
			attr.retry_cnt = path->retry_cnt;
			attr.rnr_retry = path->rnr_retry;
			attr.max_rd_atomic = path->max_rd_atomic;
		}
		break;
	default:
		break;
	}
	return oib_modify_qp(qp, &attr, mask);
}
EXPORT_SYMBOL(oib_test_qp_step);

int oib_test_qp_to_path(struct oib_qp *qp, enum oib_qp_state target,
			const struct oib_test_path *path)
{
	static const enum oib_qp_state steps[] = { OIB_QPS_INIT, OIB_QPS_RTR, OIB_QPS_RTS };
	struct oib_test_path defaults;
	int i, ret;

	if (!path) {
		oib_test_path_init(&defaults);
		path = &defaults;
	}
	for (i = 0; i < ARRAY_SIZE(steps) && steps[i] <= target; i++) {
		if (steps[i] <= qp->state)	/* already past this step */
			continue;
		ret = oib_test_qp_step(qp, steps[i], path);
		if (ret)
			return ret;
	}
	return target > OIB_QPS_RTS ? oib_test_qp_step(qp, target, path) : 0;
}
EXPORT_SYMBOL(oib_test_qp_to_path);

int oib_test_rc_connect(struct oib_qp *a, struct oib_qp *b, int access)
{
	struct oib_test_path pa, pb;
	int ret;

	oib_test_path_init(&pa);
	pa.access = access;
	/*
	 * About 1 s per try: these connections test completions, not retransmission, and a TCG
	 * guest on a loaded host stalls for longer than the default's 8 x 67 ms (seen once).
	 */
	pa.timeout = 18;
	pa.min_rnr_timer = 1;
	pa.max_rd_atomic = 8;
	pa.max_dest_rd_atomic = 8;
	pb = pa;
	pa.dest_qpn = b->qp_num;
	pb.dest_qpn = a->qp_num;
	pb.rq_psn = pa.sq_psn;
	pb.sq_psn = pa.rq_psn;
	ret = oib_query_gid(b->device, 1, 0, &pa.dgid, NULL);
	if (!ret)
		ret = oib_query_gid(a->device, 1, 0, &pb.dgid, NULL);
	if (!ret)
		ret = oib_test_qp_to_path(a, OIB_QPS_RTS, &pa);
	return ret ?: oib_test_qp_to_path(b, OIB_QPS_RTS, &pb);
}
EXPORT_SYMBOL(oib_test_rc_connect);

int oib_test_qp_to(struct oib_qp *qp, enum oib_qp_state target)
{
	return oib_test_qp_to_path(qp, target, NULL);
}
EXPORT_SYMBOL(oib_test_qp_to);

static void oib_test_counts(struct oib_device *device, int *counts)
{
	int i;

	for (i = 0; i < OIB_OBJ_MAX; i++)
		counts[i] = device ? oib_object_count(device, i) : 0;
}

int oib_test_failslab_sweep_range(struct kunit *test, struct oib_device *device,
				  int (*create)(struct kunit *test, void *ctx),
				  void (*destroy)(struct kunit *test, void *ctx), void *ctx,
				  unsigned int first, unsigned int last)
{
	int before[OIB_OBJ_MAX], after[OIB_OBJ_MAX];
	unsigned int n, left;
	int injected = 0, ret, i;

	for (n = first; n <= last && n < 10000; n++) {
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
EXPORT_SYMBOL(oib_test_failslab_sweep_range);

int oib_test_failslab_sweep(struct kunit *test, struct oib_device *device,
			    int (*create)(struct kunit *test, void *ctx),
			    void (*destroy)(struct kunit *test, void *ctx), void *ctx)
{
	return oib_test_failslab_sweep_range(test, device, create, destroy, ctx, 1, UINT_MAX);
}
EXPORT_SYMBOL(oib_test_failslab_sweep);

MODULE_DESCRIPTION("oib KUnit toolkit: devices, objects and waits the suites share");
MODULE_LICENSE("GPL");
