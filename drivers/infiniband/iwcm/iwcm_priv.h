/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_iwcm's private structures.  Locks, outermost first:
 * - iwcm_id_priv.lock: the id's state, its QP, and every call down into the provider for it.
 * - iwcm_id_priv.events_lock: the id's queue of provider events.
 * The owner's handler runs from the id's work with neither held.
 */
#ifndef OIB_IWCM_PRIV_H
#define OIB_IWCM_PRIV_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <oib/device.h>
#include <oib/provider.h>
#include <oib/iwcm.h>
#include <oib/kunit/iwcm_fsm.h>

/*
 * An id.  Refcount story: the owner's reference, from create to the end of destroy; the
 * provider's, from the call that hands it @iw (listen, connect, accept) to its last event
 * (CLOSE, a failed CONNECT_REPLY) or, for a listener, destroy_listen's return; the work's while
 * it is queued or running (@work_busy); a spawned id's on its listener until freed.  The last put
 * frees it.
 */
struct iwcm_id_priv {
	struct oib_iwcm_id id;
	struct oib_iw_cm_id iw;		/* the provider's view */
	struct kref ref;
	struct mutex lock;		/* @state, @qp, @provider_ref, calls down */
	enum iwcm_state state;
	struct oib_qp *qp;		/* the connection's, until released */
	bool accepted;			/* CONN_RECV: accept was called */
	bool provider_ref;		/* the provider holds a reference */
	struct iwcm_id_priv *listener;	/* spawned, request not delivered yet: a reference */
	struct mutex listen_mutex;	/* a listener: held while its requests are delivered */
	spinlock_t events_lock;		/* @events, @work_busy */
	struct list_head events;	/* struct iwcm_queued, oldest first */
	bool work_busy;			/* @work queued or running, with a reference */
	struct work_struct work;	/* delivers @events */
	struct task_struct *handler_task;	/* running the owner's handler, or NULL */
};

/* A provider event waiting for the id's work, with its private data copied. */
struct iwcm_queued {
	struct list_head entry;
	struct oib_iw_cm_event ev;
	u8 pdata[OIB_IW_CM_PRIVATE_DATA_SIZE];
};

static inline struct iwcm_id_priv *to_iwcm(struct oib_iwcm_id *id)
{
	return container_of(id, struct iwcm_id_priv, id);
}

static inline struct iwcm_id_priv *iw_to_iwcm(struct oib_iw_cm_id *iw)
{
	return container_of(iw, struct iwcm_id_priv, iw);
}

/* iwcm_main.c */
extern struct workqueue_struct *iwcm_wq;
struct iwcm_queued *iwcm_queued_alloc(void);
void iwcm_queued_free(struct iwcm_queued *q);
void iwcm_count_dropped(void);

/* iwcm_id.c */
struct iwcm_id_priv *iwcm_id_alloc(struct oib_device *device, oib_iwcm_handler handler,
				   void *context);
void iwcm_id_put(struct iwcm_id_priv *priv);
int iwcm_step_locked(struct iwcm_id_priv *priv, enum iwcm_event event, struct iwcm_step *out);
void iwcm_provider_put_locked(struct iwcm_id_priv *priv);
/* Moving the QP to ERR closes the connection it carries (include/oib/iw_cm.h). */
void iwcm_qp_error_locked(struct iwcm_id_priv *priv);
void iwcm_destroy(struct iwcm_id_priv *priv);

/* iwcm_event.c */
void iwcm_provider_event(struct oib_iw_cm_id *iw, const struct oib_iw_cm_event *ev);
void iwcm_event_work(struct work_struct *work);

#endif /* OIB_IWCM_PRIV_H */
