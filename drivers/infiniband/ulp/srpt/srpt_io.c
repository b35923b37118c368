// SPDX-License-Identifier: GPL-2.0-only
/*
 * A channel's I/O: the IUs it receives, the commands it serves, the data it moves and the
 * responses it sends.  Every receive is reposted as soon as its IU is copied out, and each
 * response grants the initiator the receives reposted since the last one (req_lim_delta): the
 * target never grants a receive it has not posted.  Reads go out as RDMA WRITEs into the
 * initiator's buffers followed by the SEND of the response; writes come in as RDMA READs, the
 * response sent when the last one completed.  A command's response is a SEND with invalidate of
 * the key its descriptors name (the initiator registered its memory for it alone); a file LUN's
 * data goes through a bounce buffer (srpt_file.c).  Work requests are posted only until the
 * channel is being released.  A write's immediate data (SRP-2) is copied out of its receive
 * before the receive is posted again.  IUs that are neither a command, a task management
 * request, a logout nor a CRED_RSP are dropped and counted (srpt_credit.c).
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <scsi/scsi_proto.h>
#include "srpt_priv.h"

static void srpt_send_done(struct oib_cq *cq, struct oib_wc *wc);

/* A completion in error ends the channel (said, unless it is a flush). */
void srpt_wc_error(struct srpt_ch *ch, const char *what, const struct oib_wc *wc)
{
	if (wc->status != OIB_WC_WR_FLUSH_ERR)
		pr_warn_ratelimited("oib_srpt: %s: %s\n", what, oib_wc_status_msg(wc->status));
	srpt_ch_step(ch, SRPT_EV_QP_ERROR);
}

/* A post that failed ends the channel too (said: a QP in error takes posts, to flush them). */
void srpt_post_failed(struct srpt_ch *ch, const char *what)
{
	pr_warn_ratelimited("oib_srpt: %s not posted\n", what);
	srpt_ch_step(ch, SRPT_EV_QP_ERROR);
}

/*
 * Post @wr unless the channel is being released: its release drains the QP once it is
 * RELEASING, and the drain must see every work request (a file LUN's work may post late).
 * -ESHUTDOWN: not posted, and nothing to say.
 */
int srpt_post_send(struct srpt_ch *ch, const struct oib_send_wr *wr)
{
	unsigned long flags;
	int ret = -ESHUTDOWN;

	spin_lock_irqsave(&ch->lock, flags);
	if (ch->state != SRPT_CH_RELEASING)
		ret = oib_post_send(ch->id->qp, wr, NULL);
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

static void srpt_rdma_done(struct oib_cq *cq, struct oib_wc *wc);

void srpt_cmds_init(struct srpt_ch *ch)
{
	struct srpt_cmd *cmd;
	int i;

	INIT_LIST_HEAD(&ch->free);
	for (i = 0; i < SRPT_NCMDS; i++) {
		cmd = &ch->cmds[i];
		cmd->ch = ch;
		cmd->send_cqe.done = srpt_send_done;
		cmd->rdma_cqe.done = srpt_rdma_done;
		INIT_WORK(&cmd->io_work, srpt_file_work);
		list_add_tail(&cmd->free, &ch->free);
	}
}

/* After the drain: no file LUN's work runs any more (none is queued after the drain). */
void srpt_cmds_flush(struct srpt_ch *ch)
{
	int i;

	for (i = 0; i < SRPT_NCMDS; i++)
		flush_work(&ch->cmds[i].io_work);
}

/* The receives reposted since the last response, now granted. */
static u32 srpt_take_credits(struct srpt_ch *ch)
{
	unsigned long flags;
	u32 delta;

	spin_lock_irqsave(&ch->lock, flags);
	delta = ch->credits;
	ch->credits = 0;
	ch->granted += delta;
	spin_unlock_irqrestore(&ch->lock, flags);
	return delta;
}

/*
 * @r's IU was copied out: post it again.  @grant: its credit goes back with the next response
 * (a request's); the others' in a CRED_REQ, if they had one (srpt_credit.c).
 */
void srpt_repost(struct srpt_recv *r, bool grant)
{
	struct srpt_ch *ch = r->ch;
	unsigned long flags;

	if (srpt_post_recv(r)) {
		srpt_post_failed(ch, "receive");
		return;
	}
	spin_lock_irqsave(&ch->lock, flags);
	if (grant)
		ch->credits++;
	spin_unlock_irqrestore(&ch->lock, flags);
}

static void srpt_serve(struct srpt_cmd *cmd, struct srpt_recv *r);

/*
 * Done with @cmd: it serves the next waiting IU, or goes back to the free list (always once the
 * channel is being released: nothing new starts then).
 */
void srpt_cmd_put(struct srpt_cmd *cmd)
{
	struct srpt_ch *ch = cmd->ch;
	struct srpt_recv *r = NULL;
	unsigned long flags;

	kvfree(cmd->bounce);
	cmd->bounce = NULL;
	spin_lock_irqsave(&ch->lock, flags);
	if (ch->state != SRPT_CH_RELEASING)
		r = list_first_entry_or_null(&ch->waiting, struct srpt_recv, wait);
	if (r) {
		list_del(&r->wait);
	} else {
		list_add(&cmd->free, &ch->free);
		ch->in_flight--;
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	if (r)
		srpt_serve(cmd, r);
}

/* The residual flags and counts of @cmd's response. */
static void srpt_resid(struct srpt_cmd *cmd, struct oib_srp_rsp_info *rsp)
{
	u32 want = cmd->req.data_len, have = cmd->info.data_len;
	bool in = cmd->info.dir == OIB_SRP_DATA_IN;
	u32 *cnt = in ? &rsp->data_in_res_cnt : &rsp->data_out_res_cnt;

	if (cmd->info.dir == OIB_SRP_DATA_NONE || want == have)
		return;
	if (want > have)
		rsp->flags |= in ? OIB_SRP_RSP_DIOVER : OIB_SRP_RSP_DOOVER;
	else
		rsp->flags |= in ? OIB_SRP_RSP_DIUNDER : OIB_SRP_RSP_DOUNDER;
	*cnt = want > have ? want - have : have - want;
}

/*
 * The key a command's response invalidates (SEND with invalidate): its descriptors' key when
 * they all have the one (an initiator registers a command's memory under one key), else 0.
 */
static u32 srpt_inv_key(const struct oib_srp_cmd_info *info)
{
	u32 i;

	for (i = 1; i < info->nbufs; i++)
		if (info->bufs[i].key != info->bufs[0].key)
			return 0;
	return info->nbufs ? info->bufs[0].key : 0;
}

/*
 * Pack @rsp with the credits to grant and post it after the @k work requests in cmd->wr; @inv:
 * a non-zero key it invalidates at the initiator (SEND with invalidate).
 */
static void srpt_send_rsp(struct srpt_cmd *cmd, struct oib_srp_rsp_info *rsp, u32 k, u32 inv)
{
	struct srpt_ch *ch = cmd->ch;
	struct oib_send_wr *wr = &cmd->wr[k];
	int len, ret;

	rsp->req_lim_delta = srpt_take_credits(ch);
	len = oib_srp_pack_rsp(cmd->rsp, SRPT_MAX_TI_IU, rsp);
	cmd->sge[k] = (struct oib_sge){ .addr = (uintptr_t)cmd->rsp, .length = len,
					.lkey = ch->pd->local_dma_lkey };
	*wr = (struct oib_send_wr){ .wr_cqe = &cmd->send_cqe, .sg_list = &cmd->sge[k],
				    .num_sge = 1, .opcode = OIB_WR_SEND,
				    .send_flags = OIB_SEND_SIGNALED };
	if (inv) {
		wr->opcode = OIB_WR_SEND_WITH_INV;
		wr->ex.invalidate_rkey = inv;
	}
	ret = len < 0 ? len : srpt_post_send(ch, &cmd->wr[0]);
	if (ret) {
		srpt_cmd_put(cmd);
		if (ret != -ESHUTDOWN)
			srpt_post_failed(ch, "response");
	}
}

void srpt_send_cmd_rsp(struct srpt_cmd *cmd, u32 k)
{
	struct oib_srp_rsp_info rsp = {
		.tag = cmd->info.tag, .status = cmd->req.status,
		.sense = cmd->req.sense, .sense_len = cmd->req.sense_len,
	};

	srpt_resid(cmd, &rsp);
	srpt_send_rsp(cmd, &rsp, k, srpt_inv_key(&cmd->info));
}

/* RDMA work requests moving @n bytes of the command's data; linked, unsignaled.  Their count. */
static u32 srpt_rdma_wrs(struct srpt_cmd *cmd, u32 n, enum oib_wr_opcode op)
{
	const struct oib_srp_cmd_info *info = &cmd->info;
	u32 i, k = 0, off = 0, len;

	for (i = 0; i < info->nbufs && off < n; i++, k++) {
		len = min(info->bufs[i].len, n - off);
		cmd->sge[k] = (struct oib_sge){ .addr = (uintptr_t)(cmd->req.data + off),
						.length = len,
						.lkey = cmd->ch->pd->local_dma_lkey };
		cmd->wr[k] = (struct oib_send_wr){ .next = &cmd->wr[k + 1], .sg_list = &cmd->sge[k],
						   .num_sge = 1, .opcode = op };
		cmd->wr[k].wr.rdma.remote_addr = info->bufs[i].va;
		cmd->wr[k].wr.rdma.rkey = info->bufs[i].key;
		off += len;
	}
	return k;
}

/* Data-out: RDMA READ it all, the last signaled; the response follows in srpt_rdma_done(). */
static void srpt_read_data(struct srpt_cmd *cmd, u32 n)
{
	u32 k = srpt_rdma_wrs(cmd, n, OIB_WR_RDMA_READ);
	int ret;

	cmd->wr[k - 1].next = NULL;
	cmd->wr[k - 1].wr_cqe = &cmd->rdma_cqe;
	cmd->wr[k - 1].send_flags = OIB_SEND_SIGNALED;
	ret = srpt_post_send(cmd->ch, &cmd->wr[0]);
	if (ret) {
		srpt_cmd_put(cmd);
		if (ret != -ESHUTDOWN)
			srpt_post_failed(cmd->ch, "RDMA READ");
	}
}

/*
 * The command decided: its data moved (then the response), or the response alone.  Immediate
 * data is in already (srpt_imm_take()): a file LUN's goes to the file first.
 */
void srpt_move_data(struct srpt_cmd *cmd)
{
	u32 n = min(cmd->req.data_len, cmd->info.data_len);

	if (cmd->req.data_dir == OIB_SRP_DATA_OUT && n && cmd->info.imm_off && cmd->req.file)
		return srpt_file_write(cmd);
	if (cmd->req.data_dir == OIB_SRP_DATA_OUT && n && !cmd->info.imm_off)
		return srpt_read_data(cmd, n);
	if (cmd->req.data_dir == OIB_SRP_DATA_IN && n)
		return srpt_send_cmd_rsp(cmd, srpt_rdma_wrs(cmd, n, OIB_WR_RDMA_WRITE));
	srpt_send_cmd_rsp(cmd, 0);
}

/*
 * A write's immediate data, copied out of its receive before the receive is posted again: into
 * the LUN's memory, or a file LUN's bounce buffer (none to be had: BUSY, nothing written).
 */
static void srpt_imm_take(struct srpt_cmd *cmd)
{
	struct srpt_scsi_req *req = &cmd->req;
	u32 n = min(req->data_len, cmd->info.data_len);

	if (req->data_dir == OIB_SRP_DATA_OUT && n && req->file) {
		cmd->bounce = kvmalloc(n, GFP_KERNEL);
		req->data = cmd->bounce;
	}
	if (req->data_dir == OIB_SRP_DATA_OUT && n && !req->data) {
		req->status = SAM_STAT_BUSY;
		req->data_len = 0;
		req->data_dir = OIB_SRP_DATA_NONE;
		req->file = NULL;
	}
	if (req->data_dir == OIB_SRP_DATA_OUT && n)
		memcpy(req->data, cmd->info.imm, n);
	cmd->info.imm = NULL;	/* the receive goes back to the QP */
	atomic_inc(&cmd->ch->t->stats.imm);
}

static void srpt_cmd_iu(struct srpt_cmd *cmd, struct srpt_recv *r, u32 len)
{
	struct srpt_ch *ch = cmd->ch;

	memset(&cmd->req, 0, offsetof(struct srpt_scsi_req, buf));
	if (oib_srp_parse_cmd_imm(r->buf, len, ch->imm_off, &cmd->info)) {
		cmd->info.tag = ((struct oib_srp_cmd *)r->buf)->tag;
		cmd->info.dir = OIB_SRP_DATA_NONE;
		cmd->info.data_len = 0;
		cmd->info.nbufs = 0;	/* nothing invalidated: the descriptors were not taken */
		cmd->info.imm_off = 0;
		srpt_scsi_refuse(&cmd->req);
	} else {
		cmd->req.lun = cmd->info.lun;
		cmd->req.cdb = cmd->info.cdb;
		cmd->req.dir = cmd->info.dir;
		srpt_scsi_exec(&ch->t->luns, &cmd->req);
		if (cmd->info.imm_off)
			srpt_imm_take(cmd);
	}
	srpt_repost(r, true);
	atomic_inc(&ch->t->stats.cmds);
	if (cmd->req.file)
		srpt_file_start(cmd);
	else
		srpt_move_data(cmd);
}

/* Task management: our commands finish on their own, so aborts and resets are complete. */
static void srpt_tsk_iu(struct srpt_cmd *cmd, struct srpt_recv *r, u32 len)
{
	struct oib_srp_rsp_info rsp = { .resp_len = 4 };
	struct oib_srp_tsk_info tsk;

	if (oib_srp_parse_tsk_mgmt(r->buf, len, &tsk) || tsk.func == OIB_SRP_TSK_CLEAR_ACA)
		rsp.resp_code = 0x04;	/* function not supported */
	rsp.tag = tsk.tag;
	srpt_repost(r, true);
	atomic_inc(&cmd->ch->t->stats.tsk_mgmt);
	srpt_send_rsp(cmd, &rsp, 0, 0);
}

static void srpt_serve(struct srpt_cmd *cmd, struct srpt_recv *r)
{
	if (*r->buf == OIB_SRP_TSK_MGMT)
		srpt_tsk_iu(cmd, r, r->len);
	else
		srpt_cmd_iu(cmd, r, r->len);
}

/* A command or task management IU: counted against the credits, served by a free command. */
static void srpt_request_iu(struct srpt_ch *ch, struct srpt_recv *r)
{
	struct srpt_cmd *cmd;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	if (ch->granted)
		ch->granted--;
	else
		atomic_inc(&ch->t->stats.over_limit);
	if (*r->buf == OIB_SRP_CMD)
		ch->ncmds++;
	cmd = list_first_entry_or_null(&ch->free, struct srpt_cmd, free);
	if (cmd) {
		list_del(&cmd->free);
		ch->in_flight++;
		if (ch->in_flight > atomic_read(&ch->t->stats.max_in_flight))
			atomic_set(&ch->t->stats.max_in_flight, ch->in_flight);
	} else {
		list_add_tail(&r->wait, &ch->waiting);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	if (cmd)
		srpt_serve(cmd, r);
}

void srpt_recv_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct srpt_recv *r = container_of(wc->wr_cqe, struct srpt_recv, cqe);
	struct srpt_ch *ch = r->ch;
	int op;

	if (wc->status != OIB_WC_SUCCESS) {
		srpt_wc_error(ch, "receive", wc);
		return;
	}
	r->len = wc->byte_len;
	op = oib_srp_iu_opcode(r->buf, r->len);
	if (op == OIB_SRP_I_LOGOUT) {
		srpt_ch_step(ch, SRPT_EV_LOGOUT);
		return;
	}
	if (r->len && *r->buf == OIB_SRP_CRED_RSP) {	/* even too short: it took no credit */
		srpt_cred_rsp(ch, r);
		return;
	}
	if (op != OIB_SRP_CMD && op != OIB_SRP_TSK_MGMT) {
		srpt_dropped_iu(ch, r);
		return;
	}
	if (srpt_ch_step(ch, SRPT_EV_IU) == SRPT_ACT_SERVE)
		srpt_request_iu(ch, r);
}

static void srpt_rdma_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct srpt_cmd *cmd = container_of(wc->wr_cqe, struct srpt_cmd, rdma_cqe);

	if (wc->status != OIB_WC_SUCCESS) {
		srpt_cmd_put(cmd);
		srpt_wc_error(cmd->ch, "RDMA READ", wc);
		return;
	}
	if (cmd->req.file)
		srpt_file_write(cmd);
	else
		srpt_send_cmd_rsp(cmd, 0);
}

static void srpt_send_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct srpt_cmd *cmd = container_of(wc->wr_cqe, struct srpt_cmd, send_cqe);

	if (wc->status != OIB_WC_SUCCESS)
		srpt_wc_error(cmd->ch, "send", wc);
	srpt_cmd_put(cmd);
}
