/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_rxe wire format: RoCEv2 frames, byte for byte.
 *
 * A frame is Ethernet II | IPv4 or IPv6 | UDP to port 4791 | BTH | extension headers | payload |
 * pad to 4 bytes | ICRC.  The InfiniBand headers below are the IBTA layouts; every multi-byte field
 * is big-endian, except the ICRC, which goes on the wire least significant byte first.
 *
 * Which extension headers follow the BTH is fixed by the opcode, and so is their order (DETH, RETH
 * or AtomicETH, AETH, AtomicAckETH, ImmDt, IETH): the opcode table (oib_rxe_opcode()) says which,
 * where and what the packet means, so the transport can stay table-driven.
 *
 * The builder writes a whole frame from a struct rxe_tx_hdr; the parser checks a received frame and
 * describes it in a struct rxe_pkt, or names the reason to drop it.
 */
#ifndef RXE_HDR_H
#define RXE_HDR_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/if_ether.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>
#include <oib/verbs.h>

struct sk_buff;

#define RXE_UDP_PORT		4791		/* IANA: RoCEv2 */
#define RXE_BTH_TVER		0		/* the only transport header version */
#define RXE_PSN_MASK		0xffffff
#define RXE_QPN_MASK		0xffffff
#define RXE_MSN_MASK		0xffffff
#define RXE_GSI_QKEY		0x80010000	/* the well-known Q_Key of QP1 */
#define RXE_ICRC_SIZE		4

/* ---- IBTA opcodes: bits 7:5 the transport, bits 4:0 the operation ---- */

enum rxe_transport {
	RXE_TRANSPORT_RC,
	RXE_TRANSPORT_UC,
	RXE_TRANSPORT_RD,	/* not spoken: every RD opcode is invalid */
	RXE_TRANSPORT_UD,
};

static inline enum rxe_transport rxe_opcode_transport(u8 opcode)
{
	return opcode >> 5;
}

enum rxe_opcode {
	RXE_RC_SEND_FIRST				= 0x00,
	RXE_RC_SEND_MIDDLE				= 0x01,
	RXE_RC_SEND_LAST				= 0x02,
	RXE_RC_SEND_LAST_WITH_IMMEDIATE			= 0x03,
	RXE_RC_SEND_ONLY				= 0x04,
	RXE_RC_SEND_ONLY_WITH_IMMEDIATE			= 0x05,
	RXE_RC_RDMA_WRITE_FIRST				= 0x06,
	RXE_RC_RDMA_WRITE_MIDDLE			= 0x07,
	RXE_RC_RDMA_WRITE_LAST				= 0x08,
	RXE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE		= 0x09,
	RXE_RC_RDMA_WRITE_ONLY				= 0x0a,
	RXE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE		= 0x0b,
	RXE_RC_RDMA_READ_REQUEST			= 0x0c,
	RXE_RC_RDMA_READ_RESPONSE_FIRST			= 0x0d,
	RXE_RC_RDMA_READ_RESPONSE_MIDDLE		= 0x0e,
	RXE_RC_RDMA_READ_RESPONSE_LAST			= 0x0f,
	RXE_RC_RDMA_READ_RESPONSE_ONLY			= 0x10,
	RXE_RC_ACKNOWLEDGE				= 0x11,
	RXE_RC_ATOMIC_ACKNOWLEDGE			= 0x12,
	RXE_RC_COMPARE_SWAP				= 0x13,
	RXE_RC_FETCH_ADD				= 0x14,
	RXE_RC_SEND_LAST_WITH_INVALIDATE		= 0x16,
	RXE_RC_SEND_ONLY_WITH_INVALIDATE		= 0x17,

	RXE_UC_SEND_FIRST				= 0x20,
	RXE_UC_SEND_MIDDLE				= 0x21,
	RXE_UC_SEND_LAST				= 0x22,
	RXE_UC_SEND_LAST_WITH_IMMEDIATE			= 0x23,
	RXE_UC_SEND_ONLY				= 0x24,
	RXE_UC_SEND_ONLY_WITH_IMMEDIATE			= 0x25,
	RXE_UC_RDMA_WRITE_FIRST				= 0x26,
	RXE_UC_RDMA_WRITE_MIDDLE			= 0x27,
	RXE_UC_RDMA_WRITE_LAST				= 0x28,
	RXE_UC_RDMA_WRITE_LAST_WITH_IMMEDIATE		= 0x29,
	RXE_UC_RDMA_WRITE_ONLY				= 0x2a,
	RXE_UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE		= 0x2b,

	RXE_UD_SEND_ONLY				= 0x64,
	RXE_UD_SEND_ONLY_WITH_IMMEDIATE			= 0x65,
};

/* ---- Base Transport Header ---- */

struct rxe_bth {
	u8 opcode;
	u8 flags;		/* RXE_BTH_SE, _MIG, pad count, transport version */
	__be16 pkey;
	__be32 qpn;		/* resv8a (FECN, BECN, 6 reserved bits), then the destination QP */
	__be32 apsn;		/* RXE_BTH_ACK_REQ, 7 reserved bits, then the PSN */
} __packed;

#define RXE_BTH_SE		0x80	/* in flags: solicited event */
#define RXE_BTH_MIG		0x40	/* in flags: migration request */
#define RXE_BTH_PAD_SHIFT	4	/* in flags: pad count, 0..3 */
#define RXE_BTH_PAD_MASK	0x30
#define RXE_BTH_TVER_MASK	0x0f
#define RXE_BTH_RESV8A		4	/* byte offset of resv8a: variant, outside the ICRC */
#define RXE_BTH_ACK_REQ		BIT(31)	/* in apsn */

/* ---- Extension headers ---- */

/* Datagram: UD packets. */
struct rxe_deth {
	__be32 qkey;
	__be32 sqp;		/* 8 reserved bits, then the source QP */
} __packed;

/* RDMA: write and read requests. */
struct rxe_reth {
	__be64 va;
	__be32 rkey;
	__be32 len;		/* of the whole message, not this packet */
} __packed;

/* Atomic request. */
struct rxe_atmeth {
	__be64 va;
	__be32 rkey;
	__be64 swap_add;
	__be64 compare;
} __packed;

/* Acknowledgment: syndrome (see RXE_AETH_*) and message sequence number. */
struct rxe_aeth {
	__be32 smsn;
} __packed;

/* Atomic acknowledgment: the value found at the target before the operation. */
struct rxe_atmack {
	__be64 orig;
} __packed;

/* Immediate data, delivered as is in the receiver's completion. */
struct rxe_immdt {
	__be32 imm;
} __packed;

/* Invalidate: the R_Key a send-with-invalidate revokes at the responder. */
struct rxe_ieth {
	__be32 rkey;
} __packed;

static_assert(sizeof(struct rxe_bth) == 12);
static_assert(sizeof(struct rxe_deth) == 8);
static_assert(sizeof(struct rxe_reth) == 16);
static_assert(sizeof(struct rxe_atmeth) == 28);
static_assert(sizeof(struct rxe_aeth) == 4);
static_assert(sizeof(struct rxe_atmack) == 8);
static_assert(sizeof(struct rxe_immdt) == 4);
static_assert(sizeof(struct rxe_ieth) == 4);

static inline u32 rxe_deth_src_qpn(const struct rxe_deth *deth)
{
	return be32_to_cpu(deth->sqp) & RXE_QPN_MASK;
}

/*
 * AETH syndrome: bit 7 reserved, bits 6:5 the kind, bits 4:0 its value: the credit count of an
 * ACK (RXE_AETH_NO_CREDITS: none advertised), the timer code of an RNR NAK, or the NAK code.
 */
#define RXE_AETH_KIND_MASK	0x60
#define RXE_AETH_VALUE_MASK	0x1f
#define RXE_AETH_ACK		0x00
#define RXE_AETH_RNR_NAK	0x20
#define RXE_AETH_NAK		0x60
#define RXE_AETH_NO_CREDITS	0x1f

enum rxe_nak_code {
	RXE_NAK_PSN_SEQ_ERROR		= 0,
	RXE_NAK_INVALID_REQUEST		= 1,
	RXE_NAK_REMOTE_ACCESS_ERROR	= 2,
	RXE_NAK_REMOTE_OP_ERROR		= 3,
	RXE_NAK_INVALID_RD_REQUEST	= 4,
};

static inline u8 rxe_aeth_syn_ack(u8 credits)
{
	return RXE_AETH_ACK | (credits & RXE_AETH_VALUE_MASK);
}

static inline u8 rxe_aeth_syn_rnr_nak(u8 timer)
{
	return RXE_AETH_RNR_NAK | (timer & RXE_AETH_VALUE_MASK);
}

static inline u8 rxe_aeth_syn_nak(enum rxe_nak_code code)
{
	return RXE_AETH_NAK | (code & RXE_AETH_VALUE_MASK);
}

static inline u8 rxe_aeth_syndrome(const struct rxe_aeth *aeth)
{
	return be32_to_cpu(aeth->smsn) >> 24;
}

static inline u32 rxe_aeth_msn(const struct rxe_aeth *aeth)
{
	return be32_to_cpu(aeth->smsn) & RXE_MSN_MASK;
}

/* ---- The opcode table ---- */

/* The extension headers, in the order they follow the BTH. */
enum rxe_ext {
	RXE_EXT_DETH,
	RXE_EXT_RETH,
	RXE_EXT_ATMETH,
	RXE_EXT_AETH,
	RXE_EXT_ATMACK,
	RXE_EXT_IMMDT,
	RXE_EXT_IETH,
	RXE_NUM_EXT,
};

enum rxe_op_flags {
	RXE_OPF_REQ	= BIT(0),	/* requester to responder */
	RXE_OPF_RESP	= BIT(1),	/* responder to requester: read responses and ACKs */
	RXE_OPF_FIRST	= BIT(2),	/* first packet of a message; ONLY is FIRST | LAST */
	RXE_OPF_MIDDLE	= BIT(3),
	RXE_OPF_LAST	= BIT(4),
	RXE_OPF_PAYLOAD	= BIT(5),	/* may carry payload (LAST and ONLY: possibly none) */
	RXE_OPF_SEND	= BIT(6),
	RXE_OPF_WRITE	= BIT(7),
	RXE_OPF_READ	= BIT(8),	/* read request or read response */
	RXE_OPF_ATOMIC	= BIT(9),	/* atomic request or atomic ACK */
	RXE_OPF_IMM	= BIT(10),	/* immediate data for the receiver's completion */
	RXE_OPF_INV	= BIT(11),	/* invalidates the R_Key in its IETH */
	RXE_OPF_RECV	= BIT(12),	/* consumes a receive WQE: sends, writes with immediate */
	RXE_OPF_ACKED	= BIT(13),	/* RC request, which the responder must answer */
};

struct rxe_opcode_info {
	const char *name;		/* "RC_SEND_FIRST", ... */
	u16 hdrs;			/* BIT(enum rxe_ext) for each extension header carried */
	u16 flags;			/* enum rxe_op_flags */
	u8 hdr_len;			/* BTH and extension headers, bytes */
	u8 offset[RXE_NUM_EXT];		/* from the BTH, of each header in hdrs; 0 for the others */
};

/* The entry for @opcode, or NULL if oib_rxe does not speak it. */
const struct rxe_opcode_info *oib_rxe_opcode(u8 opcode);

/* ---- Building frames ---- */

/*
 * Everything the builder writes.  IPv4 or IPv6 follows the destination GID: an IPv4-mapped one
 * (::ffff:a.b.c.d) means IPv4, and then the source GID must be one too.  Only the extension headers
 * the opcode carries are read.
 */
struct rxe_tx_hdr {
	u8 dmac[ETH_ALEN];
	u8 smac[ETH_ALEN];
	union oib_gid sgid;
	union oib_gid dgid;
	u8 tos;			/* IPv4 TOS or IPv6 traffic class: DSCP and ECN */
	u8 hop_limit;		/* IPv4 TTL or IPv6 hop limit */
	u32 flow_label;		/* IPv6 only: 20 bits */
	u16 udp_sport;		/* a hash of the flow: RoCEv2 spreads flows over source ports */

	u8 opcode;
	bool solicited;
	bool migreq;
	bool ack_req;
	u16 pkey;
	u32 dest_qpn;
	u32 psn;

	struct {
		u32 qkey;
		u32 src_qpn;
	} deth;
	struct {
		u64 va;
		u32 rkey;
		u32 len;
	} reth;
	struct {
		u64 va;
		u32 rkey;
		u64 swap_add;
		u64 compare;
	} atmeth;
	struct {
		u8 syndrome;	/* rxe_aeth_syn_*() */
		u32 msn;
	} aeth;
	u64 atmack_orig;
	__be32 imm;
	u32 ieth_rkey;

	u32 paylen;		/* the pad is added and counted in the BTH by the builder */
};

int rxe_frame_len(const struct rxe_tx_hdr *hdr);
int oib_rxe_frame_build(const struct rxe_tx_hdr *hdr, const void *payload, u8 *buf, u32 size);
int oib_rxe_frame_build_skb(const struct rxe_tx_hdr *hdr, const void *payload,
			    struct sk_buff *skb);
void oib_rxe_frame_seal(u8 *frame, u32 len);
u32 rxe_frame_payload_offset(const struct rxe_tx_hdr *hdr);

/* rxe_icrc.c: the ICRC of the bytes from the IP header up to the ICRC, @len of them. */
u32 rxe_icrc(const u8 *iph, u32 len, bool ipv6);

/* ---- Parsing frames ---- */

/* Why the parser refused a frame; oib_rxe_pkt_parse() returns the negative. */
enum rxe_drop_reason {
	RXE_DROP_TOO_SHORT = 1,		/* the frame ends inside the Ethernet or IP header */
	RXE_DROP_BAD_ETHERTYPE,		/* neither IPv4 nor IPv6 (VLAN tags included) */
	RXE_DROP_BAD_IP_VERSION,
	RXE_DROP_BAD_IP_HDR_LEN,	/* IPv4 IHL other than 5: RoCEv2 sends no options */
	RXE_DROP_BAD_IP_LEN,		/* IP length past the frame's end, or short of UDP's */
	RXE_DROP_IP_FRAGMENT,
	RXE_DROP_BAD_IP_CSUM,
	RXE_DROP_NOT_UDP,		/* IPv6 extension headers included */
	RXE_DROP_BAD_UDP_PORT,
	RXE_DROP_BAD_UDP_LEN,		/* UDP length other than the IP payload's */
	RXE_DROP_BAD_UDP_CSUM,		/* a non-zero UDP checksum that does not match */
	RXE_DROP_SHORT_BTH,		/* UDP payload shorter than a BTH and an ICRC */
	RXE_DROP_BAD_ICRC,
	RXE_DROP_BAD_TVER,
	RXE_DROP_BAD_OPCODE,		/* not in the opcode table */
	RXE_DROP_BAD_OPCODE_LEN,	/* short of its headers, or payload where it has none */
	RXE_DROP_BAD_PAD,		/* pad count inconsistent with the length or the opcode */
	RXE_NUM_DROP_REASONS
};

/*
 * A parsed frame.  The pointers point into the parsed frame (extension headers the opcode does
 * not carry are NULL); IPv4 addresses come as IPv4-mapped GIDs.
 */
struct rxe_pkt {
	u8 dmac[ETH_ALEN];
	u8 smac[ETH_ALEN];
	bool ipv6;
	union oib_gid sgid;
	union oib_gid dgid;
	u8 tos;
	u8 hop_limit;
	u32 flow_label;		/* 0 for IPv4 */
	u16 udp_sport;

	u8 opcode;
	const struct rxe_opcode_info *info;
	bool solicited;
	bool migreq;
	bool ack_req;
	u8 pad;
	u16 pkey;
	u32 dest_qpn;
	u32 psn;

	const struct rxe_bth *bth;
	const struct rxe_deth *deth;
	const struct rxe_reth *reth;
	const struct rxe_atmeth *atmeth;
	const struct rxe_aeth *aeth;
	const struct rxe_atmack *atmack;
	const struct rxe_immdt *immdt;
	const struct rxe_ieth *ieth;
	const u8 *payload;
	u32 paylen;		/* without the pad */
};

int oib_rxe_pkt_parse(const u8 *frame, u32 len, struct rxe_pkt *pkt);
/* @reason: an enum rxe_drop_reason, or oib_rxe_pkt_parse()'s negative of one. */
const char *oib_rxe_drop_reason_name(int reason);

/* ---- GIDs of IPv4 addresses ---- */

static inline bool rxe_gid_is_v4mapped(const union oib_gid *gid)
{
	static const u8 prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(gid->raw, prefix, sizeof(prefix));
}

#endif /* RXE_HDR_H */
