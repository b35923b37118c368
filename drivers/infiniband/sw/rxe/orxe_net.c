// SPDX-License-Identifier: GPL-2.0-only
/*
 * Putting frames on the fabric: the path of a connected QP, and the frame every transport builds.
 *
 * A connected (RC or UC) QP's frames all share their addresses, flow and P_Key: those are worked
 * out once, when modify sets the path (orxe_path_resolve()), and each frame starts from them.  The
 * destination MAC comes from the fabric, which is its own neighbour table; if nobody owns the
 * destination GID yet, each frame asks again and, until somebody does, is lost like any frame
 * without a route (the reliable transport's retries cover that).
 */
#include <linux/module.h>
#include <linux/skbuff.h>
#include "orxe.h"

struct orxe_port *orxe_qp_port(struct orxe_qp *qp)
{
	return &to_rdev(qp->ib.device)->ports[qp->attr.port_num - 1];
}

/*
 * Work out @path from @attr (the QP's attributes once modify is done); process context.  -EINVAL if
 * the path names a source GID or P_Key index the port does not have.
 */
int orxe_path_resolve(struct orxe_qp *qp, const struct oib_qp_attr *attr, struct orxe_path *path)
{
	const struct oib_ah_attr *ah = &attr->ah_attr;
	struct oib_device *ibdev = qp->ib.device;
	struct orxe_tx_hdr *hdr = &path->hdr;
	struct orxe_port *port;

	memset(path, 0, sizeof(*path));
	if (!oib_port_valid(ibdev, attr->port_num) || ah->port_num != attr->port_num)
		return -EINVAL;
	port = &to_rdev(ibdev)->ports[attr->port_num - 1];
	if (oib_query_gid(ibdev, ah->port_num, ah->grh.sgid_index, &hdr->sgid, NULL) ||
	    oib_query_pkey(ibdev, attr->port_num, attr->pkey_index, &hdr->pkey))
		return -EINVAL;

	hdr->dgid = ah->grh.dgid;
	memcpy(hdr->smac, port->mac, ETH_ALEN);
	hdr->tos = ah->grh.traffic_class;
	hdr->hop_limit = ah->grh.hop_limit ?: 64;
	hdr->flow_label = ah->grh.flow_label;
	hdr->udp_sport = orxe_udp_sport(qp->ib.qp_num, attr->dest_qp_num);
	hdr->dest_qpn = attr->dest_qp_num;
	path->resolved = !oib_rxe_fabric_resolve(to_rdev(ibdev)->fabric, &hdr->dgid, hdr->dmac);
	path->valid = true;
	return 0;
}

/*
 * Can a frame leave @port for @dgid now?  Resolves the destination MAC into @dmac unless @resolved;
 * a frame that cannot leave is counted as tx_no_route (and lost, as on a wire).
 */
bool orxe_route(struct orxe_port *port, const union oib_gid *dgid, u8 *dmac, bool resolved)
{
	if (READ_ONCE(port->state) == OIB_PORT_ACTIVE &&
	    (resolved || !oib_rxe_fabric_resolve(port->rdev->fabric, dgid, dmac)))
		return true;
	orxe_port_count(port, OIB_RXE_TX_NO_ROUTE);
	return false;
}

/*
 * Start @hdr from the QP's path; false if no frame can leave now (no valid path, the link is down
 * or nobody owns the destination GID), which is counted.  Under sq_lock or rq_lock.
 */
bool orxe_conn_hdr(struct orxe_qp *qp, struct orxe_tx_hdr *hdr)
{
	struct orxe_path *path = &qp->path;
	struct orxe_port *port = orxe_qp_port(qp);

	if (!path->valid || !orxe_route(port, &path->hdr.dgid, path->hdr.dmac, path->resolved))
		return false;
	path->resolved = true;
	*hdr = path->hdr;
	return true;
}

/*
 * A frame with the headers @hdr describes; *@payload is where its hdr->paylen bytes of payload go.
 * The caller fills them in and hands the frame to orxe_frame_xmit().  NULL if @hdr describes no
 * frame or there is no memory (a frame lost, as on a wire).
 */
struct sk_buff *orxe_frame_alloc(const struct orxe_tx_hdr *hdr, u8 **payload)
{
	struct sk_buff *skb;
	int len = orxe_frame_len(hdr);

	if (WARN_ON_ONCE(len < 0))
		return NULL;
	skb = alloc_skb(len, GFP_ATOMIC);
	if (!skb)
		return NULL;
	if (WARN_ON_ONCE(oib_rxe_frame_build(hdr, NULL, skb_put(skb, len), len) < 0)) {
		kfree_skb(skb);
		return NULL;
	}
	*payload = skb->data + orxe_frame_payload_offset(hdr);
	return skb;
}

/*
 * Send the frame, its payload in; any context but hard-irq.  Its trailers (the ICRC, an IPv6 UDP
 * checksum) are implied: the fabric computes them only where the frame is seen as bytes.
 */
void orxe_frame_xmit(struct orxe_port *port, struct sk_buff *skb)
{
	orxe_fabric_frame_imply(skb);
	orxe_port_count_n(port, OIB_RXE_TX_FRAMES, orxe_train_segs(skb));
	atomic64_add(skb->len, &port->stats[OIB_RXE_TX_BYTES]);
	oib_rxe_fabric_xmit(&port->fport, skb);
}
