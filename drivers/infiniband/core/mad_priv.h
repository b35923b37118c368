/* SPDX-License-Identifier: GPL-2.0-only */
/* oib_mad internals shared between its files; nothing here is API.  Design: Documentation/mad.md */
#ifndef OIB_MAD_PRIV_H
#define OIB_MAD_PRIV_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <oib/mad.h>

#define MAD_RECV_RING		512	/* receives kept posted on each GSI QP */
#define MAD_SEND_DEPTH		64	/* GSI send queue depth */
#define MAD_MAX_OUTSTANDING	32	/* work requests posted per port at once */
#define MAD_WORK_BUDGET		64	/* completions handled per port work run */
#define MAD_UNREGISTER_REPORT	(10 * HZ)	/* unregister reports what it waits for */
#define MAD_RECV_BUF_SIZE	(OIB_MAD_GRH_SIZE + OIB_MAD_SIZE)

/*
 * A send MAD's lifecycle.  The state is the one truth; lists and references are views of it.
 * Changed only by mad_fsm() under the port lock.  Which lists a MAD is on, per state:
 *   IDLE        none (created, not posted)
 *   QUEUED      agent's sends, a port backlog          (waiting for a work request slot)
 *   POSTED      agent's sends, the port send list      (its WR is on the QP)
 *   WAIT_RESP   agent's sends                           (sent; waiting for the response)
 *   RESP_EARLY  agent's sends, the port send list      (response held until the send completes)
 *   CANCELLED   agent's sends, the port send list      (cancelled or flushed; its WR is still on
 *                                                       the QP)
 *   DONE        the port done list until its handlers ran, then none
 */
enum mad_state {
	MAD_IDLE,
	MAD_QUEUED,
	MAD_POSTED,
	MAD_WAIT_RESP,
	MAD_RESP_EARLY,
	MAD_CANCELLED,
	MAD_DONE,
	MAD_NSTATES,
};

enum mad_event {
	MAD_EV_POST,		/* oib_post_send_mad() */
	MAD_EV_WR_POSTED,	/* its work request went to the QP */
	MAD_EV_SENT_WAIT,	/* the WR completed well; a response is awaited */
	MAD_EV_SENT_DONE,	/* the WR completed well; nothing more awaited */
	MAD_EV_SEND_ERR,	/* the WR completed in error (or was flushed) */
	MAD_EV_RESP,		/* its response arrived */
	MAD_EV_RETRY,		/* the wait expired, retries left: send again */
	MAD_EV_TIMEOUT,		/* the wait expired, no retries left */
	MAD_EV_CANCEL,		/* cancel or flush (status says which) */
	MAD_NEVENTS,
};

const char *mad_state_name(enum mad_state state);
const char *mad_event_name(enum mad_event event);

struct mad_port;

/*
 * An agent.  Refcounting: @refs is 1 for the registration, plus one per posted send MAD until its
 * send handler returned, plus one per receive handler call in progress; unregister drops the
 * first and waits for @done.  The memory is freed by unregister after that.  @dead, the lists and
 * the registration fields are under the port lock.
 */
struct mad_agent {
	struct oib_mad_agent agent;
	struct mad_port *port;
	struct oib_mad_reg_req reg;
	bool has_class;
	bool dead;			/* unregistering: no new MADs, no new receives */
	struct list_head port_link;	/* port->agents */
	struct list_head sends;		/* struct mad_send.agent_link: its MADs until done */
	struct delayed_work timeout_work;	/* expires the waits in @sends */
	bool timer_armed;		/* timeout_work is scheduled for timer_due */
	unsigned long timer_due;
	refcount_t refs;
	struct completion done;
	atomic64_t stats[OIB_MAD_AGENT_NSTATS];
};

/*
 * A send MAD (the send buffer's private side).  Owned by the agent's owner while IDLE and after
 * DONE; by the layer in between.  @refs counts what the seed calls references on the MAD: one per
 * posted work request, one while a response is awaited; it must be 0 exactly when the state
 * reaches DONE (checked).  Everything but the owner's fields is under the port lock.
 */
struct mad_send {
	struct oib_mad_send_buf buf;
	struct mad_agent *agent;
	enum mad_state state;
	unsigned int refs;
	enum oib_mad_send_status status;	/* the outcome, fixed on the way to DONE */
	enum oib_wc_status wc_status;
	struct list_head agent_link;	/* agent->sends */
	struct list_head port_link;	/* a backlog, port->send_list or port->done */
	unsigned long deadline;		/* WAIT_RESP: jiffies */
	unsigned int timeout_ms;	/* per try */
	unsigned int retries_left;
	bool sent;			/* its request has been on the wire: a response may come */
	bool is_response;		/* goes on the response backlog */
	u8 *early_resp;			/* RESP_EARLY/DONE: the held response, MAD_RECV_BUF_SIZE */
	struct oib_mad_recv resp;	/* its description */
	u8 mad[OIB_MAD_SIZE] __aligned(8);
};

struct mad_recv_buf {
	bool posted;
	u8 data[MAD_RECV_BUF_SIZE] __aligned(8);
};

/*
 * A port's MAD service.  Refcounting: @ref is 1 from setup until the device's removal, plus one
 * per agent registered on it; the last put frees it.  @lock protects every send MAD's state and
 * lists (the agents' too), the backlogs, send list, done list, @outstanding, @dying, @recovering,
 * @hold_sends and the agent list.  @qp_mutex protects the QP and CQ pointers against teardown
 * and serialises their use by the port work (polling, the receive ring, recovery); posting uses
 * the QP under @lock and stops once @dying is set.
 */
struct mad_port {
	struct kref ref;
	struct oib_device *device;
	u32 port_num;
	struct oib_pd *pd;
	struct mutex qp_mutex;		/* see above */
	struct oib_cq *send_cq, *recv_cq;
	struct oib_qp *qp;
	struct mad_recv_buf *rbufs;	/* [MAD_RECV_RING] */
	struct work_struct work;	/* completions, done list, recovery */
	struct mad_agent *self;		/* answers requests nobody takes */

	spinlock_t lock;		/* see above */
	bool dying, recovering, hold_sends;
	struct list_head agents;
	struct list_head resp_backlog;	/* responses wait here first ... */
	struct list_head req_backlog;	/* ... then requests and resends */
	struct list_head send_list;	/* every MAD with a WR on the QP, in post order */
	struct list_head done;		/* DONE, handlers not yet called */
	unsigned int outstanding;	/* length of send_list */
	atomic64_t stats[OIB_MAD_PORT_NSTATS];
	struct dentry *debugfs;
};

extern struct workqueue_struct *mad_wq;
extern struct oib_client mad_client;

static inline struct mad_agent *to_magent(struct oib_mad_agent *agent)
{
	return container_of(agent, struct mad_agent, agent);
}

static inline struct mad_send *to_msend(struct oib_mad_send_buf *buf)
{
	return container_of(buf, struct mad_send, buf);
}

static inline void mad_port_count(struct mad_port *port, enum oib_mad_port_stat stat)
{
	atomic64_inc(&port->stats[stat]);
}

static inline void mad_agent_count(struct mad_agent *ma, enum oib_mad_agent_stat stat)
{
	atomic64_inc(&ma->stats[stat]);
}

/* mad_fsm.c */
void mad_fsm(struct mad_send *ms, enum mad_event event);

/* mad_port.c */
void mad_port_init(struct mad_port *port, struct oib_device *device, u32 port_num);
int mad_port_setup(struct mad_port *port);
void mad_port_teardown(struct mad_port *port);
struct mad_port *mad_port_get(struct oib_device *device, u32 port);	/* no reference */
void mad_port_put(struct mad_port *port);
void mad_port_kick(struct mad_port *port);
int mad_post_recv(struct mad_port *port, u32 index);
void mad_port_post_locked(struct mad_port *port);

/* mad_agent.c */
struct mad_agent *mad_agent_find_request(struct mad_port *port, const struct oib_mad_hdr *hdr,
					 bool *class_known);
void mad_agent_put(struct mad_agent *ma);
void mad_flush_agent_locked(struct mad_agent *ma, enum oib_mad_send_status status);

/* mad_send.c */
void mad_send_wr_done(struct mad_port *port, struct mad_send *ms, enum oib_wc_status status);
void mad_send_deliver_done(struct mad_port *port);
void mad_timeout_work(struct work_struct *work);
bool mad_send_match_response(struct mad_port *port, const u8 *buf,
			     const struct oib_mad_recv *recv);

/* mad_recv.c */
void mad_recv_complete(struct mad_port *port, const struct oib_wc *wc);
void mad_self_send_handler(struct oib_mad_agent *agent, struct oib_mad_send_wc *wc);
int mad_ah_attr_from_grh(struct mad_port *port, const u8 *grh, struct oib_ah_attr *attr);

/* mad_debugfs.c */
void mad_debugfs_init(void);
void mad_debugfs_exit(void);
void mad_debugfs_add_port(struct mad_port *port);
void mad_debugfs_remove_port(struct mad_port *port);
void mad_debugfs_remove_device(struct oib_device *device);

#endif /* OIB_MAD_PRIV_H */
