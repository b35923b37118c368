/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A ring of fixed-size elements: the send, receive, shared receive and completion queues.  Its
 * indices run freely and wrap; capacity is a power of two.  The ring has no lock of its own: every
 * user says which lock guards its ring.
 */
#ifndef OIB_RXE_QUEUE_H
#define OIB_RXE_QUEUE_H

#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/mm.h>

struct rxe_queue {
	void *buf;
	size_t elem_size;
	u32 mask;		/* capacity - 1 */
	u32 prod, cons;		/* free-running */
};

/* Room for at least @n elements (@n >= 1); the granted capacity is returned through @n. */
static inline int rxe_queue_init(struct rxe_queue *q, u32 *n, size_t elem_size)
{
	u32 cap = roundup_pow_of_two(max(*n, 1u));

	q->buf = kvcalloc(cap, elem_size, GFP_KERNEL);
	if (!q->buf)
		return -ENOMEM;
	q->elem_size = elem_size;
	q->mask = cap - 1;
	q->prod = 0;
	q->cons = 0;
	*n = cap;
	return 0;
}

static inline void rxe_queue_free(struct rxe_queue *q)
{
	kvfree(q->buf);
	q->buf = NULL;
}

static inline u32 rxe_queue_capacity(const struct rxe_queue *q)
{
	return q->mask + 1;
}

static inline u32 rxe_queue_count(const struct rxe_queue *q)
{
	return q->prod - q->cons;
}

static inline bool rxe_queue_empty(const struct rxe_queue *q)
{
	return q->prod == q->cons;
}

static inline bool rxe_queue_full(const struct rxe_queue *q)
{
	return rxe_queue_count(q) == rxe_queue_capacity(q);
}

static inline void *rxe_queue_at(const struct rxe_queue *q, u32 index)
{
	return q->buf + (size_t)(index & q->mask) * q->elem_size;
}

/* The slot the next push fills, or the element the next pop takes. */
static inline void *rxe_queue_tail(const struct rxe_queue *q)
{
	return rxe_queue_at(q, q->prod);
}

static inline void *rxe_queue_head(const struct rxe_queue *q)
{
	return rxe_queue_at(q, q->cons);
}

static inline void rxe_queue_push(struct rxe_queue *q)
{
	q->prod++;
}

static inline void rxe_queue_pop(struct rxe_queue *q)
{
	q->cons++;
}

static inline void rxe_queue_reset(struct rxe_queue *q)
{
	q->prod = 0;
	q->cons = 0;
}

#endif /* OIB_RXE_QUEUE_H */
