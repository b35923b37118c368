/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The state machine of an oib_iwcm id, as data: for each (state, event) the next state and the
 * event its owner hears (or none).  A pair the table does not have is refused: a call gets
 * -EINVAL, a provider event is dropped (counted).  Documentation/iwcm.md draws it.
 */
#ifndef OIB_IWCM_FSM_H
#define OIB_IWCM_FSM_H

#include <linux/types.h>
#include <oib/iw_cm.h>

enum iwcm_state {
	IWCM_IDLE,		/* new, or the connection is over */
	IWCM_LISTEN,
	IWCM_CONN_SENT,		/* active: the provider connects */
	IWCM_CONN_RECV,		/* passive: CONNECT_REQUEST delivered; accepted or not */
	IWCM_ESTABLISHED,
	IWCM_CLOSING,		/* one side closed: CLOSE to come */
	IWCM_DESTROYING,
	IWCM_NSTATES
};

enum iwcm_event {
	/* Calls of the owner. */
	IWCM_EV_LISTEN,
	IWCM_EV_CONNECT,
	IWCM_EV_ACCEPT,
	IWCM_EV_REJECT,
	IWCM_EV_DISCONNECT,
	IWCM_EV_DESTROY,
	/* From the provider. */
	IWCM_EV_CONNECT_REQUEST,	/* to the new id a listener's request made */
	IWCM_EV_CONNECT_REPLY_OK,
	IWCM_EV_CONNECT_REPLY_ERR,
	IWCM_EV_ESTABLISHED,
	IWCM_EV_DISCONNECT_IN,		/* the peer closed its side */
	IWCM_EV_CLOSE,
	IWCM_NEVENTS
};

/* What the owner hears: an oib_iw_cm_event_type, or none. */
#define IWCM_NO_EVENT	OIB_IW_CM_NEVENTS

struct iwcm_step {
	u8 valid;
	u8 next;	/* enum iwcm_state */
	u8 deliver;	/* enum oib_iw_cm_event_type, or IWCM_NO_EVENT */
};

/* The step for @event in @state; .valid is 0 for a pair the table refuses. */
struct iwcm_step iwcm_fsm_step(enum iwcm_state state, enum iwcm_event event);
const char *iwcm_state_name(enum iwcm_state state);
const char *iwcm_event_name(enum iwcm_event event);

#endif /* OIB_IWCM_FSM_H */
