/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for software providers (oib_rxe, oib_siw), in oib_core: what every device that does its
 * transport in the kernel needs alike, kept once.  Each part says what it owns, which lock guards
 * what, and how long its objects live.  A provider embeds the helper's object as its own verbs
 * object (the core allocates it with the provider's size_cq, size_mr) and keeps what is its own:
 * the wire, the QPs, how it copies through the memory a key names.
 */
#ifndef OIB_SW_H
#define OIB_SW_H

#include <linux/completion.h>
#include <linux/netdevice.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <oib/provider.h>

/* ---- The CQ (core/sw_cq.c) ---- */

/*
 * A CQ: a ring of oib_wc of a power-of-two capacity, its arming, and its overflow.  @lock guards
 * the ring, its free-running indices, @notify, @overflow and @pending; it is taken alone (a QP's
 * locks may be held around it, never the reverse) and with interrupts off, so completions may be
 * posted from any context.  The completion handler and the CQ_ERR event never run under it: a
 * post notes them in @pending and queues @work on @wq (on @cpu), which calls them in process
 * context; a work item never runs concurrently with itself, so handler calls of one CQ are
 * serialised.  From oib_sw_cq_init() in the provider's create_cq to oib_sw_destroy_cq(), which
 * disarms and cancels @work synchronously: no handler runs after it returns.
 *
 * A full CQ loses the completion, raises CQ_ERR once and stays in error, as the IBTA's CQ
 * overrun (an affiliated asynchronous error): later completions are lost silently and the
 * consumer's only way out is to destroy it.  No resize: neither provider has one.
 */
struct oib_sw_cq {
	struct oib_cq ib;
	spinlock_t lock;		/* see above */
	struct oib_wc *ring;
	u32 mask, prod, cons;		/* capacity - 1, free-running indices */
	u8 notify;			/* OIB_CQ_NEXT_COMP or OIB_CQ_SOLICITED; 0: disarmed */
	bool overflow;			/* a completion was lost: in error for good */
	u8 pending;			/* OIB_SW_CQ_WAKE, OIB_SW_CQ_ERROR: @work's to do */
	int cpu;			/* @work's CPU, or WORK_CPU_UNBOUND */
	struct workqueue_struct *wq;	/* the provider's, outlives the CQ */
	struct work_struct work;
};

#define OIB_SW_CQ_WAKE		BIT(0)
#define OIB_SW_CQ_ERROR		BIT(1)

static inline struct oib_sw_cq *oib_sw_cq(struct oib_cq *ib)
{
	return container_of(ib, struct oib_sw_cq, ib);
}

/*
 * The provider's create_cq: a ring of at least @attr->cqe entries (ib.cqe set to what it got);
 * @wq and @cpu run the handlers.  0 or -ENOMEM.
 */
int oib_sw_cq_init(struct oib_sw_cq *cq, const struct oib_cq_init_attr *attr,
		   struct workqueue_struct *wq, int cpu);
/* The ops: destroy_cq, poll_cq and req_notify_cq as they are. */
void oib_sw_destroy_cq(struct oib_cq *ib);
int oib_sw_poll_cq(struct oib_cq *ib, int num_entries, struct oib_wc *wc);
int oib_sw_req_notify_cq(struct oib_cq *ib, enum oib_cq_notify_flags flags);
/*
 * Add a completion; the qp_num is taken from @wc->qp, OIB_WC_SOLICITED added for @solicited (an
 * armed SOLICITED CQ also wakes for an error completion).  Any context, under any QP lock.
 */
void oib_sw_cq_post(struct oib_sw_cq *cq, const struct oib_wc *wc, bool solicited);
/* Wait until the handler call or event the CQ had queued has run (tests). */
void oib_sw_cq_flush(struct oib_sw_cq *cq);

/* ---- MRs and their key table (core/sw_mr.c) ---- */

/*
 * A device's MR key table: key index -> struct oib_sw_mr.  A key is (index << 8 | variant): the
 * index (1 to 2^24 - 1, allocated cyclically so a freed one comes back as late as it can) names
 * the MR, the low byte tells registrations of one index apart (random for a new MR, the
 * consumer's for each fast registration), so that a stale key does not match.  Key 0 is every
 * PD's local DMA lkey, never in the table.  The xarray's lock (taken with interrupts off) guards
 * the table and the registered state of every MR in it (struct oib_sw_mr's fields after @index).
 * The table lives from oib_sw_mr_table_init() at device allocation to oib_sw_mr_table_destroy()
 * after the core has deregistered every MR.
 */
struct oib_sw_mr_table {
	struct xarray xa;
	u32 next;			/* cyclic allocation hint */
};

enum oib_sw_mr_state {
	OIB_SW_MR_FREE,			/* fast registration, not registered yet: no key works */
	OIB_SW_MR_VALID,
	OIB_SW_MR_INVALID,		/* invalidated (LOCAL_INV, SEND_WITH_INV) */
};

/*
 * An MR as the transport honours it.  The core's fields (@ib) are the consumer's: for a
 * fast-registration MR they describe the next registration; the transport reads the copies
 * below, under the table's lock.  A kernel or DMA MR is VALID from registration on, iova lying
 * at the kernel address @kbase, and may not be invalidated.  A fast-registration MR goes FREE ->
 * VALID (REG_MR) -> INVALID -> VALID ...; map_mr_sg fills @staged, REG_MR swaps it with @pages.
 *
 * Lifetime of the memory: @ref is 1 while the MR is in the table, plus one for each user that
 * resolved a key to a kernel address (oib_sw_mr_get(), under the table's lock) until its
 * oib_sw_mr_put(): a copy, a packet, a run of them; nothing keeps an address longer.
 * oib_sw_mr_dereg() takes the MR out of the table, drops the first reference and waits for
 * @ref_done: once dereg_mr returns, the device neither reads nor writes the memory.
 */
struct oib_sw_mr {
	struct oib_mr ib;
	refcount_t ref;			/* see above */
	struct completion ref_done;
	u32 index;			/* key >> 8 */
	enum oib_sw_mr_state state;
	u32 lkey, rkey;			/* what works now; rkey 0: no remote access */
	int access;
	u64 iova, length;
	u64 kbase;			/* kernel MR: the kernel address of iova */
	u32 page_size;
	u64 *pages;			/* fast registration: the blocks' kernel addresses */
	u32 npages;
	u64 *staged;			/* map_mr_sg's list, the consumer's until REG_MR */
	u32 nstaged;
};

static inline struct oib_sw_mr *oib_sw_mr(struct oib_mr *ib)
{
	return container_of(ib, struct oib_sw_mr, ib);
}

void oib_sw_mr_table_init(struct oib_sw_mr_table *t);
void oib_sw_mr_table_destroy(struct oib_sw_mr_table *t);

/*
 * get_dma_mr and reg_kernel_mr (@kbase: the kernel address of the MR's iova; 0 for a DMA MR):
 * the MR in @t with new keys, VALID.  0, -ENOSPC (no index free) or -ENOMEM.
 */
int oib_sw_mr_kernel(struct oib_sw_mr_table *t, struct oib_sw_mr *mr, int access, u64 kbase);
/* alloc_mr: room for @max_num_sg blocks, in @t with new keys, FREE.  0 or -errno. */
int oib_sw_mr_alloc(struct oib_sw_mr_table *t, struct oib_sw_mr *mr, u32 max_num_sg);
/* The op map_mr_sg as it is: the consumer's list of blocks for its next REG_MR. */
int oib_sw_map_mr_sg(struct oib_mr *ib, struct scatterlist *sg, int sg_nents,
		     unsigned int sg_offset);
/* dereg_mr: out of @t; waits for the users that hold it.  May sleep. */
void oib_sw_mr_dereg(struct oib_sw_mr_table *t, struct oib_sw_mr *mr);

/*
 * OIB_WR_REG_MR of a QP of @pd: the MR of @wr takes its staged blocks, @wr's key and access,
 * and is VALID.  -EINVAL if it is another PD's, not a fast-registration MR, VALID already, or
 * the key's index is another MR's.
 */
int oib_sw_mr_reg(struct oib_sw_mr_table *t, struct oib_pd *pd, const struct oib_send_wr *wr);
/*
 * Invalidate the MR of @pd whose lkey (@remote: rkey) is @key.  -EINVAL if there is none (FREE,
 * or its keys changed), -EACCES if it is not a fast-registration MR (nobody may revoke a kernel
 * registration) or, remotely, has no rkey.  Invalidating an INVALID MR again is no error.
 */
int oib_sw_mr_invalidate(struct oib_sw_mr_table *t, struct oib_pd *pd, u32 key, bool remote);

/* What oib_sw_mr_get() resolved: @len contiguous bytes at @kva, of @mr, held. */
struct oib_sw_mr_ref {
	struct oib_sw_mr *mr;
	u8 *kva;
	u32 len;
};

/*
 * Resolve @key of @pd (an lkey, or with @remote an rkey) for @len > 0 bytes at @va needing
 * @access: the kernel address of @va and how many bytes from there, at most @len, are
 * contiguous in the kernel's address space, the MR held until oib_sw_mr_put(ref->mr).
 * -EINVAL (no valid such key of @pd), -EACCES (the MR does not grant @access), -ERANGE (the
 * bytes are not all in the MR, or not mapped).  The local DMA lkey is the caller's to handle.
 * Any context.
 */
int oib_sw_mr_get(struct oib_sw_mr_table *t, struct oib_pd *pd, u32 key, bool remote, u64 va,
		  u32 len, int access, struct oib_sw_mr_ref *ref);

/* Drop what oib_sw_mr_get() took (NULL: nothing). */
static inline void oib_sw_mr_put(struct oib_sw_mr *mr)
{
	if (mr && refcount_dec_and_test(&mr->ref))
		complete(&mr->ref_done);
}

/* ---- A port's GIDs that follow a netdev's addresses (core/sw_netdev.c) ---- */

/* How many addresses a port takes from its netdev at most. */
#define OIB_SW_NETDEV_MAX_GIDS	16

/*
 * The addresses of @ndev as GIDs: its IPv4 ones IPv4-mapped, then its IPv6 ones, at most @max of
 * them into @gids; their number.  Under RTNL.
 */
int oib_sw_netdev_addrs(struct net_device *ndev, union oib_gid *gids, int max);
/*
 * Make GID indices @first to @end - 1 of @port of @ib the addresses of the netdev *@ndev names
 * (read under RTNL; nothing if NULL, the device unbound): those it no longer has deleted, the new
 * ones added, each change raising GID_CHANGE.  Indices below @first are the provider's.  From the
 * provider's work item that the address notifiers queue: process context, RTNL not held (the
 * GID table changes without it).  0, or -EINVAL if the range is empty or wider than
 * OIB_SW_NETDEV_MAX_GIDS.
 */
int oib_sw_netdev_follow_gids(struct oib_device *ib, u32 port, u32 first, u32 end,
			      struct net_device __rcu **ndev);

#endif /* OIB_SW_H */
