/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_rxe wire format: the layouts, the opcode table, the frame builder and the parser are in
 * <oib/kunit/rxe.h>, where the wire suite reaches them; what only the driver calls is here.
 */
#ifndef ORXE_HDR_H
#define ORXE_HDR_H

#include <linux/ipv6.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <oib/kunit/rxe.h>

#define ORXE_IPV4_HLEN		sizeof(struct iphdr)	/* RoCEv2 sends no IP options */
#define ORXE_IPV6_HLEN		sizeof(struct ipv6hdr)
#define ORXE_UDP_HLEN		sizeof(struct udphdr)

int orxe_frame_len(const struct orxe_tx_hdr *hdr);
u32 orxe_frame_payload_offset(const struct orxe_tx_hdr *hdr);

u8 *orxe_frame_put_hdrs(const struct orxe_tx_hdr *hdr, u8 *buf, u32 len);
int orxe_pkt_parse(const u8 *frame, u32 hlen, u32 len, struct orxe_pkt *pkt, bool implied);

/* orxe_icrc.c: the ICRC of the bytes from the IP header up to the ICRC, @len of them. */
u32 orxe_icrc(const u8 *iph, u32 len, bool ipv6);

#endif /* ORXE_HDR_H */
