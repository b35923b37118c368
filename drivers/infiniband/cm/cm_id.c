// SPDX-License-Identifier: GPL-2.0-only
/*
 * cm_ids: their lifetime, and the tables that find them.
 *
 * - Local comm IDs: an index from an allocating xarray, handed out cyclically (so a freed index
 *   comes back only after the other 2^31 - 1 were used), XORed with a value chosen at module
 *   load.  Indexes stay below 2^31 and the value has bit 31 set, so no ID is 0, the wire's "no
 *   ID" in a REJ.
 * - Remote comm IDs: an rbtree keyed by (remote comm ID, remote GID), for the duplicate REQs
 *   the MAD glue must recognise; remote QPs: one keyed by (remote CA GUID, remote QPN), for the
 *   REQs that name the QP of a connection we believe exists (stale).
 * - Listeners: a list of (device or every device, service ID, mask); a device's own listener is
 *   preferred to one on every device.
 *
 * Destroy is synchronous: it marks the id dead under the handler mutex (so it waits for a
 * handler that is running and no handler starts later), takes it out of every table, drops the
 * owner's reference and waits for the lookups' references to go.
 */
#include <linux/bits.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>
#include <oib/kunit/cm.h>
#include "cm_id.h"

#define CM_ID_INDEX_LIMIT	XA_LIMIT(1, S32_MAX)

static DEFINE_XARRAY_ALLOC(cm_ids);	/* index -> cm_id_priv; its own lock */
static u32 cm_ids_next;			/* the cyclic cursor, under the xarray's lock */
static u32 cm_id_xor;			/* set at module load, bit 31 set */

/* Protects cm_remote_ids, cm_remote_qpns and cm_listeners. */
static DEFINE_SPINLOCK(cm_table_lock);
static struct rb_root cm_remote_ids = RB_ROOT;
static struct rb_root cm_remote_qpns = RB_ROOT;
static LIST_HEAD(cm_listeners);

static struct workqueue_struct *cm_id_wq;	/* destroys ids whose handler returned non-zero */

static void cm_id_get(struct cm_id_priv *priv)
{
	refcount_inc(&priv->refs);
}

void cm_id_put(struct cm_id_priv *priv)
{
	if (refcount_dec_and_test(&priv->refs))
		complete(&priv->released);
}

static void cm_id_destroy_work(struct work_struct *work);

struct oib_cm_id *oib_cm_create_id(struct oib_device *device, oib_cm_handler handler,
				   void *context)
{
	struct cm_id_priv *priv;
	int ret;

	if (!handler)
		return ERR_PTR(-EINVAL);
	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return ERR_PTR(-ENOMEM);
	priv->id.device = device;
	priv->id.handler = handler;
	priv->id.context = context;
	priv->id.state = OIB_CM_IDLE;
	refcount_set(&priv->refs, 1);
	init_completion(&priv->released);
	spin_lock_init(&priv->lock);
	mutex_init(&priv->handler_mutex);
	RB_CLEAR_NODE(&priv->remote_node);
	RB_CLEAR_NODE(&priv->qpn_node);
	INIT_LIST_HEAD(&priv->listen_entry);
	INIT_WORK(&priv->destroy_work, cm_id_destroy_work);

	ret = xa_alloc_cyclic(&cm_ids, &priv->index, priv, CM_ID_INDEX_LIMIT, &cm_ids_next,
			      GFP_KERNEL);
	if (ret < 0) {
		mutex_destroy(&priv->handler_mutex);
		kfree(priv);
		return ERR_PTR(ret);
	}
	priv->id.local_id = priv->index ^ cm_id_xor;
	return &priv->id;
}
EXPORT_SYMBOL(oib_cm_create_id);

/* The id with wire local ID @local_id, with a reference, or NULL. */
struct cm_id_priv *cm_id_find_local(u32 local_id)
{
	struct cm_id_priv *priv;

	xa_lock(&cm_ids);
	priv = xa_load(&cm_ids, local_id ^ cm_id_xor);
	if (priv)
		cm_id_get(priv);
	xa_unlock(&cm_ids);
	return priv;
}

static int cm_remote_cmp(struct rb_node *node_a, const struct rb_node *node_b)
{
	const struct cm_id_priv *a = rb_entry(node_a, struct cm_id_priv, remote_node);
	const struct cm_id_priv *b = rb_entry(node_b, struct cm_id_priv, remote_node);

	if (a->id.remote_id != b->id.remote_id)
		return a->id.remote_id < b->id.remote_id ? -1 : 1;
	return memcmp(a->remote_gid.raw, b->remote_gid.raw, sizeof(a->remote_gid.raw));
}

/*
 * Record that @priv talks to (@remote_id, @remote_gid).  NULL when recorded; else the id that
 * already has them, with a reference (a duplicate), and @priv is left without a peer.
 */
struct cm_id_priv *cm_id_insert_remote(struct cm_id_priv *priv, u32 remote_id,
				       const union oib_gid *remote_gid)
{
	struct cm_id_priv *old = NULL;
	struct rb_node *node;

	spin_lock(&cm_table_lock);
	if (WARN_ON_ONCE(priv->in_remote))
		goto out;
	spin_lock(&priv->lock);
	priv->id.remote_id = remote_id;
	priv->remote_gid = *remote_gid;
	node = rb_find_add(&priv->remote_node, &cm_remote_ids, cm_remote_cmp);
	if (node) {
		priv->id.remote_id = 0;
		memset(&priv->remote_gid, 0, sizeof(priv->remote_gid));
		old = rb_entry(node, struct cm_id_priv, remote_node);
		cm_id_get(old);
	}
	priv->in_remote = !node;
	spin_unlock(&priv->lock);
out:
	spin_unlock(&cm_table_lock);
	return old;
}

static int cm_qpn_cmp(struct rb_node *node_a, const struct rb_node *node_b)
{
	const struct cm_id_priv *a = rb_entry(node_a, struct cm_id_priv, qpn_node);
	const struct cm_id_priv *b = rb_entry(node_b, struct cm_id_priv, qpn_node);

	if (a->remote_ca_guid != b->remote_ca_guid)
		return a->remote_ca_guid < b->remote_ca_guid ? -1 : 1;
	if (a->remote_qpn != b->remote_qpn)
		return a->remote_qpn < b->remote_qpn ? -1 : 1;
	return 0;
}

/*
 * Record that @priv's connection is with QP @remote_qpn of CA @remote_ca_guid.  NULL when
 * recorded; else the id that already has that QP, with a reference: the REQ naming it is for
 * a connection we believe exists (stale), and @priv is left without it.
 */
struct cm_id_priv *cm_id_insert_remote_qpn(struct cm_id_priv *priv, u64 remote_ca_guid,
					   u32 remote_qpn)
{
	struct cm_id_priv *old = NULL;
	struct rb_node *node;

	spin_lock(&cm_table_lock);
	if (WARN_ON_ONCE(priv->in_qpn))
		goto out;
	spin_lock(&priv->lock);
	priv->remote_ca_guid = remote_ca_guid;
	priv->remote_qpn = remote_qpn;
	node = rb_find_add(&priv->qpn_node, &cm_remote_qpns, cm_qpn_cmp);
	if (node) {
		priv->remote_ca_guid = 0;
		priv->remote_qpn = 0;
		old = rb_entry(node, struct cm_id_priv, qpn_node);
		cm_id_get(old);
	}
	priv->in_qpn = !node;
	spin_unlock(&priv->lock);
out:
	spin_unlock(&cm_table_lock);
	return old;
}

static bool cm_listen_overlap(const struct oib_cm_id *a, const struct oib_cm_id *b)
{
	return a->device == b->device &&
	       !((a->service_id ^ b->service_id) & a->service_mask & b->service_mask);
}

static bool cm_listen_match(const struct oib_cm_id *l, struct oib_device *device, u64 sid)
{
	return (!l->device || l->device == device) &&
	       (sid & l->service_mask) == l->service_id;
}

/* The listener for a REQ to @service_id on @device, with a reference, or NULL. */
struct cm_id_priv *cm_id_find_listener(struct oib_device *device, u64 service_id)
{
	struct cm_id_priv *cur, *found = NULL;

	spin_lock(&cm_table_lock);
	list_for_each_entry(cur, &cm_listeners, listen_entry) {
		if (!cm_listen_match(&cur->id, device, service_id))
			continue;
		found = cur;
		if (cur->id.device)
			break;		/* the device's own beats every device's */
	}
	if (found)
		cm_id_get(found);
	spin_unlock(&cm_table_lock);
	return found;
}

static int cm_listen_add_locked(struct cm_id_priv *priv)
{
	struct cm_id_priv *cur;

	lockdep_assert_held(&cm_table_lock);
	list_for_each_entry(cur, &cm_listeners, listen_entry)
		if (cm_listen_overlap(&cur->id, &priv->id))
			return -EBUSY;
	list_add_tail(&priv->listen_entry, &cm_listeners);
	return 0;
}

int oib_cm_listen(struct oib_cm_id *id, u64 service_id, u64 service_mask)
{
	struct cm_id_priv *priv;
	struct cm_step step;
	int ret;

	if (!id)
		return -EINVAL;
	priv = cm_id_priv(id);
	if (!service_mask)
		service_mask = ~0ULL;
	if (service_id & ~service_mask)
		return -EINVAL;
	spin_lock(&cm_table_lock);
	spin_lock(&priv->lock);
	step = oib_cm_fsm_step(id->state, CM_EV_LISTEN);
	ret = -EINVAL;
	if (step.action != CM_ACT_PROTOCOL_ERROR) {
		id->service_id = service_id;
		id->service_mask = service_mask;
		ret = cm_listen_add_locked(priv);
		if (!ret)
			id->state = step.next;
	}
	spin_unlock(&priv->lock);
	spin_unlock(&cm_table_lock);
	return ret;
}
EXPORT_SYMBOL(oib_cm_listen);

/* No handler runs after this: the caller holds the handler mutex. */
static void cm_id_kill_locked(struct cm_id_priv *priv)
{
	lockdep_assert_held(&priv->handler_mutex);
	priv->dead = true;
	spin_lock(&priv->lock);
	priv->id.state = oib_cm_fsm_step(priv->id.state, CM_EV_DESTROY).next;
	spin_unlock(&priv->lock);
}

/* Out of every table: no lookup finds the id from here on. */
static void cm_id_unpublish(struct cm_id_priv *priv)
{
	spin_lock(&cm_table_lock);
	list_del_init(&priv->listen_entry);
	if (priv->in_remote) {
		rb_erase(&priv->remote_node, &cm_remote_ids);
		priv->in_remote = false;
	}
	if (priv->in_qpn) {
		rb_erase(&priv->qpn_node, &cm_remote_qpns);
		priv->in_qpn = false;
	}
	spin_unlock(&cm_table_lock);
	xa_erase(&cm_ids, priv->index);
}

/* Drop the owner's reference, wait for the lookups' and free. */
static void cm_id_release(struct cm_id_priv *priv)
{
	cm_id_put(priv);
	wait_for_completion(&priv->released);
	mutex_destroy(&priv->handler_mutex);
	kfree(priv);
}

static void cm_id_destroy_work(struct work_struct *work)
{
	cm_id_release(container_of(work, struct cm_id_priv, destroy_work));
}

void oib_cm_destroy_id(struct oib_cm_id *id)
{
	struct cm_id_priv *priv;

	if (!id)
		return;
	priv = cm_id_priv(id);
	/* Only this task can have set handler_task to itself: no lock needed to compare. */
	if (WARN_ON_ONCE(READ_ONCE(priv->handler_task) == current))
		return;
	mutex_lock(&priv->handler_mutex);
	if (WARN_ON_ONCE(priv->dead)) {
		mutex_unlock(&priv->handler_mutex);
		return;
	}
	cm_id_kill_locked(priv);
	mutex_unlock(&priv->handler_mutex);
	cm_id_unpublish(priv);
	cm_id_release(priv);
}
EXPORT_SYMBOL(oib_cm_destroy_id);

/*
 * Call @priv's handler with @event, the caller holding a reference.  A handler returning
 * non-zero has its id destroyed: at once out of every table, freed by cm_id_wq once the
 * caller's reference is gone.
 */
void cm_id_deliver(struct cm_id_priv *priv, const struct oib_cm_event *event)
{
	int ret;

	mutex_lock(&priv->handler_mutex);
	if (priv->dead) {
		mutex_unlock(&priv->handler_mutex);
		return;
	}
	WRITE_ONCE(priv->handler_task, current);
	ret = priv->id.handler(&priv->id, event);
	WRITE_ONCE(priv->handler_task, NULL);
	if (ret)
		cm_id_kill_locked(priv);
	mutex_unlock(&priv->handler_mutex);
	if (ret) {
		cm_id_unpublish(priv);
		queue_work(cm_id_wq, &priv->destroy_work);
	}
}

int cm_id_init(void)
{
	cm_id_xor = get_random_u32() | BIT(31);
	cm_id_wq = alloc_workqueue("oib_cm_id", 0, 0);
	return cm_id_wq ? 0 : -ENOMEM;
}

void cm_id_exit(void)
{
	destroy_workqueue(cm_id_wq);
	WARN_ON(!xa_empty(&cm_ids));
}

#if IS_ENABLED(CONFIG_KUNIT)
/* For the KUnit suites (<oib/kunit/cm.h>): the same calls on the public struct. */
struct oib_cm_id *oib_cm_id_find_local(u32 local_id)
{
	struct cm_id_priv *priv = cm_id_find_local(local_id);

	return priv ? &priv->id : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_id_find_local);

struct oib_cm_id *oib_cm_id_insert_remote(struct oib_cm_id *id, u32 remote_id,
					  const union oib_gid *remote_gid)
{
	struct cm_id_priv *old = cm_id_insert_remote(cm_id_priv(id), remote_id, remote_gid);

	return old ? &old->id : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_id_insert_remote);

struct oib_cm_id *oib_cm_id_insert_remote_qpn(struct oib_cm_id *id,
					      u64 remote_ca_guid, u32 remote_qpn)
{
	struct cm_id_priv *old = cm_id_insert_remote_qpn(cm_id_priv(id), remote_ca_guid,
							 remote_qpn);

	return old ? &old->id : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_id_insert_remote_qpn);

struct oib_cm_id *oib_cm_id_find_listener(struct oib_device *device,
					  u64 service_id)
{
	struct cm_id_priv *priv = cm_id_find_listener(device, service_id);

	return priv ? &priv->id : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_id_find_listener);

void oib_cm_id_put(struct oib_cm_id *id)
{
	cm_id_put(cm_id_priv(id));
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_id_put);

void oib_cm_id_deliver(struct oib_cm_id *id, const struct oib_cm_event *event)
{
	cm_id_deliver(cm_id_priv(id), event);
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_id_deliver);

void oib_cm_id_flush(void)
{
	flush_workqueue(cm_id_wq);
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_id_flush);
#endif /* CONFIG_KUNIT */
