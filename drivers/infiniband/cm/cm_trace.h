/* SPDX-License-Identifier: GPL-2.0-only */
/* Tracepoints of oib_cm: every step of a cm_id's state machine. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM oib_cm

#if !defined(OIB_CM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define OIB_CM_TRACE_H

#include <linux/tracepoint.h>
#include <oib/kunit/cm_fsm.h>

TRACE_EVENT(oib_cm_step,
	    TP_PROTO(u32 local_id, u32 remote_id, enum oib_cm_state from, enum cm_event event,
		     enum cm_action action, enum oib_cm_state to, int ret),
	    TP_ARGS(local_id, remote_id, from, event, action, to, ret),
	    TP_STRUCT__entry(__field(u32, local_id)
			     __field(u32, remote_id)
			     __field(u8, from)
			     __field(u8, event)
			     __field(u8, action)
			     __field(u8, to)
			     __field(int, ret)),
	    TP_fast_assign(__entry->local_id = local_id;
			   __entry->remote_id = remote_id;
			   __entry->from = from;
			   __entry->event = event;
			   __entry->action = action;
			   __entry->to = to;
			   __entry->ret = ret;),
	    TP_printk("id %#x remote %#x: %s --%s/%s--> %s ret %d",
		      __entry->local_id, __entry->remote_id, oib_cm_state_name(__entry->from),
		      oib_cm_event_name(__entry->event), oib_cm_action_name(__entry->action),
		      oib_cm_state_name(__entry->to), __entry->ret)
);

#endif /* OIB_CM_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE cm_trace
#include <trace/define_trace.h>
