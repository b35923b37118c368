/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A cm_id inside oib_cm: its private part, the tables that find it (cm_id.c), its event queue
 * (cm_event.c) and the state machine's runner (cm_step.c).  For the module's own files; the
 * KUnit suites reach some of the same calls through <oib/kunit/cm.h>.
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
#include <oib/mad.h>
#include <oib/verbs.h>
#include <oib/kunit/cm_fsm.h>
#include <oib/kunit/cm_wire.h>

struct cm_port;

/*
 * What a connection negotiated, from this side (written under the id's mutex by the step that
 * learns it; read under it by init_qp_attr and the QP moves).
 */
struct cm_conn {
	struct oib_ah_attr av;		/* to the peer, for the QP and for our MADs */
	u16 pkey_index;
	u8 mtu;				/* enum oib_mtu */
	u8 transport;			/* enum oib_cm_transport */
	u32 remote_qpn;
	u32 sq_psn;			/* ours */
	u32 rq_psn;			/* the peer's */
	u8 max_rd_atomic;		/* our initiator depth */
	u8 max_dest_rd_atomic;		/* our responder resources */
	u8 ack_timeout;			/* the QP's local ACK timeout, 5 bits */
	u8 retry_count;
	u8 rnr_retry;
	u8 packet_life_time;
	u8 max_cm_retries;
	unsigned int timeout_ms;	/* our REQ/REP/DREQ resend period */
	u64 tid;			/* of the REQ, later the DREQ: what answers reuse */
	bool remote_known;		/* the peer's QPN and PSN are set */
};

/* The QP signals a watch raises (bits of cm_id_priv.signals). */
enum {
	CM_SIG_COMM_EST,
	CM_SIG_FIRST_RECV,
	CM_SIG_UNWATCH,			/* the watch is no longer needed */
};

/* The passive side waits to be established: the QP watch is wanted. */
static inline bool cm_awaits_establishment(enum oib_cm_state s)
{
	return s == OIB_CM_REP_SENT || s == OIB_CM_MRA_REP_RCVD;
}

/*
 * The refcount story: @refs counts one reference held by the owner from create until destroy,
 * one per lookup (cm_id_find_*(), cm_id_insert_remote*()) until its cm_id_put(), and one held
 * by the MAD in @msg from its post until its send handler.  A lookup takes its reference under
 * the lock of the table it found the id in, and destroy removes the id from every table under
 * those locks before it drops the owner's reference, so a lookup never revives an id.  The last
 * put completes @released; the destroyer (oib_cm_destroy_id(), or the id's own work after a
 * handler returned non-zero) waits for it and frees the id.  Nothing else frees it.
 */
struct cm_id_priv {
	struct oib_cm_id id;
	refcount_t refs;
	struct completion released;

	/*
	 * Serialises the state machine's steps and their actions: protects id.state, id.qp,
	 * @port, @conn, @msg, @kept, @watching, @passive and the timewait work's arming.
	 * Taken after @handler_mutex, never inside cm_table_lock or @lock.
	 */
	struct mutex mutex;
	struct cm_port *port;		/* with a reference; NULL until a port is chosen */
	struct cm_conn conn;
	struct oib_mad_send_buf *msg;	/* REQ, REP, DREQ or SIDR_REQ awaiting its answer */
	u8 *kept;			/* the last MRA, RTU or DREP, for duplicates; or NULL */
	u32 qp_num;			/* id.qp's (kept after oib_cm_release_qp()), or the REP's */
	struct mutex watch_mutex;	/* serialises ending @watch (cm_qp_unwatch()) */
	struct oib_qp_watch watch;	/* on id.qp while @watching */
	bool watching;
	bool passive;			/* spawned by a listener: the REQ (or SIDR_REQ) came in */
	struct delayed_work timewait;	/* armed in TIMEWAIT */

	/*
	 * The peer's keys: written under cm_table_lock and @mutex, so the trees compare them under
	 * cm_table_lock alone.
	 */
	union oib_gid remote_gid;
	u64 remote_ca_guid;
	u32 remote_qpn;

	/* Protects @events and @dead's readers outside @handler_mutex (it is set under both). */
	spinlock_t lock;
	struct list_head events;	/* struct cm_event_item, to deliver in order */
	unsigned long signals;		/* CM_SIG_* raised by the QP watch (atomic bitops) */
	struct work_struct work;	/* delivers @events, acts on @signals */

	/* Serialises handler calls with each other and with destroy; protects the two below. */
	struct mutex handler_mutex;
	struct task_struct *handler_task;	/* running the handler, or NULL */
	bool dead;			/* destroy began: no handler call starts, no work queued */

	u32 index;			/* in cm_ids; the wire's local ID is index ^ cm_id_xor */
	struct rb_node remote_node;	/* in cm_remote_ids, under cm_table_lock */
	bool in_remote;			/* under cm_table_lock */
	struct rb_node qpn_node;	/* in cm_remote_qpns, under cm_table_lock */
	bool in_qpn;			/* under cm_table_lock */
	struct list_head listen_entry;	/* in cm_listeners, under cm_table_lock; empty if not */
	struct list_head p2p_entry;	/* in cm_p2p (peer-to-peer REQs), under cm_table_lock */
	struct list_head all_entry;	/* in cm_all_ids (debugfs), under cm_table_lock */
};

static inline struct cm_id_priv *cm_id_priv(struct oib_cm_id *id)
{
	return container_of(id, struct cm_id_priv, id);
}

extern struct workqueue_struct *cm_wq;

/* cm_id.c */
int cm_id_init(void);
void cm_id_exit(void);
struct cm_id_priv *cm_id_alloc(struct oib_device *device, oib_cm_handler handler, void *context);
void cm_id_get(struct cm_id_priv *priv);
void cm_id_put(struct cm_id_priv *priv);
struct cm_id_priv *cm_id_find_local(u32 local_id);
struct cm_id_priv *cm_id_find_remote(u32 remote_id, const union oib_gid *remote_gid);
struct cm_id_priv *cm_id_insert_remote(struct cm_id_priv *priv, u32 remote_id,
				       const union oib_gid *remote_gid);
struct cm_id_priv *cm_id_find_qpn(u64 remote_ca_guid, u32 remote_qpn);
struct cm_id_priv *cm_id_insert_remote_qpn(struct cm_id_priv *priv, u64 remote_ca_guid,
					   u32 remote_qpn);
void cm_id_forget_qpn(struct cm_id_priv *priv);
void cm_id_forget_peer(struct cm_id_priv *priv);
struct cm_id_priv *cm_id_find_listener(struct oib_device *device, u64 service_id);
void cm_id_add_p2p(struct cm_id_priv *priv);
struct cm_id_priv *cm_id_find_p2p(struct oib_device *device, u64 service_id,
				  const union oib_gid *gid);
void cm_id_kill(struct cm_id_priv *priv);
void cm_id_destroy(struct cm_id_priv *priv, bool from_work);
void cm_id_discard(struct cm_id_priv *priv);
void cm_id_show_all(struct seq_file *m);

/* cm_event.c: events for the handler, delivered in order by the id's work. */
int cm_queue_event(struct cm_id_priv *priv, const struct oib_cm_event *event);
void cm_kick(struct cm_id_priv *priv);
void cm_signal(struct cm_id_priv *priv, int sig);
void cm_id_work(struct work_struct *work);
bool cm_id_deliver(struct cm_id_priv *priv, const struct oib_cm_event *event);
void cm_events_purge(struct cm_id_priv *priv);

/*
 * cm_step.c: one step of the table for @event, its action carried out with @ctx.  0, or the
 * action's -errno (the state does not change), or -EPROTO for a pair not in the table.
 */
struct cm_ctx {
	struct cm_port *port;			/* received: the port it came on */
	const struct oib_mad_recv *recv;	/* received: the MAD */
	const struct cm_msg *msg;		/* received: unpacked */
	const void *param;			/* a call: its parameters */
	struct cm_id_priv *child;		/* SPAWN: the new cm_id */
	struct cm_id_priv *listener;		/* DELIVER_*REQ: who spawned the id */
	int status;				/* timeouts: the send's status */
	enum cm_action action;			/* out: the action of the step run */
};

int cm_run_locked(struct cm_id_priv *priv, enum cm_event event, struct cm_ctx *ctx);
int cm_run(struct cm_id_priv *priv, enum cm_event event, struct cm_ctx *ctx);
int cm_call(struct oib_cm_id *id, enum cm_event event, const void *param);
void cm_cancel_msg_locked(struct cm_id_priv *priv);
bool cm_destroy_locked(struct cm_id_priv *priv);
void cm_timewait_work(struct work_struct *work);
void cm_state_count_add(enum oib_cm_state state, int n);
void cm_state_counts_show(struct seq_file *m);
void cm_msg_done(struct cm_id_priv *priv, struct oib_mad_send_buf *sb,
		 enum oib_mad_send_status status);
unsigned int cm_timeout_ms(u8 t);

/* cm_qp.c: the connection's QP. */
int cm_qp_transport(const struct oib_qp *qp);
int cm_qp_attach_locked(struct cm_id_priv *priv, struct oib_qp *qp);
int cm_qp_move_locked(struct cm_id_priv *priv, enum oib_qp_state state);
void cm_qp_error_locked(struct cm_id_priv *priv);
int cm_qp_watch_locked(struct cm_id_priv *priv);
bool cm_qp_unwatch_locked(struct cm_id_priv *priv);
void cm_qp_unwatch(struct cm_id_priv *priv);
int cm_qp_attr_locked(struct cm_id_priv *priv, struct oib_qp_attr *attr, int *mask);

/* cm_recv.c: a CM MAD received on @port. */
void cm_recv(struct cm_port *port, const struct oib_mad_recv *recv);

/* The private data of a consumer's call. */
static inline bool cm_pdata_ok(const void *data, u8 len, enum cm_msg_type type)
{
	return len <= oib_cm_wire_pdata_size(type) && (data || !len);
}

#endif /* OIB_CM_ID_H */
