/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A cm_id inside oib_cm: its private part, and the tables that find it (cm_id.c).  For the
 * module's own files; the KUnit suites reach the same calls through <oib/kunit/cm.h>.
 */
#ifndef OIB_CM_ID_H
#define OIB_CM_ID_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <oib/cm.h>
#include <oib/verbs.h>

/*
 * The refcount story: @refs counts one reference held by the owner from create until destroy,
 * and one per lookup (cm_id_find_local(), cm_id_insert_remote*(), cm_id_find_listener()) until
 * its cm_id_put().  A lookup takes its reference under the lock of the table it found the id in,
 * and destroy removes the id from every table under those locks before it drops the owner's
 * reference, so a lookup never revives an id.  The last put completes @released; the destroyer
 * (oib_cm_destroy_id(), or the CM's work after a handler returned non-zero) waits for it and
 * frees the id.  Nothing else frees it.
 */
struct cm_id_priv {
	struct oib_cm_id id;
	refcount_t refs;
	struct completion released;

	/*
	 * Protects id.state, id.service_id/mask and the peer's keys: id.remote_id, remote_gid,
	 * remote_ca_guid, remote_qpn.  The keys are written under cm_table_lock as well, so the
	 * trees compare them under that alone.
	 */
	spinlock_t lock;
	union oib_gid remote_gid;
	u64 remote_ca_guid;
	u32 remote_qpn;

	/* Serialises handler calls with each other and with destroy; protects the two below. */
	struct mutex handler_mutex;
	struct task_struct *handler_task;	/* running the handler, or NULL */
	bool dead;			/* destroy began: no handler call starts any more */

	u32 index;			/* in cm_ids; the wire's local ID is index ^ cm_id_xor */
	struct rb_node remote_node;	/* in cm_remote_ids, under cm_table_lock */
	bool in_remote;			/* under cm_table_lock */
	struct rb_node qpn_node;	/* in cm_remote_qpns, under cm_table_lock */
	bool in_qpn;			/* under cm_table_lock */
	struct list_head listen_entry;	/* in cm_listeners, under cm_table_lock; empty if not */
	struct work_struct destroy_work;	/* a handler returned non-zero */
};

static inline struct cm_id_priv *cm_id_priv(struct oib_cm_id *id)
{
	return container_of(id, struct cm_id_priv, id);
}

int cm_id_init(void);
void cm_id_exit(void);

struct cm_id_priv *cm_id_find_local(u32 local_id);
struct cm_id_priv *cm_id_insert_remote(struct cm_id_priv *priv, u32 remote_id,
				       const union oib_gid *remote_gid);
struct cm_id_priv *cm_id_insert_remote_qpn(struct cm_id_priv *priv, u64 remote_ca_guid,
					   u32 remote_qpn);
struct cm_id_priv *cm_id_find_listener(struct oib_device *device, u64 service_id);
void cm_id_put(struct cm_id_priv *priv);
void cm_id_deliver(struct cm_id_priv *priv, const struct oib_cm_event *event);

#endif /* OIB_CM_ID_H */
