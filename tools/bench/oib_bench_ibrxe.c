// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_bench_ibrxe: the comparison for oib_bench.  On insmod, runs the phases of oib_bench_core.h
 * (the same code as oib_bench) over the in-tree verbs API on an rdma_rxe device (module parameter
 * dev, default rxe0, set up by the guest with `rdma link add`).  In-tree rxe cannot carry RoCE
 * between two rxe devices of one host (a packet to a local address arrives on lo, which no rxe
 * device owns), so both QPs sit on the one device and talk through rxe's loopback path, addressed
 * by its IPv4 RoCEv2 GID.  Remote access uses the PD's global rkey over the kernel (virtual DMA)
 * addresses of the buffers.  Results go to the kernel log; rmmod when done.  Only make bench
 * builds it.
 */
#include <linux/module.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <net/ipv6.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_cache.h>
#include "oib_bench_core.h"

static char *dev = "rxe0";
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "the in-tree RDMA device (rdma_rxe) to run on");

struct oib_bench_side {
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	void *buf;
	u64 dma;
};

struct oib_bench_conn {
	struct ib_device *device;
	int gid_index;
	union ib_gid gid;
	u8 mac[ETH_ALEN];
	enum ib_mtu mtu;
	u32 rd_atom;
	struct oib_bench_side side[2];
};

static int oib_bench_post_send(void *ctx, int side, enum oib_bench_op op, u32 len)
{
	struct oib_bench_conn *c = ctx;
	struct oib_bench_side *me = &c->side[side], *peer = &c->side[!side];
	struct ib_sge sge = { .addr = me->dma, .length = len, .lkey = me->pd->local_dma_lkey };
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = op, .sg_list = &sge, .num_sge = 1,
			.send_flags = IB_SEND_SIGNALED },
	};
	const struct ib_send_wr *bad;

	switch (op) {
	case OIB_BENCH_SEND:
		wr.wr.opcode = IB_WR_SEND;
		break;
	case OIB_BENCH_WRITE:
		wr.wr.opcode = IB_WR_RDMA_WRITE;
		break;
	case OIB_BENCH_READ:
		wr.wr.opcode = IB_WR_RDMA_READ;
		break;
	}
	wr.remote_addr = peer->dma;
	wr.rkey = peer->pd->unsafe_global_rkey;
	return ib_post_send(me->qp, &wr.wr, &bad);
}

static int oib_bench_post_recv(void *ctx, int side)
{
	struct oib_bench_conn *c = ctx;
	struct oib_bench_side *me = &c->side[side];
	struct ib_sge sge = {
		.addr = me->dma, .length = OIB_BENCH_BUF, .lkey = me->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .sg_list = &sge, .num_sge = 1 };
	const struct ib_recv_wr *bad;

	return ib_post_recv(me->qp, &wr, &bad);
}

static int oib_bench_poll_cq(void *ctx, int side, unsigned int *sends, unsigned int *recvs)
{
	struct oib_bench_conn *c = ctx;
	struct ib_wc wc[16];
	int n, i;

	n = ib_poll_cq(c->side[side].cq, ARRAY_SIZE(wc), wc);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (wc[i].status != IB_WC_SUCCESS) {
			pr_info("oib-bench: rxe side %d: completion %s (opcode %d)\n", side,
				ib_wc_status_msg(wc[i].status), wc[i].opcode);
			return -EIO;
		}
		if (wc[i].opcode & IB_WC_RECV)
			(*recvs)++;
		else
			(*sends)++;
	}
	return 0;
}

static const struct oib_bench_ops oib_bench_rxe_ops = {
	.stack = "rxe",
	.post_send = oib_bench_post_send,
	.post_recv = oib_bench_post_recv,
	.poll = oib_bench_poll_cq,
};

/*
 * Find port 1's IPv4 RoCEv2 GID (the address appears some time after it is set: wait up to 5 s) and
 * the MAC of its netdev, the destination MAC of a loopback path.
 */
static int oib_bench_find_gid(struct oib_bench_conn *c)
{
	const struct ib_gid_attr *attr;
	struct net_device *ndev;
	int tries, i, ret;

	for (tries = 0; tries < 50; tries++) {
		for (i = 0; i < c->device->port_data[1].immutable.gid_tbl_len; i++) {
			attr = rdma_get_gid_attr(c->device, 1, i);
			if (IS_ERR(attr))
				continue;
			if (attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP ||
			    !ipv6_addr_v4mapped((struct in6_addr *)attr->gid.raw)) {
				rdma_put_gid_attr(attr);
				continue;
			}
			rcu_read_lock();
			ndev = rdma_read_gid_attr_ndev_rcu(attr);
			ret = IS_ERR(ndev) ? PTR_ERR(ndev) : 0;
			if (!ret)
				ether_addr_copy(c->mac, ndev->dev_addr);
			rcu_read_unlock();
			c->gid = attr->gid;
			c->gid_index = i;
			rdma_put_gid_attr(attr);
			return ret;
		}
		msleep(100);
	}
	return -ENOENT;
}

static int oib_bench_side_create(struct oib_bench_conn *c, struct oib_bench_side *s)
{
	struct ib_cq_init_attr cq_attr = { .cqe = OIB_BENCH_CQ_DEPTH };
	struct ib_qp_init_attr qp_attr = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = OIB_BENCH_SQ_DEPTH, .max_recv_wr = OIB_BENCH_RQ_DEPTH,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	int ret;

	s->buf = kzalloc(OIB_BENCH_BUF, GFP_KERNEL);
	if (!s->buf)
		return -ENOMEM;
	s->dma = ib_dma_map_single(c->device, s->buf, OIB_BENCH_BUF, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(c->device, s->dma)) {
		kfree(s->buf);
		s->buf = NULL;
		return -ENOMEM;
	}
	s->pd = ib_alloc_pd(c->device, IB_PD_UNSAFE_GLOBAL_RKEY);
	if (IS_ERR(s->pd))
		goto err_pd;
	s->cq = ib_create_cq(c->device, NULL, NULL, NULL, &cq_attr);
	if (IS_ERR(s->cq))
		goto err_cq;
	qp_attr.send_cq = s->cq;
	qp_attr.recv_cq = s->cq;
	s->qp = ib_create_qp(s->pd, &qp_attr);
	if (IS_ERR(s->qp))
		goto err_qp;
	return 0;

err_qp:
	ret = PTR_ERR(s->qp);
	s->qp = NULL;
	return ret;
err_cq:
	ret = PTR_ERR(s->cq);
	s->cq = NULL;
	return ret;
err_pd:
	ret = PTR_ERR(s->pd);
	s->pd = NULL;
	return ret;
}

/* Tear down whatever oib_bench_side_create() made; the QP goes to ERR first to flush its WRs. */
static void oib_bench_side_destroy(struct oib_bench_conn *c, struct oib_bench_side *s)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_wc wc[16];

	if (s->qp) {
		ib_modify_qp(s->qp, &attr, IB_QP_STATE);
		while (ib_poll_cq(s->cq, ARRAY_SIZE(wc), wc) > 0)
			;
		ib_destroy_qp(s->qp);
	}
	if (s->cq)
		ib_destroy_cq(s->cq);
	if (s->pd)
		ib_dealloc_pd(s->pd);
	if (s->buf) {
		ib_dma_unmap_single(c->device, s->dma, OIB_BENCH_BUF, DMA_BIDIRECTIONAL);
		kfree(s->buf);
	}
}

/* RESET -> INIT -> RTR -> RTS towards @peer (on the same device, through rxe's loopback). */
static int oib_bench_connect(struct oib_bench_conn *c, struct oib_bench_side *me,
			     struct oib_bench_side *peer)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = 0,
		.port_num = 1,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ,
	};
	int ret;

	ret = ib_modify_qp(me->qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT |
			   IB_QP_ACCESS_FLAGS);
	if (ret)
		return ret;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	attr.ah_attr.type = rdma_ah_find_type(c->device, 1);
	rdma_ah_set_port_num(&attr.ah_attr, 1);
	rdma_ah_set_grh(&attr.ah_attr, &c->gid, 0, c->gid_index, 64, 0);
	memcpy(attr.ah_attr.roce.dmac, c->mac, ETH_ALEN);
	attr.path_mtu = c->mtu;
	attr.dest_qp_num = peer->qp->qp_num;
	attr.rq_psn = 0x1000;
	attr.max_dest_rd_atomic = c->rd_atom;
	attr.min_rnr_timer = 1;
	ret = ib_modify_qp(me->qp, &attr, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			   IB_QP_DEST_QPN | IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC |
			   IB_QP_MIN_RNR_TIMER);
	if (ret)
		return ret;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0x1000;
	attr.timeout = 14;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.max_rd_atomic = c->rd_atom;
	return ib_modify_qp(me->qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN | IB_QP_TIMEOUT |
			    IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC);
}

static int __init oib_bench_init(void)
{
	struct ib_port_attr port_attr;
	struct oib_bench_conn *c;
	const char *step = "find_device";
	int ret, i;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->device = ib_device_get_by_name(dev, RDMA_DRIVER_UNKNOWN);
	if (!c->device) {
		pr_info("oib-bench: n/a rxe all no_device_%s (%d)\n", dev, -ENODEV);
		kfree(c);
		return 0;
	}
	ret = ib_query_port(c->device, 1, &port_attr);
	if (!ret) {
		step = "find_gid";
		c->mtu = min(port_attr.active_mtu, IB_MTU_4096);
		c->rd_atom = min3(c->device->attrs.max_qp_rd_atom,
				  c->device->attrs.max_qp_init_rd_atom, 16);
		ret = oib_bench_find_gid(c);
	}
	for (i = 0; i < 2 && !ret; i++) {
		step = "create";
		ret = oib_bench_side_create(c, &c->side[i]);
	}
	if (!ret) {
		step = "connect";
		ret = oib_bench_connect(c, &c->side[0], &c->side[1]);
	}
	if (!ret)
		ret = oib_bench_connect(c, &c->side[1], &c->side[0]);
	if (ret) {
		pr_info("oib-bench: n/a rxe all setup_failed_at_%s (%d)\n", step, ret);
	} else {
		pr_info("oib-bench: rxe: %s loopback, GID index %d %pI6c, path MTU %d\n",
			dev_name(&c->device->dev), c->gid_index, c->gid.raw,
			ib_mtu_enum_to_int(c->mtu));
		oib_bench_run(&oib_bench_rxe_ops, c);
	}
	for (i = 1; i >= 0; i--)
		oib_bench_side_destroy(c, &c->side[i]);
	ib_device_put(c->device);
	kfree(c);
	pr_info("oib-bench: rxe done\n");
	return 0;
}

static void __exit oib_bench_exit(void)
{
}

module_init(oib_bench_init);
module_exit(oib_bench_exit);
MODULE_DESCRIPTION("oib benchmark: the same phases on the in-tree rdma_rxe, for comparison");
MODULE_LICENSE("GPL");
