// SPDX-License-Identifier: GPL-2.0-only
/*
 * The process's QP on an id: made through /dev/oib_uverbs<N> and named by that file and its
 * handle there (include/oib/uverbs_qp.h), then moved by the CMA with the connection as a
 * kernel ULP's is.  It stays the process's: destroying it (DESTROY_QP, the context's close, the
 * device's removal) takes it from the id first; DETACH_QP and the id's close let go of it.
 */
#include <linux/file.h>
#include <linux/uaccess.h>
#include "ucma.h"

static int ucma_qp_attach(struct oib_uverbs_qp_user *user, struct oib_qp *qp)
{
	struct ucma_ctx *ctx = container_of(user, struct ucma_ctx, quser);

	return oib_cma_attach_qp(ctx->cm_id, qp);
}

int ucma_attach_qp(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_attach_qp cmd;
	struct ucma_ctx *ctx;
	struct file *uverbs;
	int ret;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	if (cmd.reserved)
		return -EINVAL;
	uverbs = fget(cmd.uverbs_fd);
	if (!uverbs)
		return -EBADF;
	ctx = ucma_ctx_lock(file, cmd.id);
	ret = PTR_ERR_OR_ZERO(ctx);
	if (!ret) {
		ret = oib_uverbs_qp_use(uverbs, cmd.qp_handle, &ctx->quser, ucma_qp_attach);
		ucma_ctx_unlock(ctx);
	}
	fput(uverbs);
	return ret;
}

int ucma_detach_qp(struct ucma_file *file, void __user *arg)
{
	struct oib_ucma_id cmd;
	struct ucma_ctx *ctx;
	int ret = 0;

	if (copy_from_user(&cmd, arg, sizeof(cmd)))
		return -EFAULT;
	if (cmd.reserved)
		return -EINVAL;
	ctx = ucma_ctx_lock(file, cmd.id);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	if (!oib_uverbs_qp_unuse(&ctx->quser))
		ret = -EINVAL;
	ucma_ctx_unlock(ctx);
	return ret;
}
