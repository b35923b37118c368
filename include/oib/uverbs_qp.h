/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_uverbs's QPs for other kernel modules: a module that connects a process's QP for it (the
 * RDMA CM from user space, oib_ucma) names it by the process's /dev/oib_uverbs<N> file and the
 * QP's handle, and uses it until it lets go or the QP is destroyed, whichever comes first.
 *
 * A QP has at most one user.  The QP's destroy (DESTROY_QP, the file's close, the device's
 * removal) first calls the user's @release, which must let go of the QP (a connection manager:
 * release it from the connection) and must not sleep on anything the user's own calls hold
 * while they call oib_uverbs_qp_unuse().  @release and the @attach callback of
 * oib_uverbs_qp_use() run under one mutex of oib_uverbs, the one that makes "attached" and
 * "released" a single story for both sides.
 */
#ifndef OIB_UVERBS_QP_H
#define OIB_UVERBS_QP_H

#include <linux/fs.h>
#include <oib/verbs.h>

struct oib_uverbs_qp;

struct oib_uverbs_qp_user {
	void (*release)(struct oib_uverbs_qp_user *user);
	struct oib_uverbs_qp *uqp;	/* oib_uverbs's: the QP used, or NULL */
};

/*
 * Use the QP @handle of the context open as @file: @attach(@user, qp) runs with the QP held,
 * and if it returns 0 @user is the QP's user until oib_uverbs_qp_unuse() or the QP's destroy.
 * -EBADF: @file is not a /dev/oib_uverbs<N>; -EIO: its device is gone; -EINVAL: no such QP, a
 * user already (@user or another), an XRC target; -EBUSY: the QP is being destroyed; or what
 * @attach returns.
 */
int oib_uverbs_qp_use(struct file *file, u32 handle, struct oib_uverbs_qp_user *user,
		      int (*attach)(struct oib_uverbs_qp_user *user, struct oib_qp *qp));

/* Let go of the QP @user uses, if any, calling @user->release() first: whether it had one. */
bool oib_uverbs_qp_unuse(struct oib_uverbs_qp_user *user);

#endif /* OIB_UVERBS_QP_H */
