// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * liboibv: oibv.h over the oib_uverbs ioctls (include/uapi/oib/uverbs.h).  Objects carry their
 * kernel handle; the user handle the kernel reports back in events is the object's address.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <oib/uverbs.h>
#include "oibv.h"
#include "oibv_priv.h"

#define SYSFS_CLASS "/sys/class/oib_uverbs"

/* One command: the header filled in, the ioctl made; 0 or a positive errno value. */
int oibv_cmd(int fd, unsigned int nr, void *cmd, size_t size)
{
	struct oib_uverbs_hdr *hdr = cmd;

	hdr->size = size;
	hdr->flags = 0;
	return ioctl(fd, OIB_UVERBS_IOC(nr), cmd) ? errno : 0;
}

#define CMD(ctx, nr, cmd) oibv_cmd((ctx)->cmd_fd, OIB_UVERBS_##nr, &(cmd), sizeof(cmd))

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = !!fgets(buf, len, f);
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

struct oibv_device **oibv_get_device_list(int *num_devices)
{
	struct oibv_device **list;
	struct dirent *de;
	char path[256];
	DIR *dir;
	int n = 0;

	list = calloc(65, sizeof(*list));
	if (!list)
		return NULL;
	dir = opendir(SYSFS_CLASS);
	while (dir && (de = readdir(dir)) && n < 64) {
		struct oibv_device *d;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(d->name))
			continue;
		d = calloc(1, sizeof(*d));
		if (!d)
			break;
		snprintf(d->name, sizeof(d->name), "%.63s", de->d_name);
		snprintf(path, sizeof(path), SYSFS_CLASS "/%.63s/ibdev", d->name);
		if (read_line(path, d->ibdev_name, sizeof(d->ibdev_name))) {
			free(d);
			continue;
		}
		snprintf(d->dev_path, sizeof(d->dev_path), "/dev/%.63s", d->name);
		list[n++] = d;
	}
	if (dir)
		closedir(dir);
	if (num_devices)
		*num_devices = n;
	return list;
}

void oibv_free_device_list(struct oibv_device **list)
{
	int i;

	for (i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

const char *oibv_get_device_name(struct oibv_device *device)
{
	return device->ibdev_name;
}

struct oibv_context *oibv_open_device(struct oibv_device *device)
{
	struct oib_uverbs_new_fd afd = { 0 };
	struct oib_uverbs_query_device qd = { 0 };
	struct oibv_context *ctx = calloc(1, sizeof(*ctx));
	int ret;

	if (!ctx)
		return NULL;
	ctx->device = device;
	ctx->async_fd = -1;
	pthread_mutex_init(&ctx->rings_lock, NULL);
	ctx->cmd_fd = open(device->dev_path, O_RDWR | O_CLOEXEC);
	if (ctx->cmd_fd < 0)
		goto err;
	ret = CMD(ctx, GET_ASYNC_FD, afd);
	if (!ret)
		ret = CMD(ctx, QUERY_DEVICE, qd);
	if (ret) {
		errno = ret;
		goto err;
	}
	ctx->async_fd = afd.fd;
	ctx->num_comp_vectors = qd.num_comp_vectors;
	ctx->rings = !getenv("OIBV_RINGS") || strcmp(getenv("OIBV_RINGS"), "0");
	return ctx;
err:
	ret = errno;
	if (afd.fd > 0)
		close(afd.fd);
	if (ctx->cmd_fd >= 0)
		close(ctx->cmd_fd);
	free(ctx);
	errno = ret;
	return NULL;
}

int oibv_close_device(struct oibv_context *ctx)
{
	oibv_ring_unmap_all(ctx);
	pthread_mutex_destroy(&ctx->rings_lock);
	close(ctx->async_fd);
	close(ctx->cmd_fd);
	free(ctx);
	return 0;
}

int oibv_query_device(struct oibv_context *ctx, struct oibv_device_attr *a)
{
	struct oib_uverbs_query_device q = { 0 };
	int ret = CMD(ctx, QUERY_DEVICE, q);

	if (ret)
		return ret;
	*a = (struct oibv_device_attr){
		.fw_ver = q.fw_ver, .node_guid = q.node_guid, .sys_image_guid = q.sys_image_guid,
		.max_mr_size = q.max_mr_size, .page_size_cap = q.page_size_cap,
		.vendor_id = q.vendor_id, .vendor_part_id = q.vendor_part_id, .hw_ver = q.hw_ver,
		.max_qp = q.max_qp, .max_qp_wr = q.max_qp_wr,
		.device_cap_flags = q.device_cap_flags, .max_sge = q.max_send_sge,
		.max_cq = q.max_cq, .max_cqe = q.max_cqe, .max_mr = q.max_mr, .max_pd = q.max_pd,
		.max_qp_rd_atom = q.max_qp_rd_atom, .max_srq = q.max_srq, .max_ah = q.max_ah,
		.phys_port_cnt = q.phys_port_cnt, .num_comp_vectors = q.num_comp_vectors,
		.node_type = q.node_type, .max_recv_sge = q.max_recv_sge,
		.max_qp_init_rd_atom = q.max_qp_init_rd_atom, .max_srq_wr = q.max_srq_wr,
		.max_srq_sge = q.max_srq_sge, .max_inline_data = q.max_inline_data,
		.max_pkeys = q.max_pkeys, .local_ca_ack_delay = q.local_ca_ack_delay,
		.atomic_cap = q.atomic_cap,
	};
	return 0;
}

int oibv_query_port(struct oibv_context *ctx, uint8_t port, struct oibv_port_attr *a)
{
	struct oib_uverbs_query_port q = { .port_num = port };
	int ret = CMD(ctx, QUERY_PORT, q);

	if (ret)
		return ret;
	*a = (struct oibv_port_attr){
		.state = q.state, .max_mtu = q.max_mtu, .active_mtu = q.active_mtu,
		.gid_tbl_len = q.gid_tbl_len, .port_cap_flags = q.port_cap_flags,
		.max_msg_sz = q.max_msg_sz, .pkey_tbl_len = q.pkey_tbl_len, .lid = q.lid,
		.phys_state = q.phys_state, .link_layer = q.link_layer,
		.bad_pkey_cntr = q.bad_pkey_cntr, .qkey_viol_cntr = q.qkey_viol_cntr,
		.sm_lid = q.sm_lid, .lmc = q.lmc, .sm_sl = q.sm_sl, .max_vl_num = q.max_vl_num,
		.active_width = q.active_width, .active_speed = q.active_speed,
	};
	return 0;
}

int oibv_query_gid_type(struct oibv_context *ctx, uint8_t port, int index, union oibv_gid *gid,
			uint32_t *type)
{
	struct oib_uverbs_query_gid q = { .port_num = port, .index = index };
	int ret = CMD(ctx, QUERY_GID, q);

	if (ret)
		return ret;
	memcpy(gid->raw, q.gid, sizeof(gid->raw));
	if (type)
		*type = q.gid_type;
	return 0;
}

int oibv_query_gid(struct oibv_context *ctx, uint8_t port, int index, union oibv_gid *gid)
{
	return oibv_query_gid_type(ctx, port, index, gid, NULL);
}

int oibv_comp_vector_cpu(struct oibv_context *ctx, int vector)
{
	char path[256], line[64];
	int v, cpu = -1;
	FILE *f;

	snprintf(path, sizeof(path), SYSFS_CLASS "/%.63s/comp_vector_cpus", ctx->device->name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %d", &v, &cpu) == 2 && v == vector) {
			fclose(f);
			return cpu;
		}
	}
	fclose(f);
	return -1;
}

struct oibv_pd *oibv_alloc_pd(struct oibv_context *ctx)
{
	struct oibv_pd *pd = calloc(1, sizeof(*pd));
	struct oib_uverbs_alloc_pd c = { .user_handle = (uintptr_t)pd };
	int ret;

	if (!pd)
		return NULL;
	ret = CMD(ctx, ALLOC_PD, c);
	if (ret) {
		free(pd);
		errno = ret;
		return NULL;
	}
	pd->context = ctx;
	pd->handle = c.handle;
	return pd;
}

int oibv_dealloc_pd(struct oibv_pd *pd)
{
	struct oib_uverbs_destroy c = { .handle = pd->handle };
	int ret = CMD(pd->context, DEALLOC_PD, c);

	if (!ret)
		free(pd);
	return ret;
}

struct oibv_comp_channel *oibv_create_comp_channel(struct oibv_context *ctx)
{
	struct oibv_comp_channel *ch = calloc(1, sizeof(*ch));
	struct oib_uverbs_new_fd c = { 0 };
	int ret;

	if (!ch)
		return NULL;
	ret = CMD(ctx, CREATE_COMP_CHANNEL, c);
	if (ret) {
		free(ch);
		errno = ret;
		return NULL;
	}
	ch->context = ctx;
	ch->fd = c.fd;
	return ch;
}

int oibv_destroy_comp_channel(struct oibv_comp_channel *ch)
{
	if (__atomic_load_n(&ch->refcnt, __ATOMIC_ACQUIRE))
		return EBUSY;
	close(ch->fd);
	free(ch);
	return 0;
}
