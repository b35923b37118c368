/* SPDX-License-Identifier: GPL-2.0-only */
/* oib_ucma internals shared between its files; nothing here is API (Documentation/ucma.md). */
#ifndef OIB_UCMA_PRIV_H
#define OIB_UCMA_PRIV_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <oib/rdma_cm.h>
#include <oib/uverbs_qp.h>
#include <uapi/oib/ucma.h>

/*
 * One open /dev/oib_rdma_cm: an event channel and the ids made through it.  Its memory lives
 * until release(), which closes every id first, so no id's handler runs after it (the CMA's
 * destroy is synchronous) and nothing else points at the file.
 */
struct ucma_file {
	struct xarray ctxs;		/* handle -> struct ucma_ctx (the table's reference) */
	spinlock_t lock;		/* protects @events and every ctx's @events_reported */
	struct list_head events;	/* struct ucma_event.list, oldest first */
	wait_queue_head_t wait;
};

/*
 * An id.  Refcount @ref (memory): the file's table while the handle is there, each event
 * naming it (as its id or as its new connection), and the removal work while queued.
 * @cm_id is the CMA's id from creation until the id is closed (destroy, the file's release, the
 * device's removal); every command runs under @mutex and finds it NULL once closed.  The CMA's
 * handler never takes @mutex (commands hold it across the CMA's calls, destroy included).
 */
struct ucma_ctx {
	struct kref ref;
	struct ucma_file *file;		/* never changes */
	u32 handle;			/* in file->ctxs; never changes */
	u64 uid;			/* under @mutex; the handler reads it with READ_ONCE() */
	struct mutex mutex;		/* protects @cm_id and the calls on it, @quser's attach */
	struct oib_cma_id *cm_id;
	struct oib_uverbs_qp_user quser;	/* the process's QP the id connects, if any */
	u32 events_reported;		/* under file->lock */
	struct work_struct removal;	/* the device went: close the id */
};

/*
 * A queued event: holds @ctx (and @conn, a CONNECT_REQUEST's new id) until it is read or
 * dropped; the answer in @resp names them by handle only.
 */
struct ucma_event {
	struct list_head list;
	struct ucma_ctx *ctx;
	struct ucma_ctx *conn;
	struct oib_ucma_event resp;
};

extern struct workqueue_struct *ucma_wq;
extern const struct file_operations ucma_fops;

/* ucma_ctx.c */
struct ucma_ctx *ucma_ctx_new(struct ucma_file *file, u64 uid);
int ucma_ctx_insert(struct ucma_ctx *ctx);
void ucma_ctx_put(struct ucma_ctx *ctx);
struct ucma_ctx *ucma_ctx_get(struct ucma_file *file, u32 handle);
struct ucma_ctx *ucma_ctx_lock(struct ucma_file *file, u32 handle);
void ucma_ctx_unlock(struct ucma_ctx *ctx);
void ucma_ctx_close(struct ucma_ctx *ctx);
u32 ucma_ctx_destroy(struct ucma_ctx *ctx);
void ucma_removal_work(struct work_struct *work);

/* ucma_event.c */
int ucma_cma_handler(struct oib_cma_id *id, struct oib_cma_event *event);
u32 ucma_events_drop(struct ucma_ctx *ctx);
long ucma_get_event(struct ucma_file *file, bool nonblock, void __user *arg);

/* ucma_qp.c */
int ucma_attach_qp(struct ucma_file *file, void __user *arg);
int ucma_detach_qp(struct ucma_file *file, void __user *arg);
void ucma_ctx_release_qp(struct ucma_ctx *ctx);

/* ucma_cmd.c and ucma_conn.c: the commands, each given the file and the user's struct */
int ucma_create_id(struct ucma_file *file, void __user *arg);
int ucma_destroy_id(struct ucma_file *file, void __user *arg);
int ucma_bind(struct ucma_file *file, void __user *arg);
int ucma_resolve_addr(struct ucma_file *file, void __user *arg);
int ucma_resolve_route(struct ucma_file *file, void __user *arg);
int ucma_query(struct ucma_file *file, void __user *arg);
int ucma_listen(struct ucma_file *file, void __user *arg);
int ucma_set_option(struct ucma_file *file, void __user *arg);
int ucma_connect(struct ucma_file *file, void __user *arg);
int ucma_accept(struct ucma_file *file, void __user *arg);
int ucma_reject(struct ucma_file *file, void __user *arg);
int ucma_disconnect(struct ucma_file *file, void __user *arg);
int ucma_notify(struct ucma_file *file, void __user *arg);

#endif /* OIB_UCMA_PRIV_H */
