/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_rxe internals.  Each structure embeds the core's object first (the core allocates it with
 * our size) and says which lock guards what.  Object lifetimes are the core's (see <oib/verbs.h>);
 * the device's own tables (QPNs, memory keys) only map numbers to objects that exist.
 */
#ifndef OIB_RXE_H_PRIV
#define OIB_RXE_H_PRIV

#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <oib/provider.h>
#include <oib/rxe.h>
#include <oib/sw.h>
#include "orxe_queue.h"
#include "orxe_fabric.h"
#include "orxe_hdr.h"

#define ORXE_VENDOR_ID		0xffffff	/* no IEEE OUI: a software device */
#define ORXE_MAX_SGE		32
#define ORXE_MAX_INLINE		256
#define ORXE_MAX_FAST_REG_PAGES	512	/* blocks a fast-registration MR maps at most */
#define ORXE_MAX_RD_ATOMIC	128
#define ORXE_MAX_GID		16
#define ORXE_MAX_PKEYS		64
#define ORXE_HOP_LIMIT		64	/* what reach() reports: IP's default TTL */
#define ORXE_QPN_FIRST		16	/* 0 and 1 are the special QPs of every port */
#define ORXE_QPN_LAST		0xffffff

/*
 * A port is one attachment to the device's fabric.  fport is attached from registration to removal;
 * its rx() runs in process context on the fabric's workqueue.
 */
struct orxe_port {
	struct orxe_dev *rdev;
	u32 port_num;
	u8 mac[6];
	enum oib_port_state state;	/* read locklessly; written under orxe_dev.lock */
	enum oib_mtu max_mtu, active_mtu;
	struct orxe_fabric_port fport;
	atomic64_t stats[OIB_RXE_PORT_NSTATS];
};

/*
 * A device on a network device (orxe_link.c, orxe_udp.c): its one port's frames leave and arrive
 * through the uplink, the other port of the device's own fabric, as RoCEv2 over UDP on ndev.
 *
 * Embedded in its device.  Bound (orxe_link_bind()) from the device's creation until the netdev is
 * unregistered or the device removed, whichever comes first (orxe_link_unbind()); both under RTNL.
 * While bound it holds ndev and its namespace's UDP sockets and is published in that namespace's
 * table, where the receive hook and the notifiers find it (under RCU or RTNL).  Unbinding on
 * NETDEV_UNREGISTER queues remove_work, which removes the device.
 */
struct orxe_link {
	struct orxe_dev *rdev;
	struct orxe_fabric_port fport;	/* the uplink, attached from bind to orxe_link_release() */
	struct net_device __rcu *ndev;	/* NULL when not bound; written under RTNL */
	netdevice_tracker tracker;
	struct work_struct gid_work;	/* makes the port's GIDs the netdev's addresses */
	struct work_struct remove_work;
};

struct orxe_dev {
	struct oib_device ib;
	struct list_head list;		/* in the module's device list */
	u32 serial;
	spinlock_t lock;		/* protects port state changes */
	struct orxe_port ports[OIB_RXE_MAX_PORTS];
	struct oib_device_attr attr;
	struct orxe_fabric *fabric;	/* every port's, held from allocation to release */

	struct xarray qpns;		/* QPN -> struct orxe_qp, for QPN >= ORXE_QPN_FIRST */
	struct orxe_qp *special_qp[OIB_RXE_MAX_PORTS][2];	/* [port - 1][QPN], under lock */
	struct oib_sw_mr_table mr_keys;	/* oib_core's: MRs are struct oib_sw_mr */
	struct xarray srqns;		/* XRC SRQ number -> struct orxe_srq (orxe_xrc.c) */
	u32 next_srqn;			/* cyclic allocation hint for srqns */
	u32 next_qpn;			/* cyclic allocation hint for qpns */
	struct workqueue_struct *comp_wq;	/* completion handler work, one per CQ */
	spinlock_t atomic_lock;		/* makes the responder's atomics atomic to each other */
	bool on_netdev;			/* link is used: one port, on a network device */
	struct orxe_link link;
};

struct orxe_pd {
	struct oib_pd ib;
};

struct orxe_ah {
	struct oib_ah ib;
};

/*
 * MRs are oib_core's struct oib_sw_mr in the device's mr_keys (<oib/sw.h> has their states, keys
 * and lifetime).  Whoever resolves a key to a kernel address (orxe_sge_get(), orxe_rkey_get())
 * holds the MR until its copies are done (oib_sw_mr_put()): at the end of one packet, of a
 * responder's write run, of a read's responses, of an atomic, of a requester's run
 * (orxe_sge_memo).  Nothing keeps an address across packets: a multi-packet write keeps its
 * R_Key and next address and resolves each packet again, so a deregistered or invalidated MR
 * fails the rest of the message (RC: a remote access NAK; UC: it is dropped).  A page that a
 * frame still carries by reference after deregistration is kept by the frame's own page count
 * (orxe_train.c).  oib_rxe resolves a key for bytes contiguous in the kernel's address space
 * only: it copies to and from one kernel address per SGE or request.
 */

/* A receive WQE, as posted to an RQ or SRQ: the request with its SGEs copied in. */
struct orxe_recv_wqe {
	u64 wr_id;
	u32 num_sge;
	struct oib_sge sge[];
};

/*
 * A send WQE: the request with its SGEs (or inline data) copied in, and what the RC/UC requester
 * keeps about it (under the QP's sq_lock).
 */
struct orxe_send_wqe {
	struct oib_send_wr wr;		/* next and sg_list unused: see sge[] */
	u32 len;			/* of the message: the SGEs' or the inline bytes */
	u32 inline_len;
	u32 first_psn, last_psn;	/* the PSNs it took (a read: its responses') */
	enum oib_wc_status status;	/* failed before it left: completes so, in order */
	bool rd_atomic;			/* a read or atomic request that counts in req.rd_atomic */
	struct oib_sge sge[];		/* then the inline bytes, if OIB_SEND_INLINE */
};

/*
 * An SRQ.  An XRC one is also in the device's srqns under its number: an XRC target's responder
 * finds it there for each request (orxe_xrc_srq_get()) and holds ref while it uses it; destroy
 * takes the number away, drops the first reference and waits for ref_done.
 */
struct orxe_srq {
	struct oib_srq ib;
	spinlock_t lock;		/* protects queue and limit */
	struct orxe_queue queue;		/* of struct orxe_recv_wqe */
	u32 max_sge;
	u32 limit;			/* armed when non-zero */
	refcount_t ref;			/* XRC: 1 while numbered, plus each responder's use */
	struct completion ref_done;
};

/*
 * The RC/UC requester, under the QP's sq_lock.  The SQ ring's consumer index is the oldest request
 * not yet completed.  (next, off, psn) is where sending is: the request, the bytes of it sent, the
 * PSN the next packet takes.  (hw_next, hw_psn) is the furthest sending ever got: requests before
 * hw_next have been wholly sent at least once and know their PSNs.  PSNs before 'una' are
 * acknowledged.  Going back to send again moves (next, off, psn) back to 'una'; an ACK for what
 * was sent before that moves it forward again.
 */
struct orxe_req {
	u32 next;			/* SQ index: the first request not wholly sent */
	u32 off;			/* bytes of it already sent */
	u32 psn;			/* the next PSN to send */
	u32 hw_next, hw_off, hw_psn;	/* the furthest (next, off, psn) reached */
	u32 una;			/* the oldest PSN not yet acknowledged */
	u32 ack_req_psn;		/* the last PSN sent asking for an ACK */
	u32 rd_atomic;			/* reads and atomics sent and not yet answered */
	u32 window;			/* PSNs unacknowledged at most (4 after a timeout) */
	u8 retry_left, rnr_left;	/* tries left before RETRY_EXC_ERR, RNR_RETRY_EXC_ERR */
	bool rnr_wait;			/* an RNR NAK's delay runs: nothing is sent until it ends */
	bool going_back;		/* sending again from back_psn, nothing acked since: */
	u32 back_psn;			/* a NAK or lost response there asks for nothing new */
	bool stopped;			/* destroy: the timer is not armed again */
	ktime_t deadline;		/* when the timer is due; a later one re-arms it */
	struct hrtimer timer;		/* the ACK timeout, or the end of an RNR delay */
	struct work_struct work;	/* the timer's expiry, in process context */
};

/* A read or atomic the responder executed, kept to answer the request again if it is repeated. */
struct orxe_rsrc {
	u8 opcode;			/* of the request; 0: the slot is free */
	u32 first_psn, last_psn;	/* of its response packets */
	u64 va;				/* reads: what was read, to check repeats against */
	u32 rkey, len;
	u64 orig;			/* atomics: the value found, the answer to repeat */
};

/*
 * The RC/UC responder, under the QP's rq_lock.  'epsn' is the next request PSN expected.  A message
 * spanning packets keeps its receive WQE (sends, writes with immediate) or its target (writes: the
 * R_Key and address, never a resolved kernel address) here from the first packet to the last.
 */
struct orxe_resp {
	u32 epsn;
	/*
	 * The PSN duplicates of sends and writes are acknowledged with: the last send or write
	 * packet executed.  Never a read's or atomic's (epsn - 1 may be one): requesters such as
	 * the in-tree rxe take an ACK naming a read's PSN for that read's completion.
	 */
	u32 ack_psn;
	u32 msn;			/* messages completed, 24 bits */
	bool nak_sent;			/* a NAK for epsn is out: no other until it moves */
	bool comm_est;			/* the first packet in RTR has raised COMM_EST */
	bool uc_drop;			/* UC: a message was lost; wait for a first packet */
	u16 op;				/* the message in progress: ORXE_OPF_SEND, _WRITE or 0 */
	u32 off;			/* bytes of it received */
	u64 va;				/* writes: where the next byte goes, under ... */
	u32 rkey;			/* ... this R_Key (checked again for each packet), ... */
	u32 resid;			/* ... and how many are still to come */
	bool have_recv;			/* recv holds a receive WQE taken for the message */
	struct {
		struct orxe_recv_wqe wqe;
		struct oib_sge sge[ORXE_MAX_SGE];
	} recv;
	struct orxe_rsrc *rsrc;		/* max_dest_rd_atomic of them, used round robin */
	u32 nrsrc, rsrc_next;
	/*
	 * XRC targets: the SRQ the packet being handled is steered to, held (orxe_xrc.c) from
	 * before the responder runs until after (NULL: none), and the number of the one the
	 * message in progress (op) is for.
	 */
	struct orxe_srq *xsrq;
	u32 xsrqn;
};

/* The headers every frame of a connected QP starts from, resolved when its path is set. */
struct orxe_path {
	bool valid;			/* the path names a GID and P_Key that exist */
	bool resolved;			/* hdr.dmac is the destination's: else resolve again */
	struct orxe_tx_hdr hdr;
};

/*
 * A QP.  The core's qp->state is under qp->mutex (modify/query); the data path cannot sleep, so
 * the state it acts on is our own copy, 'state', written with both sq_lock and rq_lock held and
 * read with either.  attr (the attributes as last modified) and path are written the same way by
 * modify, under the core's qp->mutex, and read by the transport under either lock.  The transport
 * may move 'state' to ERR on its own (a transport error); the core learns it on the next query.
 * Lock order: sq_lock, then rq_lock, then a CQ's lock.
 */
struct orxe_qp {
	struct oib_qp ib;
	/*
	 * The receive path finds a QP by number and holds ref while it delivers; destroy takes the
	 * number away, drops the first reference and waits for ref_done.
	 */
	refcount_t ref;
	struct completion ref_done;
	spinlock_t sq_lock;		/* protects sq and, with rq_lock, state */
	spinlock_t rq_lock;		/* protects rq and, with sq_lock, state */
	enum oib_qp_state state;
	struct orxe_queue sq;		/* of struct orxe_send_wqe */
	struct orxe_queue rq;		/* of struct orxe_recv_wqe; unused with an SRQ */
	struct oib_qp_cap cap;
	enum oib_sig_type sq_sig_type;
	struct oib_qp_attr attr;
	struct orxe_path path;
	struct orxe_req req;
	struct orxe_resp resp;
};

static inline struct orxe_dev *to_rdev(struct oib_device *d)
{
	return container_of(d, struct orxe_dev, ib);
}

#define ORXE_TO(type, member, ptr) container_of(ptr, struct type, member)
#define to_rpd(p)	ORXE_TO(orxe_pd, ib, p)
#define to_rah(p)	ORXE_TO(orxe_ah, ib, p)
#define to_rsrq(p)	ORXE_TO(orxe_srq, ib, p)
#define to_rqp(p)	ORXE_TO(orxe_qp, ib, p)

extern const struct oib_device_ops orxe_dev_ops;
void orxe_dealloc_driver(struct oib_device *ibdev);

/* orxe_cq.c: CQs are oib_core's struct oib_sw_cq, their handlers on comp_wq */
int orxe_create_cq(struct oib_cq *ibcq, const struct oib_cq_init_attr *attr);

/* orxe_qp.c */
int orxe_create_qp(struct oib_qp *ibqp, struct oib_qp_init_attr *init);
int orxe_modify_qp(struct oib_qp *ibqp, struct oib_qp_attr *attr, int mask);
int orxe_query_qp(struct oib_qp *ibqp, struct oib_qp_attr *attr, int mask,
		  struct oib_qp_init_attr *init);
void orxe_destroy_qp(struct oib_qp *ibqp);
int orxe_post_send(struct oib_qp *ibqp, const struct oib_send_wr *wr,
		   const struct oib_send_wr **bad_wr);
int orxe_post_recv(struct oib_qp *ibqp, const struct oib_recv_wr *wr,
		   const struct oib_recv_wr **bad_wr);
/* What orxe_recv_take() found that orxe_recv_events() reports. */
#define ORXE_RECV_LIMIT		BIT(0)	/* the SRQ fell below its armed limit */
#define ORXE_RECV_SRC_ERR	BIT(1)	/* the receive source found a bad receive */
bool orxe_recv_take(struct orxe_qp *qp, struct orxe_recv_wqe *out, u32 max_sge, u8 *ev);
void orxe_recv_events(struct orxe_qp *qp, struct oib_srq *srq, u8 ev);
void orxe_sq_complete(struct orxe_qp *qp, enum oib_wc_status status);
bool orxe_qp_err_locked(struct orxe_qp *qp);
bool orxe_qp_err(struct orxe_qp *qp);
void orxe_qp_event(struct orxe_qp *qp, enum oib_event_type type);

static inline bool orxe_qp_xrc(const struct orxe_qp *qp)
{
	return qp->ib.qp_type == OIB_QPT_XRC_INI || qp->ib.qp_type == OIB_QPT_XRC_TGT;
}

/* RC and XRC: acknowledged, retried; the XRC types are RC's requester or responder alone. */
static inline bool orxe_qp_reliable(const struct orxe_qp *qp)
{
	return qp->ib.qp_type == OIB_QPT_RC || orxe_qp_xrc(qp);
}

static inline bool orxe_qp_connected(const struct orxe_qp *qp)
{
	return qp->ib.qp_type == OIB_QPT_UC || orxe_qp_reliable(qp);
}

/* The opcode @qp sends for the RC operation @rc_op: the XRC twin on an XRC QP. */
static inline u8 orxe_qp_opcode(const struct orxe_qp *qp, u8 rc_op)
{
	return orxe_qp_xrc(qp) ? rc_op | ORXE_XRC_OPCODE : rc_op;
}

/* The RC operation of a received RC or XRC opcode. */
static inline u8 orxe_rc_op(u8 opcode)
{
	return opcode & ORXE_OPCODE_OP_MASK;
}

/*
 * The PD remote requests and receive buffers are checked against: an XRC target's is its
 * current SRQ's (none: NULL, which no key matches).
 */
static inline struct oib_pd *orxe_qp_data_pd(const struct orxe_qp *qp)
{
	if (qp->ib.qp_type != OIB_QPT_XRC_TGT)
		return qp->ib.pd;
	return qp->resp.xsrq ? qp->resp.xsrq->ib.pd : NULL;
}

/* PSNs are 24-bit sequence numbers: a - b as a signed distance, and psn + n. */
static inline s32 orxe_psn_cmp(u32 a, u32 b)
{
	return (s32)((a - b) << 8) >> 8;
}

static inline u32 orxe_psn_add(u32 psn, u32 n)
{
	return (psn + n) & ORXE_PSN_MASK;
}

/* Reads and atomics: answered by responses of their own, limited by max_rd_atomic. */
static inline bool orxe_wr_rd_atomic(enum oib_wr_opcode op)
{
	return op == OIB_WR_RDMA_READ || op == OIB_WR_ATOMIC_CMP_AND_SWP ||
	       op == OIB_WR_ATOMIC_FETCH_AND_ADD;
}

/* orxe_net.c */
int orxe_path_resolve(struct orxe_qp *qp, const struct oib_qp_attr *attr, struct orxe_path *path);
struct sk_buff *orxe_frame_alloc(const struct orxe_tx_hdr *hdr, u8 **payload);
void orxe_frame_xmit(struct orxe_port *port, struct sk_buff *skb);
bool orxe_route(struct orxe_port *port, const union oib_gid *dgid, u8 *dmac, bool resolved);
bool orxe_conn_hdr(struct orxe_qp *qp, struct orxe_tx_hdr *hdr);
struct orxe_port *orxe_qp_port(struct orxe_qp *qp);

/* orxe_train.c: fragment frames and trains (struct orxe_train in <oib/kunit/rxe.h>) */
int orxe_train_module_init(void);
void orxe_train_module_exit(void);
bool orxe_frag_tx(void);
void orxe_train_start(struct orxe_train *t, struct orxe_port *port);
void orxe_train_send(struct orxe_train *t);
void orxe_train_xmit(struct orxe_train *t, struct sk_buff *skb);

/* orxe_req.c: the RC/UC requester */
void orxe_req_init(struct orxe_qp *qp);
void orxe_req_start(struct orxe_qp *qp);
void orxe_req_stop(struct orxe_qp *qp);
void orxe_req_kick(struct orxe_qp *qp);
void orxe_req_run(struct orxe_qp *qp);
void orxe_req_rewind(struct orxe_qp *qp, u32 psn);
void orxe_req_seek(struct orxe_qp *qp, u32 psn);
void orxe_req_arm(struct orxe_qp *qp, u64 ns);
void orxe_req_progress(struct orxe_qp *qp);
void orxe_req_rnr(struct orxe_qp *qp, u32 psn, u64 ns);
u64 orxe_rnr_ns(u8 code);

/* orxe_comp.c: what the requester receives */
void orxe_comp_recv(struct orxe_port *port, struct orxe_qp *qp, const struct orxe_pkt *pkt);
bool orxe_comp_ack_below(struct orxe_qp *qp, u32 psn);

/* A connected QP takes packets of its own partition only. */
static inline bool orxe_conn_pkey_ok(const struct orxe_qp *qp, const struct orxe_pkt *pkt)
{
	return (pkt->pkey & 0x7fff) == (qp->path.hdr.pkey & 0x7fff);
}

/* What the responder makes of a request. */
enum orxe_resp_result {
	ORXE_RESP_OK,
	ORXE_RESP_RNR,		/* no receive posted */
	ORXE_RESP_INVALID,	/* the request makes no sense here */
	ORXE_RESP_ACCESS,	/* the R_Key or the QP's access flags forbid it */
	ORXE_RESP_OP_ERR,	/* the local receive buffer failed it */
};

/* orxe_xrc.c: XRC SRQ numbers, and steering at an XRC target */
int orxe_xrc_srq_number(struct orxe_dev *rdev, struct orxe_srq *srq);
void orxe_xrc_srq_unnumber(struct orxe_dev *rdev, struct orxe_srq *srq);
void orxe_xrc_steer(struct orxe_qp *qp, const struct orxe_pkt *pkt);
void orxe_xrc_unsteer(struct orxe_qp *qp);
enum orxe_resp_result orxe_xrc_check(struct orxe_port *port, struct orxe_qp *qp,
				     const struct orxe_pkt *pkt);
struct orxe_srq *orxe_xrc_srq_get(struct orxe_dev *rdev, u32 srqn);
void orxe_xrc_srq_put(struct orxe_srq *srq);

/* orxe_resp.c: the RC/UC responder */
void orxe_resp_recv(struct orxe_port *port, struct orxe_qp *qp, const struct orxe_pkt *pkt);
/* The packets of a run (orxe_resp_write_run()): their payloads, and which ask for an ACK. */
struct orxe_run {
	const void *payload[ORXE_TRAIN_MAX];
	u32 psn;			/* the first's; each next one's is one more */
	u32 acks;			/* bit i: packet i asks for one */
	u32 n;
};

u32 orxe_resp_write_run(struct orxe_port *port, struct orxe_qp *qp, const struct orxe_pkt *pkt,
			const struct orxe_run *run);
void orxe_resp_reset(struct orxe_qp *qp);

/* orxe_srq.c */
int orxe_create_srq(struct oib_srq *ibsrq, struct oib_srq_init_attr *init);
int orxe_modify_srq(struct oib_srq *ibsrq, struct oib_srq_attr *attr, enum oib_srq_attr_mask mask);
int orxe_query_srq(struct oib_srq *ibsrq, struct oib_srq_attr *attr);
void orxe_destroy_srq(struct oib_srq *ibsrq);
int orxe_post_srq_recv(struct oib_srq *ibsrq, const struct oib_recv_wr *wr,
		       const struct oib_recv_wr **bad_wr);
int orxe_recv_wqe_copy(struct orxe_recv_wqe *wqe, const struct oib_recv_wr *wr, u32 max_sge);

/* orxe_port.c */
int orxe_ports_attach(struct orxe_dev *rdev);
void orxe_ports_detach(struct orxe_dev *rdev);
int orxe_add_gid(struct oib_device *ibdev, u32 port_num, const union oib_gid *gid);
void orxe_del_gid(struct oib_device *ibdev, u32 port_num, const union oib_gid *gid);
int orxe_reach(struct oib_device *ibdev, u32 port_num, const union oib_gid *dgid, u8 *hop_limit);
struct orxe_qp *orxe_qp_get(struct orxe_dev *rdev, u32 port_num, u32 qpn);
void orxe_qp_put(struct orxe_qp *qp);

static inline void orxe_port_count(struct orxe_port *port, enum oib_rxe_port_stat stat)
{
	atomic64_inc(&port->stats[stat]);
}

static inline void orxe_port_count_n(struct orxe_port *port, enum oib_rxe_port_stat stat, u32 n)
{
	atomic64_add(n, &port->stats[stat]);
}

/* orxe_link.c: devices on network devices */
int orxe_link_init(void);
void orxe_link_exit(void);
void orxe_link_setup(struct orxe_dev *rdev);
int orxe_link_bind(struct orxe_dev *rdev, struct net_device *ndev);
void orxe_link_stop(struct orxe_dev *rdev, bool in_remove_work);
void orxe_link_release(struct orxe_dev *rdev);
int orxe_link_reach(struct orxe_link *link, const union oib_gid *dgid, u8 *hop_limit);
void orxe_dev_remove_work(struct orxe_dev *rdev);
int orxe_link_stats(struct oib_device *ibdev, u32 port, const char *const **names, u64 *values,
		    int max);
void orxe_link_debugfs_add(struct orxe_dev *rdev);

/* orxe_udp.c: their UDP sockets and uplinks */
int orxe_udp_init(void);
void orxe_udp_exit(void);
void orxe_udp_uplink_init(struct orxe_link *link, const u8 *port_mac);
int orxe_udp_link_add(struct orxe_link *link, struct net_device *ndev);
void orxe_udp_link_del(struct orxe_link *link, struct net_device *ndev);
struct orxe_link *orxe_udp_find_link(const struct net_device *ndev);
u64 orxe_udp_unclaimed(const struct net_device *ndev);

/* orxe_debugfs.c */
void orxe_debugfs_add(struct orxe_dev *rdev);

/* orxe_ud.c */
void orxe_ud_send(struct orxe_qp *qp);
u32 orxe_recv_capacity(const struct orxe_recv_wqe *wqe);
void orxe_ud_recv(struct orxe_port *port, struct orxe_qp *qp, const struct orxe_pkt *pkt,
		  const u8 *frame);
u16 orxe_udp_sport(u32 src_qpn, u32 dst_qpn);

/* orxe_mr.c */

/*
 * The kernel address of the bytes an SGE names, after checking its key against @pd, its bounds
 * and @access; NULL if any check fails or the bytes are not contiguous in the kernel.  The local
 * DMA lkey (0) names kernel memory directly.  A key that passes holds its MR (*@mrp; NULL if
 * none was needed) until the caller's oib_sw_mr_put(): a deregistration either comes first (and
 * the key fails) or waits for the copy.  Per packet: inline, one call into the key table.
 */
static inline void *orxe_sge_get(struct orxe_dev *rdev, struct oib_pd *pd,
				 const struct oib_sge *sge, int access, struct oib_sw_mr **mrp)
{
	struct oib_sw_mr_ref ref;

	*mrp = NULL;
	if (!sge->length)
		return ZERO_SIZE_PTR;
	if (sge->addr + sge->length < sge->addr)
		return NULL;
	if (sge->lkey == pd->local_dma_lkey)
		return (void *)(uintptr_t)sge->addr;
	if (oib_sw_mr_get(&rdev->mr_keys, pd, sge->lkey, false, sge->addr, sge->length, access,
			  &ref))
		return NULL;
	if (ref.len < sge->length) {
		oib_sw_mr_put(ref.mr);
		return NULL;
	}
	*mrp = ref.mr;
	return ref.kva;
}

/*
 * The kernel address of @len bytes at @va under @rkey, for a remote request on a QP of @pd
 * needing @access; NULL if the key is not a valid remote key of @pd for that range and access.
 * The MR is held as by orxe_sge_get().  A zero-length request names no memory and needs no key.
 */
static inline void *orxe_rkey_get(struct orxe_dev *rdev, struct oib_pd *pd, u32 rkey, u64 va,
				  u32 len, int access, struct oib_sw_mr **mrp)
{
	struct oib_sw_mr_ref ref;

	*mrp = NULL;
	if (!len)
		return ZERO_SIZE_PTR;
	if (oib_sw_mr_get(&rdev->mr_keys, pd, rkey, true, va, len, access, &ref))
		return NULL;
	if (ref.len < len) {
		oib_sw_mr_put(ref.mr);
		return NULL;
	}
	*mrp = ref.mr;
	return ref.kva;
}

bool orxe_rkey_ok(struct orxe_dev *rdev, struct oib_pd *pd, u32 rkey, u64 va, u32 len,
		  int access);
/*
 * The SGE a sender took bytes from last, its kernel address and the reference on its MR that
 * keeps the address good: within one run of the sender (under sq_lock, where the SQ's WQEs stay
 * put) an SGE's key is checked once (orxe_sgl_kva()); orxe_sge_memo_drop() ends the run.
 */
struct orxe_sge_memo {
	const struct oib_sge *sge;
	u8 *kva;
	struct oib_sw_mr *mr;		/* held; NULL: none, or the local DMA lkey */
};

const void *orxe_sgl_kva(struct orxe_qp *qp, const struct oib_sge *sge, u32 num_sge, u32 off,
			 u32 len, struct orxe_sge_memo *memo);
void orxe_sge_memo_drop(struct orxe_sge_memo *memo);
bool orxe_sgl_copy(struct orxe_qp *qp, const struct oib_sge *sge, u32 num_sge, u32 off, void *buf,
		   u32 len, bool to_sgl);
int orxe_alloc_mr(struct oib_mr *ibmr, u32 max_num_sg);
int orxe_get_dma_mr(struct oib_mr *ibmr, int access);
int orxe_reg_kernel_mr(struct oib_mr *ibmr, void *addr, size_t len, int access);
void orxe_dereg_mr(struct oib_mr *ibmr);

#endif /* OIB_RXE_H_PRIV */
