// SPDX-License-Identifier: GPL-2.0-only
/*
 * Buffered-copy flow control (IBTA vol. 1 Annex A4, as OFED kept it): a message goes only into a
 * receive buffer the peer posted, so we send only with a credit.  Each BSDH says how many buffers
 * its sender had posted when it sent it (bufs) and which of our messages it had received last
 * (mseq_ack); our messages after that one are on their way into those buffers.  Data keeps two
 * credits back and other messages one, so that the last credit is always there for a message that
 * grants credits (CA4-82): each side can tell the other it read and posted again, however full
 * both are.  The caller serialises all of a connection's calls (its send lock).
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <oib/kunit/sdp.h>

void sdp_credit_init(struct sdp_credit *c, u16 peer_bufs, u32 posted)
{
	c->tx_head = 1;
	c->tx_acked = 0;
	c->tx_credits = peer_bufs;
	c->rx_head = 0;
	c->rx_posted = posted;
	c->remote_credits = posted;
}
EXPORT_SYMBOL_IF_KUNIT(sdp_credit_init);

void sdp_credit_posted(struct sdp_credit *c, u32 n)
{
	c->rx_posted += n;
}
EXPORT_SYMBOL_IF_KUNIT(sdp_credit_posted);

bool sdp_credit_may_send(const struct sdp_credit *c, enum sdp_tx_kind kind)
{
	switch (kind) {
	case SDP_TX_DATA:
		return c->tx_credits > SDP_MIN_TX_CREDITS;
	case SDP_TX_CONTROL:
		return c->tx_credits > 1;
	case SDP_TX_UPDATE:
		return c->tx_credits > 0 && c->rx_posted > c->remote_credits;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(sdp_credit_may_send);

bool sdp_credit_update_due(const struct sdp_credit *c)
{
	/*
	 * What the peer may send us is under two thirds of what we could take.  Not with two
	 * buffers or fewer: the peer could send no data into them (it keeps two credits back), and
	 * the updates themselves would go back and forth for ever.
	 */
	return c->rx_posted > SDP_MIN_TX_CREDITS &&
	       (u64)c->remote_credits * 3 < (u64)c->rx_posted * 2;
}
EXPORT_SYMBOL_IF_KUNIT(sdp_credit_update_due);

void sdp_credit_tx(struct sdp_credit *c, struct oib_sdp_hdr *h)
{
	h->mseq = c->tx_head++;
	h->mseq_ack = c->rx_head;
	h->bufs = min_t(u32, c->rx_posted, U16_MAX);
	c->remote_credits = h->bufs;
	if (c->tx_credits)
		c->tx_credits--;
}
EXPORT_SYMBOL_IF_KUNIT(sdp_credit_tx);

int sdp_credit_rx(struct sdp_credit *c, const struct oib_sdp_hdr *h)
{
	u32 in_flight = c->tx_head - 1 - h->mseq_ack;
	u32 unacked = c->tx_head - 1 - c->tx_acked;

	if (h->mseq != c->rx_head + 1 || !c->rx_posted)
		return -EPROTO;
	/* an acknowledgment between the last one and our last message, never backwards */
	if (in_flight > unacked || in_flight > h->bufs)
		return -EPROTO;
	c->rx_head = h->mseq;
	c->rx_posted--;
	if (c->remote_credits)
		c->remote_credits--;
	c->tx_acked = h->mseq_ack;
	c->tx_credits = h->bufs - in_flight;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(sdp_credit_rx);
