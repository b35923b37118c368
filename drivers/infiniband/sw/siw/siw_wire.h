/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iWARP wire, as oib_siw sends and parses it: MPA request and reply frames (RFC 5044 with
 * the enhanced connection setup of RFC 6581), and the FPDUs that follow on the TCP stream.
 *
 * An FPDU is a 16-bit ULPDU_Length (big-endian; the length of what follows it up to the pad),
 * the DDP/RDMAP header (tagged or untagged, RFC 5041/5040), the payload, a pad to a multiple of
 * 4 bytes (counted from the length field), and a CRC32c over everything before it (zero when
 * CRC was not negotiated).  Markers are never used.  Every multi-byte field is big-endian.
 */
#ifndef OIB_SIW_WIRE_H
#define OIB_SIW_WIRE_H

#include <linux/types.h>

/* ---- MPA request / reply ---- */

#define SIW_MPA_KEY_REQ		"MPA ID Req Frame"
#define SIW_MPA_KEY_REP		"MPA ID Rep Frame"
#define SIW_MPA_KEY_LEN		16

/* The 16-bit word after the key: flags, then the revision in the low byte. */
#define SIW_MPA_M		0x8000	/* markers */
#define SIW_MPA_C		0x4000	/* CRC */
#define SIW_MPA_R		0x2000	/* reject (replies only) */
#define SIW_MPA_E		0x1000	/* enhanced connection setup (revision 2) */
#define SIW_MPA_REV_MASK	0x00ff

/* RFC 5044 allows 512 bytes of private data; siw and cxgb4 take 256, and so do we. */
#define SIW_MPA_PD_MAX		256

struct siw_mpa_hdr {
	u8 key[SIW_MPA_KEY_LEN];
	__be16 bits;
	__be16 pd_len;
} __packed;

/* Enhanced mode: the first 4 bytes of the private data. */
struct siw_mpa_v2 {
	__be16 ird;		/* bit 15: peer-to-peer; bit 14: zero-length SEND RTR */
	__be16 ord;		/* bit 15: zero-length WRITE RTR; bit 14: zero-length READ RTR */
} __packed;

#define SIW_MPA_V2_P2P		0x8000	/* in ird */
#define SIW_MPA_V2_SEND_RTR	0x4000	/* in ird */
#define SIW_MPA_V2_WRITE_RTR	0x8000	/* in ord */
#define SIW_MPA_V2_READ_RTR	0x4000	/* in ord */
#define SIW_MPA_V2_VALUE	0x3fff

/* ---- DDP / RDMAP ---- */

/* The 16-bit control word that starts every DDP header. */
#define SIW_CTRL_T		0x8000	/* tagged */
#define SIW_CTRL_L		0x4000	/* last segment of the message */
#define SIW_CTRL_DV_MASK	0x0300
#define SIW_CTRL_DV1		0x0100	/* DDP version 1 */
#define SIW_CTRL_RV_MASK	0x00c0
#define SIW_CTRL_RV1		0x0040	/* RDMAP version 1 */
#define SIW_CTRL_OP_MASK	0x000f

enum siw_opcode {
	SIW_OP_WRITE = 0,
	SIW_OP_READ_REQ = 1,
	SIW_OP_READ_RESP = 2,
	SIW_OP_SEND = 3,
	SIW_OP_SEND_INV = 4,
	SIW_OP_SEND_SE = 5,
	SIW_OP_SEND_SE_INV = 6,
	SIW_OP_TERMINATE = 7,
	SIW_NOPS
};

/* Queue numbers of untagged messages. */
enum siw_qn {
	SIW_QN_SEND = 0,
	SIW_QN_READ_REQ = 1,
	SIW_QN_TERMINATE = 2,
};

struct siw_tagged_hdr {
	__be16 ctrl;
	__be32 stag;
	__be64 to;
} __packed;

struct siw_untagged_hdr {
	__be16 ctrl;
	__be32 inval_stag;	/* SEND with invalidate; else reserved (0) */
	__be32 qn;
	__be32 msn;		/* per queue, from 1 */
	__be32 mo;
} __packed;

struct siw_read_req {
	struct siw_untagged_hdr h;
	__be32 sink_stag;
	__be64 sink_to;
	__be32 size;
	__be32 src_stag;
	__be64 src_to;
} __packed;

/* TERMINATE: the untagged header and the terminate control word (no header copies). */
struct siw_terminate {
	struct siw_untagged_hdr h;
	__be32 ctrl;		/* layer (4 bits), etype (4), ecode (8), H M D flags (3), 0 */
} __packed;

enum siw_term_layer {
	SIW_TERM_RDMAP = 0,
	SIW_TERM_DDP = 1,
	SIW_TERM_LLP = 2,
};

/* etype and ecode, as one 12-bit value: (etype << 8) | ecode, per layer. */
#define SIW_TERM(layer, etype, ecode)	((u32)(layer) << 28 | (u32)(etype) << 24 | \
					 (u32)(ecode) << 16)
#define SIW_TERM_INV_STAG	SIW_TERM(SIW_TERM_RDMAP, 1, 0x00)
#define SIW_TERM_BOUNDS		SIW_TERM(SIW_TERM_RDMAP, 1, 0x01)
#define SIW_TERM_ACCESS		SIW_TERM(SIW_TERM_RDMAP, 1, 0x02)
#define SIW_TERM_RDMAP_VERSION	SIW_TERM(SIW_TERM_RDMAP, 2, 0x05)
#define SIW_TERM_OPCODE		SIW_TERM(SIW_TERM_RDMAP, 2, 0x06)
#define SIW_TERM_IRD		SIW_TERM(SIW_TERM_RDMAP, 2, 0x01)
#define SIW_TERM_LOCAL		SIW_TERM(SIW_TERM_RDMAP, 0, 0x00)
#define SIW_TERM_DDP_VERSION	SIW_TERM(SIW_TERM_DDP, 1, 0x04)
#define SIW_TERM_QN		SIW_TERM(SIW_TERM_DDP, 2, 0x01)
#define SIW_TERM_NO_BUF		SIW_TERM(SIW_TERM_DDP, 2, 0x02)
#define SIW_TERM_MSN		SIW_TERM(SIW_TERM_DDP, 2, 0x03)
#define SIW_TERM_MO		SIW_TERM(SIW_TERM_DDP, 2, 0x04)
#define SIW_TERM_TOO_LONG	SIW_TERM(SIW_TERM_DDP, 2, 0x05)
#define SIW_TERM_CRC		SIW_TERM(SIW_TERM_LLP, 0, 0x02)
#define SIW_TERM_LENGTH		SIW_TERM(SIW_TERM_LLP, 0, 0x04)

#define SIW_FPDU_LEN_SIZE	2
#define SIW_CRC_SIZE		4
/* The longest ULPDU we send or take: the 16-bit length's limit, kept a multiple of 4. */
#define SIW_ULPDU_MAX		65532
/* Header sizes as ULPDU_Length counts them. */
#define SIW_TAGGED_LEN		((u32)sizeof(struct siw_tagged_hdr))
#define SIW_UNTAGGED_LEN	((u32)sizeof(struct siw_untagged_hdr))
#define SIW_READ_REQ_LEN	((u32)sizeof(struct siw_read_req))
#define SIW_TERMINATE_LEN	((u32)sizeof(struct siw_terminate))

/* The pad after a ULPDU of @ulpdu_len bytes (the length field counted in). */
static inline u32 siw_fpdu_pad(u32 ulpdu_len)
{
	return (4 - ((ulpdu_len + SIW_FPDU_LEN_SIZE) & 3)) & 3;
}

/* Bytes on the wire of an FPDU carrying @ulpdu_len bytes. */
static inline u32 siw_fpdu_size(u32 ulpdu_len)
{
	return SIW_FPDU_LEN_SIZE + ulpdu_len + siw_fpdu_pad(ulpdu_len) + SIW_CRC_SIZE;
}

static inline u16 siw_ctrl(enum siw_opcode op, bool tagged, bool last)
{
	return (tagged ? SIW_CTRL_T : 0) | (last ? SIW_CTRL_L : 0) | SIW_CTRL_DV1 |
	       SIW_CTRL_RV1 | op;
}

/* ---- siw_mpa.c: MPA frames and the CRC ---- */

struct siw_mpa_params {
	u8 rev;			/* 1 or 2 */
	bool crc;
	bool markers;
	bool reject;
	bool enhanced;		/* rev 2 with E: the IRD/ORD words lead the private data */
	bool p2p;
	u16 ird, ord;		/* values (14 bits) */
	u16 rtr;		/* SIW_MPA_V2_*_RTR bits: ird's SEND, ord's WRITE and READ */
};

#define SIW_RTR_SEND	0x1
#define SIW_RTR_WRITE	0x2
#define SIW_RTR_READ	0x4

/*
 * Build an MPA request or reply with @pd_len bytes of private data into @buf (room for
 * sizeof(struct siw_mpa_hdr) + SIW_MPA_PD_MAX bytes); the frame's length, or -EINVAL if the
 * private data (with the enhanced words) does not fit.
 */
int siw_mpa_build(void *buf, bool reply, const struct siw_mpa_params *p, const void *pd,
		  u32 pd_len);
/* The private data length a received header announces, or -EPROTO for a bad key or length. */
int siw_mpa_hdr_check(const struct siw_mpa_hdr *h, bool reply);
/*
 * Parse a whole MPA frame (@len bytes: the header and its private data): its parameters and
 * where the user's private data lies (after the enhanced words).  -EPROTO if malformed.
 */
int siw_mpa_parse(const void *frame, u32 len, bool reply, struct siw_mpa_params *p,
		  const u8 **pd, u32 *pd_len);

/* The CRC32c of an FPDU's @len bytes before the CRC field, as it goes on the wire. */
__le32 siw_fpdu_crc(const void *buf, u32 len);

#endif /* OIB_SIW_WIRE_H */
