// SPDX-License-Identifier: GPL-2.0-only
/* The context's queries: the device, a port, a GID. */
#include <linux/module.h>
#include "uverbs.h"

int oib_uverbs_query_device(struct oib_uverbs_call *call, void *buf)
{
	struct oib_device *ibdev = call->ufile->ibdev;
	struct oib_uverbs_query_device *cmd = buf;
	struct oib_device_attr a;
	int ret;

	if (cmd->reserved)
		return -EINVAL;
	ret = oib_query_device(ibdev, &a);
	if (ret)
		return ret;
	*cmd = (struct oib_uverbs_query_device){
		.abi_version = OIB_UVERBS_ABI_VERSION, .node_type = ibdev->node_type,
		.node_guid = (__force u64)ibdev->node_guid,
		.sys_image_guid = (__force u64)a.sys_image_guid, .fw_ver = a.fw_ver,
		.max_mr_size = a.max_mr_size, .page_size_cap = a.page_size_cap,
		.device_cap_flags = a.device_cap_flags, .vendor_id = a.vendor_id,
		.vendor_part_id = a.vendor_part_id, .hw_ver = a.hw_ver,
		.phys_port_cnt = ibdev->phys_port_cnt, .max_qp = a.max_qp,
		.max_qp_wr = a.max_qp_wr, .max_send_sge = a.max_send_sge,
		.max_recv_sge = a.max_recv_sge, .max_cq = a.max_cq, .max_cqe = a.max_cqe,
		.max_mr = a.max_mr, .max_pd = a.max_pd, .max_qp_rd_atom = a.max_qp_rd_atom,
		.max_qp_init_rd_atom = a.max_qp_init_rd_atom, .max_srq = a.max_srq,
		.max_srq_wr = a.max_srq_wr, .max_srq_sge = a.max_srq_sge, .max_ah = a.max_ah,
		.max_inline_data = a.max_inline_data, .num_comp_vectors = a.num_comp_vectors,
		.max_pkeys = a.max_pkeys, .local_ca_ack_delay = a.local_ca_ack_delay,
		.atomic_cap = a.atomic_cap,
	};
	return 0;
}

int oib_uverbs_query_port(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_query_port *cmd = buf;
	struct oib_port_attr a;
	u32 port = cmd->port_num;
	int ret;

	if (memchr_inv(cmd->reserved, 0, sizeof(cmd->reserved)))
		return -EINVAL;
	ret = oib_query_port(call->ufile->ibdev, port, &a);
	if (ret)
		return ret;
	*cmd = (struct oib_uverbs_query_port){
		.port_num = port, .state = a.state, .phys_state = a.phys_state,
		.max_mtu = a.max_mtu, .active_mtu = a.active_mtu, .gid_tbl_len = a.gid_tbl_len,
		.port_cap_flags = a.port_cap_flags, .max_msg_sz = a.max_msg_sz,
		.bad_pkey_cntr = a.bad_pkey_cntr, .qkey_viol_cntr = a.qkey_viol_cntr,
		.pkey_tbl_len = a.pkey_tbl_len, .lid = a.lid, .sm_lid = a.sm_lid, .lmc = a.lmc,
		.sm_sl = a.sm_sl, .max_vl_num = a.max_vl_num, .active_width = a.active_width,
		.active_speed = a.active_speed, .link_layer = a.link_layer,
	};
	return 0;
}

int oib_uverbs_query_gid(struct oib_uverbs_call *call, void *buf)
{
	struct oib_uverbs_query_gid *cmd = buf;
	enum oib_gid_type type;
	union oib_gid gid;
	int ret;

	if (cmd->reserved || cmd->gid_type || memchr_inv(cmd->gid, 0, sizeof(cmd->gid)))
		return -EINVAL;
	ret = oib_query_gid(call->ufile->ibdev, cmd->port_num, cmd->index, &gid, &type);
	if (ret)
		return ret;
	memcpy(cmd->gid, gid.raw, sizeof(cmd->gid));
	cmd->gid_type = type;
	return 0;
}
