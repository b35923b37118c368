// SPDX-License-Identifier: GPL-2.0-only
/*
 * The commands of a connection: connect, accept, reject, disconnect, notify.  The parameters
 * are copied in and checked before the id's mutex is taken; the CMA checks the sizes of the
 * private data against what its messages carry (-EINVAL).
 */
#include <linux/uaccess.h>
#include "ucma.h"

static int ucma_conn_param(const struct oib_ucma_conn_param *u, struct oib_cma_conn_param *p)
{
	if (u->reserved || u->srq > 1)
		return -EINVAL;
	*p = (struct oib_cma_conn_param) {
		.private_data = u->private_data_len ? u->private_data : NULL,
		.private_data_len = u->private_data_len,
		.responder_resources = u->responder_resources,
		.initiator_depth = u->initiator_depth,
		.retry_count = u->retry_count,
		.rnr_retry_count = u->rnr_retry_count,
		.srq = u->srq,
	};
	return 0;
}

int ucma_connect(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_connect cmd;
	struct oib_cma_conn_param p;
	struct ucma_ctx *ctx;
	int ret;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	ret = cmd.reserved ? -EINVAL : ucma_conn_param(&cmd.param, &p);
	if (ret)
		return ret;
	ctx = ucma_ctx_lock(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = oib_cma_connect(ctx->cm_id, &p);
	ucma_ctx_unlock(ctx);
	return ret;
}

int ucma_accept(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_accept cmd;
	struct oib_cma_conn_param p;
	struct ucma_ctx *ctx;
	u64 old_uid;
	int ret;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	ret = cmd.reserved ? -EINVAL : ucma_conn_param(&cmd.param, &p);
	if (ret)
		return ret;
	ctx = ucma_ctx_lock(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	old_uid = ctx->uid;
	WRITE_ONCE(ctx->uid, cmd.uid);	/* before the events the accept may bring */
	ret = oib_cma_accept(ctx->cm_id, &p);
	if (ret)
		WRITE_ONCE(ctx->uid, old_uid);
	ucma_ctx_unlock(ctx);
	return ret;
}

int ucma_reject(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_reject cmd;
	struct ucma_ctx *ctx;
	int ret;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	if (cmd.reserved[0] || cmd.reserved[1] || cmd.reserved[2])
		return -EINVAL;
	ctx = ucma_ctx_lock(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = oib_cma_reject(ctx->cm_id, cmd.private_data_len ? cmd.private_data : NULL,
			     cmd.private_data_len);
	ucma_ctx_unlock(ctx);
	return ret;
}

int ucma_disconnect(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_id cmd;
	struct ucma_ctx *ctx;
	int ret;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	if (cmd.reserved)
		return -EINVAL;
	ctx = ucma_ctx_lock(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = oib_cma_disconnect(ctx->cm_id);
	ucma_ctx_unlock(ctx);
	return ret;
}

int ucma_notify(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_notify cmd;
	struct ucma_ctx *ctx;
	int ret;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	if (cmd.event != OIB_UCMA_NOTIFY_COMM_EST)
		return -EINVAL;
	ctx = ucma_ctx_lock(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	ret = oib_cma_notify(ctx->cm_id, OIB_EVENT_COMM_EST);
	ucma_ctx_unlock(ctx);
	return ret;
}
