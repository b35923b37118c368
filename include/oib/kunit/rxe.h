/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_rxe internals for its KUnit suites only.  The functions are exported with
 * EXPORT_SYMBOL_IF_KUNIT (namespace EXPORTED_FOR_KUNIT_TESTING) when the kernel has KUnit, and not
 * at all otherwise; the types are oib_rxe's own, defined here once so that the driver and its
 * suites see the same.  Never for ULPs or tools: they have <oib/rxe.h>.
 *
 * Two things: a fabric's ports, which a suite attaches to put its own frames on a fabric and see
 * what arrives (the fabric's suite, the transports' fuzz), and the wire format with its frame
 * builder and parser (the wire suite, and the fuzz, which builds frames).
 */
#ifndef OIB_KUNIT_RXE_H
#define OIB_KUNIT_RXE_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/hrtimer.h>
#include <linux/if_ether.h>
#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <asm/byteorder.h>
#include <net/ipv6.h>
#include <oib/verbs.h>
#include <oib/rxe.h>

/* ==== Fabric ports (orxe_fabric.c) ==== */

/*
 * A port on a fabric, embedded in its owner's structure.  The owner sets mac and rx (and
 * implied_ok, uplink), then attaches; the fabric initialises every other field.  mac must not
 * change while attached.  A fabric has at most one uplink: the port that carries frames off it
 * (to a network device, orxe_udp.c); oib_rxe_fabric_resolve() gives the uplink's MAC for every GID
 * no port of the fabric owns.
 *
 * Lifetime: from oib_rxe_fabric_attach() until oib_rxe_fabric_detach() the port is in its fabric's
 * tables and holds a reference on the fabric.  The owner must have stopped calling
 * oib_rxe_fabric_xmit() on the port (other than from its own rx()) before detaching, and must not
 * detach from rx().  Detach waits: when it returns rx() is not running and never runs again, every
 * frame queued to the port or held/delayed from it is freed, and the memory may go.  The counters
 * stay readable, also after detach until the next attach.
 */
struct orxe_fabric_port {
	u8 mac[6];
	void (*rx)(struct orxe_fabric_port *fp, struct sk_buff *skb);	/* owns skb */
	bool implied_ok;	/* rx() takes frames with implied trailers (orxe_fabric.h) */
	bool uplink;		/* the fabric's way out: it answers for every GID no port owns */

	/* Private to the fabric. */
	struct orxe_fabric *fabric;	/* NULL when detached */
	struct list_head list;		/* in fabric->ports; RCU */
	struct hlist_node mac_node;	/* in fabric->by_mac; RCU */
	struct list_head addrs;		/* struct orxe_fabric_addr, under fabric->lock */
	bool dead;			/* detaching: the worker stops calling rx() */
	struct sk_buff_head rxq;	/* frames for this port; rxq.lock protects it */
	struct work_struct rx_work;	/* drains rxq into rx() */
	/* rx_work writes rx_stream as a run ends; senders read it locklessly (orxe_fabric_kick) */
	bool rx_stream;			/* its last run with packets in or out was a stream's */
	/* set at attach, before the port is published; then moved by senders (orxe_fabric_kick) */
	int rx_cpu;			/* the port's CPU */
	/* Under fabric->fault_lock: */
	bool has_cfg;			/* cfg overrides the fabric's */
	struct orxe_fault_cfg cfg;
	struct sk_buff_head delayq;	/* delayed frames sent by this port, by due time */
	struct sk_buff_head held;	/* frames held for reordering, at most one per path */
	struct hrtimer timer;		/* releases delayq and held frames when due */
	atomic64_t stats[ORXE_FSTAT_NUM];
};

/* Ports and addresses; these may sleep. */
int oib_rxe_fabric_attach(struct orxe_fabric *f, struct orxe_fabric_port *fp);
void oib_rxe_fabric_detach(struct orxe_fabric_port *fp);
int oib_rxe_fabric_add_addr(struct orxe_fabric_port *fp, const union oib_gid *gid);
int oib_rxe_fabric_del_addr(struct orxe_fabric_port *fp, const union oib_gid *gid);

/* Sending, from any context; consumes skb. */
void oib_rxe_fabric_xmit(struct orxe_fabric_port *src, struct sk_buff *skb);
/* A frame with implied trailers (orxe_fabric.h) made linear and sealed; false if it cannot be. */
bool oib_rxe_fabric_seal(struct sk_buff *skb);

/* Counters, from any context. */
u64 oib_rxe_fabric_stat(const struct orxe_fabric_port *fp, enum oib_rxe_fabric_stat stat);
void oib_rxe_fabric_port_stats(const struct orxe_fabric_port *fp, struct orxe_fabric_stats *out);

/* Whether the fabric's senders take the fault path (orxe_fault.c): a fault or a rule is active. */
bool oib_rxe_fabric_faulty(struct orxe_fabric *f);

/* ==== The wire (orxe_hdr.c) ==== */

/*
 * oib_rxe wire format: RoCEv2 frames, byte for byte.
 *
 * A frame is Ethernet II | IPv4 or IPv6 | UDP to port 4791 | BTH | extension headers | payload |
 * pad to 4 bytes | ICRC.  The InfiniBand headers below are the IBTA layouts; every multi-byte field
 * is big-endian, except the ICRC, which goes on the wire least significant byte first.
 *
 * Which extension headers follow the BTH is fixed by the opcode, and so is their order (XRCETH,
 * DETH, RETH or AtomicETH, AETH, AtomicAckETH, ImmDt, IETH): the opcode table
 * (oib_rxe_opcode()) says which,
 * where and what the packet means, so the transport can stay table-driven.
 *
 * The builder writes a whole frame from a struct orxe_tx_hdr; the parser checks a received frame
 * and describes it in a struct orxe_pkt, or names the reason to drop it.
 */
#define ORXE_UDP_PORT		4791		/* IANA: RoCEv2 */
#define ORXE_BTH_TVER		0		/* the only transport header version */
#define ORXE_PSN_MASK		0xffffff
#define ORXE_QPN_MASK		0xffffff
#define ORXE_MSN_MASK		0xffffff
#define ORXE_GSI_QKEY		0x80010000	/* the well-known Q_Key of QP1 */
#define ORXE_ICRC_SIZE		4

/* ---- IBTA opcodes: bits 7:5 the transport, bits 4:0 the operation ---- */

enum orxe_transport {
	ORXE_TRANSPORT_RC,
	ORXE_TRANSPORT_UC,
	ORXE_TRANSPORT_RD,	/* not spoken: every RD opcode is invalid */
	ORXE_TRANSPORT_UD,
	ORXE_TRANSPORT_XRC = 5,	/* the RC operations, requests carrying an XRCETH */
};

#define ORXE_OPCODE_OP_MASK	0x1f	/* the operation: an XRC opcode's is its RC twin's */
#define ORXE_XRC_OPCODE		0xa0	/* the XRC transport's bits */

static inline enum orxe_transport orxe_opcode_transport(u8 opcode)
{
	return opcode >> 5;
}

enum orxe_opcode {
	ORXE_RC_SEND_FIRST				= 0x00,
	ORXE_RC_SEND_MIDDLE				= 0x01,
	ORXE_RC_SEND_LAST				= 0x02,
	ORXE_RC_SEND_LAST_WITH_IMMEDIATE			= 0x03,
	ORXE_RC_SEND_ONLY				= 0x04,
	ORXE_RC_SEND_ONLY_WITH_IMMEDIATE			= 0x05,
	ORXE_RC_RDMA_WRITE_FIRST				= 0x06,
	ORXE_RC_RDMA_WRITE_MIDDLE			= 0x07,
	ORXE_RC_RDMA_WRITE_LAST				= 0x08,
	ORXE_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE		= 0x09,
	ORXE_RC_RDMA_WRITE_ONLY				= 0x0a,
	ORXE_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE		= 0x0b,
	ORXE_RC_RDMA_READ_REQUEST			= 0x0c,
	ORXE_RC_RDMA_READ_RESPONSE_FIRST			= 0x0d,
	ORXE_RC_RDMA_READ_RESPONSE_MIDDLE		= 0x0e,
	ORXE_RC_RDMA_READ_RESPONSE_LAST			= 0x0f,
	ORXE_RC_RDMA_READ_RESPONSE_ONLY			= 0x10,
	ORXE_RC_ACKNOWLEDGE				= 0x11,
	ORXE_RC_ATOMIC_ACKNOWLEDGE			= 0x12,
	ORXE_RC_COMPARE_SWAP				= 0x13,
	ORXE_RC_FETCH_ADD				= 0x14,
	ORXE_RC_SEND_LAST_WITH_INVALIDATE		= 0x16,
	ORXE_RC_SEND_ONLY_WITH_INVALIDATE		= 0x17,

	ORXE_UC_SEND_FIRST				= 0x20,
	ORXE_UC_SEND_MIDDLE				= 0x21,
	ORXE_UC_SEND_LAST				= 0x22,
	ORXE_UC_SEND_LAST_WITH_IMMEDIATE			= 0x23,
	ORXE_UC_SEND_ONLY				= 0x24,
	ORXE_UC_SEND_ONLY_WITH_IMMEDIATE			= 0x25,
	ORXE_UC_RDMA_WRITE_FIRST				= 0x26,
	ORXE_UC_RDMA_WRITE_MIDDLE			= 0x27,
	ORXE_UC_RDMA_WRITE_LAST				= 0x28,
	ORXE_UC_RDMA_WRITE_LAST_WITH_IMMEDIATE		= 0x29,
	ORXE_UC_RDMA_WRITE_ONLY				= 0x2a,
	ORXE_UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE		= 0x2b,

	ORXE_XRC_SEND_FIRST				= 0xa0,
	ORXE_XRC_SEND_MIDDLE				= 0xa1,
	ORXE_XRC_SEND_LAST				= 0xa2,
	ORXE_XRC_SEND_LAST_WITH_IMMEDIATE		= 0xa3,
	ORXE_XRC_SEND_ONLY				= 0xa4,
	ORXE_XRC_SEND_ONLY_WITH_IMMEDIATE		= 0xa5,
	ORXE_XRC_RDMA_WRITE_FIRST			= 0xa6,
	ORXE_XRC_RDMA_WRITE_MIDDLE			= 0xa7,
	ORXE_XRC_RDMA_WRITE_LAST				= 0xa8,
	ORXE_XRC_RDMA_WRITE_LAST_WITH_IMMEDIATE		= 0xa9,
	ORXE_XRC_RDMA_WRITE_ONLY				= 0xaa,
	ORXE_XRC_RDMA_WRITE_ONLY_WITH_IMMEDIATE		= 0xab,
	ORXE_XRC_RDMA_READ_REQUEST			= 0xac,
	ORXE_XRC_RDMA_READ_RESPONSE_FIRST		= 0xad,
	ORXE_XRC_RDMA_READ_RESPONSE_MIDDLE		= 0xae,
	ORXE_XRC_RDMA_READ_RESPONSE_LAST			= 0xaf,
	ORXE_XRC_RDMA_READ_RESPONSE_ONLY			= 0xb0,
	ORXE_XRC_ACKNOWLEDGE				= 0xb1,
	ORXE_XRC_ATOMIC_ACKNOWLEDGE			= 0xb2,
	ORXE_XRC_COMPARE_SWAP				= 0xb3,
	ORXE_XRC_FETCH_ADD				= 0xb4,
	ORXE_XRC_SEND_LAST_WITH_INVALIDATE		= 0xb6,
	ORXE_XRC_SEND_ONLY_WITH_INVALIDATE		= 0xb7,

	ORXE_UD_SEND_ONLY				= 0x64,
	ORXE_UD_SEND_ONLY_WITH_IMMEDIATE			= 0x65,
};

/* ---- Base Transport Header ---- */

struct orxe_bth {
	u8 opcode;
	u8 flags;		/* ORXE_BTH_SE, _MIG, pad count, transport version */
	__be16 pkey;
	__be32 qpn;		/* resv8a (FECN, BECN, 6 reserved bits), then the destination QP */
	__be32 apsn;		/* ORXE_BTH_ACK_REQ, 7 reserved bits, then the PSN */
} __packed;

#define ORXE_BTH_SE		0x80	/* in flags: solicited event */
#define ORXE_BTH_MIG		0x40	/* in flags: migration request */
#define ORXE_BTH_PAD_SHIFT	4	/* in flags: pad count, 0..3 */
#define ORXE_BTH_PAD_MASK	0x30
#define ORXE_BTH_TVER_MASK	0x0f
#define ORXE_BTH_RESV8A		4	/* byte offset of resv8a: variant, outside the ICRC */
#define ORXE_BTH_ACK_REQ		BIT(31)	/* in apsn */

/* ---- Extension headers ---- */

/* XRC: the XRC SRQ at the target a request is for (8 reserved bits, then its number). */
struct orxe_xrceth {
	__be32 srqn;
} __packed;

/* Datagram: UD packets. */
struct orxe_deth {
	__be32 qkey;
	__be32 sqp;		/* 8 reserved bits, then the source QP */
} __packed;

/* RDMA: write and read requests. */
struct orxe_reth {
	__be64 va;
	__be32 rkey;
	__be32 len;		/* of the whole message, not this packet */
} __packed;

/* Atomic request. */
struct orxe_atmeth {
	__be64 va;
	__be32 rkey;
	__be64 swap_add;
	__be64 compare;
} __packed;

/* Acknowledgment: syndrome (see ORXE_AETH_*) and message sequence number. */
struct orxe_aeth {
	__be32 smsn;
} __packed;

/* Atomic acknowledgment: the value found at the target before the operation. */
struct orxe_atmack {
	__be64 orig;
} __packed;

/* Immediate data, delivered as is in the receiver's completion. */
struct orxe_immdt {
	__be32 imm;
} __packed;

/* Invalidate: the R_Key a send-with-invalidate revokes at the responder. */
struct orxe_ieth {
	__be32 rkey;
} __packed;

static_assert(sizeof(struct orxe_bth) == 12);
static_assert(sizeof(struct orxe_xrceth) == 4);
static_assert(sizeof(struct orxe_deth) == 8);
static_assert(sizeof(struct orxe_reth) == 16);
static_assert(sizeof(struct orxe_atmeth) == 28);
static_assert(sizeof(struct orxe_aeth) == 4);
static_assert(sizeof(struct orxe_atmack) == 8);
static_assert(sizeof(struct orxe_immdt) == 4);
static_assert(sizeof(struct orxe_ieth) == 4);

static inline u32 orxe_xrceth_srqn(const struct orxe_xrceth *xrceth)
{
	return be32_to_cpu(xrceth->srqn) & ORXE_QPN_MASK;
}

static inline u32 orxe_deth_src_qpn(const struct orxe_deth *deth)
{
	return be32_to_cpu(deth->sqp) & ORXE_QPN_MASK;
}

/*
 * AETH syndrome: bit 7 reserved, bits 6:5 the kind, bits 4:0 its value: the credit count of an
 * ACK (ORXE_AETH_NO_CREDITS: none advertised), the timer code of an RNR NAK, or the NAK code.
 */
#define ORXE_AETH_KIND_MASK	0x60
#define ORXE_AETH_VALUE_MASK	0x1f
#define ORXE_AETH_ACK		0x00
#define ORXE_AETH_RNR_NAK	0x20
#define ORXE_AETH_NAK		0x60
#define ORXE_AETH_NO_CREDITS	0x1f

enum orxe_nak_code {
	ORXE_NAK_PSN_SEQ_ERROR		= 0,
	ORXE_NAK_INVALID_REQUEST		= 1,
	ORXE_NAK_REMOTE_ACCESS_ERROR	= 2,
	ORXE_NAK_REMOTE_OP_ERROR		= 3,
	ORXE_NAK_INVALID_RD_REQUEST	= 4,
};

static inline u8 orxe_aeth_syn_ack(u8 credits)
{
	return ORXE_AETH_ACK | (credits & ORXE_AETH_VALUE_MASK);
}

static inline u8 orxe_aeth_syn_rnr_nak(u8 timer)
{
	return ORXE_AETH_RNR_NAK | (timer & ORXE_AETH_VALUE_MASK);
}

static inline u8 orxe_aeth_syn_nak(enum orxe_nak_code code)
{
	return ORXE_AETH_NAK | (code & ORXE_AETH_VALUE_MASK);
}

static inline u8 orxe_aeth_syndrome(const struct orxe_aeth *aeth)
{
	return be32_to_cpu(aeth->smsn) >> 24;
}

static inline u32 orxe_aeth_msn(const struct orxe_aeth *aeth)
{
	return be32_to_cpu(aeth->smsn) & ORXE_MSN_MASK;
}

/* ---- The opcode table ---- */

/* The extension headers, in the order they follow the BTH. */
enum orxe_ext {
	ORXE_EXT_XRCETH,
	ORXE_EXT_DETH,
	ORXE_EXT_RETH,
	ORXE_EXT_ATMETH,
	ORXE_EXT_AETH,
	ORXE_EXT_ATMACK,
	ORXE_EXT_IMMDT,
	ORXE_EXT_IETH,
	ORXE_NUM_EXT,
};

enum orxe_op_flags {
	ORXE_OPF_REQ	= BIT(0),	/* requester to responder */
	ORXE_OPF_RESP	= BIT(1),	/* responder to requester: read responses and ACKs */
	ORXE_OPF_FIRST	= BIT(2),	/* first packet of a message; ONLY is FIRST | LAST */
	ORXE_OPF_MIDDLE	= BIT(3),
	ORXE_OPF_LAST	= BIT(4),
	ORXE_OPF_PAYLOAD = BIT(5),	/* may carry payload (LAST and ONLY: possibly none) */
	ORXE_OPF_SEND	= BIT(6),
	ORXE_OPF_WRITE	= BIT(7),
	ORXE_OPF_READ	= BIT(8),	/* read request or read response */
	ORXE_OPF_ATOMIC	= BIT(9),	/* atomic request or atomic ACK */
	ORXE_OPF_IMM	= BIT(10),	/* immediate data for the receiver's completion */
	ORXE_OPF_INV	= BIT(11),	/* invalidates the R_Key in its IETH */
	ORXE_OPF_RECV	= BIT(12),	/* consumes a receive WQE: sends, writes with immediate */
	ORXE_OPF_ACKED	= BIT(13),	/* RC request, which the responder must answer */
};

struct orxe_opcode_info {
	const char *name;		/* "RC_SEND_FIRST", ... */
	u16 hdrs;			/* BIT(enum orxe_ext) for each extension header carried */
	u16 flags;			/* enum orxe_op_flags */
	u8 hdr_len;			/* BTH and extension headers, bytes */
	u8 offset[ORXE_NUM_EXT];	/* from the BTH, of each header in hdrs; 0 for the others */
};

/* The entry for @opcode, or NULL if oib_rxe does not speak it. */
const struct orxe_opcode_info *oib_rxe_opcode(u8 opcode);

/* ---- Building frames ---- */

/*
 * Everything the builder writes.  IPv4 or IPv6 follows the destination GID: an IPv4-mapped one
 * (::ffff:a.b.c.d) means IPv4, and then the source GID must be one too.  Only the extension headers
 * the opcode carries are read.
 */
struct orxe_tx_hdr {
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

	u32 xrc_srqn;		/* XRCETH */
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
		u8 syndrome;	/* orxe_aeth_syn_*() */
		u32 msn;
	} aeth;
	u64 atmack_orig;
	__be32 imm;
	u32 ieth_rkey;

	u32 paylen;		/* the pad is added and counted in the BTH by the builder */
};

int oib_rxe_frame_build(const struct orxe_tx_hdr *hdr, const void *payload, u8 *buf, u32 size);
int oib_rxe_frame_build_skb(const struct orxe_tx_hdr *hdr, const void *payload,
			    struct sk_buff *skb);
void oib_rxe_frame_seal(u8 *frame, u32 len);
struct sk_buff *oib_rxe_frame_frag(const struct orxe_tx_hdr *hdr, const void *kva);

/*
 * A train: packets of one QP in one frame, their payloads by reference (the driver's orxe_train.c).
 * Built with oib_rxe_train_add() and closed into its frame; the fabric splits one into its
 * packets' fragment frames wherever they are seen as bytes.  A struct orxe_train lives on its
 * builder's stack for one send loop and counts nothing: its skb, once built, holds a reference on
 * each payload page and on the tail page, dropped when the last frame made from it is freed.
 */
#define ORXE_TRAIN_MAX	16	/* packets; a fragment more, the tail, stays within MAX_SKB_FRAGS */

struct orxe_port;
struct orxe_train {
	struct orxe_port *port;		/* where it is sent from (NULL: never sent) */
	struct sk_buff *skb;		/* its frame so far, or NULL */
	u32 segs;			/* packets in it */
	u32 frags;			/* their payloads' bytes */
	u32 tail;			/* their pads and implied ICRCs: the last fragment */
	u32 max;			/* packets it takes at most */
};

void oib_rxe_train_init(struct orxe_train *t, struct orxe_port *port, u32 max);
bool oib_rxe_train_add(struct orxe_train *t, const struct orxe_tx_hdr *hdr, const void *kva);
struct sk_buff *oib_rxe_train_close(struct orxe_train *t);
u32 oib_rxe_train_split(struct sk_buff *skb, struct sk_buff_head *frames);
/* Whether a port executes a train's RC write middle packets as runs (orxe_port.c); what it was. */
bool oib_rxe_set_rx_runs(bool on);

/* Wait until the completion handler call or CQ event the CQ had queued has run (orxe_cq.c). */
void oib_rxe_cq_flush(struct oib_cq *cq);

/* ---- Parsing frames ---- */

/* Why the parser refused a frame; oib_rxe_pkt_parse() returns the negative. */
enum orxe_drop_reason {
	ORXE_DROP_TOO_SHORT = 1,	/* the frame ends inside the Ethernet or IP header */
	ORXE_DROP_BAD_ETHERTYPE,		/* neither IPv4 nor IPv6 (VLAN tags included) */
	ORXE_DROP_BAD_IP_VERSION,
	ORXE_DROP_BAD_IP_HDR_LEN,	/* IPv4 IHL other than 5: RoCEv2 sends no options */
	ORXE_DROP_BAD_IP_LEN,		/* IP length past the frame's end, or short of UDP's */
	ORXE_DROP_IP_FRAGMENT,
	ORXE_DROP_BAD_IP_CSUM,
	ORXE_DROP_NOT_UDP,		/* IPv6 extension headers included */
	ORXE_DROP_BAD_UDP_PORT,
	ORXE_DROP_BAD_UDP_LEN,		/* UDP length other than the IP payload's */
	ORXE_DROP_BAD_UDP_CSUM,		/* a non-zero UDP checksum that does not match */
	ORXE_DROP_SHORT_BTH,		/* UDP payload shorter than a BTH and an ICRC */
	ORXE_DROP_BAD_ICRC,
	ORXE_DROP_BAD_TVER,
	ORXE_DROP_BAD_OPCODE,		/* not in the opcode table */
	ORXE_DROP_BAD_OPCODE_LEN,	/* short of its headers, or payload where it has none */
	ORXE_DROP_BAD_PAD,		/* pad count inconsistent with the length or the opcode */
	ORXE_NUM_DROP_REASONS
};

/*
 * A parsed frame.  The pointers point into the parsed frame (extension headers the opcode does
 * not carry are NULL); IPv4 addresses come as IPv4-mapped GIDs.
 */
struct orxe_pkt {
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
	const struct orxe_opcode_info *info;
	bool solicited;
	bool migreq;
	bool ack_req;
	u8 pad;
	u16 pkey;
	u32 dest_qpn;
	u32 psn;

	const struct orxe_bth *bth;
	const struct orxe_xrceth *xrceth;
	const struct orxe_deth *deth;
	const struct orxe_reth *reth;
	const struct orxe_atmeth *atmeth;
	const struct orxe_aeth *aeth;
	const struct orxe_atmack *atmack;
	const struct orxe_immdt *immdt;
	const struct orxe_ieth *ieth;
	const u8 *payload;
	u32 paylen;		/* without the pad */
};

int oib_rxe_pkt_parse(const u8 *frame, u32 len, struct orxe_pkt *pkt);
/* @reason: an enum orxe_drop_reason, or oib_rxe_pkt_parse()'s negative of one. */
const char *oib_rxe_drop_reason_name(int reason);

/* ---- GIDs of IPv4 addresses ---- */

static inline bool orxe_gid_is_v4mapped(const union oib_gid *gid)
{
	return ipv6_addr_v4mapped(&gid->in6);
}

#endif /* OIB_KUNIT_RXE_H */
