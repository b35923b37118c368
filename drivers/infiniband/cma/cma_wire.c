// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the RDMA CM adds to the IB CM's wire: the service ID of a port space's port, and the
 * 36-byte header in front of the private data of every REQ and SIDR_REQ:
 *   0 version (0) · 1 IP version << 4 · 2-3 the active side's port · 4-19 its address ·
 *   20-35 the destination address; an IPv4 address is 12 zero bytes and its 4 bytes.
 * The SDP port space has no such header: the same facts are in its Hello, which fills the REQ's
 * private data (include/oib/sdp.h): 0 message ID (0) · 17 IP version << 4 · 28-29 the active
 * side's port · 32-47 its address · 48-63 the destination address.
 */
#include <linux/build_bug.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include "cma_priv.h"

#define CMA_HDR_VERSION	0

struct cma_wire_hdr {
	u8 version;
	u8 ip_version;		/* 4 or 6, in the high nibble */
	__be16 src_port;
	u8 src[16];
	u8 dst[16];
} __packed;

static_assert(sizeof(struct cma_wire_hdr) == OIB_CMA_HDR_SIZE);

u64 cma_service_id(enum oib_cma_port_space ps, u16 port)
{
	return (u64)ps << 16 | port;
}

static void cma_hdr_put_addr(u8 *p, const struct sockaddr *sa)
{
	memset(p, 0, 16);
	if (sa->sa_family == AF_INET)
		memcpy(p + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	else
		memcpy(p, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
}

void cma_hdr_pack(u8 *buf, const struct sockaddr *src, const struct sockaddr *dst)
{
	struct cma_wire_hdr *h = (struct cma_wire_hdr *)buf;

	h->version = CMA_HDR_VERSION;
	h->ip_version = (src->sa_family == AF_INET ? 4 : 6) << 4;
	h->src_port = htons(cma_addr_port(src));
	cma_hdr_put_addr(h->src, src);
	cma_hdr_put_addr(h->dst, dst);
}

static void cma_hdr_get_addr(struct sockaddr_storage *ss, int ipver, const u8 *p, u16 port)
{
	memset(ss, 0, sizeof(*ss));
	if (ipver == 4) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, p + 12, 4);
		sin->sin_port = htons(port);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, p, 16);
		sin6->sin6_port = htons(port);
	}
}

/*
 * The addresses of the header in @buf: -EPROTO for a short one, another version or IP version.
 * The destination's port is not in the header: the caller takes it from the service ID.
 */
int cma_hdr_parse(const u8 *buf, size_t len, struct cma_hdr_info *info)
{
	const struct cma_wire_hdr *h = (const struct cma_wire_hdr *)buf;
	int ipver;

	if (len < OIB_CMA_HDR_SIZE || h->version != CMA_HDR_VERSION)
		return -EPROTO;
	ipver = h->ip_version >> 4;
	if (ipver != 4 && ipver != 6)
		return -EPROTO;
	if (ipver == 4 && (memchr_inv(h->src, 0, 12) || memchr_inv(h->dst, 0, 12)))
		return -EPROTO;
	cma_hdr_get_addr(&info->src, ipver, h->src, ntohs(h->src_port));
	cma_hdr_get_addr(&info->dst, ipver, h->dst, 0);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cma_hdr_parse);

#define CMA_SDP_HELLO_MID	0
#define CMA_SDP_IPV_OFF		17
#define CMA_SDP_PORT_OFF	28
#define CMA_SDP_SRC_OFF		32
#define CMA_SDP_DST_OFF		48

/* The addresses of an SDP Hello: -EPROTO for a short one, another message or IP version. */
int cma_sdp_hello_parse(const u8 *buf, size_t len, struct cma_hdr_info *info)
{
	const u8 *src = buf + CMA_SDP_SRC_OFF, *dst = buf + CMA_SDP_DST_OFF;
	int ipver;
	u16 port;

	if (len < CMA_SDP_DST_OFF + 16 || buf[0] != CMA_SDP_HELLO_MID)
		return -EPROTO;
	port = buf[CMA_SDP_PORT_OFF] << 8 | buf[CMA_SDP_PORT_OFF + 1];
	ipver = buf[CMA_SDP_IPV_OFF] >> 4;
	if (ipver != 4 && ipver != 6)
		return -EPROTO;
	if (ipver == 4 && (memchr_inv(src, 0, 12) || memchr_inv(dst, 0, 12)))
		return -EPROTO;
	cma_hdr_get_addr(&info->src, ipver, src, port);
	cma_hdr_get_addr(&info->dst, ipver, dst, 0);
	return 0;
}
