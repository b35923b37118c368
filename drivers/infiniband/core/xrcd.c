// SPDX-License-Identifier: GPL-2.0-only
/*
 * XRC domains.  The lifetime story is at struct oib_xrcd (<oib/verbs.h>): holders (users), the
 * owners' XRC SRQs and target QPs (usecnt, which refuse the last holder's put with -EBUSY), the
 * domain's kernel-owned receive QPs (xrc_rcv.c), and the memory (memref), freed when neither
 * holders nor kernel-owned QPs are left.
 */
#include <linux/module.h>
#include "core_priv.h"

struct oib_xrcd *oib_alloc_xrcd(struct oib_device *device)
{
	struct oib_xrcd *xrcd;

	if (!device)
		return ERR_PTR(-EINVAL);
	if (READ_ONCE(device->reg_state) != OIB_DEV_REGISTERED)
		return ERR_PTR(-ENODEV);
	if (!(device->attrs.device_cap_flags & OIB_DEVICE_XRC))
		return ERR_PTR(-EOPNOTSUPP);

	xrcd = oib_alloc_object(device, OIB_OBJ_XRCD, sizeof(*xrcd));
	if (IS_ERR(xrcd))
		return xrcd;
	xrcd->device = device;
	refcount_set(&xrcd->users, 1);
	refcount_set(&xrcd->memref, 1);
	atomic_set(&xrcd->usecnt, 0);
	mutex_init(&xrcd->lock);
	xa_init(&xrcd->rcv_qps);
	xa_init(&xrcd->tgt_qps);
	atomic_set(&xrcd->rcv_events, 0);
	return xrcd;
}
EXPORT_SYMBOL(oib_alloc_xrcd);

void oib_xrcd_get(struct oib_xrcd *xrcd)
{
	refcount_inc(&xrcd->users);
}
EXPORT_SYMBOL(oib_xrcd_get);

/* The memory's reference: the holders' one, or a kernel-owned QP's.  Never under xrcd->lock. */
void oib_xrcd_mem_put(struct oib_xrcd *xrcd)
{
	if (!refcount_dec_and_test(&xrcd->memref))
		return;
	WARN_ON(!xa_empty(&xrcd->rcv_qps) || !xa_empty(&xrcd->tgt_qps));
	xa_destroy(&xrcd->rcv_qps);
	xa_destroy(&xrcd->tgt_qps);
	mutex_destroy(&xrcd->lock);
	oib_free_object(xrcd->device, OIB_OBJ_XRCD, xrcd);
}

/*
 * Drop a holder's reference.  The last one is refused with -EBUSY while owners' XRC SRQs or
 * target QPs use the domain; otherwise it drops the domain's reference on each of its
 * kernel-owned receive QPs (destroying those nobody registered) and then the holders' hold on
 * the memory.  Process context.
 */
int oib_xrcd_put(struct oib_xrcd *xrcd)
{
	if (IS_ERR_OR_NULL(xrcd))
		return -EINVAL;
	mutex_lock(&xrcd->lock);
	if (refcount_read(&xrcd->users) == 1 && atomic_read(&xrcd->usecnt)) {
		mutex_unlock(&xrcd->lock);
		return -EBUSY;
	}
	if (!refcount_dec_and_test(&xrcd->users)) {
		mutex_unlock(&xrcd->lock);
		return 0;
	}
	oib_xrc_rcv_close_locked(xrcd);
	mutex_unlock(&xrcd->lock);
	oib_xrcd_mem_put(xrcd);
	return 0;
}
EXPORT_SYMBOL(oib_xrcd_put);

int oib_dealloc_xrcd(struct oib_xrcd *xrcd)
{
	return oib_xrcd_put(xrcd);
}
EXPORT_SYMBOL(oib_dealloc_xrcd);
