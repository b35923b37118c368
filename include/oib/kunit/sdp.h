/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_sdp's internals for its KUnit suites: a socket's state table, and the buffered-copy credit
 * accounting (Documentation/sdp.md).
 */
#ifndef OIB_KUNIT_SDP_H
#define OIB_KUNIT_SDP_H

#include <linux/bits.h>
#include <linux/types.h>
#include <oib/sdp.h>

/* A socket's states, named as TCP's (what netstat and debugfs show). */
enum sdp_state {
	SDP_CLOSED,		/* new, or done with */
	SDP_LISTEN,
	SDP_SYN_SENT,		/* active: resolving, the REQ with the Hello sent */
	SDP_SYN_RECV,		/* passive: the REP with the HelloAck sent, the QP in RTR */
	SDP_ESTABLISHED,
	SDP_FIN_WAIT1,		/* our DisConn posted, not yet completed; the peer's not seen */
	SDP_FIN_WAIT2,		/* our DisConn completed; the peer's not seen */
	SDP_CLOSE_WAIT,		/* the peer's DisConn seen (end of its data); ours not sent */
	SDP_CLOSING,		/* both DisConns seen, ours not yet completed */
	SDP_LAST_ACK,		/* the peer's DisConn seen, then ours posted, not yet completed */
	SDP_TIME_WAIT,		/* both DisConns done: the CM disconnect under way */
	SDP_NSTATES
};

enum sdp_event {
	SDP_EV_CONNECT,		/* the owner connects */
	SDP_EV_LISTEN,		/* the owner listens (again: a new backlog) */
	SDP_EV_REQUEST,		/* a new socket for a listener's connection request */
	SDP_EV_ESTABLISHED,	/* the CM's ESTABLISHED */
	SDP_EV_REFUSED,		/* REJECTED, UNREACHABLE, CONNECT_ERROR, a bad HelloAck */
	SDP_EV_SHUT_WR,		/* the owner's shutdown(SHUT_WR) or graceful close */
	SDP_EV_DISCONN_SENT,	/* our DisConn's send completed */
	SDP_EV_DISCONN_RCVD,	/* the peer's DisConn */
	SDP_EV_CM_DISCONNECTED,	/* the CM's DISCONNECTED (the peer's DREQ, or ours answered) */
	SDP_EV_RESET,		/* a bad message, AbortConn, a QP error, the device removed */
	SDP_EV_ABORT,		/* the owner's abortive close (SO_LINGER 0, unread data) */
	SDP_EV_TIMEOUT,		/* the close timer ran out */
	SDP_EV_CLOSE,		/* the owner closes a socket that is not connected */
	SDP_NEVENTS
};

/* What a transition asks its caller to do, in this order. */
enum sdp_action {
	SDP_DO_RESOLVE = BIT(0),	/* resolve the address and route, connect with the Hello */
	SDP_DO_LISTEN = BIT(1),		/* listen (or set the backlog) */
	SDP_DO_ACCEPT = BIT(2),		/* post the receives, the REP with the HelloAck */
	SDP_DO_SEND_DISCONN = BIT(3),	/* queue a DisConn behind the data */
	SDP_DO_CM_DISCONNECT = BIT(4),	/* the CM's disconnect (the QP to ERR, a DREQ) */
	SDP_DO_ERR_REFUSED = BIT(5),	/* sk_err = ECONNREFUSED */
	SDP_DO_ERR_RESET = BIT(6),	/* sk_err = ECONNRESET */
	SDP_DO_EOF = BIT(7),		/* the peer sends no more: readers see the end */
	SDP_DO_RELEASE = BIT(8),	/* the connection is gone: free its QP and id */
	SDP_DO_WAKE = BIT(9),		/* wake waiters and pollers */
};

struct sdp_transition {
	u8 valid;
	u8 next;		/* enum sdp_state */
	u16 actions;		/* enum sdp_action */
};

/* The transition for @event in @state; .valid 0 for an event the state does not take. */
struct sdp_transition sdp_state_next(enum sdp_state state, enum sdp_event event);
/* May the owner send data, and may data still arrive, in @state. */
bool sdp_state_can_send(enum sdp_state state);
bool sdp_state_can_recv(enum sdp_state state);
const char *sdp_state_name(enum sdp_state state);
const char *sdp_event_name(enum sdp_event event);

/*
 * Buffered-copy credits of one connection.  Our messages are numbered from 1 (mseq); the peer
 * acknowledges the last one it received (mseq_ack) and says how many receives it has posted
 * (bufs), so our credits are the buffers it posted less our messages still on their way.
 */
struct sdp_credit {
	u32 tx_head;		/* the mseq of our next message */
	u32 tx_acked;		/* the last of ours the peer acknowledged */
	u32 tx_credits;		/* messages we may send */
	u32 rx_head;		/* the mseq of the peer's last message (our mseq_ack) */
	u32 rx_posted;		/* our receive buffers posted */
	u32 remote_credits;	/* what the peer believes it has: our last bufs, less since */
};

/* What a message needs: Data with payload keeps two credits back, a control message one. */
enum sdp_tx_kind {
	SDP_TX_DATA,		/* Data with payload, SrcAvail */
	SDP_TX_CONTROL,		/* DisConn and the other messages without payload */
	SDP_TX_UPDATE,		/* an empty Data that grants credits: may use the last one */
};

#define SDP_MIN_TX_CREDITS	2

/* After the Hello or HelloAck: @peer_bufs from its BSDH, @posted our receives posted. */
void sdp_credit_init(struct sdp_credit *c, u16 peer_bufs, u32 posted);
/* Receives posted again (the owner read their data). */
void sdp_credit_posted(struct sdp_credit *c, u32 n);
bool sdp_credit_may_send(const struct sdp_credit *c, enum sdp_tx_kind kind);
/* An explicit credit update is due: the peer's view of our buffers fell well behind. */
bool sdp_credit_update_due(const struct sdp_credit *c);
/* Number a message we send and fill its bufs and mseq_ack; spends a credit. */
void sdp_credit_tx(struct sdp_credit *c, struct oib_sdp_hdr *h);
/*
 * A message received: its buffer is consumed, and our credits follow its BSDH.  -EPROTO (the
 * connection is to be reset): out of order, acknowledging what we never sent, or a count of
 * buffers that our messages in flight exceed.
 */
int sdp_credit_rx(struct sdp_credit *c, const struct oib_sdp_hdr *h);

/* Why a received message reset its connection: each is counted. */
enum sdp_rx_error {
	SDP_RXE_LENGTH,		/* shorter than its message, or not the BSDH's length */
	SDP_RXE_ID,		/* an unknown message ID, a Hello on the QP, a reserved flag */
	SDP_RXE_FIELD,		/* a field out of range */
	SDP_RXE_SEQUENCE,	/* mseq, mseq_ack or bufs that the credits refuse */
	SDP_RXE_STATE,		/* a valid message the socket's state does not take */
	SDP_RXE_UNSUPPORTED,	/* zero copy, buffer resizing, suspension: not done here */
	SDP_RXE_ABORTED,	/* the peer's AbortConn (not its fault, but a reset) */
	SDP_RXE_NUM
};

enum sdp_rx_verdict {
	SDP_RX_DATA,		/* payload for the reader; the buffer is held until read */
	SDP_RX_CREDITS,		/* nothing but the BSDH: the buffer may be posted again */
	SDP_RX_DISCONN,		/* the peer's DisConn: SDP_EV_DISCONN_RCVD */
	SDP_RX_RESET,		/* SDP_EV_RESET, counted under the error given */
};

/*
 * A message received on the QP in @state, the first @len bytes of @buf: parsed into @msg,
 * checked against the state and the credits (which it updates when the message is taken).
 * SDP_RX_RESET sets *@why.
 */
enum sdp_rx_verdict sdp_rx_classify(const void *buf, size_t len, enum sdp_state state,
				    struct sdp_credit *c, struct oib_sdp_msg *msg,
				    enum sdp_rx_error *why);
const char *sdp_rx_error_name(enum sdp_rx_error why);

#endif /* OIB_KUNIT_SDP_H */
