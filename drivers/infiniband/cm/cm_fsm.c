// SPDX-License-Identifier: GPL-2.0-only
/*
 * The connection state table: IBTA vol. 1, 12.9 (figures 155-160: active, passive, release,
 * SIDR), the duplicate and stale rules of 12.9.8 and the in-tree ib_cm's choices where the spec
 * leaves one.  Rows are states, columns events; a pair left out is a protocol error.
 * Documentation/cm.md draws it.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <kunit/visibility.h>
#include <oib/names.h>
#include <oib/kunit/cm_fsm.h>

#define S(act, to)	{ .action = CM_ACT_##act, .next = OIB_CM_##to }

static const struct cm_step cm_table[OIB_CM_NSTATES][CM_NEVENTS] = {
	[OIB_CM_IDLE] = {
		[CM_EV_LISTEN] = S(NONE, LISTEN),
		[CM_EV_SEND_REQ] = S(SEND_REQ, REQ_SENT),
		[CM_EV_SEND_SIDR_REQ] = S(SEND_SIDR_REQ, SIDR_REQ_SENT),
		[CM_EV_RECV_REQ] = S(DELIVER_REQ, REQ_RCVD),
		[CM_EV_RECV_SIDR_REQ] = S(DELIVER_SIDR_REQ, SIDR_REQ_RCVD),
		[CM_EV_DESTROY] = S(DESTROY, DESTROYING),
	},
	[OIB_CM_LISTEN] = {
		[CM_EV_RECV_REQ] = S(SPAWN, LISTEN),
		[CM_EV_RECV_SIDR_REQ] = S(SPAWN, LISTEN),
		[CM_EV_DESTROY] = S(DESTROY, DESTROYING),
	},
	/* Active side, REQ out. */
	[OIB_CM_REQ_SENT] = {
		[CM_EV_RECV_REP] = S(DELIVER_REP, REP_RCVD),
		[CM_EV_RECV_MRA_REQ] = S(MRA_RCVD, MRA_REQ_RCVD),
		[CM_EV_RECV_REJ] = S(REJ_RCVD, IDLE),
		[CM_EV_RECV_REJ_STALE] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_RECV_REQ_CROSS_ACTIVE] = S(IGNORE, REQ_SENT),
		[CM_EV_RECV_REQ_CROSS_PASSIVE] = S(CROSS_PASSIVE, REQ_RCVD),
		[CM_EV_REQ_TIMEOUT] = S(REQ_TIMEOUT, IDLE),
		[CM_EV_SEND_REJ] = S(SEND_REJ, IDLE),
		[CM_EV_DESTROY] = S(DESTROY_REJ_TIMEOUT, DESTROYING),
	},
	[OIB_CM_MRA_REQ_RCVD] = {
		[CM_EV_RECV_REP] = S(DELIVER_REP, REP_RCVD),
		[CM_EV_RECV_MRA_REQ] = S(DROP_DUP, MRA_REQ_RCVD),
		[CM_EV_RECV_REJ] = S(REJ_RCVD, IDLE),
		[CM_EV_RECV_REJ_STALE] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_REQ_TIMEOUT] = S(REQ_TIMEOUT, IDLE),
		[CM_EV_SEND_REJ] = S(SEND_REJ, IDLE),
		[CM_EV_DESTROY] = S(DESTROY_REJ_TIMEOUT, DESTROYING),
	},
	/* Passive side, REQ in. */
	[OIB_CM_REQ_RCVD] = {
		[CM_EV_SEND_REP] = S(SEND_REP, REP_SENT),
		[CM_EV_SEND_MRA] = S(SEND_MRA_REQ, MRA_REQ_SENT),
		[CM_EV_SEND_REJ] = S(SEND_REJ, IDLE),
		[CM_EV_RECV_REQ] = S(DROP_DUP, REQ_RCVD),
		[CM_EV_RECV_REJ] = S(REJ_RCVD, IDLE),
		[CM_EV_RECV_REJ_STALE] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_DESTROY] = S(DESTROY_REJ, DESTROYING),
	},
	[OIB_CM_MRA_REQ_SENT] = {
		[CM_EV_SEND_REP] = S(SEND_REP, REP_SENT),
		[CM_EV_SEND_REJ] = S(SEND_REJ, IDLE),
		[CM_EV_RECV_REQ] = S(RESEND_MRA, MRA_REQ_SENT),
		[CM_EV_RECV_REJ] = S(REJ_RCVD, IDLE),
		[CM_EV_RECV_REJ_STALE] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_DESTROY] = S(DESTROY_REJ, DESTROYING),
	},
	/* Passive side, REP out, QP in RTR: established by whichever signal comes first. */
	[OIB_CM_REP_SENT] = {
		[CM_EV_RECV_RTU] = S(ESTABLISH, ESTABLISHED),
		[CM_EV_COMM_EST] = S(ESTABLISH, ESTABLISHED),
		[CM_EV_FIRST_RECV] = S(ESTABLISH, ESTABLISHED),
		[CM_EV_NOTIFY] = S(ESTABLISH, ESTABLISHED),
		[CM_EV_RECV_MRA_REP] = S(MRA_RCVD, MRA_REP_RCVD),
		[CM_EV_RECV_REQ] = S(RESEND_REP, REP_SENT),
		[CM_EV_RECV_REQ_STALE] = S(SEND_REJ_STALE, REP_SENT),
		[CM_EV_RECV_REJ] = S(REJ_RCVD, IDLE),
		[CM_EV_RECV_REJ_STALE] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_RECV_DREQ] = S(DREQ_RCVD, DREQ_RCVD),
		[CM_EV_REP_TIMEOUT] = S(REP_TIMEOUT, IDLE),
		[CM_EV_SEND_REJ] = S(SEND_REJ, TIMEWAIT),
		[CM_EV_DESTROY] = S(DESTROY_REJ, DESTROYING),
	},
	[OIB_CM_MRA_REP_RCVD] = {
		[CM_EV_RECV_RTU] = S(ESTABLISH, ESTABLISHED),
		[CM_EV_COMM_EST] = S(ESTABLISH, ESTABLISHED),
		[CM_EV_FIRST_RECV] = S(ESTABLISH, ESTABLISHED),
		[CM_EV_NOTIFY] = S(ESTABLISH, ESTABLISHED),
		[CM_EV_RECV_MRA_REP] = S(DROP_DUP, MRA_REP_RCVD),
		[CM_EV_RECV_REQ] = S(RESEND_REP, MRA_REP_RCVD),
		[CM_EV_RECV_REQ_STALE] = S(SEND_REJ_STALE, MRA_REP_RCVD),
		[CM_EV_RECV_REJ] = S(REJ_RCVD, IDLE),
		[CM_EV_RECV_REJ_STALE] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_RECV_DREQ] = S(DREQ_RCVD, DREQ_RCVD),
		[CM_EV_REP_TIMEOUT] = S(REP_TIMEOUT, IDLE),
		[CM_EV_SEND_REJ] = S(SEND_REJ, TIMEWAIT),
		[CM_EV_DESTROY] = S(DESTROY_REJ, DESTROYING),
	},
	/* Active side, REP in: established when the consumer sends the RTU. */
	[OIB_CM_REP_RCVD] = {
		[CM_EV_SEND_RTU] = S(SEND_RTU, ESTABLISHED),
		[CM_EV_SEND_MRA] = S(SEND_MRA_REP, MRA_REP_SENT),
		[CM_EV_SEND_REJ] = S(SEND_REJ, IDLE),
		[CM_EV_RECV_REP] = S(DROP_DUP, REP_RCVD),
		[CM_EV_RECV_MRA_REQ] = S(DROP_DUP, REP_RCVD),
		[CM_EV_RECV_REQ_STALE] = S(SEND_REJ_STALE, REP_RCVD),
		[CM_EV_RECV_REJ] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_RECV_REJ_STALE] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_COMM_EST] = S(IGNORE, REP_RCVD),
		[CM_EV_FIRST_RECV] = S(IGNORE, REP_RCVD),
		[CM_EV_DESTROY] = S(DESTROY_REJ, DESTROYING),
	},
	[OIB_CM_MRA_REP_SENT] = {
		[CM_EV_SEND_RTU] = S(SEND_RTU, ESTABLISHED),
		[CM_EV_SEND_REJ] = S(SEND_REJ, IDLE),
		[CM_EV_RECV_REP] = S(RESEND_MRA, MRA_REP_SENT),
		[CM_EV_RECV_MRA_REQ] = S(DROP_DUP, MRA_REP_SENT),
		[CM_EV_RECV_REQ_STALE] = S(SEND_REJ_STALE, MRA_REP_SENT),
		[CM_EV_RECV_REJ] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_RECV_REJ_STALE] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_COMM_EST] = S(IGNORE, MRA_REP_SENT),
		[CM_EV_FIRST_RECV] = S(IGNORE, MRA_REP_SENT),
		[CM_EV_DESTROY] = S(DESTROY_REJ, DESTROYING),
	},
	[OIB_CM_ESTABLISHED] = {
		[CM_EV_RECV_RTU] = S(IGNORE, ESTABLISHED),	/* the race was won already */
		[CM_EV_COMM_EST] = S(IGNORE, ESTABLISHED),
		[CM_EV_FIRST_RECV] = S(IGNORE, ESTABLISHED),
		[CM_EV_NOTIFY] = S(IGNORE, ESTABLISHED),
		[CM_EV_SEND_DREQ] = S(SEND_DREQ, DREQ_SENT),
		[CM_EV_RECV_DREQ] = S(DREQ_RCVD, DREQ_RCVD),
		[CM_EV_RECV_REP] = S(RESEND_RTU, ESTABLISHED),
		[CM_EV_RECV_REQ] = S(DROP_DUP, ESTABLISHED),
		[CM_EV_RECV_MRA_REQ] = S(DROP_DUP, ESTABLISHED),
		[CM_EV_RECV_MRA_REP] = S(DROP_DUP, ESTABLISHED),
		[CM_EV_RECV_REQ_STALE] = S(STALE_DREQ, DREQ_SENT),
		[CM_EV_RECV_REJ] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_RECV_REJ_STALE] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_RECV_LAP] = S(SEND_APR_UNSUPPORTED, ESTABLISHED),
		[CM_EV_DESTROY] = S(DESTROY_DREQ, DESTROYING),
	},
	/* Release. */
	[OIB_CM_DREQ_SENT] = {
		[CM_EV_RECV_RTU] = S(IGNORE, DREQ_SENT),
		[CM_EV_COMM_EST] = S(IGNORE, DREQ_SENT),
		[CM_EV_FIRST_RECV] = S(IGNORE, DREQ_SENT),
		[CM_EV_NOTIFY] = S(IGNORE, DREQ_SENT),
		[CM_EV_RECV_DREP] = S(DREP_RCVD, TIMEWAIT),
		[CM_EV_RECV_DREQ] = S(DREQ_CROSSED, TIMEWAIT),
		[CM_EV_DREQ_TIMEOUT] = S(DREQ_TIMEOUT, TIMEWAIT),
		[CM_EV_RECV_REJ] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_RECV_REJ_STALE] = S(REJ_RCVD, TIMEWAIT),
		[CM_EV_RECV_REP] = S(DROP_DUP, DREQ_SENT),
		[CM_EV_RECV_REQ] = S(DROP_DUP, DREQ_SENT),
		[CM_EV_RECV_REQ_STALE] = S(SEND_REJ_STALE, DREQ_SENT),
		[CM_EV_DESTROY] = S(DESTROY, DESTROYING),
	},
	[OIB_CM_DREQ_RCVD] = {
		[CM_EV_RECV_RTU] = S(IGNORE, DREQ_RCVD),
		[CM_EV_COMM_EST] = S(IGNORE, DREQ_RCVD),
		[CM_EV_FIRST_RECV] = S(IGNORE, DREQ_RCVD),
		[CM_EV_NOTIFY] = S(IGNORE, DREQ_RCVD),
		[CM_EV_SEND_DREP] = S(SEND_DREP, TIMEWAIT),
		[CM_EV_RECV_DREQ] = S(DROP_DUP, DREQ_RCVD),
		[CM_EV_RECV_REP] = S(DROP_DUP, DREQ_RCVD),
		[CM_EV_RECV_REQ] = S(DROP_DUP, DREQ_RCVD),
		[CM_EV_RECV_REQ_STALE] = S(SEND_REJ_STALE, DREQ_RCVD),
		[CM_EV_DESTROY] = S(DESTROY_DREP, DESTROYING),
	},
	[OIB_CM_TIMEWAIT] = {
		[CM_EV_RECV_RTU] = S(IGNORE, TIMEWAIT),
		[CM_EV_COMM_EST] = S(IGNORE, TIMEWAIT),
		[CM_EV_FIRST_RECV] = S(IGNORE, TIMEWAIT),
		[CM_EV_NOTIFY] = S(IGNORE, TIMEWAIT),
		[CM_EV_TIMEWAIT_EXPIRED] = S(TIMEWAIT_EXIT, IDLE),
		[CM_EV_RECV_DREQ] = S(RESEND_DREP, TIMEWAIT),
		[CM_EV_RECV_DREP] = S(IGNORE, TIMEWAIT),
		[CM_EV_RECV_REJ] = S(IGNORE, TIMEWAIT),
		[CM_EV_RECV_REJ_STALE] = S(IGNORE, TIMEWAIT),
		[CM_EV_RECV_REP] = S(DROP_DUP, TIMEWAIT),
		[CM_EV_RECV_REQ] = S(SEND_REJ_STALE, TIMEWAIT),
		[CM_EV_RECV_REQ_STALE] = S(SEND_REJ_STALE, TIMEWAIT),
		[CM_EV_DESTROY] = S(DESTROY, DESTROYING),
	},
	/* Service ID resolution (UD). */
	[OIB_CM_SIDR_REQ_SENT] = {
		[CM_EV_RECV_SIDR_REP] = S(SIDR_REP_RCVD, IDLE),
		[CM_EV_SIDR_REQ_TIMEOUT] = S(SIDR_REQ_TIMEOUT, IDLE),
		[CM_EV_DESTROY] = S(DESTROY, DESTROYING),
	},
	[OIB_CM_SIDR_REQ_RCVD] = {
		[CM_EV_SEND_SIDR_REP] = S(SEND_SIDR_REP, IDLE),
		[CM_EV_RECV_SIDR_REQ] = S(DROP_DUP, SIDR_REQ_RCVD),
		[CM_EV_DESTROY] = S(DESTROY_SIDR_REJ, DESTROYING),
	},
	/* DESTROYING: nothing happens to a cm_id being destroyed. */
};

#undef S

struct cm_step oib_cm_fsm_step(enum oib_cm_state state, enum cm_event event)
{
	struct cm_step step = { .action = CM_ACT_PROTOCOL_ERROR, .next = state };

	if ((unsigned int)state < OIB_CM_NSTATES && (unsigned int)event < CM_NEVENTS &&
	    cm_table[state][event].action != CM_ACT_PROTOCOL_ERROR)
		step = cm_table[state][event];
	return step;
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_fsm_step);

enum cm_event oib_cm_fsm_cross_event(u64 local_guid, u32 local_qpn, u64 remote_guid,
				     u32 remote_qpn)
{
	bool active = local_guid > remote_guid ||
		      (local_guid == remote_guid && local_qpn > remote_qpn);

	return active ? CM_EV_RECV_REQ_CROSS_ACTIVE : CM_EV_RECV_REQ_CROSS_PASSIVE;
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_fsm_cross_event);

enum cm_event oib_cm_fsm_rej_event(u16 reason)
{
	return reason == OIB_CM_REJ_STALE_CONN ? CM_EV_RECV_REJ_STALE : CM_EV_RECV_REJ;
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_fsm_rej_event);

/* ---- Names ---- */

static const char * const cm_state_names[OIB_CM_NSTATES] = {
	[OIB_CM_IDLE] = "idle", [OIB_CM_LISTEN] = "listen", [OIB_CM_REQ_SENT] = "req_sent",
	[OIB_CM_REQ_RCVD] = "req_rcvd", [OIB_CM_MRA_REQ_SENT] = "mra_req_sent",
	[OIB_CM_MRA_REQ_RCVD] = "mra_req_rcvd", [OIB_CM_REP_SENT] = "rep_sent",
	[OIB_CM_REP_RCVD] = "rep_rcvd", [OIB_CM_MRA_REP_SENT] = "mra_rep_sent",
	[OIB_CM_MRA_REP_RCVD] = "mra_rep_rcvd", [OIB_CM_ESTABLISHED] = "established",
	[OIB_CM_DREQ_SENT] = "dreq_sent", [OIB_CM_DREQ_RCVD] = "dreq_rcvd",
	[OIB_CM_TIMEWAIT] = "timewait", [OIB_CM_SIDR_REQ_SENT] = "sidr_req_sent",
	[OIB_CM_SIDR_REQ_RCVD] = "sidr_req_rcvd", [OIB_CM_DESTROYING] = "destroying",
};

static const char * const cm_event_names[CM_NEVENTS] = {
	[CM_EV_LISTEN] = "listen", [CM_EV_SEND_REQ] = "send_req", [CM_EV_SEND_MRA] = "send_mra",
	[CM_EV_SEND_REP] = "send_rep", [CM_EV_SEND_RTU] = "send_rtu",
	[CM_EV_SEND_REJ] = "send_rej", [CM_EV_SEND_DREQ] = "send_dreq",
	[CM_EV_SEND_DREP] = "send_drep", [CM_EV_SEND_SIDR_REQ] = "send_sidr_req",
	[CM_EV_SEND_SIDR_REP] = "send_sidr_rep", [CM_EV_DESTROY] = "destroy",
	[CM_EV_RECV_REQ] = "recv_req", [CM_EV_RECV_REQ_STALE] = "recv_req_stale",
	[CM_EV_RECV_REQ_CROSS_ACTIVE] = "recv_req_cross_active",
	[CM_EV_RECV_REQ_CROSS_PASSIVE] = "recv_req_cross_passive",
	[CM_EV_RECV_MRA_REQ] = "recv_mra_req", [CM_EV_RECV_MRA_REP] = "recv_mra_rep",
	[CM_EV_RECV_MRA_OTHER] = "recv_mra_other", [CM_EV_RECV_REJ] = "recv_rej",
	[CM_EV_RECV_REJ_STALE] = "recv_rej_stale", [CM_EV_RECV_REP] = "recv_rep",
	[CM_EV_RECV_RTU] = "recv_rtu", [CM_EV_RECV_DREQ] = "recv_dreq",
	[CM_EV_RECV_DREP] = "recv_drep", [CM_EV_RECV_SIDR_REQ] = "recv_sidr_req",
	[CM_EV_RECV_SIDR_REP] = "recv_sidr_rep", [CM_EV_RECV_LAP] = "recv_lap",
	[CM_EV_RECV_APR] = "recv_apr", [CM_EV_REQ_TIMEOUT] = "req_timeout",
	[CM_EV_REP_TIMEOUT] = "rep_timeout", [CM_EV_DREQ_TIMEOUT] = "dreq_timeout",
	[CM_EV_SIDR_REQ_TIMEOUT] = "sidr_req_timeout",
	[CM_EV_TIMEWAIT_EXPIRED] = "timewait_expired", [CM_EV_COMM_EST] = "comm_est",
	[CM_EV_FIRST_RECV] = "first_recv", [CM_EV_NOTIFY] = "notify",
};

static const char * const cm_action_names[CM_NACTIONS] = {
	[CM_ACT_PROTOCOL_ERROR] = "protocol_error", [CM_ACT_NONE] = "none",
	[CM_ACT_IGNORE] = "ignore", [CM_ACT_DROP_DUP] = "drop_dup", [CM_ACT_SPAWN] = "spawn",
	[CM_ACT_SEND_REQ] = "send_req", [CM_ACT_DELIVER_REQ] = "deliver_req",
	[CM_ACT_CROSS_PASSIVE] = "cross_passive", [CM_ACT_SEND_MRA_REQ] = "send_mra_req",
	[CM_ACT_SEND_MRA_REP] = "send_mra_rep", [CM_ACT_RESEND_MRA] = "resend_mra",
	[CM_ACT_MRA_RCVD] = "mra_rcvd", [CM_ACT_SEND_REP] = "send_rep",
	[CM_ACT_RESEND_REP] = "resend_rep", [CM_ACT_DELIVER_REP] = "deliver_rep",
	[CM_ACT_SEND_RTU] = "send_rtu", [CM_ACT_RESEND_RTU] = "resend_rtu",
	[CM_ACT_ESTABLISH] = "establish", [CM_ACT_SEND_REJ] = "send_rej",
	[CM_ACT_REJ_RCVD] = "rej_rcvd", [CM_ACT_SEND_REJ_STALE] = "send_rej_stale",
	[CM_ACT_STALE_DREQ] = "stale_dreq", [CM_ACT_SEND_DREQ] = "send_dreq",
	[CM_ACT_DREQ_RCVD] = "dreq_rcvd", [CM_ACT_DREQ_CROSSED] = "dreq_crossed",
	[CM_ACT_SEND_DREP] = "send_drep", [CM_ACT_RESEND_DREP] = "resend_drep",
	[CM_ACT_DREP_RCVD] = "drep_rcvd", [CM_ACT_REQ_TIMEOUT] = "req_timeout",
	[CM_ACT_REP_TIMEOUT] = "rep_timeout", [CM_ACT_DREQ_TIMEOUT] = "dreq_timeout",
	[CM_ACT_SEND_SIDR_REQ] = "send_sidr_req", [CM_ACT_DELIVER_SIDR_REQ] = "deliver_sidr_req",
	[CM_ACT_SEND_SIDR_REP] = "send_sidr_rep", [CM_ACT_SIDR_REP_RCVD] = "sidr_rep_rcvd",
	[CM_ACT_SIDR_REQ_TIMEOUT] = "sidr_req_timeout",
	[CM_ACT_SEND_APR_UNSUPPORTED] = "send_apr_unsupported",
	[CM_ACT_TIMEWAIT_EXIT] = "timewait_exit", [CM_ACT_DESTROY] = "destroy",
	[CM_ACT_DESTROY_REJ_TIMEOUT] = "destroy_rej_timeout",
	[CM_ACT_DESTROY_REJ] = "destroy_rej", [CM_ACT_DESTROY_DREQ] = "destroy_dreq",
	[CM_ACT_DESTROY_DREP] = "destroy_drep", [CM_ACT_DESTROY_SIDR_REJ] = "destroy_sidr_rej",
};

const char *oib_cm_state_name(enum oib_cm_state state)
{
	return oib_enum_name(cm_state_names, state);
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_state_name);

const char *oib_cm_event_name(enum cm_event event)
{
	return oib_enum_name(cm_event_names, event);
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_event_name);

const char *oib_cm_action_name(enum cm_action action)
{
	return oib_enum_name(cm_action_names, action);
}
EXPORT_SYMBOL_IF_KUNIT(oib_cm_action_name);
