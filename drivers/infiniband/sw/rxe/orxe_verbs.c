// SPDX-License-Identifier: GPL-2.0-only
/* The provider ops table, and the verbs too small for a file of their own: device, port, PD, AH. */
#include <linux/module.h>
#include "orxe.h"

static int orxe_query_device(struct oib_device *ibdev, struct oib_device_attr *attr)
{
	*attr = to_rdev(ibdev)->attr;
	return 0;
}

static int orxe_query_port(struct oib_device *ibdev, u32 port_num, struct oib_port_attr *attr)
{
	struct orxe_port *port = &to_rdev(ibdev)->ports[port_num - 1];
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

static int orxe_get_port_immutable(struct oib_device *ibdev, u32 port_num,
				   struct oib_port_immutable *imm)
{
	imm->gid_tbl_len = ORXE_MAX_GID;
	imm->pkey_tbl_len = ORXE_MAX_PKEYS;
	imm->core_cap_flags = OIB_CORE_PORT_ROCE_V2;
	imm->link_layer = OIB_LINK_LAYER_ETHERNET;
	imm->max_mad_size = 256;
	return 0;
}

static int orxe_alloc_pd(struct oib_pd *pd)
{
	pd->local_dma_lkey = 0;
	return 0;
}

static void orxe_dealloc_pd(struct oib_pd *pd)
{
}

static int orxe_create_ah(struct oib_ah *ah)
{
	return 0;	/* the core keeps the address vector; the transport reads it from there */
}

static void orxe_destroy_ah(struct oib_ah *ah)
{
}

const struct oib_device_ops orxe_dev_ops = {
	.owner = THIS_MODULE,
	.size_pd = sizeof(struct orxe_pd),
	.size_cq = sizeof(struct oib_sw_cq),
	.size_qp = sizeof(struct orxe_qp),
	.size_srq = sizeof(struct orxe_srq),
	.size_mr = sizeof(struct oib_sw_mr),
	.size_ah = sizeof(struct orxe_ah),

	.query_device = orxe_query_device,
	.query_port = orxe_query_port,
	.get_port_immutable = orxe_get_port_immutable,
	.alloc_pd = orxe_alloc_pd,
	.dealloc_pd = orxe_dealloc_pd,
	.create_cq = orxe_create_cq,
	.destroy_cq = oib_sw_destroy_cq,
	.poll_cq = oib_sw_poll_cq,
	.req_notify_cq = oib_sw_req_notify_cq,
	.create_qp = orxe_create_qp,
	.modify_qp = orxe_modify_qp,
	.query_qp = orxe_query_qp,
	.destroy_qp = orxe_destroy_qp,
	.post_send = orxe_post_send,
	.post_recv = orxe_post_recv,
	.create_srq = orxe_create_srq,
	.modify_srq = orxe_modify_srq,
	.query_srq = orxe_query_srq,
	.destroy_srq = orxe_destroy_srq,
	.post_srq_recv = orxe_post_srq_recv,
	.recv_source = true,
	.get_dma_mr = orxe_get_dma_mr,
	.reg_kernel_mr = orxe_reg_kernel_mr,
	.dereg_mr = orxe_dereg_mr,
	.alloc_mr = orxe_alloc_mr,
	.map_mr_sg = oib_sw_map_mr_sg,
	.create_ah = orxe_create_ah,
	.destroy_ah = orxe_destroy_ah,
	.add_gid = orxe_add_gid,
	.del_gid = orxe_del_gid,
	.reach = orxe_reach,
	.dealloc_driver = orxe_dealloc_driver,
};
