// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SDP wire: the BSDH, the Hello and HelloAck of the CM private data, and the messages of the
 * data path, packed and checked.  include/oib/sdp.h has the layouts and the errno rules.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <oib/names.h>
#include <oib/sdp.h>

/* What each message ID may carry on the QP. */
struct sdp_mid_rule {
	u8 on_qp:1;		/* the QP carries it (not Hello, HelloAck) */
	u8 payload:1;		/* bytes may follow the extension */
	u8 ext;			/* the extension's size */
};

static const struct sdp_mid_rule sdp_mid_rules[256] = {
	[OIB_SDP_MID_DISCONN] = { .on_qp = 1 },
	[OIB_SDP_MID_ABORT_CONN] = { .on_qp = 1 },
	[OIB_SDP_MID_SEND_SM] = { .on_qp = 1 },
	[OIB_SDP_MID_RDMA_WR_COMPL] = { .on_qp = 1 },
	[OIB_SDP_MID_RDMA_RD_COMPL] = { .on_qp = 1, .ext = sizeof(struct oib_sdp_rrch) },
	[OIB_SDP_MID_MODE_CHANGE] = { .on_qp = 1 },
	[OIB_SDP_MID_SRC_AVAIL_CANCEL] = { .on_qp = 1 },
	[OIB_SDP_MID_SINK_CANCEL] = { .on_qp = 1 },
	[OIB_SDP_MID_SINK_CANCEL_ACK] = { .on_qp = 1 },
	[OIB_SDP_MID_CH_RCVBUF] = { .on_qp = 1, .ext = sizeof(struct oib_sdp_crbh) },
	[OIB_SDP_MID_CH_RCVBUF_ACK] = { .on_qp = 1, .ext = sizeof(struct oib_sdp_crbh) },
	[OIB_SDP_MID_SUSP_COMM] = { .on_qp = 1 },
	[OIB_SDP_MID_SUSP_COMM_ACK] = { .on_qp = 1 },
	[OIB_SDP_MID_SINK_AVAIL] = { .on_qp = 1 },
	[OIB_SDP_MID_SRC_AVAIL] = { .on_qp = 1, .payload = 1, .ext = sizeof(struct oib_sdp_srcah) },
	[OIB_SDP_MID_DATA] = { .on_qp = 1, .payload = 1 },
};

static const char * const sdp_mid_names[256] = {
	[OIB_SDP_MID_HELLO] = "Hello",
	[OIB_SDP_MID_HELLO_ACK] = "HelloAck",
	[OIB_SDP_MID_DISCONN] = "DisConn",
	[OIB_SDP_MID_ABORT_CONN] = "AbortConn",
	[OIB_SDP_MID_SEND_SM] = "SendSM",
	[OIB_SDP_MID_RDMA_WR_COMPL] = "RdmaWrCompl",
	[OIB_SDP_MID_RDMA_RD_COMPL] = "RdmaRdCompl",
	[OIB_SDP_MID_MODE_CHANGE] = "ModeChange",
	[OIB_SDP_MID_SRC_AVAIL_CANCEL] = "SrcAvailCancel",
	[OIB_SDP_MID_SINK_CANCEL] = "SinkCancel",
	[OIB_SDP_MID_SINK_CANCEL_ACK] = "SinkCancelAck",
	[OIB_SDP_MID_CH_RCVBUF] = "ChRcvBuf",
	[OIB_SDP_MID_CH_RCVBUF_ACK] = "ChRcvBufAck",
	[OIB_SDP_MID_SUSP_COMM] = "SuspComm",
	[OIB_SDP_MID_SUSP_COMM_ACK] = "SuspCommAck",
	[OIB_SDP_MID_SINK_AVAIL] = "SinkAvail",
	[OIB_SDP_MID_SRC_AVAIL] = "SrcAvail",
	[OIB_SDP_MID_DATA] = "Data",
};

const char *oib_sdp_mid_name(u8 mid)
{
	return oib_enum_name(sdp_mid_names, mid);
}
EXPORT_SYMBOL(oib_sdp_mid_name);

void oib_sdp_pack_bsdh(struct oib_sdp_bsdh *b, const struct oib_sdp_hdr *h)
{
	b->mid = h->mid;
	b->flags = h->flags;
	b->bufs = cpu_to_be16(h->bufs);
	b->len = cpu_to_be32(h->len);
	b->mseq = cpu_to_be32(h->mseq);
	b->mseq_ack = cpu_to_be32(h->mseq_ack);
}
EXPORT_SYMBOL(oib_sdp_pack_bsdh);

void oib_sdp_parse_bsdh(const struct oib_sdp_bsdh *b, struct oib_sdp_hdr *h)
{
	h->mid = b->mid;
	h->flags = b->flags;
	h->bufs = be16_to_cpu(b->bufs);
	h->len = be32_to_cpu(b->len);
	h->mseq = be32_to_cpu(b->mseq);
	h->mseq_ack = be32_to_cpu(b->mseq_ack);
}
EXPORT_SYMBOL(oib_sdp_parse_bsdh);

static void sdp_put_addr(u8 *p, const struct in6_addr *a, u8 ip_version)
{
	memset(p, 0, 16);
	if (ip_version == 4)
		memcpy(p + 12, &a->s6_addr32[3], 4);
	else
		memcpy(p, a, 16);
}

static void sdp_get_addr(struct in6_addr *a, const u8 *p, u8 ip_version)
{
	memset(a, 0, sizeof(*a));
	if (ip_version == 4)
		memcpy(&a->s6_addr32[3], p + 12, 4);
	else
		memcpy(a, p, 16);
}

void oib_sdp_pack_hello(void *buf, const struct oib_sdp_hello *hello)
{
	struct oib_sdp_hh *hh = buf;
	struct oib_sdp_hdr h = hello->hdr;

	memset(hh, 0, sizeof(*hh));
	h.mid = OIB_SDP_MID_HELLO;
	h.len = sizeof(*hh);
	oib_sdp_pack_bsdh(&hh->bsdh, &h);
	hh->majv_minv = hello->version;
	hh->ipv_cap = hello->ip_version == 4 ? OIB_SDP_IPV4 : OIB_SDP_IPV6;
	hh->max_adverts = hello->max_adverts;
	hh->desremrcvsz = cpu_to_be32(hello->desremrcvsz);
	hh->localrcvsz = cpu_to_be32(hello->localrcvsz);
	hh->port = cpu_to_be16(hello->port);
	sdp_put_addr(hh->src_addr, &hello->src, hello->ip_version);
	sdp_put_addr(hh->dst_addr, &hello->dst, hello->ip_version);
}
EXPORT_SYMBOL(oib_sdp_pack_hello);

/* The IP version an ipv_cap byte names: 4, 6, or 0 for neither. */
static u8 sdp_ip_version(u8 ipv_cap)
{
	switch (ipv_cap & 0xf0) {
	case OIB_SDP_IPV4:
		return 4;
	case OIB_SDP_IPV6:
		return 6;
	default:
		return 0;
	}
}

/* The checks a Hello and a HelloAck share: the BSDH's ID and length, the major version. */
static int sdp_check_hello_hdr(const struct oib_sdp_hdr *h, u8 mid, size_t size, u8 version)
{
	if (h->mid != mid || h->flags)
		return -EBADMSG;
	if (h->len != size)
		return -EMSGSIZE;
	if (OIB_SDP_MAJOR(version) != OIB_SDP_MAJOR(OIB_SDP_VERSION))
		return -EINVAL;
	return 0;
}

int oib_sdp_parse_hello(const void *buf, size_t len, struct oib_sdp_hello *hello)
{
	const struct oib_sdp_hh *hh = buf;
	int ret;

	if (!buf || len < sizeof(*hh))
		return -EMSGSIZE;
	oib_sdp_parse_bsdh(&hh->bsdh, &hello->hdr);
	ret = sdp_check_hello_hdr(&hello->hdr, OIB_SDP_MID_HELLO, sizeof(*hh), hh->majv_minv);
	if (ret)
		return ret;
	hello->version = hh->majv_minv;
	hello->ip_version = sdp_ip_version(hh->ipv_cap);
	hello->max_adverts = hh->max_adverts;
	hello->desremrcvsz = be32_to_cpu(hh->desremrcvsz);
	hello->localrcvsz = be32_to_cpu(hh->localrcvsz);
	hello->port = be16_to_cpu(hh->port);
	if (!hello->ip_version || !hello->max_adverts)
		return -EINVAL;
	sdp_get_addr(&hello->src, hh->src_addr, hello->ip_version);
	sdp_get_addr(&hello->dst, hh->dst_addr, hello->ip_version);
	return 0;
}
EXPORT_SYMBOL(oib_sdp_parse_hello);

void oib_sdp_pack_hello_ack(void *buf, const struct oib_sdp_hello_ack *ack)
{
	struct oib_sdp_hah *hah = buf;
	struct oib_sdp_hdr h = ack->hdr;

	memset(hah, 0, sizeof(*hah));
	h.mid = OIB_SDP_MID_HELLO_ACK;
	h.len = sizeof(*hah);
	oib_sdp_pack_bsdh(&hah->bsdh, &h);
	hah->majv_minv = ack->version;
	hah->ipv_cap = ack->ip_version == 4 ? OIB_SDP_IPV4 : OIB_SDP_IPV6;
	hah->ext_max_adverts = ack->max_adverts;
	hah->actrcvsz = cpu_to_be32(ack->actrcvsz);
}
EXPORT_SYMBOL(oib_sdp_pack_hello_ack);

int oib_sdp_parse_hello_ack(const void *buf, size_t len, struct oib_sdp_hello_ack *ack)
{
	const struct oib_sdp_hah *hah = buf;
	int ret;

	if (!buf || len < sizeof(*hah))
		return -EMSGSIZE;
	oib_sdp_parse_bsdh(&hah->bsdh, &ack->hdr);
	ret = sdp_check_hello_hdr(&ack->hdr, OIB_SDP_MID_HELLO_ACK, sizeof(*hah), hah->majv_minv);
	if (ret)
		return ret;
	ack->version = hah->majv_minv;
	ack->ip_version = sdp_ip_version(hah->ipv_cap);
	ack->max_adverts = hah->ext_max_adverts;
	ack->actrcvsz = be32_to_cpu(hah->actrcvsz);
	if (ack->actrcvsz < OIB_SDP_MIN_RCVSZ)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL(oib_sdp_parse_hello_ack);

size_t oib_sdp_msg_size(u8 mid, u32 payload_len)
{
	const struct sdp_mid_rule *r = &sdp_mid_rules[mid];

	if (!r->on_qp)
		return 0;
	return sizeof(struct oib_sdp_bsdh) + r->ext + (r->payload ? payload_len : 0);
}
EXPORT_SYMBOL(oib_sdp_msg_size);

/* The extensions are packed structs: the compiler makes their unaligned accesses. */
static void sdp_pack_ext(u8 *p, const struct oib_sdp_msg *msg)
{
	struct oib_sdp_srcah *sa = (struct oib_sdp_srcah *)p;
	struct oib_sdp_crbh *cr = (struct oib_sdp_crbh *)p;
	struct oib_sdp_rrch *rr = (struct oib_sdp_rrch *)p;

	switch (msg->hdr.mid) {
	case OIB_SDP_MID_RDMA_RD_COMPL:
		rr->len = cpu_to_be32(msg->ext_len);
		break;
	case OIB_SDP_MID_CH_RCVBUF:
	case OIB_SDP_MID_CH_RCVBUF_ACK:
		cr->size = cpu_to_be32(msg->ext_len);
		break;
	case OIB_SDP_MID_SRC_AVAIL:
		sa->len = cpu_to_be32(msg->ext_len);
		sa->rkey = cpu_to_be32(msg->rkey);
		sa->vaddr = cpu_to_be64(msg->vaddr);
		break;
	}
}

size_t oib_sdp_pack_msg(void *buf, const struct oib_sdp_msg *msg, const void *payload)
{
	const struct sdp_mid_rule *r = &sdp_mid_rules[msg->hdr.mid];
	size_t size = oib_sdp_msg_size(msg->hdr.mid, msg->payload_len);
	struct oib_sdp_hdr h = msg->hdr;
	u8 *p = buf;

	if (!size)
		return 0;
	h.len = size;
	oib_sdp_pack_bsdh(buf, &h);
	sdp_pack_ext(p + sizeof(struct oib_sdp_bsdh), msg);
	if (r->payload && msg->payload_len)
		memcpy(p + sizeof(struct oib_sdp_bsdh) + r->ext, payload, msg->payload_len);
	return size;
}
EXPORT_SYMBOL(oib_sdp_pack_msg);

/* The extension's fields, and their ranges: a zero length or a too small buffer is refused. */
static int sdp_parse_ext(const u8 *p, struct oib_sdp_msg *msg)
{
	const struct oib_sdp_srcah *sa = (const struct oib_sdp_srcah *)p;
	const struct oib_sdp_crbh *cr = (const struct oib_sdp_crbh *)p;
	const struct oib_sdp_rrch *rr = (const struct oib_sdp_rrch *)p;

	switch (msg->hdr.mid) {
	case OIB_SDP_MID_RDMA_RD_COMPL:
		msg->ext_len = be32_to_cpu(rr->len);
		return msg->ext_len ? 0 : -EINVAL;
	case OIB_SDP_MID_CH_RCVBUF:
	case OIB_SDP_MID_CH_RCVBUF_ACK:
		msg->ext_len = be32_to_cpu(cr->size);
		return msg->ext_len >= OIB_SDP_MIN_RCVSZ ? 0 : -EINVAL;
	case OIB_SDP_MID_SRC_AVAIL:
		msg->ext_len = be32_to_cpu(sa->len);
		msg->rkey = be32_to_cpu(sa->rkey);
		msg->vaddr = be64_to_cpu(sa->vaddr);
		return msg->ext_len ? 0 : -EINVAL;
	}
	return 0;
}

int oib_sdp_parse_msg(const void *buf, size_t len, struct oib_sdp_msg *msg)
{
	const struct sdp_mid_rule *r;
	const u8 *p = buf;
	size_t fixed;

	memset(msg, 0, sizeof(*msg));
	if (!buf || len < sizeof(struct oib_sdp_bsdh))
		return -EMSGSIZE;
	oib_sdp_parse_bsdh(buf, &msg->hdr);
	r = &sdp_mid_rules[msg->hdr.mid];
	if (!r->on_qp || (msg->hdr.flags & ~OIB_SDP_FLAGS))
		return -EBADMSG;
	fixed = sizeof(struct oib_sdp_bsdh) + r->ext;
	if (msg->hdr.len != len || len < fixed || (!r->payload && len != fixed))
		return -EMSGSIZE;
	if (msg->hdr.mid != OIB_SDP_MID_DATA && msg->hdr.flags)
		return -EINVAL;
	msg->payload_len = len - fixed;
	msg->payload = msg->payload_len ? p + fixed : NULL;
	if ((msg->hdr.flags & OIB_SDP_OOB_PRES) && !msg->payload_len)
		return -EINVAL;
	return sdp_parse_ext(p + sizeof(struct oib_sdp_bsdh), msg);
}
EXPORT_SYMBOL(oib_sdp_parse_msg);
