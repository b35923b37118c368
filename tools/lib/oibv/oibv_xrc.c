// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * liboibv: XRC domains (shared between processes through a file), XRC SRQs and the domain's
 * kernel-owned receive QPs (Documentation/xrc.md).  XRC initiator QPs are oibv_create_qp()'s
 * (OIBV_QPT_XRC) and their sends name xrc_remote_srq_num (oibv_qp.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <oib/uverbs.h>
#include "oibv.h"
#include "oibv_priv.h"

struct oibv_xrcd *oibv_open_xrcd(struct oibv_context *context, int fd, int oflags)
{
	struct oibv_xrcd *d = calloc(1, sizeof(*d));
	struct oib_uverbs_open_xrcd c = { .user_handle = (uintptr_t)d, .fd = fd, .oflags = oflags };
	int ret;

	if (!d)
		return NULL;
	ret = oibv_cmd(context->cmd_fd, OIB_UVERBS_OPEN_XRCD, &c, sizeof(c));
	if (ret) {
		free(d);
		errno = ret;
		return NULL;
	}
	d->context = context;
	d->handle = c.handle;
	return d;
}

/* EBUSY while this process's XRC SRQs on @d remain; drops its registrations through @d. */
int oibv_close_xrcd(struct oibv_xrcd *d)
{
	struct oib_uverbs_destroy c = { .handle = d->handle };
	int ret = oibv_cmd(d->context->cmd_fd, OIB_UVERBS_CLOSE_XRCD, &c, sizeof(c));

	if (!ret)
		free(d);
	return ret;
}

/* An SRQ of @xrcd completing on @xrc_cq; srq->xrc_srq_num is what initiators send to. */
struct oibv_srq *oibv_create_srq_xrc(struct oibv_pd *pd, struct oibv_xrcd *xrcd,
				     struct oibv_cq *xrc_cq, struct oibv_srq_init_attr *attr)
{
	struct oib_uverbs_create_srq c = {
		.pd_handle = pd->handle, .srq_type = OIB_UVERBS_SRQT_XRC,
		.xrcd_handle = xrcd->handle, .cq_handle = xrc_cq->handle,
		.attr = {
			.max_wr = attr->attr.max_wr, .max_sge = attr->attr.max_sge,
			.srq_limit = attr->attr.srq_limit,
		},
	};
	struct oibv_srq *srq = oibv_srq_create(pd, attr, &c);

	if (srq) {
		srq->xrcd = xrcd;
		srq->xrc_cq = xrc_cq;
	}
	return srq;
}

int oibv_create_xrc_rcv_qp(struct oibv_xrcd *d, struct oibv_qp_attr *attr, int attr_mask,
			   uint32_t *xrc_rcv_qpn)
{
	struct oib_uverbs_create_xrc_rcv_qp c = { 0 };
	int ret;

	oibv_qp_attr_cmd(&c.attr, attr, attr_mask);
	c.attr.handle = d->handle;
	ret = oibv_cmd(d->context->cmd_fd, OIB_UVERBS_CREATE_XRC_RCV_QP, &c, sizeof(c));
	if (!ret)
		*xrc_rcv_qpn = c.qp_num;
	return ret;
}

int oibv_reg_xrc_rcv_qp(struct oibv_xrcd *d, uint32_t xrc_rcv_qpn)
{
	struct oib_uverbs_xrc_rcv_qp_reg c = { .xrcd_handle = d->handle, .qp_num = xrc_rcv_qpn };

	return oibv_cmd(d->context->cmd_fd, OIB_UVERBS_REG_XRC_RCV_QP, &c, sizeof(c));
}

int oibv_unreg_xrc_rcv_qp(struct oibv_xrcd *d, uint32_t xrc_rcv_qpn)
{
	struct oib_uverbs_xrc_rcv_qp_reg c = { .xrcd_handle = d->handle, .qp_num = xrc_rcv_qpn };

	return oibv_cmd(d->context->cmd_fd, OIB_UVERBS_UNREG_XRC_RCV_QP, &c, sizeof(c));
}
