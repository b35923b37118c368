// SPDX-License-Identifier: GPL-2.0-only
/*
 * A connection's resources, on the device its id resolved to: a PD, a CQ polled by the core in
 * softirq context, or by the test's thread with poll (either way completions go to the oib_cqe
 * callbacks of krping_post.c), the two messages
 * (rping's recv_buf and send_buf) under one MR, rping's two data buffers each under a
 * fast-registration MR, and the RC QP on the id (oib_cma moves it).  krping_conn_free() undoes
 * whatever was made, in any state.
 */
#include <linux/slab.h>
#include "krping.h"

#define KRPING_RQ_DEPTH		2	/* rping's */

struct krping_conn *krping_conn_alloc(struct krping_test *t)
{
	struct krping_conn *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	c->t = t;
	INIT_LIST_HEAD(&c->entry);
	krping_cqe_init(c);
	return c;
}

/* A data buffer of @size bytes and an MR that can map all of its pages. */
static int krping_buf_init(struct krping_conn *c, struct krping_buf *b, u32 size)
{
	b->va = kzalloc(size, GFP_KERNEL);
	if (!b->va)
		return -ENOMEM;
	sg_init_one(&b->sg, b->va, size);
	b->mr = oib_alloc_mr(c->pd, OIB_MR_TYPE_MEM_REG,
			     DIV_ROUND_UP(offset_in_page(b->va) + size, PAGE_SIZE));
	if (IS_ERR(b->mr)) {
		int ret = PTR_ERR(b->mr);

		b->mr = NULL;
		return ret;
	}
	b->key = b->mr->rkey & 0xff;
	return 0;
}

static void krping_buf_free(struct krping_buf *b)
{
	if (b->mr)
		oib_dereg_mr(b->mr);
	kfree(b->va);
}

static int krping_conn_qp(struct krping_conn *c)
{
	struct oib_qp_init_attr attr = {
		.send_cq = c->cq, .recv_cq = c->cq,
		.sq_sig_type = OIB_SIGNAL_ALL_WR, .qp_type = OIB_QPT_RC,
		.cap = {
			/* the stream, a registration (LOCAL_INV, REG_MR) per buffer, a SEND */
			.max_send_wr = c->t->o.txdepth + 8, .max_recv_wr = KRPING_RQ_DEPTH,
			.max_send_sge = 1, .max_recv_sge = 1,
		},
	};

	return oib_cma_create_qp(c->id, c->pd, &attr);
}

/* Everything on @c->id's device, and the first receive posted. */
int krping_conn_setup(struct krping_conn *c)
{
	struct oib_device *dev = c->id->device;
	struct krping_test *t = c->t;
	u32 size = t->o.size;
	int ret;

	t->step = "setup_pd";
	c->pd = oib_alloc_pd(dev);
	if (IS_ERR(c->pd))
		goto err_pd;
	t->step = "setup_cq";
	c->cq = oib_alloc_cq(dev, c, 2 * (t->o.txdepth + 8 + KRPING_RQ_DEPTH), 0,
			     t->o.poll ? OIB_POLL_DIRECT : OIB_POLL_SOFTIRQ);
	if (IS_ERR(c->cq))
		goto err_cq;
	t->step = "setup_mr";
	c->ctl = kzalloc(sizeof(*c->ctl), GFP_KERNEL);
	if (!c->ctl)
		return -ENOMEM;
	c->ctl_mr = oib_reg_kernel_mr(c->pd, c->ctl, sizeof(*c->ctl), OIB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(c->ctl_mr))
		goto err_mr;
	t->step = "setup_fast_reg_mr";
	ret = krping_buf_init(c, &c->start, size);
	if (!ret)
		ret = krping_buf_init(c, &c->rdma, size);
	if (ret)
		return ret;
	t->step = "setup_qp";
	ret = krping_conn_qp(c);
	if (ret)
		return ret;
	t->step = "post_recv";
	return krping_first_recv(c);

err_mr:
	ret = PTR_ERR(c->ctl_mr);
	c->ctl_mr = NULL;
	return ret;
err_cq:
	ret = PTR_ERR(c->cq);
	c->cq = NULL;
	return ret;
err_pd:
	ret = PTR_ERR(c->pd);
	c->pd = NULL;
	return ret;
}

/* Undo krping_conn_setup() (drain, QP, id, then the rest) and free @c. */
void krping_conn_free(struct krping_conn *c)
{
	struct krping_test *t = c->t;

	spin_lock_irq(&t->lock);
	list_del_init(&c->entry);	/* its events no longer find it */
	spin_unlock_irq(&t->lock);
	if (c->id && c->id->qp) {
		oib_drain_qp(c->id->qp);
		oib_cma_destroy_qp(c->id);
	}
	if (c->id)
		oib_cma_destroy_id(c->id);
	krping_buf_free(&c->rdma);
	krping_buf_free(&c->start);
	if (c->ctl_mr)
		oib_dereg_mr(c->ctl_mr);
	kfree(c->ctl);
	if (c->cq)
		oib_free_cq(c->cq);
	if (c->pd)
		oib_dealloc_pd(c->pd);
	kfree(c);
}
