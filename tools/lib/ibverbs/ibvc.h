/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The drop-in libibverbs.so.1 on liboibv (Documentation/ibverbs.md): each object a program sees
 * is Debian's struct (from its own <infiniband/verbs.h>) at the start of one of ours, which holds
 * the liboibv object behind it.  An object lives from its create call to its destroy call, which
 * frees both; a device lives while its list or a context holds it (refcnt).
 */
#ifndef IBVC_H
#define IBVC_H

#include <infiniband/verbs.h>
#include "oibv.h"

#define IBVC_EXPORT __attribute__((visibility("default")))

struct ibvc_device {
	struct ibv_device dev;
	struct oibv_device odev;	/* liboibv's device: the char device's names and path */
	int refcnt;			/* the lists and contexts holding it; atomic */
};

struct ibvc_context {
	struct verbs_context vctx;	/* vctx.context is what the program gets */
	struct oibv_context *o;
	struct ibvc_device *dev;
};

struct ibvc_pd {
	struct ibv_pd pd;
	struct oibv_pd *o;
};

struct ibvc_mr {
	struct ibv_mr mr;
	struct oibv_mr *o;
};

struct ibvc_channel {
	struct ibv_comp_channel ch;
	struct oibv_comp_channel *o;
};

/* liboibv's CQ, QP and SRQ carry our object as their context, for events. */
struct ibvc_cq {
	struct ibv_cq cq;
	struct oibv_cq *o;
};

struct ibvc_qp {
	struct ibv_qp qp;
	struct oibv_qp *o;
};

struct ibvc_srq {
	struct ibv_srq srq;
	struct oibv_srq *o;
};

struct ibvc_xrcd {
	struct ibv_xrcd xrcd;
	struct oibv_xrcd *o;
};

struct ibvc_ah {
	struct ibv_ah ah;
	struct oibv_ah *o;
};

/* for the asserts that liboibv's values and layouts are libibverbs's */
#define IBVC_SAME(a, b) ((long)(a) == (long)(b))
#define IBVC_ASSERT_SAME(a, b) _Static_assert(IBVC_SAME(a, b), #a " is " #b)
#define SAME_FIELD(a, b, f) (offsetof(struct a, f) == offsetof(struct b, f) && \
			     sizeof(((struct a *)0)->f) == sizeof(((struct b *)0)->f))

#define IBVC(type, p) ((struct ibvc_##type *)(p))

static inline struct ibvc_context *ibvc_ctx(struct ibv_context *c)
{
	return (struct ibvc_context *)((char *)c - offsetof(struct ibvc_context, vctx.context));
}

/* device.c */
void ibvc_device_put(struct ibvc_device *d);
/* cq.c: the context's ops */
int ibvc_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
int ibvc_req_notify_cq(struct ibv_cq *cq, int solicited_only);
/* post.c: the context's ops */
int ibvc_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);
int ibvc_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
int ibvc_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
/* qp.c */
struct ibv_qp *ibvc_create_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			      struct ibv_qp_init_attr *attr, struct ibv_xrcd *xrcd);
struct ibv_srq *ibvc_srq_new(struct ibv_pd *pd, struct ibv_srq_init_attr *attr,
			     struct ibv_xrcd *xrcd, struct ibv_cq *cq);
/* xrc.c: the verbs_context's XRC ops */
struct ibv_xrcd *ibvc_open_xrcd(struct ibv_context *ctx, struct ibv_xrcd_init_attr *attr);
int ibvc_close_xrcd(struct ibv_xrcd *xrcd);
struct ibv_srq *ibvc_create_srq_ex(struct ibv_context *ctx, struct ibv_srq_init_attr_ex *attr);
int ibvc_get_srq_num(struct ibv_srq *srq, uint32_t *srq_num);
struct ibv_qp *ibvc_create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *attr);
void ibvc_ah_attr_to(struct oibv_ah_attr *o, const struct ibv_ah_attr *a);
int ibvc_ah_attr_ok(const struct ibv_ah_attr *a);

#endif /* IBVC_H */
