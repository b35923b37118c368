/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib verbs: the objects and calls a kernel ULP uses.
 *
 * Semantics follow the IBTA verbs as the in-tree stack exposes them, with an oib_ prefix, so a ULP
 * author finds PD, CQ, QP, SRQ, MR and AH where expected.  Devices, ports, clients and async event
 * registration live in <oib/device.h>; providers implement <oib/provider.h>.
 *
 * Object lifetime, for every object in this file: the creator owns it and frees it with the
 * matching destroy call; there is no get/put on these objects.  Each object that others can depend
 * on keeps a "usecnt" of its dependents (QPs on a CQ, QPs/SRQs/MRs/AHs on a PD, QPs on an SRQ) and
 * its destroy fails with -EBUSY while that count is non-zero.  Dependents take the count at create
 * and drop it at destroy, so the creator's teardown order (QP before CQ, everything before PD) is
 * enforced.  XRC domains are the exception: they are shared, and counted (struct oib_xrcd).
 */
#ifndef OIB_VERBS_H
#define OIB_VERBS_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/err.h>
#include <linux/in6.h>
#include <linux/irq_poll.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

struct oib_device;

/*
 * Resource tracking (core/restrack.c): what oib res show lists.  Every PD, CQ, QP, SRQ and MR is
 * in its device's table of its kind (device->res[type], the xarray's lock) from a successful create
 * to the start of its destroy, with who made it: the process, and the return address of the
 * creating call (whose module is the owner; oib_uverbs's means the process).  Core-private.
 */
struct oib_res {
	u32 id;			/* in the table; U32_MAX: not tracked (the table was full) */
	pid_t pid;		/* the creating process's tgid */
	char comm[16];		/* its name */
	unsigned long caller;	/* the creating call's return address; 0: oib_core itself */
};

struct oib_pd;
struct oib_cq;
struct oib_qp;
struct oib_srq;
struct oib_ah;
struct oib_xrcd;
struct oib_wc;
struct scatterlist;

/*
 * A completion's callback, for CQs made by oib_alloc_cq(): a ULP embeds a struct oib_cqe in its
 * per-request context and posts with wr_cqe pointing at it (in place of wr_id, which it aliases);
 * the CQ's poller calls @done once for each completion of that request, success or error
 * (flushes included), in the CQ's poll context.
 */
struct oib_cqe {
	void (*done)(struct oib_cq *cq, struct oib_wc *wc);
};

/* ---- Addressing ---- */

union oib_gid {
	u8 raw[16];
	struct in6_addr in6;	/* RoCE: the address, IPv4 as IPv4-mapped IPv6 */
	struct {
		__be64 subnet_prefix;
		__be64 interface_id;
	} global;
};

enum oib_gid_type {
	OIB_GID_TYPE_IB,
	OIB_GID_TYPE_ROCE_V2,
};

enum oib_mtu {
	OIB_MTU_256 = 1,
	OIB_MTU_512 = 2,
	OIB_MTU_1024 = 3,
	OIB_MTU_2048 = 4,
	OIB_MTU_4096 = 5,
};

static inline int oib_mtu_to_int(enum oib_mtu mtu)
{
	return (mtu >= OIB_MTU_256 && mtu <= OIB_MTU_4096) ? 128 << mtu : -1;
}

struct oib_global_route {
	union oib_gid dgid;
	u32 flow_label;
	u8 sgid_index;
	u8 hop_limit;
	u8 traffic_class;
};

#define OIB_AH_GRH	BIT(0)

/* Address vector: where a UD datagram or a connected QP's path goes. */
struct oib_ah_attr {
	u32 port_num;
	u8 sl;
	u8 static_rate;
	u8 flags;		/* OIB_AH_GRH */
	u16 dlid;
	u8 src_path_bits;
	u8 dmac[6];
	struct oib_global_route grh;
};

/* ---- Protection domain ---- */

struct oib_pd {
	struct oib_device *device;
	struct oib_res res;
	atomic_t usecnt;	/* QPs, SRQs, MRs and AHs created on this PD */
	u32 local_dma_lkey;	/* lkey covering all kernel memory, for ULPs that want no MR */
};

struct oib_pd *oib_alloc_pd(struct oib_device *device);
int oib_dealloc_pd(struct oib_pd *pd);

/* ---- Memory regions ---- */

enum oib_access_flags {
	OIB_ACCESS_LOCAL_WRITE = BIT(0),
	OIB_ACCESS_REMOTE_WRITE = BIT(1),
	OIB_ACCESS_REMOTE_READ = BIT(2),
	OIB_ACCESS_REMOTE_ATOMIC = BIT(3),
	OIB_ACCESS_MW_BIND = BIT(4),
	OIB_ACCESS_ALL = BIT(5) - 1,
};

enum oib_mr_type {
	OIB_MR_TYPE_KERNEL,	/* oib_get_dma_mr(), oib_reg_kernel_mr(): registered when made */
	OIB_MR_TYPE_MEM_REG,	/* oib_alloc_mr(): registered by OIB_WR_REG_MR work requests */
};

/*
 * A memory region.  For OIB_MR_TYPE_MEM_REG (fast registration), lkey and rkey are the keys the
 * next OIB_WR_REG_MR should carry (oib_update_fast_reg_key() changes their low 8 bits), and iova,
 * length and page_size describe the last oib_map_mr_sg(); access is 0: the REG_MR grants it.
 * Owned by its creator until oib_dereg_mr(), which returns only when the device no longer reads
 * or writes the memory (copies in progress waited out, the rest of a message refused): the memory
 * may be freed then, not before.
 */
struct oib_mr {
	struct oib_device *device;
	struct oib_res res;
	struct oib_pd *pd;
	u32 lkey;
	u32 rkey;		/* 0 unless a remote access flag was given (MEM_REG: the key) */
	u64 iova;
	u64 length;
	int access;
	enum oib_mr_type type;
	u32 max_num_sg;		/* MEM_REG: pages the MR can map */
	u32 page_size;		/* MEM_REG: of the last mapping */
};

/* An MR over all kernel memory: iova is the kernel virtual address. */
struct oib_mr *oib_get_dma_mr(struct oib_pd *pd, int access);
/*
 * Register @len bytes of kernel memory at @addr (linear-map or vmalloc memory; the caller keeps it
 * allocated until oib_dereg_mr).  iova is @addr.
 */
struct oib_mr *oib_reg_kernel_mr(struct oib_pd *pd, void *addr, size_t len, int access);
/*
 * The same, but requests (SGEs and remote ones) name the memory as [@iova, @iova + @len): a user
 * MR, whose iova is the process's address of the pages the kernel mapped at @addr.
 */
struct oib_mr *oib_reg_kernel_mr_iova(struct oib_pd *pd, void *addr, size_t len, u64 iova,
				      int access);
int oib_dereg_mr(struct oib_mr *mr);

/*
 * Fast registration (Documentation/core.md).  oib_alloc_mr() makes an MR of @type
 * OIB_MR_TYPE_MEM_REG that can map up to @max_num_sg pages; it starts free (its keys work only
 * after an OIB_WR_REG_MR).  oib_map_mr_sg() builds its page list from @sg_nents entries of the
 * kernel scatterlist @sg, starting *@sg_offset bytes into the first (NULL: 0), in blocks of
 * @page_size (a size the device supports, device attr page_size_cap): oib devices do no DMA, so
 * the entries are not DMA-mapped: each names kernel memory by page, offset and length, and the
 * MR's addresses (iova) are kernel virtual addresses, as for oib_reg_kernel_mr().  Entries after
 * the first must start on a block boundary, or where the previous one ended; every entry but the
 * last must end on one, or where the next begins.  Returns the number of entries mapped (an entry
 * that does not fit is not mapped), or -EINVAL.  oib_update_fast_reg_key() sets the low 8 bits
 * of the keys the next REG_MR registers.
 */
struct oib_mr *oib_alloc_mr(struct oib_pd *pd, enum oib_mr_type type, u32 max_num_sg);
int oib_map_mr_sg(struct oib_mr *mr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset, unsigned int page_size);
int oib_update_fast_reg_key(struct oib_mr *mr, u8 newkey);

/* ---- Address handles ---- */

struct oib_ah {
	struct oib_device *device;
	struct oib_pd *pd;
	struct oib_ah_attr attr;
};

struct oib_ah *oib_create_ah(struct oib_pd *pd, const struct oib_ah_attr *attr);
int oib_destroy_ah(struct oib_ah *ah);

/* ---- Completions ---- */

enum oib_wc_status {
	OIB_WC_SUCCESS,
	OIB_WC_LOC_LEN_ERR,
	OIB_WC_LOC_QP_OP_ERR,
	OIB_WC_LOC_EEC_OP_ERR,
	OIB_WC_LOC_PROT_ERR,
	OIB_WC_WR_FLUSH_ERR,
	OIB_WC_MW_BIND_ERR,
	OIB_WC_BAD_RESP_ERR,
	OIB_WC_LOC_ACCESS_ERR,
	OIB_WC_REM_INV_REQ_ERR,
	OIB_WC_REM_ACCESS_ERR,
	OIB_WC_REM_OP_ERR,
	OIB_WC_RETRY_EXC_ERR,
	OIB_WC_RNR_RETRY_EXC_ERR,
	OIB_WC_LOC_RDD_VIOL_ERR,
	OIB_WC_REM_INV_RD_REQ_ERR,
	OIB_WC_REM_ABORT_ERR,
	OIB_WC_INV_EECN_ERR,
	OIB_WC_INV_EEC_STATE_ERR,
	OIB_WC_FATAL_ERR,
	OIB_WC_RESP_TIMEOUT_ERR,
	OIB_WC_GENERAL_ERR,
};

const char *oib_wc_status_msg(enum oib_wc_status status);

enum oib_wc_opcode {
	OIB_WC_SEND,
	OIB_WC_RDMA_WRITE,
	OIB_WC_RDMA_READ,
	OIB_WC_COMP_SWAP,
	OIB_WC_FETCH_ADD,
	OIB_WC_LOCAL_INV,
	OIB_WC_REG_MR,
	/* receive side: bit 7 set */
	OIB_WC_RECV = 1 << 7,
	OIB_WC_RECV_RDMA_WITH_IMM,
};

enum oib_wc_flags {
	OIB_WC_GRH = BIT(0),
	OIB_WC_WITH_IMM = BIT(1),
	OIB_WC_WITH_INVALIDATE = BIT(2),
	/* the message asked for a solicited event (set by the provider when it queues it) */
	OIB_WC_SOLICITED = BIT(3),
};

struct oib_wc {
	union {
		u64 wr_id;
		struct oib_cqe *wr_cqe;	/* oib_alloc_cq() CQs: the request's callback */
	};
	enum oib_wc_status status;
	enum oib_wc_opcode opcode;
	u32 vendor_err;
	u32 byte_len;
	struct oib_qp *qp;	/* may be gone by the time the completion is polled */
	u32 qp_num;		/* @qp's number, set by the provider when it queues it */
	union {
		__be32 imm_data;
		u32 invalidate_rkey;
	} ex;
	u32 src_qp;
	int wc_flags;
	u16 pkey_index;
	u16 slid;
	u8 sl;
	u8 port_num;
};

/* ---- Async events on objects and devices ---- */

enum oib_event_type {
	OIB_EVENT_CQ_ERR,
	OIB_EVENT_QP_FATAL,
	OIB_EVENT_QP_REQ_ERR,
	OIB_EVENT_QP_ACCESS_ERR,
	OIB_EVENT_COMM_EST,
	OIB_EVENT_SQ_DRAINED,
	OIB_EVENT_PATH_MIG,
	OIB_EVENT_PATH_MIG_ERR,
	OIB_EVENT_QP_LAST_WQE_REACHED,
	OIB_EVENT_SRQ_ERR,
	OIB_EVENT_SRQ_LIMIT_REACHED,
	OIB_EVENT_DEVICE_FATAL,
	OIB_EVENT_PORT_ACTIVE,
	OIB_EVENT_PORT_ERR,
	OIB_EVENT_LID_CHANGE,
	OIB_EVENT_PKEY_CHANGE,
	OIB_EVENT_SM_CHANGE,
	OIB_EVENT_CLIENT_REREGISTER,
	OIB_EVENT_GID_CHANGE,
};

const char *oib_event_msg(enum oib_event_type event);

struct oib_event {
	struct oib_device *device;
	union {
		struct oib_cq *cq;
		struct oib_qp *qp;
		struct oib_srq *srq;
		u32 port_num;
	} element;
	enum oib_event_type event;
};

typedef void (*oib_event_handler_t)(struct oib_event *event, void *context);

/* ---- Completion queues ---- */

/*
 * Who polls a CQ made by oib_alloc_cq(), and where the struct oib_cqe done callbacks run:
 * DIRECT: the ULP, with oib_process_cq_direct(), in its own context; SOFTIRQ: the core, from an
 * irq_poll in softirq context; WORKQUEUE: the core, from a work item on a bound high-priority
 * workqueue (the CPU the completion came in on); UNBOUND_WORKQUEUE: the same on an unbound one.
 * Every poller takes at most a budget of completions per round, then queues itself again, and
 * re-arms the CQ when it found it empty (asking for missed events, so none is lost).
 */
enum oib_poll_context {
	OIB_POLL_SOFTIRQ,
	OIB_POLL_WORKQUEUE,
	OIB_POLL_UNBOUND_WORKQUEUE,
	OIB_POLL_LAST_POOL_TYPE = OIB_POLL_UNBOUND_WORKQUEUE,
	OIB_POLL_DIRECT,
};

typedef void (*oib_comp_handler_t)(struct oib_cq *cq, void *cq_context);

struct oib_cq_init_attr {
	u32 cqe;		/* minimum number of entries */
	u32 comp_vector;	/* < device attr num_comp_vectors */
	u32 flags;		/* none defined yet: must be 0 */
};

/*
 * comp_handler runs when a completion is added to a CQ armed with oib_req_notify_cq(), once per
 * arming.  It runs in softirq or process context (never hard-irq), never concurrently with itself
 * for one CQ, and never after oib_destroy_cq() returns.
 */
struct oib_cq {
	struct oib_device *device;
	struct oib_res res;
	oib_comp_handler_t comp_handler;
	oib_event_handler_t event_handler;
	void *cq_context;
	u32 cqe;		/* actual size, may exceed the requested one */
	u32 comp_vector;
	atomic_t usecnt;	/* QPs using this CQ as send or receive CQ */
	atomic_t watches;	/* armed QP watches (oib_qp_watch()) of QPs receiving here */
	/*
	 * Those watches by their QP's number, armed or not, from oib_qp_watch() to
	 * oib_qp_unwatch() (both under the QP's mutex; read under RCU): the poll path finds a
	 * completion's watch here, never through wc->qp, whose QP may be gone.
	 */
	struct xarray watch_qps;

	/*
	 * oib_alloc_cq() CQs only (core/cq_poll.c); zero otherwise.  The poller (the irq_poll or
	 * the work item, never both, never concurrently with itself) owns @wc and counts @rounds.
	 */
	bool managed;		/* made by oib_alloc_cq(): the core polls it in @poll_ctx */
	bool dying;		/* oib_free_cq() runs: a work item queued from now does nothing */
	enum oib_poll_context poll_ctx;
	u32 budget;		/* completions per poll round; more left: queued again */
	atomic_t rounds;	/* poll rounds run (SOFTIRQ, WORKQUEUE): tests, debugging */
	struct oib_wc *wc;	/* the poller's batch */
	struct workqueue_struct *comp_wq;	/* WORKQUEUE contexts: where @work runs */
	union {
		struct irq_poll iop;		/* OIB_POLL_SOFTIRQ */
		struct work_struct work;	/* OIB_POLL_*WORKQUEUE */
	};
	/* The device's CQ pool (oib_cq_pool_get()), under the device's cq_pools_lock. */
	bool shared;		/* in the pool: oib_cq_pool_put() it, never oib_free_cq() */
	u32 cqe_used;		/* entries handed out by oib_cq_pool_get() */
	struct list_head pool_entry;
};

enum oib_cq_notify_flags {
	OIB_CQ_SOLICITED = BIT(0),
	OIB_CQ_NEXT_COMP = BIT(1),
	OIB_CQ_SOLICITED_MASK = OIB_CQ_SOLICITED | OIB_CQ_NEXT_COMP,
	OIB_CQ_REPORT_MISSED_EVENTS = BIT(2),
};

struct oib_cq *oib_create_cq(struct oib_device *device, oib_comp_handler_t comp_handler,
			     oib_event_handler_t event_handler, void *cq_context,
			     const struct oib_cq_init_attr *attr);
/* -EINVAL for a CQ made by oib_alloc_cq(): oib_free_cq() frees those. */
int oib_destroy_cq(struct oib_cq *cq);
int oib_poll_cq(struct oib_cq *cq, int num_entries, struct oib_wc *wc);
/*
 * Arm @cq.  With OIB_CQ_REPORT_MISSED_EVENTS, returns 1 if completions may already be queued that
 * will raise no event (poll again), 0 otherwise.
 */
int oib_req_notify_cq(struct oib_cq *cq, enum oib_cq_notify_flags flags);

/*
 * CQs polled by the core (core/cq_poll.c): completions go to the done callback of the struct
 * oib_cqe each request was posted with (wr_cqe), once each, in @poll_ctx.  @private is the CQ's
 * cq_context.  oib_free_cq() is synchronous: no done callback runs after it returns (never call it
 * from one of the CQ's own callbacks); -EBUSY while QPs use the CQ, -EINVAL for a CQ not made by
 * oib_alloc_cq() or taken from the pool.  oib_process_cq_direct() polls a DIRECT CQ for at most
 * @budget (> 0) completions and returns how many it delivered.
 */
struct oib_cq *oib_alloc_cq(struct oib_device *device, void *private, u32 nr_cqe, u32 comp_vector,
			    enum oib_poll_context poll_ctx);
int oib_free_cq(struct oib_cq *cq);
int oib_process_cq_direct(struct oib_cq *cq, int budget);

/*
 * The device's CQ pool: CQs of every non-DIRECT poll context shared between ULPs, spread over the
 * completion vectors (vector = @comp_vector_hint modulo their number; a negative hint takes them
 * in turn).  oib_cq_pool_get() hands out @nr_cqe entries of a pool CQ on that vector with room for
 * them, making one when none has (process context); oib_cq_pool_put() gives them back (any
 * context but hard-irq).  Pool CQs stay until the device is unregistered, which frees them: a
 * client gives its entries back in its remove() at the latest.
 */
struct oib_cq *oib_cq_pool_get(struct oib_device *device, u32 nr_cqe, int comp_vector_hint,
			       enum oib_poll_context poll_ctx);
int oib_cq_pool_put(struct oib_cq *cq, u32 nr_cqe);

/* ---- Shared receive queues ---- */

enum oib_srq_type {
	OIB_SRQT_BASIC,
	OIB_SRQT_XRC,		/* of an XRC domain: receives what its target QPs steer to it */
};

struct oib_srq_attr {
	u32 max_wr;
	u32 max_sge;
	u32 srq_limit;		/* 0: disarmed */
};

enum oib_srq_attr_mask {
	OIB_SRQ_MAX_WR = BIT(0),
	OIB_SRQ_LIMIT = BIT(1),
};

/*
 * Receives the consumer does not post: the provider pulls them when it needs them (a receive
 * ring mapped into a process: Documentation/uverbs.md).  Given to oib_create_qp() or
 * oib_create_srq() on a device whose ops have @recv_source (-EOPNOTSUPP otherwise); the
 * provider's side of the contract is in include/oib/provider.h.  @pull fills @wr (wr_id,
 * num_sge, sg_list = @sge) with a receive of at most @max_sge SGEs and returns 1; 0 if it has
 * none now; -errno if what it found is bad: the source is then broken, returns 0 from then on,
 * and the provider reports it (a QP goes to ERR with OIB_EVENT_QP_FATAL, an SRQ raises
 * OIB_EVENT_SRQ_ERR).  @flags: OIB_RECV_PULL_FLUSH when the receive is to be flushed (a QP in
 * ERR; the source may tell its own producer that later receives need a flush too).  Called in
 * any context but hard-irq, with the provider's queue locks held and interrupts off: it must not
 * sleep nor post.  Never after the QP or SRQ is destroyed.
 */
struct oib_recv_wr;
struct oib_sge;

#define OIB_RECV_PULL_FLUSH	BIT(0)

struct oib_recv_source {
	int (*pull)(struct oib_recv_source *src, struct oib_recv_wr *wr, struct oib_sge *sge,
		    u32 max_sge, u32 flags);
};

struct oib_srq_init_attr {
	oib_event_handler_t event_handler;
	void *srq_context;
	struct oib_srq_attr attr;
	enum oib_srq_type srq_type;
	struct oib_recv_source *recv_source;	/* optional, BASIC only: receives are pulled */
	/* OIB_SRQT_XRC only (both required; NULL for BASIC): its domain and where it completes */
	struct {
		struct oib_xrcd *xrcd;
		struct oib_cq *cq;
	} xrc;
};

/*
 * An SRQ.  An XRC SRQ (Documentation/xrc.md) belongs to @xrcd, completes its receives on @cq
 * (each counted by it in usecnt) and is named on the wire by @srq_num, which the provider sets
 * (24 bits): the number an XRC initiator's send WR gives as xrc_remote_srq_num.  Its PD is the
 * one remote requests steered to it are checked against.
 */
struct oib_srq {
	struct oib_device *device;
	struct oib_res res;
	struct oib_pd *pd;
	oib_event_handler_t event_handler;
	void *srq_context;
	enum oib_srq_type srq_type;
	struct oib_recv_source *recv_source;	/* or NULL; never changes */
	atomic_t usecnt;	/* QPs attached to this SRQ */
	struct oib_xrcd *xrcd;	/* XRC only */
	struct oib_cq *cq;	/* XRC only */
	u32 srq_num;		/* XRC only */
};

struct oib_srq *oib_create_srq(struct oib_pd *pd, struct oib_srq_init_attr *init_attr);
/*
 * OIB_SRQ_LIMIT arms the limit: when the number of posted receives drops below it, the SRQ's event
 * handler gets OIB_EVENT_SRQ_LIMIT_REACHED once and the limit disarms.  OIB_SRQ_MAX_WR resizes,
 * if the device can (-EOPNOTSUPP otherwise).
 */
int oib_modify_srq(struct oib_srq *srq, struct oib_srq_attr *attr, enum oib_srq_attr_mask mask);
int oib_query_srq(struct oib_srq *srq, struct oib_srq_attr *attr);
int oib_destroy_srq(struct oib_srq *srq);

/* ---- Queue pairs ---- */

enum oib_qp_type {
	OIB_QPT_SMI,		/* QP0 */
	OIB_QPT_GSI,		/* QP1 */
	OIB_QPT_RC,
	OIB_QPT_UC,
	OIB_QPT_UD,
	OIB_QPT_XRC_INI,	/* XRC initiator: send side only (Documentation/xrc.md) */
	OIB_QPT_XRC_TGT,	/* XRC target: receive side only, of an XRC domain */
	OIB_QPT_MAX,
};

enum oib_qp_state {
	OIB_QPS_RESET,
	OIB_QPS_INIT,
	OIB_QPS_RTR,
	OIB_QPS_RTS,
	OIB_QPS_SQD,
	OIB_QPS_SQE,
	OIB_QPS_ERR,
	OIB_QPS_MAX,
};

const char *oib_qp_state_name(enum oib_qp_state state);
const char *oib_qp_type_name(enum oib_qp_type type);

enum oib_mig_state {
	OIB_MIG_MIGRATED,
	OIB_MIG_REARM,
	OIB_MIG_ARMED,
};

enum oib_sig_type {
	OIB_SIGNAL_ALL_WR,
	OIB_SIGNAL_REQ_WR,
};

struct oib_qp_cap {
	u32 max_send_wr;
	u32 max_recv_wr;
	u32 max_send_sge;
	u32 max_recv_sge;
	u32 max_inline_data;
};

/*
 * XRC QPs: an initiator (XRC_INI) has a PD and a send CQ, no recv_cq, SRQ or receive caps; a
 * target (XRC_TGT) has an XRC domain and nothing else: no PD (pass NULL), no CQ, no SRQ, no caps.
 */
struct oib_qp_init_attr {
	oib_event_handler_t event_handler;
	void *qp_context;
	struct oib_cq *send_cq;
	struct oib_cq *recv_cq;
	struct oib_srq *srq;	/* optional: receives come from the SRQ, max_recv_wr must be 0 */
	struct oib_xrcd *xrcd;	/* XRC_TGT only: its domain */
	struct oib_qp_cap cap;	/* in: requested; out: granted */
	enum oib_sig_type sq_sig_type;
	enum oib_qp_type qp_type;
	u32 port_num;		/* SMI and GSI QPs only: the port they serve */
	u32 create_flags;	/* none defined yet: must be 0 */
	struct oib_recv_source *recv_source;	/* optional, not with @srq: receives pulled */
};

/* Attribute mask bits for oib_modify_qp() and oib_query_qp(). */
enum oib_qp_attr_mask {
	OIB_QP_STATE = BIT(0),
	OIB_QP_CUR_STATE = BIT(1),
	OIB_QP_EN_SQD_ASYNC_NOTIFY = BIT(2),
	OIB_QP_ACCESS_FLAGS = BIT(3),
	OIB_QP_PKEY_INDEX = BIT(4),
	OIB_QP_PORT = BIT(5),
	OIB_QP_QKEY = BIT(6),
	OIB_QP_AV = BIT(7),
	OIB_QP_PATH_MTU = BIT(8),
	OIB_QP_TIMEOUT = BIT(9),
	OIB_QP_RETRY_CNT = BIT(10),
	OIB_QP_RNR_RETRY = BIT(11),
	OIB_QP_RQ_PSN = BIT(12),
	OIB_QP_MAX_QP_RD_ATOMIC = BIT(13),
	OIB_QP_ALT_PATH = BIT(14),
	OIB_QP_MIN_RNR_TIMER = BIT(15),
	OIB_QP_SQ_PSN = BIT(16),
	OIB_QP_MAX_DEST_RD_ATOMIC = BIT(17),
	OIB_QP_PATH_MIG_STATE = BIT(18),
	OIB_QP_CAP = BIT(19),
	OIB_QP_DEST_QPN = BIT(20),
	OIB_QP_ATTR_ALL = BIT(21) - 1,
};

struct oib_qp_attr {
	enum oib_qp_state qp_state;
	enum oib_qp_state cur_qp_state;
	enum oib_mtu path_mtu;
	enum oib_mig_state path_mig_state;
	u32 qkey;
	u32 rq_psn;
	u32 sq_psn;
	u32 dest_qp_num;
	int qp_access_flags;
	struct oib_qp_cap cap;
	struct oib_ah_attr ah_attr;
	struct oib_ah_attr alt_ah_attr;
	u16 pkey_index;
	u16 alt_pkey_index;
	u8 en_sqd_async_notify;
	u8 sq_draining;
	u8 max_rd_atomic;
	u8 max_dest_rd_atomic;
	u8 min_rnr_timer;
	u32 port_num;
	u8 timeout;
	u8 retry_cnt;
	u8 rnr_retry;
	u32 alt_port_num;
	u8 alt_timeout;
};

/*
 * The QP.  @state is the core's record of the QP's state: what the last successful
 * oib_modify_qp() set, or ERR from the moment the transport entered it on its own
 * (oib_qp_transport_error()).  @mutex serialises modify and query; @state changes under it,
 * except the transport's move to ERR, which is a compare-and-exchange, so readers without the
 * mutex use READ_ONCE().
 */
struct oib_qp {
	struct oib_device *device;
	struct oib_res res;
	struct oib_pd *pd;		/* NULL for XRC_TGT */
	struct oib_cq *send_cq;		/* NULL for XRC_TGT */
	struct oib_cq *recv_cq;		/* NULL for XRC_INI and XRC_TGT */
	struct oib_srq *srq;
	struct oib_recv_source *recv_source;	/* or NULL; never changes */
	struct oib_xrcd *xrcd;		/* XRC_TGT only */
	oib_event_handler_t event_handler;
	void *qp_context;
	u32 qp_num;
	enum oib_qp_type qp_type;
	u32 port_num;		/* 0 until set (OIB_QP_PORT, or at create for SMI/GSI) */
	struct mutex mutex;	/* serialises modify/query; see above for @state */
	enum oib_qp_state state;
	struct oib_qp_watch __rcu *watch;	/* set and cleared under @mutex */
	bool xrc_rcv;		/* a kernel-owned XRC receive QP: its domain's, not in usecnt */
	/*
	 * XRC target QPs shared the upstream way (core/xrc_open.c), under xrcd->lock: on the
	 * QP, its openers (@open_list, RCU, of the handles oib_open_qp() made) and @openers, the
	 * creator (until it destroys it) plus each handle; on a handle, @real_qp, the QP.
	 */
	struct oib_qp *real_qp;
	struct list_head open_list;
	struct list_head open_entry;
	unsigned int openers;
};

/* @pd: NULL for an XRC_TGT QP, whose device is its domain's. */
struct oib_qp *oib_create_qp(struct oib_pd *pd, struct oib_qp_init_attr *init_attr);
int oib_modify_qp(struct oib_qp *qp, struct oib_qp_attr *attr, int attr_mask);
int oib_query_qp(struct oib_qp *qp, struct oib_qp_attr *attr, int attr_mask,
		 struct oib_qp_init_attr *init_attr);
int oib_destroy_qp(struct oib_qp *qp);

/*
 * Drain (core/drain.c): for RC and UC QPs whose send (receive) CQ was made by oib_alloc_cq()
 * or taken from the pool.  Moves the QP to ERR, posts a marker request with a callback of its
 * own, and waits until the marker's flush completion came through the CQ's poller (for DIRECT
 * CQs: polling the CQ itself): every request posted before has then completed and its done
 * callback has run.  Sleeps.  A QP in RESET has nothing in flight: 0 at once, QP unchanged.
 * oib_drain_rq() of a QP on an SRQ is -EINVAL (the receives are the SRQ's);
 * oib_drain_qp() then drains the send side only.  -EINVAL for other CQs, -EOPNOTSUPP for
 * other QP types, or the error of the move to ERR or of posting the marker.
 */
int oib_drain_sq(struct oib_qp *qp);
int oib_drain_rq(struct oib_qp *qp);
int oib_drain_qp(struct oib_qp *qp);

/*
 * A watch on a QP, for a connection manager (Documentation/core.md): @event sees every event of
 * the QP before the QP's own handler does; @first_recv is called once, for the first successful
 * receive completion polled from the QP while it is in RTR.  Either may be NULL.  Both run under
 * rcu_read_lock() in the poller's or the event's context and must not sleep.  The watcher owns
 * the struct; a QP has at most one watch (-EBUSY) and cannot be destroyed while watched (-EBUSY).
 * oib_qp_unwatch() returns when no callback runs any more (it sleeps).
 */
struct oib_qp_watch;

struct oib_qp_watch_ops {
	void (*event)(struct oib_qp_watch *watch, const struct oib_event *event);
	void (*first_recv)(struct oib_qp_watch *watch);
};

struct oib_qp_watch {
	const struct oib_qp_watch_ops *ops;
	struct oib_qp *qp;	/* set by oib_qp_watch(), cleared by oib_qp_unwatch() */
	unsigned long armed;	/* bit 0: @first_recv not called yet */
};

int oib_qp_watch(struct oib_qp *qp, struct oib_qp_watch *watch);
void oib_qp_unwatch(struct oib_qp_watch *watch);

/*
 * The IBTA modify-QP state table: true if moving a @type QP from @cur to @next with @mask is legal
 * (every required attribute present, nothing beyond required, optional and OIB_QP_STATE).
 */
bool oib_modify_qp_is_ok(enum oib_qp_state cur, enum oib_qp_state next, enum oib_qp_type type,
			 int mask);
/*
 * The same for a QP of an RNIC (iWARP): RC only, and INIT->RTR->RTS without the path, PSN and
 * timer attributes, which the transport owns.  oib_modify_qp() picks by the device's node type.
 */
bool oib_iw_modify_qp_is_ok(enum oib_qp_state cur, enum oib_qp_state next, enum oib_qp_type type,
			    int mask);

/* ---- Work requests ---- */

struct oib_sge {
	u64 addr;
	u32 length;
	u32 lkey;
};

enum oib_wr_opcode {
	OIB_WR_RDMA_WRITE,
	OIB_WR_RDMA_WRITE_WITH_IMM,
	OIB_WR_SEND,
	OIB_WR_SEND_WITH_IMM,
	OIB_WR_RDMA_READ,
	OIB_WR_ATOMIC_CMP_AND_SWP,
	OIB_WR_ATOMIC_FETCH_AND_ADD,
	OIB_WR_SEND_WITH_INV,
	OIB_WR_LOCAL_INV,
	OIB_WR_REG_MR,		/* wr.reg: register a fast-registration MR */
	OIB_WR_MAX,
};

enum oib_send_flags {
	OIB_SEND_FENCE = BIT(0),
	OIB_SEND_SIGNALED = BIT(1),
	OIB_SEND_SOLICITED = BIT(2),
	OIB_SEND_INLINE = BIT(3),
};

struct oib_send_wr {
	struct oib_send_wr *next;
	union {
		u64 wr_id;
		struct oib_cqe *wr_cqe;	/* see struct oib_cqe */
	};
	struct oib_sge *sg_list;
	int num_sge;
	enum oib_wr_opcode opcode;
	int send_flags;
	union {
		__be32 imm_data;
		u32 invalidate_rkey;
	} ex;
	u32 xrc_remote_srq_num;	/* XRC_INI: the XRC SRQ at the target the request is for */
	union {
		struct {
			u64 remote_addr;
			u32 rkey;
		} rdma;
		struct {
			u64 remote_addr;
			u64 compare_add;
			u64 swap;
			u32 rkey;
		} atomic;
		struct {
			struct oib_ah *ah;
			u32 remote_qpn;
			u32 remote_qkey;
			u16 pkey_index;
		} ud;
		/*
		 * REG_MR: register @mr's last mapping under @key (its index bits must be the MR's:
		 * mr->lkey with oib_update_fast_reg_key()'s low byte) with @access.
		 */
		struct {
			struct oib_mr *mr;
			u32 key;
			int access;
		} reg;
	} wr;
};

struct oib_recv_wr {
	struct oib_recv_wr *next;
	union {
		u64 wr_id;
		struct oib_cqe *wr_cqe;	/* see struct oib_cqe */
	};
	struct oib_sge *sg_list;
	int num_sge;
};

/*
 * Posting.  A QP accepts receives from INIT on and sends from RTR on (sends posted in RTR wait for
 * RTS); RESET refuses both with -EINVAL.  A full queue gives -ENOMEM.  On error *bad_wr points at
 * the first request not posted.  These may be called from any context, concurrently on one QP.
 */
int oib_post_send(struct oib_qp *qp, const struct oib_send_wr *wr,
		  const struct oib_send_wr **bad_wr);
int oib_post_recv(struct oib_qp *qp, const struct oib_recv_wr *wr,
		  const struct oib_recv_wr **bad_wr);
int oib_post_srq_recv(struct oib_srq *srq, const struct oib_recv_wr *wr,
		      const struct oib_recv_wr **bad_wr);

/* ---- XRC (Documentation/xrc.md) ---- */

/*
 * An XRC domain: the XRC SRQs and XRC target QPs that may share traffic.
 *
 * Lifetime, one story: @users counts the holders of the domain: its allocator (oib_alloc_xrcd())
 * and every oib_xrcd_get(); oib_xrcd_put() and oib_dealloc_xrcd() (the allocator's put) drop
 * one.  @usecnt counts the XRC SRQs and XRC target QPs made on it by their owners; the last
 * holder's put is refused with -EBUSY while any exists (the reference stays: destroy them and
 * put again), as a PD's dealloc is.  The kernel-owned receive QPs (oib_create_xrc_rcv_qp()) are
 * the domain's own: the domain holds a reference on each while it has holders, and a
 * registration (oib_reg_xrc_rcv_qp()) holds one too; a QP whose last reference goes is destroyed.
 * @memref keeps the memory: one for the holders, one per live kernel-owned QP, so a QP that
 * registrations keep past the domain's last put still finds its domain.
 */
struct oib_xrcd {
	struct oib_device *device;
	refcount_t users;		/* holders; see above */
	refcount_t memref;		/* the memory's: holders as one, plus each rcv QP */
	atomic_t usecnt;		/* XRC SRQs and XRC target QPs of owners */
	struct mutex lock;		/* protects rcv_qps, tgt_qps and their QPs' references */
	struct xarray rcv_qps;		/* QP number -> struct oib_xrc_rcv_qp */
	struct xarray tgt_qps;		/* QP number -> owners' XRC target QPs (xrc_open.c) */
	atomic_t rcv_events;		/* async events of its kernel-owned QPs, logged */
};

struct oib_xrcd *oib_alloc_xrcd(struct oib_device *device);
/* Take another holder's reference (the caller holds one); drop it with oib_xrcd_put(). */
void oib_xrcd_get(struct oib_xrcd *xrcd);
int oib_xrcd_put(struct oib_xrcd *xrcd);
int oib_dealloc_xrcd(struct oib_xrcd *xrcd);

/*
 * Kernel-owned XRC receive QPs (the 2007 XRC receive-QP design): an XRC_TGT QP of @xrcd that no
 * process owns.  The kernel creates it and moves it RESET->INIT->RTR with the attributes of
 * @attr that @attr_mask names, split by the modify-QP table (RESET->INIT: port, P_Key index,
 * access flags; INIT->RTR: path, MTU, destination QPN, RQ PSN, max_dest_rd_atomic, min RNR
 * timer, and the optional ones); OIB_QP_STATE and OIB_QP_CUR_STATE must not be given, nor any
 * bit that neither step takes.  Only its number comes back (*@qp_num).  Its async events are
 * logged and counted in xrcd->rcv_events; an error puts it in ERR, where it answers nothing, so
 * the remote sender's requests end with RETRY_EXC_ERR.  It has no completions of its own: what
 * it receives completes on the XRC SRQs' CQs.  Process context.
 */
int oib_create_xrc_rcv_qp(struct oib_xrcd *xrcd, const struct oib_qp_attr *attr, int attr_mask,
			  u32 *qp_num);
/* Take (drop) a reference on @xrcd's kernel-owned receive QP @qp_num: -ENOENT if it has none. */
int oib_reg_xrc_rcv_qp(struct oib_xrcd *xrcd, u32 qp_num);
int oib_unreg_xrc_rcv_qp(struct oib_xrcd *xrcd, u32 qp_num);

/*
 * Shared XRC target QPs, the upstream way: oib_open_qp() gives a handle on the XRC target QP
 * @attr->qp_num that an owner made on @xrcd (-ENOENT if none; kernel-owned receive QPs are not
 * opened, they are registered); modify and query through it act on the QP, and the QP's async
 * events reach every handle's handler (with the handle as event->element.qp) besides its
 * creator's.  A handle counts in xrcd->usecnt until oib_close_qp().  The QP lives while it has
 * openers: its creator's oib_destroy_qp() only lets go of it while handles remain, and the last
 * oib_close_qp() destroys it.  An XRC target's handlers run under rcu_read_lock(): no sleeping.
 */
struct oib_qp_open_attr {
	oib_event_handler_t event_handler;
	void *qp_context;
	u32 qp_num;
	enum oib_qp_type qp_type;	/* OIB_QPT_XRC_TGT */
};

struct oib_qp *oib_open_qp(struct oib_xrcd *xrcd, const struct oib_qp_open_attr *attr);
int oib_close_qp(struct oib_qp *qp);

#endif /* OIB_VERBS_H */
