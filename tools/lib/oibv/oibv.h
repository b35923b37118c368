/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * liboibv: the oib verbs for user space, with libibverbs's names and semantics under the oibv_
 * prefix, for what oib_uverbs supports today (Documentation/uverbs.md): devices, contexts, PDs,
 * completion channels, CQs with a channel and a completion vector, MRs over user memory (local
 * access), RC and UC QPs with SEND, polling, async events.  Porting an ibv_ program is a rename.
 *
 * Conventions as in libibverbs: calls that create return NULL and set errno; other calls return
 * 0 or a positive errno value; oibv_poll_cq() returns the number of completions or a negative
 * errno value.  Every CQ event returned by oibv_get_cq_event() must be acknowledged with
 * oibv_ack_cq_events() (in batches if you like) before oibv_destroy_cq() can return; every async
 * event likewise with oibv_ack_async_event().
 */
#ifndef OIBV_H
#define OIBV_H

#include <stddef.h>
#include <stdint.h>
#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

struct oibv_device {
	char name[64];		/* the char device: oib_uverbs<N> */
	char ibdev_name[64];	/* the oib device: oib_rxe<N> */
	char dev_path[96];	/* /dev/oib_uverbs<N> */
};

struct oibv_context {
	struct oibv_device *device;
	int cmd_fd;
	int async_fd;
	int num_comp_vectors;
	int rings;	/* oib: CQs and work queues mapped (default; OIBV_RINGS=0: ioctls) */
	pthread_mutex_t rings_lock;	/* oib: @ring_list */
	struct oibv_ring *ring_list;	/* oib: the mapped rings, unmapped at close */
};

/* oib: a ring mapped from the kernel (include/uapi/oib/uverbs.h), NULL mem when not mapped. */
struct oibv_ring {
	void *mem;
	size_t size;
	uint32_t entries;
	uint32_t stride;
	uint32_t index;		/* ours: a work queue's producer, the CQ's consumer index */
	uint32_t max_sge;	/* work queues */
	pthread_mutex_t lock;	/* @index and the entries we own */
	struct oibv_ring *next, **pprev;	/* on the context's ring_list */
};

struct oibv_device_attr {
	uint64_t fw_ver;
	uint64_t node_guid;		/* network byte order */
	uint64_t sys_image_guid;	/* network byte order */
	uint64_t max_mr_size;
	uint64_t page_size_cap;
	uint32_t vendor_id;
	uint32_t vendor_part_id;
	uint32_t hw_ver;
	int max_qp;
	int max_qp_wr;
	uint64_t device_cap_flags;
	int max_sge;
	int max_cq;
	int max_cqe;
	int max_mr;
	int max_pd;
	int max_qp_rd_atom;
	int max_srq;
	int max_ah;
	uint8_t phys_port_cnt;
	int num_comp_vectors;
	/* the rest of QUERY_DEVICE's answer (libibverbs's struct ibv_device_attr has them) */
	uint32_t node_type;		/* 1 CA, 4 RNIC */
	int max_recv_sge;
	int max_qp_init_rd_atom;
	int max_srq_wr;
	int max_srq_sge;
	int max_inline_data;
	uint16_t max_pkeys;
	uint8_t local_ca_ack_delay;
	uint8_t atomic_cap;
};

enum oibv_port_state {
	OIBV_PORT_NOP, OIBV_PORT_DOWN, OIBV_PORT_INIT, OIBV_PORT_ARMED, OIBV_PORT_ACTIVE,
	OIBV_PORT_ACTIVE_DEFER,
};

enum oibv_mtu { OIBV_MTU_256 = 1, OIBV_MTU_512, OIBV_MTU_1024, OIBV_MTU_2048, OIBV_MTU_4096 };

struct oibv_port_attr {
	enum oibv_port_state state;
	enum oibv_mtu max_mtu;
	enum oibv_mtu active_mtu;
	int gid_tbl_len;
	uint32_t port_cap_flags;
	uint32_t max_msg_sz;
	uint16_t pkey_tbl_len;
	uint16_t lid;
	uint8_t phys_state;
	uint8_t link_layer;	/* 1 InfiniBand, 2 Ethernet */
	/* the rest of QUERY_PORT's answer */
	uint32_t bad_pkey_cntr;
	uint32_t qkey_viol_cntr;
	uint16_t sm_lid;
	uint8_t lmc;
	uint8_t sm_sl;
	uint8_t max_vl_num;
	uint8_t active_width;
	uint16_t active_speed;
};

union oibv_gid {
	uint8_t raw[16];
	struct {
		uint64_t subnet_prefix;
		uint64_t interface_id;
	} global;
};

struct oibv_pd {
	struct oibv_context *context;
	uint32_t handle;
};

struct oibv_comp_channel {
	struct oibv_context *context;
	int fd;
	int refcnt;		/* CQs using it */
};

struct oibv_cq {
	struct oibv_context *context;
	struct oibv_comp_channel *channel;
	void *cq_context;
	uint32_t handle;
	int cqe;
	int comp_vector;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t comp_events_completed;
	uint32_t async_events_completed;
	struct oibv_ring ring;	/* oib */
};

enum oibv_access_flags {
	OIBV_ACCESS_LOCAL_WRITE = 1,
	OIBV_ACCESS_REMOTE_WRITE = 1 << 1,
	OIBV_ACCESS_REMOTE_READ = 1 << 2,
	OIBV_ACCESS_REMOTE_ATOMIC = 1 << 3,
};

struct oibv_mr {
	struct oibv_context *context;
	struct oibv_pd *pd;
	void *addr;
	size_t length;
	uint32_t handle;
	uint32_t lkey;
	uint32_t rkey;
};

/* SMI and GSI (QP0, QP1): an oib extension, with CAP_NET_RAW only. */
enum oibv_qp_type {
	OIBV_QPT_SMI = 0, OIBV_QPT_GSI = 1, OIBV_QPT_RC = 2, OIBV_QPT_UC = 3, OIBV_QPT_UD = 4,
	OIBV_QPT_XRC = 5,	/* an XRC initiator (send side): no recv_cq, SRQ or receive caps */
	OIBV_QPT_XRC_RECV = 6,	/* an owner's XRC target: attr->xrcd only, pd NULL */
};

enum oibv_qp_state {
	OIBV_QPS_RESET, OIBV_QPS_INIT, OIBV_QPS_RTR, OIBV_QPS_RTS, OIBV_QPS_SQD, OIBV_QPS_SQE,
	OIBV_QPS_ERR,
};

struct oibv_qp_cap {
	uint32_t max_send_wr;
	uint32_t max_recv_wr;
	uint32_t max_send_sge;
	uint32_t max_recv_sge;
	uint32_t max_inline_data;
};

struct oibv_srq_attr {
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t srq_limit;
};

struct oibv_srq_init_attr {
	void *srq_context;
	struct oibv_srq_attr attr;
};

enum oibv_srq_attr_mask { OIBV_SRQ_MAX_WR = 1 << 0, OIBV_SRQ_LIMIT = 1 << 1 };

/*
 * An XRC domain (Documentation/xrc.md), as OFED's struct ibv_xrc_domain, shared between the
 * processes that open it through the same file (oibv_open_xrcd()).
 */
struct oibv_xrcd {
	struct oibv_context *context;
	uint32_t handle;
};

struct oibv_srq {
	struct oibv_context *context;
	void *srq_context;
	struct oibv_pd *pd;
	uint32_t handle;
	uint32_t xrc_srq_num;		/* XRC SRQs: what initiators name it by */
	struct oibv_xrcd *xrcd;		/* XRC SRQs */
	struct oibv_cq *xrc_cq;		/* XRC SRQs */
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t events_completed;
	struct oibv_ring ring;	/* oib: the mapped receive queue */
};

struct oibv_xrcd;

struct oibv_qp_init_attr {
	void *qp_context;
	struct oibv_cq *send_cq;
	struct oibv_cq *recv_cq;
	struct oibv_srq *srq;
	struct oibv_qp_cap cap;
	enum oibv_qp_type qp_type;
	int sq_sig_all;
	uint8_t port_num;	/* oib: the port of an SMI or GSI QP; 0 otherwise */
	struct oibv_xrcd *xrcd;	/* OIBV_QPT_XRC_RECV: its domain */
};

struct oibv_qp {
	struct oibv_context *context;
	void *qp_context;
	struct oibv_pd *pd;
	struct oibv_cq *send_cq;
	struct oibv_cq *recv_cq;
	struct oibv_srq *srq;
	uint32_t handle;
	uint32_t qp_num;
	enum oibv_qp_type qp_type;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t events_completed;
	struct oibv_ring sq;	/* oib: the mapped send queue */
	struct oibv_ring rq;	/* oib: the mapped receive queue (not with an SRQ) */
};

struct oibv_ah {
	struct oibv_context *context;
	struct oibv_pd *pd;
	uint32_t handle;
};

struct oibv_global_route {
	union oibv_gid dgid;
	uint32_t flow_label;
	uint8_t sgid_index;
	uint8_t hop_limit;
	uint8_t traffic_class;
};

struct oibv_ah_attr {
	struct oibv_global_route grh;
	uint16_t dlid;
	uint8_t sl;
	uint8_t is_global;
	uint8_t port_num;
};

enum oibv_qp_attr_mask {
	OIBV_QP_STATE = 1 << 0,
	OIBV_QP_ACCESS_FLAGS = 1 << 3,
	OIBV_QP_PKEY_INDEX = 1 << 4,
	OIBV_QP_PORT = 1 << 5,
	OIBV_QP_QKEY = 1 << 6,
	OIBV_QP_AV = 1 << 7,
	OIBV_QP_PATH_MTU = 1 << 8,
	OIBV_QP_TIMEOUT = 1 << 9,
	OIBV_QP_RETRY_CNT = 1 << 10,
	OIBV_QP_RNR_RETRY = 1 << 11,
	OIBV_QP_RQ_PSN = 1 << 12,
	OIBV_QP_MAX_QP_RD_ATOMIC = 1 << 13,
	OIBV_QP_MIN_RNR_TIMER = 1 << 15,
	OIBV_QP_SQ_PSN = 1 << 16,
	OIBV_QP_MAX_DEST_RD_ATOMIC = 1 << 17,
	OIBV_QP_DEST_QPN = 1 << 20,
};

struct oibv_qp_attr {
	enum oibv_qp_state qp_state;
	enum oibv_mtu path_mtu;
	uint32_t rq_psn;
	uint32_t sq_psn;
	uint32_t dest_qp_num;
	uint32_t qkey;
	int qp_access_flags;
	struct oibv_ah_attr ah_attr;
	uint16_t pkey_index;
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
	uint8_t min_rnr_timer;
	uint8_t port_num;
	uint8_t timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
};

struct oibv_sge {
	uint64_t addr;
	uint32_t length;
	uint32_t lkey;
};

enum oibv_wr_opcode {
	OIBV_WR_RDMA_WRITE, OIBV_WR_RDMA_WRITE_WITH_IMM, OIBV_WR_SEND, OIBV_WR_SEND_WITH_IMM,
	OIBV_WR_RDMA_READ, OIBV_WR_ATOMIC_CMP_AND_SWP, OIBV_WR_ATOMIC_FETCH_AND_ADD,
};

enum oibv_send_flags { OIBV_SEND_SIGNALED = 1 << 1, OIBV_SEND_SOLICITED = 1 << 2 };

struct oibv_send_wr {
	uint64_t wr_id;
	struct oibv_send_wr *next;
	struct oibv_sge *sg_list;
	int num_sge;
	enum oibv_wr_opcode opcode;
	unsigned int send_flags;
	uint32_t imm_data;	/* network byte order */
	uint32_t xrc_remote_srq_num;	/* OIBV_QPT_XRC: the XRC SRQ at the target */
	union {
		struct {
			uint64_t remote_addr;
			uint32_t rkey;
		} rdma;
		struct {
			uint64_t remote_addr;
			uint64_t compare_add;
			uint64_t swap;
			uint32_t rkey;
		} atomic;
		struct {
			struct oibv_ah *ah;
			uint32_t remote_qpn;
			uint32_t remote_qkey;
		} ud;
	} wr;
};

struct oibv_recv_wr {
	uint64_t wr_id;
	struct oibv_recv_wr *next;
	struct oibv_sge *sg_list;
	int num_sge;
};

enum oibv_wc_status {
	OIBV_WC_SUCCESS = 0, OIBV_WC_LOC_LEN_ERR = 1, OIBV_WC_LOC_PROT_ERR = 4,
	OIBV_WC_WR_FLUSH_ERR = 5, OIBV_WC_REM_ACCESS_ERR = 10, OIBV_WC_RETRY_EXC_ERR = 12,
};

enum oibv_wc_opcode {
	OIBV_WC_SEND, OIBV_WC_RDMA_WRITE, OIBV_WC_RDMA_READ, OIBV_WC_COMP_SWAP, OIBV_WC_FETCH_ADD,
	OIBV_WC_RECV = 1 << 7, OIBV_WC_RECV_RDMA_WITH_IMM,
};

enum oibv_wc_flags { OIBV_WC_GRH = 1 << 0, OIBV_WC_WITH_IMM = 1 << 1 };

struct oibv_wc {
	uint64_t wr_id;
	enum oibv_wc_status status;
	enum oibv_wc_opcode opcode;
	uint32_t vendor_err;
	uint32_t byte_len;
	uint32_t imm_data;	/* network byte order */
	uint32_t qp_num;
	uint32_t src_qp;
	unsigned int wc_flags;
	uint16_t pkey_index;
	uint16_t slid;
	uint8_t sl;
};

enum oibv_event_type {
	OIBV_EVENT_CQ_ERR, OIBV_EVENT_QP_FATAL, OIBV_EVENT_QP_REQ_ERR, OIBV_EVENT_QP_ACCESS_ERR,
	OIBV_EVENT_COMM_EST, OIBV_EVENT_SQ_DRAINED, OIBV_EVENT_PATH_MIG, OIBV_EVENT_PATH_MIG_ERR,
	OIBV_EVENT_QP_LAST_WQE_REACHED, OIBV_EVENT_SRQ_ERR, OIBV_EVENT_SRQ_LIMIT_REACHED,
	OIBV_EVENT_DEVICE_FATAL, OIBV_EVENT_PORT_ACTIVE, OIBV_EVENT_PORT_ERR,
	OIBV_EVENT_LID_CHANGE, OIBV_EVENT_PKEY_CHANGE, OIBV_EVENT_SM_CHANGE,
	OIBV_EVENT_CLIENT_REREGISTER, OIBV_EVENT_GID_CHANGE,
};

struct oibv_async_event {
	union {
		struct oibv_cq *cq;
		struct oibv_qp *qp;
		struct oibv_srq *srq;
		int port_num;
	} element;
	enum oibv_event_type event_type;
};

struct oibv_device **oibv_get_device_list(int *num_devices);
void oibv_free_device_list(struct oibv_device **list);
const char *oibv_get_device_name(struct oibv_device *device);
struct oibv_context *oibv_open_device(struct oibv_device *device);
int oibv_close_device(struct oibv_context *context);
int oibv_query_device(struct oibv_context *context, struct oibv_device_attr *attr);
int oibv_query_port(struct oibv_context *context, uint8_t port, struct oibv_port_attr *attr);
int oibv_query_gid(struct oibv_context *context, uint8_t port, int index, union oibv_gid *gid);
/* oibv_query_gid(), also giving the entry's type: 0 IB, 1 RoCE v2 (ENOENT: an empty entry). */
int oibv_query_gid_type(struct oibv_context *context, uint8_t port, int index,
			union oibv_gid *gid, uint32_t *type);
/* The CPU completion vector @vector raises its events on, or -1 (the map in sysfs). */
int oibv_comp_vector_cpu(struct oibv_context *context, int vector);

struct oibv_pd *oibv_alloc_pd(struct oibv_context *context);
int oibv_dealloc_pd(struct oibv_pd *pd);

struct oibv_comp_channel *oibv_create_comp_channel(struct oibv_context *context);
int oibv_destroy_comp_channel(struct oibv_comp_channel *channel);
struct oibv_cq *oibv_create_cq(struct oibv_context *context, int cqe, void *cq_context,
			       struct oibv_comp_channel *channel, int comp_vector);
int oibv_destroy_cq(struct oibv_cq *cq);
int oibv_req_notify_cq(struct oibv_cq *cq, int solicited_only);
int oibv_get_cq_event(struct oibv_comp_channel *channel, struct oibv_cq **cq,
		      void **cq_context);
/* oibv_get_cq_event(), also giving the CPU the event was raised on (an oib extension). */
int oibv_get_cq_event_cpu(struct oibv_comp_channel *channel, struct oibv_cq **cq,
			  void **cq_context, int *cpu);
void oibv_ack_cq_events(struct oibv_cq *cq, unsigned int nevents);
int oibv_poll_cq(struct oibv_cq *cq, int num_entries, struct oibv_wc *wc);

struct oibv_mr *oibv_reg_mr(struct oibv_pd *pd, void *addr, size_t length, int access);
int oibv_dereg_mr(struct oibv_mr *mr);

struct oibv_qp *oibv_create_qp(struct oibv_pd *pd, struct oibv_qp_init_attr *attr);
int oibv_modify_qp(struct oibv_qp *qp, struct oibv_qp_attr *attr, int attr_mask);
int oibv_query_qp(struct oibv_qp *qp, struct oibv_qp_attr *attr, int attr_mask,
		  struct oibv_qp_init_attr *init_attr);
int oibv_destroy_qp(struct oibv_qp *qp);
int oibv_post_send(struct oibv_qp *qp, struct oibv_send_wr *wr, struct oibv_send_wr **bad_wr);
int oibv_post_recv(struct oibv_qp *qp, struct oibv_recv_wr *wr, struct oibv_recv_wr **bad_wr);

struct oibv_srq *oibv_create_srq(struct oibv_pd *pd, struct oibv_srq_init_attr *attr);
int oibv_modify_srq(struct oibv_srq *srq, struct oibv_srq_attr *attr, int attr_mask);
int oibv_query_srq(struct oibv_srq *srq, struct oibv_srq_attr *attr);
int oibv_destroy_srq(struct oibv_srq *srq);
int oibv_post_srq_recv(struct oibv_srq *srq, struct oibv_recv_wr *wr,
		       struct oibv_recv_wr **bad_wr);

/*
 * XRC, after OFED's verbs.  oibv_open_xrcd(): @fd -1 a private domain; otherwise the domain of
 * the file @fd (every process opening the same file shares it), with @oflags O_CREAT (make it
 * if there is none) and O_EXCL (only a new one), else ENOENT / EEXIST.
 * oibv_create_xrc_rcv_qp(): a receive QP owned by the domain, brought to RTR by the kernel from
 * @attr and @attr_mask (no OIBV_QP_STATE); only its number is answered, and it lives while the
 * domain has holders or registrations (oibv_reg_xrc_rcv_qp()), whoever made it.  Closing the
 * domain drops this process's registrations on it.
 */
struct oibv_xrcd *oibv_open_xrcd(struct oibv_context *context, int fd, int oflags);
int oibv_close_xrcd(struct oibv_xrcd *d);
struct oibv_srq *oibv_create_srq_xrc(struct oibv_pd *pd, struct oibv_xrcd *xrcd,
				     struct oibv_cq *xrc_cq, struct oibv_srq_init_attr *attr);
int oibv_create_xrc_rcv_qp(struct oibv_xrcd *d, struct oibv_qp_attr *attr, int attr_mask,
			   uint32_t *xrc_rcv_qpn);
int oibv_reg_xrc_rcv_qp(struct oibv_xrcd *d, uint32_t xrc_rcv_qpn);
int oibv_unreg_xrc_rcv_qp(struct oibv_xrcd *d, uint32_t xrc_rcv_qpn);

struct oibv_ah *oibv_create_ah(struct oibv_pd *pd, struct oibv_ah_attr *attr);
int oibv_destroy_ah(struct oibv_ah *ah);

int oibv_get_async_event(struct oibv_context *context, struct oibv_async_event *event);
void oibv_ack_async_event(struct oibv_async_event *event);

#ifdef __cplusplus
}
#endif

#endif /* OIBV_H */
