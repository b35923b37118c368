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
 * handler that is running and no handler starts later), runs the table's destroy step (which
 * tells the peer), takes the id out of every table, stops its timer and work, drops the owner's
 * reference and waits for the others to go.
 */
#include <linux/bits.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>
#include <oib/kunit/cm.h>
#include "cm_id.h"
#include "cm_port.h"

#define CM_ID_INDEX_LIMIT	XA_LIMIT(1, S32_MAX)

static DEFINE_XARRAY_ALLOC(cm_ids);	/* index -> cm_id_priv; its own lock */
static u32 cm_ids_next;			/* the cyclic cursor, under the xarray's lock */
static u32 cm_id_xor;			/* set at module load, bit 31 set */

/* Protects cm_remote_ids, cm_remote_qpns, cm_listeners, cm_p2p and cm_all_ids. */
static DEFINE_SPINLOCK(cm_table_lock);
static struct rb_root cm_remote_ids = RB_ROOT;
static struct rb_root cm_remote_qpns = RB_ROOT;
static LIST_HEAD(cm_listeners);
static LIST_HEAD(cm_p2p);
static LIST_HEAD(cm_all_ids);

/* Runs every cm_id's work (events to handlers) and timewait timer. */
struct workqueue_struct *cm_wq;

void cm_id_get(struct cm_id_priv *priv)
{
	refcount_inc(&priv->refs);
}

void cm_id_put(struct cm_id_priv *priv)
{
	if (refcount_dec_and_test(&priv->refs))
		complete(&priv->released);
}

/* A new cm_id in IDLE, in cm_ids and cm_all_ids; ERR_PTR(-ENOMEM). */
struct cm_id_priv *cm_id_alloc(struct oib_device *device, oib_cm_handler handler, void *context)
{
	struct cm_id_priv *priv;
	int ret;

	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return ERR_PTR(-ENOMEM);
	priv->id.device = device;
	priv->id.handler = handler;
	priv->id.context = context;
	priv->id.state = OIB_CM_IDLE;
	refcount_set(&priv->refs, 1);
	init_completion(&priv->released);
	mutex_init(&priv->mutex);
	mutex_init(&priv->watch_mutex);
	INIT_DELAYED_WORK(&priv->timewait, cm_timewait_work);
	spin_lock_init(&priv->lock);
	INIT_LIST_HEAD(&priv->events);
	INIT_WORK(&priv->work, cm_id_work);
	mutex_init(&priv->handler_mutex);
	RB_CLEAR_NODE(&priv->remote_node);
	RB_CLEAR_NODE(&priv->qpn_node);
	INIT_LIST_HEAD(&priv->listen_entry);
	INIT_LIST_HEAD(&priv->p2p_entry);

	ret = xa_alloc_cyclic(&cm_ids, &priv->index, priv, CM_ID_INDEX_LIMIT, &cm_ids_next,
			      GFP_KERNEL);
	if (ret < 0) {
		mutex_destroy(&priv->handler_mutex);
		mutex_destroy(&priv->mutex);
	mutex_destroy(&priv->watch_mutex);
		kfree(priv);
		return ERR_PTR(ret);
	}
	priv->id.local_id = priv->index ^ cm_id_xor;
	cm_state_count_add(OIB_CM_IDLE, 1);
	spin_lock(&cm_table_lock);
	list_add_tail(&priv->all_entry, &cm_all_ids);
	spin_unlock(&cm_table_lock);
	return priv;
}

struct oib_cm_id *oib_cm_create_id(struct oib_device *device, oib_cm_handler handler,
				   void *context)
{
	struct cm_id_priv *priv;

	if (!handler)
		return ERR_PTR(-EINVAL);
	priv = cm_id_alloc(device, handler, context);
	return IS_ERR(priv) ? ERR_CAST(priv) : &priv->id;
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

struct cm_remote_key {
	u32 remote_id;
	const union oib_gid *gid;
};

static int cm_remote_key_cmp(const void *key, const struct rb_node *node)
{
	const struct cm_remote_key *k = key;
	const struct cm_id_priv *p = rb_entry(node, struct cm_id_priv, remote_node);

	if (k->remote_id != p->id.remote_id)
		return k->remote_id < p->id.remote_id ? -1 : 1;
	return memcmp(k->gid->raw, p->remote_gid.raw, sizeof(p->remote_gid.raw));
}

static int cm_remote_cmp(struct rb_node *node_a, const struct rb_node *node_b)
{
	const struct cm_id_priv *a = rb_entry(node_a, struct cm_id_priv, remote_node);
	struct cm_remote_key key = { a->id.remote_id, &a->remote_gid };

	return cm_remote_key_cmp(&key, node_b);
}

/* The id talking to (@remote_id, @remote_gid), with a reference, or NULL. */
struct cm_id_priv *cm_id_find_remote(u32 remote_id, const union oib_gid *remote_gid)
{
	struct cm_remote_key key = { remote_id, remote_gid };
	struct cm_id_priv *priv = NULL;
	struct rb_node *node;

	spin_lock(&cm_table_lock);
	node = rb_find(&key, &cm_remote_ids, cm_remote_key_cmp);
	if (node) {
		priv = rb_entry(node, struct cm_id_priv, remote_node);
		cm_id_get(priv);
	}
	spin_unlock(&cm_table_lock);
	return priv;
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
out:
	spin_unlock(&cm_table_lock);
	return old;
}

struct cm_qpn_key {
	u64 guid;
	u32 qpn;
};

static int cm_qpn_key_cmp(const void *key, const struct rb_node *node)
{
	const struct cm_qpn_key *k = key;
	const struct cm_id_priv *p = rb_entry(node, struct cm_id_priv, qpn_node);

	if (k->guid != p->remote_ca_guid)
		return k->guid < p->remote_ca_guid ? -1 : 1;
	if (k->qpn != p->remote_qpn)
		return k->qpn < p->remote_qpn ? -1 : 1;
	return 0;
}

static int cm_qpn_cmp(struct rb_node *node_a, const struct rb_node *node_b)
{
	const struct cm_id_priv *a = rb_entry(node_a, struct cm_id_priv, qpn_node);
	struct cm_qpn_key key = { a->remote_ca_guid, a->remote_qpn };

	return cm_qpn_key_cmp(&key, node_b);
}

/* The id whose connection is with QP @remote_qpn of CA @remote_ca_guid, or NULL. */
struct cm_id_priv *cm_id_find_qpn(u64 remote_ca_guid, u32 remote_qpn)
{
	struct cm_qpn_key key = { remote_ca_guid, remote_qpn };
	struct cm_id_priv *priv = NULL;
	struct rb_node *node;

	spin_lock(&cm_table_lock);
	node = rb_find(&key, &cm_remote_qpns, cm_qpn_key_cmp);
	if (node) {
		priv = rb_entry(node, struct cm_id_priv, qpn_node);
		cm_id_get(priv);
	}
	spin_unlock(&cm_table_lock);
	return priv;
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

/* @priv sent a peer-to-peer REQ: a REQ crossing it finds it. */
void cm_id_add_p2p(struct cm_id_priv *priv)
{
	spin_lock(&cm_table_lock);
	if (list_empty(&priv->p2p_entry))
		list_add_tail(&priv->p2p_entry, &cm_p2p);
	spin_unlock(&cm_table_lock);
}

/*
 * The id on @device whose peer-to-peer REQ for @service_id to @gid is still unanswered, with a
 * reference, or NULL.  Its state is read without its mutex: the table decides once it is held.
 */
struct cm_id_priv *cm_id_find_p2p(struct oib_device *device, u64 service_id,
				  const union oib_gid *gid)
{
	struct cm_id_priv *cur, *found = NULL;

	spin_lock(&cm_table_lock);
	list_for_each_entry(cur, &cm_p2p, p2p_entry) {
		if (cur->id.device == device && cur->id.service_id == service_id &&
		    READ_ONCE(cur->id.state) == OIB_CM_REQ_SENT &&
		    !memcmp(cur->conn.av.grh.dgid.raw, gid->raw, sizeof(gid->raw))) {
			found = cur;
			cm_id_get(found);
			break;
		}
	}
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
	int ret = -EINVAL;

	if (!id)
		return -EINVAL;
	priv = cm_id_priv(id);
	if (!service_mask)
		service_mask = ~0ULL;
	if (service_id & ~service_mask)
		return -EINVAL;
	mutex_lock(&priv->mutex);
	if (oib_cm_fsm_step(id->state, CM_EV_LISTEN).action == CM_ACT_PROTOCOL_ERROR)
		goto out;
	spin_lock(&cm_table_lock);
	id->service_id = service_id;
	id->service_mask = service_mask;
	ret = cm_listen_add_locked(priv);
	spin_unlock(&cm_table_lock);
	if (!ret)
		ret = cm_run_locked(priv, CM_EV_LISTEN, &(struct cm_ctx){});
out:
	mutex_unlock(&priv->mutex);
	return ret;
}
EXPORT_SYMBOL(oib_cm_listen);

/* The peer's QP is no longer one of our connections': a REQ from it is not stale. */
void cm_id_forget_qpn(struct cm_id_priv *priv)
{
	spin_lock(&cm_table_lock);
	if (priv->in_qpn) {
		rb_erase(&priv->qpn_node, &cm_remote_qpns);
		priv->in_qpn = false;
	}
	spin_unlock(&cm_table_lock);
}

/* The connection is over: no message finds the id by its peer. */
void cm_id_forget_peer(struct cm_id_priv *priv)
{
	cm_id_forget_qpn(priv);
	spin_lock(&cm_table_lock);
	if (priv->in_remote) {
		rb_erase(&priv->remote_node, &cm_remote_ids);
		priv->in_remote = false;
	}
	priv->id.remote_id = 0;
	list_del_init(&priv->p2p_entry);
	spin_unlock(&cm_table_lock);
}

/* Out of every table: no lookup finds the id from here on. */
static void cm_id_unpublish(struct cm_id_priv *priv)
{
	cm_id_forget_peer(priv);
	spin_lock(&cm_table_lock);
	list_del_init(&priv->listen_entry);
	list_del(&priv->all_entry);
	spin_unlock(&cm_table_lock);
	xa_erase(&cm_ids, priv->index);
}

/*
 * The end of every cm_id, once it is dead (no handler call starts): the destroy step, out of
 * the tables, timer and work stopped (unless @from_work: the caller is that work), events
 * dropped, and freed when the last reference goes.
 */
void cm_id_destroy(struct cm_id_priv *priv, bool from_work)
{
	bool unwatch;

	mutex_lock(&priv->mutex);
	unwatch = cm_destroy_locked(priv);
	mutex_unlock(&priv->mutex);
	if (unwatch)
		oib_qp_unwatch(&priv->watch);
	cm_id_unpublish(priv);
	cancel_delayed_work_sync(&priv->timewait);
	if (from_work)
		cancel_work(&priv->work);	/* queued again before dead was seen */
	else
		cancel_work_sync(&priv->work);
	cm_events_purge(priv);
	cm_id_put(priv);
	wait_for_completion(&priv->released);
	cm_state_count_add(priv->id.state, -1);
	if (priv->port)
		cm_port_put(priv->port);
	kfree(priv->kept);
	mutex_destroy(&priv->handler_mutex);
	mutex_destroy(&priv->mutex);
	mutex_destroy(&priv->watch_mutex);
	kfree(priv);
}

/* A cm_id the CM made and never handed out (a REQ that turned out to be a duplicate). */
void cm_id_discard(struct cm_id_priv *priv)
{
	mutex_lock(&priv->handler_mutex);
	cm_id_kill(priv);
	mutex_unlock(&priv->handler_mutex);
	cm_id_destroy(priv, false);
}

/* No handler call starts after this. */
void cm_id_kill(struct cm_id_priv *priv)
{
	unsigned long flags;

	lockdep_assert_held(&priv->handler_mutex);
	spin_lock_irqsave(&priv->lock, flags);
	priv->dead = true;
	spin_unlock_irqrestore(&priv->lock, flags);
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
	cm_id_kill(priv);
	mutex_unlock(&priv->handler_mutex);
	cm_id_destroy(priv, false);
}
EXPORT_SYMBOL(oib_cm_destroy_id);

/*
 * Call @priv's handler with @event.  True if it returned non-zero: the id is then dead, and
 * the caller destroys it.
 */
bool cm_id_deliver(struct cm_id_priv *priv, const struct oib_cm_event *event)
{
	int ret;

	mutex_lock(&priv->handler_mutex);
	if (priv->dead) {
		mutex_unlock(&priv->handler_mutex);
		return false;
	}
	WRITE_ONCE(priv->handler_task, current);
	ret = priv->id.handler(&priv->id, event);
	WRITE_ONCE(priv->handler_task, NULL);
	if (ret)
		cm_id_kill(priv);
	mutex_unlock(&priv->handler_mutex);
	return ret;
}

void cm_id_show_all(struct seq_file *m)
{
	struct cm_id_priv *priv;

	spin_lock(&cm_table_lock);
	list_for_each_entry(priv, &cm_all_ids, all_entry)
		seq_printf(m, "%08x %-14s dev %s remote %08x sid %#llx qpn %#x peer %pI6 qpn %#x\n",
			   priv->id.local_id, oib_cm_state_name(READ_ONCE(priv->id.state)),
			   priv->id.device ? oib_dev_name(priv->id.device) : "*",
			   priv->id.remote_id, priv->id.service_id,
			   READ_ONCE(priv->qp_num), priv->remote_gid.raw,
			   priv->remote_qpn);
	spin_unlock(&cm_table_lock);
}

int cm_id_init(void)
{
	cm_id_xor = get_random_u32() | BIT(31);
	cm_wq = alloc_workqueue("oib_cm", WQ_UNBOUND, 0);
	return cm_wq ? 0 : -ENOMEM;
}

void cm_id_exit(void)
{
	destroy_workqueue(cm_wq);
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
	if (cm_id_deliver(cm_id_priv(id), event))
		cm_id_destroy(cm_id_priv(id), false);
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_id_deliver);

void oib_cm_id_flush(void)
{
	flush_workqueue(cm_wq);
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_id_flush);
#endif /* CONFIG_KUNIT */
