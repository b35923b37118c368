/* SPDX-License-Identifier: GPL-2.0-only */
/* Tracepoints of oib_cma: every step of an id's state machine. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM oib_cma

#if !defined(OIB_CMA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define OIB_CMA_TRACE_H

#include <linux/tracepoint.h>
#include <oib/kunit/cma_fsm.h>

TRACE_EVENT(oib_cma_step,
	    TP_PROTO(const void *id, enum cma_state from, enum cma_event event,
		     enum cma_state to, int deliver),
	    TP_ARGS(id, from, event, to, deliver),
	    TP_STRUCT__entry(__field(const void *, id)
			     __field(u8, from)
			     __field(u8, event)
			     __field(u8, to)
			     __field(int, deliver)),
	    TP_fast_assign(__entry->id = id;
			   __entry->from = from;
			   __entry->event = event;
			   __entry->to = to;
			   __entry->deliver = deliver;),
	    TP_printk("id %p: %s --%s--> %s tells %s", __entry->id,
		      cma_state_name(__entry->from), cma_event_name(__entry->event),
		      cma_state_name(__entry->to),
		      __entry->deliver < OIB_CMA_NEVENTS ? oib_cma_event_msg(__entry->deliver) :
		      "nothing")
);

#endif /* OIB_CMA_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE cma_trace
#include <trace/define_trace.h>
