/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_cma's private structures.  Locks, outermost first:
 * - cma_id_priv.handler_mutex: one handler call at a time per id, and none after destroy.  A
 *   listener's is held across the CONNECT_REQUEST of each id it spawns (then the new id's).
 * - cma_id_priv.lock: the id's state and the fields the CMA writes after create.
 * - cma_lock (cma_main.c): the devices, every device's list of ids, the port spaces.
 */
#ifndef OIB_CMA_PRIV_H
#define OIB_CMA_PRIV_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <oib/device.h>
#include <oib/rdma_cm.h>
#include <oib/iwcm.h>
#include <oib/restrack.h>
#include <oib/kunit/cma_fsm.h>

extern struct mutex cma_lock;
extern struct list_head cma_devices;	/* struct cma_dev, in the order they came */
extern struct workqueue_struct *cma_wq;

struct cma_dev_events;

/* A device the CMA was added to; freed by remove() once its ids are gone. */
struct cma_dev {
	struct cma_dev_events *events;	/* its GID_CHANGE handler */
	struct oib_device *device;
	struct list_head entry;		/* in cma_devices, under cma_lock */
	struct list_head ids;		/* cma_id_priv.dev_entry, under cma_lock */
	atomic_t nids;			/* on @ids; changes under cma_lock */
	bool removing;			/* under cma_lock: no new id may join */
	wait_queue_head_t idle;		/* woken when @ids empties */
};

/*
 * The ids bound to one port of a port space, and the oib_cm listener they share.  No refcount:
 * its port space's xarray holds it, and the last owner's cma_unbind() frees it, under cma_lock.
 */
struct cma_bind {
	enum oib_cma_port_space ps;
	u16 port;
	struct list_head owners;	/* cma_id_priv.bind_entry */
	int listeners;			/* owners listening */
	struct oib_cm_id *cm_listen;	/* while @listeners > 0 */
	/* struct cma_iw_listen, one per RNIC while @listeners > 0 (TCP); cma_listen_mutex */
	struct list_head iw_listens;
};

enum cma_role { CMA_ROLE_NONE, CMA_ROLE_ACTIVE, CMA_ROLE_PASSIVE, CMA_ROLE_LISTENER };

/*
 * An id.  Refcount story: the owner's reference, from create to the end of destroy; the
 * device-removal walk takes one for each id it notifies, and a spawned id one on its listener
 * until its request is answered.  The last put frees it.
 */
struct cma_id_priv {
	struct oib_cma_id id;
	struct kref ref;
	struct list_head all_entry;	/* in cma_id.c's list of every id */
	struct mutex handler_mutex;	/* handler calls; destroy waits on it (top of file) */
	struct mutex lock;		/* @state and the fields the CMA writes after create */
	enum cma_state state;		/* under @lock; read under @handler_mutex too */
	enum cma_role role;
	struct task_struct *handler_task;	/* calling the owner's handler, or NULL */
	struct net *net;
	struct cma_dev *cdev;		/* set once, under @lock and cma_lock; on cdev->ids */
	struct list_head dev_entry;
	struct cma_bind *bind;		/* under cma_lock */
	struct list_head bind_entry;
	struct oib_cm_id *cm_id;	/* the connection (or SIDR) oib_cm runs for us */
	u32 cm_local_id;		/* @cm_id's, for debugfs */
	struct work_struct work;	/* address and route resolution */
	enum cma_event work_event;	/* what @work reports */
	int work_status;
	bool removal_notified;		/* under cma_lock */
	bool addr_lost;			/* under cma_lock: told ADDR_CHANGE */
	bool cm_destroyed;		/* oib_cm destroys @cm_id itself (handler returned 1) */
	struct oib_iwcm_id *iw_id;	/* RNICs: the connection oib_iwcm runs for us */
	bool iw_destroyed;		/* oib_iwcm destroys @iw_id itself (handler returned 1) */
	/* Listener: how many spawned ids wait for accept or reject, and how many may. */
	atomic_t pending;
	int backlog;
	struct cma_id_priv *listener;	/* spawned, unanswered: the listener (a reference) */
	/* Active: what the REP said, delivered with ESTABLISHED. */
	struct oib_cma_conn_param rep_param;
	u8 rep_pdata[OIB_CM_REP_PRIVATE_DATA_SIZE];
	u32 conn_flags;
	u32 qkey;			/* UD */
	/*
	 * oib res show (cma_restrack.c): @res is in @res_dev's table of cm_ids, or the unbound
	 * ones' (NULL), from alloc to the start of destroy; @res_dev under cma_lock.
	 */
	struct oib_res res;
	struct oib_device *res_dev;
	bool res_gone;			/* under cma_lock: destroyed, no longer tracked */
	u32 qpn;			/* id.qp's number, 0 without one (read by snapshots) */
};

/*
 * The transport seam: IB and RoCE devices connect through oib_cm (cma_cm.c, cma_connect.c),
 * iWARP devices (RNICs) through oib_iwcm (cma_iw.c).
 */
static inline bool cma_over_ib_cm(const struct oib_device *device)
{
	return device->node_type != OIB_NODE_RNIC;
}

static inline struct cma_id_priv *to_cma(struct oib_cma_id *id)
{
	return container_of(id, struct cma_id_priv, id);
}

/* cma_id.c */
struct cma_id_priv *cma_id_alloc(struct net *net, oib_cma_handler handler, void *context,
				 enum oib_cma_port_space ps, enum oib_qp_type qp_type,
				 unsigned long caller);
void cma_id_put(struct cma_id_priv *priv);
int cma_ids_show(struct seq_file *m, void *unused);
int cma_step_locked(struct cma_id_priv *priv, enum cma_event event, struct cma_step *out);
int cma_deliver(struct cma_id_priv *priv, enum cma_event event, struct oib_cma_event *ev);
int cma_deliver_nested(struct cma_id_priv *priv, enum cma_event event, struct oib_cma_event *ev,
		       unsigned int subclass);
void cma_destroy(struct cma_id_priv *priv);
int cma_attach_dev(struct cma_id_priv *priv, struct oib_device *device, u32 port);
void cma_release_listener(struct cma_id_priv *priv);

/* cma_addr.c */
bool cma_addr_any(const struct sockaddr *sa);
int cma_addr_len(const struct sockaddr *sa);
u16 cma_addr_port(const struct sockaddr *sa);
void cma_addr_set_port(struct sockaddr *sa, u16 port);
bool cma_addr_equal(const struct sockaddr *a, const struct sockaddr *b);
void cma_addr_to_gid(const struct sockaddr *sa, union oib_gid *gid);
int cma_addr_valid(const struct sockaddr *sa);
int cma_find_src(struct oib_device **device, u32 *port, const struct sockaddr *src);
void cma_resolve_work(struct work_struct *work);

/* cma_bind.c */
int cma_bind_port(struct cma_id_priv *priv, u16 port);
void cma_unbind(struct cma_id_priv *priv);
int cma_listen_add(struct cma_id_priv *priv);
struct cma_id_priv *cma_listen_match(u64 service_id, const struct sockaddr *dst,
				     struct oib_device *device, u32 port);
void cma_bind_exit(void);

/* cma_wire.c */
struct cma_hdr_info {
	struct sockaddr_storage src;	/* the active side's */
	struct sockaddr_storage dst;
};

void cma_hdr_pack(u8 *buf, const struct sockaddr *src, const struct sockaddr *dst);
int cma_hdr_parse(const u8 *buf, size_t len, struct cma_hdr_info *info);
int cma_sdp_hello_parse(const u8 *buf, size_t len, struct cma_hdr_info *info);
u64 cma_service_id(enum oib_cma_port_space ps, u16 port);

/* cma_cm.c */
int cma_cm_handler(struct oib_cm_id *cm_id, const struct oib_cm_event *ev);

/* cma_connect.c */
void cma_rd_depths(struct cma_id_priv *priv, const struct oib_cma_conn_param *p,
		   u8 *responder_resources, u8 *initiator_depth);

/* cma_restrack.c */
void cma_res_track(struct cma_id_priv *priv, unsigned long caller);
void cma_res_move_locked(struct cma_id_priv *priv, struct oib_device *device);
void cma_res_untrack(struct cma_id_priv *priv);
void cma_res_release(struct cma_id_priv *priv);
int cma_res_init(void);
void cma_res_exit(void);

/* cma_iw.c */
int cma_iw_handler(struct oib_iwcm_id *iw, const struct oib_iwcm_event *ev);
int cma_iw_connect_locked(struct cma_id_priv *priv, const struct oib_cma_conn_param *p,
			  struct oib_iwcm_id **undo);
int cma_iw_accept_locked(struct cma_id_priv *priv, const struct oib_cma_conn_param *p);

/* cma_bind.c: the RNIC listeners of every port with listeners */
void cma_iw_add_device(struct oib_device *device);
void cma_iw_remove_device(struct oib_device *device);

#endif /* OIB_CMA_PRIV_H */
