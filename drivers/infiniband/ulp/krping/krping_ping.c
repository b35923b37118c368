// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rping exchange (wire note C), one iteration:
 *   client: SEND {start_buf, rkey, size}        server: RDMA READ it into rdma_buf, SEND go-ahead
 *   client: SEND {rdma_buf, rkey, size}         server: RDMA WRITE rdma_buf there, SEND go-ahead
 *   client: start_buf and rdma_buf must match (validate)
 * Every advertised buffer, and the server's own, is registered again under a new key first.
 * The client disconnects after count iterations (0: until stopped); the server runs until the
 * client disconnects.
 */
#include <linux/ktime.h>
#include <linux/string.h>
#include "krping.h"

/* rping's payload for iteration @iter: "rdma-ping-N: " then a rolling A..z, a 0 byte last. */
void krping_fill(char *buf, u32 size, u64 iter)
{
	int n = snprintf(buf, size, "rdma-ping-%llu: ", iter);
	char ch = 'A' + iter % ('z' - 'A' + 1);
	u32 i;

	for (i = min_t(u32, n, size); i < size; i++) {
		buf[i] = ch;
		ch = ch == 'z' ? 'A' : ch + 1;
	}
	buf[size - 1] = '\0';
}

/* Server, one iteration: -ECONNRESET when the client has disconnected before asking. */
static int krping_ping_serve(struct krping_conn *c, int n)
{
	struct oib_send_wr *reg;
	u64 addr;
	u32 rkey, len;
	int ret;

	ret = krping_take_info(c, 2 * n + 1, &addr, &rkey, &len);
	if (ret)
		return ret;
	if (len > c->t->o.size)
		return -EMSGSIZE;	/* both sides must use the same size */
	reg = krping_reg(c, &c->rdma, OIB_ACCESS_LOCAL_WRITE, &ret);
	if (!ret)
		ret = krping_post_rdma(c, reg, OIB_WR_RDMA_READ, &c->rdma, len, addr, rkey);
	if (!ret)
		ret = krping_wait(c, &c->rdmas, 2 * n + 1);
	if (!ret)
		ret = krping_post_send(c, NULL, NULL, true);
	if (!ret)
		ret = krping_take_info(c, 2 * n + 2, &addr, &rkey, &len);
	if (!ret)
		ret = krping_post_rdma(c, NULL, OIB_WR_RDMA_WRITE, &c->rdma, min(len, c->t->o.size),
				       addr, rkey);
	if (!ret)
		ret = krping_wait(c, &c->rdmas, 2 * n + 2);
	return ret ?: krping_post_send(c, NULL, NULL, true);
}

int krping_ping_server(struct krping_conn *c)
{
	struct krping_test *t = c->t;
	int ret;

	t->t0 = ktime_get_ns();
	for (;;) {
		ret = krping_ping_serve(c, t->iters);
		t->ns = ktime_get_ns() - t->t0;
		if (ret)
			break;
		t->iters++;
		t->bytes += 2 * t->o.size;
	}
	/* the client's disconnect (or its end) after whole iterations is the normal end */
	if (ret == -ECONNRESET && !READ_ONCE(c->wc_error))
		ret = 0;
	if (!ret && t->o.count && t->iters != t->o.count)
		ret = -EPIPE;		/* the client stopped early */
	return ret;
}

/* Client: advertise @b (registered again with @access) and wait for the go-ahead. */
static int krping_ping_offer(struct krping_conn *c, struct krping_buf *b, int access, int n)
{
	struct oib_send_wr *reg;
	u64 addr;
	u32 rkey, len;
	int ret;

	reg = krping_reg(c, b, access, &ret);
	if (!ret)
		ret = krping_post_send(c, reg, b, false);
	if (!ret)
		ret = krping_wait(c, &c->sends, n);
	return ret ?: krping_take_info(c, n, &addr, &rkey, &len);
}

static int krping_ping_check(struct krping_conn *c, u64 iter)
{
	struct krping_test *t = c->t;

	if (t->o.verbose)
		pr_info("oib_krping: test %d: ping data: %.*s\n", t->id, (int)t->o.size - 1,
			(char *)c->rdma.va);
	if (!t->o.validate || !memcmp(c->start.va, c->rdma.va, t->o.size))
		return 0;
	pr_info("oib_krping: test %d: iteration %llu: data mismatch\n", t->id, iter);
	return -EBADMSG;
}

int krping_ping_client(struct krping_conn *c)
{
	struct krping_test *t = c->t;
	u64 t1;
	int ret = 0;

	t->t0 = ktime_get_ns();
	while (!t->o.count || t->iters < t->o.count) {
		if (kthread_should_stop()) {
			ret = -EINTR;
			break;
		}
		t1 = ktime_get_ns();
		krping_fill(c->start.va, t->o.size, t->iters);
		ret = krping_ping_offer(c, &c->start, OIB_ACCESS_REMOTE_READ, 2 * t->iters + 1);
		if (!ret)
			ret = krping_ping_offer(c, &c->rdma, OIB_ACCESS_LOCAL_WRITE |
						OIB_ACCESS_REMOTE_WRITE, 2 * t->iters + 2);
		if (!ret)
			ret = krping_ping_check(c, t->iters);
		t->ns = ktime_get_ns() - t->t0;
		if (ret)
			break;
		krping_rtt(t, ktime_get_ns() - t1);
		t->iters++;
		t->bytes += 2 * t->o.size;
	}
	return ret;
}
