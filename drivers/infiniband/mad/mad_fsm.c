// SPDX-License-Identifier: GPL-2.0-only
/*
 * The send MAD state machine, as data: for each (state, event) the next state, or nothing if the
 * event cannot happen in that state.  mad_fsm() is the only place a send MAD's state changes; it
 * also moves the MAD's references (one per posted work request, one while a response or an RMPP
 * ACK is awaited) and checks that they are gone exactly when the MAD is done.
 * Documentation/mad.md draws it.
 */
#include <linux/bug.h>
#include <oib/names.h>
#include "mad_priv.h"
#include "mad_trace.h"

#define X MAD_NSTATES	/* the event cannot happen in this state */

/* Columns: the events, in enum mad_event order. */
static const u8 mad_next[MAD_NSTATES][MAD_NEVENTS] = {
	/* POST, WR_POSTED, SENT_WAIT, SENT_DONE, SEND_ERR, RESP, RETRY, TIMEOUT, CANCEL,
	 * SENT_MORE, SENT_ACK, ACK, ACK_MORE, ACKED_WAIT, ACKED_DONE
	 */
	[MAD_IDLE] = { MAD_QUEUED, X, X, X, X, X, X, X, X,
		       X, X, X, X, X, X },
	[MAD_QUEUED] = { X, MAD_POSTED, X, X, X, MAD_DONE, X, X, MAD_DONE,
			 X, X, MAD_QUEUED, MAD_QUEUED, MAD_WAIT_RESP, MAD_DONE },
	[MAD_POSTED] = { X, X, MAD_WAIT_RESP, MAD_DONE, MAD_DONE, MAD_RESP_EARLY, X, X,
			 MAD_CANCELLED,
			 MAD_QUEUED, MAD_WAIT_ACK, MAD_POSTED, MAD_POSTED, MAD_POSTED, MAD_POSTED },
	[MAD_WAIT_ACK] = { X, X, X, X, X, MAD_DONE, MAD_QUEUED, MAD_DONE, MAD_DONE,
			   X, X, MAD_WAIT_ACK, MAD_QUEUED, MAD_WAIT_RESP, MAD_DONE },
	[MAD_WAIT_RESP] = { X, X, X, X, X, MAD_DONE, MAD_QUEUED, MAD_DONE, MAD_DONE,
			    X, X, X, X, X, X },
	[MAD_RESP_EARLY] = { X, X, MAD_DONE, MAD_DONE, MAD_DONE, X, X, X, MAD_CANCELLED,
			     X, X, X, X, X, X },
	[MAD_CANCELLED] = { X, X, MAD_DONE, MAD_DONE, MAD_DONE, X, X, X, X,
			    X, X, X, X, X, X },
	[MAD_DONE] = { X, X, X, X, X, X, X, X, X,
		       X, X, X, X, X, X },
};

#undef X

static const char * const mad_state_names[MAD_NSTATES] = {
	[MAD_IDLE] = "idle", [MAD_QUEUED] = "queued", [MAD_POSTED] = "posted",
	[MAD_WAIT_ACK] = "wait_ack", [MAD_WAIT_RESP] = "wait_resp", [MAD_RESP_EARLY] = "resp_early",
	[MAD_CANCELLED] = "cancelled", [MAD_DONE] = "done",
};

static const char * const mad_event_names[MAD_NEVENTS] = {
	[MAD_EV_POST] = "post", [MAD_EV_WR_POSTED] = "wr_posted", [MAD_EV_SENT_WAIT] = "sent_wait",
	[MAD_EV_SENT_DONE] = "sent_done", [MAD_EV_SEND_ERR] = "send_err", [MAD_EV_RESP] = "resp",
	[MAD_EV_RETRY] = "retry", [MAD_EV_TIMEOUT] = "timeout", [MAD_EV_CANCEL] = "cancel",
	[MAD_EV_SENT_MORE] = "sent_more", [MAD_EV_SENT_ACK] = "sent_ack", [MAD_EV_ACK] = "ack",
	[MAD_EV_ACK_MORE] = "ack_more", [MAD_EV_ACKED_WAIT] = "acked_wait",
	[MAD_EV_ACKED_DONE] = "acked_done",
};

const char *mad_state_name(enum mad_state state)
{
	return oib_enum_name(mad_state_names, state);
}

const char *mad_event_name(enum mad_event event)
{
	return oib_enum_name(mad_event_names, event);
}

/*
 * Does the MAD wait for its peer in @state: for a response, or (RMPP) for the ACKs of its
 * segments?  Only these states hold that reference.
 */
static bool mad_state_awaits(const struct mad_send *ms, enum mad_state state)
{
	return (ms->timeout_ms || ms->rmpp) &&
	       (state == MAD_QUEUED || state == MAD_POSTED || state == MAD_WAIT_ACK ||
		state == MAD_WAIT_RESP);
}

/* Does @event end a work request (its completion)? */
static bool mad_event_wr_done(enum mad_event event)
{
	return event == MAD_EV_SENT_WAIT || event == MAD_EV_SENT_DONE ||
	       event == MAD_EV_SEND_ERR || event == MAD_EV_SENT_MORE || event == MAD_EV_SENT_ACK;
}

/* References held in @state: the work request's and the response's. */
static unsigned int mad_state_refs(const struct mad_send *ms, enum mad_state state)
{
	bool wr = state == MAD_POSTED || state == MAD_RESP_EARLY || state == MAD_CANCELLED;

	return (wr ? ms->wr_count : 0) + mad_state_awaits(ms, state);
}

/*
 * Apply @event.  The caller holds the port lock and has checked (by the table's rules, which it
 * knows) that the event applies; an impossible event is a bug, warned about once and ignored.
 */
void mad_fsm(struct mad_send *ms, enum mad_event event)
{
	enum mad_state from = ms->state, to;

	lockdep_assert_held(&ms->agent->port->lock);
	to = mad_next[from][event];
	if (WARN_ONCE(to >= MAD_NSTATES, "oib_mad: event %s in state %s",
		      mad_event_name(event), mad_state_name(from)))
		return;

	/* The seed's references: taken and dropped by the events that start and end them. */
	if (event == MAD_EV_WR_POSTED)
		ms->refs += ms->wr_count;
	if (mad_event_wr_done(event))
		ms->refs -= ms->wr_count;
	if (event == MAD_EV_POST && mad_state_awaits(ms, to))
		ms->refs++;
	if (mad_state_awaits(ms, from) && !mad_state_awaits(ms, to))
		ms->refs--;

	WRITE_ONCE(ms->state, to);	/* oib_free_send_mad() peeks */
	WARN_ONCE(ms->refs != mad_state_refs(ms, to),
		  "oib_mad: %u references in state %s after %s", ms->refs, mad_state_name(to),
		  mad_event_name(event));
	trace_oib_mad_state(ms, from, to, event);
}
