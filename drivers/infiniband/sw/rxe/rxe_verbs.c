// SPDX-License-Identifier: GPL-2.0-only
/* The provider ops table, and the verbs too small for a file of their own: device, port, PD, AH. */
#include <linux/module.h>
#include "rxe.h"

static int rxe_query_device(struct oib_device *ibdev, struct oib_device_attr *attr)
{
	*attr = to_rdev(ibdev)->attr;
	return 0;
}

static int rxe_query_port(struct oib_device *ibdev, u32 port_num, struct oib_port_attr *attr)
{
	struct rxe_port *port = &to_rdev(ibdev)->ports[port_num - 1];
	enum oib_port_state state = READ_ONCE(port->state);

	attr->state = state;
	attr->phys_state = state == OIB_PORT_ACTIVE ? OIB_PORT_PHYS_LINK_UP :
						      OIB_PORT_PHYS_DISABLED;
	attr->max_mtu = port->max_mtu;
	attr->active_mtu = port->active_mtu;
	attr->max_msg_sz = 1U << 31;
	attr->max_vl_num = 1;
	attr->active_width = 1;		/* 1X */
	attr->active_speed = 32;	/* EDR-class: what a software device can pretend */
	return 0;
}

static int rxe_get_port_immutable(struct oib_device *ibdev, u32 port_num,
				  struct oib_port_immutable *imm)
{
	imm->gid_tbl_len = RXE_MAX_GID;
	imm->pkey_tbl_len = RXE_MAX_PKEYS;
	imm->core_cap_flags = OIB_CORE_PORT_ROCE_V2;
	imm->link_layer = OIB_LINK_LAYER_ETHERNET;
	imm->max_mad_size = 256;
	return 0;
}

static int rxe_alloc_pd(struct oib_pd *pd)
{
	pd->local_dma_lkey = 0;
	return 0;
}

static void rxe_dealloc_pd(struct oib_pd *pd)
{
}

static int rxe_create_ah(struct oib_ah *ah)
{
	return 0;	/* the core keeps the address vector; the transport reads it from there */
}

static void rxe_destroy_ah(struct oib_ah *ah)
{
}

const struct oib_device_ops rxe_dev_ops = {
	.owner = THIS_MODULE,
	.size_pd = sizeof(struct rxe_pd),
	.size_cq = sizeof(struct rxe_cq),
	.size_qp = sizeof(struct rxe_qp),
	.size_srq = sizeof(struct rxe_srq),
	.size_mr = sizeof(struct rxe_mr),
	.size_ah = sizeof(struct rxe_ah),

	.query_device = rxe_query_device,
	.query_port = rxe_query_port,
	.get_port_immutable = rxe_get_port_immutable,
	.alloc_pd = rxe_alloc_pd,
	.dealloc_pd = rxe_dealloc_pd,
	.create_cq = rxe_create_cq,
	.destroy_cq = rxe_destroy_cq,
	.poll_cq = rxe_poll_cq,
	.req_notify_cq = rxe_req_notify_cq,
	.create_qp = rxe_create_qp,
	.modify_qp = rxe_modify_qp,
	.query_qp = rxe_query_qp,
	.destroy_qp = rxe_destroy_qp,
	.post_send = rxe_post_send,
	.post_recv = rxe_post_recv,
	.create_srq = rxe_create_srq,
	.modify_srq = rxe_modify_srq,
	.query_srq = rxe_query_srq,
	.destroy_srq = rxe_destroy_srq,
	.post_srq_recv = rxe_post_srq_recv,
	.get_dma_mr = rxe_get_dma_mr,
	.reg_kernel_mr = rxe_reg_kernel_mr,
	.dereg_mr = rxe_dereg_mr,
	.create_ah = rxe_create_ah,
	.destroy_ah = rxe_destroy_ah,
	.add_gid = rxe_add_gid,
	.del_gid = rxe_del_gid,
	.dealloc_driver = rxe_dealloc_driver,
};
