/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_mad internals for its KUnit suites only, never for ULPs: the RMPP parameters the suites
 * time and count against and the send MAD's states and events (oib_mad uses them from here), and
 * functions exported with EXPORT_SYMBOL_IF_KUNIT (namespace EXPORTED_FOR_KUNIT_TESTING) when the
 * kernel has KUnit, absent otherwise.
 */
#ifndef OIB_KUNIT_MAD_H
#define OIB_KUNIT_MAD_H

#include <oib/mad.h>

/* RMPP, this layer's choices (not the protocol's) */
#define MAD_RMPP_ACK_TIMEOUT_MS	100	/* a sender's wait for an ACK, per try */
#define MAD_RMPP_WINDOW		32	/* segments a receiver takes past the last it ACKed */

/*
 * A send MAD's lifecycle.  The state is the one truth; lists and references are views of it.
 * Changed only by mad_fsm() under the port lock.  Which lists a MAD is on, per state:
 *   IDLE        none (created, not posted)
 *   QUEUED      agent's sends, a port backlog          (waiting for a work request slot)
 *               or the port's held list                 (waiting for fewer awaited responses)
 *   POSTED      agent's sends, the port send list      (its WR is on the QP)
 *   WAIT_ACK    agent's sends                           (RMPP: the window is out; waiting for
 *                                                       the receiver's ACK)
 *   WAIT_RESP   agent's sends                           (sent; waiting for the response)
 *   RESP_EARLY  agent's sends, the port send list      (response held until the send completes)
 *   CANCELLED   agent's sends, the port send list      (cancelled or flushed; its WR is still on
 *                                                       the QP)
 *   DONE        the port done list until its handlers ran, then none
 */
enum mad_state {
	MAD_IDLE,
	MAD_QUEUED,
	MAD_POSTED,
	MAD_WAIT_ACK,
	MAD_WAIT_RESP,
	MAD_RESP_EARLY,
	MAD_CANCELLED,
	MAD_DONE,
	MAD_NSTATES,
};

enum mad_event {
	MAD_EV_POST,		/* oib_post_send_mad() */
	MAD_EV_WR_POSTED,	/* its work request went to the QP */
	MAD_EV_SENT_WAIT,	/* the WR completed well; a response is awaited */
	MAD_EV_SENT_DONE,	/* the WR completed well; nothing more awaited */
	MAD_EV_SEND_ERR,	/* the WR completed in error (or was flushed) */
	MAD_EV_RESP,		/* its response arrived */
	MAD_EV_RETRY,		/* the wait expired, retries left: send again */
	MAD_EV_TIMEOUT,		/* the wait expired, no retries left */
	MAD_EV_CANCEL,		/* cancel, flush or abort (status says which) */
	/* RMPP sends: one segment per work request, the window opened by the receiver's ACKs */
	MAD_EV_SENT_MORE,	/* the WR completed well; the window has more segments to send */
	MAD_EV_SENT_ACK,	/* the WR completed well; the window is out, an ACK is awaited */
	MAD_EV_ACK,		/* an ACK that opens no new segment to send */
	MAD_EV_ACK_MORE,	/* an ACK that lets more segments go */
	MAD_EV_ACKED_WAIT,	/* every segment acknowledged; a response is awaited */
	MAD_EV_ACKED_DONE,	/* every segment acknowledged; nothing more awaited */
	MAD_NEVENTS,
};

/* The state @event leads to from @state (mad_fsm.c's table), or -EINVAL if it cannot happen. */
int oib_mad_fsm_next(enum mad_state state, enum mad_event event);

/* An agent's counters (also in the port's debugfs file). */
enum oib_mad_agent_stat {
	OIB_MAD_AGENT_SENT,		/* send buffers posted */
	OIB_MAD_AGENT_COMPLETED,	/* send handler calls */
	OIB_MAD_AGENT_RECEIVED,		/* receive handler calls */
	OIB_MAD_AGENT_TIMEOUTS,
	OIB_MAD_AGENT_RETRIES,
	OIB_MAD_AGENT_NSTATS,
};

u64 oib_mad_agent_stat(struct oib_mad_agent *agent, enum oib_mad_agent_stat stat);

/* The port's GSI QP. */
struct oib_qp *oib_mad_port_qp(struct oib_device *device, u32 port);

/* Hold back the port's send completions (true) or let them through (false). */
int oib_mad_port_hold_send_completions(struct oib_device *device, u32 port, bool hold);

/*
 * How long the port keeps a partial RMPP message with no progress, and a delivered one in
 * time-wait (jiffies; 0: the default), so that a seeded case is never raced by them.
 */
int oib_mad_port_set_reasm_timeouts(struct oib_device *device, u32 port, unsigned long idle,
				    unsigned long time_wait);

/*
 * How long an RMPP sender of this port waits for an ACK before it sends again (ms; 0: the
 * default), so that a case counting exactly what crosses a lossless fabric is never raced by it.
 */
int oib_mad_port_set_rmpp_ack_timeout(struct oib_device *device, u32 port, unsigned int ms);

/*
 * Where the port's work runs: its own CPU (where it runs while the port is in a stream), whether
 * it is in one (the last run that found completions found more than two), the CPU of its last
 * run, and its runs so far.
 */
struct oib_mad_port_placement {
	unsigned int home_cpu, last_cpu;
	bool stream;
	unsigned long runs;
};

int oib_mad_port_placement(struct oib_device *device, u32 port,
			   struct oib_mad_port_placement *out);

/* Wait until the port's work is neither queued nor running (unless something queues it again). */
int oib_mad_port_flush(struct oib_device *device, u32 port);

/*
 * Completions the port's work handles in one run before it queues itself again (at most the
 * default; 0: the default), so that a case can have a run leave some behind.
 */
int oib_mad_port_set_work_budget(struct oib_device *device, u32 port, unsigned int budget);

#endif /* OIB_KUNIT_MAD_H */
