// SPDX-License-Identifier: GPL-2.0-only
/*
 * The iWARP CM id's state table.  Rows are states, columns events; each step names the next state
 * and what the owner hears.  The connection itself (TCP, MPA) is the provider's; this table follows
 * what the provider reports and what the owner asks.  Documentation/iwcm.md draws it.
 */
#include <linux/module.h>
#include <kunit/visibility.h>
#include <oib/names.h>
#include <oib/iwcm.h>
#include <oib/kunit/iwcm_fsm.h>

#define S(to)		{ .valid = 1, .next = IWCM_##to, .deliver = IWCM_NO_EVENT }
#define E(to, ev)	{ .valid = 1, .next = IWCM_##to, .deliver = OIB_IW_CM_EVENT_##ev }

static const struct iwcm_step iwcm_table[IWCM_NSTATES][IWCM_NEVENTS] = {
	[IWCM_IDLE] = {
		[IWCM_EV_LISTEN] = S(LISTEN),
		[IWCM_EV_CONNECT] = S(CONN_SENT),
		[IWCM_EV_CONNECT_REQUEST] = E(CONN_RECV, CONNECT_REQUEST),
		[IWCM_EV_DESTROY] = S(DESTROYING),
	},
	[IWCM_LISTEN] = {
		[IWCM_EV_DESTROY] = S(DESTROYING),
	},
	[IWCM_CONN_SENT] = {
		[IWCM_EV_CONNECT_REPLY_OK] = E(ESTABLISHED, CONNECT_REPLY),
		[IWCM_EV_CONNECT_REPLY_ERR] = E(IDLE, CONNECT_REPLY),
		[IWCM_EV_DESTROY] = S(DESTROYING),
	},
	[IWCM_CONN_RECV] = {
		[IWCM_EV_ACCEPT] = S(CONN_RECV),	/* ESTABLISHED (or CLOSE) follows */
		[IWCM_EV_REJECT] = S(IDLE),
		[IWCM_EV_DISCONNECT] = S(CLOSING),	/* accepted: taken back, CLOSE follows */
		[IWCM_EV_ESTABLISHED] = E(ESTABLISHED, ESTABLISHED),
		[IWCM_EV_CLOSE] = E(IDLE, CLOSE),	/* the accepted connection failed */
		[IWCM_EV_DESTROY] = S(DESTROYING),
	},
	[IWCM_ESTABLISHED] = {
		[IWCM_EV_DISCONNECT] = S(CLOSING),
		[IWCM_EV_DISCONNECT_IN] = E(CLOSING, DISCONNECT),
		[IWCM_EV_CLOSE] = E(IDLE, CLOSE),	/* reset: no DISCONNECT first */
		[IWCM_EV_DESTROY] = S(DESTROYING),
	},
	[IWCM_CLOSING] = {
		[IWCM_EV_DISCONNECT] = S(CLOSING),
		[IWCM_EV_DISCONNECT_IN] = S(CLOSING),	/* we closed first, or already told */
		[IWCM_EV_CLOSE] = E(IDLE, CLOSE),
		[IWCM_EV_DESTROY] = S(DESTROYING),
	},
	/* DESTROYING: the owner hears nothing more; the provider's last events are absorbed. */
};

#undef E
#undef S

struct iwcm_step iwcm_fsm_step(enum iwcm_state state, enum iwcm_event event)
{
	static const struct iwcm_step refused;

	if (state >= IWCM_NSTATES || event >= IWCM_NEVENTS)
		return refused;
	return iwcm_table[state][event];
}
EXPORT_SYMBOL_IF_KUNIT(iwcm_fsm_step);

static const char * const iwcm_state_names[IWCM_NSTATES] = {
	[IWCM_IDLE] = "IDLE", [IWCM_LISTEN] = "LISTEN", [IWCM_CONN_SENT] = "CONN_SENT",
	[IWCM_CONN_RECV] = "CONN_RECV", [IWCM_ESTABLISHED] = "ESTABLISHED",
	[IWCM_CLOSING] = "CLOSING", [IWCM_DESTROYING] = "DESTROYING",
};

static const char * const iwcm_event_names[IWCM_NEVENTS] = {
	[IWCM_EV_LISTEN] = "listen", [IWCM_EV_CONNECT] = "connect", [IWCM_EV_ACCEPT] = "accept",
	[IWCM_EV_REJECT] = "reject", [IWCM_EV_DISCONNECT] = "disconnect",
	[IWCM_EV_DESTROY] = "destroy", [IWCM_EV_CONNECT_REQUEST] = "connect_request",
	[IWCM_EV_CONNECT_REPLY_OK] = "connect_reply_ok",
	[IWCM_EV_CONNECT_REPLY_ERR] = "connect_reply_err", [IWCM_EV_ESTABLISHED] = "established",
	[IWCM_EV_DISCONNECT_IN] = "disconnect_in", [IWCM_EV_CLOSE] = "close",
};

const char *iwcm_state_name(enum iwcm_state state)
{
	return oib_enum_name(iwcm_state_names, state);
}
EXPORT_SYMBOL_IF_KUNIT(iwcm_state_name);

const char *iwcm_event_name(enum iwcm_event event)
{
	return oib_enum_name(iwcm_event_names, event);
}
EXPORT_SYMBOL_IF_KUNIT(iwcm_event_name);

static const char * const oib_iw_cm_event_names[OIB_IW_CM_NEVENTS] = {
	[OIB_IW_CM_EVENT_CONNECT_REQUEST] = "CONNECT_REQUEST",
	[OIB_IW_CM_EVENT_CONNECT_REPLY] = "CONNECT_REPLY",
	[OIB_IW_CM_EVENT_ESTABLISHED] = "ESTABLISHED",
	[OIB_IW_CM_EVENT_DISCONNECT] = "DISCONNECT",
	[OIB_IW_CM_EVENT_CLOSE] = "CLOSE",
};

const char *oib_iwcm_event_msg(enum oib_iw_cm_event_type event)
{
	return oib_enum_name(oib_iw_cm_event_names, event);
}
EXPORT_SYMBOL(oib_iwcm_event_msg);
