// SPDX-License-Identifier: GPL-2.0-only
/*
 * The id and the owner's calls.  Each checks its arguments, takes the table's step under the id's
 * lock and makes the provider's call; a call that fails takes its step back.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/slab.h>
#include "iwcm_priv.h"

struct iwcm_id_priv *iwcm_id_alloc(struct oib_device *device, oib_iwcm_handler handler,
				   void *context)
{
	struct iwcm_id_priv *priv = kzalloc(sizeof(*priv), GFP_KERNEL);

	if (!priv)
		return NULL;
	priv->id.device = device;
	priv->id.handler = handler;
	priv->id.context = context;
	priv->iw.device = device;
	priv->iw.event_handler = iwcm_provider_event;
	kref_init(&priv->ref);
	mutex_init(&priv->lock);
	mutex_init(&priv->listen_mutex);
	priv->state = IWCM_IDLE;
	spin_lock_init(&priv->events_lock);
	INIT_LIST_HEAD(&priv->events);
	INIT_WORK(&priv->work, iwcm_event_work);
	return priv;
}

static void iwcm_id_free(struct kref *ref)
{
	struct iwcm_id_priv *priv = container_of(ref, struct iwcm_id_priv, ref);

	WARN_ON(!list_empty(&priv->events));
	if (priv->listener)
		iwcm_id_put(priv->listener);
	mutex_destroy(&priv->listen_mutex);
	mutex_destroy(&priv->lock);
	kfree(priv);
}

void iwcm_id_put(struct iwcm_id_priv *priv)
{
	kref_put(&priv->ref, iwcm_id_free);
}

int iwcm_step_locked(struct iwcm_id_priv *priv, enum iwcm_event event, struct iwcm_step *out)
{
	struct iwcm_step st;

	lockdep_assert_held(&priv->lock);
	st = iwcm_fsm_step(priv->state, event);
	if (!st.valid)
		return -EINVAL;
	priv->state = st.next;
	if (out)
		*out = st;
	return 0;
}

static void iwcm_provider_get_locked(struct iwcm_id_priv *priv)
{
	lockdep_assert_held(&priv->lock);
	kref_get(&priv->ref);
	priv->provider_ref = true;
}

/* The provider is done with the id: its last event came, or its listener stopped. */
void iwcm_provider_put_locked(struct iwcm_id_priv *priv)
{
	lockdep_assert_held(&priv->lock);
	if (!priv->provider_ref)
		return;
	priv->provider_ref = false;
	/* The caller holds another reference: the owner's, or a queued event's. */
	WARN_ON(kref_put(&priv->ref, iwcm_id_free));
}

/* Moving the QP to ERR closes the connection it carries (include/oib/iw_cm.h). */
void iwcm_qp_error_locked(struct iwcm_id_priv *priv)
{
	struct oib_qp_attr attr = { .qp_state = OIB_QPS_ERR };

	lockdep_assert_held(&priv->lock);
	if (priv->qp)
		oib_modify_qp(priv->qp, &attr, OIB_QP_STATE);
}

struct oib_iwcm_id *oib_iwcm_create_id(struct oib_device *device, oib_iwcm_handler handler,
				       void *context)
{
	struct iwcm_id_priv *priv;

	if (!device || !handler || device->node_type != OIB_NODE_RNIC)
		return ERR_PTR(-EINVAL);
	priv = iwcm_id_alloc(device, handler, context);
	return priv ? &priv->id : ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL(oib_iwcm_create_id);

/* Tell the provider what the state asks for, then no handler runs again. */
void iwcm_destroy(struct iwcm_id_priv *priv)
{
	const struct oib_device_ops *ops = priv->id.device->ops;
	enum iwcm_state was;

	mutex_lock(&priv->listen_mutex);	/* no request of a listener is being delivered */
	mutex_lock(&priv->lock);
	was = priv->state;
	iwcm_step_locked(priv, IWCM_EV_DESTROY, NULL);
	switch (was) {
	case IWCM_LISTEN:
		ops->iw_destroy_listen(&priv->iw);
		iwcm_provider_put_locked(priv);
		break;
	case IWCM_CONN_RECV:
		if (!priv->accepted) {
			ops->iw_reject(&priv->iw, NULL, 0);
			break;
		}
		fallthrough;
	case IWCM_CONN_SENT:
	case IWCM_ESTABLISHED:
	case IWCM_CLOSING:
		iwcm_qp_error_locked(priv);
		break;
	default:
		break;
	}
	priv->qp = NULL;
	mutex_unlock(&priv->lock);
	mutex_unlock(&priv->listen_mutex);
	if (current_work() != &priv->work)
		flush_work(&priv->work);
	iwcm_id_put(priv);
}

void oib_iwcm_destroy_id(struct oib_iwcm_id *id)
{
	struct iwcm_id_priv *priv;

	if (!id)
		return;
	priv = to_iwcm(id);
	if (WARN_ON_ONCE(READ_ONCE(priv->handler_task) == current))
		return;		/* from its own handler: return non-zero instead */
	iwcm_destroy(priv);
}
EXPORT_SYMBOL(oib_iwcm_destroy_id);

static bool iwcm_addr_ok(const struct sockaddr *sa)
{
	return sa && (sa->sa_family == AF_INET || sa->sa_family == AF_INET6);
}

static size_t iwcm_addr_len(const struct sockaddr *sa)
{
	return sa->sa_family == AF_INET ? sizeof(struct sockaddr_in) :
					  sizeof(struct sockaddr_in6);
}

static void iwcm_set_addr(struct sockaddr_storage *to, const struct sockaddr *sa)
{
	memset(to, 0, sizeof(*to));
	memcpy(to, sa, iwcm_addr_len(sa));
}

int oib_iwcm_listen(struct oib_iwcm_id *id, const struct sockaddr *addr, int backlog)
{
	struct iwcm_id_priv *priv;
	int ret;

	if (!id || !iwcm_addr_ok(addr))
		return -EINVAL;
	priv = to_iwcm(id);
	mutex_lock(&priv->lock);
	ret = iwcm_step_locked(priv, IWCM_EV_LISTEN, NULL);
	if (ret)
		goto out;
	iwcm_set_addr(&id->local_addr, addr);
	priv->iw.local_addr = id->local_addr;
	iwcm_provider_get_locked(priv);
	ret = id->device->ops->iw_create_listen(&priv->iw, backlog > 0 ? backlog : 128);
	if (ret) {
		iwcm_provider_put_locked(priv);
		priv->state = IWCM_IDLE;	/* the step is taken back */
	}
out:
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_iwcm_listen);

static bool iwcm_param_ok(struct iwcm_id_priv *priv, const struct oib_iw_cm_conn_param *p)
{
	return p && p->qp && p->qp->device == priv->id.device && p->qp->qp_type == OIB_QPT_RC &&
	       p->private_data_len <= OIB_IW_CM_PRIVATE_DATA_SIZE &&
	       (p->private_data || !p->private_data_len);
}

int oib_iwcm_connect(struct oib_iwcm_id *id, const struct sockaddr *src,
		     const struct sockaddr *dst, const struct oib_iw_cm_conn_param *param)
{
	struct iwcm_id_priv *priv;
	int ret;

	if (!id || !iwcm_addr_ok(src) || !iwcm_addr_ok(dst) || src->sa_family != dst->sa_family)
		return -EINVAL;
	priv = to_iwcm(id);
	if (!iwcm_param_ok(priv, param))
		return -EINVAL;
	mutex_lock(&priv->lock);
	ret = iwcm_step_locked(priv, IWCM_EV_CONNECT, NULL);
	if (ret)
		goto out;
	iwcm_set_addr(&id->local_addr, src);
	iwcm_set_addr(&id->remote_addr, dst);
	priv->iw.local_addr = id->local_addr;
	priv->iw.remote_addr = id->remote_addr;
	priv->qp = param->qp;
	iwcm_provider_get_locked(priv);
	ret = id->device->ops->iw_connect(&priv->iw, param);
	if (ret) {
		iwcm_provider_put_locked(priv);
		priv->qp = NULL;
		priv->state = IWCM_IDLE;
	}
out:
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_iwcm_connect);

int oib_iwcm_accept(struct oib_iwcm_id *id, const struct oib_iw_cm_conn_param *param)
{
	struct iwcm_id_priv *priv;
	int ret;

	if (!id || !iwcm_param_ok(to_iwcm(id), param))
		return -EINVAL;
	priv = to_iwcm(id);
	mutex_lock(&priv->lock);
	ret = priv->accepted ? -EINVAL : iwcm_step_locked(priv, IWCM_EV_ACCEPT, NULL);
	if (ret)
		goto out;
	priv->qp = param->qp;
	iwcm_provider_get_locked(priv);
	ret = id->device->ops->iw_accept(&priv->iw, param);
	if (ret) {
		/* The provider's connection is gone with the failed accept: nothing to answer. */
		iwcm_provider_put_locked(priv);
		priv->qp = NULL;
		priv->state = IWCM_IDLE;
		goto out;
	}
	priv->accepted = true;
out:
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_iwcm_accept);

int oib_iwcm_reject(struct oib_iwcm_id *id, const void *private_data, u8 private_data_len)
{
	struct iwcm_id_priv *priv;
	int ret;

	if (!id || private_data_len > OIB_IW_CM_PRIVATE_DATA_SIZE ||
	    (!private_data && private_data_len))
		return -EINVAL;
	priv = to_iwcm(id);
	mutex_lock(&priv->lock);
	ret = priv->accepted ? -EINVAL : iwcm_step_locked(priv, IWCM_EV_REJECT, NULL);
	if (!ret)
		ret = id->device->ops->iw_reject(&priv->iw, private_data, private_data_len);
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_iwcm_reject);

int oib_iwcm_disconnect(struct oib_iwcm_id *id)
{
	struct iwcm_id_priv *priv;
	int ret;

	if (!id)
		return -EINVAL;
	priv = to_iwcm(id);
	mutex_lock(&priv->lock);
	ret = -EINVAL;
	if (priv->state != IWCM_CONN_RECV || priv->accepted)
		ret = iwcm_step_locked(priv, IWCM_EV_DISCONNECT, NULL);
	if (!ret)
		iwcm_qp_error_locked(priv);
	mutex_unlock(&priv->lock);
	return ret;
}
EXPORT_SYMBOL(oib_iwcm_disconnect);

void oib_iwcm_release_qp(struct oib_iwcm_id *id)
{
	struct iwcm_id_priv *priv;

	if (!id)
		return;
	priv = to_iwcm(id);
	mutex_lock(&priv->lock);
	iwcm_qp_error_locked(priv);
	priv->qp = NULL;
	mutex_unlock(&priv->lock);
}
EXPORT_SYMBOL(oib_iwcm_release_qp);
