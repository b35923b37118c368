// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SCSI host of a target: its template, error handling, and its life.  A host is added
 * logged in (the midlayer then scans it: its LUNs appear as /dev/sdX) and removed with its
 * commands finished first, then the connection.  Error handling: an abort sends ABORT TASK and
 * succeeds if the command was answered and its memory invalidated meanwhile; a device reset
 * sends LUN RESET and succeeds when the target says so and no command of the LUN is left
 * unfinished; a host reset drops the connection and logs in again (srp_reconnect.c), and fails
 * if the target stays away past fail_timeout, which takes the devices offline.
 */
#include <kunit/visibility.h>
#include <linux/blk-mq.h>
#include <linux/slab.h>
#include <scsi/scsi.h>
#include <scsi/scsi_device.h>
#include "srp_priv.h"

static int srp_eh_abort(struct scsi_cmnd *cmd)
{
	struct srp_req *req = scsi_cmd_priv(cmd);
	u32 tag = blk_mq_unique_tag(scsi_cmd_to_rq(cmd));

	if (!READ_ONCE(req->inflight))
		return SUCCESS;
	/* On the command's channel: the target looks for the task among that channel's. */
	if (srp_send_tsk(req->ch, cmd->device->lun, OIB_SRP_TSK_ABORT_TASK, tag) < 0)
		return FAILED;
	return READ_ONCE(req->inflight) ? FAILED : SUCCESS;
}

struct srp_lun_scan {
	struct scsi_device *sdev;
	bool left;
};

static bool srp_lun_left(struct scsi_cmnd *cmd, void *data)
{
	struct srp_lun_scan *s = data;
	struct srp_req *req = scsi_cmd_priv(cmd);

	if (cmd->device == s->sdev && READ_ONCE(req->inflight))
		s->left = true;
	return true;
}

static int srp_eh_device_reset(struct scsi_cmnd *cmd)
{
	struct srp_host *h = shost_priv(cmd->device->host);
	struct srp_lun_scan s = { .sdev = cmd->device };

	if (srp_send_tsk(&h->ch[0], cmd->device->lun, OIB_SRP_TSK_LUN_RESET, 0) != 0)
		return FAILED;
	scsi_host_busy_iter(h->shost, srp_lun_left, &s);
	return s.left ? FAILED : SUCCESS;
}

static int srp_eh_host_reset(struct scsi_cmnd *cmd)
{
	return srp_conn_reset(shost_priv(cmd->device->host)) ? FAILED : SUCCESS;
}

/* Hardware queue i is channel i: the block layer's spread of the CPUs over the queues. */
static void srp_map_queues(struct Scsi_Host *shost)
{
	blk_mq_map_queues(&shost->tag_set.map[HCTX_TYPE_DEFAULT]);
}

/* Not const: Debian's 6.1 takes it so. */
static struct scsi_host_template srp_template = {
	.module = THIS_MODULE,
	.name = "oib_srp",
	.proc_name = "oib_srp",
	.queuecommand = srp_queuecommand,
	.eh_abort_handler = srp_eh_abort,
	.eh_device_reset_handler = srp_eh_device_reset,
	.eh_host_reset_handler = srp_eh_host_reset,
	.change_queue_depth = scsi_change_queue_depth,
	.map_queues = srp_map_queues,
	.can_queue = SRP_MAX_QUEUE,
	.this_id = -1,
	.sg_tablesize = OIB_SRP_MAX_BUFS,
	.max_sectors = SRP_MAX_PAGES * (PAGE_SIZE >> 9),
	.cmd_size = sizeof(struct srp_req),
	.shost_groups = srp_host_groups,
};

void srp_host_free(struct srp_host *h)
{
	u32 c, i;

	for (c = 0; h->ch && c < SRP_MAX_CH; c++) {
		for (i = 0; i < SRP_NRECV; i++)
			kfree(h->ch[c].recv[i].buf);
		for (i = 0; i < SRP_MAX_QUEUE; i++)
			kfree(h->ch[c].cmd_iu[i]);
	}
	kfree(h->ch);
	if (h->port)
		srp_port_put(h->port);
	scsi_host_put(h->shost);
}
EXPORT_SYMBOL_IF_KUNIT(srp_host_free);

/*
 * A channel's buffers, made at its first login (the host's channel count known then), kept:
 * an IU each, as the in-tree ib_srp makes them.  Not one vmalloc'ed area: oib_rxe sends from
 * such pages by reference, and SRP measured 4-6 times slower so (make bench, storage).
 */
int srp_ch_alloc_bufs(struct srp_ch *ch)
{
	int i;

	if (ch->cmd_iu[SRP_MAX_QUEUE - 1])
		return 0;
	for (i = 0; i < SRP_NRECV; i++) {
		ch->recv[i].buf = ch->recv[i].buf ?: kmalloc(SRP_RECV_LEN, GFP_KERNEL);
		if (!ch->recv[i].buf)
			return -ENOMEM;
	}
	for (i = 0; i < SRP_MAX_QUEUE; i++) {
		ch->cmd_iu[i] = ch->cmd_iu[i] ?: kzalloc(SRP_IT_IU_LEN, GFP_KERNEL);
		if (!ch->cmd_iu[i])
			return -ENOMEM;
	}
	return 0;
}

/* The channel structs, as many as the host may open (its first login may use fewer). */
static int srp_host_alloc_chs(struct srp_host *h)
{
	u32 c, i;

	h->nch = clamp(h->nch ?: READ_ONCE(srp_ch_count), 1U, (u32)SRP_MAX_CH);
	h->ch = kcalloc(SRP_MAX_CH, sizeof(*h->ch), GFP_KERNEL);
	if (!h->ch)
		return -ENOMEM;
	for (c = 0; c < SRP_MAX_CH; c++) {
		h->ch[c].h = h;
		h->ch[c].idx = c;
		spin_lock_init(&h->ch[c].lock);
		for (i = 0; i < SRP_NRECV; i++) {
			h->ch[c].recv[i].ch = &h->ch[c];
			h->ch[c].recv[i].cqe.done = srp_recv_done;
		}
	}
	return 0;
}

struct Scsi_Host *srp_host_shost(struct srp_host *h)
{
	return h->shost;
}
EXPORT_SYMBOL_IF_KUNIT(srp_host_shost);

enum srp_conn_state srp_host_state(struct srp_host *h)
{
	return READ_ONCE(h->state);
}
EXPORT_SYMBOL_IF_KUNIT(srp_host_state);

/* Channel @c's counters (zero past the host's channels). */
struct srp_host_stats srp_host_ch_stats(struct srp_host *h, u32 c)
{
	struct srp_host_stats st = {};
	unsigned long flags;

	if (c >= h->nch)
		return st;
	spin_lock_irqsave(&h->ch[c].lock, flags);
	st = h->ch[c].stats;
	spin_unlock_irqrestore(&h->ch[c].lock, flags);
	return st;
}
EXPORT_SYMBOL_IF_KUNIT(srp_host_ch_stats);

/* The host's: sums, the largest of the channels' maxima, channel 0's logins (one a login). */
struct srp_host_stats srp_host_get_stats(struct srp_host *h)
{
	struct srp_host_stats st = { .channels = h->nch }, c;
	u32 i;

	for (i = 0; i < h->nch; i++) {
		c = srp_host_ch_stats(h, i);
		st.outstanding += c.outstanding;
		st.max_outstanding = max(st.max_outstanding, c.max_outstanding);
		st.max_credits = max(st.max_credits, c.max_credits);
		st.remote_inv += c.remote_inv;
		st.local_inv += c.local_inv;
		st.cmds += c.cmds;
		st.imm += c.imm;
		st.t_logouts += c.t_logouts;
		st.cred_reqs += c.cred_reqs;
		if (!i)
			st.logins = c.logins;
	}
	return st;
}
EXPORT_SYMBOL_IF_KUNIT(srp_host_get_stats);

static struct srp_host *srp_host_new(void)
{
	struct srp_host *h;
	void *shost;

	shost = scsi_host_alloc(&srp_template, sizeof(*h));
	if (!shost)
		return NULL;
	h = shost_priv(shost);
	h->shost = shost;
	return h;
}

/*
 * One hardware queue per channel, each with its own tags (no host-wide tag set): a channel's
 * credits are its own, so each queue is as deep as the least its channel was granted less one
 * (kept for task management), and a tag indexes its channel's MRs and IUs.  A LUN's depth is
 * one queue's (the midlayer keeps cmd_per_lun within can_queue).
 */
static void srp_host_queues(struct srp_host *h)
{
	int depth = SRP_MAX_QUEUE;
	u32 i;

	for (i = 0; i < h->nch; i++)
		depth = min(depth, h->ch[i].credits - 1);
	h->shost->nr_hw_queues = h->nch;
	h->shost->can_queue = depth;
	h->shost->cmd_per_lun = depth;	/* (else 1 per LUN) */
	h->added = true;
}

/* A host logged in to @s's target and scanned; ERR_PTR: the login's failure, -ENOMEM. */
struct srp_host *srp_host_add(const struct srp_target_spec *s)
{
	struct srp_host *h = srp_host_new();
	int ret;

	if (!h)
		return ERR_PTR(-ENOMEM);
	h->port = s->port;
	if (h->port)
		srp_port_hold(h->port);
	h->dst = s->dst;
	memcpy(h->target_port_id, s->port_id, sizeof(h->target_port_id));
	h->it_iu_len = s->it_iu_len;
	h->nch = s->ch_count;
	srp_host_init_removal(h);
	mutex_init(&h->tsk_mutex);
	init_completion(&h->tsk_done);
	srp_conn_init(h);
	h->shost->max_id = 1;
	h->shost->max_lun = 16;
	h->shost->max_channel = 0;
	h->shost->max_cmd_len = 16;
	h->shost->virt_boundary_mask = PAGE_SIZE - 1;
	ret = srp_host_alloc_chs(h) ?: srp_conn_start(h);
	if (!ret) {
		srp_host_queues(h);
		ret = scsi_add_host(h->shost, NULL);
	}
	if (ret) {
		srp_conn_stop(h);
		cancel_work_sync(&h->removal_work);
		srp_host_free(h);
		return ERR_PTR(ret);
	}
	scsi_scan_host(h->shost);
	return h;
}
EXPORT_SYMBOL_IF_KUNIT(srp_host_add);

/*
 * Its commands finished (or failed: a target that is away is given up at once), then the
 * connection; srp_host_free() follows.
 */
void srp_host_remove(struct srp_host *h)
{
	srp_conn_step(h, SRP_CEV_GIVE_UP);
	scsi_remove_host(h->shost);
	srp_conn_stop(h);
}
EXPORT_SYMBOL_IF_KUNIT(srp_host_remove);
