// SPDX-License-Identifier: GPL-2.0-only
/*
 * The send MAD state machine, as data.  mad_next[state][event] is the state an event leads to,
 * stored plus one, so that every pair not listed is 0: the event cannot happen in that state.
 * Beside it, what each state holds references for (one per work request on the QP, one while the
 * peer is awaited, as the 2004 MAD send-list design counts them) and which events end work
 * requests.  mad_fsm() is the only place a send MAD's state changes; it moves the references with
 * the events and checks them against the new state.  Documentation/mad.md draws the machine; the
 * oib_mad_fsm KUnit suite checks the table against that drawing.
 */
#include <linux/build_bug.h>
#include <linux/bug.h>
#include <linux/limits.h>
#include <kunit/visibility.h>
#include <oib/names.h>
#include "mad_priv.h"
#include "mad_trace.h"

#define TO(state)	((state) + 1)
static_assert(MAD_NSTATES < U8_MAX);

static const u8 mad_next[MAD_NSTATES][MAD_NEVENTS] = {
	[MAD_IDLE] = {
		[MAD_EV_POST]		= TO(MAD_QUEUED),
	},
	[MAD_QUEUED] = {
		[MAD_EV_WR_POSTED]	= TO(MAD_POSTED),
		[MAD_EV_RESP]		= TO(MAD_DONE),		/* to an earlier try */
		[MAD_EV_CANCEL]		= TO(MAD_DONE),
		[MAD_EV_ACK]		= TO(MAD_QUEUED),
		[MAD_EV_ACK_MORE]	= TO(MAD_QUEUED),
		[MAD_EV_ACKED_WAIT]	= TO(MAD_WAIT_RESP),
		[MAD_EV_ACKED_DONE]	= TO(MAD_DONE),
	},
	[MAD_POSTED] = {
		[MAD_EV_SENT_WAIT]	= TO(MAD_WAIT_RESP),
		[MAD_EV_SENT_DONE]	= TO(MAD_DONE),
		[MAD_EV_SEND_ERR]	= TO(MAD_DONE),
		[MAD_EV_RESP]		= TO(MAD_RESP_EARLY),
		[MAD_EV_CANCEL]		= TO(MAD_CANCELLED),
		[MAD_EV_SENT_MORE]	= TO(MAD_QUEUED),
		[MAD_EV_SENT_ACK]	= TO(MAD_WAIT_ACK),
		/* ACKs while a train is on the QP: its completion decides */
		[MAD_EV_ACK]		= TO(MAD_POSTED),
		[MAD_EV_ACK_MORE]	= TO(MAD_POSTED),
		[MAD_EV_ACKED_WAIT]	= TO(MAD_POSTED),
		[MAD_EV_ACKED_DONE]	= TO(MAD_POSTED),
	},
	[MAD_WAIT_ACK] = {
		[MAD_EV_RESP]		= TO(MAD_DONE),
		[MAD_EV_RETRY]		= TO(MAD_QUEUED),
		[MAD_EV_TIMEOUT]	= TO(MAD_DONE),
		[MAD_EV_CANCEL]		= TO(MAD_DONE),
		[MAD_EV_ACK]		= TO(MAD_WAIT_ACK),
		[MAD_EV_ACK_MORE]	= TO(MAD_QUEUED),
		[MAD_EV_ACKED_WAIT]	= TO(MAD_WAIT_RESP),
		[MAD_EV_ACKED_DONE]	= TO(MAD_DONE),
	},
	[MAD_WAIT_RESP] = {
		[MAD_EV_RESP]		= TO(MAD_DONE),
		[MAD_EV_RETRY]		= TO(MAD_QUEUED),
		[MAD_EV_TIMEOUT]	= TO(MAD_DONE),
		[MAD_EV_CANCEL]		= TO(MAD_DONE),
	},
	[MAD_RESP_EARLY] = {
		[MAD_EV_SENT_WAIT]	= TO(MAD_DONE),
		[MAD_EV_SENT_DONE]	= TO(MAD_DONE),
		[MAD_EV_SEND_ERR]	= TO(MAD_DONE),
		[MAD_EV_CANCEL]		= TO(MAD_CANCELLED),
	},
	[MAD_CANCELLED] = {
		[MAD_EV_SENT_WAIT]	= TO(MAD_DONE),
		[MAD_EV_SENT_DONE]	= TO(MAD_DONE),
		[MAD_EV_SEND_ERR]	= TO(MAD_DONE),
	},
	/* MAD_DONE: nothing happens to it any more */
};

#undef TO

/* What a MAD holds references for in each state.  Only MADs that wait (timeout or RMPP) wait. */
static const struct {
	bool wrs;	/* one per work request of its on the QP */
	bool wait;	/* one while its peer is awaited: the response, or RMPP ACKs */
} mad_holds[MAD_NSTATES] = {
	[MAD_QUEUED]		= { .wait = true },
	[MAD_POSTED]		= { .wrs = true, .wait = true },
	[MAD_WAIT_ACK]		= { .wait = true },
	[MAD_WAIT_RESP]		= { .wait = true },
	[MAD_RESP_EARLY]	= { .wrs = true },
	[MAD_CANCELLED]		= { .wrs = true },
};

/* The events that end a MAD's work requests (their completion); MAD_EV_WR_POSTED starts them. */
static const bool mad_ends_wrs[MAD_NEVENTS] = {
	[MAD_EV_SENT_WAIT] = true, [MAD_EV_SENT_DONE] = true, [MAD_EV_SEND_ERR] = true,
	[MAD_EV_SENT_MORE] = true, [MAD_EV_SENT_ACK] = true,
};

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

int oib_mad_fsm_next(enum mad_state state, enum mad_event event)
{
	if (state >= MAD_NSTATES || event >= MAD_NEVENTS || !mad_next[state][event])
		return -EINVAL;
	return mad_next[state][event] - 1;
}
EXPORT_SYMBOL_IF_KUNIT(oib_mad_fsm_next);

/* Can @event happen to a MAD in @state?  The guard of every caller that has a choice. */
bool mad_fsm_accepts(enum mad_state state, enum mad_event event)
{
	return oib_mad_fsm_next(state, event) >= 0;
}

/* Does a MAD in @state wait for its peer (a response, or RMPP ACKs), if it waits at all? */
bool mad_fsm_waiting(enum mad_state state)
{
	return state < MAD_NSTATES && mad_holds[state].wait;
}

static unsigned int mad_state_refs(const struct mad_send *ms, enum mad_state state)
{
	bool waits = ms->timeout_ms || ms->rmpp;

	return (mad_holds[state].wrs ? ms->wr_count : 0) + (waits && mad_holds[state].wait);
}

/*
 * Apply @event (port lock held).  An event the state does not accept is a bug: warned about once
 * and ignored.  Work request references come and go with the events that post and complete them;
 * the wait's is taken by the post and dropped when the MAD stops waiting.
 */
void mad_fsm(struct mad_send *ms, enum mad_event event)
{
	enum mad_state from = ms->state;
	bool waits = ms->timeout_ms || ms->rmpp;
	int to;

	lockdep_assert_held(&ms->agent->port->lock);
	to = oib_mad_fsm_next(from, event);
	if (WARN_ONCE(to < 0, "oib_mad: event %s in state %s", mad_event_name(event),
		      mad_state_name(from)))
		return;

	if (event == MAD_EV_WR_POSTED)
		ms->refs += ms->wr_count;
	if (mad_ends_wrs[event])
		ms->refs -= ms->wr_count;
	if (event == MAD_EV_POST && waits && mad_holds[to].wait)
		ms->refs++;
	if (waits && mad_holds[from].wait && !mad_holds[to].wait)
		ms->refs--;

	WRITE_ONCE(ms->state, to);	/* oib_free_send_mad() peeks */
	WARN_ONCE(ms->refs != mad_state_refs(ms, to),
		  "oib_mad: %u references in state %s after %s", ms->refs, mad_state_name(to),
		  mad_event_name(event));
	trace_oib_mad_state(ms, from, to, event);
}
