/* SPDX-License-Identifier: GPL-2.0-only */
/* oib_uverbs internals shared between its files; nothing here is API. */
#ifndef OIB_UVERBS_PRIV_H
#define OIB_UVERBS_PRIV_H

#include <linux/cdev.h>
#include <linux/kref.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <oib/device.h>
#include <uapi/oib/uverbs.h>
#include <oib/uverbs_qp.h>

/*
 * One per oib device: the character device /dev/oib_uverbs<N>.  Its memory is refcounted by @dev
 * (put_device()): the device registration holds one reference, @cdev one while it is added, and
 * every open file one.  @ibdev is valid until the client's remove(), which tears down every open
 * file's objects first.
 */
struct oib_uverbs_device {
	struct device dev;
	struct cdev cdev;
	struct oib_device *ibdev;
	struct mutex lock;		/* protects @files and @removed */
	struct list_head files;		/* open files, struct oib_uverbs_file.list */
	bool removed;
	/*
	 * The XRC domains opened through a file (xrcd.c): struct oib_uverbs_xrcd_inode.list.
	 * @xrcd_lock protects the list and each entry's openers, and serialises opens and closes
	 * of such domains (so O_EXCL holds).  Taken after a file's hw_rwsem.
	 */
	struct mutex xrcd_lock;
	struct list_head xrcd_inodes;
};

/*
 * Where an event file is: LIVE queues events (a channel from its making; the async file from
 * GET_ASYNC_FD); UNOPENED drops them and may be given a file (the async file before
 * GET_ASYNC_FD, or after one whose answer never reached user space); CLOSED drops them for good
 * (its file was closed).
 */
enum oib_uverbs_ef_state {
	OIB_UVERBS_EF_LIVE,
	OIB_UVERBS_EF_UNOPENED,
	OIB_UVERBS_EF_CLOSED,
};

/*
 * A queue of events read through a file: a completion channel or a context's async event file.
 * Refcount @ref: its own file, plus each CQ that uses it (channel), plus the context (async).
 * @file is the file that delivers its events (not a reference; NULL before it has one and once
 * it is closed or was never given out): only that file's release closes the queue.
 */
struct oib_uverbs_event_file {
	struct kref ref;
	spinlock_t lock;		/* protects @events, @queued, @state, @file, obj_lists */
	struct list_head events;	/* struct oib_uverbs_qevent.list, oldest first */
	u32 queued;			/* on @events, at most OIB_UVERBS_EVENTS_MAX */
	wait_queue_head_t wait;
	enum oib_uverbs_ef_state state;
	struct file *file;
	struct oib_uverbs_file *owner;	/* channels: the context they belong to (a reference) */
};

/* A queued event; on its queue's list and on its object's list of unread events. */
struct oib_uverbs_qevent {
	struct list_head list;
	struct list_head obj_list;	/* empty for port and device events */
	u32 *counter;			/* the object's count of events read, or NULL */
	struct oib_uverbs_event desc;
};

/*
 * One open /dev/oib_uverbs<N>: a context.  Refcount @ref (memory only): the open file plus each
 * completion channel it created.  The objects live until the file is released or the device is
 * removed, whichever comes first (oib_uverbs_file_teardown()).
 *
 * @async, the context's async event file, is made with the context (UNOPENED until
 * GET_ASYNC_FD) and put with its memory: it is the same queue for the context's whole life, so
 * every object's async events are on it or nowhere, and an object's destroy, once its handler
 * can run no more, drops its unread ones from it (under its lock) before the object is freed.
 */
struct oib_uverbs_file {
	struct kref ref;
	struct oib_uverbs_device *udev;		/* a reference on udev->dev */
	/* ioctls hold it shared, teardown exclusive; protects @ibdev */
	struct rw_semaphore hw_rwsem;
	struct oib_device *ibdev;		/* NULL once torn down */
	struct xarray handles;			/* handle -> struct oib_uverbs_uobj */
	struct xarray mr_keys;			/* lkey -> struct oib_uverbs_mr */
	struct xarray rings;			/* mmap key -> struct oib_uverbs_kring */
	struct oib_uverbs_event_file *async;	/* a reference, never NULL */
	struct oib_event_handler event_handler;	/* port events, registered until teardown */
	struct list_head list;			/* on udev->files, under udev->lock */
};

enum oib_uverbs_obj_type {
	OIB_UVERBS_OBJ_QP,	/* teardown order: dependents first */
	OIB_UVERBS_OBJ_SRQ,
	OIB_UVERBS_OBJ_AH,
	OIB_UVERBS_OBJ_MR,
	OIB_UVERBS_OBJ_CQ,
	OIB_UVERBS_OBJ_PD,
	OIB_UVERBS_OBJ_XRCD,
	OIB_UVERBS_OBJ_MAX,
};

/*
 * An object in a file's handle table.  @usecnt is a reader-writer lock that never sleeps: ioctls
 * that use the object hold it shared (> 0) for their duration, destroy holds it exclusive (-1);
 * an ioctl that cannot get it fails with -EBUSY.  The memory belongs to the table entry: it is
 * freed after the entry is erased, and only the destroyer erases.
 */
struct oib_uverbs_uobj {
	struct oib_uverbs_file *ufile;
	enum oib_uverbs_obj_type type;
	u32 handle;
	u64 user_handle;
	atomic_t usecnt;
};

/*
 * What the requests of a PD's QPs may still use after user space destroyed it (an AH): kept on
 * the PD's retired list until the PD has no user QP, then freed by @free (pd.c).
 */
struct oib_uverbs_retired {
	struct list_head list;
	void (*free)(struct oib_uverbs_retired *r);
};

/*
 * A user MR's pinned pages and their kernel mapping, freed as DEREG_MR (or the context's teardown)
 * deregisters the MR: once oib_dereg_mr() returns, the provider no longer touches the memory
 * (a copy in progress is waited out, a message's later packets resolve the key again and fail),
 * whatever QP (an XRC target's too) or SRQ the requests came through.
 */
struct oib_uverbs_umem {
	struct mm_struct *mm;		/* mmgrab()bed: pinned_vm is charged to it */
	struct page **pages;
	unsigned long npages;
	void *vaddr;			/* vmap() of @pages */
};

struct oib_uverbs_pd {
	struct oib_uverbs_uobj uobj;
	struct oib_pd *pd;
	struct mutex lock;		/* protects @nqps and @retired */
	unsigned int nqps;		/* user QPs on this PD */
	struct list_head retired;	/* struct oib_uverbs_retired.list, freed when @nqps is 0 */
};

/*
 * A ring mapped into the process (ring.c).  Refcount @ref: the object that made it (until it
 * goes: oib_uverbs_kring_free()) and each VMA mapping it.  The fields never change.
 */
struct oib_uverbs_kring {
	struct kref ref;
	struct oib_uverbs_file *ufile;	/* whose @rings table has it, while the object lives */
	struct page **pages;		/* @npages zeroed pages */
	unsigned int npages;
	void *mem;			/* their vmap(): struct oib_uverbs_ring_hdr, entries */
	u32 size;			/* bytes, page aligned */
	u32 entries;			/* a power of two */
	u32 stride;
	u32 key;			/* in ufile->rings; the mmap offset in pages */
};

static inline struct oib_uverbs_ring_hdr *oib_uverbs_kring_hdr(struct oib_uverbs_kring *ring)
{
	return ring->mem;
}

/*
 * A mapped CQ (cq_ring.c).  The completion handler (never concurrent with itself) is the only
 * writer of @prod and @overflow; @notify is the process's arming (0, OIB_CQ_NEXT_COMP or
 * OIB_CQ_SOLICITED), set by REQ_NOTIFY_CQ and cleared by the handler when it raises the event.
 */
struct oib_uverbs_cq_ring {
	struct oib_uverbs_kring *ring;
	u32 prod;
	bool overflow;
	atomic_t notify;
};

struct oib_uverbs_cq {
	struct oib_uverbs_uobj uobj;
	struct oib_cq *cq;
	struct oib_uverbs_cq_ring mapped;	/* mapped.ring NULL: completions by POLL_CQ */
	struct oib_uverbs_event_file *channel;	/* a reference, or NULL */
	struct list_head comp_list;	/* unread completion events, under channel->lock */
	struct list_head async_list;	/* unread async events, under the async file's lock */
	u32 comp_reported;		/* completion events read, under channel->lock */
	u32 async_reported;		/* async events read, under the async file's lock */
};

struct oib_uverbs_mr {
	struct oib_uverbs_uobj uobj;
	struct oib_mr *mr;
	struct oib_uverbs_pd *upd;
	struct oib_uverbs_umem *umem;
	u64 uaddr;			/* user address of the first byte */
	u64 length;
};

/* One receive ring entry as the kernel copied it. */
struct oib_uverbs_rq_wqe {
	struct oib_uverbs_recv_wr wr;
	struct oib_uverbs_sge sge[OIB_UVERBS_MAX_SGE];
};

/*
 * A mapped receive queue, a QP's or an SRQ's (rq_ring.c), and the receive source the provider
 * pulls it through.  @ring is published once (release), after @pd and @max_sge, and freed only
 * after the object is destroyed, when the provider pulls no more.  @lock (irqsave: pulls come
 * from the provider's receive path, under its queue locks) protects @cons (the kernel's consumer
 * index, the truth), @broken, @wqe and the reading of entries.
 */
struct oib_uverbs_rq_ring {
	struct oib_recv_source src;
	struct oib_uverbs_kring *ring;
	struct oib_uverbs_file *ufile;
	struct oib_pd *pd;
	spinlock_t lock;		/* protects @cons, @broken, @wqe, reading entries */
	u32 cons;
	u32 max_sge;
	bool broken;			/* a bad index or entry was found: no more pulls */
	struct oib_uverbs_rq_wqe wqe;
};

/*
 * An open XRC domain (xrcd.c): a holder's reference on @xrcd (oib_xrcd_get(), or the
 * allocation), dropped at close.  @nusers counts this context's XRC SRQs and XRC target QPs
 * made through this handle (close is -EBUSY while any); @regs (under @lock) the receive QPs
 * registered through it, each once (QP number -> xa_mk_value(1)), unregistered at close.
 */
struct oib_uverbs_xrcd {
	struct oib_uverbs_uobj uobj;
	struct oib_xrcd *xrcd;
	struct oib_uverbs_xrcd_inode *ino;	/* the table entry it was opened by, or NULL */
	atomic_t nusers;
	struct mutex lock;		/* protects @regs */
	struct xarray regs;
};

struct oib_uverbs_srq {
	struct oib_uverbs_uobj uobj;
	struct oib_srq *srq;
	struct oib_uverbs_xrcd *uxrcd;	/* XRC: the handle it counts on, else NULL */
	struct oib_uverbs_rq_ring rq;	/* rq.ring NULL: receives by POST_SRQ_RECV */
	struct list_head async_list;	/* unread async events, under the async file's lock */
	u32 async_reported;
};

/* An AH; @keep owns the core's AH and outlives the handle while the PD's QPs may use it. */
struct oib_uverbs_ah {
	struct oib_uverbs_uobj uobj;
	struct oib_uverbs_pd *upd;
	struct oib_uverbs_ah_keep *keep;
};

struct oib_uverbs_ah_keep {
	struct oib_uverbs_retired retired;
	struct oib_ah *ah;
};

/*
 * A mapped send queue (sq_ring.c).  @lock serialises doorbells: it protects @cons (the kernel's
 * consumer index, the truth; the ring's copy is only published) and the reading of entries.
 */
struct oib_uverbs_sq_ring {
	struct oib_uverbs_kring *ring;
	struct mutex lock;		/* protects @cons and the reading of entries */
	u32 cons;
	u32 max_sge;
};

struct oib_uverbs_qp {
	struct oib_uverbs_uobj uobj;
	struct oib_qp *qp;
	struct oib_uverbs_pd *upd;		/* NULL for an XRC target */
	struct oib_uverbs_xrcd *uxrcd;		/* an XRC target's domain handle, else NULL */
	struct oib_uverbs_sq_ring sq;		/* sq.ring NULL: sends by POST_SEND */
	struct oib_uverbs_rq_ring rq;		/* rq.ring NULL: receives by POST_RECV only */
	struct list_head async_list;	/* unread async events, under the async file's lock */
	u32 async_reported;
	/* another module's use of it (qp_user.c), under oib_uverbs_qp_user_lock */
	struct oib_uverbs_qp_user *user;
};

/*
 * One ioctl call.  A handler that makes a file descriptor leaves it here: ioctl.c installs it
 * only once the answer naming it has reached user space, and drops it otherwise.
 */
struct oib_uverbs_call {
	struct oib_uverbs_file *ufile;
	void __user *ucmd;		/* the caller's command */
	struct file *new_file;
	int new_fd;
	void *stage;			/* what @before copied in, or made for @after */
};

/*
 * A command: its handler and the sizes it accepts (ioctl.c).  The handler runs with the
 * context's hw_rwsem held shared and never touches user memory: a copy that stalls (a page of a
 * FUSE file, or one under userfaultfd) would hold up the device's removal for as long as the
 * process likes.  A command with more user memory than its own struct copies it in @before and
 * out in @after, both without the lock: @before may leave what it copied in call->stage;
 * @after always runs, gets the result so far, frees call->stage and returns the result.
 */
struct oib_uverbs_ioctl {
	int (*handler)(struct oib_uverbs_call *call, void *cmd);
	int (*before)(struct oib_uverbs_call *call, void *cmd);
	int (*after)(struct oib_uverbs_call *call, void *cmd, int ret);
	u32 min_size;	/* the first version's size */
	u32 size;	/* this version's size */
};

/* A user ABI value that is the kernel's own, checked at build time. */
#define OIB_UVERBS_SAME(uapi, kernel) static_assert((int)(uapi) == (int)(kernel))

extern const struct oib_uverbs_ioctl oib_uverbs_ioctls[OIB_UVERBS_CMD_MAX];
long oib_uverbs_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);

/* file.c */
void oib_uverbs_file_put(struct oib_uverbs_file *ufile);
void oib_uverbs_file_teardown(struct oib_uverbs_file *ufile);
extern const struct file_operations oib_uverbs_fops;

/* qp_user.c */
void oib_uverbs_qp_release_user(struct oib_uverbs_qp *uqp);

/* uobj.c */
int oib_uobj_insert(struct oib_uverbs_file *ufile, struct oib_uverbs_uobj *uobj,
		    enum oib_uverbs_obj_type type, u64 user_handle);
void oib_uobj_commit(struct oib_uverbs_uobj *uobj);
void *oib_uobj_get(struct oib_uverbs_file *ufile, u32 handle, enum oib_uverbs_obj_type type);
void oib_uobj_put(struct oib_uverbs_uobj *uobj);
int oib_uobj_destroy(struct oib_uverbs_file *ufile, u32 handle, enum oib_uverbs_obj_type type,
		     void *resp);
void oib_uobj_destroy_all(struct oib_uverbs_file *ufile);

/* event.c */
struct oib_uverbs_event_file *oib_uverbs_event_file_alloc(struct oib_uverbs_file *owner);
void oib_uverbs_event_file_put(struct oib_uverbs_event_file *ef);
void oib_uverbs_event_file_close(struct oib_uverbs_event_file *ef);
int oib_uverbs_event_file_open(struct oib_uverbs_event_file *ef, const char *name,
			       struct oib_uverbs_call *call, struct oib_uverbs_new_fd *cmd);
struct oib_uverbs_event_file *oib_uverbs_channel_get(struct oib_uverbs_file *ufile, int fd);
void oib_uverbs_event_file_unused(struct file *file);
bool oib_uverbs_event_file_start(struct oib_uverbs_event_file *ef);
void oib_uverbs_event_file_stop(struct oib_uverbs_event_file *ef, struct file *file,
				enum oib_uverbs_ef_state state);
void oib_uverbs_event_queue(struct oib_uverbs_event_file *ef, struct list_head *obj_list,
			    u32 *counter, const struct oib_uverbs_event *desc);
u32 oib_uverbs_event_drop_unread(struct oib_uverbs_event_file *ef, struct list_head *obj_list,
				 u32 *counter);

/* async.c */
int oib_uverbs_async_alloc(struct oib_uverbs_file *ufile);
void oib_uverbs_async_start(struct oib_uverbs_file *ufile);
void oib_uverbs_async_object_event(struct oib_uverbs_uobj *uobj, struct list_head *obj_list,
				   u32 *counter, enum oib_event_type type);
void oib_uverbs_async_teardown(struct oib_uverbs_file *ufile);

/* Per-type destroy, called by uobj.c with the object held exclusively. */
int oib_uverbs_pd_destroy(struct oib_uverbs_uobj *uobj, void *resp);
int oib_uverbs_cq_destroy(struct oib_uverbs_uobj *uobj, void *resp);
int oib_uverbs_mr_destroy(struct oib_uverbs_uobj *uobj, void *resp);
int oib_uverbs_qp_destroy(struct oib_uverbs_uobj *uobj, void *resp);
int oib_uverbs_ah_destroy(struct oib_uverbs_uobj *uobj, void *resp);
int oib_uverbs_srq_destroy(struct oib_uverbs_uobj *uobj, void *resp);
int oib_uverbs_xrcd_destroy(struct oib_uverbs_uobj *uobj, void *resp);

/* Command handlers. */
int oib_uverbs_query_device(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_query_port(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_query_gid(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_get_async_fd(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_create_comp_channel(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_alloc_pd(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_dealloc_pd(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_create_cq(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_destroy_cq(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_req_notify_cq(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_poll_cq(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_reg_mr(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_dereg_mr(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_create_qp(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_modify_qp(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_destroy_qp(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_post_send(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_post_recv(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_create_ah(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_destroy_ah(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_create_srq(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_modify_srq(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_query_srq(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_destroy_srq(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_post_srq_recv(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_doorbell(struct oib_uverbs_call *call, void *cmd);

/* Their copies of user memory, without the context's lock (struct oib_uverbs_ioctl). */
int oib_uverbs_poll_cq_before(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_poll_cq_after(struct oib_uverbs_call *call, void *cmd, int ret);
int oib_uverbs_reg_mr_before(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_reg_mr_after(struct oib_uverbs_call *call, void *cmd, int ret);
int oib_uverbs_post_send_before(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_post_recv_before(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_post_after(struct oib_uverbs_call *call, void *cmd, int ret);
int oib_uverbs_doorbell_after(struct oib_uverbs_call *call, void *cmd, int ret);
int oib_uverbs_query_qp(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_open_xrcd(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_close_xrcd(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_create_xrc_rcv_qp(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_reg_xrc_rcv_qp(struct oib_uverbs_call *call, void *cmd);
int oib_uverbs_unreg_xrc_rcv_qp(struct oib_uverbs_call *call, void *cmd);

/* xrc_tgt.c: CREATE_QP of an owner's XRC target QP. */
int oib_uverbs_create_xrc_tgt(struct oib_uverbs_call *call, struct oib_uverbs_create_qp *cmd);
void oib_uverbs_qp_event(struct oib_event *event, void *context);

/* qp.c: MODIFY_QP's attributes into the kernel's, every field checked. */
int oib_uverbs_qp_attr(const struct oib_uverbs_modify_qp *cmd, struct oib_qp_attr *a);

/* xrcd.c: the domain table's entries of @udev (sysfs). */
unsigned int oib_uverbs_xrcd_files(struct oib_uverbs_device *udev);

/* ring.c */
struct oib_uverbs_kring *oib_uverbs_kring_alloc(struct oib_uverbs_file *ufile, u32 entries,
						u32 stride, struct oib_uverbs_ring *out);
void oib_uverbs_kring_free(struct oib_uverbs_kring *ring);
void *oib_uverbs_kring_entry(struct oib_uverbs_kring *ring, u32 index);
int oib_uverbs_mmap(struct file *filp, struct vm_area_struct *vma);

/* cq_ring.c */
int oib_uverbs_cq_ring_init(struct oib_uverbs_cq *ucq, struct oib_uverbs_create_cq *cmd);
void oib_uverbs_cq_ring_comp(struct oib_cq *cq, void *context);
void oib_uverbs_cq_ring_arm(struct oib_uverbs_cq *ucq, enum oib_cq_notify_flags flags);
void oib_uverbs_cq_comp_event(struct oib_uverbs_cq *ucq);
void oib_uverbs_wc_to_user(struct oib_uverbs_wc *u, const struct oib_wc *wc);

/* sq_ring.c */
int oib_uverbs_sq_ring_init(struct oib_uverbs_file *ufile, struct oib_uverbs_qp *uqp,
			    struct oib_uverbs_create_qp *cmd);
void oib_uverbs_sq_ring_free(struct oib_uverbs_qp *uqp);

/* rq_ring.c */
struct oib_recv_source *oib_uverbs_rq_source(struct oib_uverbs_rq_ring *rq,
					     struct oib_uverbs_file *ufile);
int oib_uverbs_rq_ring_init(struct oib_uverbs_rq_ring *rq, struct oib_pd *pd, u32 entries,
			    u32 max_sge, struct oib_uverbs_ring *out);
void oib_uverbs_rq_ring_reset(struct oib_uverbs_rq_ring *rq);
void oib_uverbs_rq_ring_free(struct oib_uverbs_rq_ring *rq);

/* pd.c: a user QP on @upd holds back the freeing of what was retired on it. */
void oib_uverbs_pd_qp_add(struct oib_uverbs_pd *upd);
void oib_uverbs_pd_qp_del(struct oib_uverbs_pd *upd);
void oib_uverbs_pd_retire(struct oib_uverbs_pd *upd, struct oib_uverbs_retired *r);
void oib_uverbs_umem_free(struct oib_uverbs_umem *umem);

/* ah.c: the kernel's address vector from the user's; -EINVAL for reserved bits. */
int oib_uverbs_ah_attr(const struct oib_uverbs_ah_attr *u, struct oib_ah_attr *k);
void oib_uverbs_ah_attr_to_user(const struct oib_ah_attr *k, struct oib_uverbs_ah_attr *u);

/* post.c: a send request as POST_SEND takes it, its SGEs already in kernel memory. */
struct oib_uverbs_send_batch {
	struct oib_send_wr wr[OIB_UVERBS_MAX_WR];
	struct oib_sge sge[OIB_UVERBS_MAX_WR][OIB_UVERBS_MAX_SGE];
	struct oib_uverbs_ah *ah[OIB_UVERBS_MAX_WR];
};

int oib_uverbs_send_wr(struct oib_uverbs_file *ufile, struct oib_qp *qp,
		       const struct oib_uverbs_send_wr *u, const struct oib_uverbs_sge *usge,
		       struct oib_send_wr *k, struct oib_sge *sge, struct oib_uverbs_ah **ahp);
void oib_uverbs_send_batch_put(struct oib_uverbs_send_batch *b, u32 n);
int oib_uverbs_recv_wr(struct oib_uverbs_file *ufile, struct oib_pd *pd,
		       const struct oib_uverbs_recv_wr *u, const struct oib_uverbs_sge *usge,
		       struct oib_recv_wr *k, struct oib_sge *sge);

/* mr.c */
int oib_uverbs_sge_from_user(struct oib_uverbs_file *ufile, struct oib_pd *pd,
			     const struct oib_uverbs_sge *u, struct oib_sge *k);

#endif /* OIB_UVERBS_PRIV_H */
