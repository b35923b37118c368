// SPDX-License-Identifier: GPL-2.0-only
/*
 * XRC at the target: SRQ numbers, and steering each request to the XRC SRQ its XRCETH names.
 *
 * An XRC SRQ gets a number from the device's srqns when it is made, and loses it first thing when
 * it is destroyed, which then waits for every responder still using it (orxe_srq.ref).  An XRC
 * target's responder looks the SRQ up before taking the QP's rq_lock (orxe_xrc_steer()) and
 * holds it until the packet is done (orxe_xrc_unsteer()): the receive WQE, the CQ and the PD
 * (for the R_Keys and the receive buffer's lkeys) are that SRQ's.  A request at the expected PSN
 * must name an XRC SRQ of the target's own domain: none, or one that is not XRC, is an invalid
 * request; one of another domain is a remote access error (orxe_xrc_check()); either is NAKed,
 * counted (rx_drop_xrc), and puts the target in ERR as any RC error does.  The packets of a
 * message that spans several must all name the SRQ its first one did.  Duplicates and sequence
 * errors are the RC responder's, as they are.
 */
#include <linux/module.h>
#include "orxe.h"

int orxe_xrc_srq_number(struct orxe_dev *rdev, struct orxe_srq *srq)
{
	refcount_set(&srq->ref, 1);
	init_completion(&srq->ref_done);
	return xa_alloc_cyclic(&rdev->srqns, &srq->ib.srq_num, srq,
			       XA_LIMIT(1, ORXE_QPN_MASK), &rdev->next_srqn, GFP_KERNEL) < 0 ?
	       -ENOSPC : 0;
}

/* Unfindable first, then wait out the responders using it. */
void orxe_xrc_srq_unnumber(struct orxe_dev *rdev, struct orxe_srq *srq)
{
	xa_erase(&rdev->srqns, srq->ib.srq_num);
	orxe_xrc_srq_put(srq);
	wait_for_completion(&srq->ref_done);
}

/* The XRC SRQ numbered @srqn, held; NULL if there is none. */
struct orxe_srq *orxe_xrc_srq_get(struct orxe_dev *rdev, u32 srqn)
{
	struct orxe_srq *srq;
	unsigned long flags;

	xa_lock_irqsave(&rdev->srqns, flags);
	srq = xa_load(&rdev->srqns, srqn);
	if (srq && !refcount_inc_not_zero(&srq->ref))
		srq = NULL;
	xa_unlock_irqrestore(&rdev->srqns, flags);
	return srq;
}

void orxe_xrc_srq_put(struct orxe_srq *srq)
{
	if (srq && refcount_dec_and_test(&srq->ref))
		complete(&srq->ref_done);
}

/* Before the responder runs, under rq_lock: hold the SRQ @pkt names as the current one. */
void orxe_xrc_steer(struct orxe_qp *qp, const struct orxe_pkt *pkt)
{
	lockdep_assert_held(&qp->rq_lock);
	qp->resp.xsrq = orxe_xrc_srq_get(to_rdev(qp->ib.device), orxe_xrceth_srqn(pkt->xrceth));
}

/* After it ran, under rq_lock: let the SRQ go (destroy may be waiting for it). */
void orxe_xrc_unsteer(struct orxe_qp *qp)
{
	lockdep_assert_held(&qp->rq_lock);
	orxe_xrc_srq_put(qp->resp.xsrq);
	qp->resp.xsrq = NULL;
}

/* May the request at epsn go to the current SRQ?  Under rq_lock; a refusal is counted. */
enum orxe_resp_result orxe_xrc_check(struct orxe_port *port, struct orxe_qp *qp,
				     const struct orxe_pkt *pkt)
{
	struct orxe_srq *srq = qp->resp.xsrq;
	u32 srqn = orxe_xrceth_srqn(pkt->xrceth);
	enum orxe_resp_result res = ORXE_RESP_OK;

	lockdep_assert_held(&qp->rq_lock);
	if (!srq || srq->ib.srq_type != OIB_SRQT_XRC)
		res = ORXE_RESP_INVALID;
	else if (srq->ib.xrcd != qp->ib.xrcd)
		res = ORXE_RESP_ACCESS;
	else if (qp->resp.op && srqn != qp->resp.xsrqn)
		res = ORXE_RESP_INVALID;	/* a message's packets go to one SRQ */
	if (res) {
		orxe_port_count(port, OIB_RXE_RX_DROP_XRC);
		return res;
	}
	if (pkt->info->flags & ORXE_OPF_FIRST)
		qp->resp.xsrqn = srqn;
	return ORXE_RESP_OK;
}
