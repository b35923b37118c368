// SPDX-License-Identifier: GPL-2.0-only
/*
 * The frame fuzzes' oracle of memory (mem_oracle.h).  KASAN sees a write past an allocation,
 * but not a write into the wrong place of a registered buffer, nor (under GCC 12) a provider's
 * memcpy at all: this does.  Where a frame may write is an over-approximation (a frame counts
 * whether or not its PSN and P_Key let it in): a receive's bytes for a request that consumes a
 * receive, the range a first or only RDMA WRITE's RETH names under the MR's R_Key, the eight bytes
 * of an atomic under it.  Any other changed byte is a write no frame allowed: one past a
 * message's length, under another key, of a middle packet without its first.
 */
#include <linux/bitmap.h>
#include <linux/module.h>
#include "oib_toolkit.h"
#include "mem_oracle.h"

void rxe_mem_oracle_init(struct kunit *test, struct rxe_mem_oracle *o, u8 *buf, u32 len,
			 const struct oib_mr *mr, u32 qpn, enum orxe_transport transport,
			 u32 recv_len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		buf[i] = (u8)(seed * 131 + i * 7 + (i >> 8));
	*o = (struct rxe_mem_oracle){
		.buf = buf, .len = len, .recv_len = recv_len, .rkey = mr->rkey, .qpn = qpn,
		.transport = transport,
	};
	o->orig = oib_test_vzalloc(test, len);
	memcpy(o->orig, buf, len);
	o->may = kunit_kzalloc(test, BITS_TO_LONGS(len) * sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, o->may);
}

void rxe_mem_oracle_allow(struct rxe_mem_oracle *o, u64 va, u64 len)
{
	u64 off = va - (uintptr_t)o->buf;

	if (va >= (uintptr_t)o->buf && off <= o->len && len <= o->len - off)
		bitmap_set(o->may, off, len);
}

void rxe_mem_oracle_frame(struct rxe_mem_oracle *o, const struct orxe_tx_hdr *h)
{
	u32 f = oib_rxe_opcode(h->opcode)->flags;

	if (orxe_opcode_transport(h->opcode) != o->transport || !(f & ORXE_OPF_REQ) ||
	    h->dest_qpn != o->qpn)
		return;
	if (f & ORXE_OPF_RECV)
		bitmap_set(o->may, 0, o->recv_len);
	if ((f & ORXE_OPF_WRITE) && (f & ORXE_OPF_FIRST) && h->reth.rkey == o->rkey)
		rxe_mem_oracle_allow(o, h->reth.va, h->reth.len);
	if ((f & ORXE_OPF_ATOMIC) && h->atmeth.rkey == o->rkey)
		rxe_mem_oracle_allow(o, h->atmeth.va, 8);
}

u32 rxe_mem_oracle_check(struct kunit *test, struct rxe_mem_oracle *o, struct oib_mr *mr)
{
	u32 i, changed = 0, bad = 0, first = 0;

	oib_test_disown(test, mr);
	KUNIT_ASSERT_EQ(test, 0, oib_dereg_mr(mr));
	for (i = 0; i < o->len; i++) {
		if (o->buf[i] == o->orig[i])
			continue;
		changed++;
		if (!test_bit(i, o->may) && !bad++)
			first = i;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "%u bytes written where no frame could, the first at %u",
			    bad, first);
	return changed;
}
