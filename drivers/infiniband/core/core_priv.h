/* SPDX-License-Identifier: GPL-2.0-only */
/* oib_core internals shared between its files; nothing here is API. */
#ifndef OIB_CORE_PRIV_H
#define OIB_CORE_PRIV_H

#include <linux/spinlock.h>
#include <linux/kobject.h>
#include <oib/provider.h>
#include <oib/kunit/core.h>

struct oib_port_sysfs;

struct oib_gid_entry {
	union oib_gid gid;
	enum oib_gid_type type;
	bool valid;
};

/*
 * Per-port core state.  The immutable part is read at registration; the GID and P_Key tables are
 * owned by the core (providers update them through oib_add_gid() and friends) and read from any
 * context, so @lock is an irq-safe spinlock.
 */
struct oib_port {
	struct oib_device *device;
	u32 port_num;
	struct oib_port_immutable immutable;
	spinlock_t lock;		/* protects gids[] and pkeys[] */
	struct oib_gid_entry *gids;	/* [immutable.gid_tbl_len] */
	u16 *pkeys;			/* [immutable.pkey_tbl_len] */
	struct oib_port_sysfs *sysfs;	/* ports/<n> in sysfs */
};

/* The registry: every device and every client, and the order they were added in. */
extern struct mutex oib_registry_lock;
extern struct xarray oib_devices;
extern struct class oib_class;
extern struct dentry *oib_debugfs_root;
extern const struct attribute_group *oib_device_groups[];

int oib_clients_add_device(struct oib_device *device);
void oib_clients_remove_device(struct oib_device *device);

int oib_ports_setup(struct oib_device *device);
void oib_ports_cleanup(struct oib_device *device);

int oib_sysfs_add_device(struct oib_device *device);
void oib_sysfs_remove_device(struct oib_device *device);

int oib_events_start(struct oib_device *device);
void oib_events_stop(struct oib_device *device);

void oib_debugfs_add_device(struct oib_device *device);
void oib_debugfs_remove_device(struct oib_device *device);
const char *oib_obj_name(enum oib_obj_type type);
const char *oib_port_state_name(enum oib_port_state state);

/* cq.c, cq_poll.c */
void oib_cq_destroy(struct oib_cq *cq);
void oib_cq_poller_stop(struct oib_cq *cq);
int oib_cq_poll_init(void);
void oib_cq_poll_exit(void);
void oib_cq_pool_destroy(struct oib_device *device);

/* qp_watch.c */
void oib_qp_watch_event(struct oib_qp *qp, const struct oib_event *event);
void oib_qp_watch_polled(struct oib_cq *cq, const struct oib_wc *wc, int n);

static inline struct oib_port *oib_port(struct oib_device *device, u32 port)
{
	return &device->ports[port - 1];
}

/* Count an object against the device limit @max; false if the limit is reached. */
static inline bool oib_object_get(struct oib_device *device, enum oib_obj_type type, u32 max)
{
	return atomic_add_unless(&device->objects[type], 1, max);
}

static inline void oib_object_put(struct oib_device *device, enum oib_obj_type type)
{
	atomic_dec(&device->objects[type]);
}

void *oib_alloc_object(struct oib_device *device, enum oib_obj_type type, size_t size);
void oib_free_object(struct oib_device *device, enum oib_obj_type type, void *obj);

/* mr.c: what every MR creation shares (fast_reg.c too) */
bool oib_access_valid(struct oib_device *device, int access);
struct oib_mr *oib_mr_alloc(struct oib_pd *pd, int access);
struct oib_mr *oib_mr_done(struct oib_mr *mr, int ret);

/* qp.c, qp_state.c, xrcd.c, xrc_rcv.c: XRC */
struct oib_qp *oib_create_qp_owned(struct oib_pd *pd, struct oib_qp_init_attr *init_attr,
				   bool xrc_rcv);
void oib_xrcd_mem_put(struct oib_xrcd *xrcd);
int oib_destroy_qp_now(struct oib_qp *qp);
int oib_xrc_tgt_add(struct oib_qp *qp);
int oib_xrc_tgt_destroy(struct oib_qp *qp);
void oib_xrc_tgt_event(struct oib_qp *qp, struct oib_event *event);

/* An owner's XRC target QP: shared by number (xrc_open.c). */
static inline bool oib_qp_shared(const struct oib_qp *qp)
{
	return qp->qp_type == OIB_QPT_XRC_TGT && !qp->xrc_rcv;
}

void oib_xrc_rcv_close_locked(struct oib_xrcd *xrcd);

/* restrack.c: the live objects of each kind (struct oib_res) */
void oib_res_add(struct oib_device *device, enum oib_obj_type type, struct oib_res *res,
		 unsigned long caller);
void oib_res_del(struct oib_device *device, enum oib_obj_type type, struct oib_res *res);

/* The creating call's return address, set by the exported call that made the object. */
static inline void oib_res_caller(struct oib_res *res, unsigned long caller)
{
	WRITE_ONCE(res->caller, caller);
}

static inline struct oib_mr *oib_res_caller_mr(struct oib_mr *mr, unsigned long caller)
{
	if (!IS_ERR(mr))
		oib_res_caller(&mr->res, caller);
	return mr;
}

/* netlink*.c: the family, its notifications, the link types */
int oib_nl_init(void);
void oib_nl_exit(void);
void oib_nl_notify(struct oib_device *device, u32 port, u8 cmd);
bool oib_link_type_name(struct oib_device *device, char *buf, size_t size);
/* device.c: the registered device at *@index or after, a user held; for walks */
struct oib_device *oib_device_next(unsigned long *index);

int oib_check_ah_attr(struct oib_device *device, const struct oib_ah_attr *attr);

#endif /* OIB_CORE_PRIV_H */
