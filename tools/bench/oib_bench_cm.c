// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_bench's CM phases, after the MAD ones: two oib_rxe devices on the bench fabric, a listener
 * on the second (module oib_cm), cm_iters RC QP pairs made beforehand (not timed):
 *   cm_connect_1    connections set up one at a time: REQ out to both sides ESTABLISHED, both
 *                   QPs in RTS (the CM moves them)
 *   cm_connect_64   the same with 64 attempts in flight
 *   cm_teardown_64  DREQ out to DREP back, 64 in flight (TIMEWAIT is not waited for)
 * Each phase times all its connections with ktime_get_ns(); a connection that fails, or no
 * progress for timeout_ms, ends the phase as n/a.  Result lines as oib_bench_core.h's:
 *   oib-bench: result oib TEST ops=N bytes=0 ns=N
 */
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <oib/cm.h>
#include <oib/rxe.h>
#include "oib_bench_cm.h"

#define OIB_BENCH_CM_SID	0x0000000001060001ULL
#define OIB_BENCH_CM_DEPTH	64

static unsigned int cm_iters = 500;
module_param(cm_iters, uint, 0444);
MODULE_PARM_DESC(cm_iters, "connections set up and torn down in each CM phase");

struct bcm;

struct bcm_conn {
	struct bcm *b;
	struct oib_qp *qp[2];
	struct oib_cm_id *id[2];	/* active, passive */
};

struct bcm_side {
	struct oib_device *device;
	struct oib_pd *pd;
	struct oib_cq *cq;
	union oib_gid gid;
};

struct bcm {
	struct bcm_side side[2];
	struct oib_cm_id *listener;
	struct oib_cm_path path;
	wait_queue_head_t wq;
	atomic_t established, released, failed;
	struct bcm_conn *conns;
	unsigned int n;
};

static int bcm_accept(struct oib_cm_id *id, const struct oib_cm_event *ev)
{
	struct bcm *b = id->context;
	struct oib_cm_rep_param rep = { .rnr_retry_count = 7 };
	u32 i;

	memcpy(&i, ev->private_data, sizeof(i));
	if (i >= b->n || b->conns[i].id[1])
		return -EINVAL;
	b->conns[i].id[1] = id;
	id->context = &b->conns[i];
	rep.qp = b->conns[i].qp[1];
	return oib_cm_send_rep(id, &rep);
}

static int bcm_handler(struct oib_cm_id *id, const struct oib_cm_event *ev)
{
	struct bcm_conn *c = id->context;
	struct bcm *b;

	if (ev->type == OIB_CM_EVENT_REQ_RECEIVED)
		return bcm_accept(id, ev);
	b = c->b;
	switch (ev->type) {
	case OIB_CM_EVENT_REP_RECEIVED:
		if (oib_cm_send_rtu(id, NULL, 0))
			atomic_inc(&b->failed);
		break;
	case OIB_CM_EVENT_ESTABLISHED:
		atomic_inc(&b->established);
		break;
	case OIB_CM_EVENT_DREQ_RECEIVED:
		if (oib_cm_send_drep(id, NULL, 0))
			atomic_inc(&b->failed);
		break;
	case OIB_CM_EVENT_DREP_RECEIVED:
		atomic_inc(&b->released);
		break;
	case OIB_CM_EVENT_TIMEWAIT_EXIT:
		break;
	default:
		atomic_inc(&b->failed);
		break;
	}
	wake_up_all(&b->wq);
	return 0;
}

static int bcm_side_init(struct bcm_side *s, const char *fabric)
{
	struct oib_rxe_params params = { .fabric = fabric, .num_ports = 1 };

	s->device = oib_rxe_add(&params);
	if (IS_ERR(s->device))
		return PTR_ERR(s->device);
	s->pd = oib_alloc_pd(s->device);
	if (IS_ERR(s->pd))
		return PTR_ERR(s->pd);
	s->cq = oib_create_cq(s->device, NULL, NULL, NULL,
			      &(struct oib_cq_init_attr){ .cqe = 64 });
	if (IS_ERR(s->cq))
		return PTR_ERR(s->cq);
	return oib_query_gid(s->device, 1, 0, &s->gid, NULL);
}

static void bcm_side_fini(struct bcm_side *s)
{
	if (!IS_ERR_OR_NULL(s->cq))
		oib_destroy_cq(s->cq);
	if (!IS_ERR_OR_NULL(s->pd))
		oib_dealloc_pd(s->pd);
	if (!IS_ERR_OR_NULL(s->device))
		oib_rxe_remove(s->device);
}

static struct oib_qp *bcm_qp(struct bcm_side *s)
{
	struct oib_qp_init_attr attr = {
		.send_cq = s->cq, .recv_cq = s->cq, .qp_type = OIB_QPT_RC,
		.cap = { .max_send_wr = 2, .max_recv_wr = 2, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};

	return oib_create_qp(s->pd, &attr);
}

static void bcm_reset(struct bcm *b)
{
	struct oib_qp_attr reset = { .qp_state = OIB_QPS_RESET };
	unsigned int i;
	int j;

	for (i = 0; i < b->n; i++)
		for (j = 0; j < 2; j++) {
			oib_cm_destroy_id(b->conns[i].id[j]);
			b->conns[i].id[j] = NULL;
			if (!IS_ERR_OR_NULL(b->conns[i].qp[j]))
				oib_modify_qp(b->conns[i].qp[j], &reset, OIB_QP_STATE);
		}
	atomic_set(&b->established, 0);
	atomic_set(&b->released, 0);
}

static int bcm_connect(struct bcm *b, u32 i)
{
	struct oib_cm_req_param req = {
		.qp = b->conns[i].qp[0], .path = &b->path, .service_id = OIB_BENCH_CM_SID,
		.starting_psn = i, .private_data = &i, .private_data_len = sizeof(i),
		.remote_cm_response_timeout = 20, .local_cm_response_timeout = 20,
		.retry_count = 7, .rnr_retry_count = 7, .max_cm_retries = 15,
	};
	struct oib_cm_id *id = oib_cm_create_id(b->side[0].device, bcm_handler, &b->conns[i]);

	if (IS_ERR(id))
		return PTR_ERR(id);
	b->conns[i].id[0] = id;
	return oib_cm_send_req(id, &req);
}

/* Wait until @v reaches @n (or a failure, or no progress for @timeout_ms). */
static int bcm_wait(struct bcm *b, atomic_t *v, int n, unsigned int timeout_ms)
{
	int last = -1;

	while (atomic_read(v) < n && !atomic_read(&b->failed)) {
		if (atomic_read(v) == last)
			return -ETIMEDOUT;
		last = atomic_read(v);
		wait_event_timeout(b->wq, atomic_read(v) >= n || atomic_read(&b->failed) ||
				   atomic_read(v) != last, msecs_to_jiffies(timeout_ms));
	}
	return atomic_read(&b->failed) ? -EIO : 0;
}

/* Set up every connection, @depth at a time: both ends count ESTABLISHED. */
static int bcm_phase_connect(struct bcm *b, unsigned int depth, unsigned int timeout_ms)
{
	unsigned int i;
	int ret;

	for (i = 0; i < b->n; i++) {
		ret = bcm_wait(b, &b->established, 2 * ((int)i + 1 - (int)depth), timeout_ms);
		if (!ret)
			ret = bcm_connect(b, i);
		if (ret)
			return ret;
	}
	return bcm_wait(b, &b->established, 2 * b->n, timeout_ms);
}

static int bcm_phase_teardown(struct bcm *b, unsigned int depth, unsigned int timeout_ms)
{
	unsigned int i;
	int ret;

	for (i = 0; i < b->n; i++) {
		ret = bcm_wait(b, &b->released, (int)i + 1 - (int)depth, timeout_ms);
		if (!ret)
			ret = oib_cm_send_dreq(b->conns[i].id[0], NULL, 0);
		if (ret)
			return ret;
	}
	return bcm_wait(b, &b->released, b->n, timeout_ms);
}

static void bcm_result(const char *test, unsigned int n, u64 t0, int ret)
{
	if (ret)
		pr_info("oib-bench: n/a oib %s failed (%d)\n", test, ret);
	else
		pr_info("oib-bench: result oib %s ops=%u bytes=0 ns=%llu\n", test, n,
			ktime_get_ns() - t0);
}

static void bcm_phases(struct bcm *b, unsigned int timeout_ms)
{
	u64 t0 = ktime_get_ns();
	int ret;

	ret = bcm_phase_connect(b, 1, timeout_ms);
	bcm_result("cm_connect_1", b->n, t0, ret);
	if (ret)
		return;
	bcm_reset(b);
	t0 = ktime_get_ns();
	ret = bcm_phase_connect(b, OIB_BENCH_CM_DEPTH, timeout_ms);
	bcm_result("cm_connect_64", b->n, t0, ret);
	if (ret)
		return;
	t0 = ktime_get_ns();
	ret = bcm_phase_teardown(b, OIB_BENCH_CM_DEPTH, timeout_ms);
	bcm_result("cm_teardown_64", b->n, t0, ret);
}

static int bcm_setup(struct bcm *b, const char *fabric)
{
	unsigned int i;
	int j, ret;

	for (j = 0; j < 2; j++) {
		ret = bcm_side_init(&b->side[j], fabric);
		if (ret)
			return ret;
	}
	for (i = 0; i < b->n; i++) {
		b->conns[i].b = b;
		for (j = 0; j < 2; j++) {
			b->conns[i].qp[j] = bcm_qp(&b->side[j]);
			if (IS_ERR(b->conns[i].qp[j]))
				return PTR_ERR(b->conns[i].qp[j]);
		}
	}
	b->listener = oib_cm_create_id(b->side[1].device, bcm_handler, b);
	if (IS_ERR(b->listener))
		return PTR_ERR(b->listener);
	b->path = (struct oib_cm_path){ .sgid = b->side[0].gid, .dgid = b->side[1].gid,
					.hop_limit = 64, .mtu = OIB_MTU_1024,
					.packet_life_time = 16, .pkey = 0xffff };
	return oib_cm_listen(b->listener, OIB_BENCH_CM_SID, 0);
}

static void bcm_teardown(struct bcm *b)
{
	unsigned int i;
	int j;

	bcm_reset(b);
	if (!IS_ERR_OR_NULL(b->listener))
		oib_cm_destroy_id(b->listener);
	for (i = 0; i < b->n; i++)
		for (j = 0; j < 2; j++)
			if (!IS_ERR_OR_NULL(b->conns[i].qp[j]))
				oib_destroy_qp(b->conns[i].qp[j]);
	for (j = 1; j >= 0; j--)
		bcm_side_fini(&b->side[j]);
}

void oib_bench_cm_run(const char *fabric, unsigned int timeout_ms)
{
	struct bcm *b = kzalloc(sizeof(*b), GFP_KERNEL);
	int ret;

	if (!b) {
		pr_info("oib-bench: n/a oib cm_connect_1 no_memory\n");
		return;
	}
	init_waitqueue_head(&b->wq);
	b->n = cm_iters;
	b->conns = vzalloc(array_size(b->n, sizeof(*b->conns)));
	ret = b->conns ? bcm_setup(b, fabric) : -ENOMEM;
	if (ret)
		pr_info("oib-bench: n/a oib cm_connect_1 setup_failed (%d)\n", ret);
	else
		bcm_phases(b, timeout_ms);
	if (b->conns)
		bcm_teardown(b);
	vfree(b->conns);
	kfree(b);
}
