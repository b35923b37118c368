// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ids in oib_core's resource tracking (include/oib/restrack.h), for oib res show cm_id: each
 * id from its alloc to the start of its destroy, in the table of the device it is attached to,
 * or (a wildcard listener, an id not yet resolved) among those bound to no device, which a dump
 * lists after every device's and without one.  Its owner is the module whose call made it (a
 * spawned id: its listener's).  The snapshot reads the id's fields without its locks (a dump
 * runs under the table's spinlock): each is read once, the addresses may be caught mid-change.
 */
#include <oib/restrack.h>
#include "cma_priv.h"

void cma_res_track(struct cma_id_priv *priv, unsigned long caller)
{
	oib_res_ulp_add(NULL, OIB_RES_CM_ID, &priv->res, caller);
}

/* Into @device's table (NULL: the unbound ids'), unless destroyed; under cma_lock. */
void cma_res_move_locked(struct cma_id_priv *priv, struct oib_device *device)
{
	lockdep_assert_held(&cma_lock);
	if (priv->res_gone || priv->res_dev == device)
		return;
	oib_res_ulp_del(priv->res_dev, OIB_RES_CM_ID, &priv->res);
	priv->res_dev = device;
	oib_res_ulp_readd(device, OIB_RES_CM_ID, &priv->res);
}

/* Destroyed: no longer listed, whatever it is still attached to. */
void cma_res_untrack(struct cma_id_priv *priv)
{
	mutex_lock(&cma_lock);
	if (!priv->res_gone)
		oib_res_ulp_del(priv->res_dev, OIB_RES_CM_ID, &priv->res);
	priv->res_gone = true;
	mutex_unlock(&cma_lock);
}

/* The last reference: an id never destroyed (a spawned one that failed) is untracked here. */
void cma_res_release(struct cma_id_priv *priv)
{
	if (!priv->res_gone)
		oib_res_ulp_del(priv->res_dev, OIB_RES_CM_ID, &priv->res);
	priv->res_gone = true;
}

static void cma_res_snap(const struct oib_res *res, union oib_res_ulp_snap *out)
{
	struct cma_id_priv *priv = container_of(res, struct cma_id_priv, res);
	struct oib_res_cm_id_snap *c = &out->cm_id;

	c->state = cma_state_name(READ_ONCE(priv->state));
	c->ps = priv->id.ps;
	c->qp_type = priv->id.qp_type;
	c->port = READ_ONCE(priv->id.port_num);
	c->qpn = READ_ONCE(priv->qpn);
	c->listening = READ_ONCE(priv->role) == CMA_ROLE_LISTENER;
	memcpy(&c->src, oib_cma_src_addr(&priv->id), sizeof(c->src));
	memcpy(&c->dst, oib_cma_dst_addr(&priv->id), sizeof(c->dst));
}

static const struct oib_res_ulp_ops cma_res_ops = {
	.snap = cma_res_snap,
};

int cma_res_init(void)
{
	return oib_res_ulp_register(OIB_RES_CM_ID, &cma_res_ops);
}

/* Every id is gone (the module is unloading): no snapshot runs after this. */
void cma_res_exit(void)
{
	oib_res_ulp_unregister(OIB_RES_CM_ID);
}
