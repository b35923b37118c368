// SPDX-License-Identifier: GPL-2.0-only
/*
 * A socket's state table, as data: for each state and event the next state and what the caller
 * does about it (include/oib/kunit/sdp.h).  A close is TCP's: DisConn is the FIN, each side's
 * after its data; once a side has both sent its own (completed) and seen the peer's, it asks the
 * CM to disconnect.  A CM disconnect before the peer's DisConn, or a reset, is the peer's RST.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <oib/kunit/sdp.h>
#include <oib/names.h>

#define TO(state, acts) { .valid = 1, .next = SDP_##state, .actions = (acts) }

#define WAKE		SDP_DO_WAKE
#define RELEASE		SDP_DO_RELEASE
#define GONE		(SDP_DO_RELEASE | SDP_DO_WAKE)
#define CM_GONE		(SDP_DO_CM_DISCONNECT | GONE)
#define RESET		(SDP_DO_ERR_RESET | SDP_DO_EOF)

/* The teardowns every state with a connection takes (TIME_WAIT's CM disconnect is under way). */
#define LIVE_ENDS(reset_errs)						\
	[SDP_EV_RESET] = TO(CLOSED, CM_GONE | (reset_errs)),		\
	[SDP_EV_ABORT] = TO(CLOSED, CM_GONE)

static const struct sdp_transition sdp_table[SDP_NSTATES][SDP_NEVENTS] = {
	[SDP_CLOSED] = {
		[SDP_EV_CONNECT] = TO(SYN_SENT, SDP_DO_RESOLVE),
		[SDP_EV_LISTEN] = TO(LISTEN, SDP_DO_LISTEN),
		[SDP_EV_REQUEST] = TO(SYN_RECV, SDP_DO_ACCEPT),
		[SDP_EV_CLOSE] = TO(CLOSED, 0),
	},
	[SDP_LISTEN] = {
		[SDP_EV_LISTEN] = TO(LISTEN, SDP_DO_LISTEN),
		[SDP_EV_CLOSE] = TO(CLOSED, GONE),
	},
	[SDP_SYN_SENT] = {
		[SDP_EV_ESTABLISHED] = TO(ESTABLISHED, WAKE),
		[SDP_EV_REFUSED] = TO(CLOSED, SDP_DO_ERR_REFUSED | GONE),
		[SDP_EV_RESET] = TO(CLOSED, SDP_DO_ERR_RESET | GONE),
		[SDP_EV_ABORT] = TO(CLOSED, GONE),
	},
	[SDP_SYN_RECV] = {
		[SDP_EV_ESTABLISHED] = TO(ESTABLISHED, WAKE),
		[SDP_EV_REFUSED] = TO(CLOSED, RELEASE),
		[SDP_EV_RESET] = TO(CLOSED, RELEASE),
		[SDP_EV_ABORT] = TO(CLOSED, RELEASE),
	},
	[SDP_ESTABLISHED] = {
		[SDP_EV_SHUT_WR] = TO(FIN_WAIT1, SDP_DO_SEND_DISCONN),
		[SDP_EV_DISCONN_RCVD] = TO(CLOSE_WAIT, SDP_DO_EOF | WAKE),
		[SDP_EV_CM_DISCONNECTED] = TO(CLOSED, RESET | GONE),
		LIVE_ENDS(RESET),
	},
	[SDP_FIN_WAIT1] = {
		[SDP_EV_SHUT_WR] = TO(FIN_WAIT1, 0),
		[SDP_EV_DISCONN_SENT] = TO(FIN_WAIT2, 0),
		[SDP_EV_DISCONN_RCVD] = TO(CLOSING, SDP_DO_EOF | WAKE),
		[SDP_EV_CM_DISCONNECTED] = TO(CLOSED, RESET | GONE),
		[SDP_EV_TIMEOUT] = TO(CLOSED, CM_GONE),
		LIVE_ENDS(RESET),
	},
	[SDP_FIN_WAIT2] = {
		[SDP_EV_SHUT_WR] = TO(FIN_WAIT2, 0),
		[SDP_EV_DISCONN_RCVD] = TO(TIME_WAIT, SDP_DO_EOF | SDP_DO_CM_DISCONNECT | WAKE),
		[SDP_EV_CM_DISCONNECTED] = TO(CLOSED, RESET | GONE),
		[SDP_EV_TIMEOUT] = TO(CLOSED, CM_GONE),
		LIVE_ENDS(RESET),
	},
	[SDP_CLOSE_WAIT] = {
		[SDP_EV_SHUT_WR] = TO(LAST_ACK, SDP_DO_SEND_DISCONN),
		[SDP_EV_CM_DISCONNECTED] = TO(CLOSED, SDP_DO_ERR_RESET | GONE),
		LIVE_ENDS(SDP_DO_ERR_RESET),
	},
	[SDP_CLOSING] = {
		[SDP_EV_SHUT_WR] = TO(CLOSING, 0),
		[SDP_EV_DISCONN_SENT] = TO(TIME_WAIT, SDP_DO_CM_DISCONNECT),
		[SDP_EV_CM_DISCONNECTED] = TO(CLOSED, GONE),
		[SDP_EV_TIMEOUT] = TO(CLOSED, CM_GONE),
		LIVE_ENDS(0),
	},
	[SDP_LAST_ACK] = {
		[SDP_EV_SHUT_WR] = TO(LAST_ACK, 0),
		[SDP_EV_DISCONN_SENT] = TO(TIME_WAIT, SDP_DO_CM_DISCONNECT),
		[SDP_EV_CM_DISCONNECTED] = TO(CLOSED, GONE),
		[SDP_EV_TIMEOUT] = TO(CLOSED, CM_GONE),
		LIVE_ENDS(0),
	},
	[SDP_TIME_WAIT] = {
		[SDP_EV_SHUT_WR] = TO(TIME_WAIT, 0),
		[SDP_EV_CM_DISCONNECTED] = TO(CLOSED, GONE),
		[SDP_EV_RESET] = TO(CLOSED, GONE),
		[SDP_EV_ABORT] = TO(CLOSED, GONE),
		[SDP_EV_TIMEOUT] = TO(CLOSED, GONE),
	},
};

struct sdp_transition sdp_state_next(enum sdp_state state, enum sdp_event event)
{
	struct sdp_transition none = {};

	if ((unsigned int)state >= SDP_NSTATES || (unsigned int)event >= SDP_NEVENTS)
		return none;
	return sdp_table[state][event];
}
EXPORT_SYMBOL_IF_KUNIT(sdp_state_next);

bool sdp_state_can_send(enum sdp_state state)
{
	return state == SDP_ESTABLISHED || state == SDP_CLOSE_WAIT;
}
EXPORT_SYMBOL_IF_KUNIT(sdp_state_can_send);

bool sdp_state_can_recv(enum sdp_state state)
{
	return state == SDP_ESTABLISHED || state == SDP_FIN_WAIT1 || state == SDP_FIN_WAIT2;
}
EXPORT_SYMBOL_IF_KUNIT(sdp_state_can_recv);

static const char * const sdp_state_names[SDP_NSTATES] = {
	[SDP_CLOSED] = "CLOSED",
	[SDP_LISTEN] = "LISTEN",
	[SDP_SYN_SENT] = "SYN_SENT",
	[SDP_SYN_RECV] = "SYN_RECV",
	[SDP_ESTABLISHED] = "ESTABLISHED",
	[SDP_FIN_WAIT1] = "FIN_WAIT1",
	[SDP_FIN_WAIT2] = "FIN_WAIT2",
	[SDP_CLOSE_WAIT] = "CLOSE_WAIT",
	[SDP_CLOSING] = "CLOSING",
	[SDP_LAST_ACK] = "LAST_ACK",
	[SDP_TIME_WAIT] = "TIME_WAIT",
};

static const char * const sdp_event_names[SDP_NEVENTS] = {
	[SDP_EV_CONNECT] = "connect",
	[SDP_EV_LISTEN] = "listen",
	[SDP_EV_REQUEST] = "request",
	[SDP_EV_ESTABLISHED] = "established",
	[SDP_EV_REFUSED] = "refused",
	[SDP_EV_SHUT_WR] = "shut_wr",
	[SDP_EV_DISCONN_SENT] = "disconn_sent",
	[SDP_EV_DISCONN_RCVD] = "disconn_rcvd",
	[SDP_EV_CM_DISCONNECTED] = "cm_disconnected",
	[SDP_EV_RESET] = "reset",
	[SDP_EV_ABORT] = "abort",
	[SDP_EV_TIMEOUT] = "timeout",
	[SDP_EV_CLOSE] = "close",
};

const char *sdp_state_name(enum sdp_state state)
{
	return oib_enum_name(sdp_state_names, state);
}
EXPORT_SYMBOL_IF_KUNIT(sdp_state_name);

const char *sdp_event_name(enum sdp_event event)
{
	return oib_enum_name(sdp_event_names, event);
}
EXPORT_SYMBOL_IF_KUNIT(sdp_event_name);
