// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * liboibv: rings mapped from the kernel (include/uapi/oib/uverbs.h has the layout and the
 * rules).  A mapped send queue: oibv_post_send() writes the requests into the ring, publishes
 * the producer index and rings the doorbell, one ioctl a call.  A mapped receive queue (a QP's
 * or an SRQ's): oibv_post_recv() and oibv_post_srq_recv() write the requests and publish the
 * producer index, no system call (the kernel takes them when messages come).  A mapped CQ:
 * oibv_poll_cq() reads the entries the kernel produced and stores the consumer index, no system
 * call.  Each ring's lock makes its calls thread safe, as libibverbs's are.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <oib/uverbs.h>
#include "oibv.h"
#include "oibv_priv.h"

int oibv_ring_map(struct oibv_context *ctx, struct oibv_ring *r, const struct oib_uverbs_ring *u,
		  uint32_t max_sge)
{
	void *mem = mmap(NULL, u->size, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->cmd_fd,
			 u->offset);

	if (mem == MAP_FAILED)
		return errno;
	/* a child does not inherit the rings (its posts would race the parent's) */
	madvise(mem, u->size, MADV_DONTFORK);
	*r = (struct oibv_ring){
		.mem = mem, .size = u->size, .entries = u->entries, .stride = u->stride,
		.max_sge = max_sge,
	};
	pthread_mutex_init(&r->lock, NULL);
	pthread_mutex_lock(&ctx->rings_lock);
	r->next = ctx->ring_list;
	if (r->next)
		r->next->pprev = &r->next;
	r->pprev = &ctx->ring_list;
	ctx->ring_list = r;
	pthread_mutex_unlock(&ctx->rings_lock);
	return 0;
}

static void oibv_ring_unmap_locked(struct oibv_ring *r)
{
	*r->pprev = r->next;
	if (r->next)
		r->next->pprev = r->pprev;
	munmap(r->mem, r->size);
	pthread_mutex_destroy(&r->lock);
	r->mem = NULL;
}

void oibv_ring_unmap(struct oibv_context *ctx, struct oibv_ring *r)
{
	if (!r->mem)
		return;
	pthread_mutex_lock(&ctx->rings_lock);
	oibv_ring_unmap_locked(r);
	pthread_mutex_unlock(&ctx->rings_lock);
}

/* A mapping holds the context's file open: closing the context unmaps what is left. */
void oibv_ring_unmap_all(struct oibv_context *ctx)
{
	pthread_mutex_lock(&ctx->rings_lock);
	while (ctx->ring_list)
		oibv_ring_unmap_locked(ctx->ring_list);
	pthread_mutex_unlock(&ctx->rings_lock);
}

static void *oibv_ring_entry(const struct oibv_ring *r, uint32_t index)
{
	return (char *)r->mem + sizeof(struct oib_uverbs_ring_hdr) +
	       (size_t)(index & (r->entries - 1)) * r->stride;
}

void oibv_wc_from_user(struct oibv_wc *wc, const struct oib_uverbs_wc *u)
{
	*wc = (struct oibv_wc){
		.wr_id = u->wr_id, .status = u->status, .opcode = u->opcode,
		.vendor_err = u->vendor_err, .byte_len = u->byte_len, .imm_data = u->imm_data,
		.qp_num = u->qp_num, .src_qp = u->src_qp, .wc_flags = u->wc_flags,
		.pkey_index = u->pkey_index, .slid = u->slid, .sl = u->sl,
	};
}

/* The completions the ring still has; once it is empty, an overflow is -EOVERFLOW. */
int oibv_poll_ring(struct oibv_ring *r, int num_entries, struct oibv_wc *wc)
{
	struct oib_uverbs_ring_hdr *hdr = r->mem;
	uint32_t prod;
	int n = 0;

	pthread_mutex_lock(&r->lock);
	prod = __atomic_load_n(&hdr->producer, __ATOMIC_ACQUIRE);
	for (; n < num_entries && r->index != prod; n++, r->index++)
		oibv_wc_from_user(&wc[n], oibv_ring_entry(r, r->index));
	/* the entries are read before the kernel may write them again */
	__atomic_store_n(&hdr->consumer, r->index, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&r->lock);
	if (!n && num_entries &&
	    (__atomic_load_n(&hdr->flags, __ATOMIC_RELAXED) & OIB_UVERBS_RING_OVERFLOW))
		return -EOVERFLOW;
	return n;
}

/*
 * Whether the kernel flushed @r's QP (in ERR): entries written now wait for another flush.
 * After a producer index was published: the full barrier pairs with the kernel's.
 */
int oibv_ring_flushing(struct oibv_ring *r)
{
	struct oib_uverbs_ring_hdr *hdr = r->mem;

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return !!(__atomic_load_n(&hdr->flags, __ATOMIC_RELAXED) & OIB_UVERBS_RING_FLUSH);
}

/*
 * Receives into a mapped receive queue: each request the ring has room for is written, then
 * the producer index is published once.  A request with too many SGEs (EINVAL) or no room
 * (ENOMEM) stops there, *@bad_wr naming it; the ones before it are posted.
 */
int oibv_post_recv_ring(struct oibv_ring *r, struct oibv_recv_wr *wr,
			struct oibv_recv_wr **bad_wr)
{
	struct oib_uverbs_ring_hdr *hdr = r->mem;
	struct oib_uverbs_recv_wr *e;
	struct oibv_recv_wr *w;
	uint32_t cons;
	int ret = 0;

	pthread_mutex_lock(&r->lock);
	cons = __atomic_load_n(&hdr->consumer, __ATOMIC_ACQUIRE);
	for (w = wr; w; w = w->next, r->index++) {
		if (w->num_sge < 0 || (uint32_t)w->num_sge > r->max_sge) {
			ret = EINVAL;
			break;
		}
		if (r->index - cons >= r->entries) {
			ret = ENOMEM;
			break;
		}
		e = oibv_ring_entry(r, r->index);
		*e = (struct oib_uverbs_recv_wr){ .wr_id = w->wr_id, .num_sge = w->num_sge };
		memcpy(e + 1, w->sg_list, w->num_sge * sizeof(struct oib_uverbs_sge));
	}
	/* the entries before the index that shows them; pairs with the kernel's acquire */
	__atomic_store_n(&hdr->producer, r->index, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&r->lock);
	if (ret && bad_wr)
		*bad_wr = w;
	return ret;
}

/* Write requests from *@wr on while there is room; *@wr is left at the first not written. */
static int oibv_sq_write(struct oibv_qp *qp, struct oibv_send_wr **wr)
{
	struct oibv_ring *r = &qp->sq;
	struct oib_uverbs_ring_hdr *hdr = r->mem;
	uint32_t cons = __atomic_load_n(&hdr->consumer, __ATOMIC_ACQUIRE);
	struct oib_uverbs_send_wr *e;
	struct oibv_send_wr *w;

	for (w = *wr; w && r->index - cons < r->entries; w = w->next, r->index++) {
		if (w->num_sge < 0 || (uint32_t)w->num_sge > r->max_sge)
			break;
		e = oibv_ring_entry(r, r->index);
		oibv_send_wr(qp, w, e);
		e->sg_list = 0;
		memcpy(e + 1, w->sg_list, w->num_sge * sizeof(struct oib_uverbs_sge));
	}
	if (w == *wr)
		return w->num_sge < 0 || (uint32_t)w->num_sge > r->max_sge ? EINVAL : ENOMEM;
	*wr = w;
	return 0;
}

/* Ring the doorbell for what was written; on failure the producer goes back to the bad one. */
static int oibv_sq_doorbell(struct oibv_qp *qp, uint32_t *bad)
{
	struct oib_uverbs_ring_hdr *hdr = qp->sq.mem;
	struct oib_uverbs_doorbell c = { .handle = qp->handle };
	int ret;

	__atomic_store_n(&hdr->producer, qp->sq.index, __ATOMIC_RELEASE);
	ret = oibv_cmd(qp->context->cmd_fd, OIB_UVERBS_DOORBELL, &c, sizeof(c));
	if (ret) {
		*bad = c.bad_wr;
		qp->sq.index = c.bad_wr;
		__atomic_store_n(&hdr->producer, c.bad_wr, __ATOMIC_RELEASE);
	}
	return ret;
}

/*
 * Write as many requests as fit, ring the doorbell, again until all are posted.  Request i of
 * the list has ring index start + i: a failure names the bad one by its index.
 */
int oibv_post_send_ring(struct oibv_qp *qp, struct oibv_send_wr *wr,
			struct oibv_send_wr **bad_wr)
{
	struct oibv_send_wr *w = wr;
	uint32_t start, bad = 0;
	int ret = 0;

	pthread_mutex_lock(&qp->sq.lock);
	start = qp->sq.index;
	while (w && !ret) {
		ret = oibv_sq_write(qp, &w);
		if (ret)
			bad = qp->sq.index;
		else
			ret = oibv_sq_doorbell(qp, &bad);
	}
	pthread_mutex_unlock(&qp->sq.lock);
	if (ret && bad_wr) {
		for (; start != bad && wr->next; start++)
			wr = wr->next;
		*bad_wr = wr;
	}
	return ret;
}
