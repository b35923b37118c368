// SPDX-License-Identifier: GPL-2.0-only
/*
 * Posting work requests through ioctls: at most OIB_UVERBS_MAX_WR requests of at most
 * OIB_UVERBS_MAX_SGE SGEs a call, copied in with their SGEs before the context's lock is taken
 * (a stage: struct oib_uverbs_post_stage), then each checked, its SGEs against the context's
 * MRs (mr.c: a user MR's iova is the user address), before anything is posted; the requests
 * before the first bad one are posted, as libibverbs's post calls do, and bad_wr names it.
 * Sends: SEND, RDMA WRITE and READ, atomics (which the provider allows on which QP type), each
 * with only the fields its opcode uses; UD sends name an AH, held while the post runs (after it,
 * a destroyed AH is retired on its PD: ah.c); an XRC initiator's sends name the remote XRC SRQ.
 */
#include <linux/capability.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "uverbs.h"

/* Check @num SGEs @u (already in kernel memory) into @k. */
static int oib_uverbs_sges_check(struct oib_uverbs_file *ufile, struct oib_pd *pd,
				 const struct oib_uverbs_sge *u, u32 num, struct oib_sge *k)
{
	u32 i;
	int ret;

	if (num > OIB_UVERBS_MAX_SGE)
		return -EINVAL;
	for (i = 0; i < num; i++) {
		ret = oib_uverbs_sge_from_user(ufile, pd, &u[i], &k[i]);
		if (ret)
			return ret;
	}
	return 0;
}

struct oib_uverbs_recv_batch {
	struct oib_recv_wr wr[OIB_UVERBS_MAX_WR];
	struct oib_sge sge[OIB_UVERBS_MAX_WR][OIB_UVERBS_MAX_SGE];
};

/*
 * A post's requests as copied in: the first @n whole (a request of too many SGEs is staged
 * without them, for the check to refuse), then @err (-EFAULT) if request @n could not be; and
 * room for the kernel's requests made of them (one allocation a post).
 */
struct oib_uverbs_post_stage {
	u32 n;
	int err;
	union {
		struct oib_uverbs_send_wr send[OIB_UVERBS_MAX_WR];
		struct oib_uverbs_recv_wr recv[OIB_UVERBS_MAX_WR];
	};
	struct oib_uverbs_sge sge[OIB_UVERBS_MAX_WR][OIB_UVERBS_MAX_SGE];
	union {
		struct oib_uverbs_send_batch send_batch;
		struct oib_uverbs_recv_batch recv_batch;
	};
};

/* The fields of struct oib_uverbs_send_wr each opcode uses, besides the SGEs and flags. */
#define OIB_UVERBS_F_IMM	BIT(0)
#define OIB_UVERBS_F_RDMA	BIT(1)	/* remote_addr, rkey */
#define OIB_UVERBS_F_ADD	BIT(2)	/* compare_add */
#define OIB_UVERBS_F_SWAP	BIT(3)

static const u8 oib_uverbs_wr_fields[] = {
	[OIB_UVERBS_WR_RDMA_WRITE] = OIB_UVERBS_F_RDMA,
	[OIB_UVERBS_WR_RDMA_WRITE_WITH_IMM] = OIB_UVERBS_F_RDMA | OIB_UVERBS_F_IMM,
	[OIB_UVERBS_WR_SEND] = 0,
	[OIB_UVERBS_WR_SEND_WITH_IMM] = OIB_UVERBS_F_IMM,
	[OIB_UVERBS_WR_RDMA_READ] = OIB_UVERBS_F_RDMA,
	[OIB_UVERBS_WR_ATOMIC_CMP_AND_SWP] = OIB_UVERBS_F_RDMA | OIB_UVERBS_F_ADD |
					     OIB_UVERBS_F_SWAP,
	[OIB_UVERBS_WR_ATOMIC_FETCH_AND_ADD] = OIB_UVERBS_F_RDMA | OIB_UVERBS_F_ADD,
};

OIB_UVERBS_SAME(OIB_UVERBS_WR_RDMA_WRITE, OIB_WR_RDMA_WRITE);
OIB_UVERBS_SAME(OIB_UVERBS_WR_RDMA_WRITE_WITH_IMM, OIB_WR_RDMA_WRITE_WITH_IMM);
OIB_UVERBS_SAME(OIB_UVERBS_WR_SEND, OIB_WR_SEND);
OIB_UVERBS_SAME(OIB_UVERBS_WR_SEND_WITH_IMM, OIB_WR_SEND_WITH_IMM);
OIB_UVERBS_SAME(OIB_UVERBS_WR_RDMA_READ, OIB_WR_RDMA_READ);
OIB_UVERBS_SAME(OIB_UVERBS_WR_ATOMIC_CMP_AND_SWP, OIB_WR_ATOMIC_CMP_AND_SWP);
OIB_UVERBS_SAME(OIB_UVERBS_WR_ATOMIC_FETCH_AND_ADD, OIB_WR_ATOMIC_FETCH_AND_ADD);

/* -EINVAL if @u sets a field its opcode does not use. */
static int oib_uverbs_wr_fields_check(const struct oib_uverbs_send_wr *u)
{
	u8 f;

	if (u->opcode >= ARRAY_SIZE(oib_uverbs_wr_fields))
		return -EINVAL;
	f = oib_uverbs_wr_fields[array_index_nospec(u->opcode, ARRAY_SIZE(oib_uverbs_wr_fields))];
	if ((!(f & OIB_UVERBS_F_IMM) && u->imm_data) ||
	    (!(f & OIB_UVERBS_F_RDMA) && (u->remote_addr || u->rkey)) ||
	    (!(f & OIB_UVERBS_F_ADD) && u->compare_add) ||
	    (!(f & OIB_UVERBS_F_SWAP) && u->swap))
		return -EINVAL;
	return 0;
}

/* A datagram's destination: an AH of this context (held in *@ahp), the QPN and the Q_Key. */
static int oib_uverbs_ud_wr(struct oib_uverbs_file *ufile, const struct oib_uverbs_send_wr *u,
			    struct oib_send_wr *k, struct oib_uverbs_ah **ahp)
{
	struct oib_uverbs_ah *uah;

	if ((u->remote_qkey & OIB_UVERBS_QKEY_CONTROLLED) && !capable(CAP_NET_RAW))
		return -EPERM;
	uah = oib_uobj_get(ufile, u->ah_handle, OIB_UVERBS_OBJ_AH);
	if (IS_ERR(uah))
		return PTR_ERR(uah);
	*ahp = uah;
	k->wr.ud.ah = uah->keep->ah;
	k->wr.ud.remote_qpn = u->remote_qpn;
	k->wr.ud.remote_qkey = u->remote_qkey;
	return 0;
}

/*
 * The kernel's request @k (SGEs in @sge, the AH held in *@ahp) from the user's @u, every field
 * checked; @usge: its SGEs, already in kernel memory (a mapped ring's entry, or a post's stage).
 */
int oib_uverbs_send_wr(struct oib_uverbs_file *ufile, struct oib_qp *qp,
		       const struct oib_uverbs_send_wr *u, const struct oib_uverbs_sge *usge,
		       struct oib_send_wr *k, struct oib_sge *sge, struct oib_uverbs_ah **ahp)
{
	bool ud = qp->qp_type == OIB_QPT_UD || qp->qp_type == OIB_QPT_GSI ||
		  qp->qp_type == OIB_QPT_SMI;
	int ret;

	if (u->send_flags & ~(OIB_UVERBS_SEND_SIGNALED | OIB_UVERBS_SEND_SOLICITED))
		return -EINVAL;
	ret = oib_uverbs_wr_fields_check(u);
	if (ret)
		return ret;
	*k = (struct oib_send_wr){
		.wr_id = u->wr_id, .opcode = u->opcode, .send_flags = u->send_flags,
		.ex.imm_data = (__force __be32)u->imm_data, .num_sge = u->num_sge, .sg_list = sge,
	};
	if (u->opcode == OIB_UVERBS_WR_ATOMIC_CMP_AND_SWP ||
	    u->opcode == OIB_UVERBS_WR_ATOMIC_FETCH_AND_ADD) {
		k->wr.atomic.remote_addr = u->remote_addr;
		k->wr.atomic.compare_add = u->compare_add;
		k->wr.atomic.swap = u->swap;
		k->wr.atomic.rkey = u->rkey;
	} else {
		k->wr.rdma.remote_addr = u->remote_addr;
		k->wr.rdma.rkey = u->rkey;
	}
	if (ud)
		ret = oib_uverbs_ud_wr(ufile, u, k, ahp);
	else if (qp->qp_type == OIB_QPT_XRC_INI && !u->ah_handle && !u->remote_qkey)
		k->xrc_remote_srq_num = u->xrc_remote_srq_num;
	else if (u->ah_handle || u->remote_qpn || u->remote_qkey)
		ret = -EINVAL;
	if (ret)
		return ret;
	return oib_uverbs_sges_check(ufile, qp->pd, usge, u->num_sge, sge);
}

/* Put the AHs the first @n requests of @b hold. */
void oib_uverbs_send_batch_put(struct oib_uverbs_send_batch *b, u32 n)
{
	while (n--)
		if (b->ah[n])
			oib_uobj_put(&b->ah[n]->uobj);
}

static int oib_uverbs_post_send_batch(struct oib_uverbs_file *ufile, struct oib_qp *qp,
				      struct oib_uverbs_post *cmd,
				      const struct oib_uverbs_post_stage *st,
				      struct oib_uverbs_send_batch *b)
{
	const struct oib_send_wr *bad;
	int ret, err = 0;
	u32 i, n;

	for (i = 0; i < st->n && !err; i++) {
		b->ah[i] = NULL;
		err = oib_uverbs_send_wr(ufile, qp, &st->send[i], st->sge[i], &b->wr[i],
					 b->sge[i], &b->ah[i]);
		b->wr[i].next = &b->wr[i + 1];
	}
	/* The requests before a bad one are posted, as if posted one by one. */
	n = err ? i - 1 : i;
	err = err ?: st->err;
	cmd->bad_wr = n;
	ret = 0;
	if (n) {
		b->wr[n - 1].next = NULL;
		ret = oib_post_send(qp, b->wr, &bad);
		if (ret)
			cmd->bad_wr = bad - b->wr;
	}
	oib_uverbs_send_batch_put(b, i);
	return ret ?: err;
}

/* Where receives go: a QP's own queue or an SRQ. */
struct oib_uverbs_recv_target {
	struct oib_qp *qp;
	struct oib_srq *srq;
};

/*
 * The kernel's receive @k (SGEs in @sge) from the user's @u, every field checked; @usge: its
 * SGEs, already in kernel memory (a mapped ring's entry, any context, or a post's stage).
 */
int oib_uverbs_recv_wr(struct oib_uverbs_file *ufile, struct oib_pd *pd,
		       const struct oib_uverbs_recv_wr *u, const struct oib_uverbs_sge *usge,
		       struct oib_recv_wr *k, struct oib_sge *sge)
{
	*k = (struct oib_recv_wr){ .wr_id = u->wr_id, .sg_list = sge, .num_sge = u->num_sge };
	if (u->reserved)
		return -EINVAL;
	return oib_uverbs_sges_check(ufile, pd, usge, u->num_sge, sge);
}

static int oib_uverbs_post_recv_batch(struct oib_uverbs_file *ufile,
				      const struct oib_uverbs_recv_target *t,
				      struct oib_uverbs_post *cmd,
				      const struct oib_uverbs_post_stage *st,
				      struct oib_uverbs_recv_batch *b)
{
	struct oib_pd *pd = t->srq ? t->srq->pd : t->qp->pd;
	const struct oib_recv_wr *bad;
	int ret, err = 0;
	u32 i, n;

	for (i = 0; i < st->n && !err; i++) {
		err = oib_uverbs_recv_wr(ufile, pd, &st->recv[i], st->sge[i], &b->wr[i],
					 b->sge[i]);
		b->wr[i].next = &b->wr[i + 1];
	}
	n = err ? i - 1 : i;
	err = err ?: st->err;
	cmd->bad_wr = n;
	if (!n)
		return err;
	b->wr[n - 1].next = NULL;
	ret = t->srq ? oib_post_srq_recv(t->srq, b->wr, &bad) : oib_post_recv(t->qp, b->wr, &bad);
	if (ret)
		cmd->bad_wr = bad - b->wr;
	return ret ?: err;
}

static int oib_uverbs_post_batch(struct oib_uverbs_file *ufile, struct oib_uverbs_uobj *uobj,
				 struct oib_uverbs_post *cmd, struct oib_uverbs_post_stage *st,
				 bool send)
{
	struct oib_uverbs_recv_target t = { 0 };

	if (uobj->type == OIB_UVERBS_OBJ_SRQ)
		t.srq = container_of(uobj, struct oib_uverbs_srq, uobj)->srq;
	else
		t.qp = container_of(uobj, struct oib_uverbs_qp, uobj)->qp;
	if (t.qp && t.qp->qp_type == OIB_QPT_XRC_TGT)
		return -EINVAL;		/* no queues: its receives go to the domain's SRQs */
	if (send)
		return oib_uverbs_post_send_batch(ufile, t.qp, cmd, st, &st->send_batch);
	return oib_uverbs_post_recv_batch(ufile, &t, cmd, st, &st->recv_batch);
}

/* Copy in @cmd's requests (of @wsize bytes each) and their SGEs, into call->stage. */
static int oib_uverbs_post_stage(struct oib_uverbs_call *call, struct oib_uverbs_post *cmd,
				 bool send)
{
	size_t wsize = send ? sizeof(struct oib_uverbs_send_wr) :
			      sizeof(struct oib_uverbs_recv_wr);
	struct oib_uverbs_post_stage *st;
	u32 i, num;
	u64 sgl;

	if (cmd->reserved || cmd->bad_wr || !cmd->count || cmd->count > OIB_UVERBS_MAX_WR)
		return -EINVAL;
	st = kvmalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	call->stage = st;
	for (i = 0; i < cmd->count; i++) {
		if (copy_from_user(send ? (void *)&st->send[i] : (void *)&st->recv[i],
				   u64_to_user_ptr(cmd->wrs + i * wsize), wsize))
			break;
		num = send ? st->send[i].num_sge : st->recv[i].num_sge;
		sgl = send ? st->send[i].sg_list : st->recv[i].sg_list;
		if (num > OIB_UVERBS_MAX_SGE) {
			i++;	/* staged for the check to refuse; nothing after it is read */
			break;
		}
		if (copy_from_user(st->sge[i], u64_to_user_ptr(sgl), num * sizeof(st->sge[i][0])))
			break;
	}
	st->n = i;
	st->err = i < cmd->count ? -EFAULT : 0;
	return 0;
}

int oib_uverbs_post_send_before(struct oib_uverbs_call *call, void *buf)
{
	return oib_uverbs_post_stage(call, buf, true);
}

int oib_uverbs_post_recv_before(struct oib_uverbs_call *call, void *buf)
{
	return oib_uverbs_post_stage(call, buf, false);
}

static int oib_uverbs_post(struct oib_uverbs_call *call, struct oib_uverbs_post *cmd,
			   enum oib_uverbs_obj_type type, bool send)
{
	struct oib_uverbs_uobj *uobj;
	int ret;

	uobj = oib_uobj_get(call->ufile, cmd->handle, type);
	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	ret = oib_uverbs_post_batch(call->ufile, uobj, cmd, call->stage, send);
	oib_uobj_put(uobj);
	return ret;
}

/*
 * A failed post reports bad_wr in the answer: ioctl.c copies answers back on success only, so
 * this writes it (a post refused before its requests were staged has none).
 */
int oib_uverbs_post_after(struct oib_uverbs_call *call, void *buf, int ret)
{
	struct oib_uverbs_post __user *ucmd = call->ucmd;
	struct oib_uverbs_post *cmd = buf;

	if (ret && call->stage && ucmd && put_user(cmd->bad_wr, &ucmd->bad_wr))
		ret = -EFAULT;
	kvfree(call->stage);
	return ret;
}

int oib_uverbs_post_send(struct oib_uverbs_call *call, void *buf)
{
	return oib_uverbs_post(call, buf, OIB_UVERBS_OBJ_QP, true);
}

int oib_uverbs_post_recv(struct oib_uverbs_call *call, void *buf)
{
	return oib_uverbs_post(call, buf, OIB_UVERBS_OBJ_QP, false);
}

int oib_uverbs_post_srq_recv(struct oib_uverbs_call *call, void *buf)
{
	return oib_uverbs_post(call, buf, OIB_UVERBS_OBJ_SRQ, false);
}
