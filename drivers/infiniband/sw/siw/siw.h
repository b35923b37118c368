/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_siw internals.  Files, one layer each: siw_wire.h and siw_mpa.c (the wire), siw_main.c
 * (devices on netdevs, GIDs, counters), siw_verbs.c (the ops table, PD, CQ), siw_mr.c (copies
 * through keys), siw_qp.c (QPs, posting, completions, errors), siw_tx.c and siw_rx.c (FPDUs
 * out and in), siw_cm.c (TCP connections and the MPA exchange), siw_listen.c (listeners).
 *
 * Lock order: siw_conn.lock > siw_listen_lock (a request is delivered under both), and
 * siw_conn.lock > siw_qp.lock > a CQ's lock (struct oib_sw_cq); the MR key table's lock is taken
 * alone.  The listener's event handler (oib_iwcm's) only queues, under a spinlock of its own.
 * Work items run on siw_wq: a connection's (MPA phase), a QP's tx and rx (after it), a listening
 * socket's accepts.
 */
#ifndef OIB_SIW_PRIV_H
#define OIB_SIW_PRIV_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/netdevice.h>
#include <linux/refcount.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <oib/provider.h>
#include <oib/siw.h>
#include <oib/sw.h>
#include "siw_wire.h"

#define SIW_MAX_SGE		6
#define SIW_MAX_INLINE		64
#define SIW_MAX_QP_WR		4096
#define SIW_MAX_ORD		128
#define SIW_MAX_IRD		128
#define SIW_MAX_FAST_REG_PAGES	256
#define SIW_RX_STREAM		65536
#define SIW_TX_BUF		65536
/* The MPA request must come within this, the reply within this after the request went. */
#define SIW_MPA_TIMEOUT_MS	20000	/* the mpa_timeout_ms parameter's default */
#define SIW_MPA_TIMEOUT_MIN_MS	100U

extern struct workqueue_struct *siw_wq;

struct siw_dev {
	struct oib_device ib;
	struct list_head entry;		/* siw_devices, under siw_devices_lock */
	struct net_device __rcu *ndev;	/* set before registering; RTNL; NULL once unbound */
	netdevice_tracker tracker;
	struct work_struct gid_work;	/* GIDs follow the netdev's addresses */
	struct work_struct remove_work;	/* the netdev went */
	struct oib_device_attr attr;
	struct oib_sw_mr_table mr_keys;	/* oib_core's: MRs are struct oib_sw_mr */
	atomic_t next_qpn;
	atomic_t nconns;		/* connections naming the device; removal waits for 0 */
	atomic64_t stats[OIB_SIW_NSTATS];
};

static inline struct siw_dev *to_sdev(struct oib_device *ib)
{
	return container_of(ib, struct siw_dev, ib);
}

static inline void siw_count(struct siw_dev *sdev, enum oib_siw_stat stat, u64 n)
{
	atomic64_add(n, &sdev->stats[stat]);
}

extern const struct oib_device_ops siw_dev_ops;

/* siw_main.c */
struct net *siw_dev_net(struct siw_dev *sdev);	/* under rcu_read_lock; NULL if unbound */
void siw_debugfs_add(struct siw_dev *sdev);

/* ---- CQs: oib_core's struct oib_sw_cq (<oib/sw.h>), handlers on siw_wq ---- */

/* ---- MRs (siw_mr.c): oib_core's struct oib_sw_mr in the device's mr_keys ---- */

int siw_get_dma_mr(struct oib_mr *mr, int access);
int siw_reg_kernel_mr(struct oib_mr *mr, void *addr, size_t len, int access);
int siw_alloc_mr(struct oib_mr *mr, u32 max_num_sg);
void siw_dereg_mr(struct oib_mr *mr);
/*
 * Copy @len bytes between @buf and the memory @key names at @va: into it if @to_mem.  @remote:
 * @key is an rkey (else an lkey, or the PD's local DMA lkey).  0, -EINVAL (no such key, or
 * another PD's), -EACCES (access), -ERANGE (bounds).
 */
int siw_mem_copy(struct siw_dev *sdev, struct oib_pd *pd, u32 key, u64 va, void *buf, u32 len,
		 int access, bool remote, bool to_mem);

/* ---- QPs (siw_qp.c) ---- */

/* A send or receive work request as queued. */
struct siw_wqe {
	u64 wr_id;
	enum oib_wr_opcode op;
	int flags;			/* OIB_SEND_* */
	u32 num_sge;
	struct oib_sge sge[SIW_MAX_SGE];
	u32 len;			/* the SGL's bytes */
	u64 raddr;
	u32 rkey;
	u32 inv;			/* SEND_WITH_INV, LOCAL_INV: the key */
	struct oib_mr *mr;		/* REG_MR */
	u32 key;
	int access;
	u8 inline_data[SIW_MAX_INLINE];
	bool done;			/* send queue: finished, completes in order */
	enum oib_wc_status status;
};

/* An inbound RDMA READ to answer. */
struct siw_rresp {
	u32 sink_stag;
	u64 sink_to;
	u32 len;
	u32 src_stag;
	u64 src_to;
};

enum siw_qp_state {
	SIW_QP_IDLE,		/* no connection yet */
	SIW_QP_RTS,		/* the connection carries it */
	SIW_QP_ERR,		/* failed or closed: flushing, the connection going */
};

struct siw_conn;

/*
 * A QP.  The core's object; the connection (siw_conn) it is attached to holds no reference on
 * it: the QP holds one on the connection from attach to destroy, and destroy stops the work
 * items first.
 */
struct siw_qp {
	struct oib_qp ib;
	struct siw_dev *sdev;
	spinlock_t lock;		/* rings and indices, @state, ORQ, IRQ, @term */
	enum siw_qp_state state;
	bool sig_all;
	int access;			/* OIB_ACCESS_REMOTE_*: what the peer may do to us */
	struct siw_wqe *sq;
	u32 sq_mask, sq_prod, sq_next, sq_cons;	/* posted, sent, completed */
	struct siw_wqe *rq;
	u32 rq_mask, rq_prod, rq_cons;
	u32 max_send_sge, max_recv_sge, max_inline;
	u32 orq[SIW_MAX_ORD];		/* SQ indices of READs waiting for their responses */
	u32 orq_prod, orq_cons, ord;
	struct siw_rresp irq[SIW_MAX_IRD];
	u32 irq_prod, irq_cons, ird;
	u32 term;			/* SIW_TERM_* to send, 0: none */
	bool term_sent;
	bool peer_gone;			/* the peer closed, reset or terminated */
	bool closed_reported;

	struct siw_conn *conn;		/* set once by attach, under @lock */
	struct socket *sock;		/* the connection's, while up */
	bool crc;
	u32 payload_max;		/* per FPDU */
	struct work_struct tx_work;	/* sends, read responses, flushing */
	struct work_struct rx_work;	/* FPDUs in */

	/* tx work only */
	u32 send_msn, read_msn;
	u8 *txbuf;			/* FPDUs built, SIW_TX_BUF bytes */
	u32 tx_len;
	struct siw_wqe txwqe;

	/* rx work only */
	u8 *rxstream;			/* what the socket gave, SIW_RX_STREAM bytes */
	u32 rs_head, rs_tail;
	u8 *rxbuf;			/* the FPDU being gathered */
	u32 rx_have, rx_need;
	u32 recv_msn, rreq_msn;		/* next expected on QN 0 and 1 */
	bool recv_active;		/* a SEND's first segment took @recv */
	struct siw_wqe recv;
	u32 recv_len;
	u32 rresp_off;			/* into the READ at the ORQ's head */
	bool rtr_wait;			/* accepted peer-to-peer: the first FPDU is the RTR */
};

static inline struct siw_qp *to_sqp(struct oib_qp *ib)
{
	return container_of(ib, struct siw_qp, ib);
}

int siw_create_qp(struct oib_qp *qp, struct oib_qp_init_attr *attr);
int siw_modify_qp(struct oib_qp *qp, struct oib_qp_attr *attr, int mask);
int siw_query_qp(struct oib_qp *qp, struct oib_qp_attr *attr, int mask,
		 struct oib_qp_init_attr *init);
void siw_destroy_qp(struct oib_qp *qp);
int siw_post_send(struct oib_qp *qp, const struct oib_send_wr *wr,
		  const struct oib_send_wr **bad);
int siw_post_recv(struct oib_qp *qp, const struct oib_recv_wr *wr,
		  const struct oib_recv_wr **bad);
/* The connection is up: the QP sends and receives on @sock. */
void siw_qp_up(struct siw_qp *qp, struct siw_conn *conn, struct socket *sock, bool crc,
	       u32 ird, u32 ord);
/*
 * The QP fails: to ERR, the peer told with TERMINATE @term (0: none; also none once the peer
 * is gone), the queues flushed and the connection closed by the tx work.
 */
void siw_qp_fail(struct siw_qp *qp, u32 term, bool peer_gone);
void siw_qp_complete_sq(struct siw_qp *qp);
/* Flush both queues of a failed QP: from its tx work, the rx work stopped. */
void siw_qp_flush(struct siw_qp *qp);
void siw_qp_recv_done(struct siw_qp *qp, struct siw_wqe *rqe, enum oib_wc_status status,
		      u32 len, bool solicited, u32 inv);
/* Take the next receive WQE into @rqe (a copy); false if none. */
bool siw_qp_take_recv(struct siw_qp *qp, struct siw_wqe *rqe);

static inline void siw_qp_kick(struct siw_qp *qp)
{
	queue_work(siw_wq, &qp->tx_work);
}

/* ---- FPDUs (siw_tx.c, siw_rx.c) ---- */

void siw_tx_work(struct work_struct *work);
void siw_rx_work(struct work_struct *work);
/* Copy between @buf and a WQE's SGL from @off (into it if @to_sgl). */
int siw_sgl_copy(struct siw_qp *qp, const struct siw_wqe *wqe, u32 off, void *buf, u32 len,
		 bool to_sgl);

/* ---- Connections (siw_cm.c, siw_listen.c) ---- */

int siw_iw_connect(struct oib_iw_cm_id *cm_id, const struct oib_iw_cm_conn_param *param);
int siw_iw_accept(struct oib_iw_cm_id *cm_id, const struct oib_iw_cm_conn_param *param);
int siw_iw_reject(struct oib_iw_cm_id *cm_id, const void *pdata, u8 pdata_len);
int siw_iw_create_listen(struct oib_iw_cm_id *cm_id, int backlog);
void siw_iw_destroy_listen(struct oib_iw_cm_id *cm_id);

/* A socket accepted on a listener of @net: its connection reads the MPA request. */
void siw_cm_passive(struct net *net, struct socket *sock);
/*
 * Deliver a received MPA request on a socket of @net whose local address is @local: to the
 * listener that takes it (CONNECT_REQUEST with @ev, provider_data set by the caller).  The
 * listener's device, or NULL if none takes it (the connection is then refused).
 */
struct siw_dev *siw_listen_deliver(struct net *net, const struct sockaddr_storage *local,
				   struct oib_iw_cm_event *ev);
/*
 * Count @stat on the device whose listener a request to @local reaches (nothing if none does):
 * a passive MPA exchange that failed before any device took it.
 */
void siw_listen_count(struct net *net, const struct sockaddr_storage *local,
		      enum oib_siw_stat stat);
/* The QP went to ERR and its queues are flushed: close the connection, tell oib_iwcm. */
void siw_cm_qp_closed(struct siw_conn *conn, bool peer_gone);
/* The first FPDU came on a peer-to-peer connection we accepted: it is up. */
void siw_cm_rtr_received(struct siw_conn *conn);
void siw_conn_put(struct siw_conn *conn);
void siw_cm_qp_gone(struct siw_conn *conn);
void siw_cm_exit(void);
/* The device goes: close the connections no id owns yet, wait for every one to go. */
void siw_cm_dev_stop(struct siw_dev *sdev);
int siw_listen_init(void);
void siw_listen_exit(void);

#endif /* OIB_SIW_PRIV_H */
