// SPDX-License-Identifier: GPL-2.0-only
/*
 * The measuring modes, after rping's first message: the client advertises its rdma_buf, the
 * server answers with its own (both fast-registered under new keys), then
 *   wlat  RDMA WRITE ping-pong of size bytes, count times: each side waits for the iteration
 *         number in the last word of its rdma_buf, then writes the same back (client first);
 *         the round trip's half is the one-way latency;
 *   bw    count RDMA WRITEs of size bytes from the client's start_buf into the server's
 *         rdma_buf, txdepth in flight; the client then SENDs "done", the server checks its
 *         buffer and answers;
 *   rbw   the same with RDMA READs of the server's rdma_buf into the client's;
 *   conn  nothing: the connection itself was the work.
 * The server then waits for the client to disconnect.
 * Both sides must be given the same mode, size and count.  validate compares the data with the
 * pattern the other side wrote (rping's payload for the count).
 */
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/string.h>
#include "krping.h"

/* The offset of the word wlat writes the iteration number to. */
static u32 krping_tail(u32 size)
{
	return round_down(size - sizeof(u32), sizeof(u32));
}

/*
 * Exchange buffers: the client advertises first (rping's order).  Both our buffers are
 * registered first: start_buf for local access (the source of WRITEs), rdma_buf with @access.
 */
static int krping_swap_info(struct krping_conn *c, int access, u64 *addr, u32 *rkey)
{
	bool server = c->t->o.server;
	struct oib_send_wr *reg, *reg2;
	u32 len;
	int ret = 0;

	if (server)
		ret = krping_take_info(c, 1, addr, rkey, &len);
	if (ret)
		return ret;
	if (server && len != c->t->o.size)
		return -EMSGSIZE;
	reg = krping_reg(c, &c->start, OIB_ACCESS_LOCAL_WRITE, &ret);
	if (!ret) {
		reg2 = krping_reg(c, &c->rdma, access, &ret);
		c->start.reg.next = reg2;
	}
	if (!ret)
		ret = krping_post_send(c, reg, &c->rdma, false);
	if (!ret)
		ret = krping_wait(c, &c->sends, 1);
	if (server || ret)
		return ret;
	ret = krping_take_info(c, 1, addr, rkey, &len);
	return ret ?: len == c->t->o.size ? 0 : -EMSGSIZE;
}

/*
 * Spin until the last word of our rdma_buf says @n (wlat), then until the data is the pattern
 * (validate): nothing orders the bytes of one WRITE as they land (a memcpy may store the end
 * first), so the word can be there before the rest.
 */
static int krping_wlat_wait(struct krping_conn *c, u32 n)
{
	struct krping_test *t = c->t;
	u32 *tail = c->rdma.va + krping_tail(t->o.size);
	u64 deadline = ktime_get_ns() + (u64)KRPING_TIMEOUT_MS * NSEC_PER_MSEC;

	while (READ_ONCE(*tail) != n ||
	       (t->o.validate && memcmp(c->rdma.va, c->start.va, t->o.size))) {
		if (kthread_should_stop())
			return -EINTR;
		if (READ_ONCE(c->wc_error) || krping_cm_failed(c))
			return krping_wait(c, &c->rdmas, INT_MAX);	/* its errno */
		if (ktime_get_ns() > deadline)
			return READ_ONCE(*tail) == n ? -EBADMSG : -ETIMEDOUT;
		if (t->o.poll)
			oib_process_cq_direct(c->cq, 16);	/* our WRITEs' completions */
		cond_resched();
	}
	return 0;
}

/* One side's WRITE of iteration @n (our start_buf: the payload, @n in its last word). */
static int krping_wlat_write(struct krping_conn *c, u32 n, u64 addr, u32 rkey)
{
	u32 size = c->t->o.size;

	krping_fill(c->start.va, size, n);
	*(u32 *)(c->start.va + krping_tail(size)) = n;
	return krping_post_rdma(c, NULL, OIB_WR_RDMA_WRITE, &c->start, size, addr, rkey);
}

static int krping_wlat(struct krping_conn *c, u64 addr, u32 rkey)
{
	struct krping_test *t = c->t;
	bool server = t->o.server;
	u64 t1;
	u32 n;
	int ret = 0;

	for (n = 1; !ret && n <= t->o.count; n++) {
		t1 = ktime_get_ns();
		/* the previous WRITE completed (the peer answered it): the SQ stays short */
		ret = krping_wait(c, &c->rdmas, n - 1);
		if (ret)
			break;
		if (server) {
			krping_fill(c->start.va, t->o.size, n);
			*(u32 *)(c->start.va + krping_tail(t->o.size)) = n;
			ret = krping_wlat_wait(c, n);
			if (!ret)
				ret = krping_post_rdma(c, NULL, OIB_WR_RDMA_WRITE, &c->start,
						       t->o.size, addr, rkey);
		} else {
			ret = krping_wlat_write(c, n, addr, rkey);
			if (!ret)
				ret = krping_wlat_wait(c, n);
		}
		if (ret)
			break;
		if (!server)
			krping_rtt(t, ktime_get_ns() - t1);
		t->iters++;
		t->bytes += t->o.size;
	}
	/*
	 * The client's last WRITE completes (the server waits for our disconnect); the server's
	 * last is not waited for: the client, which saw it land, may disconnect before its ACK
	 * came back, flushing it.
	 */
	if (!ret && !server)
		ret = krping_wait(c, &c->rdmas, t->o.count);
	return ret;
}

/* Client: count WRITEs or READs, txdepth in flight. */
static int krping_stream(struct krping_conn *c, enum oib_wr_opcode op, u64 addr, u32 rkey)
{
	struct krping_test *t = c->t;
	struct krping_buf *b = op == OIB_WR_RDMA_WRITE ? &c->start : &c->rdma;
	u32 n;
	int ret = 0;

	for (n = 0; !ret && n < t->o.count; n++) {
		if (n >= t->o.txdepth)
			ret = krping_wait(c, &c->rdmas, n - t->o.txdepth + 1);
		if (!ret)
			ret = krping_post_rdma(c, NULL, op, b, t->o.size, addr, rkey);
	}
	if (!ret)
		ret = krping_wait(c, &c->rdmas, t->o.count);
	if (!ret) {
		t->iters = t->o.count;
		t->bytes = (u64)t->o.count * t->o.size;
	}
	return ret;
}

static int krping_check_pattern(struct krping_conn *c, struct krping_buf *b)
{
	struct krping_test *t = c->t;

	if (!t->o.validate)
		return 0;
	krping_fill(c->start.va, t->o.size, t->o.count);
	return memcmp(b->va, c->start.va, t->o.size) ? -EBADMSG : 0;
}

int krping_perf_client(struct krping_conn *c)
{
	struct krping_test *t = c->t;
	enum krping_mode mode = t->o.mode;
	u64 addr, dummy;
	u32 rkey, len;
	int ret;

	if (mode == KRPING_CONN)
		return 0;
	ret = krping_swap_info(c, OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE, &addr, &rkey);
	if (ret)
		return ret;
	krping_fill(c->start.va, t->o.size, t->o.count);
	t->t0 = ktime_get_ns();
	if (mode == KRPING_WLAT)
		ret = krping_wlat(c, addr, rkey);
	else
		ret = krping_stream(c, mode == KRPING_BW ? OIB_WR_RDMA_WRITE : OIB_WR_RDMA_READ,
				    addr, rkey);
	t->ns = ktime_get_ns() - t->t0;
	if (ret || mode == KRPING_WLAT)
		return ret;
	if (mode == KRPING_RBW)
		ret = krping_check_pattern(c, &c->rdma);
	if (!ret)
		ret = krping_post_send(c, NULL, NULL, true);	/* done */
	return ret ?: krping_take_info(c, 2, &dummy, &rkey, &len);
}

int krping_perf_server(struct krping_conn *c)
{
	struct krping_test *t = c->t;
	enum krping_mode mode = t->o.mode;
	int access = OIB_ACCESS_LOCAL_WRITE | OIB_ACCESS_REMOTE_WRITE;
	u64 addr;
	u32 rkey, len;
	int ret;

	if (mode == KRPING_CONN)
		return krping_cm_wait(c, OIB_CMA_EVENT_DISCONNECTED);
	if (mode == KRPING_RBW) {
		krping_fill(c->rdma.va, t->o.size, t->o.count);
		access = OIB_ACCESS_REMOTE_READ;
	}
	t->t0 = ktime_get_ns();
	ret = krping_swap_info(c, access, &addr, &rkey);
	if (!ret && mode == KRPING_WLAT)
		ret = krping_wlat(c, addr, rkey);
	else if (!ret)
		ret = krping_take_info(c, 2, &addr, &rkey, &len);	/* done */
	if (!ret && mode == KRPING_BW)
		ret = krping_check_pattern(c, &c->rdma);
	if (!ret && mode != KRPING_WLAT) {
		t->iters = t->o.count;
		t->bytes = (u64)t->o.count * t->o.size;
		/* not waited for: the client may disconnect before its ACK came back */
		ret = krping_post_send(c, NULL, NULL, true);
	}
	t->ns = ktime_get_ns() - t->t0;
	/*
	 * The client ends the connection, as in rping: our disconnect could flush its last
	 * request before the ACK reached it.
	 */
	return ret ?: krping_cm_wait(c, OIB_CMA_EVENT_DISCONNECTED);
}
