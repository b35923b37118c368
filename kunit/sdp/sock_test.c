// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of oib_sdp's sockets, as kernel sockets between two oib_rxe devices (10.0.0.1,
 * fd00::1 and 10.0.0.2, fd00::2): a stream of 1 MiB both ways with its bytes checked while the
 * credits run out and come back, short reads, EOF after shutdown, the addresses; ECONNREFUSED
 * with no listener; a non-blocking connect (EINPROGRESS, then connected), MSG_DONTWAIT (EAGAIN),
 * MSG_PEEK; close with unread data (the peer's ECONNRESET); a listener closed with a connection
 * it did not accept (the client's ECONNRESET).
 */
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/poll.h>
#include <linux/vmalloc.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <oib/sdp.h>
#include "oib_toolkit_cma.h"

#define SOCKT_PORT	7176
#define SOCKT_LEN	(1024 * 1024)

struct sockt_pair {
	struct socket *srv, *cli, *acc;
	struct sockaddr_storage addr;
};

static u8 sockt_byte(size_t i)
{
	return (u8)(i * 7 + (i >> 11));
}

static int sockt_socket(struct kunit *test, bool v6, struct socket **s)
{
	return sock_create_kern(&init_net, v6 ? OIB_AF_INET6_SDP : OIB_AF_INET_SDP, SOCK_STREAM,
				0, s);
}

static void sockt_release(void *p)
{
	struct sockt_pair *sp = p;

	if (sp->acc)
		sock_release(sp->acc);
	if (sp->cli)
		sock_release(sp->cli);
	if (sp->srv)
		sock_release(sp->srv);
}

/* A listener on b's address, a client of a's connected to it, the accepted socket. */
static struct sockt_pair *sockt_connect(struct kunit *test, bool v6, u16 port)
{
	struct sockt_pair *sp = kunit_kzalloc(test, sizeof(*sp), GFP_KERNEL);
	int len = v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);

	KUNIT_ASSERT_NOT_NULL(test, sp);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sockt_release, sp), 0);
	cmat_addr(&sp->addr, v6, 2, port);
	KUNIT_ASSERT_EQ(test, sockt_socket(test, v6, &sp->srv), 0);
	KUNIT_ASSERT_EQ(test, kernel_bind(sp->srv, (struct sockaddr *)&sp->addr, len), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(sp->srv, 4), 0);
	KUNIT_ASSERT_EQ(test, sockt_socket(test, v6, &sp->cli), 0);
	KUNIT_ASSERT_EQ(test, kernel_connect(sp->cli, (struct sockaddr *)&sp->addr, len, 0), 0);
	KUNIT_ASSERT_EQ(test, kernel_accept(sp->srv, &sp->acc, 0), 0);
	sp->cli->sk->sk_rcvtimeo = 20 * HZ;	/* a hang fails the case, not the run */
	sp->acc->sk->sk_rcvtimeo = 20 * HZ;
	return sp;
}

static int sockt_send(struct socket *s, const u8 *buf, size_t len, int flags)
{
	struct msghdr msg = { .msg_flags = flags | MSG_NOSIGNAL };
	struct kvec iov = { .iov_base = (void *)buf, .iov_len = len };

	return kernel_sendmsg(s, &msg, &iov, 1, len);
}

static int sockt_recv(struct socket *s, u8 *buf, size_t len, int flags)
{
	struct msghdr msg = {};
	struct kvec iov = { .iov_base = buf, .iov_len = len };

	return kernel_recvmsg(s, &msg, &iov, 1, len, flags);
}

struct sockt_sender {
	struct socket *s;
	u8 *buf;
	size_t len;
	int ret;
	struct completion done;
};

static int sockt_send_all(void *arg)
{
	struct sockt_sender *snd = arg;
	size_t off = 0;
	int n = 0;

	while (off < snd->len) {
		n = sockt_send(snd->s, snd->buf + off, min_t(size_t, snd->len - off, 100000), 0);
		if (n <= 0)
			break;
		off += n;
	}
	snd->ret = off == snd->len ? 0 : n;
	complete(&snd->done);
	return 0;
}

/* SOCKT_LEN bytes from @from to @to, sent by a thread while this one reads in odd pieces. */
static void sockt_stream(struct kunit *test, struct socket *from, struct socket *to)
{
	struct sockt_sender snd = { .s = from, .len = SOCKT_LEN };
	u8 *in = vmalloc(SOCKT_LEN);
	struct task_struct *t;
	size_t got = 0, i;
	int n = 0;

	snd.buf = vmalloc(SOCKT_LEN);
	KUNIT_ASSERT_TRUE(test, in && snd.buf);
	for (i = 0; i < SOCKT_LEN; i++)
		snd.buf[i] = sockt_byte(i);
	init_completion(&snd.done);
	t = kthread_run(sockt_send_all, &snd, "sockt_send");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	while (got < SOCKT_LEN) {
		n = sockt_recv(to, in + got, min_t(size_t, SOCKT_LEN - got, 1 + got % 9000), 0);
		if (n <= 0)
			break;
		got += n;
	}
	wait_for_completion(&snd.done);
	KUNIT_EXPECT_EQ(test, snd.ret, 0);
	KUNIT_EXPECT_EQ(test, got, SOCKT_LEN);
	KUNIT_EXPECT_EQ(test, memcmp(in, snd.buf, SOCKT_LEN), 0);
	vfree(in);
	vfree(snd.buf);
}

static void sock_test_stream(struct kunit *test)
{
	bool v6 = *(const bool *)test->param_value;
	struct sockaddr_storage ss;
	struct sockt_pair *sp;
	unsigned long t0;
	u8 buf[16];

	cmat_ctx(test);
	sp = sockt_connect(test, v6, SOCKT_PORT);
	sockt_stream(test, sp->cli, sp->acc);
	sockt_stream(test, sp->acc, sp->cli);

	/* the addresses: the server's as bound, the client's its peer's */
	KUNIT_ASSERT_GT(test, kernel_getpeername(sp->cli, (struct sockaddr *)&ss), 0);
	KUNIT_EXPECT_EQ(test, ss.ss_family, v6 ? AF_INET6 : AF_INET);
	KUNIT_EXPECT_EQ(test, ((struct sockaddr_in *)&ss)->sin_port, htons(SOCKT_PORT));
	KUNIT_ASSERT_GT(test, kernel_getsockname(sp->acc, (struct sockaddr *)&ss), 0);
	KUNIT_EXPECT_EQ(test, ((struct sockaddr_in *)&ss)->sin_port, htons(SOCKT_PORT));

	/* half close: EOF one way, the other still goes */
	KUNIT_ASSERT_EQ(test, kernel_sock_shutdown(sp->cli, SHUT_WR), 0);
	KUNIT_EXPECT_EQ(test, sockt_recv(sp->acc, buf, sizeof(buf), 0), 0);
	KUNIT_EXPECT_EQ(test, sockt_send(sp->cli, buf, 1, 0), -EPIPE);
	KUNIT_EXPECT_EQ(test, sockt_send(sp->acc, (const u8 *)"bye", 3, 0), 3);
	t0 = jiffies;		/* MSG_WAITALL returns once it has all, not at its timeout */
	KUNIT_EXPECT_EQ(test, sockt_recv(sp->cli, buf, 3, MSG_WAITALL), 3);
	KUNIT_EXPECT_LT(test, jiffies - t0, 10UL * HZ);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "bye", 3), 0);
	sock_release(sp->acc);
	sp->acc = NULL;
	KUNIT_EXPECT_EQ(test, sockt_recv(sp->cli, buf, sizeof(buf), 0), 0);
}

static void sock_test_refused(struct kunit *test)
{
	struct sockaddr_storage ss;
	struct socket *s;

	cmat_ctx(test);
	cmat_addr(&ss, false, 2, SOCKT_PORT + 1);
	KUNIT_ASSERT_EQ(test, sockt_socket(test, false, &s), 0);
	KUNIT_EXPECT_EQ(test, kernel_connect(s, (struct sockaddr *)&ss, sizeof(struct sockaddr_in),
					     0), -ECONNREFUSED);
	sock_release(s);
	KUNIT_EXPECT_EQ(test, sock_create_kern(&init_net, OIB_AF_INET_SDP, SOCK_DGRAM, 0, &s),
			-ESOCKTNOSUPPORT);
}

/* A non-blocking connect's end: connect() again says -EISCONN. */
static bool sockt_connected(struct socket *s, struct sockaddr_storage *ss, int len)
{
	return oib_test_wait_for(kernel_connect(s, (struct sockaddr *)ss, len, O_NONBLOCK) ==
				 -EISCONN);
}

static void sock_test_nonblocking(struct kunit *test)
{
	struct sockt_pair *sp = kunit_kzalloc(test, sizeof(*sp), GFP_KERNEL);
	int len = sizeof(struct sockaddr_in);
	u8 buf[8];

	KUNIT_ASSERT_NOT_NULL(test, sp);
	cmat_ctx(test);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sockt_release, sp), 0);
	cmat_addr(&sp->addr, false, 2, SOCKT_PORT + 2);
	KUNIT_ASSERT_EQ(test, sockt_socket(test, false, &sp->srv), 0);
	KUNIT_ASSERT_EQ(test, kernel_bind(sp->srv, (struct sockaddr *)&sp->addr, len), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(sp->srv, 4), 0);
	KUNIT_EXPECT_EQ(test, kernel_accept(sp->srv, &sp->acc, O_NONBLOCK), -EAGAIN);
	KUNIT_ASSERT_EQ(test, sockt_socket(test, false, &sp->cli), 0);
	KUNIT_ASSERT_EQ(test, kernel_connect(sp->cli, (struct sockaddr *)&sp->addr, len,
					     O_NONBLOCK), -EINPROGRESS);
	KUNIT_EXPECT_TRUE(test, sockt_connected(sp->cli, &sp->addr, len));
	KUNIT_ASSERT_EQ(test, kernel_accept(sp->srv, &sp->acc, 0), 0);
	KUNIT_EXPECT_EQ(test, sockt_recv(sp->acc, buf, 1, MSG_DONTWAIT), -EAGAIN);
	KUNIT_EXPECT_EQ(test, sockt_send(sp->cli, (const u8 *)"abcdefgh", 8, 0), 8);
	KUNIT_EXPECT_EQ(test, sockt_recv(sp->acc, buf, 3, MSG_PEEK), 3);
	KUNIT_EXPECT_EQ(test, sockt_recv(sp->acc, buf, 3, 0), 3);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "abc", 3), 0);
	/* closed with 5 bytes unread: an abort, which the peer sees as a reset */
	sock_release(sp->acc);
	sp->acc = NULL;
	KUNIT_EXPECT_EQ(test, sockt_recv(sp->cli, buf, 1, 0), -ECONNRESET);
}

/* A listener closed with a connection it did not accept: the client sees the reset. */
static void sock_test_listener_close(struct kunit *test)
{
	struct sockt_pair *sp = kunit_kzalloc(test, sizeof(*sp), GFP_KERNEL);
	int len = sizeof(struct sockaddr_in);
	u8 buf[4];

	KUNIT_ASSERT_NOT_NULL(test, sp);
	cmat_ctx(test);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, sockt_release, sp), 0);
	cmat_addr(&sp->addr, false, 2, SOCKT_PORT + 3);
	KUNIT_ASSERT_EQ(test, sockt_socket(test, false, &sp->srv), 0);
	KUNIT_ASSERT_EQ(test, kernel_bind(sp->srv, (struct sockaddr *)&sp->addr, len), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(sp->srv, 1), 0);
	KUNIT_ASSERT_EQ(test, sockt_socket(test, false, &sp->cli), 0);
	sp->cli->sk->sk_rcvtimeo = 20 * HZ;
	KUNIT_ASSERT_EQ(test, kernel_connect(sp->cli, (struct sockaddr *)&sp->addr, len, 0), 0);
	/* the listener polls readable once the connection may be accepted */
	KUNIT_EXPECT_TRUE(test, oib_test_wait_for(sp->srv->ops->poll(NULL, sp->srv, NULL) &
						  EPOLLIN));
	sock_release(sp->srv);
	sp->srv = NULL;
	KUNIT_EXPECT_EQ(test, sockt_recv(sp->cli, buf, sizeof(buf), 0), -ECONNRESET);
	KUNIT_EXPECT_EQ(test, sockt_recv(sp->cli, buf, sizeof(buf), 0), 0);
}

static const bool sock_test_v6[] = { false, true };

static void sock_test_v6_desc(const bool *v6, char *desc)
{
	strscpy(desc, *v6 ? "ipv6" : "ipv4", KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sock_test_ip, sock_test_v6, sock_test_v6_desc);

static struct kunit_case sock_test_cases[] = {
	KUNIT_CASE_PARAM(sock_test_stream, sock_test_ip_gen_params),
	KUNIT_CASE(sock_test_refused),
	KUNIT_CASE(sock_test_nonblocking),
	KUNIT_CASE(sock_test_listener_close),
	{}
};

static struct kunit_suite sock_test_suite = {
	.name = "oib_sdp_sock",
	.test_cases = sock_test_cases,
};

kunit_test_suite(sock_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of oib_sdp's sockets");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
