// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The drop-in libibverbs: posting, the context's ops behind verbs.h's inline ibv_post_send(),
 * ibv_post_recv() and ibv_post_srq_recv().  Sends are translated in batches on the stack and
 * posted through liboibv's mapped send ring (one doorbell a batch); receives and SGEs have
 * liboibv's layout and go as they are (asserted).
 */
#include <errno.h>
#include "ibvc.h"

_Static_assert(sizeof(struct oibv_sge) == sizeof(struct ibv_sge) &&
	       SAME_FIELD(oibv_sge, ibv_sge, addr) && SAME_FIELD(oibv_sge, ibv_sge, length) &&
	       SAME_FIELD(oibv_sge, ibv_sge, lkey), "sge layout");
_Static_assert(sizeof(struct oibv_recv_wr) == sizeof(struct ibv_recv_wr) &&
	       SAME_FIELD(oibv_recv_wr, ibv_recv_wr, wr_id) &&
	       SAME_FIELD(oibv_recv_wr, ibv_recv_wr, next) &&
	       SAME_FIELD(oibv_recv_wr, ibv_recv_wr, sg_list) &&
	       SAME_FIELD(oibv_recv_wr, ibv_recv_wr, num_sge), "recv wr layout");
IBVC_ASSERT_SAME(OIBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE);
IBVC_ASSERT_SAME(OIBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_RDMA_WRITE_WITH_IMM);
IBVC_ASSERT_SAME(OIBV_WR_SEND, IBV_WR_SEND);
IBVC_ASSERT_SAME(OIBV_WR_SEND_WITH_IMM, IBV_WR_SEND_WITH_IMM);
IBVC_ASSERT_SAME(OIBV_WR_RDMA_READ, IBV_WR_RDMA_READ);
IBVC_ASSERT_SAME(OIBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_CMP_AND_SWP);
IBVC_ASSERT_SAME(OIBV_WR_ATOMIC_FETCH_AND_ADD, IBV_WR_ATOMIC_FETCH_AND_ADD);
IBVC_ASSERT_SAME(OIBV_SEND_SIGNALED, IBV_SEND_SIGNALED);
IBVC_ASSERT_SAME(OIBV_SEND_SOLICITED, IBV_SEND_SOLICITED);

#define IBVC_BATCH 16

/*
 * One request in liboibv's form: the opcodes oib has; flags signaled and solicited only (inline
 * data, fences and checksum offload: EINVAL, the same as a bad request, since a device must
 * refuse a post it cannot carry out as asked); a UD request's AH.
 */
static int ibvc_send_wr(struct oibv_send_wr *o, const struct ibv_send_wr *w, enum ibv_qp_type t)
{
	if ((unsigned int)w->opcode > IBV_WR_ATOMIC_FETCH_AND_ADD ||
	    (w->send_flags & ~(IBV_SEND_SIGNALED | IBV_SEND_SOLICITED)) || w->num_sge < 0 ||
	    (t == IBV_QPT_UD && !w->wr.ud.ah))
		return EINVAL;
	*o = (struct oibv_send_wr){
		.wr_id = w->wr_id, .sg_list = (struct oibv_sge *)w->sg_list, .num_sge = w->num_sge,
		.opcode = (enum oibv_wr_opcode)w->opcode, .send_flags = w->send_flags,
		.imm_data = w->imm_data,
	};
	if (t == IBV_QPT_XRC_SEND)
		o->xrc_remote_srq_num = w->qp_type.xrc.remote_srqn;
	if (t == IBV_QPT_UD) {
		o->wr.ud.ah = IBVC(ah, w->wr.ud.ah)->o;
		o->wr.ud.remote_qpn = w->wr.ud.remote_qpn;
		o->wr.ud.remote_qkey = w->wr.ud.remote_qkey;
	} else if (w->opcode == IBV_WR_ATOMIC_CMP_AND_SWP ||
		   w->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
		o->wr.atomic.remote_addr = w->wr.atomic.remote_addr;
		o->wr.atomic.compare_add = w->wr.atomic.compare_add;
		o->wr.atomic.swap = w->wr.atomic.swap;
		o->wr.atomic.rkey = w->wr.atomic.rkey;
	} else {
		o->wr.rdma.remote_addr = w->wr.rdma.remote_addr;
		o->wr.rdma.rkey = w->wr.rdma.rkey;
	}
	return 0;
}

/* Up to IBVC_BATCH requests from @wr translated and posted; *@bad names the first not posted. */
static int ibvc_post_batch(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **next,
			   struct ibv_send_wr **bad)
{
	struct ibv_send_wr *from[IBVC_BATCH];
	struct oibv_send_wr o[IBVC_BATCH], *obad = NULL;
	int n = 0, ret = 0, err;

	for (; wr && n < IBVC_BATCH; wr = wr->next, n++) {
		ret = ibvc_send_wr(&o[n], wr, qp->qp_type);
		if (ret)
			break;
		from[n] = wr;
		o[n].next = n + 1 < IBVC_BATCH && wr->next ? &o[n + 1] : NULL;
	}
	*next = wr;
	if (n) {
		o[n - 1].next = NULL;
		err = oibv_post_send(IBVC(qp, qp)->o, o, &obad);
		if (err) {
			*bad = obad ? from[obad - o] : from[0];
			return err;
		}
	}
	if (ret)
		*bad = wr;
	return ret;
}

int ibvc_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	struct ibv_send_wr *bad = wr;
	int ret = 0;

	if (!qp || !bad_wr)
		ret = EINVAL;
	while (!ret && wr)
		ret = ibvc_post_batch(qp, wr, &wr, &bad);
	if (ret && bad_wr)
		*bad_wr = bad;
	return ret;
}

int ibvc_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	if (!qp || !bad_wr)
		return EINVAL;
	return oibv_post_recv(IBVC(qp, qp)->o, (struct oibv_recv_wr *)wr,
			      (struct oibv_recv_wr **)bad_wr);
}

int ibvc_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	if (!srq || !bad_wr)
		return EINVAL;
	return oibv_post_srq_recv(IBVC(srq, srq)->o, (struct oibv_recv_wr *)wr,
				  (struct oibv_recv_wr **)bad_wr);
}
