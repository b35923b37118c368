// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RoCEv2 invariant CRC (ICRC).
 *
 * The ICRC is InfiniBand's end-to-end CRC, carried over into RoCEv2 (IBTA Annex A17): a CRC-32 (the
 * Ethernet polynomial, reflected, seed all ones, result inverted) over every byte from the IP
 * header to the ICRC, with the fields that routers may change along the way counted as all ones.
 * Those are IPv4's TOS, TTL and header checksum; IPv6's traffic class, flow label and hop limit;
 * the UDP checksum; and the BTH's resv8a byte, which holds FECN and BECN.  It is stored least
 * significant byte first.
 */
#include <linux/crc32.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include "orxe_hdr.h"

/*
 * On InfiniBand the CRC starts with the 8-byte LRH, which is all variant and so counts as 8 bytes
 * of ones.  RoCEv2 has no LRH but keeps the start, so that the CRC engine is the same.
 */
static const u8 orxe_icrc_lrh[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* A copy of the IP, UDP and BTH headers with the variant fields set to ones. */
static u32 orxe_icrc_masked_hdrs(u8 *buf, const u8 *iph, bool ipv6)
{
	u32 iplen = ipv6 ? sizeof(struct ipv6hdr) : sizeof(struct iphdr);
	u32 len = iplen + sizeof(struct udphdr) + sizeof(struct orxe_bth);

	memcpy(buf, iph, len);
	if (ipv6) {
		struct ipv6hdr *ip6h = (void *)buf;

		/* Of the first word only the version is invariant. */
		ip6h->priority = 0xf;
		memset(ip6h->flow_lbl, 0xff, sizeof(ip6h->flow_lbl));
		ip6h->hop_limit = 0xff;
	} else {
		struct iphdr *ip4h = (void *)buf;

		ip4h->tos = 0xff;
		ip4h->ttl = 0xff;
		ip4h->check = (__force __sum16)0xffff;
	}
	((struct udphdr *)(buf + iplen))->check = (__force __sum16)0xffff;
	buf[iplen + sizeof(struct udphdr) + ORXE_BTH_RESV8A] = 0xff;
	return len;
}

/**
 * orxe_icrc() - the ICRC a RoCEv2 packet carries
 * @iph: its IP header (IPv4 without options)
 * @len: bytes from @iph to the ICRC, at least the IP, UDP and BTH headers
 * @ipv6: what @iph is
 *
 * Return: the CRC, to be stored (or compared) least significant byte first.
 */
u32 orxe_icrc(const u8 *iph, u32 len, bool ipv6)
{
	u8 hdrs[sizeof(struct ipv6hdr) + sizeof(struct udphdr) + sizeof(struct orxe_bth)];
	u32 hlen = orxe_icrc_masked_hdrs(hdrs, iph, ipv6);
	u32 crc;

	crc = crc32_le(~0U, orxe_icrc_lrh, sizeof(orxe_icrc_lrh));
	crc = crc32_le(crc, hdrs, hlen);
	crc = crc32_le(crc, iph + hlen, len - hlen);
	return ~crc;
}
