// SPDX-License-Identifier: GPL-2.0-only
/*
 * The initiator's I/O.  A command takes a credit (one stays back for task management; none
 * left: the midlayer retries), registers its scatterlist with the fast-registration MR of its
 * tag, and goes as an SRP_CMD with its descriptors; or, a write whose data fits the IU when
 * the target takes immediate data, with the data copied into the IU (SRP-2), no MR and no
 * RDMA READ of the target's.  Its SRP_RSP gives the credits back,
 * the status, sense data and residual; the MR is invalid before the command is completed (the
 * response a SEND with invalidate of its key, or a LOCAL_INV after it), so the target can no
 * longer reach the memory the midlayer gets back.
 */
#include <linux/blk-mq.h>
#include <linux/rcupdate.h>
#include <scsi/scsi.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_tcq.h>
#include "srp_priv.h"

int srp_post_recv(struct srp_recv *r)
{
	struct oib_sge sge = { .addr = (uintptr_t)r->buf, .length = SRP_RECV_LEN,
			       .lkey = r->ch->pd->local_dma_lkey };
	struct oib_recv_wr wr = { .wr_cqe = &r->cqe, .sg_list = &sge, .num_sge = 1 };

	return oib_post_recv(r->ch->id->qp, &wr, NULL);
}

/* In flight before the post: its answer may come before the post returns. */
static int srp_post_inflight(struct srp_ch *ch, const struct oib_send_wr *wr,
			     struct srp_req *req)
{
	int ret;

	lockdep_assert_held(&ch->lock);
	if (req)
		req->inflight = true;
	ret = oib_post_send(ch->id->qp, wr, NULL);
	if (ret && req)
		req->inflight = false;
	return ret;
}

/*
 * Post @wr on @ch while it is live; a request (@keep >= 0) only while the host is, taking a
 * credit of the channel's if more than @keep are left (task management keeps none, commands
 * one): -ENOTCONN, -EBUSY (no credit) or the post's error.  Under ch->lock, which the
 * release takes to stop the channel's posts before it drains: @req (if any) is in flight from
 * here until answered, or requeued by srp_requeue_all().
 */
int srp_post(struct srp_ch *ch, const struct oib_send_wr *wr, int keep, struct srp_req *req)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&ch->lock, flags);
	if (!ch->live || (keep >= 0 && READ_ONCE(ch->h->state) != SRP_CONN_LIVE))
		ret = -ENOTCONN;
	else if (keep >= 0 && ch->credits <= keep)
		ret = -EBUSY;
	else
		ret = srp_post_inflight(ch, wr, req);
	if (!ret && keep >= 0) {
		ch->credits--;
		ch->stats.outstanding++;
		ch->stats.max_outstanding = max(ch->stats.max_outstanding, ch->stats.outstanding);
	}
	if (!ret && req) {
		ch->stats.cmds++;
		ch->stats.imm += !!req->info.imm_off;
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

/* A response: its request answered, @n credits more. */
static void srp_answered(struct srp_ch *ch, u32 n)
{
	struct srp_host_stats *st = &ch->stats;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	if (st->outstanding)
		st->outstanding--;
	ch->credits += n;
	st->max_credits = max_t(u32, st->max_credits, ch->credits);
	spin_unlock_irqrestore(&ch->lock, flags);
}

/*
 * A completion in error: the connection is gone.  An error other than a flush is said too: the
 * other CQ's flush may be the one that takes the connection down.
 */
void srp_wc_error(struct srp_host *h, const char *what, const struct oib_wc *wc)
{
	char why[64];

	if (wc->status != OIB_WC_WR_FLUSH_ERR)
		pr_warn_ratelimited("oib_srp: host%u: %s: %s\n", h->shost->host_no, what,
				    oib_wc_status_msg(wc->status));
	snprintf(why, sizeof(why), "%s: %s", what, oib_wc_status_msg(wc->status));
	srp_conn_gone(h, why);
}

static void srp_send_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct srp_ch *ch = cq->cq_context;

	if (wc->status != OIB_WC_SUCCESS)
		srp_wc_error(ch->h, "send", wc);
}

/*
 * A descriptor per run of entries contiguous in the kernel's address space, all under the MR's
 * key: the target moves each with one RDMA request, and oib_rxe serves a request only from
 * memory that is contiguous there.  At most sg_tablesize (OIB_SRP_MAX_BUFS) entries come.
 */
static void srp_descs(struct srp_req *req, struct oib_mr *mr, struct scatterlist *sgl, int n)
{
	struct oib_srp_cmd_info *info = &req->info;
	struct oib_srp_buf *b = NULL;
	struct scatterlist *sg;
	u64 va = mr->iova;
	void *end = NULL;
	int i;

	info->nbufs = 0;
	for_each_sg(sgl, sg, n, i) {
		if (!b || sg_virt(sg) != end) {
			b = &info->bufs[info->nbufs++];
			*b = (struct oib_srp_buf){ .va = va, .key = mr->rkey };
		}
		b->len += sg->length;
		va += sg->length;
		end = sg_virt(sg) + sg->length;
	}
	info->table.va = 0;	/* carried whole in the IU: the target never fetches it */
}

/* The command's data registered: the REG_MR in @reg, the descriptor in req->info. */
static int srp_map(struct srp_req *req, struct oib_send_wr *reg, u32 idx)
{
	struct scsi_cmnd *cmd = req->cmd;
	struct oib_mr *mr = req->ch->mr[idx];
	int n = scsi_sg_count(cmd);

	if (oib_map_mr_sg(mr, scsi_sglist(cmd), n, NULL, PAGE_SIZE) != n)
		return -EINVAL;
	oib_update_fast_reg_key(mr, (u8)(mr->rkey + 1));
	*reg = (struct oib_send_wr){ .opcode = OIB_WR_REG_MR };
	reg->wr.reg.mr = mr;
	reg->wr.reg.key = mr->rkey;
	reg->wr.reg.access = OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_READ |
			     OIB_ACCESS_REMOTE_WRITE;
	req->mr = mr;
	srp_descs(req, mr, scsi_sglist(cmd), n);
	req->info.dir = cmd->sc_data_direction == DMA_TO_DEVICE ? OIB_SRP_DATA_OUT :
							       OIB_SRP_DATA_IN;
	return 0;
}

/* A write that goes as immediate data on @ch: its data is at SRP_IMM_OFFSET of the IU. */
static bool srp_imm(struct srp_ch *ch, struct scsi_cmnd *cmd)
{
	return ch->imm && cmd->sc_data_direction == DMA_TO_DEVICE && scsi_bufflen(cmd) &&
	       scsi_bufflen(cmd) <= ch->h->it_iu_len - SRP_IMM_OFFSET;
}

/*
 * Pack and post @cmd on @ch (REG_MR first if its data is not immediate); -EINVAL: it cannot go
 * at all.  In an
 * RCU read-side section begun while live: the channel's MRs and PD stay until it ends.
 */
static int srp_send_cmd(struct srp_ch *ch, struct scsi_cmnd *cmd, struct srp_req *req, u32 tag)
{
	u32 idx = blk_mq_unique_tag_to_tag(tag);
	u8 *iu;
	struct oib_send_wr reg, send = { .wr_cqe = &req->send_cqe, .num_sge = 1,
					 .opcode = OIB_WR_SEND, .send_flags = OIB_SEND_SIGNALED };
	struct oib_sge sge = { .lkey = ch->pd->local_dma_lkey };
	int len;

	if (idx >= SRP_MAX_QUEUE || cmd->cmd_len > sizeof(req->info.cdb) ||
	    cmd->sc_data_direction == DMA_BIDIRECTIONAL)
		return -EINVAL;
	iu = ch->cmd_iu[idx];
	sge.addr = (uintptr_t)iu;
	memset(&req->info, 0, sizeof(req->info));
	req->ch = ch;
	req->cmd = cmd;
	req->mr = NULL;
	req->send_cqe.done = srp_send_done;
	req->info.tag = tag;
	req->info.lun = cmd->device->lun;
	memcpy(req->info.cdb, cmd->cmnd, cmd->cmd_len);
	if (srp_imm(ch, cmd)) {
		req->info.dir = OIB_SRP_DATA_OUT;
		req->info.imm_off = SRP_IMM_OFFSET;
		req->info.data_len = scsi_bufflen(cmd);
	} else if (scsi_sg_count(cmd) && srp_map(req, &reg, idx)) {
		return -EINVAL;
	}
	len = oib_srp_pack_cmd(iu, ch->h->it_iu_len, &req->info);
	if (len < 0)
		return -EINVAL;
	if (req->info.imm_off &&
	    sg_copy_to_buffer(scsi_sglist(cmd), scsi_sg_count(cmd), iu + SRP_IMM_OFFSET,
			      req->info.data_len) != req->info.data_len)
		return -EINVAL;
	sge.length = len;
	send.sg_list = &sge;
	if (req->mr)
		reg.next = &send;
	return srp_post(ch, req->mr ? &reg : &send, 1, req);
}

/* Not live: held while the connection is being logged in again, failed otherwise. */
static bool srp_held(struct srp_host *h)
{
	enum srp_conn_state st = READ_ONCE(h->state);

	return st == SRP_CONN_LIVE || st == SRP_CONN_DOWN || st == SRP_CONN_RECONNECTING;
}

/*
 * Hardware queue i's commands go on channel i (its tags are the queue's own: the tag indexes
 * the channel's MRs and IUs).
 */
int srp_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *cmd)
{
	struct srp_host *h = shost_priv(shost);
	struct srp_req *req = scsi_cmd_priv(cmd);
	u32 tag = blk_mq_unique_tag(scsi_cmd_to_rq(cmd));
	u32 hwq = blk_mq_unique_tag_to_hwq(tag);
	int ret;

	if (!srp_held(h)) {
		cmd->result = DID_NO_CONNECT << 16;
		scsi_done(cmd);
		return 0;
	}
	rcu_read_lock();	/* the connection's objects: see srp_conn_release() */
	if (hwq >= h->nch)
		ret = -EINVAL;
	else if (READ_ONCE(h->state) == SRP_CONN_LIVE)
		ret = srp_send_cmd(&h->ch[hwq], cmd, req, tag);
	else
		ret = -ENOTCONN;
	rcu_read_unlock();
	if (!ret)
		return 0;
	if (ret != -EINVAL)
		return SCSI_MLQUEUE_HOST_BUSY;	/* no credit, or not live (yet) */
	cmd->result = DID_ERROR << 16;
	scsi_done(cmd);
	return 0;
}

/*
 * No longer in flight (under the lock: srp_requeue_all() may look), then to the midlayer.
 * @remote: its MR was invalidated by the response (SEND with invalidate), not by a LOCAL_INV.
 */
static void srp_done(struct srp_req *req, bool remote)
{
	struct srp_host_stats *st = &req->ch->stats;
	unsigned long flags;

	spin_lock_irqsave(&req->ch->lock, flags);
	req->inflight = false;
	if (req->mr && remote)
		st->remote_inv++;
	else if (req->mr)
		st->local_inv++;
	spin_unlock_irqrestore(&req->ch->lock, flags);
	scsi_done(req->cmd);
}

static void srp_inv_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct srp_req *req = container_of(wc->wr_cqe, struct srp_req, inv_cqe);

	if (wc->status != OIB_WC_SUCCESS) {
		srp_wc_error(req->ch->h, "local invalidate", wc);
		return;		/* the reconnect work requeues the command */
	}
	srp_done(req, false);
}

/*
 * @req answered: complete it once its MR is invalid.  The response invalidated @inv_rkey (0:
 * none): if that is the command's key, at once; another key is the target's mistake, which may
 * have hit another command's memory: the connection goes (the command is requeued).  Else a
 * LOCAL_INV first (not live: the command is requeued instead).
 */
static void srp_finish(struct srp_req *req, u32 inv_rkey)
{
	struct oib_send_wr wr = { .wr_cqe = &req->inv_cqe, .opcode = OIB_WR_LOCAL_INV,
				  .send_flags = OIB_SEND_SIGNALED };
	struct srp_host *h = req->ch->h;

	if (inv_rkey && (!req->mr || inv_rkey != req->mr->rkey)) {
		srp_conn_gone(h, "the target invalidated a key not the command's");
		return;
	}
	if (!req->mr || inv_rkey) {
		srp_done(req, inv_rkey != 0);
		return;
	}
	req->inv_cqe.done = srp_inv_done;
	wr.ex.invalidate_rkey = req->mr->rkey;
	if (srp_post(req->ch, &wr, -1, NULL))
		srp_conn_gone(h, "local invalidate not posted");
}

/* A command's response, on the channel @ch the command went on (else dropped). */
static void srp_cmd_rsp(struct srp_ch *ch, const struct oib_srp_rsp_info *rsp, u32 inv_rkey)
{
	struct srp_host *h = ch->h;
	struct scsi_cmnd *cmd = NULL;
	struct srp_req *req;

	if (rsp->tag <= U32_MAX && blk_mq_unique_tag_to_hwq(rsp->tag) == ch->idx)
		cmd = scsi_host_find_tag(h->shost, rsp->tag);
	if (!cmd) {
		atomic_inc(&h->dropped);
		return;
	}
	req = scsi_cmd_priv(cmd);
	if (req->ch != ch || !READ_ONCE(req->inflight)) {
		atomic_inc(&h->dropped);
		return;
	}
	cmd->result = rsp->status;
	if (rsp->sense_len)
		memcpy(cmd->sense_buffer, rsp->sense,
		       min_t(u32, rsp->sense_len, SCSI_SENSE_BUFFERSIZE));
	if (rsp->flags & OIB_SRP_RSP_DIUNDER)
		scsi_set_resid(cmd, rsp->data_in_res_cnt);
	else if (rsp->flags & OIB_SRP_RSP_DOUNDER)
		scsi_set_resid(cmd, rsp->data_out_res_cnt);
	srp_finish(req, inv_rkey);
}

/* Reposted while the channel is live (a channel that goes is drained after it). */
static int srp_repost_recv(struct srp_ch *ch, struct srp_recv *r)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&ch->lock, flags);
	if (ch->live)
		ret = srp_post_recv(r);
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

void srp_recv_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct srp_recv *r = container_of(wc->wr_cqe, struct srp_recv, cqe);
	struct srp_ch *ch = r->ch;
	struct srp_host *h = ch->h;
	struct oib_srp_rsp_info rsp;

	if (wc->status != OIB_WC_SUCCESS) {
		srp_wc_error(h, "receive", wc);
		return;
	}
	if (oib_srp_parse_rsp(r->buf, wc->byte_len, &rsp)) {
		srp_target_iu(ch, r, wc->byte_len);
	} else {
		srp_answered(ch, rsp.req_lim_delta);
		if (rsp.tag & SRP_TAG_TSK) {
			h->tsk_code = rsp.resp_len ? rsp.resp_code : -EPROTO;
			complete(&h->tsk_done);
		} else {
			srp_cmd_rsp(ch, &rsp, wc->wc_flags & OIB_WC_WITH_INVALIDATE ?
					      wc->ex.invalidate_rkey : 0);
		}
	}
	if (srp_repost_recv(ch, r))
		srp_conn_gone(h, "receive not posted");
}

static void srp_tsk_send_done(struct oib_cq *cq, struct oib_wc *wc)
{
	srp_send_done(cq, wc);
}

/* A task management request on @ch, waited for: its response code, or -errno. */
int srp_send_tsk(struct srp_ch *ch, u64 lun, u8 func, u64 task_tag)
{
	struct srp_host *h = ch->h;
	struct oib_srp_tsk_info t = { .lun = lun, .func = func, .task_tag = task_tag };
	struct oib_sge sge = { .addr = (uintptr_t)h->tsk_iu, .length = sizeof(h->tsk_iu) };
	struct oib_send_wr wr = { .wr_cqe = &h->tsk_cqe, .sg_list = &sge, .num_sge = 1,
				  .opcode = OIB_WR_SEND, .send_flags = OIB_SEND_SIGNALED };
	int ret = -ENOTCONN;

	mutex_lock(&h->tsk_mutex);
	t.tag = SRP_TAG_TSK | ++h->tsk_tag;
	oib_srp_pack_tsk_mgmt(h->tsk_iu, &t);
	h->tsk_cqe.done = srp_tsk_send_done;
	reinit_completion(&h->tsk_done);
	rcu_read_lock();	/* the connection's objects: see srp_conn_release() */
	if (READ_ONCE(h->state) == SRP_CONN_LIVE) {
		sge.lkey = ch->pd->local_dma_lkey;
		ret = srp_post(ch, &wr, 0, NULL);
	}
	rcu_read_unlock();
	if (!ret)
		ret = wait_for_completion_timeout(&h->tsk_done, 10 * HZ) ? h->tsk_code :
									   -ETIMEDOUT;
	mutex_unlock(&h->tsk_mutex);
	return ret;
}

static bool srp_requeue_one(struct scsi_cmnd *cmd, void *data)
{
	struct srp_req *req = scsi_cmd_priv(cmd);
	unsigned long flags;
	bool mine;

	if (!req->ch)
		return true;	/* never sent */
	spin_lock_irqsave(&req->ch->lock, flags);
	mine = req->inflight;
	req->inflight = false;
	spin_unlock_irqrestore(&req->ch->lock, flags);
	if (mine) {
		cmd->result = DID_REQUEUE << 16;
		scsi_done(cmd);
	}
	return true;
}

/*
 * After the drain: the commands the target did not answer go back to the block layer's queue
 * (not counted as retries); they go again once the host is live, or fail once it gave up.
 * Before scsi_add_host() the tag set is empty: nothing to look at.
 */
void srp_requeue_all(struct srp_host *h)
{
	scsi_host_busy_iter(h->shost, srp_requeue_one, h);
}
