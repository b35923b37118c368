// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a received message means for its connection: the wire's checks, then the socket's state
 * and the credits.  Anything refused resets the connection (never more than it), under a reason
 * that is counted.  Data arrives only while the peer may still send (before its DisConn); its
 * BSDH always counts for the credits, whatever the state.  Zero copy (SrcAvail, SinkAvail,
 * RdmaRdCompl, SendSM, the cancels), buffer resizing and suspension are not implemented: they
 * reset the connection, as OFED did for SinkAvail.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <oib/kunit/sdp.h>
#include <oib/names.h>

static enum sdp_rx_error sdp_rx_wire_error(int err)
{
	switch (err) {
	case -EMSGSIZE:
		return SDP_RXE_LENGTH;
	case -EBADMSG:
		return SDP_RXE_ID;
	default:
		return SDP_RXE_FIELD;
	}
}

/* What the message asks for, before the state is consulted. */
static enum sdp_rx_verdict sdp_rx_kind(const struct oib_sdp_msg *msg, enum sdp_rx_error *why)
{
	switch (msg->hdr.mid) {
	case OIB_SDP_MID_DATA:
		return msg->payload_len ? SDP_RX_DATA : SDP_RX_CREDITS;
	case OIB_SDP_MID_DISCONN:
		return SDP_RX_DISCONN;
	case OIB_SDP_MID_ABORT_CONN:
		*why = SDP_RXE_ABORTED;
		return SDP_RX_RESET;
	default:
		*why = SDP_RXE_UNSUPPORTED;
		return SDP_RX_RESET;
	}
}

enum sdp_rx_verdict sdp_rx_classify(const void *buf, size_t len, enum sdp_state state,
				    struct sdp_credit *c, struct oib_sdp_msg *msg,
				    enum sdp_rx_error *why)
{
	enum sdp_rx_verdict v;
	int ret = oib_sdp_parse_msg(buf, len, msg);

	if (ret) {
		*why = sdp_rx_wire_error(ret);
		return SDP_RX_RESET;
	}
	v = sdp_rx_kind(msg, why);
	if (v == SDP_RX_RESET)
		return v;
	if ((v == SDP_RX_DATA && !sdp_state_can_recv(state)) ||
	    (v == SDP_RX_DISCONN && !sdp_state_next(state, SDP_EV_DISCONN_RCVD).valid)) {
		*why = SDP_RXE_STATE;
		return SDP_RX_RESET;
	}
	if (sdp_credit_rx(c, &msg->hdr)) {
		*why = SDP_RXE_SEQUENCE;
		return SDP_RX_RESET;
	}
	return v;
}
EXPORT_SYMBOL_IF_KUNIT(sdp_rx_classify);

static const char * const sdp_rx_error_names[SDP_RXE_NUM] = {
	[SDP_RXE_LENGTH] = "length",
	[SDP_RXE_ID] = "id",
	[SDP_RXE_FIELD] = "field",
	[SDP_RXE_SEQUENCE] = "sequence",
	[SDP_RXE_STATE] = "state",
	[SDP_RXE_UNSUPPORTED] = "unsupported",
	[SDP_RXE_ABORTED] = "aborted",
};

const char *sdp_rx_error_name(enum sdp_rx_error why)
{
	return oib_enum_name(sdp_rx_error_names, why);
}
EXPORT_SYMBOL_IF_KUNIT(sdp_rx_error_name);
