// SPDX-License-Identifier: GPL-2.0-only
/*
 * The oib_rxe fabric: delivery by MAC, asynchronously and in order; drops by reason; GID
 * resolution; synchronous detach; every fault kind at 100% and, seeded, at ~10% (same seed, same
 * outcome); rules; queue overflow; pcap capture; frames with implied trailers sealed where they
 * are seen as bytes; and a frame rate, for information.  Frames are hand-built minimal RoCEv2
 * frames (Ethernet, IPv4 or IPv6, UDP 4791, BTH) carrying a 32-bit id after the BTH. Nothing
 * here depends on how fast the machine is: waits are for events, with generous timeouts.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/jhash.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <oib/kunit/rxe.h>
#include "oib_toolkit.h"

#define FT_PORTS	3
#define FT_CAP		8192		/* arrivals recorded per port */
#define FT_PAD		16		/* payload bytes after the id */
#define FT_LEN4		(ETH_HLEN + 20 + 8 + 12 + 4 + FT_PAD)
#define FT_TIMEOUT	(60 * HZ)
#define FT_HOUR_US	3600000000u
#define FT_OPCODE	0x04		/* RC SEND ONLY */
#define FT_QPN		0x11
#define FT_NAME		"kunit-fabric"

struct ft_ctx;

/* A test port: records the id (and a hash) of every frame it receives, in order. */
struct ft_port {
	struct orxe_fabric_port fp;
	struct ft_ctx *ctx;
	bool attached;
	spinlock_t lock;		/* n, ids, hashes, keep, rx_task, rx_on, not_task */
	u32 n;
	u32 *ids, *hashes;
	struct sk_buff_head keep;	/* the frames themselves, when keep_frames */
	bool keep_frames;
	struct task_struct *rx_task;
	int rx_on;			/* the CPU rx() last ran on */
	bool not_task;			/* rx() once ran outside process context */
	wait_queue_head_t wq;		/* woken when n reaches wake_at */
	u32 wake_at;
	bool block;			/* the next rx() signals entered, then waits for go */
	struct completion entered, go;
	int echo_to;			/* >= 0: rx() answers each frame to that port */
	bool bounce;			/* rx() sends the frame itself back to its source */
};

struct ft_ctx {
	struct kunit *test;
	struct orxe_fabric *f;
	struct ft_port p[FT_PORTS];
};

enum { A, B, C };

/* ---- Frames ---- */

struct ft_spec {
	const u8 *src, *dst;
	bool v6;
	u8 ihl;			/* 0: 5 */
	u8 opcode;
	u32 qpn;
	u32 id;
	u16 ethertype;		/* 0: IPv4 or IPv6 */
	u16 dport;		/* 0: 4791 */
	u8 proto;		/* 0: UDP */
	bool frag;
	u32 trunc;		/* 0: the whole frame */
};

static void ft_put16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void ft_put32(u8 *p, u32 v)
{
	ft_put16(p, v >> 16);
	ft_put16(p + 2, v);
}

static struct sk_buff *ft_build(const struct ft_spec *s)
{
	unsigned int iplen = s->v6 ? 40 : (s->ihl ?: 5) * 4;
	unsigned int len = ETH_HLEN + iplen + 8 + 12 + 4 + FT_PAD;
	struct sk_buff *skb = alloc_skb(len, GFP_KERNEL);
	u8 *p, *ip, *udp, *bth;

	if (!skb)
		return NULL;
	p = skb_put_zero(skb, len);
	ether_addr_copy(p, s->dst);
	ether_addr_copy(p + 6, s->src);
	ft_put16(p + 12, s->ethertype ?: s->v6 ? ETH_P_IPV6 : ETH_P_IP);
	ip = p + ETH_HLEN;
	udp = ip + iplen;
	if (s->v6) {
		ip[0] = 0x60;
		ft_put16(ip + 4, len - ETH_HLEN - 40);
		ip[6] = s->proto ?: IPPROTO_UDP;
		ip[7] = 64;
	} else {
		ip[0] = 0x40 | (iplen / 4);
		ft_put16(ip + 2, len - ETH_HLEN);
		if (s->frag)
			ft_put16(ip + 6, 0x2000);	/* more fragments */
		ip[8] = 64;
		ip[9] = s->proto ?: IPPROTO_UDP;
	}
	ft_put16(udp, 0xc000);
	ft_put16(udp + 2, s->dport ?: ORXE_UDP_PORT);
	ft_put16(udp + 4, len - (udp - p));
	bth = udp + 8;
	bth[0] = s->opcode;
	ft_put16(bth + 2, 0xffff);
	ft_put32(bth + 4, s->qpn & 0xffffff);
	ft_put32(bth + 8, s->id & 0xffffff);
	ft_put32(bth + 12, s->id);
	if (s->trunc)
		skb_trim(skb, s->trunc);
	return skb;
}

/* The id of a frame built by ft_build(), or U32_MAX. */
static u32 ft_id(const struct sk_buff *skb)
{
	u8 buf[4];
	const u8 *p = skb_header_pointer(skb, 12, 4, buf);
	unsigned int off;

	if (!p)
		return U32_MAX;
	off = ETH_HLEN + (p[0] == 0x86 ? 40 : (p[2] & 0xf) * 4) + 8 + 12;
	p = skb_header_pointer(skb, off, 4, buf);
	return p ? (u32)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3] : U32_MAX;
}

static struct sk_buff *ft_frame(struct ft_ctx *ctx, int from, int to, u8 opcode, u32 qpn, u32 id)
{
	struct ft_spec s = {
		.src = ctx->p[from].fp.mac, .dst = ctx->p[to].fp.mac,
		.opcode = opcode, .qpn = qpn, .id = id,
	};

	return ft_build(&s);
}

static void ft_xmit(struct ft_ctx *ctx, int from, struct sk_buff *skb)
{
	KUNIT_ASSERT_NOT_NULL(ctx->test, skb);
	oib_rxe_fabric_xmit(&ctx->p[from].fp, skb);
}

static void ft_send(struct ft_ctx *ctx, int from, int to, u32 id)
{
	ft_xmit(ctx, from, ft_frame(ctx, from, to, FT_OPCODE, FT_QPN, id));
}

/* ---- Ports ---- */

static void ft_rx(struct orxe_fabric_port *fp, struct sk_buff *skb)
{
	struct ft_port *p = container_of(fp, struct ft_port, fp);
	u32 id = ft_id(skb), hash = jhash(skb->data, skb_headlen(skb), 0);
	unsigned long flags;

	if (p->block) {
		p->block = false;
		complete(&p->entered);
		wait_for_completion_timeout(&p->go, FT_TIMEOUT);
	}
	if (p->echo_to >= 0) {
		struct ft_ctx *ctx = p->ctx;
		struct sk_buff *echo = ft_frame(ctx, p - ctx->p, p->echo_to, FT_OPCODE, FT_QPN,
						id | 0x800000);

		if (echo)
			oib_rxe_fabric_xmit(fp, echo);
	}

	if (p->bounce) {
		u8 mac[ETH_ALEN];

		ether_addr_copy(mac, skb->data);
		ether_addr_copy(skb->data, skb->data + ETH_ALEN);
		ether_addr_copy(skb->data + ETH_ALEN, mac);
		oib_rxe_fabric_xmit(fp, skb);
		skb = NULL;
	}

	spin_lock_irqsave(&p->lock, flags);
	if (p->n < FT_CAP) {
		p->ids[p->n] = id;
		p->hashes[p->n] = hash;
	}
	p->rx_task = current;
	p->rx_on = raw_smp_processor_id();
	if (!in_task())
		p->not_task = true;
	if (p->keep_frames && skb) {
		__skb_queue_tail(&p->keep, skb);
		skb = NULL;
	}
	WRITE_ONCE(p->n, p->n + 1);
	spin_unlock_irqrestore(&p->lock, flags);
	if (p->n >= READ_ONCE(p->wake_at) && wq_has_sleeper(&p->wq))
		wake_up(&p->wq);
	kfree_skb(skb);
}

/* Waits until port i has received n frames in all. */
static bool ft_wait(struct ft_ctx *ctx, int i, u32 n)
{
	struct ft_port *p = &ctx->p[i];

	WRITE_ONCE(p->wake_at, n);
	return wait_event_timeout(p->wq, READ_ONCE(p->n) >= n, FT_TIMEOUT) > 0;
}

static u64 ft_stat(struct ft_ctx *ctx, int i, enum oib_rxe_fabric_stat s)
{
	return oib_rxe_fabric_stat(&ctx->p[i].fp, s);
}

static void ft_detach(struct ft_ctx *ctx, int i)
{
	struct ft_port *p = &ctx->p[i];

	if (!p->attached)
		return;
	complete_all(&p->go);		/* never leave rx() waiting */
	oib_rxe_fabric_detach(&p->fp);
	p->attached = false;
}

/* (Re)attaches port i with fresh counters and an empty record. */
static void ft_attach(struct ft_ctx *ctx, int i)
{
	struct ft_port *p = &ctx->p[i];

	ft_detach(ctx, i);
	skb_queue_purge(&p->keep);
	p->n = 0;
	p->not_task = false;
	p->rx_task = NULL;
	p->block = false;
	reinit_completion(&p->entered);
	reinit_completion(&p->go);
	KUNIT_ASSERT_EQ(ctx->test, 0, oib_rxe_fabric_attach(ctx->f, &p->fp));
	p->attached = true;
}

static int ft_init(struct kunit *test)
{
	struct ft_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->test = test;
	ctx->f = oib_rxe_fabric_get(FT_NAME);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx->f);
	test->priv = ctx;
	for (i = 0; i < FT_PORTS; i++) {
		struct ft_port *p = &ctx->p[i];
		u8 mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, i + 1 };

		p->ctx = ctx;
		p->echo_to = -1;
		spin_lock_init(&p->lock);
		skb_queue_head_init(&p->keep);
		init_waitqueue_head(&p->wq);
		init_completion(&p->entered);
		init_completion(&p->go);
		p->ids = kunit_kcalloc(test, FT_CAP, sizeof(u32), GFP_KERNEL);
		p->hashes = kunit_kcalloc(test, FT_CAP, sizeof(u32), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p->ids);
		KUNIT_ASSERT_NOT_NULL(test, p->hashes);
		ether_addr_copy(p->fp.mac, mac);
		p->fp.rx = ft_rx;
		ft_attach(ctx, i);
	}
	return 0;
}

static void ft_exit(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	int i;

	if (!ctx)
		return;
	for (i = 0; i < FT_PORTS; i++) {
		ft_detach(ctx, i);
		skb_queue_purge(&ctx->p[i].keep);
	}
	oib_rxe_fabric_put(ctx->f);
}

/* ---- Registry, ports and addresses ---- */

static void fabric_registry_and_attach(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct orxe_fabric_port *fp = kunit_kzalloc(test, sizeof(*fp), GFP_KERNEL);
	struct orxe_fabric *f2, *other;
	static const char * const bad[] = {
		"", "a/b", "..", "with space", "0123456789012345678901234567890123",
	};
	int i;

	f2 = oib_rxe_fabric_get(FT_NAME);
	KUNIT_EXPECT_PTR_EQ(test, ctx->f, f2);
	KUNIT_EXPECT_STREQ(test, FT_NAME, oib_rxe_fabric_name(f2));
	other = oib_rxe_fabric_get("kunit-other");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);
	KUNIT_EXPECT_PTR_NE(test, ctx->f, other);
	oib_rxe_fabric_put(other);
	oib_rxe_fabric_put(f2);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_rxe_fabric_get(bad[i])));
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR(oib_rxe_fabric_get(NULL)));

	KUNIT_ASSERT_NOT_NULL(test, fp);
	fp->rx = ft_rx;
	/* A MAC already on the fabric; multicast and zero MACs; no rx(). */
	ether_addr_copy(fp->mac, ctx->p[B].fp.mac);
	KUNIT_EXPECT_EQ(test, -EEXIST, oib_rxe_fabric_attach(ctx->f, fp));
	fp->mac[0] = 0x03;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_rxe_fabric_attach(ctx->f, fp));
	eth_zero_addr(fp->mac);
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_rxe_fabric_attach(ctx->f, fp));
	fp->mac[0] = 0x02;
	fp->mac[5] = 0x42;
	fp->rx = NULL;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_rxe_fabric_attach(ctx->f, fp));
	fp->rx = ft_rx;
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_attach(ctx->f, fp));
	oib_rxe_fabric_detach(fp);
	KUNIT_EXPECT_NULL(test, fp->fabric);
}

static void resolve_by_gid(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct orxe_fabric_port *a = &ctx->p[A].fp, *b = &ctx->p[B].fp;
	union oib_gid g4, g6 = { .raw = { 0xfe, 0x80, [15] = 1 } }, unknown;
	u8 mac[ETH_ALEN];

	oib_test_gid_v4(&g4, 10, 0, 0, 1);
	oib_test_gid_v4(&unknown, 10, 0, 0, 2);
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_add_addr(a, &g4));
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_add_addr(b, &g6));
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_resolve(ctx->f, &g4, mac));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(mac, a->mac));
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_resolve(ctx->f, &g6, mac));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(mac, b->mac));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_rxe_fabric_resolve(ctx->f, &unknown, mac));

	KUNIT_EXPECT_EQ(test, -EEXIST, oib_rxe_fabric_add_addr(b, &g4));
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_add_addr(a, &g4));	/* already a's */
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_rxe_fabric_del_addr(b, &g4));
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_del_addr(a, &g4));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_rxe_fabric_resolve(ctx->f, &g4, mac));
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_add_addr(b, &g4));	/* free again */
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_fabric_resolve(ctx->f, &g4, mac));
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(mac, b->mac));

	/* Detach takes the port's addresses away; a detached port cannot own any. */
	ft_detach(ctx, B);
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_rxe_fabric_resolve(ctx->f, &g4, mac));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_rxe_fabric_resolve(ctx->f, &g6, mac));
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_rxe_fabric_add_addr(b, &g4));
}

/* ---- Delivery ---- */

static void deliver_by_mac_async(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct ft_port *pa = &ctx->p[A], *pb = &ctx->p[B], *pc = &ctx->p[C];
	u32 i;

	for (i = 0; i < 10; i++)
		ft_send(ctx, A, B, i);
	for (i = 0; i < 5; i++)
		ft_send(ctx, A, C, 100 + i);
	for (i = 0; i < 3; i++)
		ft_send(ctx, B, A, 200 + i);
	for (i = 0; i < 2; i++)
		ft_send(ctx, C, C, 300 + i);	/* to itself */

	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, A, 3));
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 10));
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, C, 7));
	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_EQ(test, i, pb->ids[i]);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, 200 + i, pa->ids[i]);
	for (i = 0; i < 7; i++)
		KUNIT_EXPECT_EQ(test, i < 5 ? 100 + i : 300 + i - 5, pc->ids[i]);

	/* rx() ran in process context, in another task than the sender. */
	for (i = 0; i < FT_PORTS; i++) {
		KUNIT_EXPECT_NOT_NULL(test, ctx->p[i].rx_task);
		KUNIT_EXPECT_PTR_NE(test, current, ctx->p[i].rx_task);
		KUNIT_EXPECT_FALSE(test, ctx->p[i].not_task);
	}

	KUNIT_EXPECT_EQ(test, 15, ft_stat(ctx, A, ORXE_FSTAT_TX_FRAMES));
	KUNIT_EXPECT_EQ(test, 15 * FT_LEN4, ft_stat(ctx, A, ORXE_FSTAT_TX_BYTES));
	KUNIT_EXPECT_EQ(test, 3, ft_stat(ctx, A, ORXE_FSTAT_RX_FRAMES));
	KUNIT_EXPECT_EQ(test, 10, ft_stat(ctx, B, ORXE_FSTAT_RX_FRAMES));
	KUNIT_EXPECT_EQ(test, 10 * FT_LEN4, ft_stat(ctx, B, ORXE_FSTAT_RX_BYTES));
	KUNIT_EXPECT_EQ(test, 7, ft_stat(ctx, C, ORXE_FSTAT_RX_FRAMES));
	KUNIT_EXPECT_EQ(test, 2, ft_stat(ctx, C, ORXE_FSTAT_TX_FRAMES));
}

/* rx() may send (answers from the receive path), and frames may be sent with interrupts off. */
static void send_from_rx_and_atomic(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct sk_buff *skb[4];
	unsigned long flags;
	u32 i;

	ctx->p[B].echo_to = A;
	for (i = 0; i < 4; i++) {
		skb[i] = ft_frame(ctx, A, B, FT_OPCODE, FT_QPN, i);
		KUNIT_ASSERT_NOT_NULL(test, skb[i]);
	}
	local_irq_save(flags);
	for (i = 0; i < 2; i++)
		oib_rxe_fabric_xmit(&ctx->p[A].fp, skb[i]);
	local_irq_restore(flags);
	local_bh_disable();
	for (i = 2; i < 4; i++)
		oib_rxe_fabric_xmit(&ctx->p[A].fp, skb[i]);
	local_bh_enable();

	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 4));
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, A, 4));
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, i, ctx->p[B].ids[i]);
		KUNIT_EXPECT_EQ(test, i | 0x800000, ctx->p[A].ids[i]);
	}
	KUNIT_EXPECT_FALSE(test, ctx->p[A].not_task);
	ctx->p[B].echo_to = -1;
}

static void path_order(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	u32 i, next_a = 0, next_b = 0, id;

	for (i = 0; i < 1000; i++) {
		ft_send(ctx, A, C, i);
		ft_send(ctx, B, C, 0x10000 + i);
	}
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, C, 2000));
	for (i = 0; i < 2000; i++) {
		id = ctx->p[C].ids[i];
		if (id < 0x10000)
			KUNIT_ASSERT_EQ(test, next_a++, id);
		else
			KUNIT_ASSERT_EQ(test, 0x10000 + next_b++, id);
	}
	KUNIT_EXPECT_EQ(test, 1000, next_a);
	KUNIT_EXPECT_EQ(test, 1000, next_b);
}

/* Unknown destinations and unparsable frames are dropped at once, and counted on the sender. */
static void drops_counted(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	const u8 *a = ctx->p[A].fp.mac, *b = ctx->p[B].fp.mac;
	static const u8 unknown[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x99 };
	u8 bcast[ETH_ALEN], mcast[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0, 0, 1 };
	struct ft_spec bad[] = {
		{ .src = a, .dst = b, .trunc = 10 },			/* no Ethernet header */
		{ .src = a, .dst = b, .ethertype = ETH_P_ARP },
		{ .src = a, .dst = b, .dport = 4792 },
		{ .src = a, .dst = b, .trunc = ETH_HLEN + 20 + 8 + 11 },	/* short BTH */
		{ .src = a, .dst = b, .frag = true },
		{ .src = a, .dst = b, .proto = IPPROTO_TCP },
		{ .src = a, .dst = b, .v6 = true, .proto = IPPROTO_TCP },
		{ .src = a, .dst = b, .ihl = 4 },
	};
	struct ft_spec good[] = {
		{ .src = a, .dst = b, .v6 = true, .id = 1 },
		{ .src = a, .dst = b, .ihl = 6, .id = 2 },			/* IPv4 options */
	};
	struct ft_spec nodest[] = {
		{ .src = a, .dst = unknown },
		{ .src = a, .dst = bcast },
		{ .src = a, .dst = mcast },
	};
	int i;

	eth_broadcast_addr(bcast);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ft_xmit(ctx, A, ft_build(&bad[i]));
	for (i = 0; i < ARRAY_SIZE(nodest); i++)
		ft_xmit(ctx, A, ft_build(&nodest[i]));
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(bad), ft_stat(ctx, A, ORXE_FSTAT_DROP_MALFORMED));
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(nodest), ft_stat(ctx, A, ORXE_FSTAT_DROP_NO_DEST));

	for (i = 0; i < ARRAY_SIZE(good); i++)
		ft_xmit(ctx, A, ft_build(&good[i]));
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 2));
	KUNIT_EXPECT_EQ(test, 1, ctx->p[B].ids[0]);
	KUNIT_EXPECT_EQ(test, 2, ctx->p[B].ids[1]);
	KUNIT_EXPECT_EQ(test, 2, ft_stat(ctx, B, ORXE_FSTAT_RX_FRAMES));
	KUNIT_EXPECT_EQ(test, 0, ft_stat(ctx, C, ORXE_FSTAT_RX_FRAMES));
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(bad) + ARRAY_SIZE(nodest) + ARRAY_SIZE(good),
			ft_stat(ctx, A, ORXE_FSTAT_TX_FRAMES));
}

/* Frames beyond ORXE_FABRIC_QLEN waiting for one port are dropped and counted on it. */
static void queue_overflow(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct ft_port *pb = &ctx->p[B];
	u32 i;

	pb->block = true;
	ft_send(ctx, A, B, 0);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&pb->entered, FT_TIMEOUT), 0);
	/* rx() holds frame 0; the queue is empty and stays undrained. */
	for (i = 1; i <= ORXE_FABRIC_QLEN + 10; i++)
		ft_send(ctx, A, B, i);
	KUNIT_EXPECT_EQ(test, 10, ft_stat(ctx, B, ORXE_FSTAT_DROP_QUEUE_FULL));
	complete(&pb->go);
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, ORXE_FABRIC_QLEN + 1));
	for (i = 0; i <= ORXE_FABRIC_QLEN; i++)
		KUNIT_ASSERT_EQ(test, i, pb->ids[i]);
	KUNIT_EXPECT_EQ(test, ORXE_FABRIC_QLEN + 1, ft_stat(ctx, B, ORXE_FSTAT_RX_FRAMES));
}

struct ft_detach_work {
	struct work_struct work;
	struct ft_ctx *ctx;
	int port;
};

static void ft_detach_fn(struct work_struct *work)
{
	struct ft_detach_work *dw = container_of(work, struct ft_detach_work, work);

	oib_rxe_fabric_detach(&dw->ctx->p[dw->port].fp);
}

/*
 * Detach while rx() is busy with one frame and nine more wait: detach waits for rx() to return, and
 * the nine never reach rx() (they are freed; kmemleak would see them otherwise).
 */
static void detach_is_synchronous(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct ft_port *pb = &ctx->p[B];
	struct ft_detach_work dw = { .ctx = ctx, .port = B };
	union oib_gid gid;
	u8 mac[ETH_ALEN];
	int i;

	oib_test_gid_v4(&gid, 10, 0, 0, 2);
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_add_addr(&pb->fp, &gid));
	pb->block = true;
	ft_send(ctx, A, B, 0);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&pb->entered, FT_TIMEOUT), 0);
	for (i = 1; i < 10; i++)
		ft_send(ctx, A, B, i);

	INIT_WORK_ONSTACK(&dw.work, ft_detach_fn);
	schedule_work(&dw.work);
	/* Detach has begun once the port's address is gone; rx() is still inside frame 0. */
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(oib_rxe_fabric_resolve(ctx->f, &gid, mac)));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_rxe_fabric_resolve(ctx->f, &gid, mac));
	KUNIT_EXPECT_NOT_NULL(test, READ_ONCE(pb->fp.fabric));	/* detach has not returned */
	complete(&pb->go);
	flush_work(&dw.work);
	destroy_work_on_stack(&dw.work);
	pb->attached = false;

	KUNIT_EXPECT_NULL(test, pb->fp.fabric);
	KUNIT_EXPECT_EQ(test, 1, READ_ONCE(pb->n));
	KUNIT_EXPECT_EQ(test, 1, ft_stat(ctx, B, ORXE_FSTAT_RX_FRAMES));
	KUNIT_EXPECT_EQ(test, 9, ft_stat(ctx, B, ORXE_FSTAT_DROP_DETACHED));
	ft_send(ctx, A, B, 10);
	KUNIT_EXPECT_EQ(test, 1, ft_stat(ctx, A, ORXE_FSTAT_DROP_NO_DEST));
}

/* Frames sent from a worker on a given CPU. */
struct ft_send_work {
	struct work_struct work;
	struct ft_ctx *ctx;
	struct sk_buff *skb[3];
	int n;
};

static void ft_send_fn(struct work_struct *work)
{
	struct ft_send_work *sw = container_of(work, struct ft_send_work, work);
	int i;

	/* preemption off: B's work, if queued on this CPU, runs after the last and takes all */
	preempt_disable();
	for (i = 0; i < sw->n; i++)
		oib_rxe_fabric_xmit(&sw->ctx->p[A].fp, sw->skb[i]);
	preempt_enable();
}

/*
 * Sends @n frames (ids from @id on) from A to B from one run of a worker on @cpu, waits until B
 * has taken them, and says on which CPU B's work ran last.
 */
static int ft_send_from_worker(struct ft_ctx *ctx, int cpu, u32 id, int n)
{
	struct ft_send_work sw = { .ctx = ctx, .n = n };
	struct ft_port *pb = &ctx->p[B];
	u32 before = READ_ONCE(pb->n);
	int i;

	KUNIT_ASSERT_LE(ctx->test, n, ARRAY_SIZE(sw.skb));
	for (i = 0; i < n; i++) {
		sw.skb[i] = ft_frame(ctx, A, B, FT_OPCODE, FT_QPN, id + i);
		KUNIT_ASSERT_NOT_NULL(ctx->test, sw.skb[i]);
	}
	INIT_WORK_ONSTACK(&sw.work, ft_send_fn);
	queue_work_on(cpu, system_wq, &sw.work);
	flush_work(&sw.work);
	destroy_work_on_stack(&sw.work);
	KUNIT_EXPECT_TRUE(ctx->test, ft_wait(ctx, B, before + n));
	flush_work(&pb->fp.rx_work);	/* B's work idle: the next frame is placed anew */
	return READ_ONCE(pb->rx_on);
}

/*
 * Where a port's frames are taken (orxe_fabric_kick()): ports spread over the CPUs as they attach;
 * a thread's frame never on the thread's own CPU, its own port's on it; a worker's frame to a
 * port out of a stream on the worker's CPU; to a port in a stream (its last run with packets took
 * or sent more than two) on the port's own CPU.
 */
static void rx_placement(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct ft_port *pb = &ctx->p[B];
	struct sk_buff *skb;
	int cpu, i;

	if (num_online_cpus() < 2)
		kunit_skip(test, "one CPU online: every frame is taken there");
	KUNIT_EXPECT_NE(test, ctx->p[A].fp.rx_cpu, pb->fp.rx_cpu);

	/*
	 * A thread, on each CPU in turn: its frame never taken on its CPU; its own port's frames
	 * come to it, and the port it sends to, if found there, moves to another for good.
	 */
	i = 0;
	for_each_online_cpu(cpu) {
		KUNIT_ASSERT_EQ(test, 0, set_cpus_allowed_ptr(current, cpumask_of(cpu)));
		skb = ft_frame(ctx, A, B, FT_OPCODE, FT_QPN, i);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		oib_rxe_fabric_xmit(&ctx->p[A].fp, skb);
		KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, ++i));
		flush_work(&pb->fp.rx_work);
		KUNIT_EXPECT_NE(test, READ_ONCE(pb->rx_on), cpu);
		KUNIT_EXPECT_EQ(test, READ_ONCE(ctx->p[A].fp.rx_cpu), cpu);
		KUNIT_EXPECT_NE(test, READ_ONCE(pb->fp.rx_cpu), cpu);
	}
	KUNIT_ASSERT_EQ(test, 0, set_cpus_allowed_ptr(current, cpu_possible_mask));
	for_each_online_cpu(cpu)		/* a worker's lone frame */
		KUNIT_EXPECT_EQ(test, ft_send_from_worker(ctx, cpu, 100 + cpu, 1), cpu);

	cpu = cpumask_next(pb->fp.rx_cpu, cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	/* two in one run (a ping-pong's ACK and next request) are no stream */
	KUNIT_EXPECT_EQ(test, ft_send_from_worker(ctx, cpu, 200, 2), cpu);
	KUNIT_EXPECT_EQ(test, ft_send_from_worker(ctx, cpu, 210, 1), cpu);
	/* three are */
	KUNIT_EXPECT_EQ(test, ft_send_from_worker(ctx, cpu, 220, 3), cpu);
	/* a run that finds nothing (queued again while the last one ran) keeps the stream */
	queue_work_on(cpu, system_highpri_wq, &pb->fp.rx_work);
	flush_work(&pb->fp.rx_work);
	KUNIT_EXPECT_EQ(test, ft_send_from_worker(ctx, cpu, 230, 1), pb->fp.rx_cpu);
	/* that run took one frame: out of the stream, taken where the worker is */
	KUNIT_EXPECT_EQ(test, ft_send_from_worker(ctx, cpu, 240, 1), cpu);
}

/* Frames a port sent that are delayed or held when it detaches are freed, not delivered. */
static void detach_frees_held_and_delayed(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct orxe_fault_cfg delay = { .delay_ppm = ORXE_PPM, .delay_us = FT_HOUR_US };
	struct orxe_fault_cfg reorder = { .reorder_ppm = ORXE_PPM, .reorder_hold_us = FT_HOUR_US };
	int i;

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, &ctx->p[A].fp, &delay));
	for (i = 0; i < 5; i++)
		ft_send(ctx, A, B, i);
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, &ctx->p[A].fp, &reorder));
	ft_send(ctx, A, C, 5);	/* held, waiting for a successor */
	KUNIT_EXPECT_EQ(test, 5, ft_stat(ctx, A, ORXE_FSTAT_DELAYED));
	ft_detach(ctx, A);
	KUNIT_EXPECT_EQ(test, 6, ft_stat(ctx, A, ORXE_FSTAT_DROP_DETACHED));
	KUNIT_EXPECT_EQ(test, 0, READ_ONCE(ctx->p[B].n));
	KUNIT_EXPECT_EQ(test, 0, READ_ONCE(ctx->p[C].n));
	/* The port's own settings went with it. */
	ft_attach(ctx, A);
	ft_send(ctx, A, B, 7);
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 1));
	KUNIT_EXPECT_EQ(test, 7, ctx->p[B].ids[0]);
}

/* ---- Faults at 100% ---- */

static void fault_drop_all(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct orxe_fault_cfg cfg = { .drop_ppm = ORXE_PPM };
	int i;

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, &cfg));
	for (i = 0; i < 100; i++)
		ft_send(ctx, A, B, i);
	KUNIT_EXPECT_EQ(test, 100, ft_stat(ctx, A, ORXE_FSTAT_DROP_FAULT));
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, NULL));
	ft_send(ctx, A, B, 1000);
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 1));
	KUNIT_EXPECT_EQ(test, 1000, ctx->p[B].ids[0]);
	KUNIT_EXPECT_EQ(test, 1, ft_stat(ctx, B, ORXE_FSTAT_RX_FRAMES));
}

static void fault_dup_all(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct orxe_fault_cfg cfg = { .dup_ppm = ORXE_PPM };
	int i;

	/* A's own setting; C still follows the fabric's (none). */
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, &ctx->p[A].fp, &cfg));
	for (i = 0; i < 100; i++) {
		ft_send(ctx, A, B, i);
		ft_send(ctx, C, B, 1000 + i);
	}
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 300));
	KUNIT_EXPECT_EQ(test, 100, ft_stat(ctx, A, ORXE_FSTAT_DUPLICATED));
	KUNIT_EXPECT_EQ(test, 0, ft_stat(ctx, C, ORXE_FSTAT_DUPLICATED));
	KUNIT_EXPECT_EQ(test, 300, ft_stat(ctx, B, ORXE_FSTAT_RX_FRAMES));
	{
		u32 next_a = 0, next_c = 1000, copies = 0, id;

		for (i = 0; i < 300; i++) {
			id = ctx->p[B].ids[i];
			if (id >= 1000) {
				KUNIT_ASSERT_EQ(test, next_c++, id);
			} else {
				KUNIT_ASSERT_EQ(test, next_a, id);
				if (++copies == 2) {
					copies = 0;
					next_a++;
				}
			}
		}
	}
}

static void fault_reorder_all(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct orxe_fault_cfg cfg = { .reorder_ppm = ORXE_PPM, .reorder_hold_us = FT_HOUR_US };
	u32 i;

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, &cfg));
	for (i = 0; i < 1000; i++)
		ft_send(ctx, A, B, i);
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 1000));
	for (i = 0; i < 1000; i++)
		KUNIT_ASSERT_EQ(test, i ^ 1, ctx->p[B].ids[i]);	/* 1 0 3 2 5 4 ... */
	KUNIT_EXPECT_EQ(test, 500, ft_stat(ctx, A, ORXE_FSTAT_REORDERED));

	/* A held frame with no successor goes after reorder_hold_us. */
	cfg.reorder_hold_us = 1000;
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, &cfg));
	ft_send(ctx, A, B, 1000);
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 1001));
	KUNIT_EXPECT_EQ(test, 1000, ctx->p[B].ids[1000]);
	KUNIT_EXPECT_EQ(test, 500, ft_stat(ctx, A, ORXE_FSTAT_REORDERED));

	/* Changing the settings sends what is held. */
	cfg.reorder_hold_us = FT_HOUR_US;
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, &cfg));
	ft_send(ctx, A, B, 1001);
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, NULL));
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 1002));
	KUNIT_EXPECT_EQ(test, 1001, ctx->p[B].ids[1001]);
}

static void fault_delay_all(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct orxe_fault_cfg cfg = { .delay_ppm = ORXE_PPM, .delay_us = 100000 };
	ktime_t t0;
	s64 us;
	u32 i;

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, &cfg));
	t0 = ktime_get();
	ft_send(ctx, A, B, 0);
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 1));
	us = ktime_us_delta(ktime_get(), t0);
	KUNIT_EXPECT_GE(test, us, 100000);	/* a timer never fires early */
	KUNIT_EXPECT_EQ(test, 1, ft_stat(ctx, A, ORXE_FSTAT_DELAYED));

	/* Delayed frames keep their order. */
	cfg.delay_us = 2000;
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, &cfg));
	for (i = 1; i <= 100; i++)
		ft_send(ctx, A, B, i);
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 101));
	for (i = 0; i <= 100; i++)
		KUNIT_ASSERT_EQ(test, i, ctx->p[B].ids[i]);
	KUNIT_EXPECT_EQ(test, 101, ft_stat(ctx, A, ORXE_FSTAT_DELAYED));
}

/* Number of bits in which a and b differ; *first: the byte offset of the first difference. */
static u32 ft_bitdiff(const u8 *a, const u8 *b, u32 len, u32 *first)
{
	u32 i, bits = 0;

	*first = U32_MAX;
	for (i = 0; i < len; i++) {
		if (a[i] != b[i] && *first == U32_MAX)
			*first = i;
		bits += hweight8(a[i] ^ b[i]);
	}
	return bits;
}

static void fault_corrupt_all(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct orxe_fault_cfg cfg = { .corrupt_ppm = ORXE_PPM };
	struct ft_port *pb = &ctx->p[B];
	struct sk_buff *got, *want;
	u32 i, first;

	pb->keep_frames = true;
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, &cfg));
	for (i = 0; i < 50; i++)
		ft_send(ctx, A, B, i);
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 50));
	KUNIT_EXPECT_EQ(test, 50, ft_stat(ctx, A, ORXE_FSTAT_CORRUPTED));
	for (i = 0; i < 50; i++) {
		got = skb_dequeue(&pb->keep);
		want = ft_frame(ctx, A, B, FT_OPCODE, FT_QPN, i);
		KUNIT_ASSERT_NOT_NULL(test, got);
		KUNIT_ASSERT_NOT_NULL(test, want);
		KUNIT_EXPECT_EQ(test, want->len, got->len);
		if (want->len == got->len) {
			u32 bits = ft_bitdiff(want->data, got->data, got->len, &first);

			KUNIT_EXPECT_EQ(test, 1, bits);
			KUNIT_EXPECT_GE(test, first, ETH_HLEN);
		}
		kfree_skb(got);
		kfree_skb(want);
	}
	pb->keep_frames = false;
}

/* ---- Faults at ~10%, seeded ---- */

struct ft_outcome {
	u32 n;
	u32 *ids, *hashes;
	u64 stat;
};

/*
 * Sends 1000 frames A -> B under cfg (on the fabric) from seed, with fresh ports, and records what
 * B got and A's counter stat.  Delayed frames are delayed for an hour, so never arrive.
 */
static void ft_run(struct kunit *test, const struct orxe_fault_cfg *cfg, u64 seed,
		   enum oib_rxe_fabric_stat stat, struct ft_outcome *out)
{
	struct ft_ctx *ctx = test->priv;
	struct ft_port *pb = &ctx->p[B];
	u32 i, expect = 1000;

	ft_attach(ctx, A);
	ft_attach(ctx, B);
	oib_rxe_fabric_set_seed(ctx->f, seed);
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, cfg));
	for (i = 0; i < 1000; i++)
		ft_send(ctx, A, B, i);
	/* Sends whatever is still held for reordering. */
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, NULL));

	expect += ft_stat(ctx, A, ORXE_FSTAT_DUPLICATED);
	expect -= ft_stat(ctx, A, ORXE_FSTAT_DROP_FAULT) + ft_stat(ctx, A, ORXE_FSTAT_DELAYED);
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, expect));
	out->n = READ_ONCE(pb->n);
	out->stat = ft_stat(ctx, A, stat);
	out->ids = kunit_kmalloc_array(test, out->n, sizeof(u32), GFP_KERNEL);
	out->hashes = kunit_kmalloc_array(test, out->n, sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out->ids);
	KUNIT_ASSERT_NOT_NULL(test, out->hashes);
	memcpy(out->ids, pb->ids, out->n * sizeof(u32));
	memcpy(out->hashes, pb->hashes, out->n * sizeof(u32));
	KUNIT_EXPECT_EQ(test, expect, out->n);
	KUNIT_EXPECT_EQ(test, expect, ft_stat(ctx, B, ORXE_FSTAT_RX_FRAMES));
}

static bool ft_same(const struct ft_outcome *x, const struct ft_outcome *y)
{
	return x->n == y->n && x->stat == y->stat &&
	       !memcmp(x->ids, y->ids, x->n * sizeof(u32)) &&
	       !memcmp(x->hashes, y->hashes, x->n * sizeof(u32));
}

struct ft_seeded_case {
	const char *name;
	struct orxe_fault_cfg cfg;
	enum oib_rxe_fabric_stat stat;
};

static const struct ft_seeded_case ft_seeded_cases[] = {
	{ "drop", { .drop_ppm = 100000 }, ORXE_FSTAT_DROP_FAULT },
	{ "dup", { .dup_ppm = 100000 }, ORXE_FSTAT_DUPLICATED },
	{ "reorder", { .reorder_ppm = 100000, .reorder_hold_us = FT_HOUR_US },
	  ORXE_FSTAT_REORDERED },
	{ "delay", { .delay_ppm = 100000, .delay_us = FT_HOUR_US }, ORXE_FSTAT_DELAYED },
	{ "corrupt", { .corrupt_ppm = 100000 }, ORXE_FSTAT_CORRUPTED },
	{ "all", { .drop_ppm = 50000, .dup_ppm = 50000, .reorder_ppm = 50000, .delay_ppm = 50000,
		   .corrupt_ppm = 50000, .delay_us = FT_HOUR_US, .reorder_hold_us = FT_HOUR_US },
	  ORXE_FSTAT_DROP_FAULT },
};

static void ft_seeded_desc(const struct ft_seeded_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ft_seeded, ft_seeded_cases, ft_seeded_desc);

static void fault_seeded_10pct(struct kunit *test)
{
	const struct ft_seeded_case *c = test->param_value;
	struct ft_outcome one, two, other;

	ft_run(test, &c->cfg, 42, c->stat, &one);
	ft_run(test, &c->cfg, 42, c->stat, &two);
	ft_run(test, &c->cfg, 43, c->stat, &other);
	kunit_info(test, "%s: %llu of 1000 (seed 42), %llu (seed 43)\n", c->name, one.stat,
		   other.stat);
	KUNIT_EXPECT_GE(test, one.stat, c->cfg.drop_ppm == 50000 ? 20 : 40);
	KUNIT_EXPECT_LE(test, one.stat, 160);
	KUNIT_EXPECT_TRUE_MSG(test, ft_same(&one, &two), "same seed, different outcome");
	KUNIT_EXPECT_FALSE_MSG(test, ft_same(&one, &other), "another seed, same outcome");
}

/* ---- Rules ---- */

/* 30 frames A -> B, ids base.., cycling through (0x04, 0x12), (0x04, 0x13), (0x05, 0x12). */
static void ft_send_mix(struct ft_ctx *ctx, u32 base)
{
	static const u8 op[3] = { 0x04, 0x04, 0x05 };
	static const u32 qpn[3] = { 0x12, 0x13, 0x12 };
	u32 i;

	for (i = 0; i < 30; i++)
		ft_xmit(ctx, A, ft_frame(ctx, A, B, op[i % 3], qpn[i % 3], base + i));
}

static void fault_rules(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct ft_port *pb = &ctx->p[B];
	char drop[] = "drop opcode=0x04 qpn=0x12 count=3";
	char dup[] = "duplicate qpn=0x13 count=2";
	char corrupt[] = "corrupt opcode=5 qpn=any count=1";
	char delay[] = "delay qpn=0x12 count=2 us=1000";
	char clear[] = "clear";
	u32 i, j;

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_parse_rule(ctx->f, drop));
	ft_send_mix(ctx, 0);
	KUNIT_EXPECT_EQ(test, 3, ft_stat(ctx, A, ORXE_FSTAT_DROP_RULE));
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 27));
	/* Exactly the first three (0x04, 0x12) frames, ids 0, 3 and 6, are missing. */
	for (i = 0, j = 0; i < 30; i++) {
		if (i == 0 || i == 3 || i == 6)
			continue;
		KUNIT_EXPECT_EQ(test, i, pb->ids[j++]);
	}

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_parse_rule(ctx->f, dup));
	ft_send_mix(ctx, 100);
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 27 + 32));
	KUNIT_EXPECT_EQ(test, 2, ft_stat(ctx, A, ORXE_FSTAT_DUPLICATED));
	KUNIT_EXPECT_EQ(test, 101, pb->ids[27 + 1]);
	KUNIT_EXPECT_EQ(test, 101, pb->ids[27 + 2]);
	KUNIT_EXPECT_EQ(test, 104, pb->ids[27 + 5]);
	KUNIT_EXPECT_EQ(test, 104, pb->ids[27 + 6]);
	KUNIT_EXPECT_EQ(test, 3, ft_stat(ctx, A, ORXE_FSTAT_DROP_RULE));	/* used up */

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_parse_rule(ctx->f, corrupt));
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_parse_rule(ctx->f, delay));
	ft_send_mix(ctx, 200);
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 27 + 32 + 30));
	KUNIT_EXPECT_EQ(test, 1, ft_stat(ctx, A, ORXE_FSTAT_CORRUPTED));
	KUNIT_EXPECT_EQ(test, 2, ft_stat(ctx, A, ORXE_FSTAT_DELAYED));
	KUNIT_EXPECT_EQ(test, 2, ft_stat(ctx, A, ORXE_FSTAT_DUPLICATED));
	KUNIT_EXPECT_EQ(test, 0, ft_stat(ctx, A, ORXE_FSTAT_DROP_FAULT));

	/* An IPv6 frame matches too; "clear" removes rules with frames left. */
	{
		struct orxe_fault_rule r = {
			.action = ORXE_FAULT_DROP, .opcode = 0x0a, .qpn = ORXE_FAULT_ANY,
			.count = 5,
		};
		struct ft_spec s = {
			.src = ctx->p[A].fp.mac, .dst = pb->fp.mac, .v6 = true, .opcode = 0x0a,
			.qpn = 0x777, .id = 300,
		};

		KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_add_rule(ctx->f, &r));
		ft_xmit(ctx, A, ft_build(&s));
		KUNIT_EXPECT_EQ(test, 4, ft_stat(ctx, A, ORXE_FSTAT_DROP_RULE));
		KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_parse_rule(ctx->f, clear));
		s.id = 301;
		ft_xmit(ctx, A, ft_build(&s));
		KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 27 + 32 + 30 + 1));
		KUNIT_EXPECT_EQ(test, 301, pb->ids[27 + 32 + 30]);
		KUNIT_EXPECT_FALSE(test, oib_rxe_fabric_faulty(ctx->f));
	}
}

static void rule_and_fault_syntax(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	static const char * const bad_rules[] = {
		"", "explode", "drop opcode=0x100", "drop qpn=0x1000000", "drop count=0",
		"drop bogus=1", "drop us=5", "drop opcode", "clear now",
	};
	static const char * const bad_faults[] = {
		"drop=1000001", "bogus=1", "port=zz", "inherit", "drop=x", "loud",
	};
	struct orxe_fault_cfg cfg, want = {
		.drop_ppm = 1000, .dup_ppm = 2000, .reorder_ppm = 3, .delay_ppm = 4, .delay_us = 5,
		.corrupt_ppm = 6, .reorder_hold_us = 7,
	};
	struct orxe_fault_rule r = { .action = ORXE_FAULT_DROP, .opcode = 1, .qpn = 1, .count = 1 };
	char buf[128];
	int i;

	for (i = 0; i < ARRAY_SIZE(bad_rules); i++) {
		strscpy(buf, bad_rules[i], sizeof(buf));
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, oib_rxe_fabric_parse_rule(ctx->f, buf), "%s",
				    bad_rules[i]);
	}
	for (i = 0; i < ARRAY_SIZE(bad_faults); i++) {
		strscpy(buf, bad_faults[i], sizeof(buf));
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, oib_rxe_fabric_parse_faults(ctx->f, buf), "%s",
				    bad_faults[i]);
	}
	strscpy(buf, "port=02:00:00:00:00:77 drop=1", sizeof(buf));
	KUNIT_EXPECT_EQ(test, -ENOENT, oib_rxe_fabric_parse_faults(ctx->f, buf));
	KUNIT_EXPECT_FALSE(test, oib_rxe_fabric_faulty(ctx->f));

	strscpy(buf, "drop=1000 dup=2000 reorder=3 delay=4 delay_us=5 corrupt=6 hold_us=7\n",
		sizeof(buf));
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_parse_faults(ctx->f, buf));
	oib_rxe_fabric_get_faults(ctx->f, NULL, &cfg);
	KUNIT_EXPECT_EQ(test, 0, memcmp(&cfg, &want, sizeof(cfg)));
	strscpy(buf, "port=02:00:00:00:00:01 drop=1000000", sizeof(buf));
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_parse_faults(ctx->f, buf));
	oib_rxe_fabric_get_faults(ctx->f, &ctx->p[A].fp, &cfg);
	KUNIT_EXPECT_EQ(test, ORXE_PPM, cfg.drop_ppm);
	KUNIT_EXPECT_EQ(test, 0, cfg.dup_ppm);
	oib_rxe_fabric_get_faults(ctx->f, &ctx->p[B].fp, &cfg);
	KUNIT_EXPECT_EQ(test, 0, memcmp(&cfg, &want, sizeof(cfg)));
	strscpy(buf, "port=02:00:00:00:00:01 inherit", sizeof(buf));
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_parse_faults(ctx->f, buf));
	oib_rxe_fabric_get_faults(ctx->f, &ctx->p[A].fp, &cfg);
	KUNIT_EXPECT_EQ(test, 0, memcmp(&cfg, &want, sizeof(cfg)));
	strscpy(buf, "off", sizeof(buf));
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_parse_faults(ctx->f, buf));
	KUNIT_EXPECT_FALSE(test, oib_rxe_fabric_faulty(ctx->f));

	cfg.drop_ppm = ORXE_PPM + 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, oib_rxe_fabric_set_faults(ctx->f, NULL, &cfg));
	for (i = 0; i < ORXE_FABRIC_MAX_RULES; i++)
		KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_add_rule(ctx->f, &r));
	KUNIT_EXPECT_EQ(test, -ENOSPC, oib_rxe_fabric_add_rule(ctx->f, &r));
	oib_rxe_fabric_clear_rules(ctx->f);
	KUNIT_EXPECT_FALSE(test, oib_rxe_fabric_faulty(ctx->f));

	oib_rxe_fabric_set_seed(ctx->f, 0x123456789ULL);
	KUNIT_EXPECT_EQ(test, 0x123456789ULL, oib_rxe_fabric_get_seed(ctx->f));
}

/* ---- Capture ---- */

struct ft_pcap_rec {
	u32 ts_sec, ts_usec, incl_len, orig_len;
};

/* The whole pcap file, read in chunks of step bytes; *len its length. */
static u8 *ft_read_capture(struct kunit *test, struct orxe_fabric *f, size_t step, size_t *len)
{
	size_t size = 1 << 16;
	u8 *buf = kunit_kzalloc(test, size, GFP_KERNEL);
	loff_t pos = 0;
	ssize_t n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	do {
		n = oib_rxe_fabric_capture_read(f, buf + pos, min_t(size_t, step, size - pos),
						&pos);
		KUNIT_ASSERT_GE(test, n, 0);
	} while (n > 0 && pos < size);
	*len = pos;
	return buf;
}

static void capture_pcap(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct orxe_fault_rule dup = {
		.action = ORXE_FAULT_DUP, .opcode = ORXE_FAULT_ANY, .qpn = 0x33, .count = 1,
	};
	static const u32 ids[] = { 0, 1, 2, 3, 3 };	/* 3 was duplicated */
	static const u8 unknown[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x99 };
	struct ft_spec nowhere = { .src = ctx->p[A].fp.mac, .dst = unknown, .id = 4 };
	struct orxe_capture_stats st;
	struct ft_pcap_rec rec;
	struct sk_buff *want;
	size_t len, len7, off;
	u8 *file, *file7;
	u32 hdr[6];
	int i;

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_capture_start(ctx->f, 0));
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_add_rule(ctx->f, &dup));
	for (i = 0; i < 3; i++)
		ft_send(ctx, A, B, i);
	ft_xmit(ctx, A, ft_frame(ctx, A, B, FT_OPCODE, 0x33, 3));
	ft_xmit(ctx, A, ft_build(&nowhere));	/* an unknown destination: never on the wire */
	oib_rxe_fabric_capture_stop(ctx->f);
	ft_send(ctx, A, B, 5);
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 6));

	oib_rxe_fabric_capture_stats(ctx->f, &st);
	KUNIT_EXPECT_FALSE(test, st.on);
	KUNIT_EXPECT_EQ(test, 5, st.records);
	KUNIT_EXPECT_EQ(test, 0, st.dropped);
	KUNIT_EXPECT_EQ(test, ORXE_FABRIC_CAPTURE_DEFAULT, st.size);

	file = ft_read_capture(test, ctx->f, 1 << 16, &len);
	file7 = ft_read_capture(test, ctx->f, 7, &len7);
	KUNIT_ASSERT_EQ(test, len, len7);
	KUNIT_EXPECT_EQ(test, 0, memcmp(file, file7, len));
	KUNIT_ASSERT_EQ(test, 24 + 5 * (16 + FT_LEN4), len);
	memcpy(hdr, file, sizeof(hdr));
	KUNIT_EXPECT_EQ(test, 0xa1b2c3d4, hdr[0]);
	KUNIT_EXPECT_EQ(test, 2 | 4 << 16, hdr[1]);	/* version 2.4 */
	KUNIT_EXPECT_EQ(test, 0, hdr[2]);
	KUNIT_EXPECT_EQ(test, 0, hdr[3]);
	KUNIT_EXPECT_EQ(test, 65535, hdr[4]);
	KUNIT_EXPECT_EQ(test, 1, hdr[5]);		/* Ethernet */
	for (i = 0, off = 24; i < ARRAY_SIZE(ids); i++, off += sizeof(rec) + rec.incl_len) {
		memcpy(&rec, file + off, sizeof(rec));
		KUNIT_ASSERT_EQ(test, FT_LEN4, rec.incl_len);
		KUNIT_EXPECT_EQ(test, FT_LEN4, rec.orig_len);
		KUNIT_EXPECT_NE(test, 0, rec.ts_sec);
		KUNIT_EXPECT_LT(test, rec.ts_usec, 1000000);
		want = ft_frame(ctx, A, B, FT_OPCODE, i < 3 ? FT_QPN : 0x33, ids[i]);
		KUNIT_ASSERT_NOT_NULL(test, want);
		KUNIT_EXPECT_EQ(test, 0, memcmp(want->data, file + off + sizeof(rec), FT_LEN4));
		kfree_skb(want);
	}

	/* A small buffer: what does not fit is counted, not recorded. */
	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_capture_start(ctx->f, 100));
	for (i = 0; i < 3; i++)
		ft_send(ctx, A, B, 10 + i);
	oib_rxe_fabric_capture_stats(ctx->f, &st);
	KUNIT_EXPECT_TRUE(test, st.on);
	KUNIT_EXPECT_EQ(test, 1, st.records);
	KUNIT_EXPECT_EQ(test, 2, st.dropped);
	file = ft_read_capture(test, ctx->f, 1 << 16, &len);
	KUNIT_EXPECT_EQ(test, 24 + 16 + FT_LEN4, len);
	oib_rxe_fabric_capture_stop(ctx->f);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			oib_rxe_fabric_capture_start(ctx->f, ORXE_FABRIC_CAPTURE_MAX + 1));
	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, 9));
}

/* ---- Batches and round trips ---- */

/*
 * Batches below ORXE_FABRIC_QLEN arrive whole and in order, with nothing dropped; frames B sends
 * back arrive one for one.  (A full queue is queue_overflow's; how fast the fabric carries
 * frames is make bench's.)
 */
static void fabric_batches(struct kunit *test)
{
	const u32 batch = 1024, rounds = 2, trips = 128;
	struct ft_ctx *ctx = test->priv;
	struct ft_port *pb = &ctx->p[B];
	struct sk_buff **skbs = kunit_kcalloc(test, batch, sizeof(*skbs), GFP_KERNEL);
	u32 r, i;

	KUNIT_ASSERT_NOT_NULL(test, skbs);
	pb->keep_frames = true;
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < batch; i++) {
			skbs[i] = ft_frame(ctx, A, B, FT_OPCODE, FT_QPN, r * batch + i);
			KUNIT_ASSERT_NOT_NULL(test, skbs[i]);
		}
		for (i = 0; i < batch; i++)
			oib_rxe_fabric_xmit(&ctx->p[A].fp, skbs[i]);
		KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, (r + 1) * batch));
		skb_queue_purge(&pb->keep);
	}
	pb->keep_frames = false;
	KUNIT_EXPECT_EQ(test, 0, ft_stat(ctx, B, ORXE_FSTAT_DROP_QUEUE_FULL));
	for (i = 0; i < rounds * batch; i++)
		KUNIT_ASSERT_EQ(test, i, pb->ids[i]);

	pb->bounce = true;
	ctx->p[A].keep_frames = true;
	for (i = 0; i < trips; i++) {
		skbs[i] = ft_frame(ctx, A, B, FT_OPCODE, FT_QPN, i);
		KUNIT_ASSERT_NOT_NULL(test, skbs[i]);
		oib_rxe_fabric_xmit(&ctx->p[A].fp, skbs[i]);
		KUNIT_ASSERT_TRUE(test, ft_wait(ctx, A, i + 1));
	}
	pb->bounce = false;
	ctx->p[A].keep_frames = false;
	skb_queue_purge(&ctx->p[A].keep);
}

/* ---- Implied trailers ---- */

/*
 * A 64-byte SEND ONLY from A to B over IPv6, by the wire builder: sealed (its ICRC and UDP checksum
 * computed), or as an oib_rxe port sends it: both left 0 and the frame marked implied.
 */
static struct sk_buff *ft_wire_frame(struct ft_ctx *ctx, bool implied)
{
	struct orxe_tx_hdr h = {
		.opcode = ORXE_RC_SEND_ONLY, .hop_limit = 64, .pkey = 0xffff, .dest_qpn = FT_QPN,
		.psn = 7, .paylen = 64,
	};
	struct sk_buff *skb = alloc_skb(256, GFP_KERNEL);
	u8 payload[64];
	int i;

	if (!skb)
		return NULL;
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = i * 7;
	ether_addr_copy(h.smac, ctx->p[A].fp.mac);
	ether_addr_copy(h.dmac, ctx->p[B].fp.mac);
	h.sgid.raw[0] = 0xfe;
	h.sgid.raw[1] = 0x80;
	h.sgid.raw[15] = 1;
	h.dgid = h.sgid;
	h.dgid.raw[15] = 2;
	if (oib_rxe_frame_build_skb(&h, payload, skb)) {
		kfree_skb(skb);
		return NULL;
	}
	if (implied) {
		memset(skb->data + skb->len - ORXE_ICRC_SIZE, 0, ORXE_ICRC_SIZE);
		memset(skb->data + ETH_HLEN + 40 + 6, 0, 2);	/* IPv6, UDP checksum */
		skb->ip_summed = CHECKSUM_PARTIAL;
	}
	return skb;
}

/* The next frame B keeps, and its bytes compared with @want's. */
static void ft_expect_kept(struct kunit *test, struct ft_ctx *ctx, u32 n,
			   const struct sk_buff *want, u8 ip_summed, u32 bits)
{
	struct sk_buff *got;
	u32 first;

	KUNIT_ASSERT_TRUE(test, ft_wait(ctx, B, n));
	got = skb_dequeue(&ctx->p[B].keep);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_EXPECT_EQ(test, ip_summed, (u8)got->ip_summed);
	KUNIT_EXPECT_EQ(test, want->len, got->len);
	if (want->len == got->len)
		KUNIT_EXPECT_EQ(test, bits, ft_bitdiff(want->data, got->data, got->len, &first));
	kfree_skb(got);
}

/*
 * Frames with implied trailers (ip_summed CHECKSUM_PARTIAL, as oib_rxe ports send theirs): a port
 * that does not take them, a capture and a corrupting fault see them sealed, byte for byte what
 * the builder gives when it seals; a port that takes them gets them as sent.
 */
static void implied_trailers(struct kunit *test)
{
	struct ft_ctx *ctx = test->priv;
	struct orxe_fault_cfg corrupt = { .corrupt_ppm = ORXE_PPM };
	struct sk_buff *sealed = ft_wire_frame(ctx, false), *implied = ft_wire_frame(ctx, true);
	struct orxe_pkt pkt;
	struct ft_pcap_rec rec;
	size_t len;
	u8 *file;

	KUNIT_ASSERT_NOT_NULL(test, sealed);
	KUNIT_ASSERT_NOT_NULL(test, implied);
	KUNIT_EXPECT_EQ(test, 0, oib_rxe_pkt_parse(sealed->data, sealed->len, &pkt));
	KUNIT_EXPECT_NE(test, 0, oib_rxe_pkt_parse(implied->data, implied->len, &pkt));
	ctx->p[B].keep_frames = true;

	ft_xmit(ctx, A, ft_wire_frame(ctx, true));
	ft_expect_kept(test, ctx, 1, sealed, CHECKSUM_NONE, 0);

	ctx->p[B].fp.implied_ok = true;
	ft_xmit(ctx, A, ft_wire_frame(ctx, true));
	ft_expect_kept(test, ctx, 2, implied, CHECKSUM_PARTIAL, 0);

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_capture_start(ctx->f, 0));
	ft_xmit(ctx, A, ft_wire_frame(ctx, true));
	oib_rxe_fabric_capture_stop(ctx->f);
	ft_expect_kept(test, ctx, 3, sealed, CHECKSUM_NONE, 0);
	file = ft_read_capture(test, ctx->f, 1 << 16, &len);
	KUNIT_ASSERT_EQ(test, 24 + sizeof(rec) + sealed->len, len);
	memcpy(&rec, file + 24, sizeof(rec));
	KUNIT_EXPECT_EQ(test, sealed->len, rec.incl_len);
	KUNIT_EXPECT_EQ(test, 0, memcmp(sealed->data, file + 24 + sizeof(rec), sealed->len));

	KUNIT_ASSERT_EQ(test, 0, oib_rxe_fabric_set_faults(ctx->f, NULL, &corrupt));
	ft_xmit(ctx, A, ft_wire_frame(ctx, true));
	ft_expect_kept(test, ctx, 4, sealed, CHECKSUM_NONE, 1);

	ctx->p[B].keep_frames = false;
	kfree_skb(sealed);
	kfree_skb(implied);
}

static struct kunit_case oib_fabric_cases[] = {
	KUNIT_CASE(fabric_registry_and_attach),
	KUNIT_CASE(resolve_by_gid),
	KUNIT_CASE(deliver_by_mac_async),
	KUNIT_CASE(send_from_rx_and_atomic),
	KUNIT_CASE_SLOW(path_order),
	KUNIT_CASE(drops_counted),
	KUNIT_CASE_SLOW(queue_overflow),
	KUNIT_CASE(detach_is_synchronous),
	KUNIT_CASE(detach_frees_held_and_delayed),
	KUNIT_CASE(rx_placement),
	KUNIT_CASE(fault_drop_all),
	KUNIT_CASE(fault_dup_all),
	KUNIT_CASE_SLOW(fault_reorder_all),
	KUNIT_CASE(fault_delay_all),
	KUNIT_CASE(fault_corrupt_all),
	KUNIT_CASE_PARAM_ATTR(fault_seeded_10pct, ft_seeded_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(fault_rules),
	KUNIT_CASE(rule_and_fault_syntax),
	KUNIT_CASE(capture_pcap),
	KUNIT_CASE(implied_trailers),
	KUNIT_CASE(fabric_batches),
	{}
};

static struct kunit_suite oib_fabric_suite = {
	.name = "oib_rxe_fabric",
	.init = ft_init,
	.exit = ft_exit,
	.test_cases = oib_fabric_cases,
};

kunit_test_suite(oib_fabric_suite);

MODULE_DESCRIPTION("KUnit tests for the oib_rxe fabric");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
