/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The state machine of an RDMA CM id, as data: for each (state, event) the next state and the
 * event its owner hears (or none).  A pair the table does not have is refused: a call gets
 * -EINVAL, a CM event is dropped (counted).  Documentation/cma.md draws it.
 */
#ifndef OIB_CMA_FSM_H
#define OIB_CMA_FSM_H

#include <linux/types.h>
#include <oib/rdma_cm.h>

enum cma_state {
	CMA_IDLE,
	CMA_ADDR_BOUND,		/* bound to an address (and port), no destination */
	CMA_ADDR_QUERY,
	CMA_ADDR_RESOLVED,
	CMA_ROUTE_QUERY,
	CMA_ROUTE_RESOLVED,
	CMA_LISTEN,
	CMA_CONNECT,		/* active: REQ (SIDR_REQ) sent */
	CMA_REP_RCVD,		/* active, OIB_CMA_CONFIRM_REP: CONNECT_RESPONSE delivered */
	CMA_REQ_RCVD,		/* passive: CONNECT_REQUEST delivered, not answered */
	CMA_ACCEPTED,		/* passive: REP sent, not established yet */
	CMA_ESTABLISHED,
	CMA_DISCONNECT,		/* DREQ sent, or the peer's answered: DISCONNECTED to come */
	CMA_DREQ_RCVD,		/* the peer's DREQ: DISCONNECTED delivered, our DREP to send */
	CMA_DISCONNECTED,	/* over; TIMEWAIT_EXIT to come for connected ids */
	CMA_DEVICE_REMOVAL,	/* the device went: only destroy is left */
	CMA_DESTROYING,
	CMA_NSTATES
};

enum cma_event {
	/* Calls of the owner. */
	CMA_EV_BIND,
	CMA_EV_RESOLVE_ADDR,
	CMA_EV_RESOLVE_ROUTE,
	CMA_EV_LISTEN,
	CMA_EV_CONNECT,
	CMA_EV_ACCEPT,
	CMA_EV_REJECT,
	CMA_EV_DISCONNECT,
	CMA_EV_DESTROY,
	/* Resolution, done by the CMA's work. */
	CMA_EV_ADDR_OK,
	CMA_EV_ADDR_ERR,
	CMA_EV_ROUTE_OK,
	CMA_EV_ROUTE_ERR,
	/* From oib_cm. */
	CMA_EV_CM_REQ,		/* a listener's REQ or SIDR_REQ, to the new id */
	CMA_EV_CM_REP,		/* the REP; the RTU goes at once */
	CMA_EV_CM_REP_CONFIRM,	/* the REP, for an owner who confirms it */
	CMA_EV_CM_SIDR_OK,	/* a SIDR_REP with a QP */
	CMA_EV_CM_ESTABLISHED,
	CMA_EV_CM_REJ,		/* REJ, or a SIDR_REP refusing */
	CMA_EV_CM_REQ_ERR,	/* no answer to the REQ or SIDR_REQ */
	CMA_EV_CM_REP_ERR,	/* no RTU to our REP */
	CMA_EV_CM_DREQ,
	CMA_EV_CM_DREQ_DONE,	/* DREP, or no DREP after the retries */
	CMA_EV_CM_TIMEWAIT_EXIT,
	/* The device. */
	CMA_EV_DEVICE_REMOVAL,
	CMA_EV_ADDR_CHANGE,
	CMA_NEVENTS
};

/* What the owner hears: an oib_cma_event_type, or none. */
#define CMA_NO_EVENT	OIB_CMA_NEVENTS

struct cma_step {
	u8 valid;
	u8 next;	/* enum cma_state */
	u8 deliver;	/* enum oib_cma_event_type, or CMA_NO_EVENT */
};

/* The step for @event in @state; .valid is 0 for a pair the table refuses. */
struct cma_step cma_fsm_step(enum cma_state state, enum cma_event event);
const char *cma_state_name(enum cma_state state);
const char *cma_event_name(enum cma_event event);

#endif /* OIB_CMA_FSM_H */
