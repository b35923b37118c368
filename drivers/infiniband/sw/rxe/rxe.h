/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_rxe internals.  Each structure embeds the core's object first (the core allocates it with
 * our size) and says which lock guards what.  Object lifetimes are the core's (see <oib/verbs.h>);
 * the device's own tables (QPNs, memory keys) only map numbers to objects that exist.
 */
#ifndef OIB_RXE_H_PRIV
#define OIB_RXE_H_PRIV

#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <oib/provider.h>
#include <oib/rxe.h>
#include "rxe_queue.h"
#include "rxe_fabric.h"
#include "rxe_hdr.h"

#define RXE_VENDOR_ID		0xffffff	/* no IEEE OUI: a software device */
#define RXE_MAX_SGE		32
#define RXE_MAX_INLINE		256
#define RXE_MAX_RD_ATOMIC	128
#define RXE_MAX_GID		16
#define RXE_MAX_PKEYS		64
#define RXE_QPN_FIRST		16	/* 0 and 1 are the special QPs of every port */
#define RXE_QPN_LAST		0xffffff

/*
 * A port is one attachment to the device's fabric.  fport is attached from registration to removal;
 * its rx() runs in process context on the fabric's workqueue.
 */
struct rxe_port {
	struct rxe_dev *rdev;
	u32 port_num;
	u8 mac[6];
	enum oib_port_state state;	/* read locklessly; written under rxe_dev.lock */
	enum oib_mtu max_mtu, active_mtu;
	struct rxe_fabric_port fport;
	atomic64_t stats[OIB_RXE_PORT_NSTATS];
};

struct rxe_dev {
	struct oib_device ib;
	struct list_head list;		/* in the module's device list */
	u32 serial;
	spinlock_t lock;		/* protects port state changes */
	struct rxe_port ports[OIB_RXE_MAX_PORTS];
	struct oib_device_attr attr;
	struct rxe_fabric *fabric;	/* every port's, held from allocation to release */

	struct xarray qpns;		/* QPN -> struct rxe_qp, for QPN >= RXE_QPN_FIRST */
	struct rxe_qp *special_qp[OIB_RXE_MAX_PORTS][2];	/* [port - 1][QPN], under lock */
	struct xarray mr_keys;		/* key index (key >> 8) -> struct rxe_mr */
	u32 next_mr_index;		/* cyclic allocation hint for mr_keys */
	u32 next_qpn;			/* cyclic allocation hint for qpns */
	struct workqueue_struct *comp_wq;	/* completion handler work, one per CQ */
};

struct rxe_pd {
	struct oib_pd ib;
};

struct rxe_ah {
	struct oib_ah ib;
};

struct rxe_mr {
	struct oib_mr ib;
	u32 index;			/* in rxe_dev.mr_keys */
};

/*
 * A CQ is a ring of oib_wc.  lock protects the ring, the arming flags and the overflow flag.  The
 * completion handler runs from comp_work on the device's completion workqueue, queued on the CPU of
 * the CQ's completion vector; a work item never runs concurrently with itself, and destroy cancels
 * it synchronously.
 */
struct rxe_cq {
	struct oib_cq ib;
	spinlock_t lock;		/* see above */
	struct rxe_queue queue;
	u32 notify;			/* OIB_CQ_NEXT_COMP or _SOLICITED while armed */
	bool overflow;			/* a completion was lost; the CQ is in error */
	int cpu;			/* of the completion vector */
	struct work_struct comp_work;
};

/* A receive WQE, as posted to an RQ or SRQ: the request with its SGEs copied in. */
struct rxe_recv_wqe {
	u64 wr_id;
	u32 num_sge;
	struct oib_sge sge[];
};

/* A send WQE: the request with its SGEs (or inline data) copied in. */
struct rxe_send_wqe {
	struct oib_send_wr wr;		/* next and sg_list unused: see sge[] */
	u32 inline_len;
	struct oib_sge sge[];		/* then the inline bytes, if OIB_SEND_INLINE */
};

struct rxe_srq {
	struct oib_srq ib;
	spinlock_t lock;		/* protects queue and limit */
	struct rxe_queue queue;		/* of struct rxe_recv_wqe */
	u32 max_sge;
	u32 limit;			/* armed when non-zero */
};

/*
 * A QP.  The core's qp->state is under qp->mutex (modify/query); the data path cannot sleep, so
 * the state it acts on is our own copy, 'state', written with both sq_lock and rq_lock held and
 * read with either.  attr is the connection's attributes (PSNs, path, timers) as last modified,
 * written under the core's qp->mutex and read by the transport under sq_lock.
 */
struct rxe_qp {
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
	bool sending, send_again;	/* under sq_lock: a sender is draining the SQ */
	struct rxe_queue sq;		/* of struct rxe_send_wqe */
	struct rxe_queue rq;		/* of struct rxe_recv_wqe; unused with an SRQ */
	struct oib_qp_cap cap;
	enum oib_sig_type sq_sig_type;
	struct oib_qp_attr attr;
};

static inline struct rxe_dev *to_rdev(struct oib_device *d)
{
	return container_of(d, struct rxe_dev, ib);
}

#define RXE_TO(type, member, ptr) container_of(ptr, struct type, member)
#define to_rpd(p)	RXE_TO(rxe_pd, ib, p)
#define to_rah(p)	RXE_TO(rxe_ah, ib, p)
#define to_rmr(p)	RXE_TO(rxe_mr, ib, p)
#define to_rcq(p)	RXE_TO(rxe_cq, ib, p)
#define to_rsrq(p)	RXE_TO(rxe_srq, ib, p)
#define to_rqp(p)	RXE_TO(rxe_qp, ib, p)

extern const struct oib_device_ops rxe_dev_ops;
void rxe_dealloc_driver(struct oib_device *ibdev);

/* rxe_cq.c */
int rxe_create_cq(struct oib_cq *ibcq, const struct oib_cq_init_attr *attr);
void rxe_destroy_cq(struct oib_cq *ibcq);
int rxe_poll_cq(struct oib_cq *ibcq, int num_entries, struct oib_wc *wc);
int rxe_req_notify_cq(struct oib_cq *ibcq, enum oib_cq_notify_flags flags);
void rxe_cq_post(struct rxe_cq *cq, const struct oib_wc *wc, bool solicited);

/* rxe_qp.c */
int rxe_create_qp(struct oib_qp *ibqp, struct oib_qp_init_attr *init);
int rxe_modify_qp(struct oib_qp *ibqp, struct oib_qp_attr *attr, int mask);
int rxe_query_qp(struct oib_qp *ibqp, struct oib_qp_attr *attr, int mask,
		 struct oib_qp_init_attr *init);
void rxe_destroy_qp(struct oib_qp *ibqp);
int rxe_post_send(struct oib_qp *ibqp, const struct oib_send_wr *wr,
		  const struct oib_send_wr **bad_wr);
int rxe_post_recv(struct oib_qp *ibqp, const struct oib_recv_wr *wr,
		  const struct oib_recv_wr **bad_wr);

/* rxe_srq.c */
int rxe_create_srq(struct oib_srq *ibsrq, struct oib_srq_init_attr *init);
int rxe_modify_srq(struct oib_srq *ibsrq, struct oib_srq_attr *attr, enum oib_srq_attr_mask mask);
int rxe_query_srq(struct oib_srq *ibsrq, struct oib_srq_attr *attr);
void rxe_destroy_srq(struct oib_srq *ibsrq);
int rxe_post_srq_recv(struct oib_srq *ibsrq, const struct oib_recv_wr *wr,
		      const struct oib_recv_wr **bad_wr);
int rxe_recv_wqe_copy(struct rxe_recv_wqe *wqe, const struct oib_recv_wr *wr, u32 max_sge);

/* rxe_port.c */
int rxe_ports_attach(struct rxe_dev *rdev);
void rxe_ports_detach(struct rxe_dev *rdev);
struct rxe_qp *rxe_qp_get(struct rxe_dev *rdev, u32 port_num, u32 qpn);
void rxe_qp_put(struct rxe_qp *qp);

static inline void rxe_port_count(struct rxe_port *port, enum oib_rxe_port_stat stat)
{
	atomic64_inc(&port->stats[stat]);
}

/* rxe_debugfs.c */
void rxe_debugfs_add(struct rxe_dev *rdev);

/* rxe_ud.c */
void rxe_ud_send(struct rxe_qp *qp);
void rxe_ud_recv(struct rxe_port *port, struct rxe_qp *qp, const struct rxe_pkt *pkt,
		 const u8 *frame);
u16 rxe_udp_sport(u32 src_qpn, u32 dst_qpn);

/* rxe_mr.c */
void *rxe_sge_kva(struct rxe_dev *rdev, struct oib_pd *pd, const struct oib_sge *sge, int access);
int rxe_get_dma_mr(struct oib_mr *ibmr, int access);
int rxe_reg_kernel_mr(struct oib_mr *ibmr, void *addr, size_t len, int access);
void rxe_dereg_mr(struct oib_mr *ibmr);

#endif /* OIB_RXE_H_PRIV */
