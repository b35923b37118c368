// SPDX-License-Identifier: GPL-2.0-only
/*
 * A file or block device LUN's I/O, on srpt_wq (it sleeps; the completion handlers must not wait
 * for it).  A READ is read from the file into a bounce buffer, which the channel then RDMA WRITEs
 * to the initiator; a WRITE gets a bounce buffer the channel RDMA READs into, and is written to
 * the file when the data is in; SYNCHRONIZE CACHE writes the file back (fsync).  Through the
 * page cache: the LUN reports its write cache on, so the initiator's flushes arrive as
 * SYNCHRONIZE CACHE.  A failed read, write or write-back is a MEDIUM ERROR; no memory for the
 * bounce buffer is BUSY (the initiator tries again).  The channel's release flushes the work
 * after its drain; the work posts nothing once the channel is being released.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <scsi/scsi_proto.h>
#include "srpt_priv.h"

struct workqueue_struct *srpt_wq;

/* The bytes that move: what the CDB asks, or less if the descriptors are shorter. */
static u32 srpt_file_len(const struct srpt_cmd *cmd)
{
	return min(cmd->req.data_len, cmd->info.data_len);
}

/* No bounce buffer: BUSY, nothing moves. */
static void srpt_file_busy(struct srpt_scsi_req *req)
{
	req->status = SAM_STAT_BUSY;
	req->data_len = 0;
	req->data_dir = OIB_SRP_DATA_NONE;
}

/* Before the data moves: the bounce buffer, a READ's data in it, or SYNCHRONIZE CACHE done. */
static void srpt_file_before(struct srpt_cmd *cmd)
{
	struct srpt_scsi_req *req = &cmd->req;
	u32 n = srpt_file_len(cmd);
	loff_t pos = req->pos;

	if (req->data_dir == OIB_SRP_DATA_NONE) {
		if (vfs_fsync(req->file, 0))
			srpt_scsi_io_error(req, true);
		return;
	}
	if (!n || cmd->bounce)	/* a write's immediate data is in its bounce buffer already */
		return;
	cmd->bounce = kvmalloc(n, GFP_KERNEL);
	if (!cmd->bounce)
		return srpt_file_busy(req);
	req->data = cmd->bounce;
	if (req->data_dir == OIB_SRP_DATA_IN && kernel_read(req->file, cmd->bounce, n, &pos) != n)
		srpt_scsi_io_error(req, false);
}

/* A WRITE's data arrived in the bounce buffer: to the file. */
static void srpt_file_after(struct srpt_cmd *cmd)
{
	struct srpt_scsi_req *req = &cmd->req;
	u32 n = srpt_file_len(cmd);
	loff_t pos = req->pos;

	if (kernel_write(req->file, cmd->bounce, n, &pos) != n)
		srpt_scsi_io_error(req, true);
}

void srpt_file_work(struct work_struct *work)
{
	struct srpt_cmd *cmd = container_of(work, struct srpt_cmd, io_work);

	if (cmd->io_written) {
		srpt_file_after(cmd);
		srpt_send_cmd_rsp(cmd, 0);
		return;
	}
	srpt_file_before(cmd);
	srpt_move_data(cmd);
}

/* A file LUN's command decided (cmd->req.file): its I/O starts on the workqueue. */
void srpt_file_start(struct srpt_cmd *cmd)
{
	cmd->io_written = false;
	queue_work(srpt_wq, &cmd->io_work);
}

/* A WRITE's RDMA READs completed: the file written on the workqueue, then the response. */
void srpt_file_write(struct srpt_cmd *cmd)
{
	cmd->io_written = true;
	queue_work(srpt_wq, &cmd->io_work);
}
