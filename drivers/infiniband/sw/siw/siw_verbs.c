// SPDX-License-Identifier: GPL-2.0-only
/*
 * The provider ops table, and the verbs too small for a file of their own: device, port, PD,
 * CQ.  oib_siw has no SRQs and no address handles (RC only).
 */
#include <linux/module.h>
#include <net/route.h>
#include <net/ip6_route.h>
#include "siw.h"

static int siw_query_device(struct oib_device *ib, struct oib_device_attr *attr)
{
	*attr = to_sdev(ib)->attr;
	return 0;
}

static int siw_query_port(struct oib_device *ib, u32 port, struct oib_port_attr *attr)
{
	struct siw_dev *sdev = to_sdev(ib);
	struct net_device *ndev;
	bool up;

	rcu_read_lock();
	ndev = rcu_dereference(sdev->ndev);
	up = ndev && netif_running(ndev) && netif_oper_up(ndev);
	rcu_read_unlock();
	memset(attr, 0, sizeof(*attr));
	attr->state = up ? OIB_PORT_ACTIVE : OIB_PORT_DOWN;
	attr->phys_state = up ? OIB_PORT_PHYS_LINK_UP : OIB_PORT_PHYS_DISABLED;
	attr->max_mtu = OIB_MTU_4096;
	attr->active_mtu = OIB_MTU_4096;
	attr->max_msg_sz = 1U << 31;
	attr->link_layer = OIB_LINK_LAYER_ETHERNET;
	return 0;
}

static int siw_port_immutable(struct oib_device *ib, u32 port, struct oib_port_immutable *imm)
{
	imm->gid_tbl_len = 16;
	imm->pkey_tbl_len = 1;
	imm->core_cap_flags = OIB_CORE_CAP_IW_CM;
	imm->link_layer = OIB_LINK_LAYER_ETHERNET;
	return 0;
}

static int siw_alloc_pd(struct oib_pd *pd)
{
	pd->local_dma_lkey = 0;
	return 0;
}

static void siw_dealloc_pd(struct oib_pd *pd)
{
}

/*
 * Whether the netdev's namespace has a route to @dgid: TCP takes it from there (a local
 * address included: the connection then runs over the loopback).
 */
static int siw_reach(struct oib_device *ib, u32 port, const union oib_gid *dgid, u8 *hops)
{
	struct net *net;
	int ret = -EHOSTUNREACH;

	rcu_read_lock();
	net = siw_dev_net(to_sdev(ib));
	if (net && ipv6_addr_v4mapped(&dgid->in6)) {
		struct flowi4 fl4 = { .daddr = dgid->in6.s6_addr32[3] };
		struct rtable *rt = ip_route_output_key(net, &fl4);

		if (!IS_ERR(rt)) {
			ip_rt_put(rt);
			ret = 0;
		}
	} else if (net) {
		struct flowi6 fl6 = { .daddr = dgid->in6 };
		struct dst_entry *dst = ip6_route_output(net, NULL, &fl6);

		if (!dst->error)
			ret = 0;
		dst_release(dst);
	}
	rcu_read_unlock();
	if (hops)
		*hops = 64;
	return ret;
}

/* ---- CQs: oib_core's, their handlers on siw_wq ---- */

static int siw_create_cq(struct oib_cq *ib, const struct oib_cq_init_attr *attr)
{
	return oib_sw_cq_init(oib_sw_cq(ib), attr, siw_wq, WORK_CPU_UNBOUND);
}

/* ---- What oib_siw does not have ---- */

static int siw_create_srq(struct oib_srq *srq, struct oib_srq_init_attr *attr)
{
	return -EOPNOTSUPP;
}

static int siw_modify_srq(struct oib_srq *srq, struct oib_srq_attr *attr,
			  enum oib_srq_attr_mask mask)
{
	return -EOPNOTSUPP;
}

static int siw_query_srq(struct oib_srq *srq, struct oib_srq_attr *attr)
{
	return -EOPNOTSUPP;
}

static void siw_destroy_srq(struct oib_srq *srq)
{
}

static int siw_post_srq_recv(struct oib_srq *srq, const struct oib_recv_wr *wr,
			     const struct oib_recv_wr **bad)
{
	*bad = wr;
	return -EOPNOTSUPP;
}

static int siw_create_ah(struct oib_ah *ah)
{
	return -EOPNOTSUPP;
}

static void siw_destroy_ah(struct oib_ah *ah)
{
}

const struct oib_device_ops siw_dev_ops = {
	.owner = THIS_MODULE,
	.size_pd = sizeof(struct oib_pd),
	.size_cq = sizeof(struct oib_sw_cq),
	.size_qp = sizeof(struct siw_qp),
	.size_srq = sizeof(struct oib_srq),
	.size_mr = sizeof(struct oib_sw_mr),
	.size_ah = sizeof(struct oib_ah),
	.query_device = siw_query_device,
	.query_port = siw_query_port,
	.get_port_immutable = siw_port_immutable,
	.alloc_pd = siw_alloc_pd,
	.dealloc_pd = siw_dealloc_pd,
	.create_cq = siw_create_cq,
	.destroy_cq = oib_sw_destroy_cq,
	.poll_cq = oib_sw_poll_cq,
	.req_notify_cq = oib_sw_req_notify_cq,
	.create_qp = siw_create_qp,
	.modify_qp = siw_modify_qp,
	.query_qp = siw_query_qp,
	.destroy_qp = siw_destroy_qp,
	.post_send = siw_post_send,
	.post_recv = siw_post_recv,
	.create_srq = siw_create_srq,
	.modify_srq = siw_modify_srq,
	.query_srq = siw_query_srq,
	.destroy_srq = siw_destroy_srq,
	.post_srq_recv = siw_post_srq_recv,
	.get_dma_mr = siw_get_dma_mr,
	.reg_kernel_mr = siw_reg_kernel_mr,
	.dereg_mr = siw_dereg_mr,
	.alloc_mr = siw_alloc_mr,
	.map_mr_sg = oib_sw_map_mr_sg,
	.create_ah = siw_create_ah,
	.destroy_ah = siw_destroy_ah,
	.reach = siw_reach,
	.iw_connect = siw_iw_connect,
	.iw_accept = siw_iw_accept,
	.iw_reject = siw_iw_reject,
	.iw_create_listen = siw_iw_create_listen,
	.iw_destroy_listen = siw_iw_destroy_listen,
};
