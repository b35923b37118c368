// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mapped CQs.  The kernel's CQ stays armed for every completion; its completion handler (never
 * concurrent with itself, never after oib_destroy_cq()) drains it into the ring as struct
 * oib_uverbs_wc entries, re-arms it asking for missed completions, and publishes its producer
 * index.  The process polls the ring and stores its consumer index, which the kernel reads once
 * per batch and never trusts: a consumer index more than the ring's size behind the producer
 * index (or ahead of it) counts as a full ring.  A full ring loses the completion and puts the
 * CQ in error (OIB_UVERBS_RING_OVERFLOW, CQ_ERR once), as a full CQ does.  The process's own
 * arming (REQ_NOTIFY_CQ) is @notify: the handler raises the channel's event when a completion
 * it wrote matches it.
 */
#include <linux/module.h>
#include "uverbs.h"

/* Never through wc->qp: the QP may have been destroyed since the completion was queued. */
void oib_uverbs_wc_to_user(struct oib_uverbs_wc *u, const struct oib_wc *wc)
{
	*u = (struct oib_uverbs_wc){
		.wr_id = wc->wr_id, .status = wc->status, .opcode = wc->opcode,
		.vendor_err = wc->vendor_err, .byte_len = wc->byte_len,
		.qp_num = wc->qp_num, .src_qp = wc->src_qp,
		.imm_data = (__force u32)wc->ex.imm_data,
		.wc_flags = wc->wc_flags & ~OIB_WC_SOLICITED,
		.pkey_index = wc->pkey_index, .slid = wc->slid, .sl = wc->sl,
		.port_num = wc->port_num,
	};
}

/* With OIB_UVERBS_CREATE_MAPPED: a ring as large as the CQ (granted size in cmd->cqe). */
int oib_uverbs_cq_ring_init(struct oib_uverbs_cq *ucq, struct oib_uverbs_create_cq *cmd)
{
	struct oib_uverbs_kring *ring;

	if (!(cmd->ring_flags & OIB_UVERBS_CREATE_MAPPED))
		return 0;
	ring = oib_uverbs_kring_alloc(ucq->uobj.ufile, ucq->cq->cqe,
				      sizeof(struct oib_uverbs_wc), &cmd->ring);
	if (IS_ERR(ring))
		return PTR_ERR(ring);
	ucq->mapped.ring = ring;
	atomic_set(&ucq->mapped.notify, 0);
	/* From here on every completion reaches the handler. */
	oib_req_notify_cq(ucq->cq, OIB_CQ_NEXT_COMP);
	return 0;
}

static void oib_uverbs_cq_ring_overflow(struct oib_uverbs_cq *ucq)
{
	struct oib_uverbs_ring_hdr *hdr = oib_uverbs_kring_hdr(ucq->mapped.ring);

	ucq->mapped.overflow = true;
	WRITE_ONCE(hdr->flags, READ_ONCE(hdr->flags) | OIB_UVERBS_RING_OVERFLOW);
	oib_uverbs_async_object_event(&ucq->uobj, &ucq->async_list, &ucq->async_reported,
				      OIB_EVENT_CQ_ERR);
}

/* Write @n completions; true if one of them is an error or asked for a solicited event. */
static bool oib_uverbs_cq_ring_write(struct oib_uverbs_cq *ucq, const struct oib_wc *wc, int n)
{
	struct oib_uverbs_cq_ring *m = &ucq->mapped;
	struct oib_uverbs_ring_hdr *hdr = oib_uverbs_kring_hdr(m->ring);
	u32 cons = READ_ONCE(hdr->consumer);
	bool solicited = false;
	int i;

	for (i = 0; i < n && !m->overflow; i++) {
		if (m->prod - cons >= m->ring->entries) {
			oib_uverbs_cq_ring_overflow(ucq);
			break;
		}
		oib_uverbs_wc_to_user(oib_uverbs_kring_entry(m->ring, m->prod), &wc[i]);
		solicited |= (wc[i].wc_flags & OIB_WC_SOLICITED) || wc[i].status;
		m->prod++;
	}
	/* the entries before the index that shows them; pairs with the process's acquire */
	smp_store_release(&hdr->producer, m->prod);
	return solicited;
}

/* After the producer index is out: true if the process's arming asks for an event now. */
static bool oib_uverbs_cq_ring_disarm(struct oib_uverbs_cq *ucq, bool solicited)
{
	int armed;

	smp_mb();	/* the producer index before the arming; pairs with the arming's */
	armed = atomic_read(&ucq->mapped.notify);
	if (!armed || (armed == OIB_CQ_SOLICITED && !solicited))
		return false;
	return atomic_cmpxchg(&ucq->mapped.notify, armed, 0) == armed;
}

#define OIB_UVERBS_CQ_DRAIN	8

/* The completion handler of a mapped CQ. */
void oib_uverbs_cq_ring_comp(struct oib_cq *cq, void *context)
{
	struct oib_uverbs_cq *ucq = context;
	struct oib_wc wc[OIB_UVERBS_CQ_DRAIN];
	bool wrote = false, solicited = false;
	int n;

	do {
		while ((n = oib_poll_cq(cq, ARRAY_SIZE(wc), wc)) > 0) {
			solicited |= oib_uverbs_cq_ring_write(ucq, wc, n);
			wrote = true;
		}
	} while (oib_req_notify_cq(cq, OIB_CQ_NEXT_COMP | OIB_CQ_REPORT_MISSED_EVENTS) > 0);
	if (wrote && oib_uverbs_cq_ring_disarm(ucq, solicited))
		oib_uverbs_cq_comp_event(ucq);
}

/* REQ_NOTIFY_CQ on a mapped CQ: never downgrades an arming for every completion. */
void oib_uverbs_cq_ring_arm(struct oib_uverbs_cq *ucq, enum oib_cq_notify_flags flags)
{
	if (flags == OIB_CQ_NEXT_COMP)
		atomic_set(&ucq->mapped.notify, OIB_CQ_NEXT_COMP);
	else
		atomic_cmpxchg(&ucq->mapped.notify, 0, OIB_CQ_SOLICITED);
	smp_mb__after_atomic();	/* the arming before the process polls; pairs with disarm */
}
