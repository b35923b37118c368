// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * librdmacm's convenience calls: rdma_getaddrinfo() (the C library's resolver, no route
 * resolution service), rdma_create_ep()/rdma_destroy_ep() on synchronous ids, SRQs on an id.
 */
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_verbs.h>
#include "rdmacm.h"

static int cma_ai_error(int gai)
{
	switch (gai) {
	case EAI_MEMORY:
		return cma_err(ENOMEM);
	case EAI_SYSTEM:
		return -1;
	default:
		return cma_err(EADDRNOTAVAIL);
	}
}

static struct sockaddr *cma_sa_dup(const struct sockaddr *sa, socklen_t len)
{
	struct sockaddr *copy = malloc(len);

	if (copy)
		memcpy(copy, sa, len);
	return copy;
}

/* One result per address the resolver gives, passive ones as sources, others as destinations. */
static struct rdma_addrinfo *cma_ai_from(const struct addrinfo *ai, const struct rdma_addrinfo *h)
{
	struct rdma_addrinfo *r = calloc(1, sizeof(*r));
	struct sockaddr *sa;

	if (!r)
		return NULL;
	r->ai_flags = h ? h->ai_flags : 0;
	r->ai_family = ai->ai_family;
	r->ai_qp_type = h && h->ai_qp_type ? h->ai_qp_type : IBV_QPT_RC;
	r->ai_port_space = h && h->ai_port_space ? h->ai_port_space : RDMA_PS_TCP;
	sa = cma_sa_dup(ai->ai_addr, ai->ai_addrlen);
	if (!sa) {
		free(r);
		return NULL;
	}
	if (r->ai_flags & RAI_PASSIVE) {
		r->ai_src_addr = sa;
		r->ai_src_len = ai->ai_addrlen;
		return r;
	}
	r->ai_dst_addr = sa;
	r->ai_dst_len = ai->ai_addrlen;
	if (h && h->ai_src_addr && h->ai_src_len) {	/* the source the caller chose */
		r->ai_src_addr = cma_sa_dup(h->ai_src_addr, h->ai_src_len);
		if (!r->ai_src_addr) {
			rdma_freeaddrinfo(r);
			return NULL;
		}
		r->ai_src_len = h->ai_src_len;
	}
	return r;
}

RDMACM_EXPORT void rdma_freeaddrinfo(struct rdma_addrinfo *res)
{
	struct rdma_addrinfo *next;

	for (; res; res = next) {
		next = res->ai_next;
		free(res->ai_src_addr);
		free(res->ai_dst_addr);
		free(res->ai_src_canonname);
		free(res->ai_dst_canonname);
		free(res->ai_route);
		free(res->ai_connect);
		free(res);
	}
}

RDMACM_EXPORT int rdma_getaddrinfo(const char *node, const char *service,
				   const struct rdma_addrinfo *hints, struct rdma_addrinfo **res)
{
	struct addrinfo h = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	struct rdma_addrinfo *head = NULL, **tail = &head;
	int ret;

	if (!res || (!node && !service))
		return cma_err(EINVAL);
	if (hints) {
		h.ai_family = hints->ai_family == AF_IB ? -1 : hints->ai_family;
		if (h.ai_family < 0)
			return cma_err(EAFNOSUPPORT);
		h.ai_flags = (hints->ai_flags & RAI_PASSIVE ? AI_PASSIVE : 0) |
			     (hints->ai_flags & RAI_NUMERICHOST ? AI_NUMERICHOST : 0);
	}
	ret = getaddrinfo(node, service, &h, &ai);
	if (ret)
		return cma_ai_error(ret);
	for (a = ai; a; a = a->ai_next) {
		if (a->ai_family != AF_INET && a->ai_family != AF_INET6)
			continue;
		*tail = cma_ai_from(a, hints);
		if (!*tail) {
			freeaddrinfo(ai);
			rdma_freeaddrinfo(head);
			return cma_err(ENOMEM);
		}
		tail = &(*tail)->ai_next;
	}
	freeaddrinfo(ai);
	if (!head)
		return cma_err(EADDRNOTAVAIL);
	*res = head;
	return 0;
}

static int cma_ep_passive(struct cma_id *id, struct rdma_addrinfo *res, struct ibv_pd *pd,
			  struct ibv_qp_init_attr *attr)
{
	if (rdma_bind_addr(&id->id, res->ai_src_addr))
		return -1;
	if (attr) {
		id->has_ep_attr = true;
		id->ep_attr = *attr;
		id->ep_pd = pd;
	}
	return 0;
}

static int cma_ep_active(struct cma_id *id, struct rdma_addrinfo *res, struct ibv_pd *pd,
			 struct ibv_qp_init_attr *attr)
{
	if (rdma_resolve_addr(&id->id, res->ai_src_addr, res->ai_dst_addr, RDMACM_TIMEOUT_MS) ||
	    rdma_resolve_route(&id->id, RDMACM_TIMEOUT_MS))
		return -1;
	return attr ? rdma_create_qp(&id->id, pd, attr) : 0;
}

RDMACM_EXPORT int rdma_create_ep(struct rdma_cm_id **out, struct rdma_addrinfo *res,
				 struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)
{
	struct rdma_cm_id *cm_id;
	int ret, e;

	if (!out || !res)
		return cma_err(EINVAL);
	if (rdma_create_id(NULL, &cm_id, NULL, res->ai_port_space ? : RDMA_PS_TCP))
		return -1;
	if (qp_init_attr)	/* the QP of the address's type, as librdmacm makes it */
		qp_init_attr->qp_type = res->ai_qp_type ? : IBV_QPT_RC;
	if (res->ai_flags & RAI_PASSIVE)
		ret = cma_ep_passive(to_cma_id(cm_id), res, pd, qp_init_attr);
	else
		ret = cma_ep_active(to_cma_id(cm_id), res, pd, qp_init_attr);
	if (ret) {
		e = errno;
		rdma_destroy_id(cm_id);
		return cma_err(e);
	}
	*out = cm_id;
	return 0;
}

RDMACM_EXPORT void rdma_destroy_ep(struct rdma_cm_id *id)
{
	if (!id)
		return;
	rdma_destroy_qp(id);
	if (id->srq)
		rdma_destroy_srq(id);
	rdma_destroy_id(id);
}

RDMACM_EXPORT int rdma_create_srq(struct rdma_cm_id *id, struct ibv_pd *pd,
				  struct ibv_srq_init_attr *attr)
{
	if (!id || !attr || !id->verbs || id->srq)
		return cma_err(EINVAL);
	if (!pd)
		pd = cma_device_pd(id->verbs);
	if (!pd)
		return -1;
	id->srq = ibv_create_srq(pd, attr);
	return id->srq ? 0 : -1;
}

RDMACM_EXPORT int rdma_create_srq_ex(struct rdma_cm_id *id, struct ibv_srq_init_attr_ex *attr)
{
	return cma_err(EOPNOTSUPP);
}

RDMACM_EXPORT void rdma_destroy_srq(struct rdma_cm_id *id)
{
	if (id && id->srq && !ibv_destroy_srq(id->srq))
		id->srq = NULL;
}
