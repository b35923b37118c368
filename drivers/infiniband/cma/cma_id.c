// SPDX-License-Identifier: GPL-2.0-only
/*
 * The id: its life (create, the table's steps, events to the owner, destroy) and the calls that
 * give it an address: bind, resolve address and route, listen.
 */
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <oib/names.h>
#include <net/net_namespace.h>
#include "cma_priv.h"
#include "cma_trace.h"

#define CMA_DEFAULT_BACKLOG	1024
#define CMA_MAX_TIMEOUT_MS	(60 * MSEC_PER_SEC)

/* Every id, for debugfs ("ids"). */
static LIST_HEAD(cma_all_ids);
static DEFINE_SPINLOCK(cma_all_lock);	/* cma_all_ids */

/* A new id, tracked among those bound to no device; its owner: @caller's module. */
struct cma_id_priv *cma_id_alloc(struct net *net, oib_cma_handler handler, void *context,
				 enum oib_cma_port_space ps, enum oib_qp_type qp_type,
				 unsigned long caller)
{
	struct cma_id_priv *priv = kzalloc(sizeof(*priv), GFP_KERNEL);

	if (!priv)
		return NULL;
	kref_init(&priv->ref);
	mutex_init(&priv->handler_mutex);
	mutex_init(&priv->lock);
	INIT_LIST_HEAD(&priv->dev_entry);
	INIT_LIST_HEAD(&priv->bind_entry);
	INIT_WORK(&priv->work, cma_resolve_work);
	priv->net = get_net(net);
	priv->state = CMA_IDLE;
	priv->id.event_handler = handler;
	priv->id.context = context;
	priv->id.ps = ps;
	priv->id.qp_type = qp_type;
	priv->qkey = ps == OIB_PS_UDP ? OIB_CMA_UDP_QKEY : 0;
	spin_lock(&cma_all_lock);
	list_add_tail(&priv->all_entry, &cma_all_ids);
	spin_unlock(&cma_all_lock);
	cma_res_track(priv, caller);
	return priv;
}

static void cma_id_release(struct kref *ref)
{
	struct cma_id_priv *priv = container_of(ref, struct cma_id_priv, ref);

	cma_res_release(priv);
	spin_lock(&cma_all_lock);
	list_del(&priv->all_entry);
	spin_unlock(&cma_all_lock);
	put_net(priv->net);
	mutex_destroy(&priv->lock);
	mutex_destroy(&priv->handler_mutex);
	kfree(priv);
}

static const char *cma_ps_name(enum oib_cma_port_space ps)
{
	return ps == OIB_PS_UDP ? "udp" : ps == OIB_PS_SDP ? "sdp" : "tcp";
}

static const char * const cma_role_names[] = {
	[CMA_ROLE_NONE] = "-", [CMA_ROLE_ACTIVE] = "active", [CMA_ROLE_PASSIVE] = "passive",
	[CMA_ROLE_LISTENER] = "listener",
};

/* debugfs "ids": one line per id: state, role, port space, addresses, device and port. */
int cma_ids_show(struct seq_file *m, void *unused)
{
	struct cma_id_priv *priv;

	spin_lock(&cma_all_lock);
	list_for_each_entry(priv, &cma_all_ids, all_entry)
		seq_printf(m, "%-14s %-8s %s %pISpc -> %pISpc dev %s port %u cm %08x\n",
			   cma_state_name(READ_ONCE(priv->state)),
			   oib_enum_name(cma_role_names, READ_ONCE(priv->role)),
			   cma_ps_name(priv->id.ps),
			   oib_cma_src_addr(&priv->id), oib_cma_dst_addr(&priv->id),
			   priv->id.device ? oib_dev_name(priv->id.device) : "*",
			   priv->id.port_num, READ_ONCE(priv->cm_local_id));
	spin_unlock(&cma_all_lock);
	return 0;
}

void cma_id_put(struct cma_id_priv *priv)
{
	kref_put(&priv->ref, cma_id_release);
}

/* Take the table's step for @event: -EINVAL if the table refuses it. */
int cma_step_locked(struct cma_id_priv *priv, enum cma_event event, struct cma_step *out)
{
	struct cma_step st = cma_fsm_step(priv->state, event);

	lockdep_assert_held(&priv->lock);
	if (!st.valid)
		return -EINVAL;
	trace_oib_cma_step(priv, priv->state, event, st.next, st.deliver);
	WRITE_ONCE(priv->state, st.next);
	if (out)
		*out = st;
	return 0;
}

/*
 * Take the step for @event and tell the owner what it says to, @ev filled but for its type.
 * Returns the handler's answer: non-zero means the caller destroys the id.  @subclass: lockdep's,
 * for a spawned id's first event, delivered under its listener's handler_mutex.
 */
int cma_deliver_nested(struct cma_id_priv *priv, enum cma_event event, struct oib_cma_event *ev,
		       unsigned int subclass)
{
	struct cma_step st;
	int ret;

	mutex_lock_nested(&priv->handler_mutex, subclass);
	mutex_lock(&priv->lock);
	ret = cma_step_locked(priv, event, &st);
	mutex_unlock(&priv->lock);
	if (!ret && st.deliver != CMA_NO_EVENT) {
		ev->event = st.deliver;
		WRITE_ONCE(priv->handler_task, current);
		ret = priv->id.event_handler(&priv->id, ev);
		WRITE_ONCE(priv->handler_task, NULL);
	} else {
		ret = 0;
	}
	mutex_unlock(&priv->handler_mutex);
	return ret;
}

int cma_deliver(struct cma_id_priv *priv, enum cma_event event, struct oib_cma_event *ev)
{
	return cma_deliver_nested(priv, event, ev, 0);
}

/* Give @priv its device and port, once (@priv->lock held; takes cma_lock). */
int cma_attach_dev(struct cma_id_priv *priv, struct oib_device *device, u32 port)
{
	struct cma_dev *cdev;
	int ret = -ENODEV;

	lockdep_assert_held(&priv->lock);
	mutex_lock(&cma_lock);
	list_for_each_entry(cdev, &cma_devices, entry) {
		if (cdev->device != device || cdev->removing)
			continue;
		list_add_tail(&priv->dev_entry, &cdev->ids);
		atomic_inc(&cdev->nids);
		cma_res_move_locked(priv, device);
		priv->cdev = cdev;
		priv->id.device = device;
		priv->id.port_num = port;
		ret = 0;
		break;
	}
	mutex_unlock(&cma_lock);
	return ret;
}

static void cma_detach_dev(struct cma_id_priv *priv)
{
	mutex_lock(&cma_lock);
	if (priv->cdev && !list_empty(&priv->dev_entry)) {
		list_del_init(&priv->dev_entry);
		cma_res_move_locked(priv, NULL);
		if (atomic_dec_and_test(&priv->cdev->nids))
			wake_up(&priv->cdev->idle);
	}
	mutex_unlock(&cma_lock);
}

/* The spawned id's request is answered (or the id goes): the listener may take another. */
void cma_release_listener(struct cma_id_priv *priv)
{
	struct cma_id_priv *l = xchg(&priv->listener, NULL);

	if (l) {
		atomic_dec(&l->pending);
		cma_id_put(l);
	}
}

/*
 * Everything but the step to DESTROYING: stop the work, the connection (unless oib_cm is
 * destroying it, from the handler that returned non-zero), the port, the device.  Then drop the
 * owner's reference.
 */
void cma_destroy(struct cma_id_priv *priv)
{
	int ret;

	mutex_lock(&priv->handler_mutex);
	mutex_lock(&priv->lock);
	ret = cma_step_locked(priv, CMA_EV_DESTROY, NULL);
	mutex_unlock(&priv->lock);
	mutex_unlock(&priv->handler_mutex);
	if (WARN_ON(ret))	/* destroyed twice */
		return;
	cma_res_untrack(priv);

	if (current_work() != &priv->work && cancel_work_sync(&priv->work))
		cma_id_put(priv);
	if (priv->cm_id && !priv->cm_destroyed)
		oib_cm_destroy_id(priv->cm_id);
	priv->cm_id = NULL;
	if (priv->iw_id && !priv->iw_destroyed)
		oib_iwcm_destroy_id(priv->iw_id);
	priv->iw_id = NULL;
	cma_release_listener(priv);
	cma_unbind(priv);
	cma_detach_dev(priv);
	cma_id_put(priv);
}

struct oib_cma_id *oib_cma_create_id(struct net *net, oib_cma_handler handler, void *context,
				     enum oib_cma_port_space ps, enum oib_qp_type qp_type)
{
	struct cma_id_priv *priv;

	if (!net || !handler)
		return ERR_PTR(-EINVAL);
	if (ps == OIB_PS_IB || ps == OIB_PS_IPOIB)
		return ERR_PTR(-EAFNOSUPPORT);
	if ((ps == OIB_PS_TCP && qp_type != OIB_QPT_RC && qp_type != OIB_QPT_UC) ||
	    (ps == OIB_PS_UDP && qp_type != OIB_QPT_UD) ||
	    (ps == OIB_PS_SDP && qp_type != OIB_QPT_RC) ||
	    (ps != OIB_PS_TCP && ps != OIB_PS_UDP && ps != OIB_PS_SDP))
		return ERR_PTR(-EINVAL);
	priv = cma_id_alloc(net, handler, context, ps, qp_type, _RET_IP_);
	return priv ? &priv->id : ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL(oib_cma_create_id);

void oib_cma_destroy_id(struct oib_cma_id *id)
{
	struct cma_id_priv *priv;

	if (!id)
		return;
	priv = to_cma(id);
	/*
	 * From its own handler (or a listener from its new id's) the id would wait for itself: the
	 * handler returns non-zero instead.
	 */
	if (WARN_ON(READ_ONCE(priv->handler_task) == current))
		return;
	cma_destroy(priv);
}
EXPORT_SYMBOL(oib_cma_destroy_id);

/* Bind to @addr (copied in); the step is the caller's.  Under @priv->lock. */
static int cma_bind_locked(struct cma_id_priv *priv, const struct sockaddr *addr)
{
	struct oib_device *device;
	u32 port;
	int ret;

	lockdep_assert_held(&priv->lock);
	if (priv->net != &init_net)
		return -EADDRNOTAVAIL;		/* no port lives in another namespace yet */
	memcpy(&priv->id.route.addr.src_addr, addr, cma_addr_len(addr));
	if (!cma_addr_any(addr)) {
		mutex_lock(&cma_lock);
		ret = cma_find_src(&device, &port, addr);
		mutex_unlock(&cma_lock);
		ret = ret ?: cma_attach_dev(priv, device, port);
		if (ret)
			goto err;
	}
	ret = cma_bind_port(priv, cma_addr_port(addr));
	if (ret)
		goto err;
	return 0;
err:
	cma_detach_dev(priv);
	priv->cdev = NULL;
	priv->id.device = NULL;
	priv->id.port_num = 0;
	memset(&priv->id.route.addr.src_addr, 0, sizeof(priv->id.route.addr.src_addr));
	return ret;
}

int oib_cma_bind_addr(struct oib_cma_id *id, const struct sockaddr *addr)
{
	struct cma_id_priv *priv;
	int ret;

	if (!id || cma_addr_valid(addr))
		return id ? cma_addr_valid(addr) : -EINVAL;
	priv = to_cma(id);
	mutex_lock(&priv->lock);
	ret = priv->state == CMA_IDLE ? cma_bind_locked(priv, addr) : -EINVAL;
	if (!ret)
		cma_step_locked(priv, CMA_EV_BIND, NULL);
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_cma_bind_addr);

static void cma_queue_work_locked(struct cma_id_priv *priv, enum cma_event what)
{
	priv->work_event = what;
	kref_get(&priv->ref);
	if (!queue_work(cma_wq, &priv->work))
		cma_id_put(priv);
}

int oib_cma_resolve_addr(struct oib_cma_id *id, const struct sockaddr *src,
			 const struct sockaddr *dst, unsigned long timeout_ms)
{
	struct sockaddr_storage any = {};
	struct cma_id_priv *priv;
	int ret;

	if (!id || cma_addr_valid(dst) || cma_addr_any(dst) ||
	    (src && (cma_addr_valid(src) || src->sa_family != dst->sa_family)) ||
	    !timeout_ms || timeout_ms > CMA_MAX_TIMEOUT_MS)
		return -EINVAL;
	priv = to_cma(id);
	any.ss_family = dst->sa_family;
	mutex_lock(&priv->lock);
	ret = 0;
	if (priv->state == CMA_IDLE) {
		ret = cma_bind_locked(priv, src ?: (struct sockaddr *)&any);
		if (!ret)
			cma_step_locked(priv, CMA_EV_BIND, NULL);
	} else if (oib_cma_src_addr(id)->sa_family != dst->sa_family) {
		ret = -EINVAL;
	}
	ret = ret ?: cma_step_locked(priv, CMA_EV_RESOLVE_ADDR, NULL);
	if (!ret) {
		memcpy(&id->route.addr.dst_addr, dst, cma_addr_len(dst));
		cma_queue_work_locked(priv, CMA_EV_RESOLVE_ADDR);
	}
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_cma_resolve_addr);

int oib_cma_resolve_route(struct oib_cma_id *id, unsigned long timeout_ms)
{
	struct cma_id_priv *priv;
	int ret;

	if (!id || !timeout_ms || timeout_ms > CMA_MAX_TIMEOUT_MS)
		return -EINVAL;
	priv = to_cma(id);
	mutex_lock(&priv->lock);
	ret = cma_step_locked(priv, CMA_EV_RESOLVE_ROUTE, NULL);
	if (!ret)
		cma_queue_work_locked(priv, CMA_EV_RESOLVE_ROUTE);
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_cma_resolve_route);

int oib_cma_listen(struct oib_cma_id *id, int backlog)
{
	struct sockaddr_in6 any = { .sin6_family = AF_INET6 };
	struct cma_id_priv *priv;
	int ret = 0;

	if (!id)
		return -EINVAL;
	priv = to_cma(id);
	mutex_lock(&priv->lock);
	if (priv->state == CMA_IDLE) {
		ret = cma_bind_locked(priv, (struct sockaddr *)&any);
		if (!ret)
			cma_step_locked(priv, CMA_EV_BIND, NULL);
	}
	if (!ret && (priv->state != CMA_ADDR_BOUND || priv->role != CMA_ROLE_NONE))
		ret = -EINVAL;
	if (!ret) {
		priv->backlog = backlog > 0 ? backlog : CMA_DEFAULT_BACKLOG;
		priv->role = CMA_ROLE_LISTENER;
	}
	mutex_unlock(&priv->lock);
	if (ret)
		return ret;
	/*
	 * Outside the id's lock: the shared oib_cm listener's destroy (cma_unbind()) waits for
	 * oib_cm handlers, which take ids' locks.  The role keeps a second listen out meanwhile.
	 */
	ret = cma_listen_add(priv);
	mutex_lock(&priv->lock);
	if (ret)
		priv->role = CMA_ROLE_NONE;
	else
		ret = cma_step_locked(priv, CMA_EV_LISTEN, NULL);
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_cma_listen);
