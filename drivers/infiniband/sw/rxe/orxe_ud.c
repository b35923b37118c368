// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unreliable datagrams: UD and GSI QPs, one frame per message.
 *
 * Send: once the QP is in RTS, each queued request becomes one UD SEND_ONLY frame (DETH with the
 * Q_Key and source QPN), goes to the fabric and completes at once: a datagram's send completion
 * says it left, not that it arrived.  Receive: the frame's Q_Key and P_Key must match the QP's; the
 * first 40 bytes of the receive buffer get the GRH (for IPv4, the IPv4 header in the last 20), then
 * the payload.  A datagram that finds no receive posted is dropped, as on the wire.
 */
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/ipv6.h>
#include <linux/ip.h>
#include <linux/jhash.h>
#include "orxe.h"

#define ORXE_GRH_SIZE		40
/* A WR's Q_Key with this bit set takes the QP's own. */
#define ORXE_QKEY_USE_QP		0x80000000

/* RoCEv2 spreads flows over UDP source ports 0xc000-0xffff by a hash of the QP pair. */
u16 orxe_udp_sport(u32 src_qpn, u32 dst_qpn)
{
	return 0xc000 | (jhash_2words(src_qpn, dst_qpn, 0) & 0x3fff);
}

/* Fill @hdr for one datagram of @len bytes; 0 or the completion status to fail it with. */
static enum oib_wc_status orxe_ud_fill_hdr(struct orxe_qp *qp, struct orxe_port *port,
					   const struct orxe_send_wqe *wqe, u32 len,
					  struct orxe_tx_hdr *hdr)
{
	const struct oib_ah_attr *ah = &wqe->wr.wr.ud.ah->attr;
	struct oib_device *ibdev = qp->ib.device;
	u16 pkey_index = qp->ib.qp_type == OIB_QPT_GSI ? wqe->wr.wr.ud.pkey_index :
							 qp->attr.pkey_index;
	u32 qkey = wqe->wr.wr.ud.remote_qkey;

	if (len > oib_mtu_to_int(port->active_mtu))
		return OIB_WC_LOC_LEN_ERR;
	if (ah->port_num != port->port_num ||
	    oib_query_gid(ibdev, ah->port_num, ah->grh.sgid_index, &hdr->sgid, NULL) ||
	    oib_query_pkey(ibdev, port->port_num, pkey_index, &hdr->pkey))
		return OIB_WC_LOC_QP_OP_ERR;

	hdr->dgid = ah->grh.dgid;
	memcpy(hdr->smac, port->mac, ETH_ALEN);
	hdr->tos = ah->grh.traffic_class;
	hdr->hop_limit = ah->grh.hop_limit ?: 64;
	hdr->flow_label = ah->grh.flow_label;
	hdr->udp_sport = orxe_udp_sport(qp->ib.qp_num, wqe->wr.wr.ud.remote_qpn);
	hdr->opcode = wqe->wr.opcode == OIB_WR_SEND_WITH_IMM ?
		      ORXE_UD_SEND_ONLY_WITH_IMMEDIATE : ORXE_UD_SEND_ONLY;
	hdr->solicited = wqe->wr.send_flags & OIB_SEND_SOLICITED;
	hdr->dest_qpn = wqe->wr.wr.ud.remote_qpn;
	hdr->psn = qp->attr.sq_psn;
	qp->attr.sq_psn = (qp->attr.sq_psn + 1) & ORXE_PSN_MASK;
	hdr->deth.qkey = qkey & ORXE_QKEY_USE_QP ? qp->attr.qkey : qkey;
	hdr->deth.src_qpn = qp->ib.qp_num;
	hdr->imm = wqe->wr.ex.imm_data;
	hdr->paylen = len;
	return OIB_WC_SUCCESS;
}

/* Turn one request into a frame on the fabric; the completion status. */
static enum oib_wc_status orxe_ud_xmit(struct orxe_qp *qp, const struct orxe_send_wqe *wqe)
{
	struct orxe_port *port = &to_rdev(qp->ib.device)->ports[qp->ib.port_num - 1];
	struct orxe_tx_hdr hdr = {};
	enum oib_wc_status status;
	struct sk_buff *skb;
	u8 *payload;

	status = orxe_ud_fill_hdr(qp, port, wqe, wqe->len, &hdr);
	if (status)
		return status;
	if (!orxe_route(port, &hdr.dgid, hdr.dmac, false))
		return OIB_WC_SUCCESS;	/* lost, as a datagram may be */
	skb = orxe_frame_alloc(&hdr, &payload);
	if (!skb)
		return OIB_WC_LOC_QP_OP_ERR;
	if (wqe->wr.send_flags & OIB_SEND_INLINE) {
		memcpy(payload, wqe->sge, wqe->inline_len);
	} else if (!orxe_sgl_copy(qp, wqe->sge, wqe->wr.num_sge, 0, payload, wqe->len, false)) {
		kfree_skb(skb);
		return OIB_WC_LOC_PROT_ERR;
	}
	orxe_frame_xmit(port, skb);
	return OIB_WC_SUCCESS;
}

/*
 * Send everything queued, while the QP is in RTS; each request completes as its frame leaves.
 * Frames are built under sq_lock, which also orders the PSNs.
 */
void orxe_ud_send(struct orxe_qp *qp)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->sq_lock, flags);
	while (qp->state == OIB_QPS_RTS && !orxe_queue_empty(&qp->sq))
		orxe_sq_complete(qp, orxe_ud_xmit(qp, orxe_queue_head(&qp->sq)));
	spin_unlock_irqrestore(&qp->sq_lock, flags);
}

u32 orxe_recv_capacity(const struct orxe_recv_wqe *wqe)
{
	u32 i, total = 0;

	for (i = 0; i < wqe->num_sge; i++)
		total += wqe->sge[i].length;
	return total;
}

/* The 40-byte GRH a UD receive starts with, rebuilt from the frame's IP header. */
static void orxe_fill_grh(u8 *grh, const struct orxe_pkt *pkt, const u8 *frame)
{
	memset(grh, 0, ORXE_GRH_SIZE);
	if (pkt->ipv6)
		memcpy(grh, frame + ETH_HLEN, sizeof(struct ipv6hdr));
	else
		memcpy(grh + ORXE_GRH_SIZE - sizeof(struct iphdr), frame + ETH_HLEN,
		       sizeof(struct iphdr));
}

static bool orxe_ud_keys_ok(struct orxe_port *port, struct orxe_qp *qp, const struct orxe_pkt *pkt,
			    u16 *pkey_index)
{
	u32 qkey = be32_to_cpu(pkt->deth->qkey);
	u16 qp_pkey;

	if (oib_find_pkey(&port->rdev->ib, port->port_num, pkt->pkey, pkey_index)) {
		orxe_port_count(port, OIB_RXE_RX_DROP_PKEY);
		return false;
	}
	if (qp->ib.qp_type == OIB_QPT_UD &&
	    (oib_query_pkey(qp->ib.device, port->port_num, qp->attr.pkey_index, &qp_pkey) ||
	     (qp_pkey & 0x7fff) != (pkt->pkey & 0x7fff))) {
		orxe_port_count(port, OIB_RXE_RX_DROP_PKEY);
		return false;
	}
	if (qkey != (qp->ib.qp_type == OIB_QPT_GSI ? ORXE_GSI_QKEY : qp->attr.qkey)) {
		orxe_port_count(port, OIB_RXE_RX_DROP_QKEY);
		return false;
	}
	return true;
}

void orxe_ud_recv(struct orxe_port *port, struct orxe_qp *qp, const struct orxe_pkt *pkt,
		  const u8 *frame)
{
	struct {
		struct orxe_recv_wqe wqe;
		struct oib_sge sge[ORXE_MAX_SGE];
	} r;
	struct oib_wc wc = { .qp = &qp->ib, .opcode = OIB_WC_RECV, .wc_flags = OIB_WC_GRH };
	u8 grh[ORXE_GRH_SIZE];
	unsigned long flags;
	u16 pkey_index;
	u8 ev;

	if ((qp->ib.qp_type != OIB_QPT_UD && qp->ib.qp_type != OIB_QPT_GSI) ||
	    qp->ib.port_num != port->port_num) {
		orxe_port_count(port, OIB_RXE_RX_DROP_NO_QP);
		return;
	}
	if (!orxe_ud_keys_ok(port, qp, pkt, &pkey_index))
		return;
	spin_lock_irqsave(&qp->rq_lock, flags);
	if (qp->state < OIB_QPS_RTR || qp->state == OIB_QPS_ERR) {
		spin_unlock_irqrestore(&qp->rq_lock, flags);
		orxe_port_count(port, OIB_RXE_RX_DROP_QP_STATE);
		return;
	}
	if (!orxe_recv_take(qp, &r.wqe, ORXE_MAX_SGE, &ev)) {
		spin_unlock_irqrestore(&qp->rq_lock, flags);
		orxe_port_count(port, OIB_RXE_RX_DROP_NO_RECV);
		orxe_recv_events(qp, qp->ib.srq, ev);
		return;
	}

	wc.wr_id = r.wqe.wr_id;
	wc.byte_len = ORXE_GRH_SIZE + pkt->paylen;
	wc.src_qp = orxe_deth_src_qpn(pkt->deth);
	wc.pkey_index = pkey_index;
	wc.port_num = port->port_num;
	if (pkt->immdt) {
		wc.ex.imm_data = pkt->immdt->imm;
		wc.wc_flags |= OIB_WC_WITH_IMM;
	}
	orxe_fill_grh(grh, pkt, frame);
	if (wc.byte_len > orxe_recv_capacity(&r.wqe))
		wc.status = OIB_WC_LOC_LEN_ERR;
	else if (!orxe_sgl_copy(qp, r.wqe.sge, r.wqe.num_sge, 0, grh, ORXE_GRH_SIZE, true) ||
		 !orxe_sgl_copy(qp, r.wqe.sge, r.wqe.num_sge, ORXE_GRH_SIZE, (void *)pkt->payload,
			       pkt->paylen, true))
		wc.status = OIB_WC_LOC_PROT_ERR;
	oib_sw_cq_post(oib_sw_cq(qp->ib.recv_cq), &wc, pkt->solicited);
	spin_unlock_irqrestore(&qp->rq_lock, flags);
	orxe_recv_events(qp, qp->ib.srq, ev);
}
