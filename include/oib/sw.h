/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for software providers (oib_rxe, oib_siw), in oib_core: what every device that does its
 * transport in the kernel needs alike, kept once.  Each part says what it owns, which lock guards
 * what, and how long its objects live.  A provider embeds the helper's object as its own verbs
 * object (the core allocates it with the provider's size_cq) and keeps what is its own: the
 * wire, the QPs, where its handlers run.
 */
#ifndef OIB_SW_H
#define OIB_SW_H

#include <linux/spinlock.h>
#include <linux/workqueue.h>
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

#endif /* OIB_SW_H */
