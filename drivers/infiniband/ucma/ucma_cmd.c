// SPDX-License-Identifier: GPL-2.0-only
/*
 * The commands that make, destroy, bind, resolve, query and listen: each copies its struct in,
 * checks it, and calls the CMA on the id under the id's mutex.  No user memory is touched under
 * the mutex.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>
#include <oib/device.h>
#include "ucma.h"

/* A listener's requests waiting for an answer, at most (the in-tree rdma_ucm's default) */
#define UCMA_MAX_BACKLOG	1024

static_assert(sizeof(struct __kernel_sockaddr_storage) == sizeof(struct sockaddr_storage));

/* 0: an IP address; 1: none (AF_UNSPEC) where that is allowed; else -errno. */
static int ucma_check_addr(const struct __kernel_sockaddr_storage *ss, bool may_be_none)
{
	switch (ss->ss_family) {
	case AF_INET:
	case AF_INET6:
		return 0;
	case AF_UNSPEC:
		return may_be_none ? 1 : -EINVAL;
	default:
		return -EAFNOSUPPORT;	/* AF_IB among them: oib has no native IB addressing */
	}
}

static int ucma_qp_type(u16 ps, u8 qpt, enum oib_qp_type *type)
{
	if (ps == OIB_UCMA_PS_TCP && qpt == OIB_UCMA_QPT_RC)
		*type = OIB_QPT_RC;
	else if (ps == OIB_UCMA_PS_TCP && qpt == OIB_UCMA_QPT_UC)
		*type = OIB_QPT_UC;
	else if (ps == OIB_UCMA_PS_UDP && qpt == OIB_UCMA_QPT_UD)
		*type = OIB_QPT_UD;
	else
		return -EINVAL;
	return 0;
}

int ucma_create_id(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_create_id cmd;
	struct oib_cma_id *cm_id;
	enum oib_qp_type type;
	struct ucma_ctx *ctx;
	int ret;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	if (cmd.reserved || cmd.id)
		return -EINVAL;
	ret = ucma_qp_type(cmd.ps, cmd.qp_type, &type);
	if (ret)
		return ret;
	ctx = ucma_ctx_new(file, cmd.uid);
	if (!ctx)
		return -ENOMEM;
	cm_id = oib_cma_create_id(&init_net, ucma_cma_handler, ctx, cmd.ps, type);
	if (IS_ERR(cm_id)) {
		ucma_ctx_put(ctx);
		return PTR_ERR(cm_id);
	}
	ctx->cm_id = cm_id;
	ret = ucma_ctx_insert(ctx);
	if (ret) {
		ucma_ctx_close(ctx);
		ucma_ctx_put(ctx);
		return ret;
	}
	cmd.id = ctx->handle;
	if (copy_to_user(arg, &cmd, sizeof(cmd))) {
		ucma_ctx_destroy(ctx);	/* a reference of its table's: not ours to put */
		return -EFAULT;
	}
	return 0;
}

int ucma_destroy_id(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_destroy_id cmd;
	struct ucma_ctx *ctx;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	if (cmd.events_reported)
		return -EINVAL;
	ctx = ucma_ctx_get(file, cmd.id);
	if (!ctx)
		return -EINVAL;
	cmd.events_reported = ucma_ctx_destroy(ctx);
	ucma_ctx_put(ctx);
	return copy_to_user(arg, &cmd, sizeof(cmd)) ? -EFAULT : 0;
}

int ucma_bind(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_bind cmd;
	struct ucma_ctx *ctx;
	int ret;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	if (cmd.reserved)
		return -EINVAL;
	ret = ucma_check_addr(&cmd.addr, false);
	if (ret)
		return ret;
	ctx = ucma_ctx_lock(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = oib_cma_bind_addr(ctx->cm_id, (struct sockaddr *)&cmd.addr);
	ucma_ctx_unlock(ctx);
	return ret;
}

int ucma_resolve_addr(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_resolve_addr cmd;
	struct ucma_ctx *ctx;
	int src, ret;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	if (!cmd.timeout_ms || cmd.timeout_ms > OIB_UCMA_MAX_TIMEOUT_MS)
		return -EINVAL;
	src = ucma_check_addr(&cmd.src, true);
	ret = ucma_check_addr(&cmd.dst, false);
	if (src < 0 || ret)
		return src < 0 ? src : ret;
	ctx = ucma_ctx_lock(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = oib_cma_resolve_addr(ctx->cm_id, src ? NULL : (struct sockaddr *)&cmd.src,
				   (struct sockaddr *)&cmd.dst, cmd.timeout_ms);
	ucma_ctx_unlock(ctx);
	return ret;
}

int ucma_resolve_route(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_resolve_route cmd;
	struct ucma_ctx *ctx;
	int ret;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	if (!cmd.timeout_ms || cmd.timeout_ms > OIB_UCMA_MAX_TIMEOUT_MS)
		return -EINVAL;
	ctx = ucma_ctx_lock(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = oib_cma_resolve_route(ctx->cm_id, cmd.timeout_ms);
	ucma_ctx_unlock(ctx);
	return ret;
}

static void ucma_query_fill(struct oib_ucma_query *q, const struct oib_cma_id *id)
{
	const struct oib_cm_path *path = &id->route.path;

	memcpy(&q->src, &id->route.addr.src_addr, sizeof(q->src));
	memcpy(&q->dst, &id->route.addr.dst_addr, sizeof(q->dst));
	if (!id->device)
		return;
	strscpy(q->ibdev, oib_dev_name(id->device), sizeof(q->ibdev));
	q->node_guid = (__force u64)id->device->node_guid;
	q->port_num = id->port_num;
	if (!path->mtu)
		return;		/* no route yet */
	q->num_paths = 1;
	memcpy(q->sgid, path->sgid.raw, sizeof(q->sgid));
	memcpy(q->dgid, path->dgid.raw, sizeof(q->dgid));
	q->pkey = path->pkey;
	q->mtu = path->mtu;
	q->hop_limit = path->hop_limit;
	q->flow_label = path->flow_label;
	q->traffic_class = path->traffic_class;
}

int ucma_query(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_query *q;
	struct ucma_ctx *ctx;
	u32 handle;
	int ret = 0;

	if (get_user(handle, (u32 __user *)arg))
		return -EFAULT;
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	ctx = ucma_ctx_lock(file, handle);
	if (IS_ERR(ctx)) {
		ret = PTR_ERR(ctx);
		goto out;
	}
	q->id = handle;
	ucma_query_fill(q, ctx->cm_id);
	ucma_ctx_unlock(ctx);
	if (copy_to_user(arg, q, sizeof(*q)))
		ret = -EFAULT;
out:
	kfree(q);
	return ret;
}

int ucma_listen(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_listen cmd;
	struct ucma_ctx *ctx;
	int ret;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	ctx = ucma_ctx_lock(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = oib_cma_listen(ctx->cm_id, min(cmd.backlog, UCMA_MAX_BACKLOG));
	ucma_ctx_unlock(ctx);
	return ret;
}

/* No option is offered yet: the id must exist, the answer is -ENOPROTOOPT. */
int ucma_set_option(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_set_option cmd;
	struct ucma_ctx *ctx;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	ctx = ucma_ctx_lock(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ucma_ctx_unlock(ctx);
	return -ENOPROTOOPT;
}
