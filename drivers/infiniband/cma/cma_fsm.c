// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RDMA CM id's state table.  Rows are states, columns events; each step names the next state
 * and what the owner hears.  The connection itself (messages, retries, timewait) is oib_cm's
 * table; this one follows the owner's view of it, as the in-tree rdma_cm reports it.
 * Documentation/cma.md draws it.
 */
#include <linux/module.h>
#include <kunit/visibility.h>
#include <oib/names.h>
#include <oib/kunit/cma_fsm.h>

#define S(to)		{ .valid = 1, .next = CMA_##to, .deliver = CMA_NO_EVENT }
#define E(to, ev)	{ .valid = 1, .next = CMA_##to, .deliver = OIB_CMA_EVENT_##ev }

/* Every state but DESTROYING: destroy, and the device going away. */
#define CMA_ALWAYS							\
	[CMA_EV_DESTROY] = S(DESTROYING),				\
	[CMA_EV_DEVICE_REMOVAL] = E(DEVICE_REMOVAL, DEVICE_REMOVAL)

static const struct cma_step cma_table[CMA_NSTATES][CMA_NEVENTS] = {
	[CMA_IDLE] = {
		[CMA_EV_BIND] = S(ADDR_BOUND),
		[CMA_EV_RESOLVE_ADDR] = S(ADDR_QUERY),
		[CMA_EV_CM_REQ] = E(REQ_RCVD, CONNECT_REQUEST),
		CMA_ALWAYS,
	},
	[CMA_ADDR_BOUND] = {
		[CMA_EV_RESOLVE_ADDR] = S(ADDR_QUERY),
		[CMA_EV_LISTEN] = S(LISTEN),
		[CMA_EV_ADDR_CHANGE] = E(ADDR_BOUND, ADDR_CHANGE),
		CMA_ALWAYS,
	},
	[CMA_ADDR_QUERY] = {
		[CMA_EV_ADDR_OK] = E(ADDR_RESOLVED, ADDR_RESOLVED),
		[CMA_EV_ADDR_ERR] = E(ADDR_BOUND, ADDR_ERROR),
		CMA_ALWAYS,
	},
	[CMA_ADDR_RESOLVED] = {
		[CMA_EV_RESOLVE_ADDR] = S(ADDR_QUERY),	/* again, to another destination */
		[CMA_EV_RESOLVE_ROUTE] = S(ROUTE_QUERY),
		[CMA_EV_ADDR_CHANGE] = E(ADDR_RESOLVED, ADDR_CHANGE),
		CMA_ALWAYS,
	},
	[CMA_ROUTE_QUERY] = {
		[CMA_EV_ROUTE_OK] = E(ROUTE_RESOLVED, ROUTE_RESOLVED),
		[CMA_EV_ROUTE_ERR] = E(ADDR_RESOLVED, ROUTE_ERROR),
		CMA_ALWAYS,
	},
	[CMA_ROUTE_RESOLVED] = {
		[CMA_EV_CONNECT] = S(CONNECT),
		[CMA_EV_RESOLVE_ROUTE] = S(ROUTE_QUERY),
		[CMA_EV_ADDR_CHANGE] = E(ROUTE_RESOLVED, ADDR_CHANGE),
		CMA_ALWAYS,
	},
	[CMA_LISTEN] = {
		CMA_ALWAYS,
	},
	/* Active side. */
	[CMA_CONNECT] = {
		[CMA_EV_CM_REP] = S(CONNECT),		/* the RTU went: ESTABLISHED follows */
		[CMA_EV_CM_REP_CONFIRM] = E(REP_RCVD, CONNECT_RESPONSE),
		[CMA_EV_CM_SIDR_OK] = E(ESTABLISHED, ESTABLISHED),
		[CMA_EV_CM_ESTABLISHED] = E(ESTABLISHED, ESTABLISHED),
		[CMA_EV_CM_REJ] = E(DISCONNECTED, REJECTED),
		[CMA_EV_CM_REQ_ERR] = E(DISCONNECTED, UNREACHABLE),
		[CMA_EV_CM_DREQ] = E(DREQ_RCVD, DISCONNECTED),
		[CMA_EV_ADDR_CHANGE] = E(CONNECT, ADDR_CHANGE),
		CMA_ALWAYS,
	},
	[CMA_REP_RCVD] = {
		[CMA_EV_ACCEPT] = S(CONNECT),		/* the RTU: ESTABLISHED follows */
		[CMA_EV_REJECT] = S(DISCONNECTED),
		[CMA_EV_CM_REJ] = E(DISCONNECTED, REJECTED),
		[CMA_EV_CM_DREQ] = E(DREQ_RCVD, DISCONNECTED),
		CMA_ALWAYS,
	},
	/* Passive side. */
	[CMA_REQ_RCVD] = {
		[CMA_EV_ACCEPT] = S(ACCEPTED),
		[CMA_EV_REJECT] = S(DISCONNECTED),
		[CMA_EV_CM_REJ] = E(DISCONNECTED, REJECTED),
		CMA_ALWAYS,
	},
	[CMA_ACCEPTED] = {
		[CMA_EV_CM_ESTABLISHED] = E(ESTABLISHED, ESTABLISHED),
		[CMA_EV_CM_REJ] = E(DISCONNECTED, REJECTED),
		[CMA_EV_CM_REP_ERR] = E(DISCONNECTED, CONNECT_ERROR),
		[CMA_EV_CM_DREQ] = E(DREQ_RCVD, DISCONNECTED),
		[CMA_EV_DISCONNECT] = S(DISCONNECTED),	/* a REJ: the REP is taken back */
		[CMA_EV_ADDR_CHANGE] = E(ACCEPTED, ADDR_CHANGE),
		CMA_ALWAYS,
	},
	[CMA_ESTABLISHED] = {
		[CMA_EV_DISCONNECT] = S(DISCONNECT),
		[CMA_EV_CM_DREQ] = E(DREQ_RCVD, DISCONNECTED),
		[CMA_EV_CM_REJ] = E(DISCONNECTED, DISCONNECTED),	/* a stale-connection REJ */
		[CMA_EV_ADDR_CHANGE] = E(ESTABLISHED, ADDR_CHANGE),
		CMA_ALWAYS,
	},
	/* Release. */
	[CMA_DISCONNECT] = {
		[CMA_EV_DISCONNECT] = S(DISCONNECT),
		[CMA_EV_CM_DREQ] = E(DISCONNECTED, DISCONNECTED),	/* the DREQs crossed */
		[CMA_EV_CM_DREQ_DONE] = E(DISCONNECTED, DISCONNECTED),
		[CMA_EV_CM_REJ] = E(DISCONNECTED, DISCONNECTED),
		CMA_ALWAYS,
	},
	[CMA_DREQ_RCVD] = {
		[CMA_EV_DISCONNECT] = S(DISCONNECTED),	/* our DREP */
		CMA_ALWAYS,
	},
	[CMA_DISCONNECTED] = {
		[CMA_EV_DISCONNECT] = S(DISCONNECTED),
		[CMA_EV_CM_TIMEWAIT_EXIT] = E(DISCONNECTED, TIMEWAIT_EXIT),
		CMA_ALWAYS,
	},
	[CMA_DEVICE_REMOVAL] = {
		[CMA_EV_DESTROY] = S(DESTROYING),
	},
	/* DESTROYING: nothing happens to an id being destroyed. */
};

#undef CMA_ALWAYS
#undef E
#undef S

struct cma_step cma_fsm_step(enum cma_state state, enum cma_event event)
{
	static const struct cma_step refused;

	if (state >= CMA_NSTATES || event >= CMA_NEVENTS)
		return refused;
	return cma_table[state][event];
}
EXPORT_SYMBOL_IF_KUNIT(cma_fsm_step);

static const char * const cma_state_names[CMA_NSTATES] = {
	[CMA_IDLE] = "IDLE", [CMA_ADDR_BOUND] = "ADDR_BOUND", [CMA_ADDR_QUERY] = "ADDR_QUERY",
	[CMA_ADDR_RESOLVED] = "ADDR_RESOLVED", [CMA_ROUTE_QUERY] = "ROUTE_QUERY",
	[CMA_ROUTE_RESOLVED] = "ROUTE_RESOLVED", [CMA_LISTEN] = "LISTEN",
	[CMA_CONNECT] = "CONNECT", [CMA_REP_RCVD] = "REP_RCVD", [CMA_REQ_RCVD] = "REQ_RCVD",
	[CMA_ACCEPTED] = "ACCEPTED", [CMA_ESTABLISHED] = "ESTABLISHED",
	[CMA_DISCONNECT] = "DISCONNECT", [CMA_DREQ_RCVD] = "DREQ_RCVD",
	[CMA_DISCONNECTED] = "DISCONNECTED", [CMA_DEVICE_REMOVAL] = "DEVICE_REMOVAL",
	[CMA_DESTROYING] = "DESTROYING",
};

static const char * const cma_event_names[CMA_NEVENTS] = {
	[CMA_EV_BIND] = "bind", [CMA_EV_RESOLVE_ADDR] = "resolve_addr",
	[CMA_EV_RESOLVE_ROUTE] = "resolve_route", [CMA_EV_LISTEN] = "listen",
	[CMA_EV_CONNECT] = "connect", [CMA_EV_ACCEPT] = "accept", [CMA_EV_REJECT] = "reject",
	[CMA_EV_DISCONNECT] = "disconnect", [CMA_EV_DESTROY] = "destroy",
	[CMA_EV_ADDR_OK] = "addr_ok", [CMA_EV_ADDR_ERR] = "addr_err",
	[CMA_EV_ROUTE_OK] = "route_ok", [CMA_EV_ROUTE_ERR] = "route_err",
	[CMA_EV_CM_REQ] = "cm_req", [CMA_EV_CM_REP] = "cm_rep",
	[CMA_EV_CM_REP_CONFIRM] = "cm_rep_confirm", [CMA_EV_CM_SIDR_OK] = "cm_sidr_ok",
	[CMA_EV_CM_ESTABLISHED] = "cm_established", [CMA_EV_CM_REJ] = "cm_rej",
	[CMA_EV_CM_REQ_ERR] = "cm_req_err", [CMA_EV_CM_REP_ERR] = "cm_rep_err",
	[CMA_EV_CM_DREQ] = "cm_dreq", [CMA_EV_CM_DREQ_DONE] = "cm_dreq_done",
	[CMA_EV_CM_TIMEWAIT_EXIT] = "cm_timewait_exit",
	[CMA_EV_DEVICE_REMOVAL] = "device_removal", [CMA_EV_ADDR_CHANGE] = "addr_change",
};

const char *cma_state_name(enum cma_state state)
{
	return oib_enum_name(cma_state_names, state);
}
EXPORT_SYMBOL_IF_KUNIT(cma_state_name);

const char *cma_event_name(enum cma_event event)
{
	return oib_enum_name(cma_event_names, event);
}
EXPORT_SYMBOL_IF_KUNIT(cma_event_name);

static const char * const oib_cma_event_names[OIB_CMA_NEVENTS] = {
	[OIB_CMA_EVENT_ADDR_RESOLVED] = "ADDR_RESOLVED",
	[OIB_CMA_EVENT_ADDR_ERROR] = "ADDR_ERROR",
	[OIB_CMA_EVENT_ROUTE_RESOLVED] = "ROUTE_RESOLVED",
	[OIB_CMA_EVENT_ROUTE_ERROR] = "ROUTE_ERROR",
	[OIB_CMA_EVENT_CONNECT_REQUEST] = "CONNECT_REQUEST",
	[OIB_CMA_EVENT_CONNECT_RESPONSE] = "CONNECT_RESPONSE",
	[OIB_CMA_EVENT_CONNECT_ERROR] = "CONNECT_ERROR",
	[OIB_CMA_EVENT_UNREACHABLE] = "UNREACHABLE",
	[OIB_CMA_EVENT_REJECTED] = "REJECTED",
	[OIB_CMA_EVENT_ESTABLISHED] = "ESTABLISHED",
	[OIB_CMA_EVENT_DISCONNECTED] = "DISCONNECTED",
	[OIB_CMA_EVENT_DEVICE_REMOVAL] = "DEVICE_REMOVAL",
	[OIB_CMA_EVENT_TIMEWAIT_EXIT] = "TIMEWAIT_EXIT",
	[OIB_CMA_EVENT_ADDR_CHANGE] = "ADDR_CHANGE",
};

const char *oib_cma_event_msg(enum oib_cma_event_type event)
{
	return oib_enum_name(oib_cma_event_names, event);
}
EXPORT_SYMBOL(oib_cma_event_msg);
