// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ports on the fabric: attaching them, and the receive path from a frame to the QP it is for.
 *
 * Every frame a port receives is parsed defensively (orxe_hdr.c) and then checked against this
 * port: it must be addressed to one of the port's GIDs and to a QP that exists, is of the frame's
 * transport and receives in its state.  Anything else is dropped and counted, never trusted.
 * Requests go to the QP's responder (orxe_ud.c, orxe_resp.c), responses to its requester
 * (orxe_comp.c).
 */
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/ipv6.h>
#include <kunit/visibility.h>
#include "orxe.h"

static bool rx_runs = true;
module_param(rx_runs, bool, 0644);
MODULE_PARM_DESC(rx_runs, "Execute a train's RC write middle packets as runs (0: one by one)");

/* Tests: turn runs on or off (the rx_runs parameter); what it was. */
bool oib_rxe_set_rx_runs(bool on)
{
	bool was = READ_ONCE(rx_runs);

	WRITE_ONCE(rx_runs, on);
	return was;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_set_rx_runs);

/* Find QP @qpn as seen from @port_num and hold it for the receive path. */
struct orxe_qp *orxe_qp_get(struct orxe_dev *rdev, u32 port_num, u32 qpn)
{
	struct orxe_qp *qp = NULL;
	unsigned long flags;

	if (qpn < ORXE_QPN_FIRST) {
		if (qpn > 1)
			return NULL;
		spin_lock_irqsave(&rdev->lock, flags);
		qp = rdev->special_qp[port_num - 1][qpn];
		if (qp && !refcount_inc_not_zero(&qp->ref))
			qp = NULL;
		spin_unlock_irqrestore(&rdev->lock, flags);
		return qp;
	}

	xa_lock_irqsave(&rdev->qpns, flags);
	qp = xa_load(&rdev->qpns, qpn);
	if (qp && !refcount_inc_not_zero(&qp->ref))
		qp = NULL;
	xa_unlock_irqrestore(&rdev->qpns, flags);
	return qp;
}

void orxe_qp_put(struct orxe_qp *qp)
{
	if (refcount_dec_and_test(&qp->ref))
		complete(&qp->ref_done);
}

/*
 * Parse packet @i of @skb, a fragment frame or a train (orxe_train.c), its headers at @off: in
 * place, pkt->payload pointing into its fragment.  The length of its headers, or the negative
 * reason to drop it.
 */
static int orxe_port_parse_seg(struct sk_buff *skb, u32 i, u32 off, struct orxe_pkt *pkt)
{
	u32 hlen, len;
	int ret;

	if (orxe_train_seg(skb, i, off, &hlen, &len))
		return -ORXE_DROP_TOO_SHORT;
	ret = orxe_pkt_parse(skb->data + off, hlen, len, pkt, true);
	if (ret)
		return ret;
	if (pkt->payload != skb->data + off + hlen ||
	    pkt->paylen != skb_frag_size(&skb_shinfo(skb)->frags[i]))
		return -ORXE_DROP_BAD_OPCODE_LEN;
	pkt->payload = skb_frag_address(&skb_shinfo(skb)->frags[i]);
	return hlen;
}

/* Parse the one packet @skb carries into @pkt; anything but a fragment frame is made linear. */
static int orxe_port_parse(struct sk_buff *skb, struct orxe_pkt *pkt)
{
	bool implied = orxe_fabric_frame_implied(skb);

	if (implied && skb_shinfo(skb)->nr_frags && orxe_port_parse_seg(skb, 0, 0, pkt) >= 0)
		return 0;
	if (skb_linearize(skb))
		return -ORXE_DROP_TOO_SHORT;
	return orxe_pkt_parse(skb->data, skb->len, skb->len, pkt, implied);
}

/* Is @qp of the transport @pkt is for?  XRC requests go to targets, responses to initiators. */
static bool orxe_port_qp_takes(const struct orxe_qp *qp, const struct orxe_pkt *pkt)
{
	switch (orxe_opcode_transport(pkt->opcode)) {
	case ORXE_TRANSPORT_RC:
		return qp->ib.qp_type == OIB_QPT_RC;
	case ORXE_TRANSPORT_UC:
		return qp->ib.qp_type == OIB_QPT_UC;
	case ORXE_TRANSPORT_XRC:
		return qp->ib.qp_type == (pkt->info->flags & ORXE_OPF_REQ ? OIB_QPT_XRC_TGT :
					  OIB_QPT_XRC_INI);
	default:
		return false;
	}
}

/*
 * Hold in *@qp the QP @pkt is for: the one held for the packet before if it is the same (a train's
 * packets are one QP's), else the one found, the other put; false if there is none.
 */
static bool orxe_port_hold_qp(struct orxe_port *port, const struct orxe_pkt *pkt,
			      struct orxe_qp **qp)
{
	if (*qp && (*qp)->ib.qp_num == pkt->dest_qpn)
		return true;
	if (*qp)
		orxe_qp_put(*qp);
	*qp = orxe_qp_get(port->rdev, port->port_num, pkt->dest_qpn);
	return *qp;
}

/*
 * Deliver the parsed packet @pkt (its frame's bytes at @frame), addressed to one of the port's
 * GIDs, to its QP; 0, or the drop reason to count.  *@qp is the QP held for the packet before,
 * reused when it is the same (a train's packets are one QP's) and replaced otherwise; the caller
 * puts the last.
 */
static int orxe_port_rx_pkt(struct orxe_port *port, struct orxe_pkt *pkt, const u8 *frame,
			    struct orxe_qp **qp)
{
	if (!orxe_port_hold_qp(port, pkt, qp))
		return OIB_RXE_RX_DROP_NO_QP;
	switch (orxe_opcode_transport(pkt->opcode)) {
	case ORXE_TRANSPORT_UD:
		orxe_ud_recv(port, *qp, pkt, frame);
		return 0;
	case ORXE_TRANSPORT_RC:
	case ORXE_TRANSPORT_UC:
	case ORXE_TRANSPORT_XRC:
		if (!orxe_port_qp_takes(*qp, pkt) ||
		    READ_ONCE((*qp)->attr.port_num) != port->port_num)
			return OIB_RXE_RX_DROP_NO_QP;
		if (pkt->info->flags & ORXE_OPF_REQ)
			orxe_resp_recv(port, *qp, pkt);
		else
			orxe_comp_recv(port, *qp, pkt);
		return 0;
	default:	/* RD: not in the opcode table, so never parsed */
		return 0;
	}
}

/* The A bit and PSN of the packet whose headers, @hlen bytes of them, end in its BTH at @h. */
static u32 orxe_port_apsn(const u8 *h, u32 hlen)
{
	return be32_to_cpu(((const struct orxe_bth *)(h + hlen - sizeof(struct orxe_bth)))->apsn);
}

/*
 * Packet @i of @skb (of @segs), parsed into @pkt, an RC write's middle packet whose @hlen bytes of
 * headers are at @off, and those behind it that repeat it: the same headers byte for byte but for
 * the PSN, one more each time, and the AckReq bit, and a payload of the same size.  Each would
 * parse as @pkt did, so the responder may execute them as a run (orxe_resp_write_run()), as a
 * NIC's receive offload coalesces a flow's segments; how many it did.  If it refuses, *@runs
 * becomes false: the rest of the train goes one by one.
 */
static u32 orxe_port_write_run(struct orxe_port *port, struct orxe_qp *qp, struct sk_buff *skb,
			       u32 i, u32 segs, u32 off, u32 hlen, const struct orxe_pkt *pkt,
			       bool *runs)
{
	const skb_frag_t *frags = skb_shinfo(skb)->frags;
	const u8 *tmpl = skb->data + off, *h;
	u32 n, flen, len, apsn = orxe_port_apsn(tmpl, hlen) & ~ORXE_BTH_ACK_REQ, got;
	struct orxe_run run = { .psn = pkt->psn, .acks = pkt->ack_req };

	run.payload[0] = pkt->payload;
	for (n = 1, off += hlen; i + n < segs; n++, off += hlen) {
		h = skb->data + off;
		apsn = (apsn & ~ORXE_PSN_MASK) | orxe_psn_add(apsn, 1);
		if (orxe_train_seg(skb, i + n, off, &flen, &len) || flen != hlen ||
		    skb_frag_size(&frags[i + n]) != pkt->paylen ||
		    memcmp(h, tmpl, hlen - sizeof(apsn)))
			break;
		got = orxe_port_apsn(h, hlen);
		if ((got & ~ORXE_BTH_ACK_REQ) != apsn)
			break;
		if (got & ORXE_BTH_ACK_REQ)
			run.acks |= BIT(n);
		run.payload[n] = skb_frag_address(&frags[i + n]);
	}
	run.n = n;
	if (!orxe_resp_write_run(port, qp, pkt, &run)) {
		*runs = false;		/* the QP is not where the run needs it: not again */
		return 0;
	}
	return n;
}

/* May @pkt start a run (orxe_port_write_run())? */
static bool orxe_port_run_may_start(const struct orxe_pkt *pkt)
{
	return pkt->opcode == ORXE_RC_RDMA_WRITE_MIDDLE &&
	       pkt->info->hdr_len == sizeof(struct orxe_bth);
}

/*
 * A train's packets in order, each parsed and delivered as if it came alone; the first that does
 * not parse ends it, it and those behind it dropped.  A UD packet has no place in one.  A write's
 * middle packets go as runs.
 */
static void orxe_port_rx_train(struct orxe_port *port, struct sk_buff *skb, u32 segs)
{
	union oib_gid owned = {};	/* the last destination GID looked up */
	bool known = false;		/* it is one of the port's */
	bool runs = READ_ONCE(rx_runs);	/* until one is refused */
	struct orxe_qp *qp = NULL;
	struct orxe_pkt pkt;
	u32 i, n, off = 0;
	int ret, hlen;

	for (i = 0; i < segs; i++) {
		hlen = orxe_port_parse_seg(skb, i, off, &pkt);
		if (hlen < 0 || orxe_opcode_transport(pkt.opcode) == ORXE_TRANSPORT_UD) {
			orxe_port_count_n(port, OIB_RXE_RX_DROP_MALFORMED, segs - i);
			break;
		}
		off += hlen;
		/* a train's packets share their GID: looked up once */
		if (!known || !ipv6_addr_equal(&pkt.dgid.in6, &owned.in6)) {
			known = orxe_fabric_owns_gid(&port->fport, &pkt.dgid);
			owned = pkt.dgid;
		}
		if (known && runs && orxe_port_run_may_start(&pkt) &&
		    orxe_port_hold_qp(port, &pkt, &qp)) {
			n = orxe_port_write_run(port, qp, skb, i, segs, off - hlen, hlen, &pkt,
						&runs);
			if (n) {
				i += n - 1;
				off += (n - 1) * hlen;
				continue;
			}
		}
		ret = known ? orxe_port_rx_pkt(port, &pkt, NULL, &qp) : OIB_RXE_RX_DROP_DGID;
		if (ret)
			orxe_port_count(port, ret);
	}
	if (qp)
		orxe_qp_put(qp);
}

static void orxe_port_rx(struct orxe_fabric_port *fp, struct sk_buff *skb)
{
	struct orxe_port *port = container_of(fp, struct orxe_port, fport);
	u32 segs = orxe_train_segs(skb);
	struct orxe_qp *qp = NULL;
	struct orxe_pkt pkt;
	int drop;

	orxe_port_count_n(port, OIB_RXE_RX_FRAMES, segs);
	atomic64_add(skb->len, &port->stats[OIB_RXE_RX_BYTES]);
	if (READ_ONCE(port->state) != OIB_PORT_ACTIVE || !oib_device_try_get(&port->rdev->ib)) {
		orxe_port_count_n(port, OIB_RXE_RX_DROP_PORT_DOWN, segs);
		kfree_skb(skb);
		return;
	}
	if (segs > 1) {
		orxe_port_rx_train(port, skb, segs);
	} else {
		/* the fabric's mirror of the port's GID table: no lock, no walk */
		drop = orxe_port_parse(skb, &pkt) ? OIB_RXE_RX_DROP_MALFORMED :
		       !orxe_fabric_owns_gid(&port->fport, &pkt.dgid) ? OIB_RXE_RX_DROP_DGID :
		       orxe_port_rx_pkt(port, &pkt, skb->data, &qp);
		if (qp)
			orxe_qp_put(qp);
		if (drop) {
			orxe_port_count(port, drop);
			oib_device_put(&port->rdev->ib);
			kfree_skb(skb);
			return;
		}
	}
	oib_device_put(&port->rdev->ib);
	consume_skb(skb);
}

/*
 * Attach every port to the device's fabric, reachable at its link-local GID and, as they are
 * added, at every other GID of its table.
 */
int orxe_ports_attach(struct orxe_dev *rdev)
{
	union oib_gid gid;
	u32 i;
	int ret;

	for (i = 0; i < rdev->ib.phys_port_cnt; i++) {
		struct orxe_port *port = &rdev->ports[i];

		memcpy(port->fport.mac, port->mac, ETH_ALEN);
		port->fport.rx = orxe_port_rx;
		port->fport.implied_ok = true;
		ret = oib_rxe_fabric_attach(rdev->fabric, &port->fport);
		if (ret)
			goto err;
		oib_gid_from_mac(&gid, port->mac);
		ret = oib_add_gid(&rdev->ib, port->port_num, &gid, OIB_GID_TYPE_ROCE_V2);
		if (ret < 0) {
			oib_rxe_fabric_detach(&port->fport);
			goto err;
		}
	}
	return 0;

err:
	while (i--)
		oib_rxe_fabric_detach(&rdev->ports[i].fport);
	return ret;
}

/* The port answers on the fabric to every GID in its table (oib_add_gid() calls these). */
int orxe_add_gid(struct oib_device *ibdev, u32 port_num, const union oib_gid *gid)
{
	return oib_rxe_fabric_add_addr(&to_rdev(ibdev)->ports[port_num - 1].fport, gid);
}

void orxe_del_gid(struct oib_device *ibdev, u32 port_num, const union oib_gid *gid)
{
	oib_rxe_fabric_del_addr(&to_rdev(ibdev)->ports[port_num - 1].fport, gid);
}

/*
 * Every port of a fabric reaches every GID a port of it owns in one hop (IP's default hop limit);
 * a device on a netdev reaches the rest as the netdev's routes say.
 */
int orxe_reach(struct oib_device *ibdev, u32 port_num, const union oib_gid *dgid, u8 *hop_limit)
{
	struct orxe_dev *rdev = to_rdev(ibdev);
	u8 mac[ETH_ALEN];

	if (oib_rxe_fabric_resolve(rdev->fabric, dgid, mac))
		return -EHOSTUNREACH;
	if (rdev->on_netdev && ether_addr_equal(mac, rdev->link.fport.mac))
		return orxe_link_reach(&rdev->link, dgid, hop_limit);
	*hop_limit = ORXE_HOP_LIMIT;
	return 0;
}

/* After this no frame reaches the device's ports. */
void orxe_ports_detach(struct orxe_dev *rdev)
{
	u32 i;

	for (i = 0; i < rdev->ib.phys_port_cnt; i++)
		oib_rxe_fabric_detach(&rdev->ports[i].fport);
}
