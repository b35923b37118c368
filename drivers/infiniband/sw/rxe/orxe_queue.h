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

struct orxe_queue {
	void *buf;
	size_t elem_size;
	u32 mask;		/* capacity - 1 */
	u32 prod, cons;		/* free-running */
};

/* Room for at least @n elements (@n >= 1); the granted capacity is returned through @n. */
static inline int orxe_queue_init(struct orxe_queue *q, u32 *n, size_t elem_size)
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

static inline void orxe_queue_free(struct orxe_queue *q)
{
	kvfree(q->buf);
	q->buf = NULL;
}

static inline u32 orxe_queue_capacity(const struct orxe_queue *q)
{
	return q->mask + 1;
}

static inline u32 orxe_queue_count(const struct orxe_queue *q)
{
	return q->prod - q->cons;
}

static inline bool orxe_queue_empty(const struct orxe_queue *q)
{
	return q->prod == q->cons;
}

static inline bool orxe_queue_full(const struct orxe_queue *q)
{
	return orxe_queue_count(q) == orxe_queue_capacity(q);
}

static inline void *orxe_queue_at(const struct orxe_queue *q, u32 index)
{
	return q->buf + (size_t)(index & q->mask) * q->elem_size;
}

/* The slot the next push fills, or the element the next pop takes. */
static inline void *orxe_queue_tail(const struct orxe_queue *q)
{
	return orxe_queue_at(q, q->prod);
}

static inline void *orxe_queue_head(const struct orxe_queue *q)
{
	return orxe_queue_at(q, q->cons);
}

static inline void orxe_queue_push(struct orxe_queue *q)
{
	q->prod++;
}

static inline void orxe_queue_pop(struct orxe_queue *q)
{
	q->cons++;
}

static inline void orxe_queue_reset(struct orxe_queue *q)
{
	q->prod = 0;
	q->cons = 0;
}

#endif /* OIB_RXE_QUEUE_H */
