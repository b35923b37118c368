// SPDX-License-Identifier: GPL-2.0-only
/*
 * Posting work requests through ioctls: at most OIB_UVERBS_MAX_WR requests of at most
 * OIB_UVERBS_MAX_SGE SGEs a call, each copied in and its SGEs translated from the user
 * addresses they name to the MR's kernel mapping (mr.c) before anything is posted; the requests
 * before the first bad one are posted, as libibverbs's post calls do, and bad_wr names it.
 * Sends: SEND and SEND_WITH_IMM in this version.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "uverbs.h"

/* Copy in and translate @num SGEs at user address @uaddr into @k. */
static int oib_uverbs_sges(struct oib_uverbs_file *ufile, struct oib_pd *pd, u64 uaddr,
			   u32 num, struct oib_sge *k)
{
	struct oib_uverbs_sge u[OIB_UVERBS_MAX_SGE];
	u32 i;
	int ret;

	if (num > OIB_UVERBS_MAX_SGE)
		return -EINVAL;
	if (copy_from_user(u, u64_to_user_ptr(uaddr), num * sizeof(u[0])))
		return -EFAULT;
	for (i = 0; i < num; i++) {
		ret = oib_uverbs_sge_from_user(ufile, pd, &u[i], &k[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* The work requests and their SGEs, in one allocation. */
struct oib_uverbs_send_batch {
	struct oib_send_wr wr[OIB_UVERBS_MAX_WR];
	struct oib_sge sge[OIB_UVERBS_MAX_WR][OIB_UVERBS_MAX_SGE];
};

struct oib_uverbs_recv_batch {
	struct oib_recv_wr wr[OIB_UVERBS_MAX_WR];
	struct oib_sge sge[OIB_UVERBS_MAX_WR][OIB_UVERBS_MAX_SGE];
};

static int oib_uverbs_send_wr(struct oib_uverbs_file *ufile, struct oib_qp *qp,
			      const struct oib_uverbs_send_wr *u, struct oib_send_wr *k,
			      struct oib_sge *sge)
{
	if (u->opcode != OIB_UVERBS_WR_SEND && u->opcode != OIB_UVERBS_WR_SEND_WITH_IMM)
		return -EINVAL;
	if (u->send_flags & ~(OIB_UVERBS_SEND_SIGNALED | OIB_UVERBS_SEND_SOLICITED))
		return -EINVAL;
	k->wr_id = u->wr_id;
	k->opcode = u->opcode;
	k->send_flags = u->send_flags;
	k->ex.imm_data = (__force __be32)u->imm_data;
	k->num_sge = u->num_sge;
	k->sg_list = sge;
	return oib_uverbs_sges(ufile, qp->pd, u->sg_list, u->num_sge, sge);
}

static int oib_uverbs_post_send_batch(struct oib_uverbs_file *ufile, struct oib_qp *qp,
				      struct oib_uverbs_post *cmd,
				      struct oib_uverbs_send_batch *b)
{
	struct oib_uverbs_send_wr u;
	const struct oib_send_wr *bad;
	u32 i, n;
	int ret;

	int err = 0;

	for (i = 0; i < cmd->count && !err; i++) {
		if (copy_from_user(&u, u64_to_user_ptr(cmd->wrs + i * sizeof(u)), sizeof(u)))
			err = -EFAULT;
		else
			err = oib_uverbs_send_wr(ufile, qp, &u, &b->wr[i], b->sge[i]);
		b->wr[i].next = &b->wr[i + 1];
	}
	/* The requests before a bad one are posted, as if posted one by one. */
	n = err ? i - 1 : i;
	cmd->bad_wr = n;
	if (!n)
		return err;
	b->wr[n - 1].next = NULL;
	ret = oib_post_send(qp, b->wr, &bad);
	if (ret)
		cmd->bad_wr = bad - b->wr;
	return ret ?: err;
}

static int oib_uverbs_post_recv_batch(struct oib_uverbs_file *ufile, struct oib_qp *qp,
				      struct oib_uverbs_post *cmd,
				      struct oib_uverbs_recv_batch *b)
{
	struct oib_uverbs_recv_wr u;
	const struct oib_recv_wr *bad;
	u32 i, n;
	int ret;

	int err = 0;

	for (i = 0; i < cmd->count && !err; i++) {
		if (copy_from_user(&u, u64_to_user_ptr(cmd->wrs + i * sizeof(u)), sizeof(u)))
			err = -EFAULT;
		else if (u.reserved)
			err = -EINVAL;
		else
			err = oib_uverbs_sges(ufile, qp->pd, u.sg_list, u.num_sge, b->sge[i]);
		b->wr[i] = (struct oib_recv_wr){
			.next = &b->wr[i + 1], .wr_id = u.wr_id, .sg_list = b->sge[i],
			.num_sge = u.num_sge,
		};
	}
	n = err ? i - 1 : i;
	cmd->bad_wr = n;
	if (!n)
		return err;
	b->wr[n - 1].next = NULL;
	ret = oib_post_recv(qp, b->wr, &bad);
	if (ret)
		cmd->bad_wr = bad - b->wr;
	return ret ?: err;
}

/*
 * A failed post reports bad_wr in the answer: ioctl.c copies answers back on success only, so
 * the handler writes it itself.
 */
static int oib_uverbs_post(struct oib_uverbs_call *call, struct oib_uverbs_post *cmd, bool send)
{
	struct oib_uverbs_post __user *ucmd = call->ucmd;
	struct oib_uverbs_qp *uqp;
	void *batch;
	int ret;

	if (cmd->reserved || cmd->bad_wr || !cmd->count || cmd->count > OIB_UVERBS_MAX_WR)
		return -EINVAL;
	uqp = oib_uobj_get(call->ufile, cmd->handle, OIB_UVERBS_OBJ_QP);
	if (IS_ERR(uqp))
		return PTR_ERR(uqp);
	batch = kvmalloc(send ? sizeof(struct oib_uverbs_send_batch) :
			sizeof(struct oib_uverbs_recv_batch), GFP_KERNEL);
	ret = -ENOMEM;
	if (batch && send)
		ret = oib_uverbs_post_send_batch(call->ufile, uqp->qp, cmd, batch);
	else if (batch)
		ret = oib_uverbs_post_recv_batch(call->ufile, uqp->qp, cmd, batch);
	kvfree(batch);
	oib_uobj_put(&uqp->uobj);
	if (ret && put_user(cmd->bad_wr, &ucmd->bad_wr))
		ret = -EFAULT;
	return ret;
}

int oib_uverbs_post_send(struct oib_uverbs_call *call, void *buf)
{
	return oib_uverbs_post(call, buf, true);
}

int oib_uverbs_post_recv(struct oib_uverbs_call *call, void *buf)
{
	return oib_uverbs_post(call, buf, false);
}
