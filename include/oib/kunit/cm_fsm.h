/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The connection state machine of a cm_id (IBTA vol. 1, 12.9), as data: for each (state, event)
 * one step, an action and the next state.  A pair the table does not have is a protocol error:
 * the caller counts it and changes nothing.  The caller (the MAD glue, later) classifies what
 * happened into an event, looks the step up, and carries the action out; entering TIMEWAIT
 * always starts the timewait timer, leaving a state always stops its timer.
 */
#ifndef OIB_CM_FSM_H
#define OIB_CM_FSM_H

#include <linux/types.h>
#include <oib/cm.h>

enum cm_event {
	/* Calls of the local consumer. */
	CM_EV_LISTEN,
	CM_EV_SEND_REQ,
	CM_EV_SEND_MRA,			/* for the REQ or the REP this side received */
	CM_EV_SEND_REP,
	CM_EV_SEND_RTU,
	CM_EV_SEND_REJ,
	CM_EV_SEND_DREQ,
	CM_EV_SEND_DREP,
	CM_EV_SEND_SIDR_REQ,
	CM_EV_SEND_SIDR_REP,
	CM_EV_DESTROY,
	/* Messages received for this cm_id. */
	CM_EV_RECV_REQ,			/* new (IDLE, LISTEN) or a duplicate of the one taken */
	CM_EV_RECV_REQ_STALE,		/* another REQ for the connection of this cm_id */
	CM_EV_RECV_REQ_CROSS_ACTIVE,	/* the peer's REQ crossed ours; we stay active */
	CM_EV_RECV_REQ_CROSS_PASSIVE,	/* the peer's REQ crossed ours; we become passive */
	CM_EV_RECV_MRA_REQ,		/* MessageMRAed: REQ */
	CM_EV_RECV_MRA_REP,		/* MessageMRAed: REP */
	CM_EV_RECV_MRA_OTHER,		/* MessageMRAed: LAP, which we never send */
	CM_EV_RECV_REJ,
	CM_EV_RECV_REJ_STALE,		/* a REJ with reason "stale connection" */
	CM_EV_RECV_REP,			/* the REP, or a duplicate of it */
	CM_EV_RECV_RTU,
	CM_EV_RECV_DREQ,
	CM_EV_RECV_DREP,
	CM_EV_RECV_SIDR_REQ,
	CM_EV_RECV_SIDR_REP,
	CM_EV_RECV_LAP,
	CM_EV_RECV_APR,
	/* Timers: the message's retries are exhausted, or timewait is over. */
	CM_EV_REQ_TIMEOUT,
	CM_EV_REP_TIMEOUT,
	CM_EV_DREQ_TIMEOUT,
	CM_EV_SIDR_REQ_TIMEOUT,
	CM_EV_TIMEWAIT_EXPIRED,
	/* The ways a passive side learns its peer is up, whichever comes first. */
	CM_EV_COMM_EST,			/* the QP's communication-established event */
	CM_EV_FIRST_RECV,		/* the first receive completion polled on the QP in RTR */
	CM_EV_NOTIFY,			/* the consumer's notify call */
	CM_NEVENTS
};

enum cm_action {
	CM_ACT_PROTOCOL_ERROR,		/* not in the table: count it, change nothing */
	CM_ACT_NONE,			/* the state changes, nothing else happens */
	CM_ACT_IGNORE,			/* late and harmless: dropped quietly */
	CM_ACT_DROP_DUP,		/* a duplicate with nothing to answer: counted, dropped */
	CM_ACT_SPAWN,			/* a listener's: new cm_id, given the same event in IDLE */
	CM_ACT_SEND_REQ,		/* send the REQ, wait for REP */
	CM_ACT_DELIVER_REQ,		/* take the REQ, deliver REQ_RECEIVED */
	CM_ACT_CROSS_PASSIVE,		/* stop our REQ's wait, take the peer's, deliver it */
	CM_ACT_SEND_MRA_REQ,		/* send MRA for the REQ, keep it for resending */
	CM_ACT_SEND_MRA_REP,		/* send MRA for the REP, keep it for resending */
	CM_ACT_RESEND_MRA,		/* a duplicate REQ or REP: send the kept MRA again */
	CM_ACT_MRA_RCVD,		/* extend the wait by the service timeout, deliver MRA */
	CM_ACT_SEND_REP,		/* QP to RTR, send the REP, wait for RTU */
	CM_ACT_RESEND_REP,		/* a duplicate REQ after our REP: send it again */
	CM_ACT_DELIVER_REP,		/* stop the REQ's wait, deliver REP_RECEIVED */
	CM_ACT_SEND_RTU,		/* send the RTU, keep it for resending: established */
	CM_ACT_RESEND_RTU,		/* a duplicate REP: the RTU was lost, send it again */
	CM_ACT_ESTABLISH,		/* stop the REP's wait, QP to RTS, deliver ESTABLISHED */
	CM_ACT_SEND_REJ,		/* stop any wait, send the consumer's REJ */
	CM_ACT_REJ_RCVD,		/* stop any wait, deliver REJ_RECEIVED */
	CM_ACT_SEND_REJ_STALE,		/* answer the REQ with REJ "stale connection" */
	CM_ACT_STALE_DREQ,		/* ... and send a DREQ for this connection */
	CM_ACT_SEND_DREQ,		/* send the DREQ, wait for DREP */
	CM_ACT_DREQ_RCVD,		/* stop any wait, deliver DREQ_RECEIVED */
	CM_ACT_DREQ_CROSSED,		/* stop our DREQ's wait, send DREP, deliver DREQ */
	CM_ACT_SEND_DREP,		/* send the DREP, keep it for resending */
	CM_ACT_RESEND_DREP,		/* a duplicate DREQ in timewait: send the DREP again */
	CM_ACT_DREP_RCVD,		/* stop the DREQ's wait, deliver DREP_RECEIVED */
	CM_ACT_REQ_TIMEOUT,		/* deliver REQ_ERROR */
	CM_ACT_REP_TIMEOUT,		/* deliver REP_ERROR */
	CM_ACT_DREQ_TIMEOUT,		/* deliver DREQ_ERROR */
	CM_ACT_SEND_SIDR_REQ,		/* send the SIDR_REQ, wait for SIDR_REP */
	CM_ACT_DELIVER_SIDR_REQ,	/* deliver SIDR_REQ_RECEIVED */
	CM_ACT_SEND_SIDR_REP,		/* send the consumer's SIDR_REP */
	CM_ACT_SIDR_REP_RCVD,		/* stop the wait, deliver SIDR_REP_RECEIVED */
	CM_ACT_SIDR_REQ_TIMEOUT,	/* deliver SIDR_REQ_ERROR */
	CM_ACT_SEND_APR_UNSUPPORTED,	/* answer a LAP: alternate paths are not supported */
	CM_ACT_TIMEWAIT_EXIT,		/* deliver TIMEWAIT_EXIT, the IDs may be reused */
	CM_ACT_DESTROY,			/* destroy: nothing to tell the peer */
	CM_ACT_DESTROY_REJ_TIMEOUT,	/* destroy: REJ "timeout" for our pending REQ */
	CM_ACT_DESTROY_REJ,		/* destroy: REJ "consumer defined" */
	CM_ACT_DESTROY_DREQ,		/* destroy: DREQ, the connection goes to timewait */
	CM_ACT_DESTROY_DREP,		/* destroy: DREP for the DREQ received */
	CM_ACT_DESTROY_SIDR_REJ,	/* destroy: SIDR_REP with status REJECT */
	CM_NACTIONS
};

struct cm_step {
	u8 action;			/* enum cm_action */
	u8 next;			/* enum oib_cm_state */
};

/* The step for @event in @state; { CM_ACT_PROTOCOL_ERROR, @state } for a pair not in the table. */
struct cm_step oib_cm_fsm_step(enum oib_cm_state state, enum cm_event event);

/*
 * REQ crossing REQ (peer to peer): the side whose (CA GUID, QPN) is the greater stays active and
 * drops the peer's REQ; the other becomes passive.  Returns the event for the crossing REQ.
 */
enum cm_event oib_cm_fsm_cross_event(u64 local_guid, u32 local_qpn, u64 remote_guid,
				     u32 remote_qpn);

/* The event for a received REJ: "stale connection" is one of its own. */
enum cm_event oib_cm_fsm_rej_event(u16 reason);

const char *oib_cm_state_name(enum oib_cm_state state);
const char *oib_cm_event_name(enum cm_event event);
const char *oib_cm_action_name(enum cm_action action);

#endif /* OIB_CM_FSM_H */
