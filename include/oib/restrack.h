/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Resource tracking for the modules above oib_core: objects of theirs that oib res show lists
 * beside the core's (Documentation/netlink.md).  A kind is owned by one module, which registers
 * a snapshot callback for it, tracks each object in the table of the device it is bound to (or
 * in the table of objects bound to none, @device NULL), and unregisters before it unloads, once
 * its objects are all gone.  The callback copies what a dump prints while oib_core holds the
 * table's lock: the object is alive then (untracking takes that lock), and it must not sleep.
 */
#ifndef OIB_RESTRACK_H
#define OIB_RESTRACK_H

#include <linux/socket.h>
#include <linux/types.h>
#include <oib/device.h>
#include <oib/verbs.h>

/* What a dump gives of an RDMA CM id. */
struct oib_res_cm_id_snap {
	const char *state;	/* a static name: "IDLE", "LISTEN", "ESTABLISHED", ... */
	u32 ps;			/* enum oib_cma_port_space */
	u32 port;		/* 0: not bound to a port */
	u32 qpn;		/* 0: no QP */
	u8 qp_type;
	bool listening;
	struct sockaddr_storage src, dst;	/* family 0: none */
};

union oib_res_ulp_snap {
	struct oib_res_cm_id_snap cm_id;
};

struct oib_res_ulp_ops {
	/* Copy @res's object into @out; under the table's lock (atomic context). */
	void (*snap)(const struct oib_res *res, union oib_res_ulp_snap *out);
};

/* -EINVAL: no such kind; -EBUSY: it has an owner. */
int oib_res_ulp_register(enum oib_res_ulp_kind kind, const struct oib_res_ulp_ops *ops);
/* No callback of @kind runs once this returns. */
void oib_res_ulp_unregister(enum oib_res_ulp_kind kind);

/*
 * Track @res (its owner, the process and @caller's module, recorded now) in @device's table of
 * @kind, or among the objects bound to no device (@device NULL).  Never fails: an object the
 * table has no room for is not listed.  Process context.
 */
void oib_res_ulp_add(struct oib_device *device, enum oib_res_ulp_kind kind, struct oib_res *res,
		     unsigned long caller);
/* As oib_res_ulp_add(), keeping the owner @res has: the object moves to another table. */
void oib_res_ulp_readd(struct oib_device *device, enum oib_res_ulp_kind kind,
		       struct oib_res *res);
/* Untrack it (from the table oib_res_ulp_add() put it in); no snapshot of it runs after. */
void oib_res_ulp_del(struct oib_device *device, enum oib_res_ulp_kind kind, struct oib_res *res);

#endif /* OIB_RESTRACK_H */
