// SPDX-License-Identifier: GPL-2.0-only
/* The raw TCP peer: see raw_peer.h. */
#include <linux/crc32.h>
#include <linux/in.h>
#include <linux/unaligned.h>
#include <linux/tcp.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include "oib_toolkit_siw.h"
#include "raw_peer.h"

static void siwt_raw_put(void *sock)
{
	sock_release(sock);
}

static struct socket *siwt_raw_new(struct kunit *test, struct socket *sock)
{
	sock->sk->sk_rcvtimeo = msecs_to_jiffies(OIB_TEST_WAIT_MS);
	sock->sk->sk_sndtimeo = msecs_to_jiffies(OIB_TEST_WAIT_MS);
	tcp_sock_set_nodelay(sock->sk);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, siwt_raw_put, sock));
	return sock;
}

static void siwt_sin(struct sockaddr_in *sin, u8 host, u16 port)
{
	*sin = (struct sockaddr_in){ .sin_family = AF_INET, .sin_port = htons(port),
				     .sin_addr.s_addr = htonl(0x0a000000 | host) };
}

struct socket *siwt_raw_dial(struct kunit *test, u8 host, u16 port)
{
	struct sockaddr_in dst;
	struct socket *sock;

	siwt_sin(&dst, host, port);
	KUNIT_ASSERT_EQ(test, 0, sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP,
						  &sock));
	siwt_raw_new(test, sock);
	KUNIT_ASSERT_EQ(test, 0, kernel_connect(sock, (struct sockaddr *)&dst, sizeof(dst), 0));
	return sock;
}

struct socket *siwt_raw_listen(struct kunit *test, u8 host, u16 port)
{
	struct sockaddr_in addr;
	struct socket *sock;

	siwt_sin(&addr, host, port);
	KUNIT_ASSERT_EQ(test, 0, sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP,
						  &sock));
	siwt_raw_new(test, sock);
	sock_set_reuseaddr(sock->sk);
	KUNIT_ASSERT_EQ(test, 0, kernel_bind(sock, (struct sockaddr *)&addr, sizeof(addr)));
	KUNIT_ASSERT_EQ(test, 0, kernel_listen(sock, 4));
	return sock;
}

struct socket *siwt_raw_accept(struct kunit *test, struct socket *l)
{
	struct socket *sock;

	KUNIT_ASSERT_EQ(test, 0, kernel_accept(l, &sock, 0));
	return siwt_raw_new(test, sock);
}

void siwt_raw_release(struct kunit *test, struct socket *sock)
{
	kunit_release_action(test, siwt_raw_put, sock);
}

int siwt_raw_send(struct socket *sock, const void *buf, size_t len)
{
	struct kvec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
	int ret = kernel_sendmsg(sock, &msg, &iov, 1, len);

	return ret == len ? 0 : ret < 0 ? ret : -EIO;
}

int siwt_raw_recv(struct socket *sock, void *buf, size_t len)
{
	struct kvec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {};
	int ret = kernel_recvmsg(sock, &msg, &iov, 1, len, MSG_WAITALL);

	return ret == len ? 0 : ret < 0 ? ret : -ECONNRESET;
}

size_t siwt_mpa_frame(u8 *buf, bool reply, u16 bits, u8 rev, int ird, int ord, u8 pd_len)
{
	size_t words = ird == SIWT_NO_IRD ? 0 : 4;

	memcpy(buf, reply ? "MPA ID Rep Frame" : "MPA ID Req Frame", 16);
	put_unaligned_be16(bits | rev, buf + 16);
	put_unaligned_be16(words + pd_len, buf + 18);
	if (words) {
		put_unaligned_be16(ird, buf + SIWT_MPA_HDR);
		put_unaligned_be16(ord, buf + SIWT_MPA_HDR + 2);
	}
	memset(buf + SIWT_MPA_HDR + words, 0x5a, pd_len);
	return SIWT_MPA_HDR + words + pd_len;
}

int siwt_mpa_read(struct kunit *test, struct socket *sock, u8 *buf)
{
	u16 len;

	KUNIT_ASSERT_EQ(test, 0, siwt_raw_recv(sock, buf, SIWT_MPA_HDR));
	len = get_unaligned_be16(buf + 18);
	KUNIT_ASSERT_LE(test, len, 256);
	if (len)
		KUNIT_ASSERT_EQ(test, 0, siwt_raw_recv(sock, buf + SIWT_MPA_HDR, len));
	return SIWT_MPA_HDR + len;
}

u16 siwt_mpa_word(const u8 *buf, int which)
{
	return get_unaligned_be16(buf + SIWT_MPA_HDR + 2 * which);
}

size_t siwt_send_fpdu(u8 *buf, u32 msn, u8 fill, u16 len, bool crc)
{
	size_t n = SIWT_SEND_HDR + len;
	u32 c = 0;

	put_unaligned_be16(SIWT_SEND_HDR - 2 + len, buf);	/* the ULPDU: all but itself */
	buf[2] = 0x41;			/* untagged, last, DDP version 1 */
	buf[3] = 0x43;			/* RDMAP version 1, SEND */
	memset(buf + 4, 0, 8);		/* invalidate STag, QN 0 */
	put_unaligned_be32(msn, buf + 12);
	memset(buf + 16, 0, 4);		/* MO */
	memset(buf + SIWT_SEND_HDR, fill, len);
	while (n % 4)			/* pad */
		buf[n++] = 0;
	if (crc)
		c = ~__crc32c_le(~0U, buf, n);
	put_unaligned_le32(c, buf + n);
	return n + 4;
}

/* ---- The peer of an oib_siw end ---- */

void siwt_raw_listener(struct kunit *test, struct siwt_raw *r, u8 our_ird, u8 our_ord)
{
	struct sockaddr_storage laddr;

	r->ctx = cmat_ctx_of(test, &cmat_siw);
	cmat_addr(&laddr, false, 2, CMAT_PORT);
	r->l = cmat_listen(r->ctx, &r->ctx->b, &laddr, CMAT_ACCEPT);
	r->l->pdata_len = 7;
	r->l->ird = our_ird;
	r->l->ord = our_ord;
	r->n = 0;
}

void siwt_raw_request(struct kunit *test, struct siwt_raw *r, u16 bits, u8 rev, int ird, int ord,
		      u8 pd_len)
{
	u8 req[SIWT_MPA_HDR + 256];

	r->sock = siwt_raw_dial(test, 2, CMAT_PORT);
	KUNIT_ASSERT_EQ(test, 0, siwt_raw_send(r->sock, req, siwt_mpa_frame(req, false, bits, rev,
									    ird, ord, pd_len)));
	r->frame_len = siwt_mpa_read(test, r->sock, r->frame);
	KUNIT_ASSERT_EQ(test, 0, memcmp(r->frame, "MPA ID Rep Frame", 16));
	r->rec = cmat_spawned(r->l, r->n++);
	KUNIT_ASSERT_NOT_NULL(test, r->rec);
	KUNIT_ASSERT_TRUE(test, cmat_wait(r->rec, OIB_CMA_EVENT_ESTABLISHED, 1));
}

void siwt_raw_initiates(struct kunit *test, struct siwt_raw *r, u16 bits, u8 rev, int ird,
			int ord, u8 pd_len, u8 our_ird, u8 our_ord)
{
	siwt_raw_listener(test, r, our_ird, our_ord);
	siwt_raw_request(test, r, bits, rev, ird, ord, pd_len);
}

void siwt_raw_responds(struct kunit *test, struct siwt_raw *r, u16 bits, u8 rev, int ird,
		       int ord, u8 pd_len, u8 our_ird, u8 our_ord)
{
	struct sockaddr_storage dst;
	struct socket *l;
	u8 rep[SIWT_MPA_HDR + 256];

	r->ctx = cmat_ctx_of(test, &cmat_siw);
	l = siwt_raw_listen(test, 2, SIWT_RAW_PORT);
	cmat_addr(&dst, false, 2, SIWT_RAW_PORT);
	r->rec = cmat_id(r->ctx, &r->ctx->a, OIB_PS_TCP);
	r->rec->auto_connect = true;
	r->rec->pdata_len = 9;
	r->rec->ird = our_ird;
	r->rec->ord = our_ord;
	KUNIT_ASSERT_EQ(test, 0, oib_cma_resolve_addr(r->rec->id, NULL,
						      (struct sockaddr *)&dst, 2000));
	r->sock = siwt_raw_accept(test, l);
	r->frame_len = siwt_mpa_read(test, r->sock, r->frame);
	KUNIT_ASSERT_EQ(test, 0, memcmp(r->frame, "MPA ID Req Frame", 16));
	KUNIT_ASSERT_EQ(test, 0, siwt_raw_send(r->sock, rep, siwt_mpa_frame(rep, true, bits, rev,
									    ird, ord, pd_len)));
	KUNIT_ASSERT_TRUE(test, cmat_wait(r->rec, OIB_CMA_EVENT_ESTABLISHED, 1));
}

u16 siwt_bits(const struct siwt_raw *r)
{
	return get_unaligned_be16(r->frame + 16);
}
