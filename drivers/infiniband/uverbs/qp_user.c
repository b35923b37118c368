// SPDX-License-Identifier: GPL-2.0-only
/*
 * A process's QP used by another kernel module (include/oib/uverbs_qp.h): oib_ucma connects it.
 * The QP's user is set and cleared under oib_uverbs_qp_user_lock, by the user's calls and by
 * the QP's destroy, so "the user has let go" happens once, before the QP is destroyed.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <oib/uverbs_qp.h>
#include "uverbs.h"

/* Protects every struct oib_uverbs_qp's @user and every user's @uqp; taken after hw_rwsem. */
static DEFINE_MUTEX(oib_uverbs_qp_user_lock);

static int oib_uverbs_qp_use_held(struct oib_uverbs_qp *uqp, struct oib_uverbs_qp_user *user,
				  int (*attach)(struct oib_uverbs_qp_user *user,
						struct oib_qp *qp))
{
	int ret = -EINVAL;

	mutex_lock(&oib_uverbs_qp_user_lock);
	if (!uqp->user && !user->uqp && uqp->qp->qp_type != OIB_QPT_XRC_TGT) {
		ret = attach(user, uqp->qp);
		if (!ret) {
			uqp->user = user;
			user->uqp = uqp;
		}
	}
	mutex_unlock(&oib_uverbs_qp_user_lock);
	return ret;
}

int oib_uverbs_qp_use(struct file *file, u32 handle, struct oib_uverbs_qp_user *user,
		      int (*attach)(struct oib_uverbs_qp_user *user, struct oib_qp *qp))
{
	struct oib_uverbs_file *ufile;
	struct oib_uverbs_qp *uqp;
	int ret;

	if (!file || file->f_op != &oib_uverbs_fops || !user || !user->release || !attach)
		return -EBADF;
	ufile = file->private_data;
	down_read(&ufile->hw_rwsem);
	ret = -EIO;
	if (!ufile->ibdev)
		goto out;
	uqp = oib_uobj_get(ufile, handle, OIB_UVERBS_OBJ_QP);
	ret = PTR_ERR_OR_ZERO(uqp);
	if (ret)
		goto out;
	ret = oib_uverbs_qp_use_held(uqp, user, attach);
	oib_uobj_put(&uqp->uobj);
out:
	up_read(&ufile->hw_rwsem);
	return ret;
}
EXPORT_SYMBOL(oib_uverbs_qp_use);

static bool oib_uverbs_qp_drop_user(struct oib_uverbs_qp_user *user)
{
	lockdep_assert_held(&oib_uverbs_qp_user_lock);
	if (!user->uqp)
		return false;
	user->release(user);
	user->uqp->user = NULL;
	user->uqp = NULL;
	return true;
}

bool oib_uverbs_qp_unuse(struct oib_uverbs_qp_user *user)
{
	bool had;

	mutex_lock(&oib_uverbs_qp_user_lock);
	had = oib_uverbs_qp_drop_user(user);
	mutex_unlock(&oib_uverbs_qp_user_lock);
	return had;
}
EXPORT_SYMBOL(oib_uverbs_qp_unuse);

/* The QP's destroy, first: its user lets go. */
void oib_uverbs_qp_release_user(struct oib_uverbs_qp *uqp)
{
	mutex_lock(&oib_uverbs_qp_user_lock);
	if (uqp->user)
		oib_uverbs_qp_drop_user(uqp->user);
	mutex_unlock(&oib_uverbs_qp_user_lock);
}
