// SPDX-License-Identifier: GPL-2.0-only
/*
 * Resource tracking for the upper modules (include/oib/restrack.h): each device's table of a
 * kind (device->res_ulp[]) and one table of the objects bound to no device, and the snapshot
 * callback the kind's owner registers.  A reader finds an object and calls the callback under the
 * table's lock, inside an RCU read-side section in which it read the callback: untracking takes
 * the lock (the object is alive while it is copied) and unregistering waits out the readers (the
 * callback's module is there while it runs).
 */
#include <kunit/visibility.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <oib/restrack.h>
#include "core_priv.h"
#include "restrack.h"

static const struct oib_res_ulp_ops __rcu *oib_res_ulp_ops[OIB_RES_ULP_MAX];
static DEFINE_MUTEX(oib_res_ulp_mutex);	/* registration: oib_res_ulp_ops[] */

/* The objects bound to no device, by kind (a wildcard listener, an id not yet resolved). */
static struct xarray oib_res_unbound[OIB_RES_ULP_MAX] = {
	[0 ... OIB_RES_ULP_MAX - 1] = XARRAY_INIT(oib_res_unbound, XA_FLAGS_ALLOC),
};

int oib_res_ulp_register(enum oib_res_ulp_kind kind, const struct oib_res_ulp_ops *ops)
{
	int ret = 0;

	if (kind >= OIB_RES_ULP_MAX || !ops || !ops->snap)
		return -EINVAL;
	mutex_lock(&oib_res_ulp_mutex);
	if (rcu_access_pointer(oib_res_ulp_ops[kind]))
		ret = -EBUSY;
	else
		rcu_assign_pointer(oib_res_ulp_ops[kind], ops);
	mutex_unlock(&oib_res_ulp_mutex);
	return ret;
}
EXPORT_SYMBOL(oib_res_ulp_register);

void oib_res_ulp_unregister(enum oib_res_ulp_kind kind)
{
	if (kind >= OIB_RES_ULP_MAX)
		return;
	mutex_lock(&oib_res_ulp_mutex);
	RCU_INIT_POINTER(oib_res_ulp_ops[kind], NULL);
	mutex_unlock(&oib_res_ulp_mutex);
	synchronize_rcu();
}
EXPORT_SYMBOL(oib_res_ulp_unregister);

static struct xarray *oib_res_ulp_table(struct oib_device *device, enum oib_res_ulp_kind kind)
{
	return device ? &device->res_ulp[kind] : &oib_res_unbound[kind];
}

void oib_res_ulp_readd(struct oib_device *device, enum oib_res_ulp_kind kind,
		       struct oib_res *res)
{
	if (WARN_ON_ONCE(kind >= OIB_RES_ULP_MAX) ||
	    xa_alloc(oib_res_ulp_table(device, kind), &res->id, res, xa_limit_31b, GFP_KERNEL))
		res->id = U32_MAX;
}
EXPORT_SYMBOL(oib_res_ulp_readd);

void oib_res_ulp_add(struct oib_device *device, enum oib_res_ulp_kind kind, struct oib_res *res,
		     unsigned long caller)
{
	res->pid = task_tgid_nr(current);
	get_task_comm(res->comm, current);
	res->caller = caller;
	oib_res_ulp_readd(device, kind, res);
}
EXPORT_SYMBOL(oib_res_ulp_add);

void oib_res_ulp_del(struct oib_device *device, enum oib_res_ulp_kind kind, struct oib_res *res)
{
	if (kind < OIB_RES_ULP_MAX && res->id != U32_MAX)
		xa_erase(oib_res_ulp_table(device, kind), res->id);
	res->id = U32_MAX;
}
EXPORT_SYMBOL(oib_res_ulp_del);

/*
 * The tracked object of @kind with the lowest id at or above *@id, of @device's table (NULL: the
 * unbound objects'): true, its owner in @res and the rest in @s.  False too when the kind has no
 * owner registered.
 */
bool oib_res_ulp_next(struct oib_device *device, enum oib_res_ulp_kind kind, unsigned long *id,
		      struct oib_res *res, union oib_res_ulp_snap *s)
{
	struct xarray *xa = oib_res_ulp_table(device, kind);
	const struct oib_res_ulp_ops *ops;
	struct oib_res *found = NULL;

	memset(s, 0, sizeof(*s));
	rcu_read_lock();
	ops = rcu_dereference(oib_res_ulp_ops[kind]);
	if (ops) {
		xa_lock(xa);
		found = xa_find(xa, id, ULONG_MAX, XA_PRESENT);
		if (found) {
			*res = *found;
			ops->snap(found, s);
		}
		xa_unlock(xa);
	}
	rcu_read_unlock();
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(oib_res_ulp_next);
