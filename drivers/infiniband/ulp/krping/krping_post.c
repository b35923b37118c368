// SPDX-License-Identifier: GPL-2.0-only
/*
 * Work requests and their completions.  Every request carries one of the connection's oib_cqe;
 * the callbacks (softirq, the CQ's poll context) count successes and keep the first error, then
 * wake the test's thread.  Data buffers are registered by fast registration: krping_reg()
 * prepares LOCAL_INV of the old key (after the first registration) and REG_MR under the key
 * bumped by one, which the post helpers chain in front of their own request, as the classic
 * krping does every iteration.
 */
#include "krping.h"

static void krping_wc_error(struct krping_conn *c, struct oib_wc *wc, const char *what)
{
	if (wc->status == OIB_WC_WR_FLUSH_ERR) {
		WRITE_ONCE(c->flushed, true);
	} else if (!READ_ONCE(c->wc_error)) {
		pr_info("oib_krping: test %d: %s completion: %s\n", c->t->id, what,
			oib_wc_status_msg(wc->status));
		WRITE_ONCE(c->wc_error, wc->status + 1);
	}
	wake_up_all(&c->t->wq);
}

static void krping_recv_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct krping_conn *c = container_of(wc->wr_cqe, struct krping_conn, recv_cqe);

	if (wc->status == OIB_WC_SUCCESS && wc->byte_len != sizeof(struct krping_rdma_info))
		wc->status = OIB_WC_LOC_LEN_ERR;	/* rping: exactly 16 bytes */
	if (wc->status != OIB_WC_SUCCESS)
		return krping_wc_error(c, wc, "receive");
	atomic_inc(&c->recvs);
	wake_up_all(&c->t->wq);
}

static void krping_send_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct krping_conn *c = container_of(wc->wr_cqe, struct krping_conn, send_cqe);

	if (wc->status != OIB_WC_SUCCESS)
		return krping_wc_error(c, wc, "send");
	atomic_inc(&c->sends);
	wake_up_all(&c->t->wq);
}

static void krping_rdma_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct krping_conn *c = container_of(wc->wr_cqe, struct krping_conn, rdma_cqe);

	if (wc->status != OIB_WC_SUCCESS)
		return krping_wc_error(c, wc, "RDMA");
	atomic_inc(&c->rdmas);
	wake_up_all(&c->t->wq);
}

/* LOCAL_INV and REG_MR: only their errors matter (the request after them fails too). */
static void krping_reg_done(struct oib_cq *cq, struct oib_wc *wc)
{
	struct krping_conn *c = container_of(wc->wr_cqe, struct krping_conn, reg_cqe);

	if (wc->status != OIB_WC_SUCCESS)
		krping_wc_error(c, wc, "registration");
}

void krping_cqe_init(struct krping_conn *c)
{
	c->recv_cqe.done = krping_recv_done;
	c->send_cqe.done = krping_send_done;
	c->rdma_cqe.done = krping_rdma_done;
	c->reg_cqe.done = krping_reg_done;
}

int krping_post_recv(struct krping_conn *c)
{
	struct oib_sge sge = {
		.addr = (uintptr_t)&c->ctl->recv, .length = sizeof(c->ctl->recv),
		.lkey = c->ctl_mr->lkey,
	};
	struct oib_recv_wr wr = { .wr_cqe = &c->recv_cqe, .sg_list = &sge, .num_sge = 1 };
	const struct oib_recv_wr *bad;

	return oib_post_recv(c->id->qp, &wr, &bad);
}

/*
 * The first receive, posted as soon as the QP takes it: at setup if oib_cma made the QP in INIT
 * (as the in-tree rdma_cm does, so that rping's order works: receive, then connect or accept),
 * else once the connection moved it on (the server: after accept, before the client can send;
 * the client: at ESTABLISHED, before it sends anything that is answered).
 */
int krping_first_recv(struct krping_conn *c)
{
	int ret;

	if (c->recv_posted || READ_ONCE(c->id->qp->state) == OIB_QPS_RESET)
		return 0;
	ret = krping_post_recv(c);
	c->recv_posted = !ret;
	return ret;
}

/*
 * Map @b again and prepare its registration with @access under the next key; returns the first
 * request of the chain (LOCAL_INV, or REG_MR the first time), whose REG_MR's next is NULL.
 */
struct oib_send_wr *krping_reg(struct krping_conn *c, struct krping_buf *b, int access,
			       int *ret)
{
	u32 old = b->mr->rkey;

	*ret = oib_map_mr_sg(b->mr, &b->sg, 1, NULL, PAGE_SIZE);
	if (*ret != 1) {
		*ret = *ret < 0 ? *ret : -EINVAL;
		return NULL;
	}
	*ret = oib_update_fast_reg_key(b->mr, ++b->key);
	if (*ret)
		return NULL;
	b->inv = (struct oib_send_wr){
		.wr_cqe = &c->reg_cqe, .opcode = OIB_WR_LOCAL_INV, .next = &b->reg,
		.send_flags = OIB_SEND_SIGNALED, .ex.invalidate_rkey = old,
	};
	b->reg = (struct oib_send_wr){
		.wr_cqe = &c->reg_cqe, .opcode = OIB_WR_REG_MR, .send_flags = OIB_SEND_SIGNALED,
		.wr.reg = { .mr = b->mr, .key = b->mr->lkey, .access = access },
	};
	if (b->registered)
		return &b->inv;
	b->registered = true;
	return &b->reg;
}

/* Post @wr, after @first's chain (from krping_reg(): its last request is a REG_MR) if given. */
static int krping_post_chain(struct krping_conn *c, struct oib_send_wr *first,
			     struct oib_send_wr *wr)
{
	const struct oib_send_wr *bad;
	struct oib_send_wr *last = first;

	if (!first)
		return oib_post_send(c->id->qp, wr, &bad);
	while (last->next)
		last = last->next;
	last->next = wr;
	return oib_post_send(c->id->qp, first, &bad);
}

/* SEND rping's message: @b's address, key and size, or all zeros ("go ahead"). */
int krping_post_send(struct krping_conn *c, struct oib_send_wr *first, const struct krping_buf *b,
		     bool go_ahead)
{
	struct krping_rdma_info *info = &c->ctl->send;
	struct oib_sge sge = {
		.addr = (uintptr_t)info, .length = sizeof(*info), .lkey = c->ctl_mr->lkey,
	};
	struct oib_send_wr wr = {
		.wr_cqe = &c->send_cqe, .opcode = OIB_WR_SEND, .send_flags = OIB_SEND_SIGNALED,
		.sg_list = &sge, .num_sge = 1,
	};

	memset(info, 0, sizeof(*info));
	if (!go_ahead) {
		info->buf = cpu_to_be64(b->mr->iova);
		info->rkey = cpu_to_be32(b->mr->rkey);
		info->size = cpu_to_be32(c->t->o.size);
	}
	return krping_post_chain(c, first, &wr);
}

/* RDMA WRITE from, or READ into, the first @len bytes of @b (under its current key). */
int krping_post_rdma(struct krping_conn *c, struct oib_send_wr *first, enum oib_wr_opcode op,
		     struct krping_buf *b, u32 len, u64 raddr, u32 rkey)
{
	struct oib_sge sge = { .addr = b->mr->iova, .length = len, .lkey = b->mr->lkey };
	struct oib_send_wr wr = {
		.wr_cqe = &c->rdma_cqe, .opcode = op, .send_flags = OIB_SEND_SIGNALED,
		.sg_list = &sge, .num_sge = 1,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	};

	return krping_post_chain(c, first, &wr);
}

/* Wait for the @n-th message, take its fields and post the receive for the next one. */
int krping_take_info(struct krping_conn *c, int n, u64 *addr, u32 *rkey, u32 *len)
{
	int ret = krping_wait(c, &c->recvs, n);

	if (ret)
		return ret;
	*addr = be64_to_cpu(c->ctl->recv.buf);
	*rkey = be32_to_cpu(c->ctl->recv.rkey);
	*len = be32_to_cpu(c->ctl->recv.size);
	return krping_post_recv(c);
}
