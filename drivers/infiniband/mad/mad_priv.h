/* SPDX-License-Identifier: GPL-2.0-only */
/* oib_mad internals shared between its files; nothing here is API.  Design: Documentation/mad.md */
#ifndef OIB_MAD_PRIV_H
#define OIB_MAD_PRIV_H

#include <linux/completion.h>
#include <linux/hashtable.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <oib/mad.h>
#include <oib/kunit/mad.h>

#define MAD_RECV_RING		512	/* receives kept posted on each GSI QP */
#define MAD_SEND_DEPTH		64	/* GSI send queue depth */
#define MAD_MAX_OUTSTANDING	32	/* work requests posted per port at once */
#define MAD_MAX_AWAITING	128	/* requests per port waiting for their responses */
#define MAD_WORK_BUDGET		64	/* completions handled per port work run */
#define MAD_WORK_LONE		2	/* completions a run may handle, its port not a stream */
#define MAD_POLL_BATCH		8	/* completions taken from a CQ at once */
#define MAD_UNREGISTER_REPORT	(10 * HZ)	/* unregister reports what it waits for */
#define MAD_RECV_BUF_SIZE	(OIB_MAD_GRH_SIZE + OIB_MAD_SIZE)

/* RMPP (mad_rmpp_send.c sends, mad_rmpp_recv.c receives) */
/* MAD_RMPP_ACK_TIMEOUT_MS and MAD_RMPP_WINDOW: include/oib/kunit/mad.h */
#define MAD_RMPP_RETRIES	10	/* resends without progress before giving up */
#define MAD_RMPP_TRAIN		16	/* segments posted at once, in one chain of WRs */
#define MAD_REASM_IDLE		(5 * HZ)	/* a partial message with no progress is dropped */
/* a received message is remembered this long, to acknowledge its end again if the ACK was lost */
#define MAD_REASM_TIME_WAIT	msecs_to_jiffies(MAD_RMPP_ACK_TIMEOUT_MS * (MAD_RMPP_RETRIES + 2))
#define MAD_REASM_TICK		(HZ / 4)
#define MAD_REASM_HASH_BITS	6

const char *mad_state_name(enum mad_state state);
const char *mad_event_name(enum mad_event event);

struct mad_port;

/*
 * An agent.  Under the port lock: @dead, the lists, the timer fields and (once on the port's list)
 * the registration fields; @reasm_bytes is the port work's.  Unregister frees it once @refs is 0.
 */
struct mad_agent {
	struct oib_mad_agent agent;
	struct mad_port *port;
	struct oib_mad_reg_req reg;
	bool has_class;
	bool dead;			/* unregistering: no new MADs, no new receives */
	struct list_head port_link;	/* port->agents */
	struct list_head sends;		/* struct mad_send.agent_link: its MADs until done */
	bool rmpp;			/* the layer does RMPP for it */
	size_t rmpp_max;		/* bytes of partial messages it may hold */
	size_t reasm_bytes;		/* what it holds now (port work only) */
	struct delayed_work timeout_work;	/* expires the waits in @sends */
	bool timer_armed;		/* timeout_work is scheduled for timer_due */
	unsigned long timer_due;
	/*
	 * 1 for the registration, plus one per posted send MAD until its send handler returned, one
	 * per receive handler call in progress, one per RMPP message being received for it (until
	 * the port work drops it).  Unregister drops the first and waits for @done.
	 */
	refcount_t refs;
	struct completion done;		/* @refs reached 0 */
	atomic64_t stats[OIB_MAD_AGENT_NSTATS];
};

/*
 * A send MAD (the send buffer's private side).  Owned by the agent's owner while IDLE and after
 * DONE; by the layer in between.  Everything but the owner's fields is under the port lock.
 */
struct mad_send {
	struct oib_mad_send_buf buf;
	struct mad_agent *agent;
	enum mad_state state;
	/*
	 * References, as the 2004 MAD send-list design counts them: one per posted work request (an
	 * RMPP train has several), one while a response (or an RMPP ACK) is awaited.  Moved only by
	 * mad_fsm(); 0 exactly when the state reaches DONE (checked).
	 */
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
	bool admitted;			/* counted in port->awaiting until done */
	u8 *early_resp;			/* RESP_EARLY/DONE: the held response (GRH first) */
	struct oib_mad_recv resp;	/* its description */

	/* RMPP sends: the owner's message and the transfer's progress (segments count from 1) */
	bool rmpp;
	bool abort_peer;		/* done mid-transfer: send the receiver ABORT first */
	u8 rmpp_status;			/* ABORT/STOP status, received or to send */
	u8 *msg;			/* buf.mad: hdr_len + data_len bytes */
	size_t msg_data_len;		/* data_len as allocated: a post must not change it */
	u32 seg_count;
	u32 seg_next;			/* the next segment to post */
	u32 last_ack;			/* the receiver has 1..last_ack */
	u32 win_last;			/* and takes up to win_last */
	u32 back_to;			/* a repeated ACK already sent us back to this segment */
	unsigned int ack_retries;	/* ACK waits left without progress */

	u8 *train;			/* [MAD_RMPP_TRAIN][OIB_MAD_SIZE]: the segments posted */

	u64 wr_id;			/* POSTED...: the id of its first work request (+1 each) */
	unsigned int wr_count;		/* POSTED...: its work requests on the QP */
	enum oib_wc_status wr_error;	/* the first error among their completions */
	u8 mad[OIB_MAD_SIZE] __aligned(8);	/* what a single MAD's work request sends */
};

struct mad_recv_buf {
	u8 data[MAD_RECV_BUF_SIZE] __aligned(8);
};

/* A port's MAD service.  The RMPP transfer table (@reasm) belongs to the port work alone. */
struct mad_port {
	struct kref ref;	/* 1 from setup until the device's removal, +1 per agent on it */
	struct oib_device *device;
	u32 port_num;
	struct oib_pd *pd;
	/*
	 * The QP and CQ pointers against teardown; serialises the port work's use of them (polling,
	 * the receive ring, recovery).  Posting uses the QP under @lock instead.
	 */
	struct mutex qp_mutex;
	struct oib_cq *send_cq, *recv_cq;
	struct oib_qp *qp;
	struct mad_recv_buf *rbufs;	/* [MAD_RECV_RING] */
	DECLARE_BITMAP(unposted, MAD_RECV_RING);	/* rbufs not on the QP (qp_mutex) */
	struct work_struct work;	/* completions, done list, recovery */
	/*
	 * Where the work runs (mad_port_kick()): the kicker's CPU, or @home_cpu while the port is
	 * in a stream.  @stream, @last_cpu and @runs are written by the work alone, read by kickers
	 * and tests; @home_cpu is fixed.  @move queues the work on @home_cpu after a run elsewhere
	 * that left completions behind.  @work_budget: MAD_WORK_BUDGET unless a test changed it.
	 */
	unsigned int home_cpu, last_cpu;
	bool stream;
	unsigned long runs;
	unsigned int work_budget;
	struct work_struct move;
	struct mad_agent *self;		/* the port's own agent (mad_self.c); NULL once stopped */

	/*
	 * Irqs off.  Every send MAD's state and lists (the agents' too), the backlogs, held list,
	 * send list and done list, @outstanding, @awaiting, @next_wr_id, @dying, @recovering,
	 * @hold_sends and the agent list.  Posting to the QP happens under it (so posts go in
	 * backlog order) and stops once @dying is set.
	 */
	spinlock_t lock;
	bool dying, recovering, hold_sends;
	struct list_head agents;
	struct list_head resp_backlog;	/* responses wait here first ... */
	struct list_head req_backlog;	/* ... then requests and resends */
	struct list_head held;		/* requests past MAD_MAX_AWAITING, in post order */
	unsigned int awaiting;		/* requests admitted (may await a response), not done */
	struct list_head send_list;	/* every MAD with a WR on the QP, in post order */
	struct list_head done;		/* DONE, handlers not yet called */
	unsigned int outstanding;	/* work requests of the MADs on send_list */
	u64 next_wr_id;			/* WR ids, never reused: a stale one matches nothing */
	atomic64_t stats[OIB_MAD_PORT_NSTATS];
	struct dentry *debugfs;

	/* RMPP messages being received (struct mad_reasm, by TID): the port work's alone */
	DECLARE_HASHTABLE(reasm, MAD_REASM_HASH_BITS);
	struct delayed_work reasm_tick;	/* has the port work expire them, while there are any */
	unsigned long reasm_due;	/* bit 0: the port work looks at them on its next run */
	unsigned long reasm_idle;	/* MAD_REASM_IDLE, unless a test changed it */
	unsigned long reasm_time_wait;	/* MAD_REASM_TIME_WAIT, likewise */
	unsigned int rmpp_ack_ms;	/* MAD_RMPP_ACK_TIMEOUT_MS, likewise */
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

/* mad_fsm.c: the send MAD state table */
void mad_fsm(struct mad_send *ms, enum mad_event event);
bool mad_fsm_accepts(enum mad_state state, enum mad_event event);
bool mad_fsm_waiting(enum mad_state state);

/* mad_port.c: a port's QP, receive ring, work, WR window and recovery */
void mad_port_init(struct mad_port *port, struct oib_device *device, u32 port_num);
int mad_port_setup(struct mad_port *port);
void mad_port_teardown(struct mad_port *port);
struct mad_port *mad_port_get(struct oib_device *device, u32 port);	/* no reference */
void mad_port_put(struct mad_port *port);
void mad_port_kick(struct mad_port *port);
void mad_port_kick_outside(struct mad_port *port);
void mad_port_post_locked(struct mad_port *port);
void mad_port_expire_reasm(struct mad_port *port);

/* mad_agent.c: registration, request lookup, unregister */
/* Can MADs of @mgmt_class go through the GSI QP: not 0, QP0's or a reserved class? */
static inline bool mad_class_on_gsi(u8 mgmt_class)
{
	return mgmt_class && mgmt_class != OIB_MGMT_CLASS_SUBN_LID_ROUTED &&
	       mgmt_class < OIB_MGMT_CLASS_RESERVED_START;
}

struct mad_agent *mad_agent_find_request(struct mad_port *port, const struct oib_mad_hdr *hdr,
					 bool *class_known);

static inline void mad_agent_put(struct mad_agent *ma)
{
	if (refcount_dec_and_test(&ma->refs))
		complete(&ma->done);
}

/* mad_send.c: send MADs */
void mad_send_wr_done(struct mad_port *port, struct mad_send *ms, enum oib_wc_status status);
void mad_send_deliver_done(struct mad_port *port);
void mad_timeout_work(struct work_struct *work);
void mad_arm_timeout(struct mad_agent *ma, struct mad_send *ms, unsigned int timeout_ms);
void mad_backlog_add(struct mad_port *port, struct mad_send *ms);
void mad_send_finish_locked(struct mad_port *port, struct mad_send *ms);
bool mad_send_cancel_locked(struct mad_send *ms, enum oib_mad_send_status status);
void mad_flush_agent_locked(struct mad_agent *ma, enum oib_mad_send_status status);
bool mad_send_match_response(struct mad_port *port, u8 *copy, const struct oib_mad_recv *recv);
struct mad_agent *mad_send_rmpp_requester(struct mad_port *port, const struct oib_mad_hdr *hdr);

/* mad_rmpp_send.c: RMPP sends, and the ACK, STOP and ABORT about them */
static inline const struct oib_rmpp_hdr *mad_rmpp_hdr(const struct oib_mad_hdr *hdr)
{
	return (const struct oib_rmpp_hdr *)(hdr + 1);
}

bool mad_is_rmpp(const struct oib_mad_hdr *hdr);
void mad_rmpp_fill(void *mad, const void *hdr, size_t hdr_len, u8 type, u8 flags, u8 status,
		   u32 seg, u32 paylen_newwin);
void mad_rmpp_start(struct mad_send *ms);
unsigned int mad_rmpp_build_train(struct mad_send *ms, unsigned int room);
bool mad_rmpp_sent(struct mad_port *port, struct mad_send *ms);
bool mad_rmpp_ctl(struct mad_port *port, const struct oib_mad_recv *recv);
void mad_rmpp_abort_peer(struct mad_port *port, struct mad_send *ms);

/* mad_recv.c: the receive path */
enum mad_verdict {
	MAD_RX_DISPATCHED,
	MAD_RX_RESPONSE,
	MAD_RX_ANSWERED,
	MAD_RX_MALFORMED,
	MAD_RX_UNMATCHED,
	MAD_RX_NO_AGENT,
	MAD_RX_RMPP,		/* a segment or ACK/STOP/ABORT the RMPP layer took */
	MAD_RX_NOT_RMPP,	/* not for the layer's RMPP: dispatch as a single MAD */
};

void mad_recv(struct mad_port *port, const u8 *buf, const struct oib_wc *wc);

/* mad_rmpp_recv.c: RMPP receives (reassembly) */
enum mad_verdict mad_reasm_data(struct mad_port *port, const u8 *buf,
				const struct oib_mad_recv *recv);
bool mad_reasm_abort(struct mad_port *port, const struct oib_mad_recv *recv);
void mad_reasm_expire(struct mad_port *port);

/* mad_addr.c: addresses of received MADs */
int mad_grh_gids(const u8 *grh, union oib_gid *sgid, union oib_gid *dgid);
int mad_ah_attr_from_grh(struct mad_port *port, const u8 *grh, struct oib_ah_attr *attr);

/* mad_self.c: the port's own agent */
int mad_self_start(struct mad_port *port);
void mad_self_stop(struct mad_port *port);
struct oib_mad_send_buf *mad_self_buf(struct mad_port *port, const struct oib_ah_attr *attr,
				      u32 remote_qpn, u16 pkey_index);
void mad_self_post(struct oib_mad_send_buf *sb);
void mad_self_answer(struct mad_port *port, const u8 *buf, const struct oib_mad_recv *recv,
		     u16 status);

/* mad_debugfs.c */
void mad_debugfs_init(void);
void mad_debugfs_exit(void);
void mad_debugfs_add_port(struct mad_port *port);
void mad_debugfs_remove_port(struct mad_port *port);
void mad_debugfs_remove_device(struct oib_device *device);

#endif /* OIB_MAD_PRIV_H */
