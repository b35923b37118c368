// SPDX-License-Identifier: GPL-2.0-only
/*
 * Credits that no response carries.  A channel posts SRPT_NRECV receives and grants
 * SRPT_RQ_SIZE of them (the login, then each response's delta: the receives its commands freed
 * since the last one); the one more is kept for the answer to our SRP_CRED_REQ, an SRP_CRED_RSP,
 * which takes no credit.  Every IU the initiator sends but CRED_RSP (and I_LOGOUT, which ends
 * the channel) takes a credit: an IU dropped unanswered (unknown, or not the initiator's to
 * send) gets its credit back, once its receive is reposted, in an SRP_CRED_REQ; one at a time,
 * the next once its CRED_RSP (with its tag) came.  A CRED_RSP that answers none of ours
 * (another tag, none outstanding) is dropped and counted.  The target's grant never exceeds
 * SRPT_RQ_SIZE: granted + credits + held + the receives being handled stay within it.
 */
#include "srpt_priv.h"

static void srpt_cred_sent(struct oib_cq *cq, struct oib_wc *wc)
{
	struct srpt_ch *ch = container_of(wc->wr_cqe, struct srpt_ch, cred_cqe);

	if (wc->status != OIB_WC_SUCCESS)
		srpt_wc_error(ch, "credit request", wc);
}

/* Send the held credits in a CRED_REQ if none is outstanding; not once being released. */
void srpt_cred_push(struct srpt_ch *ch)
{
	struct oib_sge sge = { .addr = (uintptr_t)ch->cred_iu, .length = sizeof(ch->cred_iu) };
	struct oib_send_wr wr = { .wr_cqe = &ch->cred_cqe, .sg_list = &sge, .num_sge = 1,
				  .opcode = OIB_WR_SEND, .send_flags = OIB_SEND_SIGNALED };
	unsigned long flags;
	u32 delta = 0;
	u64 tag = 0;
	int ret;

	spin_lock_irqsave(&ch->lock, flags);
	if (ch->held && !ch->cred_out && ch->state != SRPT_CH_RELEASING) {
		delta = ch->held;
		ch->held = 0;
		ch->granted += delta;
		ch->cred_out = true;
		tag = ++ch->cred_tag;
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	if (!delta)
		return;
	oib_srp_pack_small(ch->cred_iu, OIB_SRP_CRED_REQ, tag, delta);
	sge.lkey = ch->pd->local_dma_lkey;
	ch->cred_cqe.done = srpt_cred_sent;
	atomic_inc(&ch->t->stats.cred_reqs);
	ret = srpt_post_send(ch, &wr);
	if (ret && ret != -ESHUTDOWN)
		srpt_post_failed(ch, "credit request");
}

/* A CRED_RSP: the answer to our outstanding CRED_REQ (its receive was the one kept back). */
void srpt_cred_rsp(struct srpt_ch *ch, struct srpt_recv *r)
{
	unsigned long flags;
	bool ours = false;
	u32 value;
	u64 tag;

	if (!oib_srp_parse_small(r->buf, r->len, OIB_SRP_CRED_RSP, &tag, &value)) {
		spin_lock_irqsave(&ch->lock, flags);
		ours = ch->cred_out && tag == ch->cred_tag;
		if (ours)
			ch->cred_out = false;
		spin_unlock_irqrestore(&ch->lock, flags);
	}
	if (!ours)
		atomic_inc(&ch->t->stats.dropped);
	srpt_repost(r, false);
	srpt_cred_push(ch);
}

/* An IU nobody here takes: dropped, its credit (if it had one) held for a CRED_REQ. */
void srpt_dropped_iu(struct srpt_ch *ch, struct srpt_recv *r)
{
	unsigned long flags;
	bool credited;

	atomic_inc(&ch->t->stats.dropped);
	spin_lock_irqsave(&ch->lock, flags);
	credited = ch->granted > 0;
	if (credited)
		ch->granted--;
	else
		atomic_inc(&ch->t->stats.over_limit);
	spin_unlock_irqrestore(&ch->lock, flags);
	srpt_repost(r, false);
	if (!credited)
		return;
	spin_lock_irqsave(&ch->lock, flags);
	ch->held++;
	spin_unlock_irqrestore(&ch->lock, flags);
	srpt_cred_push(ch);
}
