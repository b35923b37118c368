// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protection domains.  A PD is owned by its creator; pd->usecnt counts the QPs, SRQs, MRs and AHs
 * created on it, and oib_dealloc_pd() refuses with -EBUSY until they are gone.
 */
#include <linux/module.h>
#include "core_priv.h"

struct oib_pd *oib_alloc_pd(struct oib_device *device)
{
	struct oib_pd *pd;
	int ret;

	if (!device)
		return ERR_PTR(-EINVAL);
	if (READ_ONCE(device->reg_state) != OIB_DEV_REGISTERED)
		return ERR_PTR(-ENODEV);

	pd = oib_alloc_object(device, OIB_OBJ_PD, device->ops->size_pd);
	if (IS_ERR(pd))
		return pd;
	pd->device = device;
	atomic_set(&pd->usecnt, 0);

	ret = device->ops->alloc_pd(pd);
	if (ret) {
		oib_free_object(device, OIB_OBJ_PD, pd);
		return ERR_PTR(ret);
	}
	oib_res_add(device, OIB_OBJ_PD, &pd->res, _RET_IP_);
	return pd;
}
EXPORT_SYMBOL(oib_alloc_pd);

int oib_dealloc_pd(struct oib_pd *pd)
{
	if (IS_ERR_OR_NULL(pd))
		return -EINVAL;
	if (atomic_read(&pd->usecnt))
		return -EBUSY;
	oib_res_del(pd->device, OIB_OBJ_PD, &pd->res);
	pd->device->ops->dealloc_pd(pd);
	oib_free_object(pd->device, OIB_OBJ_PD, pd);
	return 0;
}
EXPORT_SYMBOL(oib_dealloc_pd);
