// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_bench's fan-in phases (issue 16): one sender on one oib_rxe device, N receivers on another
 * (N = 1, 2, 4, ..., 64), 64 B SENDs round-robin over the receivers, FANIN_DEPTH in flight in all;
 * for each N first over XRC, then over RC:
 *   fanin_xrc_N_rate  one XRC initiator QP; the kernel-owned receive QP of an XRC domain on the
 *                     other device; N XRC SRQs of that domain, each WR naming its SRQ
 *   fanin_rc_N_rate   N RC QP pairs, message i on pair i mod N
 * Every receiver (SRQ or RC QP) has FANIN_RECVS receives posted and gets one back for each that
 * completes; a SEND goes only to a receiver with a receive for it.  The CQs (one a device, shared
 * by all its queues), PDs and buffers are made once; every N's connections are made before it
 * runs and destroyed after.  Each run: fanin_iters / 10 SENDs of warm-up, then fanin_iters timed.
 *
 * Kernel memory per connection: the kernel's memory in use (oib_bench_kmem.h: pages handed out,
 * slab pages counting for the bytes of their objects in use) after the N connections are made,
 * connected and their receives posted, less before they were made, over N.  So slab objects,
 * kmalloc, vmalloc and pages alike; XRC's domain, initiator and receive QP are in it, RC's both
 * QPs of each pair.
 *
 * Result lines as oib_bench_core.h's, and one per run for the memory:
 *   oib-bench: result oib fanin_xrc_N_rate ops=N bytes=N ns=N
 *   oib-bench: mem oib fanin_xrc_N conns=N bytes=N
 */
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <oib/device.h>
#include "oib_bench_kmem.h"
#include "oib_bench_line.h"
#include "oib_bench_oib.h"
#include "oib_bench_xrc.h"

#define FANIN_MAX	64	/* receivers, at most */
#define FANIN_DEPTH	32	/* SENDs in flight, over all receivers */
#define FANIN_RECVS	32	/* receives posted on each receiver */
#define FANIN_MSG	64
#define FANIN_CQE_TX	(2 * FANIN_DEPTH)
#define FANIN_CQE_RX	(FANIN_MAX * FANIN_RECVS + FANIN_DEPTH)

static unsigned int fanin_iters = 20000;
module_param(fanin_iters, uint, 0444);
MODULE_PARM_DESC(fanin_iters, "measured 64 B SENDs in each fan-in run (XRC and RC, each N)");

/* dev[0], cq[0], buf[0]: the sender's; [1]: the receivers'. */
struct fanin {
	struct oib_bench_dev dev[2];
	struct oib_cq *cq[2];
	struct oib_mr *mr[2];
	void *buf[2];
	unsigned int timeout_ms;
	struct oib_bench_kmem kmem;
	/* one run's connections: XRC (@xrcd set) or RC */
	unsigned int n;
	struct oib_xrcd *xrcd;
	struct oib_qp *ini;
	struct oib_srq *srq[FANIN_MAX];
	struct oib_qp *qp[FANIN_MAX][2];
	/* one run's counts: SENDs to and receives posted on each receiver */
	unsigned int sent[FANIN_MAX], posted[FANIN_MAX];
	unsigned int sends, done;
	u64 last_progress;
};

static void fanin_drain(struct fanin *f)
{
	struct oib_wc wc[16];
	int i;

	for (i = 0; i < 2; i++)
		while (oib_poll_cq(f->cq[i], ARRAY_SIZE(wc), wc) > 0)
			;
}

/* One receive on receiver @k, its wr_id @k. */
static int fanin_post_recv(struct fanin *f, unsigned int k)
{
	struct oib_sge sge = {
		.addr = (uintptr_t)f->buf[1], .length = FANIN_MSG, .lkey = f->mr[1]->lkey,
	};
	struct oib_recv_wr wr = { .wr_id = k, .sg_list = &sge, .num_sge = 1 };
	int ret;

	if (f->xrcd)
		ret = oib_post_srq_recv(f->srq[k], &wr, NULL);
	else
		ret = oib_post_recv(f->qp[k][1], &wr, NULL);
	if (!ret)
		f->posted[k]++;
	return ret;
}

/* One signalled 64 B SEND to receiver @k. */
static int fanin_post_send(struct fanin *f, unsigned int k)
{
	struct oib_sge sge = {
		.addr = (uintptr_t)f->buf[0], .length = FANIN_MSG, .lkey = f->mr[0]->lkey,
	};
	struct oib_send_wr wr = {
		.wr_id = k, .opcode = OIB_WR_SEND, .sg_list = &sge, .num_sge = 1,
		.send_flags = OIB_SEND_SIGNALED,
	};
	int ret;

	if (f->xrcd) {
		wr.xrc_remote_srq_num = f->srq[k]->srq_num;
		ret = oib_post_send(f->ini, &wr, NULL);
	} else {
		ret = oib_post_send(f->qp[k][0], &wr, NULL);
	}
	if (!ret) {
		f->sent[k]++;
		f->sends++;
	}
	return ret;
}

/* Poll both CQs once: count the SENDs done, give each receiver back the receive it used. */
static int fanin_poll(struct fanin *f)
{
	struct oib_wc wc[16];
	int i, j, n, ret, got = 0;

	for (i = 0; i < 2; i++) {
		n = oib_poll_cq(f->cq[i], ARRAY_SIZE(wc), wc);
		if (n < 0)
			return n;
		for (j = 0; j < n; j++) {
			if (wc[j].status != OIB_WC_SUCCESS || wc[j].wr_id >= f->n) {
				pr_info("oib-bench: oib fan-in: completion %s (opcode %d)\n",
					oib_wc_status_msg(wc[j].status), wc[j].opcode);
				return -EIO;
			}
			if (i == 0) {
				f->done++;
				continue;
			}
			ret = fanin_post_recv(f, wc[j].wr_id);
			if (ret)
				return ret;
		}
		got += n;
	}
	if (got) {
		f->last_progress = ktime_get_ns();
		return 0;
	}
	if (ktime_get_ns() - f->last_progress > (u64)f->timeout_ms * NSEC_PER_MSEC)
		return -ETIMEDOUT;
	cond_resched();
	return 0;
}

/*
 * @warmup + @iters SENDs round-robin over the receivers, FANIN_DEPTH in flight at most; *@ns: from
 * the completion of the last warm-up SEND to that of the last one.
 */
static int fanin_stream(struct fanin *f, unsigned int warmup, unsigned int iters, u64 *ns)
{
	unsigned int total = warmup + iters, k = 0;
	u64 start = 0;
	int ret;

	f->last_progress = ktime_get_ns();
	while (f->done < total) {
		if (f->done >= warmup && !start)
			start = ktime_get_ns();
		while (f->sends < total && f->sends - f->done < FANIN_DEPTH &&
		       f->sent[k] < f->posted[k]) {
			ret = fanin_post_send(f, k);
			if (ret)
				return ret;
			k = (k + 1) % f->n;
		}
		ret = fanin_poll(f);
		if (ret)
			return ret;
	}
	*ns = ktime_get_ns() - start;
	return 0;
}

/* The XRC side of a run: a domain, its receive QP, f->n SRQs, an initiator in RTS. */
static int fanin_xrc_create(struct fanin *f)
{
	struct oib_qp_init_attr ia = {
		.qp_type = OIB_QPT_XRC_INI, .sq_sig_type = OIB_SIGNAL_ALL_WR, .send_cq = f->cq[0],
		.cap = { .max_send_wr = FANIN_DEPTH, .max_send_sge = 1 },
	};
	struct oib_srq_init_attr sa = {
		.srq_type = OIB_SRQT_XRC, .attr = { .max_wr = FANIN_RECVS, .max_sge = 1 },
		.xrc.cq = f->cq[1],
	};
	struct oib_qp_attr attr = {
		.port_num = 1, .qp_access_flags = OIB_ACCESS_REMOTE_WRITE, .rq_psn = 0x1000,
		.path_mtu = min(f->dev[0].mtu, f->dev[1].mtu), .min_rnr_timer = 1,
		.max_dest_rd_atomic = f->dev[1].rd_atom,
		.ah_attr = { .port_num = 1, .flags = OIB_AH_GRH,
			     .grh = { .dgid = f->dev[0].gid, .hop_limit = 64 } },
	};
	struct oib_xrcd *xrcd;
	struct oib_qp *qp;
	struct oib_srq *srq;
	unsigned int k;
	u32 qpn;
	int ret;

	xrcd = oib_alloc_xrcd(f->dev[1].device);
	if (IS_ERR(xrcd))
		return PTR_ERR(xrcd);
	f->xrcd = xrcd;
	qp = oib_create_qp(f->dev[0].pd, &ia);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	f->ini = qp;
	attr.dest_qp_num = qp->qp_num;
	ret = oib_create_xrc_rcv_qp(xrcd, &attr, OIB_QP_ACCESS_FLAGS | OIB_QP_PKEY_INDEX |
				    OIB_QP_PORT | OIB_QP_AV | OIB_QP_PATH_MTU | OIB_QP_DEST_QPN |
				    OIB_QP_RQ_PSN | OIB_QP_MIN_RNR_TIMER |
				    OIB_QP_MAX_DEST_RD_ATOMIC, &qpn);
	if (ret)
		return ret;
	sa.xrc.xrcd = xrcd;
	for (k = 0; k < f->n; k++) {
		srq = oib_create_srq(f->dev[1].pd, &sa);
		if (IS_ERR(srq))
			return PTR_ERR(srq);
		f->srq[k] = srq;
	}
	return oib_bench_qp_connect(f->ini, &f->dev[0], &f->dev[1], qpn);
}

/* The RC side of a run: f->n QP pairs in RTS, the senders' with no receive queue to speak of. */
static int fanin_rc_create(struct fanin *f)
{
	struct oib_qp_init_attr ia = { .qp_type = OIB_QPT_RC, .sq_sig_type = OIB_SIGNAL_ALL_WR };
	struct oib_qp *qp;
	unsigned int k;
	int i, ret;

	for (k = 0; k < f->n; k++) {
		for (i = 0; i < 2; i++) {
			ia.send_cq = f->cq[i];
			ia.recv_cq = f->cq[i];
			ia.cap = (struct oib_qp_cap){
				.max_send_wr = i ? 0 : FANIN_DEPTH, .max_send_sge = !i,
				.max_recv_wr = i ? FANIN_RECVS : 0, .max_recv_sge = i,
			};
			qp = oib_create_qp(f->dev[i].pd, &ia);
			if (IS_ERR(qp))
				return PTR_ERR(qp);
			f->qp[k][i] = qp;
		}
		for (i = 0; i < 2; i++) {
			ret = oib_bench_qp_connect(f->qp[k][i], &f->dev[i], &f->dev[!i],
						   f->qp[k][!i]->qp_num);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static void fanin_qp_destroy(struct fanin *f, struct oib_qp *qp)
{
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_ERR };

	if (oib_modify_qp(qp, &attr, OIB_QP_STATE))
		pr_info("oib-bench: oib fan-in: QP %u did not go to ERR\n", qp->qp_num);
	fanin_drain(f);
	if (oib_destroy_qp(qp))
		pr_info("oib-bench: oib fan-in: QP %u was not destroyed\n", qp->qp_num);
}

/* Everything a run made (the domain's last put destroys its receive QP), and its counts. */
static void fanin_conns_destroy(struct fanin *f)
{
	unsigned int k;
	int i;

	if (f->ini)
		fanin_qp_destroy(f, f->ini);
	for (k = 0; k < FANIN_MAX; k++) {
		if (f->srq[k] && oib_destroy_srq(f->srq[k]))
			pr_info("oib-bench: oib fan-in: SRQ %u was not destroyed\n", k);
		for (i = 0; i < 2; i++)
			if (f->qp[k][i])
				fanin_qp_destroy(f, f->qp[k][i]);
	}
	if (f->xrcd && oib_dealloc_xrcd(f->xrcd))
		pr_info("oib-bench: oib fan-in: the XRC domain was not freed\n");
	fanin_drain(f);
	f->xrcd = NULL;
	f->ini = NULL;
	memset(f->srq, 0, sizeof(f->srq));
	memset(f->qp, 0, sizeof(f->qp));
	memset(f->sent, 0, sizeof(f->sent));
	memset(f->posted, 0, sizeof(f->posted));
	f->sends = 0;
	f->done = 0;
}

/* Make @n connections of the kind @xrc says, with their receives; *@bytes: the memory they took. */
static int fanin_conns_create(struct fanin *f, unsigned int n, bool xrc, long *bytes)
{
	unsigned int k, r;
	long before;
	int ret;

	f->n = n;
	rcu_barrier();		/* the last run's deferred frees */
	ret = oib_bench_kmem_used(&f->kmem, &before);
	if (!ret)
		ret = xrc ? fanin_xrc_create(f) : fanin_rc_create(f);
	for (k = 0; k < n && !ret; k++)
		for (r = 0; r < FANIN_RECVS && !ret; r++)
			ret = fanin_post_recv(f, k);
	if (!ret)
		ret = oib_bench_kmem_used(&f->kmem, bytes);
	*bytes -= before;
	return ret;
}

/* One run: @n receivers over XRC or RC, its memory and rate lines. */
static void fanin_run(struct fanin *f, unsigned int n, bool xrc)
{
	const char *kind = xrc ? "xrc" : "rc";
	unsigned int iters = max(fanin_iters, 1U);
	char test[32];
	bool made;
	long bytes;
	u64 ns;
	int ret;

	snprintf(test, sizeof(test), "fanin_%s_%u_rate", kind, n);
	ret = fanin_conns_create(f, n, xrc, &bytes);
	made = !ret;
	if (made) {
		pr_info("oib-bench: mem oib fanin_%s_%u conns=%u bytes=%ld\n", kind, n, n, bytes);
		ret = fanin_stream(f, iters / 10, iters, &ns);
	}
	if (ret)
		pr_info("oib-bench: n/a oib %s %s%s (%d)\n", test, made ? "" : "setup_failed_",
			oib_bench_reason(ret), ret);
	else
		oib_bench_result("oib", test, iters, (u64)iters * FANIN_MSG, ns);
	fanin_conns_destroy(f);
}

/* Device @i's CQ, buffer and MR, shared by every run. */
static int fanin_side_init(struct fanin *f, int i)
{
	struct oib_cq_init_attr cq_attr = { .cqe = i ? FANIN_CQE_RX : FANIN_CQE_TX };
	struct oib_cq *cq;
	struct oib_mr *mr;
	int ret;

	ret = oib_bench_dev_create(&f->dev[i]);
	if (ret)
		return ret;
	cq = oib_create_cq(f->dev[i].device, NULL, NULL, NULL, &cq_attr);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	f->cq[i] = cq;
	f->buf[i] = (void *)get_zeroed_page(GFP_KERNEL);
	if (!f->buf[i])
		return -ENOMEM;
	mr = oib_reg_kernel_mr(f->dev[i].pd, f->buf[i], PAGE_SIZE, OIB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	f->mr[i] = mr;
	return 0;
}

static void fanin_side_destroy(struct fanin *f, int i)
{
	if (f->mr[i] && oib_dereg_mr(f->mr[i]))
		pr_info("oib-bench: oib fan-in: an MR was not deregistered\n");
	if (f->cq[i] && oib_destroy_cq(f->cq[i]))
		pr_info("oib-bench: oib fan-in: a CQ was not destroyed\n");
	if (f->buf[i])
		free_page((unsigned long)f->buf[i]);
	oib_bench_dev_destroy(&f->dev[i]);
}

int oib_bench_fanin_run(unsigned int timeout_ms)
{
	struct fanin *f;
	unsigned int n;
	int i, ret = 0;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->timeout_ms = timeout_ms;
	ret = oib_bench_kmem_open(&f->kmem);
	for (i = 0; i < 2 && !ret; i++)
		ret = fanin_side_init(f, i);
	if (ret) {
		pr_info("oib-bench: n/a oib fanin_xrc_1_rate setup_failed (%d)\n", ret);
	} else {
		pr_info("oib-bench: oib fan-in: %s to %s, 1 to %d receivers, %d SENDs of %d B in flight, %d receives each\n",
			oib_dev_name(f->dev[0].device), oib_dev_name(f->dev[1].device), FANIN_MAX,
			FANIN_DEPTH, FANIN_MSG, FANIN_RECVS);
		for (n = 1; n <= FANIN_MAX; n *= 2) {
			fanin_run(f, n, true);
			fanin_run(f, n, false);
		}
		for (i = 0; i < 2; i++)
			oib_bench_port_stats(&f->dev[i]);
	}
	for (i = 1; i >= 0; i--)
		fanin_side_destroy(f, i);
	oib_bench_kmem_close(&f->kmem);
	kfree(f);
	return 0;
}
