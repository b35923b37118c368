/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The SDP wire (IBTA vol. 1 Annex A4, as OFED's ib_sdp sent it): the Base Sockets Direct Header
 * every message starts with, the Hello and HelloAck of the CM private data, and the messages of
 * the data path; what oib_sdp exports to pack and check them (Documentation/sdp.md).
 *
 * Every multi-byte field is big-endian.  Parsers take a received buffer and its length and fill
 * a host-order struct; they refuse a buffer shorter than its message or a BSDH length that is not
 * the buffer's with -EMSGSIZE, an unknown message ID, a reserved flag or a message that does not
 * belong where it came (a Hello on the QP) with -EBADMSG, and a field out of range with -EINVAL,
 * so that a receiver can reset the connection and count why.
 */
#ifndef OIB_SDP_H
#define OIB_SDP_H

#include <linux/build_bug.h>
#include <linux/in6.h>
#include <linux/types.h>

/* The socket families OFED gave SDP, and its RDMA CM port space: service ID 0x1PPPP. */
#define OIB_AF_INET_SDP		27
#define OIB_AF_INET6_SDP	28
#define OIB_SDP_PORT_SPACE	0x0001
#define OIB_SDP_SERVICE_ID(port)	((u64)OIB_SDP_PORT_SPACE << 16 | (u16)(port))

/* OFED's socket options at level SOL_TCP: the zero-copy threshold, the last bind's errno. */
#define OIB_SDP_ZCOPY_THRESH	80
#define OIB_SDP_LAST_BIND_ERR	81

/* Message IDs (the BSDH's mid). */
enum oib_sdp_mid {
	OIB_SDP_MID_HELLO = 0x00,
	OIB_SDP_MID_HELLO_ACK = 0x01,
	OIB_SDP_MID_DISCONN = 0x02,
	OIB_SDP_MID_ABORT_CONN = 0x03,
	OIB_SDP_MID_SEND_SM = 0x04,
	OIB_SDP_MID_RDMA_WR_COMPL = 0x05,
	OIB_SDP_MID_RDMA_RD_COMPL = 0x06,
	OIB_SDP_MID_MODE_CHANGE = 0x07,
	OIB_SDP_MID_SRC_AVAIL_CANCEL = 0x08,
	OIB_SDP_MID_SINK_CANCEL = 0x09,
	OIB_SDP_MID_SINK_CANCEL_ACK = 0x0a,
	OIB_SDP_MID_CH_RCVBUF = 0x0b,
	OIB_SDP_MID_CH_RCVBUF_ACK = 0x0c,
	OIB_SDP_MID_SUSP_COMM = 0x0d,
	OIB_SDP_MID_SUSP_COMM_ACK = 0x0e,
	OIB_SDP_MID_SINK_AVAIL = 0xfd,
	OIB_SDP_MID_SRC_AVAIL = 0xfe,
	OIB_SDP_MID_DATA = 0xff,
};

/* BSDH flags: urgent data in this message, urgent data pending behind it. */
#define OIB_SDP_OOB_PRES	0x01
#define OIB_SDP_OOB_PEND	0x02
#define OIB_SDP_FLAGS		(OIB_SDP_OOB_PRES | OIB_SDP_OOB_PEND)

/* The protocol version a Hello and HelloAck carry (major 2, minor 2), and the IP versions. */
#define OIB_SDP_VERSION		0x22
#define OIB_SDP_MAJOR(v)	((v) >> 4)
#define OIB_SDP_IPV4		0x40
#define OIB_SDP_IPV6		0x60

/* The Base Sockets Direct Header: 16 bytes. */
struct oib_sdp_bsdh {
	u8 mid;
	u8 flags;
	__be16 bufs;		/* receive buffers the sender has posted */
	__be32 len;		/* the whole message, this header included */
	__be32 mseq;		/* the sender's sequence number of this message */
	__be32 mseq_ack;	/* the last message the sender received */
} __packed;

/* Hello: the REQ's 92 bytes of private data. */
struct oib_sdp_hh {
	struct oib_sdp_bsdh bsdh;
	u8 majv_minv;
	u8 ipv_cap;		/* IP version in the high nibble */
	u8 rsvd1;
	u8 max_adverts;		/* zero-copy sink adverts the sender takes; never 0 */
	__be32 desremrcvsz;	/* receive buffer size the sender asks for */
	__be32 localrcvsz;	/* its own receive buffers' size */
	__be16 port;		/* the sender's port */
	__be16 rsvd2;
	u8 src_addr[16];	/* IPv4: the last 4 bytes */
	u8 dst_addr[16];
	u8 rsvd3[28];
} __packed;

/* HelloAck: the REP's 196 bytes of private data. */
struct oib_sdp_hah {
	struct oib_sdp_bsdh bsdh;
	u8 majv_minv;
	u8 ipv_cap;
	u8 rsvd1;
	u8 ext_max_adverts;
	__be32 actrcvsz;	/* the size of the receive buffers the sender posted */
	u8 rsvd2[172];
} __packed;

/* The extensions after the BSDH. */
struct oib_sdp_rrch {		/* RdmaRdCompl */
	__be32 len;
} __packed;

struct oib_sdp_crbh {		/* ChRcvBuf, ChRcvBufAck */
	__be32 size;
} __packed;

struct oib_sdp_srcah {		/* SrcAvail */
	__be32 len;
	__be32 rkey;
	__be64 vaddr;
} __packed;

static_assert(sizeof(struct oib_sdp_bsdh) == 16);
static_assert(sizeof(struct oib_sdp_hh) == 92);
static_assert(sizeof(struct oib_sdp_hah) == 196);
static_assert(sizeof(struct oib_sdp_srcah) == 16);

/* A BSDH in host order. */
struct oib_sdp_hdr {
	u8 mid;
	u8 flags;
	u16 bufs;
	u32 len;
	u32 mseq;
	u32 mseq_ack;
};

/* A Hello in host order; addresses as IPv6 (an IPv4 one in the last 4 bytes, the rest 0). */
struct oib_sdp_hello {
	struct oib_sdp_hdr hdr;
	u8 version;
	u8 ip_version;		/* 4 or 6 */
	u8 max_adverts;
	u32 desremrcvsz;
	u32 localrcvsz;
	u16 port;
	struct in6_addr src;
	struct in6_addr dst;
};

struct oib_sdp_hello_ack {
	struct oib_sdp_hdr hdr;
	u8 version;
	u8 ip_version;
	u8 max_adverts;
	u32 actrcvsz;
};

/* A data-path message in host order: its header, its extension's fields, its payload. */
struct oib_sdp_msg {
	struct oib_sdp_hdr hdr;
	u32 ext_len;		/* RdmaRdCompl and SrcAvail: len; ChRcvBuf(Ack): size */
	u32 rkey;		/* SrcAvail */
	u64 vaddr;		/* SrcAvail */
	const u8 *payload;	/* Data and SrcAvail: the bytes after the header and extension */
	u32 payload_len;
};

/* The smallest receive buffer a HelloAck may name: a BSDH and one byte. */
#define OIB_SDP_MIN_RCVSZ	(sizeof(struct oib_sdp_bsdh) + 1)

void oib_sdp_pack_bsdh(struct oib_sdp_bsdh *b, const struct oib_sdp_hdr *h);
void oib_sdp_parse_bsdh(const struct oib_sdp_bsdh *b, struct oib_sdp_hdr *h);

/* Hello and HelloAck: @buf at least their size.  Parse: -EMSGSIZE, -EBADMSG, -EINVAL. */
void oib_sdp_pack_hello(void *buf, const struct oib_sdp_hello *hello);
int oib_sdp_parse_hello(const void *buf, size_t len, struct oib_sdp_hello *hello);
void oib_sdp_pack_hello_ack(void *buf, const struct oib_sdp_hello_ack *ack);
int oib_sdp_parse_hello_ack(const void *buf, size_t len, struct oib_sdp_hello_ack *ack);

/*
 * A data-path message: its size on the wire with @payload_len bytes of payload (0 for an ID
 * that has none or that the QP never carries); packing writes the header with that length.
 */
size_t oib_sdp_msg_size(u8 mid, u32 payload_len);
size_t oib_sdp_pack_msg(void *buf, const struct oib_sdp_msg *msg, const void *payload);

/*
 * A message received on the QP: @len is the completion's byte count.  Returns 0 with @msg
 * filled (its payload pointing into @buf), -EMSGSIZE, -EBADMSG or -EINVAL.
 */
int oib_sdp_parse_msg(const void *buf, size_t len, struct oib_sdp_msg *msg);

/* "Data", "DisConn", ...; "?" for an ID this table does not know. */
const char *oib_sdp_mid_name(u8 mid);

#endif /* OIB_SDP_H */
