/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The interop exchange, shared by oib_interop (oib verbs over oib_cma) and oib_interop_intree (the
 * in-tree verbs over the in-tree rdma_cm): both modules include this header and give it the calls
 * of struct iop_ops over their own verbs, so that either stack can be the client or the server of
 * the other and both check the same things the same way.
 *
 * The connection (RC, through the rdma_cm's TCP port space): the client's REQ carries a struct
 * iop_hello (what it will do), the server's REP a struct iop_window (where its window is), a
 * server asked to refuse rejects with a struct iop_hello back as the REJ's private data.
 *
 * Every side has one buffer of IOP_BUF bytes: IOP_SLOTS receive slots, IOP_SLOTS send slots, and
 * from IOP_WIN_OFF the RDMA area (the server's window, registered for remote read, write and
 * atomics; the client's WRITE sources, READ targets and atomic results).  The client, with at
 * most IOP_DEPTH operations in flight:
 *   1. SENDs of every size from 1 byte to past the path MTU, then a few of many packets; the
 *      server checks each (its size and its bytes, which depend on its sequence number, so a lost,
 *      repeated or reordered message fails) and echoes it; the client checks the echo;
 *   2. RDMA WRITEs of the same sizes into the window, each read back with an RDMA READ and
 *      checked;
 *   3. FETCH_ADDs and then COMPARE_SWAPs on one word of the window, each result checked against
 *      the value it must have had (an atomic done twice or lost shows), and one COMPARE_SWAP that
 *      must fail;
 *   4. a DONE message naming what the window must now hold (the last WRITE of every slot, the
 *      atomic word); the server checks its memory and answers with a VERDICT message;
 *   5. the disconnect, from the side the hello names.
 * A side's result is "ok ..." or "fail: ...", the first failure's; the test scripts read it.
 */
#ifndef OIB_INTEROP_CORE_H
#define OIB_INTEROP_CORE_H

#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

#define IOP_MAGIC	0x4f494258	/* "OIBX" */
#define IOP_BUF		(1024 * 1024)
#define IOP_SLOT	(16 * 1024)	/* a message's most */
#define IOP_SLOTS	16
#define IOP_SEND_OFF	(IOP_SLOTS * IOP_SLOT)
#define IOP_WIN_OFF	(2 * IOP_SLOTS * IOP_SLOT)
#define IOP_WIN_LEN	(IOP_BUF - IOP_WIN_OFF)
#define IOP_DEPTH	8		/* messages, WRITE+READ pairs, atomics in flight */
#define IOP_MTU		1024		/* the path MTU over a 1500-byte link */
#define IOP_QP_DEPTH	(4 * IOP_SLOTS)	/* send queue; the receive queue holds IOP_SLOTS */
#define IOP_CQ_DEPTH	(IOP_QP_DEPTH + IOP_SLOTS)
#define IOP_ATOMIC_INIT	0x0123456700000000ULL
#define IOP_ADD		1
#define IOP_SWAP_STEP	3
#define IOP_PRIV_MAX	32		/* private data kept from a cm event */
#define IOP_REJ_CONSUMER 28		/* the IB CM's REJ reason "consumer defined" */

/*
 * The client's window slots for WRITE sources and READ targets (IOP_DEPTH each), and its atomic
 * results; the server's window: the atomic word, then IOP_DEPTH slots for the WRITEs.
 */
#define IOP_SRC(i)	(IOP_WIN_OFF + ((i) % IOP_DEPTH) * IOP_SLOT)
#define IOP_DST(i)	(IOP_WIN_OFF + (IOP_DEPTH + (i) % IOP_DEPTH) * IOP_SLOT)
#define IOP_RES(k)	(IOP_WIN_OFF + 2 * IOP_DEPTH * IOP_SLOT + ((k) % IOP_DEPTH) * 8)
#define IOP_WIN_WORD	0
#define IOP_WIN_SLOT(i)	(IOP_SLOT + ((i) % IOP_DEPTH) * IOP_SLOT)

/* The hello's flags. */
enum {
	IOP_SHORT = BIT(0),		/* a few messages of each kind, not every size */
	IOP_REJECT = BIT(1),		/* the server must reject, with a hello back */
	IOP_SERVER_DISCONNECTS = BIT(2),
	/*
	 * Messages of one packet at most (sizes 1..IOP_MTU): for an in-tree rxe requester.  It
	 * updates a request's state only after sending its last packet, so an ACK fast enough
	 * finds the request still "sending"; it then takes the PSN as acknowledged without
	 * completing the request, and its next retry skips the whole message and sends an empty
	 * SEND_ONLY at a new PSN (6.12 rxe_req.c, rxe_comp.c).  One-packet messages only lose
	 * that ACK and are sent again.
	 */
	IOP_ONE_PACKET = BIT(3),
};

struct iop_hello {		/* REQ (and REJ) private data */
	__be32 magic;
	__be32 flags;
	__be32 seed;
	__be32 reserved;
};

struct iop_window {		/* REP private data */
	__be32 magic;
	__be32 rkey;
	__be64 addr;
};

enum { IOP_MSG_DONE = 1, IOP_MSG_VERDICT };

struct iop_done {
	__be32 magic;
	__be32 kind;
	__be64 word;			/* the atomic word's value now */
	__be32 last[IOP_DEPTH];		/* the index of the last WRITE into each window slot */
};

struct iop_verdict {
	__be32 magic;
	__be32 kind;
	__be32 bad;			/* 0: the window holds what DONE said */
	__be32 where;			/* else the first byte that differs, or ~0 for the word */
};

enum iop_op { IOP_OP_SEND, IOP_OP_WRITE, IOP_OP_READ, IOP_OP_FADD, IOP_OP_CSWAP, IOP_OP_RECV };

/* A work request: offsets are into the side's buffer and the peer's window. */
struct iop_wr {
	enum iop_op op;
	u32 index;			/* comes back in the completion */
	u32 off, len;
	u32 remote_off;
	u64 compare_add, swap;
};

struct iop_wc {
	enum iop_op op;
	u32 index;
	u32 byte_len;
	int status;			/* 0, or the stack's status code */
};

/* What each module gives the exchange; @ctx is its connection. */
struct iop_ops {
	int (*post_send)(void *ctx, const struct iop_wr *wr);
	int (*post_recv)(void *ctx, u32 slot);
	/* One completion into @wc: 1; none: 0; -errno. */
	int (*poll)(void *ctx, struct iop_wc *wc);
	int (*disconnect)(void *ctx);
	bool (*disconnected)(void *ctx);
};

struct iop {
	const struct iop_ops *ops;
	void *ctx;
	u8 *buf;
	u32 flags, seed;
	unsigned int timeout_ms;
	/* counts of completions (and what they carried) */
	u32 recvs, sends, rdma, atomic_done;
	u32 last[IOP_DEPTH];
	bool verdict_sent;
	char *result;
	size_t result_len;
	int err;
};

static inline u32 iop_nr_msgs(const struct iop *x)
{
	if (x->flags & IOP_SHORT)
		return 24;
	return x->flags & IOP_ONE_PACKET ? IOP_MTU : 1108;
}

/*
 * Sizes: 1, 2, ... (every size through and past the path MTU), then some of many packets; with
 * IOP_ONE_PACKET every size through the path MTU.  Short runs: 1..16, then eight more.
 */
static inline u32 iop_size(const struct iop *x, u32 seq)
{
	static const u32 big[] = { 2047, 2048, 2049, 4095, 4096, 4097, 12289, IOP_SLOT };
	u32 n = iop_nr_msgs(x), tail = ARRAY_SIZE(big);

	if (seq < n - tail || (x->flags & IOP_ONE_PACKET && !(x->flags & IOP_SHORT)))
		return seq + 1;
	if (x->flags & IOP_ONE_PACKET)
		return IOP_MTU - (n - 1 - seq);		/* up to the MTU itself */
	return big[seq - (n - tail)];
}

static inline u8 iop_byte(u32 seed, u32 seq, u32 i)
{
	return seed + seq * 131 + i * 7 + (i >> 8) * 13;
}

static inline void iop_fill(u8 *p, u32 seed, u32 seq, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = iop_byte(seed, seq, i);
}

/* The first byte of @p that is not the pattern, or -1. */
static inline int iop_check(const u8 *p, u32 seed, u32 seq, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++)
		if (p[i] != iop_byte(seed, seq, i))
			return i;
	return -1;
}

static __printf(2, 3) int iop_fail(struct iop *x, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (x->err)
		return x->err;
	x->err = -EIO;
	n = scnprintf(x->result, x->result_len, "fail: ");
	va_start(ap, fmt);
	vscnprintf(x->result + n, x->result_len - n, fmt, ap);
	va_end(ap);
	pr_info("oib-interop: %s\n", x->result);
	return x->err;
}

/* @what @seq's bytes at @p are not the pattern: fails with the first difference. */
static int iop_check_data(struct iop *x, const char *what, u32 seq, const u8 *p, u32 s, u32 len)
{
	int bad = iop_check(p, s, seq, len);

	if (bad < 0)
		return 0;
	return iop_fail(x, "%s %u (%u bytes) differs at byte %d: %#x, not %#x (then %*phN)", what,
			seq, len, bad, p[bad], iop_byte(s, seq, bad), min_t(int, len - bad, 8),
			p + bad);
}

/* The pattern seed of the RDMA phase (the SENDs use x->seed). */
static inline u32 iop_rdma_seed(const struct iop *x)
{
	return x->seed ^ 0x5a5a5a5a;
}

static inline u32 iop_nr_atomics(const struct iop *x)
{
	return x->flags & IOP_SHORT ? 8 : 64;
}

/* The word before COMPARE_SWAP @k (they follow the FETCH_ADDs). */
static inline u64 iop_cswap_value(const struct iop *x, u32 k)
{
	return IOP_ATOMIC_INIT + (u64)iop_nr_atomics(x) * IOP_ADD + (u64)k * IOP_SWAP_STEP;
}

typedef int (*iop_handler)(struct iop *x, const struct iop_wc *wc);

/*
 * Poll, handing every completion to @handle, until *@count reaches @want.  A failure, the
 * connection's end, the loading thread's stop or @idle_ms without a completion (0: no limit) end
 * the wait.
 */
static int iop_wait_idle(struct iop *x, iop_handler handle, const u32 *count, u32 want,
			 unsigned int idle_ms)
{
	unsigned long last = jiffies;
	struct iop_wc wc;
	int n;

	while (!x->err && *count < want) {
		n = x->ops->poll(x->ctx, &wc);
		if (n < 0)
			return iop_fail(x, "poll: %d", n);
		if (n) {
			handle(x, &wc);
			last = jiffies;
			continue;
		}
		if (x->ops->disconnected(x->ctx))
			return iop_fail(x, "disconnected at %u of %u", *count, want);
		if (kthread_should_stop())
			return iop_fail(x, "stopped at %u of %u", *count, want);
		if (idle_ms && time_after(jiffies, last + msecs_to_jiffies(idle_ms)))
			return iop_fail(x, "no completion for %u ms at %u of %u", idle_ms, *count,
					want);
		usleep_range(50, 100);
	}
	return x->err;
}

static int iop_wait(struct iop *x, iop_handler handle, const u32 *count, u32 want)
{
	return iop_wait_idle(x, handle, count, want, x->timeout_ms);
}

/* @n's window: at most @depth of them outstanding while the next one is posted. */
static inline u32 iop_behind(u32 n, u32 depth)
{
	return n >= depth ? n - depth + 1 : 0;
}

/* The end: completions (flushed ones too) thrown away until the connection is gone. */
static int iop_wait_disconnected(struct iop *x)
{
	unsigned long end = jiffies + msecs_to_jiffies(x->timeout_ms);
	struct iop_wc wc;

	while (!x->ops->disconnected(x->ctx)) {
		while (x->ops->poll(x->ctx, &wc) > 0)
			;
		if (kthread_should_stop())
			return iop_fail(x, "stopped before the disconnect");
		if (time_after(jiffies, end))
			return iop_fail(x, "no disconnect in %u ms", x->timeout_ms);
		usleep_range(500, 1000);
	}
	return 0;
}

static int iop_post(struct iop *x, enum iop_op op, u32 index, u32 off, u32 len, u32 remote_off)
{
	struct iop_wr wr = {
		.op = op, .index = index, .off = off, .len = len, .remote_off = remote_off,
	};
	int ret = x->ops->post_send(x->ctx, &wr);

	return ret ? iop_fail(x, "posting %d %u: %d", op, index, ret) : 0;
}

static int iop_post_atomic(struct iop *x, enum iop_op op, u32 k, u64 compare_add, u64 swap)
{
	struct iop_wr wr = {
		.op = op, .index = k, .off = IOP_RES(k), .len = 8, .remote_off = IOP_WIN_WORD,
		.compare_add = compare_add, .swap = swap,
	};
	int ret = x->ops->post_send(x->ctx, &wr);

	return ret ? iop_fail(x, "posting atomic %d %u: %d", op, k, ret) : 0;
}

/* Before connecting (client) or accepting (server): every receive slot posted. */
static int iop_post_recvs(struct iop *x)
{
	u32 s;
	int ret;

	for (s = 0; s < IOP_SLOTS; s++) {
		ret = x->ops->post_recv(x->ctx, s);
		if (ret)
			return iop_fail(x, "posting receive %u: %d", s, ret);
	}
	return 0;
}

/* The server, before it accepts: every receive posted, the atomic word set. */
static int iop_server_ready(struct iop *x)
{
	u64 word = IOP_ATOMIC_INIT;

	memcpy(x->buf + IOP_WIN_OFF + IOP_WIN_WORD, &word, sizeof(word));
	return iop_post_recvs(x);
}

/* ---- The client ---- */

static int iop_client_recv(struct iop *x, const struct iop_wc *wc)
{
	const u8 *p = x->buf + wc->index * IOP_SLOT;
	u32 seq = x->recvs, n = iop_nr_msgs(x);
	const struct iop_verdict *v = (const void *)p;

	if (seq == n) {
		if (wc->byte_len < sizeof(*v) || be32_to_cpu(v->magic) != IOP_MAGIC ||
		    be32_to_cpu(v->kind) != IOP_MSG_VERDICT)
			return iop_fail(x, "no verdict but %u bytes", wc->byte_len);
		if (v->bad)
			return iop_fail(x, "the server's window differs at %#x",
					be32_to_cpu(v->where));
		x->recvs++;
		return 0;
	}
	if (seq > n)
		return iop_fail(x, "a message after the verdict");
	if (wc->byte_len != iop_size(x, seq))
		return iop_fail(x, "echo %u has %u bytes, not %u", seq, wc->byte_len,
				iop_size(x, seq));
	if (iop_check_data(x, "echo", seq, p, x->seed, wc->byte_len))
		return x->err;
	x->recvs++;
	return x->ops->post_recv(x->ctx, wc->index) ? iop_fail(x, "reposting a receive") : 0;
}

static int iop_client_atomic(struct iop *x, const struct iop_wc *wc)
{
	u32 k = wc->index, m = iop_nr_atomics(x);
	u64 got, want;

	if (wc->op == IOP_OP_FADD)
		want = IOP_ATOMIC_INIT + (u64)k * IOP_ADD;
	else
		want = iop_cswap_value(x, k);
	memcpy(&got, x->buf + IOP_RES(k), sizeof(got));
	if (got != want)
		return iop_fail(x, "%s %u of %u found %#llx, not %#llx",
				wc->op == IOP_OP_FADD ? "FETCH_ADD" : "COMPARE_SWAP", k, m, got,
				want);
	x->atomic_done++;
	return 0;
}

static int iop_client_wc(struct iop *x, const struct iop_wc *wc)
{
	if (wc->status)
		return iop_fail(x, "op %d index %u completed with status %d", wc->op, wc->index,
				wc->status);
	switch (wc->op) {
	case IOP_OP_RECV:
		return iop_client_recv(x, wc);
	case IOP_OP_SEND:
		x->sends++;
		return 0;
	case IOP_OP_WRITE:
		return 0;
	case IOP_OP_READ:
		if (iop_check_data(x, "READ", wc->index, x->buf + IOP_DST(wc->index),
				   iop_rdma_seed(x), iop_size(x, wc->index)))
			return x->err;
		x->rdma++;
		return 0;
	case IOP_OP_FADD:
	case IOP_OP_CSWAP:
		return iop_client_atomic(x, wc);
	}
	return iop_fail(x, "a completion of op %d", wc->op);
}

static int iop_client_sends(struct iop *x)
{
	u32 n = iop_nr_msgs(x), i;
	u8 *p;

	for (i = 0; i < n && !x->err; i++) {
		iop_wait(x, iop_client_wc, &x->recvs, iop_behind(i, IOP_DEPTH));
		iop_wait(x, iop_client_wc, &x->sends, iop_behind(i, IOP_DEPTH));
		if (x->err)
			break;
		p = x->buf + IOP_SEND_OFF + (i % IOP_SLOTS) * IOP_SLOT;
		iop_fill(p, x->seed, i, iop_size(x, i));
		iop_post(x, IOP_OP_SEND, i, p - x->buf, iop_size(x, i), 0);
	}
	iop_wait(x, iop_client_wc, &x->recvs, n);
	return iop_wait(x, iop_client_wc, &x->sends, n);
}

/* Each WRITE read back by a READ of the same bytes (the responder runs them in order). */
static int iop_client_rdma(struct iop *x)
{
	u32 n = iop_nr_msgs(x), i, len;

	memset(x->last, 0xff, sizeof(x->last));
	for (i = 0; i < n && !x->err; i++) {
		if (iop_wait(x, iop_client_wc, &x->rdma, iop_behind(i, IOP_DEPTH)))
			break;
		len = iop_size(x, i);
		iop_fill(x->buf + IOP_SRC(i), iop_rdma_seed(x), i, len);
		memset(x->buf + IOP_DST(i), 0, len);
		iop_post(x, IOP_OP_WRITE, i, IOP_SRC(i), len, IOP_WIN_SLOT(i));
		iop_post(x, IOP_OP_READ, i, IOP_DST(i), len, IOP_WIN_SLOT(i));
		x->last[i % IOP_DEPTH] = i;
	}
	return iop_wait(x, iop_client_wc, &x->rdma, n);
}

/* FETCH_ADDs, then COMPARE_SWAPs that each expect the last one's value, then one that fails. */
static int iop_client_atomics(struct iop *x)
{
	u32 m = iop_nr_atomics(x), k;

	for (k = 0; k < m && !x->err; k++)
		if (!iop_wait(x, iop_client_wc, &x->atomic_done, iop_behind(k, IOP_DEPTH)))
			iop_post_atomic(x, IOP_OP_FADD, k, IOP_ADD, 0);
	for (k = 0; k <= m && !x->err; k++)
		if (!iop_wait(x, iop_client_wc, &x->atomic_done, m + iop_behind(k, IOP_DEPTH)))
			iop_post_atomic(x, IOP_OP_CSWAP, k, k < m ? iop_cswap_value(x, k) : 0,
					iop_cswap_value(x, k + 1));
	return iop_wait(x, iop_client_wc, &x->atomic_done, 2 * m + 1);
}

static int iop_client_done(struct iop *x)
{
	u32 n = iop_nr_msgs(x), j;
	struct iop_done *d = (void *)(x->buf + IOP_SEND_OFF + (n % IOP_SLOTS) * IOP_SLOT);

	d->magic = cpu_to_be32(IOP_MAGIC);
	d->kind = cpu_to_be32(IOP_MSG_DONE);
	d->word = cpu_to_be64(iop_cswap_value(x, iop_nr_atomics(x)));
	for (j = 0; j < IOP_DEPTH; j++)
		d->last[j] = cpu_to_be32(x->last[j]);
	if (iop_post(x, IOP_OP_SEND, n, (u8 *)d - x->buf, sizeof(*d), 0))
		return x->err;
	return iop_wait(x, iop_client_wc, &x->recvs, n + 1);
}

/* The client's whole exchange on a connection whose receives iop_post_recvs() posted. */
static int iop_client_run(struct iop *x)
{
	if (iop_client_sends(x) || iop_client_rdma(x) || iop_client_atomics(x) ||
	    iop_client_done(x))
		return x->err;
	if (!(x->flags & IOP_SERVER_DISCONNECTS) && x->ops->disconnect(x->ctx))
		return iop_fail(x, "disconnect failed");
	if (iop_wait_disconnected(x))
		return x->err;
	scnprintf(x->result, x->result_len, "ok messages=%u rdma=%u atomics=%u", x->recvs,
		  x->rdma, x->atomic_done);
	return 0;
}

/* ---- The server ---- */

/* The window against DONE: 0, or the offset of the first difference (~0: the atomic word). */
static u32 iop_check_window(struct iop *x, const struct iop_done *d)
{
	const u8 *win = x->buf + IOP_WIN_OFF;
	u32 n = iop_nr_msgs(x), j, i;
	u64 word;
	int bad;

	for (j = 0; j < IOP_DEPTH; j++) {
		i = be32_to_cpu(d->last[j]);
		if (i == ~0U)
			continue;
		if (i >= n || i % IOP_DEPTH != j)
			return IOP_WIN_SLOT(j);
		bad = iop_check(win + IOP_WIN_SLOT(i), iop_rdma_seed(x), i, iop_size(x, i));
		if (bad >= 0)
			return IOP_WIN_SLOT(i) + bad;
	}
	memcpy(&word, win + IOP_WIN_WORD, sizeof(word));
	return word == be64_to_cpu(d->word) ? 0 : ~0U;
}

static int iop_server_done(struct iop *x, const struct iop_wc *wc)
{
	const struct iop_done *d = (const void *)(x->buf + wc->index * IOP_SLOT);
	u32 n = iop_nr_msgs(x), where;
	struct iop_verdict *v = (void *)(x->buf + IOP_SEND_OFF + (n % IOP_SLOTS) * IOP_SLOT);

	if (wc->byte_len != sizeof(*d) || be32_to_cpu(d->magic) != IOP_MAGIC ||
	    be32_to_cpu(d->kind) != IOP_MSG_DONE)
		return iop_fail(x, "no DONE but %u bytes", wc->byte_len);
	where = iop_check_window(x, d);
	v->magic = cpu_to_be32(IOP_MAGIC);
	v->kind = cpu_to_be32(IOP_MSG_VERDICT);
	v->bad = cpu_to_be32(where != 0);
	v->where = cpu_to_be32(where);
	x->recvs++;
	if (iop_post(x, IOP_OP_SEND, n, (u8 *)v - x->buf, sizeof(*v), 0))
		return x->err;
	return where ? iop_fail(x, "the window differs at %#x", where) : 0;
}

/*
 * A message: checked, then echoed from send slot seq % IOP_SLOTS.  The client has at most
 * IOP_DEPTH (< IOP_SLOTS) messages unanswered, so the message that reuses a slot comes after the
 * slot's echo reached the client.
 */
static int iop_server_recv(struct iop *x, const struct iop_wc *wc)
{
	const u8 *p = x->buf + wc->index * IOP_SLOT;
	u32 seq = x->recvs, n = iop_nr_msgs(x), off;

	if (seq == n)
		return iop_server_done(x, wc);
	if (seq > n)
		return iop_fail(x, "a message after DONE");
	if (wc->byte_len != iop_size(x, seq))
		return iop_fail(x, "message %u has %u bytes, not %u", seq, wc->byte_len,
				iop_size(x, seq));
	if (iop_check_data(x, "message", seq, p, x->seed, wc->byte_len))
		return x->err;
	off = IOP_SEND_OFF + (seq % IOP_SLOTS) * IOP_SLOT;
	memcpy(x->buf + off, p, wc->byte_len);
	x->recvs++;
	if (x->ops->post_recv(x->ctx, wc->index))
		return iop_fail(x, "reposting a receive");
	return iop_post(x, IOP_OP_SEND, seq, off, wc->byte_len, 0);
}

static int iop_server_wc(struct iop *x, const struct iop_wc *wc)
{
	if (wc->status)
		return iop_fail(x, "op %d index %u completed with status %d", wc->op, wc->index,
				wc->status);
	if (wc->op == IOP_OP_RECV)
		return iop_server_recv(x, wc);
	if (wc->op != IOP_OP_SEND)
		return iop_fail(x, "a completion of op %d", wc->op);
	x->sends++;
	return 0;
}

/*
 * The server's whole exchange, once the connection is established.  While the client reads,
 * writes and runs atomics, the server sees no completion: it waits for DONE as long as the
 * connection lasts.
 */
static int iop_server_run(struct iop *x)
{
	u32 n = iop_nr_msgs(x);

	if (iop_wait(x, iop_server_wc, &x->recvs, n) ||
	    iop_wait_idle(x, iop_server_wc, &x->recvs, n + 1, 0) ||
	    iop_wait(x, iop_server_wc, &x->sends, n + 1))
		return x->err;
	if ((x->flags & IOP_SERVER_DISCONNECTS) && x->ops->disconnect(x->ctx))
		return iop_fail(x, "disconnect failed");
	if (iop_wait_disconnected(x))
		return x->err;
	scnprintf(x->result, x->result_len, "ok messages=%u window checked", x->recvs);
	return 0;
}

/* ---- The modules' parameters (the same for both) ---- */

static char *role = "server";
module_param(role, charp, 0444);
MODULE_PARM_DESC(role, "server (listens for one connection) or client");
static char *addr;
module_param(addr, charp, 0444);
MODULE_PARM_DESC(addr, "IPv4 or IPv6 address: the server's to listen on, the client's to connect to");
static char *port = "7470";
module_param(port, charp, 0444);
MODULE_PARM_DESC(port, "TCP port space port");
static uint flags;
module_param(flags, uint, 0444);
MODULE_PARM_DESC(flags, "client: 1 short, 2 be rejected, 4 server disconnects, 8 one-packet messages");
static uint seed = 1;
module_param(seed, uint, 0444);
MODULE_PARM_DESC(seed, "client: the data pattern's seed");
static uint timeout_ms = 30000;
module_param(timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms, "a wait for a completion or a cm event fails after this long");
static char result[160] = "running";
module_param_string(result, result, sizeof(result), 0444);
MODULE_PARM_DESC(result, "running, then ok ... or fail: ...");

static void iop_init(struct iop *x, const struct iop_ops *ops, void *ctx, u8 *buf)
{
	*x = (struct iop){
		.ops = ops, .ctx = ctx, .buf = buf, .flags = flags, .seed = seed,
		.timeout_ms = timeout_ms, .result = result,
		.result_len = sizeof(result),
	};
}

static inline struct iop_hello iop_hello(u32 f, u32 s)
{
	return (struct iop_hello){
		.magic = cpu_to_be32(IOP_MAGIC), .flags = cpu_to_be32(f), .seed = cpu_to_be32(s),
	};
}

/* The server: the request's private data must be a hello, whose flags and seed it takes. */
static int iop_take_hello(struct iop *x, const u8 *pdata, u8 len)
{
	const struct iop_hello *h = (const void *)pdata;

	if (len < sizeof(*h) || be32_to_cpu(h->magic) != IOP_MAGIC)
		return iop_fail(x, "a request without a hello (%u bytes)", len);
	x->flags = be32_to_cpu(h->flags);
	x->seed = be32_to_cpu(h->seed);
	return 0;
}

/* The client asked to be rejected: the REJ must be the consumer's, with its hello back. */
static int iop_check_reject(struct iop *x, bool rejected, int status, const u8 *pdata, u8 len)
{
	struct iop_hello hello = iop_hello(x->flags, x->seed);

	if (!rejected || status != IOP_REJ_CONSUMER || len < sizeof(hello) ||
	    memcmp(pdata, &hello, sizeof(hello)))
		return iop_fail(x, "status %d, %u bytes: not a reject with the hello", status, len);
	scnprintf(x->result, x->result_len, "ok rejected with the hello back");
	return 0;
}

/* The client: the REP's private data must be the server's window. */
static int iop_take_window(struct iop *x, const u8 *pdata, u8 len, u64 *addr, u32 *rkey)
{
	const struct iop_window *win = (const void *)pdata;

	if (len < sizeof(*win) || be32_to_cpu(win->magic) != IOP_MAGIC)
		return iop_fail(x, "no window in the REP's %u bytes", len);
	*addr = be64_to_cpu(win->addr);
	*rkey = be32_to_cpu(win->rkey);
	return 0;
}

/* ---- The module's thread ---- */

/* What a module gives the thread: its connection's size, how to set one up, run it, release it. */
struct iop_module {
	const char *stack;
	size_t conn_size;
	/* @conn zeroed, @buf IOP_BUF zeroed bytes: returns the connection's exchange */
	struct iop *(*setup)(void *conn, u8 *buf);
	int (*serve)(void *conn, const struct sockaddr *sa);
	int (*connect)(void *conn, const struct sockaddr *sa);
	void (*release)(void *conn);		/* whatever serve or connect made */
};

static struct task_struct *iop_task;

/* One run of the role, its result kept; then the thread waits for rmmod to stop it. */
static int iop_thread(void *arg)
{
	const struct iop_module *m = arg;
	void *c = kzalloc(m->conn_size, GFP_KERNEL);
	u8 *buf = alloc_pages_exact(IOP_BUF, GFP_KERNEL | __GFP_ZERO);
	struct sockaddr_storage ss;
	struct iop *x;

	if (!c || !buf) {
		scnprintf(result, sizeof(result), "fail: no memory");
	} else {
		x = m->setup(c, buf);
		if (!addr || inet_pton_with_scope(&init_net, AF_UNSPEC, addr, port, &ss))
			iop_fail(x, "bad address %s port %s", addr ?: "(none)", port);
		else if (!strcmp(role, "server"))
			m->serve(c, (struct sockaddr *)&ss);
		else
			m->connect(c, (struct sockaddr *)&ss);
		m->release(c);
	}
	if (buf)
		free_pages_exact(buf, IOP_BUF);
	kfree(c);
	pr_info("oib-interop: %s %s: %s\n", m->stack, role, result);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

static int iop_start(const struct iop_module *m)
{
	if (strcmp(role, "server") && strcmp(role, "client"))
		return -EINVAL;
	iop_task = kthread_run(iop_thread, (void *)m, "oib_interop");
	return PTR_ERR_OR_ZERO(iop_task);
}

static void iop_stop(void)
{
	kthread_stop(iop_task);
}

#endif /* OIB_INTEROP_CORE_H */
