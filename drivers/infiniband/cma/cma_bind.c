// SPDX-License-Identifier: GPL-2.0-only
/*
 * Port spaces: which ids hold which port, and the listeners on it.  Every port of a port space
 * with at least one id bound has a struct cma_bind (an xarray per port space, keyed by port).
 * Two ids share a port only with addresses that cannot overlap (two different specific
 * addresses, or an IPv4 and an IPv6 one); a wildcard overlaps every address of its family, the
 * IPv6 wildcard also every IPv4 one.  The listeners of a port share one oib_cm listener on every
 * device for the port's service ID, and (TCP) one oib_iwcm listener on the wildcard address
 * of each RNIC; a request goes to the listener that matches its destination.
 */
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include "cma_priv.h"

#define CMA_EPHEMERAL_LOW	32768
#define CMA_EPHEMERAL_HIGH	60999

static DEFINE_XARRAY(cma_tcp_ps);	/* port -> struct cma_bind, under cma_lock */
static DEFINE_XARRAY(cma_udp_ps);
static DEFINE_XARRAY(cma_sdp_ps);
/* Serialises making and unmaking the shared listeners, and their lists; outside cma_lock. */
static DEFINE_MUTEX(cma_listen_mutex);

static struct xarray *cma_ps_xa(enum oib_cma_port_space ps)
{
	switch (ps) {
	case OIB_PS_TCP:
		return &cma_tcp_ps;
	case OIB_PS_UDP:
		return &cma_udp_ps;
	case OIB_PS_SDP:
		return &cma_sdp_ps;
	default:
		return NULL;
	}
}

static bool cma_addr_overlap(const struct sockaddr *a, const struct sockaddr *b)
{
	bool a_any = cma_addr_any(a), b_any = cma_addr_any(b);

	if ((a_any && a->sa_family == AF_INET6) || (b_any && b->sa_family == AF_INET6))
		return true;
	if (a->sa_family != b->sa_family)
		return false;
	return a_any || b_any || cma_addr_equal(a, b);
}

static int cma_bind_check_locked(struct cma_bind *bind, struct cma_id_priv *priv)
{
	struct cma_id_priv *cur;

	list_for_each_entry(cur, &bind->owners, bind_entry)
		if (cma_addr_overlap(oib_cma_src_addr(&cur->id), oib_cma_src_addr(&priv->id)))
			return -EADDRINUSE;
	return 0;
}

static int cma_pick_port_locked(struct xarray *xa, u16 *port)
{
	u32 range = CMA_EPHEMERAL_HIGH - CMA_EPHEMERAL_LOW + 1;
	u32 start = get_random_u32_below(range), i;

	for (i = 0; i < range; i++) {
		u16 p = CMA_EPHEMERAL_LOW + (start + i) % range;

		if (!xa_load(xa, p)) {
			*port = p;
			return 0;
		}
	}
	return -EADDRNOTAVAIL;
}

/* Bind @priv (its source address set) to @port of its port space, 0: a free one. */
int cma_bind_port(struct cma_id_priv *priv, u16 port)
{
	struct xarray *xa = cma_ps_xa(priv->id.ps);
	struct cma_bind *bind;
	int ret = 0;

	mutex_lock(&cma_lock);
	if (!port)
		ret = cma_pick_port_locked(xa, &port);
	if (ret)
		goto out;
	bind = xa_load(xa, port);
	if (bind) {
		ret = cma_bind_check_locked(bind, priv);
		if (ret)
			goto out;
	} else {
		bind = kzalloc(sizeof(*bind), GFP_KERNEL);
		if (!bind) {
			ret = -ENOMEM;
			goto out;
		}
		bind->ps = priv->id.ps;
		bind->port = port;
		INIT_LIST_HEAD(&bind->owners);
		INIT_LIST_HEAD(&bind->iw_listens);
		ret = xa_err(xa_store(xa, port, bind, GFP_KERNEL));
		if (ret) {
			kfree(bind);
			goto out;
		}
	}
	list_add_tail(&priv->bind_entry, &bind->owners);
	priv->bind = bind;
	cma_addr_set_port(oib_cma_src_addr(&priv->id), port);
out:
	mutex_unlock(&cma_lock);
	return ret;
}

/* ---- The RNIC listeners of a port (TCP): one oib_iwcm id per RNIC ---- */

struct cma_iw_listen {
	struct list_head entry;		/* cma_bind.iw_listens, under cma_listen_mutex */
	struct oib_iwcm_id *iw;
};

static bool cma_iw_listens_on(struct cma_bind *bind, struct oib_device *device)
{
	struct cma_iw_listen *l;

	lockdep_assert_held(&cma_listen_mutex);
	list_for_each_entry(l, &bind->iw_listens, entry)
		if (l->iw->device == device)
			return true;
	return false;
}

/* Listen on the wildcard address of @bind's port on @device (an RNIC). */
static int cma_iw_listen_dev(struct cma_bind *bind, struct oib_device *device)
{
	struct sockaddr_in6 any = { .sin6_family = AF_INET6, .sin6_port = htons(bind->port) };
	struct cma_iw_listen *l;
	int ret;

	lockdep_assert_held(&cma_listen_mutex);
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->iw = oib_iwcm_create_id(device, cma_iw_handler, NULL);
	ret = PTR_ERR_OR_ZERO(l->iw);
	if (!ret)
		ret = oib_iwcm_listen(l->iw, (struct sockaddr *)&any, 0);
	if (ret) {
		if (!IS_ERR(l->iw))
			oib_iwcm_destroy_id(l->iw);
		kfree(l);
		return ret;
	}
	list_add_tail(&l->entry, &bind->iw_listens);
	return 0;
}

/* Stop the RNIC listeners of @listens on @device (NULL: all); outside cma_lock. */
static void cma_iw_unlisten(struct list_head *listens, struct oib_device *device)
{
	struct cma_iw_listen *l, *next;

	lockdep_assert_held(&cma_listen_mutex);
	list_for_each_entry_safe(l, next, listens, entry) {
		if (device && l->iw->device != device)
			continue;
		list_del(&l->entry);
		oib_iwcm_destroy_id(l->iw);
		kfree(l);
	}
}

/* @bind's RNIC listeners on every RNIC the CMA has (the first listener of a TCP port). */
static int cma_iw_listen_all(struct cma_bind *bind)
{
	struct oib_device *devices[16];
	struct cma_dev *cdev;
	int i, n, ret = 0;
	bool more = true;

	lockdep_assert_held(&cma_listen_mutex);
	/* In rounds, outside cma_lock: a listener is never made under it. */
	while (more && !ret) {
		n = 0;
		more = false;
		mutex_lock(&cma_lock);
		list_for_each_entry(cdev, &cma_devices, entry) {
			if (cdev->removing || cma_over_ib_cm(cdev->device) ||
			    cma_iw_listens_on(bind, cdev->device))
				continue;
			if (n == ARRAY_SIZE(devices)) {
				more = true;
				break;
			}
			devices[n++] = cdev->device;
		}
		mutex_unlock(&cma_lock);
		for (i = 0; i < n && !ret; i++)
			ret = cma_iw_listen_dev(bind, devices[i]);
	}
	if (ret)
		cma_iw_unlisten(&bind->iw_listens, NULL);
	return ret;
}

/*
 * Leave the port (and stop listening on it); the last one out frees it.  Only a listener takes
 * cma_listen_mutex: other ids may be destroyed from oib_cm's handlers, and a listener's destroy
 * waits for those (oib_cm_destroy_id() of the shared listener).
 */
void cma_unbind(struct cma_id_priv *priv)
{
	struct cma_bind *bind = priv->bind;	/* set by the owner's calls, before destroy */
	/* a listener's role stays only if cma_listen_add() counted it */
	bool listener = priv->role == CMA_ROLE_LISTENER;
	struct oib_cm_id *cm_listen = NULL;
	LIST_HEAD(iw_listens);

	if (!bind)
		return;
	if (listener)
		mutex_lock(&cma_listen_mutex);
	mutex_lock(&cma_lock);
	list_del(&priv->bind_entry);
	priv->bind = NULL;
	if (listener && !--bind->listeners) {
		swap(cm_listen, bind->cm_listen);
		list_splice_init(&bind->iw_listens, &iw_listens);
	}
	if (list_empty(&bind->owners)) {
		xa_erase(cma_ps_xa(bind->ps), bind->port);
		kfree(bind);
	}
	mutex_unlock(&cma_lock);
	if (cm_listen)		/* outside cma_lock: REQ handlers take it */
		oib_cm_destroy_id(cm_listen);
	if (listener) {
		cma_iw_unlisten(&iw_listens, NULL);	/* moved out: @bind may be gone */
		mutex_unlock(&cma_listen_mutex);
	}
}

/* @priv (bound, in LISTEN) joins its port's listeners; the first makes the oib_cm listener. */
int cma_listen_add(struct cma_id_priv *priv)
{
	struct cma_bind *bind = priv->bind;
	struct oib_cm_id *cm;
	int ret = 0;

	mutex_lock(&cma_listen_mutex);
	if (!bind->cm_listen) {
		cm = oib_cm_create_id(NULL, cma_cm_handler, NULL);
		if (IS_ERR(cm)) {
			ret = PTR_ERR(cm);
			goto out;
		}
		ret = oib_cm_listen(cm, cma_service_id(bind->ps, bind->port), 0);
		if (ret) {
			oib_cm_destroy_id(cm);
			goto out;
		}
		mutex_lock(&cma_lock);
		bind->cm_listen = cm;
		mutex_unlock(&cma_lock);
	}
	if (bind->ps == OIB_PS_TCP && !bind->listeners)
		ret = cma_iw_listen_all(bind);
	if (ret) {
		if (!bind->listeners) {
			cm = NULL;
			mutex_lock(&cma_lock);
			swap(cm, bind->cm_listen);
			mutex_unlock(&cma_lock);
			oib_cm_destroy_id(cm);
		}
		goto out;
	}
	mutex_lock(&cma_lock);
	bind->listeners++;
	mutex_unlock(&cma_lock);
out:
	mutex_unlock(&cma_listen_mutex);
	return ret;
}

/*
 * The listener, with a reference, for a request to @service_id whose header names @dst, that
 * came in on @device's @port (which must have @dst: B3 of the wire note); NULL if none.  An
 * exact address wins over a wildcard.
 */
struct cma_id_priv *cma_listen_match(u64 service_id, const struct sockaddr *dst,
				     struct oib_device *device, u32 port)
{
	struct cma_id_priv *cur, *best = NULL;
	struct cma_bind *bind;
	struct xarray *xa;
	union oib_gid gid;
	u32 gid_port;

	xa = service_id >> 32 ? NULL : cma_ps_xa(service_id >> 16);
	cma_addr_to_gid(dst, &gid);
	if (!xa || oib_find_gid(device, &gid, &gid_port, NULL) || gid_port != port)
		return NULL;
	mutex_lock(&cma_lock);
	bind = xa_load(xa, service_id & 0xffff);
	if (!bind)
		goto out;
	list_for_each_entry(cur, &bind->owners, bind_entry) {
		const struct sockaddr *a = oib_cma_src_addr(&cur->id);

		if (cur->role != CMA_ROLE_LISTENER || READ_ONCE(cur->state) != CMA_LISTEN ||
		    !cma_addr_overlap(a, dst) ||
		    (cur->id.device && cur->id.device != device))
			continue;
		if (!best || !cma_addr_any(a))
			best = cur;
	}
	if (best)
		kref_get(&best->ref);
out:
	mutex_unlock(&cma_lock);
	return best;
}

/*
 * The TCP binds with listeners, one at a time (@port after the last one seen), for a device
 * coming or going.  A bind with listeners stays while cma_listen_mutex is held: a listener
 * leaves under it.
 */
static struct cma_bind *cma_next_listening(unsigned long *port)
{
	struct cma_bind *bind;

	lockdep_assert_held(&cma_listen_mutex);
	mutex_lock(&cma_lock);
	xa_for_each_start(&cma_tcp_ps, *port, bind, *port)
		if (bind->listeners)
			break;
	mutex_unlock(&cma_lock);
	if (bind)
		(*port)++;
	return bind;
}

/* An RNIC came: every TCP port with listeners listens on it too (failures are logged). */
void cma_iw_add_device(struct oib_device *device)
{
	unsigned long port = 0;
	struct cma_bind *bind;
	int ret;

	mutex_lock(&cma_listen_mutex);
	while ((bind = cma_next_listening(&port))) {
		ret = cma_iw_listen_dev(bind, device);
		if (ret)
			pr_warn("oib_cma: %s: no listener for TCP port %u: %d\n",
				oib_dev_name(device), bind->port, ret);
	}
	mutex_unlock(&cma_listen_mutex);
}

void cma_iw_remove_device(struct oib_device *device)
{
	unsigned long port = 0;
	struct cma_bind *bind;

	mutex_lock(&cma_listen_mutex);
	while ((bind = cma_next_listening(&port)))
		cma_iw_unlisten(&bind->iw_listens, device);
	mutex_unlock(&cma_listen_mutex);
}

void cma_bind_exit(void)
{
	WARN_ON(!xa_empty(&cma_tcp_ps) || !xa_empty(&cma_udp_ps) || !xa_empty(&cma_sdp_ps));
}
