// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fragment frames and trains: frames whose payload travels by reference.
 *
 * A fragment frame is one packet: its headers are the skb's linear part, its payload a page
 * fragment of the sender's memory (a registered MR's, which stays put until its work request
 * completes), its pad and implied ICRC a last fragment of zeros.
 *
 * A train is the fabric's segmentation offload: several packets of one QP in one skb.  Their
 * headers lie back to back in the linear part, their payloads are fragments 0..n-1 in the same
 * order, and every pad and implied ICRC is in fragment n.  skb_shinfo()->gso_segs counts the
 * packets; gso_size stays 0, as a train never reaches the network stack.  One allocation, one
 * hand-over and one receive-path lookup serve up to ORXE_TRAIN_MAX packets.  Each packet's bounds
 * follow from its IP length and its fragment's size (orxe_train_seg()), and a fragment frame is a
 * train of one.  An oib_rxe port walks a train in place.  Where frames are seen one by one as
 * bytes (capture, faults, a port that takes no implied frames), the fabric first splits it into
 * the fragment frames its packets would have been (oib_rxe_train_split()).
 */
#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/vmalloc.h>
#include <kunit/visibility.h>
#include "orxe.h"
#include "orxe_fabric.h"

/*
 * The longest headers a packet has (IPv6, an XRC atomic's XRCETH and AtomicETH): a train has room
 * for as many as it takes packets (sixteen, with the skb's shared info, fit in 2 KiB).
 */
#define ORXE_TRAIN_HDRS_MAX	(ETH_HLEN + ORXE_IPV6_HLEN + ORXE_UDP_HLEN + \
				 sizeof(struct orxe_bth) + sizeof(struct orxe_xrceth) + \
				 sizeof(struct orxe_atmeth))

/*
 * The page after each payload: pads and implied ICRCs are zeros from here (allocated zeroed at
 * module init, never written: sealing a fragment frame makes it linear first).
 */
static struct page *orxe_tail_page;

static bool frag_tx = true;
module_param(frag_tx, bool, 0644);
MODULE_PARM_DESC(frag_tx, "Carry payloads lying in one page as page fragments (0: always copy)");

static uint tx_train = ORXE_TRAIN_MAX;
module_param(tx_train, uint, 0644);
MODULE_PARM_DESC(tx_train, "Packets of a QP carried in one frame at most (1: no trains)");

/* Whether senders try the fragment path first (the frag_tx parameter; for measuring). */
bool orxe_frag_tx(void)
{
	return READ_ONCE(frag_tx);
}

int orxe_train_module_init(void)
{
	BUILD_BUG_ON(ORXE_TRAIN_MAX + 1 > MAX_SKB_FRAGS);
	orxe_tail_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	return orxe_tail_page ? 0 : -ENOMEM;
}

/* Module exit: frames still holding the page keep it until they are freed. */
void orxe_train_module_exit(void)
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

/* Start an empty train from @port (NULL: built only, never sent) of @max packets at most. */
void oib_rxe_train_init(struct orxe_train *t, struct orxe_port *port, u32 max)
{
	t->port = port;
	t->skb = NULL;
	t->segs = 0;
	t->frags = 0;
	t->tail = 0;
	t->max = clamp_t(u32, max, 1, ORXE_TRAIN_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_train_init);

/* The train a QP's sender uses: as long as the tx_train parameter allows. */
void orxe_train_start(struct orxe_train *t, struct orxe_port *port)
{
	oib_rxe_train_init(t, port, READ_ONCE(tx_train));
}

/**
 * oib_rxe_train_add() - add a packet to a train, its payload by reference
 * @t: the train
 * @hdr: the packet's headers, and its payload length
 * @kva: its payload, @hdr->paylen bytes in one page the caller keeps unchanged until the frame is
 *	freed (a registered MR's, until its work request completes)
 *
 * A full train is sent (orxe_train_send()) before the packet joins the next.
 *
 * Return: false if the packet cannot travel by reference (no payload, a payload not in one page
 * the fabric may hold, @hdr describing no frame, no memory, or a full train never to be sent):
 * the caller copies it into a frame of its own and sends that with orxe_train_xmit(), behind
 * what @t holds.
 */
bool oib_rxe_train_add(struct orxe_train *t, const struct orxe_tx_hdr *hdr, const void *kva)
{
	int len = orxe_frame_len(hdr);
	struct page *page;
	u32 hlen;

	if (len < 0 || !hdr->paylen || offset_in_page(kva) + hdr->paylen > PAGE_SIZE)
		return false;
	hlen = orxe_frame_payload_offset(hdr);
	if (t->skb && (t->segs == t->max || skb_tailroom(t->skb) < hlen)) {
		if (!t->port)
			return false;	/* full, and never sent */
		orxe_train_send(t);
	}
	page = orxe_frag_page(kva);
	/* a tail page of a non-compound multi-page allocation has no count of its own to take */
	if (!page || !get_page_unless_zero(page))
		return false;
	if (!t->skb) {
		t->skb = alloc_skb(ORXE_TRAIN_HDRS_MAX * t->max, GFP_ATOMIC);
		if (!t->skb) {
			put_page(page);
			return false;
		}
	}
	/* the fragments count in the skb's length once it is closed: until then skb_put() works */
	orxe_frame_put_hdrs(hdr, skb_put(t->skb, hlen), len);
	skb_fill_page_desc(t->skb, t->segs++, page, offset_in_page(kva), hdr->paylen);
	t->frags += hdr->paylen;
	t->tail += len - hlen - hdr->paylen;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_train_add);

/**
 * oib_rxe_train_close() - end a train: its frame, or NULL if it holds no packet
 * @t: the train, empty afterwards
 *
 * The frame's trailers are implied (orxe_fabric.h): the caller sends it as it would a frame of
 * orxe_frame_alloc().
 */
struct sk_buff *oib_rxe_train_close(struct orxe_train *t)
{
	struct sk_buff *skb = t->skb;

	if (!skb)
		return NULL;
	get_page(orxe_tail_page);
	skb_fill_page_desc(skb, t->segs, orxe_tail_page, 0, t->tail);
	skb_len_add(skb, t->frags + t->tail);
	if (t->segs > 1)
		skb_shinfo(skb)->gso_segs = t->segs;
	orxe_fabric_frame_imply(skb);
	t->skb = NULL;
	t->segs = 0;
	t->frags = 0;
	t->tail = 0;
	return skb;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_train_close);

/* Send what @t holds, if anything. */
void orxe_train_send(struct orxe_train *t)
{
	struct sk_buff *skb = oib_rxe_train_close(t);

	if (skb)
		orxe_frame_xmit(t->port, skb);
}

/* Send @skb, a frame of its own, behind what @t holds. */
void orxe_train_xmit(struct orxe_train *t, struct sk_buff *skb)
{
	orxe_train_send(t);
	orxe_frame_xmit(t->port, skb);
}

/**
 * oib_rxe_frame_frag() - a fragment frame: its payload carried by reference, not copied
 * @hdr: the headers, and the payload length
 * @kva: the payload, as for oib_rxe_train_add()
 *
 * Return: the frame (a train of one), or NULL if the payload cannot travel by reference.
 */
struct sk_buff *oib_rxe_frame_frag(const struct orxe_tx_hdr *hdr, const void *kva)
{
	struct orxe_train t;

	oib_rxe_train_init(&t, NULL, 1);
	return oib_rxe_train_add(&t, hdr, kva) ? oib_rxe_train_close(&t) : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_frame_frag);

/*
 * Packet @i of the train or fragment frame @skb, its headers at @off of the linear part: the
 * length of its headers and of its frame.  -EBADMSG if they do not fit in @skb.
 */
int orxe_train_seg(const struct sk_buff *skb, u32 i, u32 off, u32 *hlen, u32 *len)
{
	const struct skb_shared_info *sh = skb_shinfo(skb);
	const u8 *h = skb->data + off;
	u32 avail, paylen, rest, flen;

	if (off > skb_headlen(skb) || i + 1 >= sh->nr_frags)
		return -EBADMSG;
	avail = skb_headlen(skb) - off;
	if (avail < ETH_HLEN + ORXE_IPV6_HLEN)
		return -EBADMSG;
	/* the IP length: IPv4's counts its header, IPv6's does not */
	switch (h[12] << 8 | h[13]) {
	case ETH_P_IP:
		flen = ETH_HLEN + (h[ETH_HLEN + 2] << 8 | h[ETH_HLEN + 3]);
		break;
	case ETH_P_IPV6:
		flen = ETH_HLEN + ORXE_IPV6_HLEN + (h[ETH_HLEN + 4] << 8 | h[ETH_HLEN + 5]);
		break;
	default:
		return -EBADMSG;
	}
	/* the payload, the pad that makes it whole words, the ICRC */
	paylen = skb_frag_size(&sh->frags[i]);
	rest = paylen + ((0U - paylen) & 3) + ORXE_ICRC_SIZE;
	if (flen < rest || flen - rest > avail)
		return -EBADMSG;
	*hlen = flen - rest;
	*len = flen;
	return 0;
}

/* The fragment frame of packet @i of @skb (headers @hlen bytes at @off, frame @len bytes). */
static struct sk_buff *orxe_train_frame(struct sk_buff *skb, u32 i, u32 off, u32 hlen, u32 len)
{
	const skb_frag_t *frag = &skb_shinfo(skb)->frags[i];
	u32 paylen = skb_frag_size(frag);
	struct sk_buff *seg;

	seg = alloc_skb(hlen, GFP_ATOMIC);
	if (!seg)
		return NULL;
	skb_put_data(seg, skb->data + off, hlen);
	get_page(skb_frag_page(frag));		/* plain pages: an MR's, or the tail page */
	skb_fill_page_desc(seg, 0, skb_frag_page(frag), skb_frag_off(frag), paylen);
	get_page(orxe_tail_page);
	skb_fill_page_desc(seg, 1, orxe_tail_page, 0, len - hlen - paylen);
	skb_len_add(seg, len - hlen);
	seg->ip_summed = skb->ip_summed;
	return seg;
}

/* Do the bounds of @skb's @segs packets add up to its linear part and its tail fragment? */
static bool orxe_train_whole(const struct sk_buff *skb, u32 segs)
{
	const struct skb_shared_info *sh = skb_shinfo(skb);
	u32 i, off = 0, tail = 0, hlen, len;

	if (sh->nr_frags != segs + 1)
		return false;
	for (i = 0; i < segs; i++) {
		if (orxe_train_seg(skb, i, off, &hlen, &len))
			return false;
		off += hlen;
		tail += len - hlen - skb_frag_size(&sh->frags[i]);
	}
	return off == skb_headlen(skb) && tail == skb_frag_size(&sh->frags[segs]);
}

/**
 * oib_rxe_train_split() - the fragment frames of a train's packets
 * @skb: the train, consumed
 * @frames: where its frames go, in order
 *
 * Return: how many packets were lost: all of them if their bounds do not add up to the train's
 * size, else those from the first for which there is no memory on.
 */
u32 oib_rxe_train_split(struct sk_buff *skb, struct sk_buff_head *frames)
{
	u32 segs = orxe_train_segs(skb), i = 0, off = 0, hlen, len;
	struct sk_buff *seg;

	if (orxe_train_whole(skb, segs)) {
		for (; i < segs; i++) {
			orxe_train_seg(skb, i, off, &hlen, &len);
			seg = orxe_train_frame(skb, i, off, hlen, len);
			if (!seg)
				break;
			__skb_queue_tail(frames, seg);
			off += hlen;
		}
	}
	consume_skb(skb);
	return segs - i;
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_train_split);
