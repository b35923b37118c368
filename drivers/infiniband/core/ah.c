// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address handles.  An AH is owned by its creator and holds a count on its PD until
 * oib_destroy_ah().  The attributes are checked against the port: a RoCE port needs a GRH whose
 * source GID index names a valid entry.
 */
#include <linux/module.h>
#include "core_priv.h"

int oib_check_ah_attr(struct oib_device *device, const struct oib_ah_attr *attr)
{
	union oib_gid sgid;
	int ret;

	if (!attr || !oib_port_valid(device, attr->port_num) || attr->sl > 15)
		return -EINVAL;
	if (oib_port_link_layer(device, attr->port_num) == OIB_LINK_LAYER_ETHERNET &&
	    !(attr->flags & OIB_AH_GRH))
		return -EINVAL;
	if (attr->flags & ~OIB_AH_GRH)
		return -EINVAL;
	if (attr->flags & OIB_AH_GRH) {
		if (attr->grh.flow_label > 0xfffff)
			return -EINVAL;
		ret = oib_query_gid(device, attr->port_num, attr->grh.sgid_index, &sgid, NULL);
		if (ret)
			return -EINVAL;
	}
	return 0;
}

struct oib_ah *oib_create_ah(struct oib_pd *pd, const struct oib_ah_attr *attr)
{
	struct oib_device *device;
	struct oib_ah *ah;
	int ret;

	if (IS_ERR_OR_NULL(pd))
		return ERR_PTR(-EINVAL);
	device = pd->device;
	ret = oib_check_ah_attr(device, attr);
	if (ret)
		return ERR_PTR(ret);

	ah = oib_alloc_object(device, OIB_OBJ_AH, device->ops->size_ah);
	if (IS_ERR(ah))
		return ah;
	ah->device = device;
	ah->pd = pd;
	ah->attr = *attr;
	ret = device->ops->create_ah(ah);
	if (ret) {
		oib_free_object(device, OIB_OBJ_AH, ah);
		return ERR_PTR(ret);
	}
	atomic_inc(&pd->usecnt);
	return ah;
}
EXPORT_SYMBOL(oib_create_ah);

int oib_destroy_ah(struct oib_ah *ah)
{
	struct oib_pd *pd;

	if (IS_ERR_OR_NULL(ah))
		return -EINVAL;
	pd = ah->pd;
	ah->device->ops->destroy_ah(ah);
	oib_free_object(pd->device, OIB_OBJ_AH, ah);
	atomic_dec(&pd->usecnt);
	return 0;
}
EXPORT_SYMBOL(oib_destroy_ah);
