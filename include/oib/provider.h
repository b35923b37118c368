/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a device driver (a "provider") implements and calls.
 *
 * The core allocates every verbs object with the provider's size (size_pd, size_cq, ...) so the
 * provider's structure embeds the core's as its first member; it fills in the common fields and
 * validates arguments before calling the op, and frees the memory after the destroy op.  Create ops
 * return 0 or -errno and must undo their own work on failure; destroy ops cannot fail and must
 * guarantee that no handler (completion or event) for the object runs after they return.
 */
#ifndef OIB_PROVIDER_H
#define OIB_PROVIDER_H

#include <oib/device.h>
#include <oib/iw_cm.h>

struct oib_device_ops {
	struct module *owner;
	size_t size_pd, size_cq, size_qp, size_srq, size_mr, size_ah;

	int (*query_device)(struct oib_device *device, struct oib_device_attr *attr);
	int (*query_port)(struct oib_device *device, u32 port, struct oib_port_attr *attr);
	int (*get_port_immutable)(struct oib_device *device, u32 port,
				  struct oib_port_immutable *immutable);

	int (*alloc_pd)(struct oib_pd *pd);
	void (*dealloc_pd)(struct oib_pd *pd);

	int (*create_cq)(struct oib_cq *cq, const struct oib_cq_init_attr *attr);
	void (*destroy_cq)(struct oib_cq *cq);
	int (*poll_cq)(struct oib_cq *cq, int num_entries, struct oib_wc *wc);
	int (*req_notify_cq)(struct oib_cq *cq, enum oib_cq_notify_flags flags);

	/* qp->qp_num is the provider's to set; SMI/GSI QPs must get 0/1. */
	int (*create_qp)(struct oib_qp *qp, struct oib_qp_init_attr *init_attr);
	/* Called with qp->mutex held, after the core checked the transition and the values. */
	int (*modify_qp)(struct oib_qp *qp, struct oib_qp_attr *attr, int attr_mask);
	/* attr->qp_state is ignored: the core has it (see oib_qp_transport_error()). */
	int (*query_qp)(struct oib_qp *qp, struct oib_qp_attr *attr, int attr_mask,
			struct oib_qp_init_attr *init_attr);
	void (*destroy_qp)(struct oib_qp *qp);
	int (*post_send)(struct oib_qp *qp, const struct oib_send_wr *wr,
			 const struct oib_send_wr **bad_wr);
	int (*post_recv)(struct oib_qp *qp, const struct oib_recv_wr *wr,
			 const struct oib_recv_wr **bad_wr);

	int (*create_srq)(struct oib_srq *srq, struct oib_srq_init_attr *init_attr);
	int (*modify_srq)(struct oib_srq *srq, struct oib_srq_attr *attr,
			  enum oib_srq_attr_mask mask);
	int (*query_srq)(struct oib_srq *srq, struct oib_srq_attr *attr);
	void (*destroy_srq)(struct oib_srq *srq);
	int (*post_srq_recv)(struct oib_srq *srq, const struct oib_recv_wr *wr,
			     const struct oib_recv_wr **bad_wr);
	/*
	 * The provider takes QPs and SRQs with a struct oib_recv_source (include/oib/verbs.h):
	 * when a message finds its receive queue empty (an SRQ's: empty, or at or below an armed
	 * limit), it calls @pull, under that queue's lock, and queues what it gets as if posted,
	 * up to a bound of its own; it checks an SRQ's limit only after that, so the limit counts
	 * the source's receives too.  Each flush of a QP in ERR (entering ERR, a post, a move to
	 * ERR again) pulls with OIB_RECV_PULL_FLUSH, at least once, and flushes what it gets (up
	 * to its queue's capacity a flush).  A -errno from @pull: a QP goes to ERR with
	 * OIB_EVENT_QP_FATAL, an SRQ raises OIB_EVENT_SRQ_ERR, once the provider let go of its
	 * locks.
	 */
	bool recv_source;

	int (*get_dma_mr)(struct oib_mr *mr, int access);
	/* Requests name the memory at @addr by mr->iova (the core set it; often @addr itself). */
	int (*reg_kernel_mr)(struct oib_mr *mr, void *addr, size_t len, int access);
	/*
	 * Sleeps if it must: returns only once no copy through the MR's keys is in progress and
	 * none can start (a message under way resolves its key again for each packet and fails).
	 */
	void (*dereg_mr)(struct oib_mr *mr);
	/*
	 * Fast registration (optional; with OIB_DEVICE_MEM_MGT_EXTENSIONS and
	 * max_fast_reg_page_list_len): alloc_mr makes a free MR that maps up to @max_num_sg pages
	 * and sets its lkey and rkey (the same key); map_mr_sg builds the page list the next
	 * OIB_WR_REG_MR registers, with oib_sg_to_pages() (mr->page_size is set), and returns the
	 * number of entries mapped.  The provider keeps the registered state (keys, access, pages)
	 * of its own: the ULP may map again and change the keys while the MR is registered.
	 */
	int (*alloc_mr)(struct oib_mr *mr, u32 max_num_sg);
	int (*map_mr_sg)(struct oib_mr *mr, struct scatterlist *sg, int sg_nents,
			 unsigned int sg_offset);

	int (*create_ah)(struct oib_ah *ah);
	void (*destroy_ah)(struct oib_ah *ah);

	/*
	 * Optional, process context: a GID entered (left) a port's table, so the provider can start
	 * (stop) answering to it.  An error from add_gid takes the GID out again.
	 */
	int (*add_gid)(struct oib_device *device, u32 port, const union oib_gid *gid);
	void (*del_gid)(struct oib_device *device, u32 port, const union oib_gid *gid);

	/*
	 * Optional (RoCE), process context: 0 if @port reaches @dgid, with the hop limit to use;
	 * -EHOSTUNREACH if not.  The core checks the port is ACTIVE first.
	 */
	int (*reach)(struct oib_device *device, u32 port, const union oib_gid *dgid, u8 *hop_limit);

	/*
	 * iWARP connection management (include/oib/iw_cm.h has the contract): all five for a
	 * device of node type OIB_NODE_RNIC, none for any other.  Process context; none may be
	 * called from the id's own event handler.  connect: a TCP connection and the MPA request
	 * from cm_id->local_addr (port 0: any) to cm_id->remote_addr, CONNECT_REPLY follows.
	 * accept and reject answer a CONNECT_REQUEST (on the new id); accept is followed by
	 * ESTABLISHED, or CLOSE if the connection failed meanwhile.  create_listen: requests to
	 * cm_id->local_addr (a wildcard: every address of the device) come to @cm_id, at most
	 * @backlog unanswered; destroy_listen: no event for @cm_id after it returns, and requests
	 * not yet delivered are refused.  -errno: nothing was started.
	 */
	int (*iw_connect)(struct oib_iw_cm_id *cm_id, const struct oib_iw_cm_conn_param *param);
	int (*iw_accept)(struct oib_iw_cm_id *cm_id, const struct oib_iw_cm_conn_param *param);
	int (*iw_reject)(struct oib_iw_cm_id *cm_id, const void *private_data, u8 private_data_len);
	int (*iw_create_listen)(struct oib_iw_cm_id *cm_id, int backlog);
	void (*iw_destroy_listen)(struct oib_iw_cm_id *cm_id);

	/* Last call before the device's memory is freed (from its struct device release). */
	void (*dealloc_driver)(struct oib_device *device);
};

/*
 * Allocate a device with @size bytes (>= sizeof(struct oib_device); the provider's structure embeds
 * struct oib_device first).  The caller sets node_type, phys_port_cnt, node_guid, then registers.
 * An RNIC (iWARP) must have the iw_ ops, and no other node type may.
 */
struct oib_device *oib_alloc_device(const struct oib_device_ops *ops, size_t size);
void oib_dealloc_device(struct oib_device *device);

/*
 * Register under a name from @name_fmt ("oib_rxe%d" picks the first free number).  Reads device and
 * port attributes, sets up the GID and P_Key tables (P_Key index 0 = 0xffff), adds sysfs and
 * debugfs entries, then calls every client's add().
 */
int oib_register_device(struct oib_device *device, const char *name_fmt);
/*
 * Calls every client's remove(), then waits for every oib_device_try_get() user to put.  Objects
 * the clients left behind are a ULP bug and are reported.  Process context only.
 */
void oib_unregister_device(struct oib_device *device);

/*
 * Deliver an async event.  QP, CQ and SRQ events go to the object's event handler synchronously, in
 * the caller's context (any context but hard-irq).  Port and device events are queued to the
 * device's event workqueue and reach every registered struct oib_event_handler; they may be
 * dispatched from any context.
 */
void oib_dispatch_event(struct oib_event *event);
void oib_dispatch_port_event(struct oib_device *device, u32 port, enum oib_event_type type);

/*
 * GID table upkeep (RoCE ports: GIDs follow the addresses the port is given); process context.
 * Add returns the index used (-EEXIST if present, -ENOSPC if full, or the provider's add_gid
 * error); both raise OIB_EVENT_GID_CHANGE.
 */
int oib_add_gid(struct oib_device *device, u32 port, const union oib_gid *gid,
		enum oib_gid_type type);
int oib_del_gid(struct oib_device *device, u32 port, const union oib_gid *gid);
int oib_set_pkey(struct oib_device *device, u32 port, u16 index, u16 pkey);

/* Helpers providers share. */
void oib_gid_from_mac(union oib_gid *gid, const u8 mac[6]);	/* fe80::/64 + EUI-64 */
/*
 * For map_mr_sg: call @set_page with the kernel virtual address of each mr->page_size block of
 * the scatterlist, in order, and set mr->iova and mr->length; the number of entries mapped (the
 * list is cut before an entry with a gap inside a block or one that does not fit in
 * mr->max_num_sg blocks), or -EINVAL if none was.
 */
int oib_sg_to_pages(struct oib_mr *mr, struct scatterlist *sgl, int sg_nents,
		    unsigned int sg_offset, void (*set_page)(struct oib_mr *mr, u64 addr));

/*
 * The transport moved @qp to ERR on its own (a fatal error, retries exhausted): the core's record
 * follows at once.  Any context; call it under the lock that orders the provider's own state
 * changes, so that a later modify to RESET is never overtaken by it.  No-op in RESET and ERR.
 */
void oib_qp_transport_error(struct oib_qp *qp);

#endif /* OIB_PROVIDER_H */
