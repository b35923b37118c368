/* SPDX-License-Identifier: GPL-2.0-only */
/* oib_core's resource tracking (restrack.c), for its netlink dump (netlink_res.c). */
#ifndef OIB_CORE_RESTRACK_H
#define OIB_CORE_RESTRACK_H

#include <oib/device.h>
#include <oib/restrack.h>

/* What a dump prints of an object, copied while it is surely alive. */
struct oib_res_snap {
	struct oib_res res;
	u32 users;
	u32 pd;			/* its PD's id; U32_MAX: none */
	u32 qpn, qp_type, state, port;
	u32 cqe, comp_vector;
	int poll_ctx;		/* -1: not polled by the core */
	u32 lkey, rkey;
	u64 iova, length;
	u32 srqn, srq_type;
};

bool oib_res_next(struct oib_device *device, enum oib_obj_type type, unsigned long *id,
		  struct oib_res_snap *s);
bool oib_res_owner(unsigned long caller, char *owner, size_t size);

/* restrack_ulp.c: the upper modules' kinds */
bool oib_res_ulp_next(struct oib_device *device, enum oib_res_ulp_kind kind, unsigned long *id,
		      struct oib_res *res, union oib_res_ulp_snap *s);

#endif /* OIB_CORE_RESTRACK_H */
