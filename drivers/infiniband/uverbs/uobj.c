// SPDX-License-Identifier: GPL-2.0-only
/*
 * The handle table: a context's objects by handle, in an allocating xarray (handles start at
 * 1).  The xarray's lock makes looking an object up and taking its use count one step, and the
 * destroyer's exclusive claim another: an object is either found and held, or being destroyed
 * (-EBUSY), or gone (-EINVAL).  A handle of another type, of another context or of an object
 * already destroyed is just a handle this table does not have.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include <oib/kunit/uverbs.h>
#include "uverbs.h"

typedef int (*oib_uobj_destroy_fn)(struct oib_uverbs_uobj *uobj, void *resp);

static const oib_uobj_destroy_fn oib_uobj_destroyers[OIB_UVERBS_OBJ_MAX] = {
	[OIB_UVERBS_OBJ_QP] = oib_uverbs_qp_destroy,
	[OIB_UVERBS_OBJ_SRQ] = oib_uverbs_srq_destroy,
	[OIB_UVERBS_OBJ_AH] = oib_uverbs_ah_destroy,
	[OIB_UVERBS_OBJ_MR] = oib_uverbs_mr_destroy,
	[OIB_UVERBS_OBJ_CQ] = oib_uverbs_cq_destroy,
	[OIB_UVERBS_OBJ_PD] = oib_uverbs_pd_destroy,
	[OIB_UVERBS_OBJ_XRCD] = oib_uverbs_xrcd_destroy,
};

/*
 * Enter a new object (its type's struct begins with @uobj) in the table; sets uobj->handle.  It
 * is not usable (-EBUSY) until oib_uobj_commit(); until then its creator may xa_erase() it.
 */
int oib_uobj_insert(struct oib_uverbs_file *ufile, struct oib_uverbs_uobj *uobj,
		    enum oib_uverbs_obj_type type, u64 user_handle)
{
	uobj->ufile = ufile;
	uobj->type = type;
	uobj->user_handle = user_handle;
	atomic_set(&uobj->usecnt, -1);
	return xa_alloc(&ufile->handles, &uobj->handle, uobj, xa_limit_32b, GFP_KERNEL_ACCOUNT);
}

void oib_uobj_commit(struct oib_uverbs_uobj *uobj)
{
	atomic_set_release(&uobj->usecnt, 0);
}

/* The object @handle of @type, held shared until oib_uobj_put(); or an ERR_PTR. */
void *oib_uobj_get(struct oib_uverbs_file *ufile, u32 handle, enum oib_uverbs_obj_type type)
{
	struct oib_uverbs_uobj *uobj;
	void *ret;

	xa_lock(&ufile->handles);
	uobj = xa_load(&ufile->handles, handle);
	if (!uobj || uobj->type != type)
		ret = ERR_PTR(-EINVAL);
	else if (!atomic_inc_unless_negative(&uobj->usecnt))
		ret = ERR_PTR(-EBUSY);
	else
		ret = uobj;
	xa_unlock(&ufile->handles);
	return ret;
}

void oib_uobj_put(struct oib_uverbs_uobj *uobj)
{
	atomic_dec(&uobj->usecnt);
}

/* Claim @uobj exclusively (it is in the table: the caller holds the xarray's lock). */
static bool oib_uobj_claim(struct oib_uverbs_uobj *uobj)
{
	return atomic_cmpxchg(&uobj->usecnt, 0, -1) == 0;
}

static int oib_uobj_destroy_claimed(struct oib_uverbs_file *ufile, struct oib_uverbs_uobj *uobj,
				    void *resp)
{
	int ret = oib_uobj_destroyers[uobj->type](uobj, resp);

	if (ret) {
		atomic_set(&uobj->usecnt, 0);	/* still there: release the claim */
		return ret;
	}
	xa_erase(&ufile->handles, uobj->handle);
	kfree(uobj);
	return 0;
}

/*
 * Destroy the object @handle of @type; the type's destroyer may fill @resp.  -EBUSY while it is
 * in use by an ioctl or has dependents.
 */
int oib_uobj_destroy(struct oib_uverbs_file *ufile, u32 handle, enum oib_uverbs_obj_type type,
		     void *resp)
{
	struct oib_uverbs_uobj *uobj;
	int ret = 0;

	xa_lock(&ufile->handles);
	uobj = xa_load(&ufile->handles, handle);
	if (!uobj || uobj->type != type)
		ret = -EINVAL;
	else if (!oib_uobj_claim(uobj))
		ret = -EBUSY;
	xa_unlock(&ufile->handles);
	if (ret)
		return ret;
	return oib_uobj_destroy_claimed(ufile, uobj, resp);
}

/*
 * Teardown (hw_rwsem held exclusive: no ioctl holds any object): every object, dependents
 * first.  A destroy that fails here would be a bug in the dependency order; it is reported and
 * the object left, rather than freed under its dependents.
 */
void oib_uobj_destroy_all(struct oib_uverbs_file *ufile)
{
	struct oib_uverbs_destroy_reported resp;
	struct oib_uverbs_uobj *uobj;
	enum oib_uverbs_obj_type type;
	unsigned long index;
	int ret;

	lockdep_assert_held_write(&ufile->hw_rwsem);
	for (type = 0; type < OIB_UVERBS_OBJ_MAX; type++) {
		xa_for_each(&ufile->handles, index, uobj) {
			if (uobj->type != type)
				continue;
			if (oib_uobj_claim(uobj))
				ret = oib_uobj_destroy_claimed(ufile, uobj, &resp);
			else
				ret = -EBUSY;
			if (ret)
				pr_err("oib_uverbs: teardown: object %u (type %d): %d\n",
				       uobj->handle, type, ret);
		}
	}
}

#if IS_ENABLED(CONFIG_KUNIT)
/* Hold the object @handle, whatever its type, as an ioctl using it would: 0 or -errno. */
int oib_uverbs_test_hold(struct oib_uverbs_file *ufile, u32 handle)
{
	struct oib_uverbs_uobj *uobj = xa_load(&ufile->handles, handle);

	if (!uobj)
		return -EINVAL;
	return PTR_ERR_OR_ZERO(oib_uobj_get(ufile, handle, uobj->type));
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_test_hold);

void oib_uverbs_test_release(struct oib_uverbs_file *ufile, u32 handle)
{
	oib_uobj_put(xa_load(&ufile->handles, handle));
}
EXPORT_SYMBOL_IF_KUNIT(oib_uverbs_test_release);
#endif /* CONFIG_KUNIT */
