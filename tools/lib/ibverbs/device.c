// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The drop-in libibverbs: devices, contexts and the queries. */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ibvc.h"

#define OIB_CLASS "/sys/class/oib"

/* libibverbs's enum ibv_gid_type_sysfs (private: rdma-core's driver.h) */
enum { IBVC_GID_TYPE_IB_ROCE_V1 = 0, IBVC_GID_TYPE_ROCE_V2 = 1 };

IBVC_EXPORT int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size)
{
	char path[IBV_SYSFS_PATH_MAX * 2];
	ssize_t n;
	int fd;

	if (!dir || !file || !buf || !size) {
		errno = EINVAL;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size);
	close(fd);
	if (n < 0)
		return -1;
	if ((size_t)n == size)
		n--;
	buf[n] = 0;
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	return n;
}

IBVC_EXPORT int ibv_get_sysfs_path(char *buf, size_t size)
{
	if (!buf || !size)
		return -1;
	snprintf(buf, size, "/sys");
	return 0;
}

/* The device's node type from sysfs ("1: CA", "4: RNIC"), as libibverbs's enum. */
static enum ibv_node_type ibvc_node_type(const char *ibdev_path)
{
	char buf[32];

	if (ibv_read_sysfs_file(ibdev_path, "node_type", buf, sizeof(buf)) <= 0)
		return IBV_NODE_UNKNOWN;
	switch (atoi(buf)) {
	case 1: return IBV_NODE_CA;
	case 2: return IBV_NODE_SWITCH;
	case 3: return IBV_NODE_ROUTER;
	case 4: return IBV_NODE_RNIC;
	default: return IBV_NODE_UNKNOWN;
	}
}

static struct ibvc_device *ibvc_device_new(const struct oibv_device *od)
{
	struct ibvc_device *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->odev = *od;
	d->refcnt = 1;
	snprintf(d->dev.name, sizeof(d->dev.name), "%s", od->ibdev_name);
	snprintf(d->dev.dev_name, sizeof(d->dev.dev_name), "%s", od->name);
	snprintf(d->dev.dev_path, sizeof(d->dev.dev_path), "/sys/class/oib_uverbs/%s", od->name);
	snprintf(d->dev.ibdev_path, sizeof(d->dev.ibdev_path), OIB_CLASS "/%s", od->ibdev_name);
	d->dev.node_type = ibvc_node_type(d->dev.ibdev_path);
	d->dev.transport_type = d->dev.node_type == IBV_NODE_RNIC ? IBV_TRANSPORT_IWARP :
				d->dev.node_type == IBV_NODE_UNKNOWN ? IBV_TRANSPORT_UNKNOWN :
				IBV_TRANSPORT_IB;
	return d;
}

void ibvc_device_put(struct ibvc_device *d)
{
	if (!__atomic_sub_fetch(&d->refcnt, 1, __ATOMIC_ACQ_REL))
		free(d);
}

/* The oib devices with a uverbs char device (none loaded: an empty list). */
IBVC_EXPORT struct ibv_device **ibv_get_device_list(int *num_devices)
{
	struct oibv_device **ol = oibv_get_device_list(NULL);
	struct ibv_device **list;
	int i, n = 0;

	if (!ol)
		return NULL;
	for (i = 0; ol[i]; i++)
		;
	list = calloc(i + 1, sizeof(*list));
	for (i = 0; list && ol[i]; i++) {
		struct ibvc_device *d = ibvc_device_new(ol[i]);

		if (d)
			list[n++] = &d->dev;
	}
	oibv_free_device_list(ol);
	if (!list) {
		errno = ENOMEM;
		return NULL;
	}
	if (num_devices)
		*num_devices = n;
	return list;
}

IBVC_EXPORT void ibv_free_device_list(struct ibv_device **list)
{
	int i;

	for (i = 0; list && list[i]; i++)
		ibvc_device_put(IBVC(device, list[i]));
	free(list);
}

IBVC_EXPORT const char *ibv_get_device_name(struct ibv_device *device)
{
	if (!device) {
		errno = EINVAL;
		return NULL;
	}
	return device->name;
}

/* The node GUID (network byte order) from sysfs, 0 if it cannot be read. */
IBVC_EXPORT __be64 ibv_get_device_guid(struct ibv_device *device)
{
	unsigned int p[4];
	char buf[32];

	if (!device) {
		errno = EINVAL;
		return 0;
	}
	if (ibv_read_sysfs_file(device->ibdev_path, "node_guid", buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%x:%x:%x:%x", &p[0], &p[1], &p[2], &p[3]) != 4)
		return 0;
	return htobe64((uint64_t)p[0] << 48 | (uint64_t)p[1] << 32 | (uint64_t)p[2] << 16 | p[3]);
}

/* oib keeps no index of its devices that libibverbs's netlink would give: -1, as for none. */
IBVC_EXPORT int ibv_get_device_index(struct ibv_device *device)
{
	(void)device;
	return -1;
}

static int ibvc_query_port(struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *a,
			   size_t size);
static int ibvc_query_device_ex(struct ibv_context *ctx, const struct ibv_query_device_ex_input *in,
				struct ibv_device_attr_ex *attr, size_t size);

IBVC_EXPORT struct ibv_context *ibv_open_device(struct ibv_device *device)
{
	struct ibvc_device *d = IBVC(device, device);
	struct ibvc_context *c;
	struct ibv_context *ctx;

	if (!device) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->o = oibv_open_device(&d->odev);
	if (!c->o) {
		free(c);
		return NULL;
	}
	__atomic_add_fetch(&d->refcnt, 1, __ATOMIC_ACQ_REL);
	c->dev = d;
	c->vctx.sz = sizeof(c->vctx);
	c->vctx.query_port = ibvc_query_port;
	c->vctx.query_device_ex = ibvc_query_device_ex;
	c->vctx.open_xrcd = ibvc_open_xrcd;
	c->vctx.close_xrcd = ibvc_close_xrcd;
	c->vctx.create_srq_ex = ibvc_create_srq_ex;
	c->vctx.get_srq_num = ibvc_get_srq_num;
	c->vctx.create_qp_ex = ibvc_create_qp_ex;
	ctx = &c->vctx.context;
	ctx->device = device;
	ctx->cmd_fd = c->o->cmd_fd;
	ctx->async_fd = c->o->async_fd;
	ctx->num_comp_vectors = c->o->num_comp_vectors;
	ctx->abi_compat = __VERBS_ABI_IS_EXTENDED;
	pthread_mutex_init(&ctx->mutex, NULL);
	ctx->ops.poll_cq = ibvc_poll_cq;
	ctx->ops.req_notify_cq = ibvc_req_notify_cq;
	ctx->ops.post_send = ibvc_post_send;
	ctx->ops.post_recv = ibvc_post_recv;
	ctx->ops.post_srq_recv = ibvc_post_srq_recv;
	return ctx;
}

IBVC_EXPORT int ibv_close_device(struct ibv_context *context)
{
	struct ibvc_context *c;

	if (!context)
		return EINVAL;
	c = ibvc_ctx(context);
	oibv_close_device(c->o);
	pthread_mutex_destroy(&context->mutex);
	ibvc_device_put(c->dev);
	free(c);
	return 0;
}

/* oib's device capability bits (include/oib/device.h) as libibverbs's */
static unsigned int ibvc_cap_flags(uint64_t f)
{
	return (f & 1 ? IBV_DEVICE_RESIZE_MAX_WR : 0) |
	       (f & 2 ? IBV_DEVICE_SRQ_RESIZE : 0) |
	       (f & 4 ? IBV_DEVICE_RC_RNR_NAK_GEN : 0) |
	       (f & 8 ? IBV_DEVICE_MEM_MGT_EXTENSIONS : 0) |
	       (f & 16 ? IBV_DEVICE_XRC : 0);
}

IBVC_EXPORT int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *a)
{
	struct oibv_device_attr o;
	int ret;

	if (!context || !a)
		return EINVAL;
	ret = oibv_query_device(ibvc_ctx(context)->o, &o);
	if (ret)
		return ret;
	memset(a, 0, sizeof(*a));
	snprintf(a->fw_ver, sizeof(a->fw_ver), "%u.%u.%u", (unsigned int)(o.fw_ver >> 32),
		 (unsigned int)(o.fw_ver >> 16) & 0xffff, (unsigned int)o.fw_ver & 0xffff);
	a->node_guid = o.node_guid;
	a->sys_image_guid = o.sys_image_guid;
	a->max_mr_size = o.max_mr_size;
	a->page_size_cap = o.page_size_cap;
	a->vendor_id = o.vendor_id;
	a->vendor_part_id = o.vendor_part_id;
	a->hw_ver = o.hw_ver;
	a->max_qp = o.max_qp;
	a->max_qp_wr = o.max_qp_wr;
	a->device_cap_flags = ibvc_cap_flags(o.device_cap_flags);
	a->max_sge = o.max_sge < o.max_recv_sge ? o.max_sge : o.max_recv_sge;
	a->max_cq = o.max_cq;
	a->max_cqe = o.max_cqe;
	a->max_mr = o.max_mr;
	a->max_pd = o.max_pd;
	a->max_qp_rd_atom = o.max_qp_rd_atom;
	a->max_res_rd_atom = o.max_qp_rd_atom * o.max_qp;
	a->max_qp_init_rd_atom = o.max_qp_init_rd_atom;
	a->atomic_cap = o.atomic_cap ? IBV_ATOMIC_HCA : IBV_ATOMIC_NONE;
	a->max_ah = o.max_ah;
	a->max_srq = o.max_srq;
	a->max_srq_wr = o.max_srq_wr;
	a->max_srq_sge = o.max_srq_sge;
	a->max_pkeys = o.max_pkeys;
	a->local_ca_ack_delay = o.local_ca_ack_delay;
	a->phys_port_cnt = o.phys_port_cnt;
	return 0;
}

/* The extended attributes: the basic ones, nothing of the extensions (all zero). */
static int ibvc_query_device_ex(struct ibv_context *ctx, const struct ibv_query_device_ex_input *in,
				struct ibv_device_attr_ex *attr, size_t size)
{
	struct ibv_device_attr_ex a = { 0 };
	int ret;

	if ((in && in->comp_mask) || !attr || size < sizeof(attr->orig_attr))
		return EINVAL;
	ret = ibv_query_device(ctx, &a.orig_attr);
	if (ret)
		return ret;
	memcpy(attr, &a, size < sizeof(a) ? size : sizeof(a));
	return 0;
}

static int ibvc_query_port(struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *a,
			   size_t size)
{
	struct ibv_port_attr p = { 0 };
	struct oibv_port_attr o;
	int ret;

	if (!ctx || !a || size > sizeof(p))
		return EINVAL;
	ret = oibv_query_port(ibvc_ctx(ctx)->o, port, &o);
	if (ret)
		return ret;
	p.state = (enum ibv_port_state)o.state;
	p.max_mtu = (enum ibv_mtu)o.max_mtu;
	p.active_mtu = (enum ibv_mtu)o.active_mtu;
	p.gid_tbl_len = o.gid_tbl_len;
	p.port_cap_flags = o.port_cap_flags;
	p.max_msg_sz = o.max_msg_sz;
	p.bad_pkey_cntr = o.bad_pkey_cntr;
	p.qkey_viol_cntr = o.qkey_viol_cntr;
	p.pkey_tbl_len = o.pkey_tbl_len;
	p.lid = o.lid;
	p.sm_lid = o.sm_lid;
	p.lmc = o.lmc;
	p.max_vl_num = o.max_vl_num;
	p.sm_sl = o.sm_sl;
	p.active_width = o.active_width;
	p.active_speed = o.active_speed;
	p.phys_state = o.phys_state;
	p.link_layer = o.link_layer;
	memcpy(a, &p, size);
	return 0;
}

/* The exported one is libibverbs's older, shorter struct: up to and with flags. */
IBVC_EXPORT int (ibv_query_port)(struct ibv_context *context, uint8_t port_num,
				 struct _compat_ibv_port_attr *port_attr)
{
	return ibvc_query_port(context, port_num, (struct ibv_port_attr *)port_attr,
			       offsetof(struct ibv_port_attr, port_cap_flags2));
}

/* 0, or -1 with errno; an empty entry (oib: ENOENT) reads as zeros, as libibverbs does. */
static int ibvc_query_gid(struct ibv_context *context, uint8_t port, int index,
			  union ibv_gid *gid, uint32_t *type)
{
	union oibv_gid g;
	int ret;

	if (!context || !gid || index < 0) {
		errno = EINVAL;
		return -1;
	}
	ret = oibv_query_gid_type(ibvc_ctx(context)->o, port, index, &g, type);
	if (ret == ENOENT) {
		memset(gid, 0, sizeof(*gid));
		if (type)
			*type = 0;
		return 0;
	}
	if (ret) {
		errno = ret;
		return -1;
	}
	memcpy(gid->raw, g.raw, sizeof(gid->raw));
	return 0;
}

IBVC_EXPORT int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index,
			      union ibv_gid *gid)
{
	return ibvc_query_gid(context, port_num, index, gid, NULL);
}

/* IBVERBS_PRIVATE_34, which ibv_devinfo imports: the type as libibverbs's sysfs enum. */
IBVC_EXPORT int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num,
				   unsigned int index, int *type)
{
	union ibv_gid gid;
	uint32_t t;

	if (!type || index > 0xffff) {
		errno = EINVAL;
		return -1;
	}
	if (ibvc_query_gid(context, port_num, index, &gid, &t))
		return -1;
	*type = t == 1 ? IBVC_GID_TYPE_ROCE_V2 : IBVC_GID_TYPE_IB_ROCE_V1;
	return 0;
}

/* From sysfs (ports/P/pkeys/I), as libibverbs reads it: 0, or -1 with errno. */
IBVC_EXPORT int ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index,
			       __be16 *pkey)
{
	char name[64], buf[16];

	if (!context || !pkey || index < 0) {
		errno = EINVAL;
		return -1;
	}
	snprintf(name, sizeof(name), "ports/%u/pkeys/%d", port_num, index);
	if (ibv_read_sysfs_file(context->device->ibdev_path, name, buf, sizeof(buf)) <= 0)
		return -1;
	*pkey = htobe16(strtoul(buf, NULL, 16));
	return 0;
}

IBVC_EXPORT int ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num, __be16 pkey)
{
	struct ibv_port_attr p;
	__be16 v;
	int i;

	if (!context || ibvc_query_port(context, port_num, &p, sizeof(p))) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < p.pkey_tbl_len; i++)
		if (!ibv_query_pkey(context, port_num, i, &v) && v == pkey)
			return i;
	errno = ENOENT;
	return -1;
}
