// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* The drop-in libibverbs: protection domains, memory regions, address handles. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ibvc.h"

IBVC_EXPORT struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
	struct ibvc_pd *p;

	if (!context) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->o = oibv_alloc_pd(ibvc_ctx(context)->o);
	if (!p->o) {
		free(p);
		return NULL;
	}
	p->pd.context = context;
	p->pd.handle = p->o->handle;
	return &p->pd;
}

IBVC_EXPORT int ibv_dealloc_pd(struct ibv_pd *pd)
{
	int ret;

	if (!pd)
		return EINVAL;
	ret = oibv_dealloc_pd(IBVC(pd, pd)->o);
	if (!ret)
		free(pd);
	return ret;
}

#define IBVC_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | \
		     IBV_ACCESS_REMOTE_ATOMIC)
#define IBVC_ACCESS_KNOWN (IBVC_ACCESS | IBV_ACCESS_MW_BIND | IBV_ACCESS_ZERO_BASED | \
			   IBV_ACCESS_ON_DEMAND | IBV_ACCESS_HUGETLB)

/*
 * oib's MRs are named by the process's addresses (iova = addr only).  The optional flags
 * (IBV_ACCESS_OPTIONAL_RANGE, e.g. relaxed ordering) are dropped as libibverbs drops them for a
 * device without them; memory windows, zero-based, on-demand paging: EOPNOTSUPP.
 */
IBVC_EXPORT struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length,
					    uint64_t iova, unsigned int access)
{
	struct ibvc_mr *m;

	access &= ~IBV_ACCESS_OPTIONAL_RANGE;
	if (!pd || !length || (access & ~IBVC_ACCESS_KNOWN)) {
		errno = EINVAL;
		return NULL;
	}
	if ((access & ~IBVC_ACCESS) || iova != (uintptr_t)addr) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->o = oibv_reg_mr(IBVC(pd, pd)->o, addr, length, access);
	if (!m->o) {
		free(m);
		return NULL;
	}
	m->mr.context = pd->context;
	m->mr.pd = pd;
	m->mr.addr = addr;
	m->mr.length = length;
	m->mr.handle = m->o->handle;
	m->mr.lkey = m->o->lkey;
	m->mr.rkey = m->o->rkey;
	return &m->mr;
}

IBVC_EXPORT struct ibv_mr *(ibv_reg_mr)(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	return ibv_reg_mr_iova2(pd, addr, length, (uintptr_t)addr, access);
}

IBVC_EXPORT struct ibv_mr *(ibv_reg_mr_iova)(struct ibv_pd *pd, void *addr, size_t length,
					     uint64_t iova, int access)
{
	return ibv_reg_mr_iova2(pd, addr, length, iova, access);
}

IBVC_EXPORT struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length,
					     uint64_t iova, int fd, int access)
{
	(void)offset; (void)length; (void)iova; (void)fd; (void)access;
	errno = pd ? EOPNOTSUPP : EINVAL;
	return NULL;
}

/* libibverbs's IBV_REREG_MR_ERR_INPUT: the MR is unchanged */
IBVC_EXPORT int ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr,
			     size_t length, int access)
{
	(void)mr; (void)flags; (void)pd; (void)addr; (void)length; (void)access;
	errno = EOPNOTSUPP;
	return IBV_REREG_MR_ERR_INPUT;
}

IBVC_EXPORT int ibv_dereg_mr(struct ibv_mr *mr)
{
	int ret;

	if (!mr)
		return EINVAL;
	ret = oibv_dereg_mr(IBVC(mr, mr)->o);
	if (!ret)
		free(mr);
	return ret;
}

int ibvc_ah_attr_ok(const struct ibv_ah_attr *a)
{
	return a->static_rate == 0 && a->src_path_bits == 0;
}

void ibvc_ah_attr_to(struct oibv_ah_attr *o, const struct ibv_ah_attr *a)
{
	*o = (struct oibv_ah_attr){
		.grh = {
			.flow_label = a->grh.flow_label, .sgid_index = a->grh.sgid_index,
			.hop_limit = a->grh.hop_limit, .traffic_class = a->grh.traffic_class,
		},
		.dlid = a->dlid, .sl = a->sl, .is_global = a->is_global, .port_num = a->port_num,
	};
	memcpy(o->grh.dgid.raw, a->grh.dgid.raw, sizeof(o->grh.dgid.raw));
}

/* A static rate or source path bits oib cannot honour: EINVAL, as for any bad attribute. */
IBVC_EXPORT struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct oibv_ah_attr oa;
	struct ibvc_ah *a;

	if (!pd || !attr || !ibvc_ah_attr_ok(attr)) {
		errno = EINVAL;
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	ibvc_ah_attr_to(&oa, attr);
	a->o = oibv_create_ah(IBVC(pd, pd)->o, &oa);
	if (!a->o) {
		free(a);
		return NULL;
	}
	a->ah.context = pd->context;
	a->ah.pd = pd;
	a->ah.handle = a->o->handle;
	return &a->ah;
}

IBVC_EXPORT int ibv_destroy_ah(struct ibv_ah *ah)
{
	int ret;

	if (!ah)
		return EINVAL;
	ret = oibv_destroy_ah(IBVC(ah, ah)->o);
	if (!ret)
		free(ah);
	return ret;
}
