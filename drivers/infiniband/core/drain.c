// SPDX-License-Identifier: GPL-2.0-only
/*
 * Draining a QP before it is destroyed: move it to ERR, post a marker request whose callback
 * completes a completion, and wait for it.  Completions come in queue order and a QP in ERR
 * flushes everything, so when the marker's flush completion has been delivered, every request
 * posted before it has been completed and its callback run.  The marker lives on the drainer's
 * stack: the wait cannot be given up (its callback would touch a dead frame).
 */
#include <linux/module.h>
#include <linux/completion.h>
#include <linux/sched.h>
#include "core_priv.h"

struct oib_drain_marker {
	struct oib_cqe cqe;
	struct completion done;
};

static void oib_drain_done(struct oib_cq *cq, struct oib_wc *wc)
{
	complete(&container_of(wc->wr_cqe, struct oib_drain_marker, cqe)->done);
}

/* 1: nothing to drain (RESET), 0: go on, or -errno. */
static int oib_drain_check(struct oib_qp *qp, struct oib_cq *cq)
{
	if (!cq || !cq->managed)
		return -EINVAL;
	if (qp->qp_type != OIB_QPT_RC && qp->qp_type != OIB_QPT_UC)
		return -EOPNOTSUPP;
	return READ_ONCE(qp->state) == OIB_QPS_RESET;
}

static int oib_drain_to_err(struct oib_qp *qp)
{
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_ERR };

	return oib_modify_qp(qp, &attr, OIB_QP_STATE);
}

/* Wait for @m's completion; a DIRECT CQ is polled here, since nobody else may be polling it. */
static void oib_drain_wait(struct oib_cq *cq, struct oib_drain_marker *m)
{
	if (cq->poll_ctx != OIB_POLL_DIRECT) {
		wait_for_completion(&m->done);
		return;
	}
	while (!completion_done(&m->done)) {
		if (oib_process_cq_direct(cq, INT_MAX) <= 0)
			wait_for_completion_timeout(&m->done, 1);
	}
}

/* Drain @qp's send (@send) or receive queue, whose completions go to @cq. */
static int oib_drain(struct oib_qp *qp, struct oib_cq *cq, bool send)
{
	struct oib_drain_marker m = { .cqe.done = oib_drain_done };
	struct oib_send_wr swr = { .wr_cqe = &m.cqe, .opcode = OIB_WR_RDMA_WRITE,
				   .send_flags = OIB_SEND_SIGNALED };
	struct oib_recv_wr rwr = { .wr_cqe = &m.cqe };
	int ret;

	ret = oib_drain_check(qp, cq);
	if (ret)
		return ret < 0 ? ret : 0;
	init_completion(&m.done);
	ret = oib_drain_to_err(qp);
	if (!ret)
		ret = send ? oib_post_send(qp, &swr, NULL) : oib_post_recv(qp, &rwr, NULL);
	if (ret)
		return ret;
	oib_drain_wait(cq, &m);
	return 0;
}

int oib_drain_sq(struct oib_qp *qp)
{
	if (IS_ERR_OR_NULL(qp))
		return -EINVAL;
	return oib_drain(qp, qp->send_cq, true);
}
EXPORT_SYMBOL(oib_drain_sq);

int oib_drain_rq(struct oib_qp *qp)
{
	if (IS_ERR_OR_NULL(qp) || qp->srq)
		return -EINVAL;
	return oib_drain(qp, qp->recv_cq, false);
}
EXPORT_SYMBOL(oib_drain_rq);

int oib_drain_qp(struct oib_qp *qp)
{
	int ret;

	if (IS_ERR_OR_NULL(qp))
		return -EINVAL;
	ret = oib_drain_sq(qp);
	if (ret || qp->srq)
		return ret;
	return oib_drain_rq(qp);
}
EXPORT_SYMBOL(oib_drain_qp);
