/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib devices, ports, clients and device async events: the ULP's view of the hardware.
 *
 * Device lifetime.  struct oib_device embeds a struct device; its memory lives until the last
 * put_device() (oib_dealloc_device() drops the provider's).  Separately, a registered device counts
 * its users: oib_device_try_get() succeeds only while the device is registered and
 * oib_unregister_device() waits until every oib_device_put() has happened.  Clients never need
 * try_get for the device they are given in add(): it stays valid until their remove() returns.
 */
#ifndef OIB_DEVICE_H
#define OIB_DEVICE_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/completion.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <oib/verbs.h>

struct oib_device_ops;
struct oib_port;

enum oib_node_type {
	OIB_NODE_CA = 1,
	OIB_NODE_SWITCH,
	OIB_NODE_ROUTER,
	OIB_NODE_RNIC,
};

enum oib_link_layer {
	OIB_LINK_LAYER_UNSPECIFIED,
	OIB_LINK_LAYER_INFINIBAND,
	OIB_LINK_LAYER_ETHERNET,
};

enum oib_port_state {
	OIB_PORT_NOP,
	OIB_PORT_DOWN,
	OIB_PORT_INIT,
	OIB_PORT_ARMED,
	OIB_PORT_ACTIVE,
	OIB_PORT_ACTIVE_DEFER,
};

enum oib_port_phys_state {
	OIB_PORT_PHYS_SLEEP = 1,
	OIB_PORT_PHYS_POLLING,
	OIB_PORT_PHYS_DISABLED,
	OIB_PORT_PHYS_TRAINING,
	OIB_PORT_PHYS_LINK_UP,
	OIB_PORT_PHYS_LINK_ERROR_RECOVERY,
};

enum oib_atomic_cap {
	OIB_ATOMIC_NONE,
	OIB_ATOMIC_HCA,
	OIB_ATOMIC_GLOB,
};

struct oib_device_attr {
	u64 fw_ver;
	__be64 sys_image_guid;
	u64 max_mr_size;
	u64 page_size_cap;
	u32 vendor_id;
	u32 vendor_part_id;
	u32 hw_ver;
	u32 max_qp;
	u32 max_qp_wr;
	u64 device_cap_flags;
	u32 max_send_sge;
	u32 max_recv_sge;
	u32 max_cq;
	u32 max_cqe;
	u32 max_mr;
	u32 max_pd;
	u32 max_qp_rd_atom;
	u32 max_qp_init_rd_atom;
	u32 max_srq;
	u32 max_srq_wr;
	u32 max_srq_sge;
	u32 max_ah;
	u32 max_inline_data;
	u16 max_pkeys;
	u8 local_ca_ack_delay;
	enum oib_atomic_cap atomic_cap;
	u32 num_comp_vectors;
	u32 max_fast_reg_page_list_len;	/* max_num_sg of oib_alloc_mr(); 0: no fast registration */
	u32 max_xrcd;			/* XRC domains; with OIB_DEVICE_XRC */
};

/* device_cap_flags */
#define OIB_DEVICE_RESIZE_MAX_WR	BIT_ULL(0)
#define OIB_DEVICE_SRQ_RESIZE		BIT_ULL(1)
#define OIB_DEVICE_RC_RNR_NAK_GEN	BIT_ULL(2)
#define OIB_DEVICE_MEM_MGT_EXTENSIONS	BIT_ULL(3)
#define OIB_DEVICE_XRC			BIT_ULL(4)	/* XRC domains, SRQs and QPs */

struct oib_port_attr {
	enum oib_port_state state;
	enum oib_port_phys_state phys_state;
	enum oib_mtu max_mtu;
	enum oib_mtu active_mtu;
	u32 gid_tbl_len;
	u16 pkey_tbl_len;
	u32 port_cap_flags;
	u32 max_msg_sz;
	u32 bad_pkey_cntr;
	u32 qkey_viol_cntr;
	u16 lid;
	u16 sm_lid;
	u8 lmc;
	u8 sm_sl;
	u8 max_vl_num;
	u8 active_width;
	u16 active_speed;
	enum oib_link_layer link_layer;
};

/* Port capability flags (core_cap_flags in struct oib_port_immutable). */
#define OIB_CORE_CAP_IB_MAD		BIT(0)	/* QP1 carries MADs */
#define OIB_CORE_CAP_IB_SMI		BIT(1)	/* QP0 exists */
#define OIB_CORE_CAP_IB_CM		BIT(2)
#define OIB_CORE_CAP_IW_CM		BIT(3)
#define OIB_CORE_CAP_ROCE_UDP_ENCAP	BIT(4)

#define OIB_CORE_PORT_ROCE_V2 \
	(OIB_CORE_CAP_IB_MAD | OIB_CORE_CAP_IB_CM | OIB_CORE_CAP_ROCE_UDP_ENCAP)

/* What a port is for its whole registered life: read once at registration. */
struct oib_port_immutable {
	u32 gid_tbl_len;
	u16 pkey_tbl_len;
	u32 core_cap_flags;
	enum oib_link_layer link_layer;
	u32 max_mad_size;
};

enum oib_device_reg_state {
	OIB_DEV_ALLOCATED,
	OIB_DEV_REGISTERED,
	OIB_DEV_UNREGISTERING,
	OIB_DEV_UNREGISTERED,
};

/* Per-device object counts, for limits and for finding leaks at unregister. */
enum oib_obj_type {
	OIB_OBJ_PD,
	OIB_OBJ_CQ,
	OIB_OBJ_QP,
	OIB_OBJ_SRQ,
	OIB_OBJ_MR,
	OIB_OBJ_AH,
	OIB_OBJ_XRCD,
	OIB_OBJ_MAX,
};

/* The kinds of objects the modules above oib_core track (include/oib/restrack.h). */
enum oib_res_ulp_kind {
	OIB_RES_CM_ID,		/* oib_cma's ids */
	OIB_RES_ULP_MAX,
};

struct oib_device {
	struct device dev;		/* name, sysfs, and the memory's refcount */
	const struct oib_device_ops *ops;
	enum oib_node_type node_type;
	u32 phys_port_cnt;
	__be64 node_guid;
	struct oib_device_attr attrs;	/* read from the provider at registration */
	struct oib_port *ports;		/* core-private, [phys_port_cnt], port n at n - 1 */

	/* Registration: reg_state changes under the core's registry lock. */
	enum oib_device_reg_state reg_state;
	u32 index;
	refcount_t users;		/* 1 while registered + one per oib_device_try_get() */
	struct completion users_done;	/* completed when users drops to 0 */
	struct xarray client_data;	/* client id -> that client's data for this device */

	/* Device async events: handler list and the ordered workqueue that calls them. */
	struct rw_semaphore event_rwsem;	/* protects event_handlers */
	struct list_head event_handlers;
	spinlock_t event_lock;			/* protects event_wq: NULL when unregistered */
	struct workqueue_struct *event_wq;

	atomic_t objects[OIB_OBJ_MAX];
	/* The live PDs, CQs, QPs, SRQs and MRs by kind and id (struct oib_res); their xa_locks. */
	struct xarray res[OIB_OBJ_MAX];
	/* The upper modules' objects bound to it, by kind and id (core/restrack_ulp.c). */
	struct xarray res_ulp[OIB_RES_ULP_MAX];
	/*
	 * The live kernel-owned XRC receive QPs of every domain (core/xrc_rcv.c), by QP number, for
	 * debugfs; the xarray's own lock.  An entry is there from the QP's creation to its destroy.
	 */
	struct xarray xrc_rcv_qps;
	/*
	 * The CQ pool (core/cq_poll.c): a list per poll context of CQs the pool made; each is
	 * freed at unregistration.  cq_pools_lock protects the lists and every pool CQ's cqe_used.
	 */
	spinlock_t cq_pools_lock;
	struct list_head cq_pools[OIB_POLL_LAST_POOL_TYPE + 1];
	atomic_t cq_pool_next;		/* the vector for the next negative hint */
	struct kobject *ports_kobj;
	struct dentry *debugfs;
};

static inline const char *oib_dev_name(const struct oib_device *device)
{
	return dev_name(&device->dev);
}

static inline bool oib_port_valid(const struct oib_device *device, u32 port)
{
	return port >= 1 && port <= device->phys_port_cnt;
}

/* Lookup and users. */
bool oib_device_try_get(struct oib_device *device);
void oib_device_put(struct oib_device *device);
struct oib_device *oib_device_get_by_name(const char *name);	/* try_get'ed, or NULL */
int oib_query_device(struct oib_device *device, struct oib_device_attr *attr);
int oib_object_count(struct oib_device *device, enum oib_obj_type type);

/* Ports. */
int oib_query_port(struct oib_device *device, u32 port, struct oib_port_attr *attr);
const struct oib_port_immutable *oib_port_immutable(struct oib_device *device, u32 port);
enum oib_link_layer oib_port_link_layer(struct oib_device *device, u32 port);
int oib_query_gid(struct oib_device *device, u32 port, u32 index, union oib_gid *gid,
		  enum oib_gid_type *type);
int oib_find_gid(struct oib_device *device, const union oib_gid *gid, u32 *port, u32 *index);
int oib_query_pkey(struct oib_device *device, u32 port, u16 index, u16 *pkey);
int oib_find_pkey(struct oib_device *device, u32 port, u16 pkey, u16 *index);
/*
 * Whether @port reaches the RoCE @dgid (one of its own included), and over how many hops at most
 * (@hop_limit, may be NULL): 0; -EHOSTUNREACH; -ENETDOWN, the port is not ACTIVE; -EOPNOTSUPP, the
 * device cannot tell.  Process context.
 */
int oib_port_reach(struct oib_device *device, u32 port, const union oib_gid *dgid, u8 *hop_limit);

/*
 * Clients.  add() is called for every registered device, present and future, and remove() for each
 * device the client was added to, when either the device or the client goes away.  Both run in
 * process context, serialised with all other registration activity; a client must not register or
 * unregister clients or devices from them.  oib_unregister_client() returns only after every
 * remove() has returned.
 */
struct oib_client {
	const char *name;
	int (*add)(struct oib_device *device);	/* an error means "not interested" */
	void (*remove)(struct oib_device *device, void *client_data);
	/* Private to the core. */
	u32 client_id;
	struct list_head list;
};

int oib_register_client(struct oib_client *client);
void oib_unregister_client(struct oib_client *client);
void *oib_get_client_data(struct oib_device *device, struct oib_client *client);
int oib_set_client_data(struct oib_device *device, struct oib_client *client, void *data);

/*
 * Device async events (port and device-wide).  Handlers run in process context from the device's
 * ordered event workqueue, in the order events were dispatched; once
 * oib_unregister_event_handler() returns the handler never runs again.
 */
struct oib_event_handler {
	struct oib_device *device;
	void (*handler)(struct oib_event_handler *handler, struct oib_event *event);
	struct list_head list;
};

int oib_register_event_handler(struct oib_event_handler *handler);
void oib_unregister_event_handler(struct oib_event_handler *handler);

#endif /* OIB_DEVICE_H */
