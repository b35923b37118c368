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
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/vmalloc.h>
#include <kunit/visibility.h>
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
 * The page after a fragment frame's payload: its pad and implied ICRC are zeros from here
 * (allocated zeroed at module init, never written: sealing a fragment frame makes it linear
 * first).
 */
static struct page *orxe_tail_page;

static bool frag_tx = true;
module_param(frag_tx, bool, 0644);
MODULE_PARM_DESC(frag_tx, "Carry payloads lying in one page as page fragments (0: always copy)");

/* Whether senders try oib_rxe_frame_frag() first (the frag_tx parameter; for measuring). */
bool orxe_frag_tx(void)
{
	return READ_ONCE(frag_tx);
}

int orxe_net_init(void)
{
	orxe_tail_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	return orxe_tail_page ? 0 : -ENOMEM;
}

/* Module exit: frames still holding the page keep it until they are freed. */
void orxe_net_exit(void)
{
	put_page(orxe_tail_page);
}

/* The page holding @kva, if the fabric may hold it by reference (not slab memory); else NULL. */
static struct page *orxe_frag_page(const void *kva)
{
	struct page *page;

	if (is_vmalloc_addr(kva))
		page = vmalloc_to_page(kva);
	else if (virt_addr_valid(kva))
		page = virt_to_page(kva);
	else
		return NULL;
	return page && !PageSlab(page) && !PageCompound(page) ? page : NULL;
}

/**
 * oib_rxe_frame_frag() - a fragment frame: its payload carried by reference, not copied
 * @hdr: the headers, and the payload length
 * @kva: the payload, @hdr->paylen bytes in one page of memory the caller keeps unchanged until the
 *	frame is freed (a registered MR's, until its work request completes)
 *
 * The headers are the frame's linear part; the payload is its first fragment, the page held by a
 * reference, and the pad and implied ICRC (zeros) its second.  The caller marks it implied and
 * sends it like a frame of orxe_frame_alloc(); whoever needs it as bytes (oib_rxe_fabric_seal())
 * makes it linear.
 *
 * Return: the frame, or NULL if the payload does not lie in one page the fabric may hold, @hdr
 * describes no frame, or there is no memory: the caller copies instead.
 */
struct sk_buff *oib_rxe_frame_frag(const struct orxe_tx_hdr *hdr, const void *kva)
{
	int len = orxe_frame_len(hdr);
	struct sk_buff *skb;
	struct page *page;
	u32 hlen, tail;

	if (len < 0 || !hdr->paylen || offset_in_page(kva) + hdr->paylen > PAGE_SIZE)
		return NULL;
	page = orxe_frag_page(kva);
	/* a tail page of a non-compound multi-page allocation has no count of its own to take */
	if (!page || !get_page_unless_zero(page))
		return NULL;
	hlen = orxe_frame_payload_offset(hdr);
	tail = len - hlen - hdr->paylen;
	skb = alloc_skb(hlen, GFP_ATOMIC);
	if (!skb) {
		put_page(page);
		return NULL;
	}
	orxe_frame_put_hdrs(hdr, skb_put(skb, hlen), len);
	skb_fill_page_desc(skb, 0, page, offset_in_page(kva), hdr->paylen);
	get_page(orxe_tail_page);
	skb_fill_page_desc(skb, 1, orxe_tail_page, 0, tail);
	skb->len += hdr->paylen + tail;
	skb->data_len += hdr->paylen + tail;
	skb->truesize += hdr->paylen + tail;
	return skb;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_frame_frag);

/*
 * Send the frame, its payload in; any context but hard-irq.  Its trailers (the ICRC, an IPv6 UDP
 * checksum) are implied: the fabric computes them only where the frame is seen as bytes.
 */
void orxe_frame_xmit(struct orxe_port *port, struct sk_buff *skb)
{
	orxe_fabric_frame_imply(skb);
	orxe_port_count(port, OIB_RXE_TX_FRAMES);
	atomic64_add(skb->len, &port->stats[OIB_RXE_TX_BYTES]);
	oib_rxe_fabric_xmit(&port->fport, skb);
}
