// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_bench: on insmod, measures the memcpy reference and then the RC phases of oib_bench_core.h
 * (SEND rates, RDMA WRITE and READ bandwidth, SEND ping-pong latency, an aggregate over several QP
 * pairs) between two oib_rxe devices on a fabric of their own (the same code as oib_bench_intree
 * runs over the in-tree verbs), then the fan-in phases of oib_bench_xrc.c (one sender to N
 * receivers, XRC against RC, between two more), and last the MAD phases of oib_bench_mad.c (round
 * trips and RMPP between two devices of their own; the module needs oib_mad), the CM phases of
 * oib_bench_cm.c (oib_cm) and the connection phases of oib_bench_cma.c (oib_cma); last the RC and
 * connection phases again between two oib_siw devices (oib_bench_siw.c), the iWARP figures, set
 * beside the in-tree siw's of oib_bench_intree.  Results go to the kernel log; the module stays
 * loaded, doing nothing, until rmmod.  Never loaded by make check (tools/bench.sh builds it only
 * for make bench).
 */
#include <linux/module.h>
#include <oib/verbs.h>
#include <oib/device.h>
#include <oib/rxe.h>
#include "oib_bench_core.h"
#include "oib_bench_cm.h"
#include "oib_bench_cma.h"
#include "oib_bench_mad.h"
#include "oib_bench_oib.h"
#include "oib_bench_xrc.h"

static_assert(OIB_BENCH_NPAIRS == OIB_BENCH_PAIRS);

static char *fabric = "oib_bench";
module_param(fabric, charp, 0444);
MODULE_PARM_DESC(fabric, "the oib_rxe fabric the two devices attach to");
static bool memcpy_ref = true;
module_param(memcpy_ref, bool, 0444);
MODULE_PARM_DESC(memcpy_ref, "measure the memcpy reference first");

static int oib_bench_post_send(void *ctx, int pair, int side, enum oib_bench_op op, u32 len)
{
	struct oib_bench_conn *c = ctx;
	struct oib_bench_side *me = &c->side[pair][side], *peer = &c->side[pair][!side];
	struct oib_sge sge = { .addr = (uintptr_t)me->buf, .length = len, .lkey = me->mr->lkey };
	struct oib_send_wr wr = {
		.wr_id = op, .sg_list = &sge, .num_sge = 1, .send_flags = OIB_SEND_SIGNALED,
	};
	const struct oib_send_wr *bad;

	switch (op) {
	case OIB_BENCH_SEND:
		wr.opcode = OIB_WR_SEND;
		break;
	case OIB_BENCH_WRITE:
		wr.opcode = OIB_WR_RDMA_WRITE;
		break;
	case OIB_BENCH_READ:
		wr.opcode = OIB_WR_RDMA_READ;
		break;
	}
	wr.wr.rdma.remote_addr = peer->mr->iova;
	wr.wr.rdma.rkey = peer->mr->rkey;
	return oib_post_send(me->qp, &wr, &bad);
}

static int oib_bench_post_recv(void *ctx, int pair, int side)
{
	struct oib_bench_conn *c = ctx;
	struct oib_bench_side *me = &c->side[pair][side];
	struct oib_sge sge = {
		.addr = (uintptr_t)me->buf, .length = OIB_BENCH_BUF, .lkey = me->mr->lkey,
	};
	struct oib_recv_wr wr = { .sg_list = &sge, .num_sge = 1 };
	const struct oib_recv_wr *bad;

	return oib_post_recv(me->qp, &wr, &bad);
}

static int oib_bench_poll_cq(void *ctx, int pair, int side, unsigned int *sends,
			     unsigned int *recvs)
{
	struct oib_bench_conn *c = ctx;
	struct oib_wc wc[16];
	int n, i;

	n = oib_poll_cq(c->side[pair][side].cq, ARRAY_SIZE(wc), wc);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (wc[i].status != OIB_WC_SUCCESS) {
			pr_info("oib-bench: oib pair %d side %d: completion %s (opcode %d)\n", pair,
				side, oib_wc_status_msg(wc[i].status), wc[i].opcode);
			return -EIO;
		}
		if (wc[i].opcode & OIB_WC_RECV)
			(*recvs)++;
		else
			(*sends)++;
	}
	return 0;
}

static const struct oib_bench_ops oib_bench_oib_ops = {
	.stack = "oib",
	.post_send = oib_bench_post_send,
	.post_recv = oib_bench_post_recv,
	.poll = oib_bench_poll_cq,
};

/* The same calls over oib_siw devices, under the name the figures give them. */
static const struct oib_bench_ops oib_bench_siw_ops = {
	.stack = "oib_siw",
	.post_send = oib_bench_post_send,
	.post_recv = oib_bench_post_recv,
	.poll = oib_bench_poll_cq,
};

int oib_bench_dev_init(struct oib_bench_dev *d)
{
	struct oib_device_attr dev_attr;
	struct oib_port_attr port_attr;
	int ret;

	ret = oib_query_device(d->device, &dev_attr);
	if (!ret)
		ret = oib_query_port(d->device, 1, &port_attr);
	if (ret)
		return ret;
	d->mtu = min(port_attr.active_mtu, OIB_MTU_4096);
	d->rd_atom = min3(dev_attr.max_qp_rd_atom, dev_attr.max_qp_init_rd_atom, 16U);
	d->pd = oib_alloc_pd(d->device);
	if (IS_ERR(d->pd)) {
		ret = PTR_ERR(d->pd);
		d->pd = NULL;
	}
	return ret;
}

int oib_bench_dev_create(struct oib_bench_dev *d)
{
	struct oib_rxe_params params = { .num_ports = 1, .fabric = fabric };
	enum oib_gid_type type;
	int ret;

	d->device = oib_rxe_add(&params);
	if (IS_ERR(d->device)) {
		ret = PTR_ERR(d->device);
		d->device = NULL;
		return ret;
	}
	d->remove = oib_rxe_remove;
	ret = oib_query_gid(d->device, 1, 0, &d->gid, &type);
	return ret ?: oib_bench_dev_init(d);
}

void oib_bench_dev_destroy(struct oib_bench_dev *d)
{
	if (d->pd)
		oib_dealloc_pd(d->pd);
	if (d->device && d->remove(d->device))
		pr_info("oib-bench: %s was not removed\n", oib_dev_name(d->device));
}

static void oib_bench_side_qp_attr(struct oib_bench_side *s, struct oib_qp_init_attr *attr)
{
	*attr = (struct oib_qp_init_attr){
		.qp_type = OIB_QPT_RC,
		.sq_sig_type = OIB_SIGNAL_ALL_WR,
		.send_cq = s->cq,
		.recv_cq = s->cq,
		.cap = { .max_send_wr = OIB_BENCH_SQ_DEPTH, .max_recv_wr = OIB_BENCH_RQ_DEPTH,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
}

static int oib_bench_side_alloc(struct oib_bench_side *s, struct oib_bench_dev *d)
{
	struct oib_cq_init_attr cq_attr = { .cqe = OIB_BENCH_CQ_DEPTH };
	int ret;

	s->dev = d;
	s->buf = alloc_pages_exact(OIB_BENCH_BIG, GFP_KERNEL | __GFP_ZERO);
	if (!s->buf)
		return -ENOMEM;
	s->cq = oib_create_cq(d->device, NULL, NULL, NULL, &cq_attr);
	if (IS_ERR(s->cq)) {
		ret = PTR_ERR(s->cq);
		s->cq = NULL;
		return ret;
	}
	s->mr = oib_reg_kernel_mr(d->pd, s->buf, OIB_BENCH_BIG, OIB_ACCESS_LOCAL_WRITE |
				  OIB_ACCESS_REMOTE_WRITE | OIB_ACCESS_REMOTE_READ);
	if (IS_ERR(s->mr)) {
		ret = PTR_ERR(s->mr);
		s->mr = NULL;
		return ret;
	}
	return 0;
}

int oib_bench_side_create(struct oib_bench_side *s, struct oib_bench_dev *d)
{
	struct oib_qp_init_attr qp_attr;
	int ret;

	ret = oib_bench_side_alloc(s, d);
	if (ret)
		return ret;
	oib_bench_side_qp_attr(s, &qp_attr);
	if (s->id) {
		ret = oib_cma_create_qp(s->id, d->pd, &qp_attr);
		if (!ret)
			s->qp = s->id->qp;
		return ret;
	}
	s->qp = oib_create_qp(d->pd, &qp_attr);
	if (IS_ERR(s->qp)) {
		ret = PTR_ERR(s->qp);
		s->qp = NULL;
	}
	return ret;
}

/*
 * Tear down whatever was made for @s: the QP goes to ERR first to flush its WRs (over oib_cma,
 * with a disconnect), then the id that owns it.
 */
static void oib_bench_side_destroy(struct oib_bench_side *s)
{
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_ERR };
	struct oib_wc wc[16];

	if (s->qp) {
		if (!s->id || oib_cma_disconnect(s->id))
			oib_modify_qp(s->qp, &attr, OIB_QP_STATE);
		while (oib_poll_cq(s->cq, ARRAY_SIZE(wc), wc) > 0)
			;
		if (s->id)
			oib_cma_destroy_qp(s->id);
		else
			oib_destroy_qp(s->qp);
	}
	if (s->id)
		oib_cma_destroy_id(s->id);
	if (s->mr)
		oib_dereg_mr(s->mr);
	if (s->cq)
		oib_destroy_cq(s->cq);
	if (s->buf)
		free_pages_exact(s->buf, OIB_BENCH_BIG);
}

int oib_bench_qp_connect(struct oib_qp *qp, struct oib_bench_dev *me, struct oib_bench_dev *peer,
			 u32 dest_qpn)
{
	struct oib_qp_attr attr = {
		.qp_state = OIB_QPS_INIT,
		.pkey_index = 0,
		.port_num = 1,
		.qp_access_flags = OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE |
				   OIB_ACCESS_REMOTE_READ,
	};
	int mask, ret;

	ret = oib_modify_qp(qp, &attr, OIB_QP_STATE | OIB_QP_PKEY_INDEX | OIB_QP_PORT |
			    OIB_QP_ACCESS_FLAGS);
	if (ret)
		return ret;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = OIB_QPS_RTR;
	attr.ah_attr.port_num = 1;
	attr.ah_attr.flags = OIB_AH_GRH;
	attr.ah_attr.grh.dgid = peer->gid;
	attr.ah_attr.grh.sgid_index = 0;
	attr.ah_attr.grh.hop_limit = 64;
	attr.path_mtu = min(me->mtu, peer->mtu);
	attr.dest_qp_num = dest_qpn;
	attr.rq_psn = 0x1000;
	mask = OIB_QP_STATE | OIB_QP_AV | OIB_QP_PATH_MTU | OIB_QP_DEST_QPN | OIB_QP_RQ_PSN;
	if (qp->qp_type != OIB_QPT_XRC_INI) {	/* an initiator has no responder */
		attr.max_dest_rd_atomic = me->rd_atom;
		attr.min_rnr_timer = 1;
		mask |= OIB_QP_MAX_DEST_RD_ATOMIC | OIB_QP_MIN_RNR_TIMER;
	}
	ret = oib_modify_qp(qp, &attr, mask);
	if (ret)
		return ret;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = OIB_QPS_RTS;
	attr.sq_psn = 0x1000;
	attr.timeout = 14;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.max_rd_atomic = peer->rd_atom;
	return oib_modify_qp(qp, &attr, OIB_QP_STATE | OIB_QP_SQ_PSN | OIB_QP_TIMEOUT |
			     OIB_QP_RETRY_CNT | OIB_QP_RNR_RETRY | OIB_QP_MAX_QP_RD_ATOMIC);
}

/* RESET -> INIT -> RTR -> RTS towards @peer. */
static int oib_bench_connect(struct oib_bench_side *me, struct oib_bench_side *peer)
{
	return oib_bench_qp_connect(me->qp, me->dev, peer->dev, peer->qp->qp_num);
}

/* What the transport did besides sending once: retransmissions, timeouts, RNR and sequence NAKs. */
void oib_bench_port_stats(struct oib_bench_dev *d)
{
	pr_info("oib-bench: oib: %s: %llu retransmitted, %llu timeouts, %llu RNR NAKs sent, %llu out of sequence\n",
		oib_dev_name(d->device), oib_rxe_port_stat(d->device, 1, OIB_RXE_TX_RETRANSMITS),
		oib_rxe_port_stat(d->device, 1, OIB_RXE_TX_TIMEOUTS),
		oib_rxe_port_stat(d->device, 1, OIB_RXE_TX_RNR_NAKS),
		oib_rxe_port_stat(d->device, 1, OIB_RXE_RX_DROP_SEQ));
}

/* The two devices and OIB_BENCH_PAIRS connected pairs between them; a failing step's name. */
static const char *oib_bench_setup(struct oib_bench_conn *c, int *ret)
{
	int i, p;

	for (i = 0; i < 2; i++) {
		*ret = oib_bench_dev_create(&c->dev[i]);
		if (*ret)
			return "create_device";
	}
	for (p = 0; p < OIB_BENCH_PAIRS; p++) {
		for (i = 0; i < 2; i++) {
			*ret = oib_bench_side_create(&c->side[p][i], &c->dev[i]);
			if (*ret)
				return "create";
		}
		*ret = oib_bench_connect(&c->side[p][0], &c->side[p][1]);
		if (!*ret)
			*ret = oib_bench_connect(&c->side[p][1], &c->side[p][0]);
		if (*ret)
			return "connect";
	}
	return NULL;
}

/* Tear down every side (each at most once), then, with oib_bench_teardown(), the devices. */
static void oib_bench_teardown_sides(struct oib_bench_conn *c)
{
	int i, p;

	for (p = OIB_BENCH_PAIRS - 1; p >= 0; p--)
		for (i = 1; i >= 0; i--) {
			oib_bench_side_destroy(&c->side[p][i]);
			c->side[p][i] = (struct oib_bench_side){};
		}
}

static void oib_bench_teardown(struct oib_bench_conn *c)
{
	int i;

	oib_bench_teardown_sides(c);
	for (i = 1; i >= 0; i--)
		oib_bench_dev_destroy(&c->dev[i]);
}

/* The RC phases between two oib_rxe devices. */
static int oib_bench_rxe(void)
{
	struct oib_bench_conn *c;
	const char *step;
	int ret, i;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	step = oib_bench_setup(c, &ret);
	if (step) {
		pr_info("oib-bench: n/a oib all setup_failed_at_%s (%d)\n", step, ret);
	} else {
		pr_info("oib-bench: oib: %s and %s on fabric %s, path MTU %d, %d QP pairs\n",
			oib_dev_name(c->dev[0].device), oib_dev_name(c->dev[1].device), fabric,
			oib_mtu_to_int(min(c->dev[0].mtu, c->dev[1].mtu)), OIB_BENCH_PAIRS);
		oib_bench_run(&oib_bench_oib_ops, c);
		for (i = 0; i < 2; i++)
			oib_bench_port_stats(&c->dev[i]);
	}
	oib_bench_teardown(c);
	kfree(c);
	return 0;
}

/*
 * The RC phases between two oib_siw devices (oib_bench_siw.c), then the connection phases
 * between them: the iWARP figures, which tools/bench.sh puts beside the in-tree siw's.
 */
static int oib_bench_siw(void)
{
	struct oib_bench_conn *c;
	const char *step;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	step = oib_bench_siw_setup(c, &ret);
	if (step) {
		pr_info("oib-bench: n/a oib_siw all setup_failed_at_%s (%d)\n", step, ret);
		pr_info("oib-bench: n/a oib_siw cma_connect_1 setup_failed_at_%s (%d)\n", step,
			ret);
	} else {
		pr_info("oib-bench: oib_siw: %s and %s, TCP through lo, %d QP pairs, %u reads outstanding\n",
			oib_dev_name(c->dev[0].device), oib_dev_name(c->dev[1].device),
			OIB_BENCH_PAIRS, c->dev[0].rd_atom);
		oib_bench_run(&oib_bench_siw_ops, c);
	}
	/* the sides' connections go before the connection phases make 2 x cma_iters more */
	oib_bench_teardown_sides(c);
	if (!step)
		oib_bench_siw_cma(c, timeout_ms);
	oib_bench_teardown(c);
	kfree(c);
	return 0;
}

static int __init oib_bench_init(void)
{
	if (only && oib_bench_mad_phase_name(only)) {	/* one MAD phase alone */
		oib_bench_mad_run(fabric, timeout_ms, only);
		pr_info("oib-bench: oib done\n");
		return 0;
	}
	if (only) {	/* one RC phase on oib_rxe alone, to profile it (oib_bench_core.h) */
		if (oib_bench_rxe())
			pr_info("oib-bench: n/a oib all no_memory\n");
		pr_info("oib-bench: oib done\n");
		return 0;
	}
	if (memcpy_ref && oib_bench_memcpy())
		pr_info("oib-bench: memcpy reference: no memory\n");
	if (oib_bench_rxe())
		pr_info("oib-bench: n/a oib all no_memory\n");
	if (oib_bench_fanin_run(timeout_ms))
		pr_info("oib-bench: n/a oib fanin_xrc_1_rate no_memory\n");
	oib_bench_mad_run(fabric, timeout_ms, NULL);
	oib_bench_cm_run(fabric, timeout_ms);
	oib_bench_cma_rxe(fabric, timeout_ms);
	if (oib_bench_siw())
		pr_info("oib-bench: n/a oib_siw all no_memory\n");
	pr_info("oib-bench: oib done\n");
	return 0;
}

static void __exit oib_bench_exit(void)
{
}

module_init(oib_bench_init);
module_exit(oib_bench_exit);
MODULE_DESCRIPTION("oib benchmark: memcpy reference, oib_rxe RC and XRC fan-in, oib_mad, oib_cm, oib_cma and oib_siw");
MODULE_LICENSE("GPL");
