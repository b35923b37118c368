/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame fuzzes' oracle of memory (mem_oracle.c): a responder's buffer as it was before the
 * fuzz, and where a correct responder may write into it, worked out from the frames sent.
 */
#ifndef OIB_KUNIT_RXE_MEM_ORACLE_H
#define OIB_KUNIT_RXE_MEM_ORACLE_H

#include <kunit/test.h>
#include <oib/verbs.h>
#include <oib/kunit/rxe.h>

struct rxe_mem_oracle {
	u8 *buf, *orig;
	u32 len;
	u32 recv_len;		/* the receives posted cover the buffer's first recv_len bytes */
	u32 rkey, qpn;		/* the MR's R_Key, the QP frames must name */
	enum orxe_transport transport;
	unsigned long *may;	/* a bit per byte: some frame may write it */
};

/* Fill @buf (@len bytes, @mr's) with a pattern of @seed and remember it. */
void rxe_mem_oracle_init(struct kunit *test, struct rxe_mem_oracle *o, u8 *buf, u32 len,
			 const struct oib_mr *mr, u32 qpn, enum orxe_transport transport,
			 u32 recv_len, u32 seed);
/* The QP's own peer writes @len bytes at @va (a request the test posted). */
void rxe_mem_oracle_allow(struct rxe_mem_oracle *o, u64 va, u64 len);
/* Frame @h is sent to the QP: note where it may write (whether or not it gets in). */
void rxe_mem_oracle_frame(struct rxe_mem_oracle *o, const struct orxe_tx_hdr *h);
/*
 * Deregister @mr (the test's no longer: the device writes nothing after that returns), then
 * expect every changed byte to be one a frame could write.  How many changed.
 */
u32 rxe_mem_oracle_check(struct kunit *test, struct rxe_mem_oracle *o, struct oib_mr *mr);

#endif /* OIB_KUNIT_RXE_MEM_ORACLE_H */
