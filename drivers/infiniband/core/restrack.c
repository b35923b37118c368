// SPDX-License-Identifier: GPL-2.0-only
/*
 * Resource tracking: each device's live PDs, CQs, QPs, SRQs and MRs, by kind, in an xarray each
 * (device->res[]), for oib res show (netlink_res.c).  An object is added at the end of a successful
 * create and erased at the start of its destroy, both under the xarray's lock, which a reader holds
 * while it copies an object's fields (restrack_snap()): an object in the table is alive.  Only
 * creation and destruction pay (an xa_alloc, an xa_erase); posting and polling never look here.
 */
#include <linux/kallsyms.h>
#include <linux/sched.h>
#include "core_priv.h"
#include "restrack.h"

void oib_res_add(struct oib_device *device, enum oib_obj_type type, struct oib_res *res,
		 unsigned long caller)
{
	res->pid = task_tgid_nr(current);
	get_task_comm(res->comm, current);
	res->caller = caller;
	if (xa_alloc(&device->res[type], &res->id, res, xa_limit_31b, GFP_KERNEL))
		res->id = U32_MAX;	/* not listed, and nothing else changes */
}

void oib_res_del(struct oib_device *device, enum oib_obj_type type, struct oib_res *res)
{
	if (res->id != U32_MAX)
		xa_erase(&device->res[type], res->id);
}

static u32 oib_res_pd_id(const struct oib_pd *pd)
{
	return pd ? pd->res.id : U32_MAX;
}

/* Copy what oib res show prints of the object of @res; under the table's lock. */
static void oib_res_copy(enum oib_obj_type type, struct oib_res *res, struct oib_res_snap *s)
{
	s->res = *res;
	s->res.caller = READ_ONCE(res->caller);
	switch (type) {
	case OIB_OBJ_PD: {
		struct oib_pd *pd = container_of(res, struct oib_pd, res);

		s->users = atomic_read(&pd->usecnt);
		s->lkey = pd->local_dma_lkey;
		break;
	}
	case OIB_OBJ_CQ: {
		struct oib_cq *cq = container_of(res, struct oib_cq, res);

		s->users = atomic_read(&cq->usecnt);
		s->cqe = cq->cqe;
		s->comp_vector = cq->comp_vector;
		s->poll_ctx = cq->managed ? cq->poll_ctx : -1;
		break;
	}
	case OIB_OBJ_QP: {
		struct oib_qp *qp = container_of(res, struct oib_qp, res);

		s->qpn = qp->qp_num;
		s->qp_type = qp->qp_type;
		s->state = READ_ONCE(qp->state);
		s->port = READ_ONCE(qp->port_num);
		s->pd = oib_res_pd_id(qp->pd);
		break;
	}
	case OIB_OBJ_SRQ: {
		struct oib_srq *srq = container_of(res, struct oib_srq, res);

		s->users = atomic_read(&srq->usecnt);
		s->srq_type = srq->srq_type;
		s->srqn = srq->srq_num;
		s->pd = oib_res_pd_id(srq->pd);
		break;
	}
	case OIB_OBJ_MR: {
		struct oib_mr *mr = container_of(res, struct oib_mr, res);

		s->lkey = mr->lkey;
		s->rkey = mr->rkey;
		s->iova = mr->iova;
		s->length = mr->length;
		s->pd = oib_res_pd_id(mr->pd);
		break;
	}
	default:
		break;
	}
}

/* The live object of @type with the lowest id at or above *@id: true, its fields in @s. */
bool oib_res_next(struct oib_device *device, enum oib_obj_type type, unsigned long *id,
		  struct oib_res_snap *s)
{
	struct oib_res *res;

	memset(s, 0, sizeof(*s));
	s->pd = U32_MAX;
	xa_lock(&device->res[type]);
	res = xa_find(&device->res[type], id, ULONG_MAX, XA_PRESENT);
	if (res)
		oib_res_copy(type, res, s);
	xa_unlock(&device->res[type]);
	return res;
}

/*
 * Who made it: a process (true: the call came from oib_uverbs) or the module of the creating call,
 * its name into @owner.
 */
bool oib_res_owner(unsigned long caller, char *owner, size_t size)
{
	char sym[KSYM_SYMBOL_LEN];
	const char *mod;
	size_t n;

	if (!caller) {
		strscpy(owner, "oib_core", size);
		return false;
	}
	sprint_symbol_no_offset(sym, caller);
	mod = strchr(sym, '[');
	if (!mod) {
		strscpy(owner, "kernel", size);
		return false;
	}
	mod++;
	n = strcspn(mod, " ]");
	strscpy(owner, mod, min(n + 1, size));
	return !strcmp(owner, "oib_uverbs");
}
