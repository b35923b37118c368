/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The oib_rxe_xrc suite's two ends (xrc_pair.c): an XRC initiator on one oib_rxe device of the
 * suite's fabric; on another, XRC SRQs of one domain (each on a CQ of its own), one SRQ of a
 * second domain, and a target QP, an owner's or a kernel-owned receive QP; connected, every
 * object torn down by KUnit.
 */
#ifndef OIB_KUNIT_RXE_XRC_PAIR_H
#define OIB_KUNIT_RXE_XRC_PAIR_H

#include <kunit/test.h>
#include <oib/verbs.h>
#include <oib/kunit/rxe.h>
#include "oib_toolkit.h"

#define XRC_FABRIC	"oib_xrc_test"
#define XRC_BUF		(512 * 1024)
#define XRC_WR		128
#define XRC_NSRQ	8
#define XRC_ACCESS	(OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE | \
			 OIB_ACCESS_REMOTE_READ | OIB_ACCESS_REMOTE_ATOMIC)

/* The initiator's side. */
struct xrc_ini {
	struct oib_device *dev;
	struct oib_pd *pd;
	struct oib_cq *cq;
	struct oib_qp *qp;
	struct oib_mr *mr;
	u8 *buf;
	union oib_gid gid;
};

/* The target's side: SRQs of one domain, each on a CQ of its own, and one of another domain. */
struct xrc_tgt {
	struct oib_device *dev;
	struct oib_pd *pd;
	struct oib_xrcd *xrcd, *other_xrcd;
	struct oib_cq *cq[XRC_NSRQ];
	struct oib_srq *srq[XRC_NSRQ];
	struct oib_cq *other_cq;
	struct oib_srq *other_srq;	/* of other_xrcd */
	struct oib_qp *qp;		/* an owner's target QP, or NULL: a kernel-owned one */
	u32 qpn;
	struct oib_mr *mr;
	u8 *buf;
	union oib_gid gid;
	atomic_t events[OIB_EVENT_GID_CHANGE + 1];
};

struct xrc_pair {
	struct xrc_ini i;
	struct xrc_tgt t;
	struct orxe_fabric *f;
	struct oib_test_path ipath, tpath;
};

/* The target's event handler (@ctx: its struct xrc_tgt): counts each event. */
void xrc_event(struct oib_event *ev, void *ctx);
/* An XRC SRQ of @xrcd on the target, completing on @cq. */
struct oib_srq *xrc_srq(struct kunit *test, struct xrc_tgt *t, struct oib_xrcd *xrcd,
			struct oib_cq *cq);
/* What a kernel-owned receive QP is made with: @p's RESET->INIT->RTR; returns the mask. */
int xrc_rcv_attr(const struct oib_test_path *p, struct oib_qp_attr *attr);
/*
 * An initiator and a target, connected: the target an owner's XRC_TGT QP in RTR (@owned) or a
 * kernel-owned receive QP of t.xrcd.  @timeout and @retry_cnt: the initiator's (0: 268 ms, 7).
 */
struct xrc_pair *xrc_pair(struct kunit *test, bool owned, u8 timeout, u8 retry_cnt);

struct oib_sge xrc_sge(struct oib_mr *mr, u8 *buf, u32 off, u32 len);
void xrc_post_recv(struct kunit *test, struct xrc_tgt *t, struct oib_srq *srq, u64 wr_id,
		   u32 off, u32 len);
/* One signalled request of @op for @srqn: @len local bytes at @off, remote ones at @roff. */
int xrc_post(struct xrc_pair *p, enum oib_wr_opcode op, u32 srqn, u64 wr_id, u32 off,
	     u32 len, u32 roff);
int xrc_atomic(struct xrc_pair *p, enum oib_wr_opcode op, u32 srqn, u64 wr_id, u32 off,
	       u32 roff, u64 compare_add, u64 swap);
void xrc_fill(u8 *b, u32 len, u32 seed);
void xrc_expect_wc(struct kunit *test, struct oib_cq *cq, u64 wr_id,
		   enum oib_wc_status status, enum oib_wc_opcode op, u32 len);
u64 xrc_stat(struct oib_device *dev, enum oib_rxe_port_stat s);
/* Send @count messages of 200 bytes to SRQ @n, from wr_id @first, and see them arrive. */
void xrc_traffic(struct kunit *test, struct xrc_pair *p, int n, u32 first, u32 count);

/* A port of the test's own on the fabric: its MAC, a receiver that drops, its detach. */
extern const u8 xrc_fuzz_mac[ETH_ALEN];
void xrc_fuzz_rx(struct orxe_fabric_port *fp, struct sk_buff *skb);
void xrc_fuzz_detach(void *fp);
/* A frame of the test's own to the target QP, from @fp, as the initiator would send it. */
void xrc_inject(struct kunit *test, struct xrc_pair *p, struct orxe_fabric_port *fp,
		u8 opcode, u32 psn, u32 srqn, u32 paylen);
/* The same, with a RETH naming @len bytes at @va under @rkey; the payload is zeros. */
void xrc_inject_rdma(struct kunit *test, struct xrc_pair *p, struct orxe_fabric_port *fp,
		     u8 opcode, u32 psn, u32 srqn, u32 paylen, u64 va, u32 rkey, u32 len);

#endif /* OIB_KUNIT_RXE_XRC_PAIR_H */
