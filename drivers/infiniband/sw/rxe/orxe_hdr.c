// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib_rxe wire format: the opcode table, the frame builder and the frame parser.
 *
 * The parser trusts nothing in a frame: every length field is checked against the bytes that are
 * really there before anything behind it is read, and each refusal has its own reason, so that
 * drop counters say what arrived.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/checksum.h>
#include <net/ip6_checksum.h>
#include <kunit/visibility.h>
#include <oib/names.h>
#include "orxe_hdr.h"

/* ---- The opcode table ---- */

#define ORXE_H(e)	BIT(ORXE_EXT_##e)

/* What follows the BTH (12 bytes), in order, and where: the layouts the opcodes below use. */
#define ORXE_LAYOUT_BTH		.hdrs = 0, .hdr_len = 12
#define ORXE_LAYOUT_IMMDT	.hdrs = ORXE_H(IMMDT), .hdr_len = 16,			\
				.offset = { [ORXE_EXT_IMMDT] = 12 }
#define ORXE_LAYOUT_RETH		.hdrs = ORXE_H(RETH), .hdr_len = 28,			\
				.offset = { [ORXE_EXT_RETH] = 12 }
#define ORXE_LAYOUT_RETH_IMMDT	.hdrs = ORXE_H(RETH) | ORXE_H(IMMDT), .hdr_len = 32,	\
				.offset = { [ORXE_EXT_RETH] = 12, [ORXE_EXT_IMMDT] = 28 }
#define ORXE_LAYOUT_AETH		.hdrs = ORXE_H(AETH), .hdr_len = 16,			\
				.offset = { [ORXE_EXT_AETH] = 12 }
#define ORXE_LAYOUT_AETH_ATMACK	.hdrs = ORXE_H(AETH) | ORXE_H(ATMACK), .hdr_len = 24,	\
				.offset = { [ORXE_EXT_AETH] = 12, [ORXE_EXT_ATMACK] = 16 }
#define ORXE_LAYOUT_ATMETH	.hdrs = ORXE_H(ATMETH), .hdr_len = 40,			\
				.offset = { [ORXE_EXT_ATMETH] = 12 }
#define ORXE_LAYOUT_IETH		.hdrs = ORXE_H(IETH), .hdr_len = 16,			\
				.offset = { [ORXE_EXT_IETH] = 12 }
#define ORXE_LAYOUT_DETH		.hdrs = ORXE_H(DETH), .hdr_len = 20,			\
				.offset = { [ORXE_EXT_DETH] = 12 }
#define ORXE_LAYOUT_DETH_IMMDT	.hdrs = ORXE_H(DETH) | ORXE_H(IMMDT), .hdr_len = 24,	\
				.offset = { [ORXE_EXT_DETH] = 12, [ORXE_EXT_IMMDT] = 20 }
/* XRC requests: the XRCETH right after the BTH, then what the RC twin carries. */
#define ORXE_LAYOUT_X		.hdrs = ORXE_H(XRCETH), .hdr_len = 16,			\
				.offset = { [ORXE_EXT_XRCETH] = 12 }
#define ORXE_LAYOUT_X_IMMDT	.hdrs = ORXE_H(XRCETH) | ORXE_H(IMMDT), .hdr_len = 20,	\
				.offset = { [ORXE_EXT_XRCETH] = 12, [ORXE_EXT_IMMDT] = 16 }
#define ORXE_LAYOUT_X_RETH	.hdrs = ORXE_H(XRCETH) | ORXE_H(RETH), .hdr_len = 32,	\
				.offset = { [ORXE_EXT_XRCETH] = 12, [ORXE_EXT_RETH] = 16 }
#define ORXE_LAYOUT_X_RETH_IMMDT	.hdrs = ORXE_H(XRCETH) | ORXE_H(RETH) | ORXE_H(IMMDT),	\
				.hdr_len = 36,						\
				.offset = { [ORXE_EXT_XRCETH] = 12, [ORXE_EXT_RETH] = 16,	\
					    [ORXE_EXT_IMMDT] = 32 }
#define ORXE_LAYOUT_X_ATMETH	.hdrs = ORXE_H(XRCETH) | ORXE_H(ATMETH), .hdr_len = 44,	\
				.offset = { [ORXE_EXT_XRCETH] = 12, [ORXE_EXT_ATMETH] = 16 }
#define ORXE_LAYOUT_X_IETH	.hdrs = ORXE_H(XRCETH) | ORXE_H(IETH), .hdr_len = 20,	\
				.offset = { [ORXE_EXT_XRCETH] = 12, [ORXE_EXT_IETH] = 16 }

#define ORXE_OP(op, layout, f)		\
	[ORXE_##op] = {			\
		.name = #op,		\
		.flags = (f),		\
		ORXE_LAYOUT_##layout,	\
	}

#define ORXE_FIRST	ORXE_OPF_FIRST
#define ORXE_MIDDLE	ORXE_OPF_MIDDLE
#define ORXE_LAST	ORXE_OPF_LAST
#define ORXE_ONLY	(ORXE_OPF_FIRST | ORXE_OPF_LAST)
#define ORXE_IMM		ORXE_OPF_IMM
#define ORXE_INV		ORXE_OPF_INV
#define ORXE_SEND	(ORXE_OPF_REQ | ORXE_OPF_SEND | ORXE_OPF_PAYLOAD | ORXE_OPF_RECV)
#define ORXE_WRITE	(ORXE_OPF_REQ | ORXE_OPF_WRITE | ORXE_OPF_PAYLOAD)
#define ORXE_WRITE_IMM	(ORXE_WRITE | ORXE_OPF_IMM | ORXE_OPF_RECV)
#define ORXE_READ_RESP	(ORXE_OPF_RESP | ORXE_OPF_READ | ORXE_OPF_PAYLOAD)
#define ORXE_ATOMIC	(ORXE_OPF_REQ | ORXE_OPF_ATOMIC | ORXE_ONLY)
#define ORXE_ACKED	ORXE_OPF_ACKED

/* Indexed by opcode; entries without a name are opcodes oib_rxe does not speak. */
static const struct orxe_opcode_info orxe_opcodes[256] = {
	ORXE_OP(RC_SEND_FIRST, BTH, ORXE_SEND | ORXE_FIRST | ORXE_ACKED),
	ORXE_OP(RC_SEND_MIDDLE, BTH, ORXE_SEND | ORXE_MIDDLE | ORXE_ACKED),
	ORXE_OP(RC_SEND_LAST, BTH, ORXE_SEND | ORXE_LAST | ORXE_ACKED),
	ORXE_OP(RC_SEND_LAST_WITH_IMMEDIATE, IMMDT, ORXE_SEND | ORXE_IMM | ORXE_LAST | ORXE_ACKED),
	ORXE_OP(RC_SEND_ONLY, BTH, ORXE_SEND | ORXE_ONLY | ORXE_ACKED),
	ORXE_OP(RC_SEND_ONLY_WITH_IMMEDIATE, IMMDT, ORXE_SEND | ORXE_IMM | ORXE_ONLY | ORXE_ACKED),
	ORXE_OP(RC_RDMA_WRITE_FIRST, RETH, ORXE_WRITE | ORXE_FIRST | ORXE_ACKED),
	ORXE_OP(RC_RDMA_WRITE_MIDDLE, BTH, ORXE_WRITE | ORXE_MIDDLE | ORXE_ACKED),
	ORXE_OP(RC_RDMA_WRITE_LAST, BTH, ORXE_WRITE | ORXE_LAST | ORXE_ACKED),
	ORXE_OP(RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, IMMDT, ORXE_WRITE_IMM | ORXE_LAST | ORXE_ACKED),
	ORXE_OP(RC_RDMA_WRITE_ONLY, RETH, ORXE_WRITE | ORXE_ONLY | ORXE_ACKED),
	ORXE_OP(RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, RETH_IMMDT,
		ORXE_WRITE_IMM | ORXE_ONLY | ORXE_ACKED),
	ORXE_OP(RC_RDMA_READ_REQUEST, RETH, ORXE_OPF_REQ | ORXE_OPF_READ | ORXE_ONLY | ORXE_ACKED),
	ORXE_OP(RC_RDMA_READ_RESPONSE_FIRST, AETH, ORXE_READ_RESP | ORXE_FIRST),
	ORXE_OP(RC_RDMA_READ_RESPONSE_MIDDLE, BTH, ORXE_READ_RESP | ORXE_MIDDLE),
	ORXE_OP(RC_RDMA_READ_RESPONSE_LAST, AETH, ORXE_READ_RESP | ORXE_LAST),
	ORXE_OP(RC_RDMA_READ_RESPONSE_ONLY, AETH, ORXE_READ_RESP | ORXE_ONLY),
	ORXE_OP(RC_ACKNOWLEDGE, AETH, ORXE_OPF_RESP | ORXE_ONLY),
	ORXE_OP(RC_ATOMIC_ACKNOWLEDGE, AETH_ATMACK, ORXE_OPF_RESP | ORXE_OPF_ATOMIC | ORXE_ONLY),
	ORXE_OP(RC_COMPARE_SWAP, ATMETH, ORXE_ATOMIC | ORXE_ACKED),
	ORXE_OP(RC_FETCH_ADD, ATMETH, ORXE_ATOMIC | ORXE_ACKED),
	ORXE_OP(RC_SEND_LAST_WITH_INVALIDATE, IETH, ORXE_SEND | ORXE_INV | ORXE_LAST | ORXE_ACKED),
	ORXE_OP(RC_SEND_ONLY_WITH_INVALIDATE, IETH, ORXE_SEND | ORXE_INV | ORXE_ONLY | ORXE_ACKED),

	ORXE_OP(UC_SEND_FIRST, BTH, ORXE_SEND | ORXE_FIRST),
	ORXE_OP(UC_SEND_MIDDLE, BTH, ORXE_SEND | ORXE_MIDDLE),
	ORXE_OP(UC_SEND_LAST, BTH, ORXE_SEND | ORXE_LAST),
	ORXE_OP(UC_SEND_LAST_WITH_IMMEDIATE, IMMDT, ORXE_SEND | ORXE_IMM | ORXE_LAST),
	ORXE_OP(UC_SEND_ONLY, BTH, ORXE_SEND | ORXE_ONLY),
	ORXE_OP(UC_SEND_ONLY_WITH_IMMEDIATE, IMMDT, ORXE_SEND | ORXE_IMM | ORXE_ONLY),
	ORXE_OP(UC_RDMA_WRITE_FIRST, RETH, ORXE_WRITE | ORXE_FIRST),
	ORXE_OP(UC_RDMA_WRITE_MIDDLE, BTH, ORXE_WRITE | ORXE_MIDDLE),
	ORXE_OP(UC_RDMA_WRITE_LAST, BTH, ORXE_WRITE | ORXE_LAST),
	ORXE_OP(UC_RDMA_WRITE_LAST_WITH_IMMEDIATE, IMMDT, ORXE_WRITE_IMM | ORXE_LAST),
	ORXE_OP(UC_RDMA_WRITE_ONLY, RETH, ORXE_WRITE | ORXE_ONLY),
	ORXE_OP(UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, RETH_IMMDT, ORXE_WRITE_IMM | ORXE_ONLY),

	ORXE_OP(XRC_SEND_FIRST, X, ORXE_SEND | ORXE_FIRST | ORXE_ACKED),
	ORXE_OP(XRC_SEND_MIDDLE, X, ORXE_SEND | ORXE_MIDDLE | ORXE_ACKED),
	ORXE_OP(XRC_SEND_LAST, X, ORXE_SEND | ORXE_LAST | ORXE_ACKED),
	ORXE_OP(XRC_SEND_LAST_WITH_IMMEDIATE, X_IMMDT,
		ORXE_SEND | ORXE_IMM | ORXE_LAST | ORXE_ACKED),
	ORXE_OP(XRC_SEND_ONLY, X, ORXE_SEND | ORXE_ONLY | ORXE_ACKED),
	ORXE_OP(XRC_SEND_ONLY_WITH_IMMEDIATE, X_IMMDT,
		ORXE_SEND | ORXE_IMM | ORXE_ONLY | ORXE_ACKED),
	ORXE_OP(XRC_RDMA_WRITE_FIRST, X_RETH, ORXE_WRITE | ORXE_FIRST | ORXE_ACKED),
	ORXE_OP(XRC_RDMA_WRITE_MIDDLE, X, ORXE_WRITE | ORXE_MIDDLE | ORXE_ACKED),
	ORXE_OP(XRC_RDMA_WRITE_LAST, X, ORXE_WRITE | ORXE_LAST | ORXE_ACKED),
	ORXE_OP(XRC_RDMA_WRITE_LAST_WITH_IMMEDIATE, X_IMMDT,
		ORXE_WRITE_IMM | ORXE_LAST | ORXE_ACKED),
	ORXE_OP(XRC_RDMA_WRITE_ONLY, X_RETH, ORXE_WRITE | ORXE_ONLY | ORXE_ACKED),
	ORXE_OP(XRC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, X_RETH_IMMDT,
		ORXE_WRITE_IMM | ORXE_ONLY | ORXE_ACKED),
	ORXE_OP(XRC_RDMA_READ_REQUEST, X_RETH,
		ORXE_OPF_REQ | ORXE_OPF_READ | ORXE_ONLY | ORXE_ACKED),
	ORXE_OP(XRC_RDMA_READ_RESPONSE_FIRST, AETH, ORXE_READ_RESP | ORXE_FIRST),
	ORXE_OP(XRC_RDMA_READ_RESPONSE_MIDDLE, BTH, ORXE_READ_RESP | ORXE_MIDDLE),
	ORXE_OP(XRC_RDMA_READ_RESPONSE_LAST, AETH, ORXE_READ_RESP | ORXE_LAST),
	ORXE_OP(XRC_RDMA_READ_RESPONSE_ONLY, AETH, ORXE_READ_RESP | ORXE_ONLY),
	ORXE_OP(XRC_ACKNOWLEDGE, AETH, ORXE_OPF_RESP | ORXE_ONLY),
	ORXE_OP(XRC_ATOMIC_ACKNOWLEDGE, AETH_ATMACK, ORXE_OPF_RESP | ORXE_OPF_ATOMIC | ORXE_ONLY),
	ORXE_OP(XRC_COMPARE_SWAP, X_ATMETH, ORXE_ATOMIC | ORXE_ACKED),
	ORXE_OP(XRC_FETCH_ADD, X_ATMETH, ORXE_ATOMIC | ORXE_ACKED),
	ORXE_OP(XRC_SEND_LAST_WITH_INVALIDATE, X_IETH,
		ORXE_SEND | ORXE_INV | ORXE_LAST | ORXE_ACKED),
	ORXE_OP(XRC_SEND_ONLY_WITH_INVALIDATE, X_IETH,
		ORXE_SEND | ORXE_INV | ORXE_ONLY | ORXE_ACKED),

	ORXE_OP(UD_SEND_ONLY, DETH, ORXE_SEND | ORXE_ONLY),
	ORXE_OP(UD_SEND_ONLY_WITH_IMMEDIATE, DETH_IMMDT, ORXE_SEND | ORXE_IMM | ORXE_ONLY),
};

const struct orxe_opcode_info *oib_rxe_opcode(u8 opcode)
{
	const struct orxe_opcode_info *info = &orxe_opcodes[opcode];

	return info->name ? info : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_opcode);

/* ---- Drop reasons ---- */

static const char * const orxe_drop_names[ORXE_NUM_DROP_REASONS] = {
	[ORXE_DROP_TOO_SHORT]		= "too_short",
	[ORXE_DROP_BAD_ETHERTYPE]	= "bad_ethertype",
	[ORXE_DROP_BAD_IP_VERSION]	= "bad_ip_version",
	[ORXE_DROP_BAD_IP_HDR_LEN]	= "bad_ip_hdr_len",
	[ORXE_DROP_BAD_IP_LEN]		= "bad_ip_len",
	[ORXE_DROP_IP_FRAGMENT]		= "ip_fragment",
	[ORXE_DROP_BAD_IP_CSUM]		= "bad_ip_csum",
	[ORXE_DROP_NOT_UDP]		= "not_udp",
	[ORXE_DROP_BAD_UDP_PORT]		= "bad_udp_port",
	[ORXE_DROP_BAD_UDP_LEN]		= "bad_udp_len",
	[ORXE_DROP_BAD_UDP_CSUM]		= "bad_udp_csum",
	[ORXE_DROP_SHORT_BTH]		= "short_bth",
	[ORXE_DROP_BAD_ICRC]		= "bad_icrc",
	[ORXE_DROP_BAD_TVER]		= "bad_tver",
	[ORXE_DROP_BAD_OPCODE]		= "bad_opcode",
	[ORXE_DROP_BAD_OPCODE_LEN]	= "bad_opcode_len",
	[ORXE_DROP_BAD_PAD]		= "bad_pad",
};

const char *oib_rxe_drop_reason_name(int reason)
{
	unsigned int r = reason < 0 ? -(unsigned int)reason : reason;

	return oib_enum_name(orxe_drop_names, r);
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_drop_reason_name);

/* ---- Building ---- */

#define ORXE_IPV6_FLOW_MASK	0xfffff

static u32 orxe_ip_hlen(bool ipv6)
{
	return ipv6 ? ORXE_IPV6_HLEN : ORXE_IPV4_HLEN;
}

/* Is @frame, one the builder made, IPv6?  The Ethernet header is all there is to go by. */
static bool orxe_frame_is_ipv6(const u8 *frame)
{
	return ((const struct ethhdr *)frame)->h_proto == htons(ETH_P_IPV6);
}

/* The ICRC sits 2 bytes off a word boundary, behind the 14-byte Ethernet header. */
static void orxe_put_icrc(u8 *p, u32 icrc)
{
	__le32 v = cpu_to_le32(icrc);

	memcpy(p, &v, sizeof(v));
}

static u32 orxe_get_icrc(const u8 *p)
{
	__le32 v;

	memcpy(&v, p, sizeof(v));
	return le32_to_cpu(v);
}

/*
 * The length of the frame @hdr describes, or -EINVAL if it describes none (unknown opcode, mixed
 * address families, a field out of range, payload the opcode cannot carry or, on a first or middle
 * packet, payload that is not whole words: those carry a full path MTU), or -EMSGSIZE if it does
 * not fit the 16-bit IP and UDP lengths.
 */
int orxe_frame_len(const struct orxe_tx_hdr *hdr)
{
	const struct orxe_opcode_info *info = oib_rxe_opcode(hdr->opcode);
	bool ipv6 = !orxe_gid_is_v4mapped(&hdr->dgid);
	u32 l4len;

	if (!info || orxe_gid_is_v4mapped(&hdr->sgid) == ipv6)
		return -EINVAL;
	if ((hdr->dest_qpn & ~ORXE_QPN_MASK) || (hdr->psn & ~ORXE_PSN_MASK) ||
	    (hdr->flow_label & ~ORXE_IPV6_FLOW_MASK))
		return -EINVAL;
	if ((info->hdrs & ORXE_H(DETH)) && (hdr->deth.src_qpn & ~ORXE_QPN_MASK))
		return -EINVAL;
	if ((info->hdrs & ORXE_H(XRCETH)) && (hdr->xrc_srqn & ~ORXE_QPN_MASK))
		return -EINVAL;
	if ((info->hdrs & ORXE_H(AETH)) && (hdr->aeth.msn & ~ORXE_MSN_MASK))
		return -EINVAL;
	if (hdr->paylen && !(info->flags & ORXE_OPF_PAYLOAD))
		return -EINVAL;
	if (!IS_ALIGNED(hdr->paylen, 4) && !(info->flags & ORXE_OPF_LAST))
		return -EINVAL;
	if (hdr->paylen > U16_MAX)
		return -EMSGSIZE;

	l4len = ORXE_UDP_HLEN + info->hdr_len + ALIGN(hdr->paylen, 4) + ORXE_ICRC_SIZE;
	/* IPv4's length counts its header, IPv6's does not. */
	if (l4len + (ipv6 ? 0 : ORXE_IPV4_HLEN) > U16_MAX)
		return -EMSGSIZE;
	return ETH_HLEN + orxe_ip_hlen(ipv6) + l4len;
}

/* Where the payload of a frame built from @hdr starts (valid once orxe_frame_len() accepted it). */
u32 orxe_frame_payload_offset(const struct orxe_tx_hdr *hdr)
{
	return ETH_HLEN + orxe_ip_hlen(!orxe_gid_is_v4mapped(&hdr->dgid)) + ORXE_UDP_HLEN +
	       oib_rxe_opcode(hdr->opcode)->hdr_len;
}

static void orxe_put_eth(struct ethhdr *eth, const struct orxe_tx_hdr *hdr, bool ipv6)
{
	memcpy(eth->h_dest, hdr->dmac, ETH_ALEN);
	memcpy(eth->h_source, hdr->smac, ETH_ALEN);
	eth->h_proto = htons(ipv6 ? ETH_P_IPV6 : ETH_P_IP);
}

/* IPv4 with DF set: RoCEv2 relies on path MTU, never on fragmentation.  ID 0 is fine with DF. */
static void orxe_put_ipv4(struct iphdr *iph, const struct orxe_tx_hdr *hdr, u32 l4len)
{
	iph->version = 4;
	iph->ihl = ORXE_IPV4_HLEN / 4;
	iph->tos = hdr->tos;
	iph->tot_len = htons(ORXE_IPV4_HLEN + l4len);
	iph->id = 0;
	iph->frag_off = htons(IP_DF);
	iph->ttl = hdr->hop_limit;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = hdr->sgid.in6.s6_addr32[3];
	iph->daddr = hdr->dgid.in6.s6_addr32[3];
	iph->check = 0;
	iph->check = ip_fast_csum(iph, iph->ihl);
}

static void orxe_put_ipv6(struct ipv6hdr *ip6h, const struct orxe_tx_hdr *hdr, u32 l4len)
{
	ip6h->version = 6;
	ip6h->priority = hdr->tos >> 4;
	ip6h->flow_lbl[0] = (hdr->tos & 0xf) << 4 | hdr->flow_label >> 16;
	ip6h->flow_lbl[1] = hdr->flow_label >> 8;
	ip6h->flow_lbl[2] = hdr->flow_label;
	ip6h->payload_len = htons(l4len);
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = hdr->hop_limit;
	memcpy(&ip6h->saddr, hdr->sgid.raw, sizeof(ip6h->saddr));
	memcpy(&ip6h->daddr, hdr->dgid.raw, sizeof(ip6h->daddr));
}

/* The UDP checksum stays 0 here: for IPv4 it stays so, for IPv6 oib_rxe_frame_seal() sets it. */
static void orxe_put_udp(struct udphdr *udph, const struct orxe_tx_hdr *hdr, u32 l4len)
{
	udph->source = htons(hdr->udp_sport);
	udph->dest = htons(ORXE_UDP_PORT);
	udph->len = htons(l4len);
	udph->check = 0;
}

static void orxe_put_bth(struct orxe_bth *bth, const struct orxe_tx_hdr *hdr, u8 pad)
{
	bth->opcode = hdr->opcode;
	bth->flags = (hdr->solicited ? ORXE_BTH_SE : 0) | (hdr->migreq ? ORXE_BTH_MIG : 0) |
		     pad << ORXE_BTH_PAD_SHIFT | ORXE_BTH_TVER;
	bth->pkey = cpu_to_be16(hdr->pkey);
	bth->qpn = cpu_to_be32(hdr->dest_qpn);
	bth->apsn = cpu_to_be32((hdr->ack_req ? ORXE_BTH_ACK_REQ : 0) | hdr->psn);
}

static void orxe_put_ext(u8 *bth, const struct orxe_opcode_info *info,
			 const struct orxe_tx_hdr *hdr)
{
	if (info->hdrs & ORXE_H(XRCETH)) {
		struct orxe_xrceth *x = (void *)(bth + info->offset[ORXE_EXT_XRCETH]);

		x->srqn = cpu_to_be32(hdr->xrc_srqn);
	}
	if (info->hdrs & ORXE_H(DETH)) {
		struct orxe_deth *deth = (void *)(bth + info->offset[ORXE_EXT_DETH]);

		deth->qkey = cpu_to_be32(hdr->deth.qkey);
		deth->sqp = cpu_to_be32(hdr->deth.src_qpn);
	}
	if (info->hdrs & ORXE_H(RETH)) {
		struct orxe_reth *reth = (void *)(bth + info->offset[ORXE_EXT_RETH]);

		reth->va = cpu_to_be64(hdr->reth.va);
		reth->rkey = cpu_to_be32(hdr->reth.rkey);
		reth->len = cpu_to_be32(hdr->reth.len);
	}
	if (info->hdrs & ORXE_H(ATMETH)) {
		struct orxe_atmeth *atm = (void *)(bth + info->offset[ORXE_EXT_ATMETH]);

		atm->va = cpu_to_be64(hdr->atmeth.va);
		atm->rkey = cpu_to_be32(hdr->atmeth.rkey);
		atm->swap_add = cpu_to_be64(hdr->atmeth.swap_add);
		atm->compare = cpu_to_be64(hdr->atmeth.compare);
	}
	if (info->hdrs & ORXE_H(AETH)) {
		struct orxe_aeth *aeth = (void *)(bth + info->offset[ORXE_EXT_AETH]);

		aeth->smsn = cpu_to_be32((u32)hdr->aeth.syndrome << 24 | hdr->aeth.msn);
	}
	if (info->hdrs & ORXE_H(ATMACK)) {
		struct orxe_atmack *ack = (void *)(bth + info->offset[ORXE_EXT_ATMACK]);

		ack->orig = cpu_to_be64(hdr->atmack_orig);
	}
	if (info->hdrs & ORXE_H(IMMDT)) {
		struct orxe_immdt *immdt = (void *)(bth + info->offset[ORXE_EXT_IMMDT]);

		immdt->imm = hdr->imm;
	}
	if (info->hdrs & ORXE_H(IETH)) {
		struct orxe_ieth *ieth = (void *)(bth + info->offset[ORXE_EXT_IETH]);

		ieth->rkey = cpu_to_be32(hdr->ieth_rkey);
	}
}

/*
 * Write the headers of the @len-byte frame (orxe_frame_len()) @hdr describes at @buf: the
 * orxe_frame_payload_offset() bytes before its payload.  Returns where its BTH is.
 */
u8 *orxe_frame_put_hdrs(const struct orxe_tx_hdr *hdr, u8 *buf, u32 len)
{
	const struct orxe_opcode_info *info = oib_rxe_opcode(hdr->opcode);
	bool ipv6 = !orxe_gid_is_v4mapped(&hdr->dgid);
	u32 l4len = len - ETH_HLEN - orxe_ip_hlen(ipv6);
	u8 *bth;

	orxe_put_eth((void *)buf, hdr, ipv6);
	if (ipv6)
		orxe_put_ipv6((void *)(buf + ETH_HLEN), hdr, l4len);
	else
		orxe_put_ipv4((void *)(buf + ETH_HLEN), hdr, l4len);
	orxe_put_udp((void *)(buf + ETH_HLEN + orxe_ip_hlen(ipv6)), hdr, l4len);
	bth = buf + ETH_HLEN + orxe_ip_hlen(ipv6) + ORXE_UDP_HLEN;
	orxe_put_bth((void *)bth, hdr, -hdr->paylen & 3);
	orxe_put_ext(bth, info, hdr);
	return bth;
}

/**
 * oib_rxe_frame_build() - write a whole RoCEv2 frame
 * @hdr: what goes in the headers, and the payload length
 * @payload: @hdr->paylen bytes to copy in, or NULL: the caller then writes them at
 *	orxe_frame_payload_offset() and seals the frame with oib_rxe_frame_seal()
 * @buf: where the frame goes
 * @size: room at @buf
 *
 * Return: the frame's length, -ENOSPC if @size is short of it, or orxe_frame_len()'s error.
 */
int oib_rxe_frame_build(const struct orxe_tx_hdr *hdr, const void *payload, u8 *buf, u32 size)
{
	int len = orxe_frame_len(hdr);
	u8 *data;

	if (len < 0)
		return len;
	if (len > size)
		return -ENOSPC;

	data = orxe_frame_put_hdrs(hdr, buf, len) + oib_rxe_opcode(hdr->opcode)->hdr_len;
	/* the pad, and the ICRC until the frame is sealed */
	memset(data + hdr->paylen, 0, (-hdr->paylen & 3) + ORXE_ICRC_SIZE);

	if (payload) {
		memcpy(data, payload, hdr->paylen);
		oib_rxe_frame_seal(buf, len);
	}
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_frame_build);

/**
 * oib_rxe_frame_build_skb() - oib_rxe_frame_build() into an empty, linear sk_buff
 * @hdr: as for oib_rxe_frame_build()
 * @payload: as for oib_rxe_frame_build(); the payload offset is from skb->data
 * @skb: has no data yet and room for the frame
 *
 * Sets the frame's protocol and its MAC, network and transport header offsets.
 *
 * Return: 0, -EINVAL if @skb has data, -ENOSPC if it has no room, or orxe_frame_len()'s error.
 */
int oib_rxe_frame_build_skb(const struct orxe_tx_hdr *hdr, const void *payload,
			    struct sk_buff *skb)
{
	int len = orxe_frame_len(hdr);
	bool ipv6;

	if (len < 0)
		return len;
	if (skb->len)
		return -EINVAL;
	if (skb_tailroom(skb) < len)
		return -ENOSPC;

	oib_rxe_frame_build(hdr, payload, skb->data, len);
	skb_put(skb, len);
	ipv6 = orxe_frame_is_ipv6(skb->data);
	skb->protocol = htons(ipv6 ? ETH_P_IPV6 : ETH_P_IP);
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	skb_set_transport_header(skb, ETH_HLEN + orxe_ip_hlen(ipv6));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_frame_build_skb);

static __sum16 orxe_udp6_csum(const struct ipv6hdr *ip6h, const void *udph, u32 l4len)
{
	return csum_ipv6_magic(&ip6h->saddr, &ip6h->daddr, l4len, IPPROTO_UDP,
			       csum_partial(udph, l4len, 0));
}

/**
 * oib_rxe_frame_seal() - compute the trailers of a frame the builder made
 * @frame: a frame from oib_rxe_frame_build() with its payload in place
 * @len: its length
 *
 * Writes the ICRC and, for IPv6, the UDP checksum, which covers the ICRC.  RoCEv2 lets IPv6
 * senders leave it 0 (as for tunnels, RFC 6935), but a computed one is valid everywhere.  Only
 * the Ethernet header and @len are read to find things, so a frame with other fields changed is
 * resealed as it stands.
 */
void oib_rxe_frame_seal(u8 *frame, u32 len)
{
	bool ipv6 = orxe_frame_is_ipv6(frame);
	u32 l4off = ETH_HLEN + orxe_ip_hlen(ipv6);
	u32 icrc_off = len - ORXE_ICRC_SIZE;
	struct udphdr *udph = (void *)(frame + l4off);
	__sum16 check;

	if (WARN_ON_ONCE(len < l4off + ORXE_UDP_HLEN + sizeof(struct orxe_bth) + ORXE_ICRC_SIZE))
		return;
	orxe_put_icrc(frame + icrc_off, orxe_icrc(frame + ETH_HLEN, icrc_off - ETH_HLEN, ipv6));
	if (ipv6) {
		udph->check = 0;
		check = orxe_udp6_csum((void *)(frame + ETH_HLEN), udph, len - l4off);
		udph->check = check ?: CSUM_MANGLED_0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_frame_seal);

/* ---- Parsing ---- */

/* The IPv4 header at @p, @avail bytes from the frame's end.  Returns the IP payload's length. */
static int orxe_parse_ipv4(const u8 *p, u32 avail, struct orxe_pkt *pkt)
{
	const struct iphdr *iph = (const void *)p;
	u32 tot_len;

	if (avail < ORXE_IPV4_HLEN)
		return -ORXE_DROP_TOO_SHORT;
	if (iph->version != 4)
		return -ORXE_DROP_BAD_IP_VERSION;
	if (iph->ihl != ORXE_IPV4_HLEN / 4)
		return -ORXE_DROP_BAD_IP_HDR_LEN;
	if (ip_fast_csum(iph, iph->ihl))
		return -ORXE_DROP_BAD_IP_CSUM;
	/* Bytes past tot_len are Ethernet padding: a short frame is padded to 60 bytes. */
	tot_len = ntohs(iph->tot_len);
	if (tot_len > avail || tot_len < ORXE_IPV4_HLEN + ORXE_UDP_HLEN)
		return -ORXE_DROP_BAD_IP_LEN;
	if (iph->frag_off & htons(IP_MF | IP_OFFSET))
		return -ORXE_DROP_IP_FRAGMENT;
	if (iph->protocol != IPPROTO_UDP)
		return -ORXE_DROP_NOT_UDP;

	ipv6_addr_set_v4mapped(iph->saddr, &pkt->sgid.in6);
	ipv6_addr_set_v4mapped(iph->daddr, &pkt->dgid.in6);
	pkt->tos = iph->tos;
	pkt->hop_limit = iph->ttl;
	return tot_len - ORXE_IPV4_HLEN;
}

static int orxe_parse_ipv6(const u8 *p, u32 avail, struct orxe_pkt *pkt)
{
	const struct ipv6hdr *ip6h = (const void *)p;
	u32 l4len;

	if (avail < ORXE_IPV6_HLEN)
		return -ORXE_DROP_TOO_SHORT;
	if (ip6h->version != 6)
		return -ORXE_DROP_BAD_IP_VERSION;
	l4len = ntohs(ip6h->payload_len);
	if (l4len > avail - ORXE_IPV6_HLEN || l4len < ORXE_UDP_HLEN)
		return -ORXE_DROP_BAD_IP_LEN;
	if (ip6h->nexthdr != IPPROTO_UDP)
		return -ORXE_DROP_NOT_UDP;

	pkt->ipv6 = true;
	memcpy(pkt->sgid.raw, &ip6h->saddr, sizeof(pkt->sgid));
	memcpy(pkt->dgid.raw, &ip6h->daddr, sizeof(pkt->dgid));
	pkt->tos = ip6h->priority << 4 | ip6h->flow_lbl[0] >> 4;
	pkt->flow_label = (ip6h->flow_lbl[0] & 0xf) << 16 | ip6h->flow_lbl[1] << 8 |
			  ip6h->flow_lbl[2];
	pkt->hop_limit = ip6h->hop_limit;
	return l4len;
}

/*
 * The UDP header of an @l4len-byte datagram (as IP says) behind the IP header @iph; its checksum is
 * not checked if @implied (an IPv6 one covers the ICRC, and was never computed).
 */
static int orxe_parse_udp(const u8 *iph, u32 l4len, struct orxe_pkt *pkt, bool implied)
{
	const struct udphdr *udph = (const void *)(iph + orxe_ip_hlen(pkt->ipv6));
	const struct iphdr *ip4h = (const void *)iph;
	__sum16 check;

	if (udph->dest != htons(ORXE_UDP_PORT))
		return -ORXE_DROP_BAD_UDP_PORT;
	if (ntohs(udph->len) != l4len)
		return -ORXE_DROP_BAD_UDP_LEN;
	/* 0 is "no checksum" for IPv4, and RoCEv2's allowance for IPv6. */
	if (udph->check && !implied) {
		if (pkt->ipv6)
			check = orxe_udp6_csum((const void *)iph, udph, l4len);
		else
			check = csum_tcpudp_magic(ip4h->saddr, ip4h->daddr, l4len, IPPROTO_UDP,
						  csum_partial(udph, l4len, 0));
		if (check)
			return -ORXE_DROP_BAD_UDP_CSUM;
	}
	pkt->udp_sport = ntohs(udph->source);
	return 0;
}

static const void *orxe_ext_ptr(const u8 *bth, const struct orxe_opcode_info *info, enum orxe_ext e)
{
	return info->hdrs & BIT(e) ? bth + info->offset[e] : NULL;
}

/*
 * The IB transport packet at @bth, @iblen bytes with its ICRC, which the caller checked; @hroom
 * bytes of it can be read (its headers must be among them).
 */
static int orxe_parse_ib(const u8 *bth, u32 iblen, u32 hroom, struct orxe_pkt *pkt)
{
	const struct orxe_opcode_info *info;
	const struct orxe_bth *b = (const void *)bth;
	u32 rest;
	u8 pad;

	if ((b->flags & ORXE_BTH_TVER_MASK) != ORXE_BTH_TVER)
		return -ORXE_DROP_BAD_TVER;
	info = oib_rxe_opcode(b->opcode);
	if (!info)
		return -ORXE_DROP_BAD_OPCODE;
	if (iblen < info->hdr_len + ORXE_ICRC_SIZE)
		return -ORXE_DROP_BAD_OPCODE_LEN;
	if (hroom < info->hdr_len)
		return -ORXE_DROP_TOO_SHORT;
	rest = iblen - info->hdr_len - ORXE_ICRC_SIZE;	/* payload and pad */
	if (rest && !(info->flags & ORXE_OPF_PAYLOAD))
		return -ORXE_DROP_BAD_OPCODE_LEN;
	/* The pad makes the packet whole words, and only a message's last packet has one. */
	pad = (b->flags & ORXE_BTH_PAD_MASK) >> ORXE_BTH_PAD_SHIFT;
	if (!IS_ALIGNED(iblen, 4) || pad > rest || (pad && !(info->flags & ORXE_OPF_LAST)))
		return -ORXE_DROP_BAD_PAD;

	pkt->opcode = b->opcode;
	pkt->info = info;
	pkt->solicited = b->flags & ORXE_BTH_SE;
	pkt->migreq = b->flags & ORXE_BTH_MIG;
	pkt->ack_req = be32_to_cpu(b->apsn) & ORXE_BTH_ACK_REQ;
	pkt->pad = pad;
	pkt->pkey = be16_to_cpu(b->pkey);
	pkt->dest_qpn = be32_to_cpu(b->qpn) & ORXE_QPN_MASK;
	pkt->psn = be32_to_cpu(b->apsn) & ORXE_PSN_MASK;

	pkt->bth = b;
	pkt->xrceth = orxe_ext_ptr(bth, info, ORXE_EXT_XRCETH);
	pkt->deth = orxe_ext_ptr(bth, info, ORXE_EXT_DETH);
	pkt->reth = orxe_ext_ptr(bth, info, ORXE_EXT_RETH);
	pkt->atmeth = orxe_ext_ptr(bth, info, ORXE_EXT_ATMETH);
	pkt->aeth = orxe_ext_ptr(bth, info, ORXE_EXT_AETH);
	pkt->atmack = orxe_ext_ptr(bth, info, ORXE_EXT_ATMACK);
	pkt->immdt = orxe_ext_ptr(bth, info, ORXE_EXT_IMMDT);
	pkt->ieth = orxe_ext_ptr(bth, info, ORXE_EXT_IETH);
	pkt->payload = bth + info->hdr_len;
	pkt->paylen = rest - pad;
	return 0;
}

/**
 * orxe_pkt_parse() - check a received RoCEv2 frame and describe it
 * @frame: the frame, from its Ethernet header on
 * @hlen: how many of its bytes are at @frame: @len, or, for a frame in pieces (a fragment frame,
 *	with @implied), at least its headers: its payload is elsewhere, pkt->payload then points
 *	past @hlen and must not be read
 * @len: its length; bytes past what the IP length covers (Ethernet padding) are ignored
 * @pkt: filled in on success, its pointers into @frame
 * @implied: the frame's trailers are implied (orxe_fabric_frame_implied()): its ICRC and, for
 *	IPv6, its UDP checksum were never computed, so they are not checked
 *
 * Reads nothing outside [@frame, @frame + @hlen).  Frames with VLAN tags, IPv4 options, IPv6
 * extension headers or fragments are refused.
 *
 * Return: 0, or the negative enum orxe_drop_reason (not an errno).
 */
int orxe_pkt_parse(const u8 *frame, u32 hlen, u32 len, struct orxe_pkt *pkt, bool implied)
{
	const u8 *iph = frame + ETH_HLEN;
	u32 l4len, iblen, iphlen;
	const u8 *bth;
	int ret;

	memset(pkt, 0, sizeof(*pkt));
	if (len < ETH_HLEN || hlen > len || (hlen < len && !implied))
		return -ORXE_DROP_TOO_SHORT;
	/* a frame in pieces: its IP, UDP and base transport headers are all at @frame */
	iphlen = ntohs(((const struct ethhdr *)frame)->h_proto) == ETH_P_IPV6 ? ORXE_IPV6_HLEN :
										 ORXE_IPV4_HLEN;
	if (hlen < len && hlen < ETH_HLEN + iphlen + ORXE_UDP_HLEN + sizeof(struct orxe_bth))
		return -ORXE_DROP_TOO_SHORT;
	memcpy(pkt->dmac, frame, ETH_ALEN);
	memcpy(pkt->smac, frame + ETH_ALEN, ETH_ALEN);

	switch (ntohs(((const struct ethhdr *)frame)->h_proto)) {
	case ETH_P_IP:
		ret = orxe_parse_ipv4(iph, len - ETH_HLEN, pkt);
		break;
	case ETH_P_IPV6:
		ret = orxe_parse_ipv6(iph, len - ETH_HLEN, pkt);
		break;
	default:
		return -ORXE_DROP_BAD_ETHERTYPE;
	}
	if (ret < 0)
		return ret;
	l4len = ret;

	ret = orxe_parse_udp(iph, l4len, pkt, implied);
	if (ret)
		return ret;

	if (l4len < ORXE_UDP_HLEN + sizeof(struct orxe_bth) + ORXE_ICRC_SIZE)
		return -ORXE_DROP_SHORT_BTH;
	iblen = l4len - ORXE_UDP_HLEN;
	bth = iph + orxe_ip_hlen(pkt->ipv6) + ORXE_UDP_HLEN;
	/* Checked before the BTH is believed: a corrupt packet is a bad ICRC, whatever it says. */
	if (!implied && orxe_get_icrc(bth + iblen - ORXE_ICRC_SIZE) !=
	    orxe_icrc(iph, orxe_ip_hlen(pkt->ipv6) + l4len - ORXE_ICRC_SIZE, pkt->ipv6))
		return -ORXE_DROP_BAD_ICRC;

	return orxe_parse_ib(bth, iblen, hlen - (bth - frame), pkt);
}

/* orxe_pkt_parse() of a whole frame with every trailer computed: what came over a wire. */
int oib_rxe_pkt_parse(const u8 *frame, u32 len, struct orxe_pkt *pkt)
{
	return orxe_pkt_parse(frame, len, len, pkt, false);
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_pkt_parse);
