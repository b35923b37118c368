// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ids of a file: made, found, closed and destroyed.  An id is in its file's table from its
 * making (or, for a new connection, its request) until destroyed; closing it destroys the CMA's
 * id after the process's QP is taken from it, once, whoever comes first: DESTROY_ID, the file's
 * release, the removal of its device.
 */
#include <linux/slab.h>
#include "ucma.h"

static void ucma_ctx_free(struct kref *ref)
{
	struct ucma_ctx *ctx = container_of(ref, struct ucma_ctx, ref);

	WARN_ON(ctx->cm_id);
	mutex_destroy(&ctx->mutex);
	kfree(ctx);
}

void ucma_ctx_put(struct ucma_ctx *ctx)
{
	kref_put(&ctx->ref, ucma_ctx_free);
}

/* The id leaves its process's QP to it (oib_uverbs calls this before the QP's destroy). */
static void ucma_ctx_qp_release(struct oib_uverbs_qp_user *user)
{
	struct ucma_ctx *ctx = container_of(user, struct ucma_ctx, quser);

	/* attached: ctx->cm_id lives until oib_uverbs_qp_unuse(), which waits for this */
	oib_cma_detach_qp(ctx->cm_id);
}

/* A new id of @file, not in its table yet: the table's reference is the caller's until then. */
struct ucma_ctx *ucma_ctx_new(struct ucma_file *file, u64 uid)
{
	struct ucma_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return NULL;
	kref_init(&ctx->ref);
	ctx->file = file;
	ctx->uid = uid;
	mutex_init(&ctx->mutex);
	ctx->quser.release = ucma_ctx_qp_release;
	INIT_WORK(&ctx->removal, ucma_removal_work);
	return ctx;
}

/* Enter @ctx (its @cm_id set) in its file's table: its handle. */
int ucma_ctx_insert(struct ucma_ctx *ctx)
{
	return xa_alloc(&ctx->file->ctxs, &ctx->handle, ctx, xa_limit_32b, GFP_KERNEL);
}

/* The id @handle of @file with a reference, or NULL. */
struct ucma_ctx *ucma_ctx_get(struct ucma_file *file, u32 handle)
{
	struct ucma_ctx *ctx;

	xa_lock(&file->ctxs);
	ctx = xa_load(&file->ctxs, handle);
	if (ctx)
		kref_get(&ctx->ref);
	xa_unlock(&file->ctxs);
	return ctx;
}

/* The id @handle, held and locked, not closed: or ERR_PTR(-EINVAL). */
struct ucma_ctx *ucma_ctx_lock(struct ucma_file *file, u32 handle)
{
	struct ucma_ctx *ctx = ucma_ctx_get(file, handle);

	if (!ctx)
		return ERR_PTR(-EINVAL);
	mutex_lock(&ctx->mutex);
	if (ctx->cm_id)
		return ctx;
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
	return ERR_PTR(-EINVAL);
}

void ucma_ctx_unlock(struct ucma_ctx *ctx)
{
	mutex_unlock(&ctx->mutex);
	ucma_ctx_put(ctx);
}

/* The CMA's id goes (its QP left to the process first); no handler of it runs after this. */
void ucma_ctx_close(struct ucma_ctx *ctx)
{
	mutex_lock(&ctx->mutex);
	if (ctx->cm_id) {
		oib_uverbs_qp_unuse(&ctx->quser);
		oib_cma_destroy_id(ctx->cm_id);
		ctx->cm_id = NULL;
	}
	mutex_unlock(&ctx->mutex);
}

/*
 * Out of the table (once: a second caller gets 0 and does nothing), closed, its unread events
 * dropped; the id's events GET_EVENT gave out.  The caller holds a reference.
 */
u32 ucma_ctx_destroy(struct ucma_ctx *ctx)
{
	struct ucma_file *file = ctx->file;
	bool mine;
	u32 reported;

	xa_lock(&file->ctxs);
	mine = xa_load(&file->ctxs, ctx->handle) == ctx;
	if (mine)
		__xa_erase(&file->ctxs, ctx->handle);
	xa_unlock(&file->ctxs);
	if (!mine)
		return 0;
	ucma_ctx_close(ctx);
	reported = ucma_events_drop(ctx);
	ucma_ctx_put(ctx);	/* the table's */
	return reported;
}

/* DEVICE_REMOVAL: the device's removal waits for the id, not for the process. */
void ucma_removal_work(struct work_struct *work)
{
	struct ucma_ctx *ctx = container_of(work, struct ucma_ctx, removal);

	ucma_ctx_close(ctx);
	ucma_ctx_put(ctx);
}
