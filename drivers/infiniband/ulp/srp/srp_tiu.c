// SPDX-License-Identifier: GPL-2.0-only
/*
 * The IUs a target sends that answer nothing of ours, each on the channel it came on.
 * SRP_T_LOGOUT: the target ends the connection (we log in again, as after any loss).
 * SRP_CRED_REQ: credits the target gives outside a response (receives it had held back): the
 * delta is added to the channel's credits and answered with SRP_CRED_RSP, which takes no credit
 * (the target keeps a receive for it).  One CRED_REQ is answered at a time (the target waits
 * for our answer before the next); a second one before ours went, one with a bad length, or one
 * whose delta would take the channel's credits beyond SRP_MAX_CREDITS is dropped and counted.
 * Anything else (AER_REQ) is dropped and counted.
 */
#include <kunit/visibility.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include "srp_priv.h"

/*
 * A CRED_REQ of @len bytes at @iu for a channel holding @credits: 0 and its tag and delta, or
 * -errno: the parser's (a bad length, another opcode), -ERANGE for a delta beyond the bound.
 */
int srp_cred_req_check(const void *iu, u32 len, int credits, u64 *tag, u32 *delta)
{
	int ret = oib_srp_parse_small(iu, len, OIB_SRP_CRED_REQ, tag, delta);

	if (ret)
		return ret;
	if (*delta > SRP_MAX_CREDITS || credits + *delta > SRP_MAX_CREDITS)
		return -ERANGE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(srp_cred_req_check);

static void srp_cred_rsp_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct srp_ch *ch = container_of(wc->wr_cqe, struct srp_ch, cred_cqe);
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	ch->cred_busy = false;
	spin_unlock_irqrestore(&ch->lock, flags);
	if (wc->status != OIB_WC_SUCCESS)
		srp_wc_error(ch->h, "credit response", wc);
}

/* A CRED_REQ: the credits taken, the answer posted; false if refused. */
static bool srp_cred_req(struct srp_ch *ch, struct srp_recv *r, u32 len)
{
	struct oib_sge sge = { .addr = (uintptr_t)ch->cred_rsp, .length = sizeof(ch->cred_rsp),
			       .lkey = ch->pd->local_dma_lkey };
	struct oib_send_wr wr = { .wr_cqe = &ch->cred_cqe, .sg_list = &sge, .num_sge = 1,
				  .opcode = OIB_WR_SEND, .send_flags = OIB_SEND_SIGNALED };
	unsigned long flags;
	u32 delta;
	u64 tag;
	int ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = ch->cred_busy ? -EBUSY : srp_cred_req_check(r->buf, len, ch->credits, &tag, &delta);
	if (!ret) {
		ch->cred_busy = true;
		ch->credits += delta;
		ch->stats.cred_reqs++;
		ch->stats.max_credits = max_t(u32, ch->stats.max_credits, ch->credits);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	if (ret)
		return false;
	oib_srp_pack_small(ch->cred_rsp, OIB_SRP_CRED_RSP, tag, 0);
	ch->cred_cqe.done = srp_cred_rsp_done;
	if (srp_post(ch, &wr, -1, NULL)) {
		spin_lock_irqsave(&ch->lock, flags);
		ch->cred_busy = false;
		spin_unlock_irqrestore(&ch->lock, flags);
		srp_conn_gone(ch->h, "credit response not posted");
	}
	return true;
}

static bool srp_t_logout(struct srp_ch *ch, struct srp_recv *r, u32 len)
{
	struct srp_host *h = ch->h;
	unsigned long flags;
	u32 reason;
	u64 tag;

	if (oib_srp_parse_small(r->buf, len, OIB_SRP_T_LOGOUT, &tag, &reason))
		return false;
	spin_lock_irqsave(&ch->lock, flags);
	ch->stats.t_logouts++;
	spin_unlock_irqrestore(&ch->lock, flags);
	pr_info("oib_srp: host%u: %pISpc logged out channel %u (reason %u)\n",
		h->shost->host_no, &h->dst, ch->idx, reason);
	srp_conn_gone(h, "target logout");
	return true;
}

void srp_target_iu(struct srp_ch *ch, struct srp_recv *r, u32 len)
{
	bool taken;

	switch (oib_srp_iu_opcode(r->buf, len)) {
	case OIB_SRP_T_LOGOUT:
		taken = srp_t_logout(ch, r, len);
		break;
	case OIB_SRP_CRED_REQ:
		taken = srp_cred_req(ch, r, len);
		break;
	default:
		taken = false;
		break;
	}
	if (!taken)
		atomic_inc(&ch->h->dropped);
}

struct srp_raw_iu {
	struct oib_cqe cqe;
	struct completion sent;
	int status;
	u8 buf[64];
};

static void srp_raw_sent(struct oib_cq *cq, struct oib_wc *wc)
{
	struct srp_raw_iu *raw = container_of(wc->wr_cqe, struct srp_raw_iu, cqe);

	raw->status = wc->status;
	complete(&raw->sent);
}

/*
 * For the suites: @len bytes (64 at most) of @iu sent on channel @c as a request (a credit
 * taken, none answered: the target gives it back in a CRED_REQ).  0 once sent, or -errno.
 */
int srp_host_send_raw(struct srp_host *h, u32 c, const void *iu, u32 len)
{
	struct srp_raw_iu *raw = kzalloc(sizeof(*raw), GFP_KERNEL);
	struct oib_sge sge = { .length = len };
	struct oib_send_wr wr = { .sg_list = &sge, .num_sge = 1, .opcode = OIB_WR_SEND,
				  .send_flags = OIB_SEND_SIGNALED };
	int ret = -ENOTCONN;

	if (!raw)
		return -ENOMEM;
	if (c >= h->nch || len > sizeof(raw->buf)) {
		kfree(raw);
		return -EINVAL;
	}
	memcpy(raw->buf, iu, len);
	raw->cqe.done = srp_raw_sent;
	init_completion(&raw->sent);
	sge.addr = (uintptr_t)raw->buf;
	wr.wr_cqe = &raw->cqe;
	rcu_read_lock();	/* the channel's objects: see srp_conn_release() */
	if (READ_ONCE(h->state) == SRP_CONN_LIVE) {
		sge.lkey = h->ch[c].pd->local_dma_lkey;
		ret = srp_post(&h->ch[c], &wr, 0, NULL);
	}
	rcu_read_unlock();
	if (!ret)	/* the drain completes it if the connection goes */
		wait_for_completion(&raw->sent);
	if (!ret && raw->status != OIB_WC_SUCCESS)
		ret = -EIO;
	kfree(raw);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(srp_host_send_raw);
