/* SPDX-License-Identifier: GPL-2.0-only */
/* Tracepoints of oib_mad: send MAD state changes, work requests posted, receives. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM oib_mad

#if !defined(OIB_MAD_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define OIB_MAD_TRACE_H

#include <linux/tracepoint.h>
#include "mad_priv.h"

TRACE_EVENT(oib_mad_state,
	    TP_PROTO(const struct mad_send *ms, enum mad_state from, enum mad_state to,
		     enum mad_event event),
	    TP_ARGS(ms, from, to, event),
	    TP_STRUCT__entry(__field(const void *, ms)
			     __field(u64, tid)
			     __field(u8, mgmt_class)
			     __field(u8, method)
			     __field(u8, from)
			     __field(u8, to)
			     __field(u8, event)
			     __field(u8, refs)),
	    TP_fast_assign(const struct oib_mad_hdr *hdr = (const void *)ms->mad;

			   __entry->ms = ms;
			   __entry->tid = be64_to_cpu(hdr->tid);
			   __entry->mgmt_class = hdr->mgmt_class;
			   __entry->method = hdr->method;
			   __entry->from = from;
			   __entry->to = to;
			   __entry->event = event;
			   __entry->refs = ms->refs;),
	    TP_printk("mad %p tid %#llx class %#x method %#x: %s --%s--> %s refs %u",
		      __entry->ms, __entry->tid, __entry->mgmt_class, __entry->method,
		      mad_state_name(__entry->from), mad_event_name(__entry->event),
		      mad_state_name(__entry->to), __entry->refs)
);

TRACE_EVENT(oib_mad_recv,
	    TP_PROTO(u32 port_num, const struct oib_mad_hdr *hdr, u32 len, int verdict),
	    TP_ARGS(port_num, hdr, len, verdict),
	    TP_STRUCT__entry(__field(u32, port_num)
			     __field(u32, len)
			     __field(u64, tid)
			     __field(u8, mgmt_class)
			     __field(u8, class_version)
			     __field(u8, method)
			     __field(int, verdict)),
	    TP_fast_assign(__entry->port_num = port_num;
			   __entry->len = len;
			   __entry->tid = be64_to_cpu(hdr->tid);
			   __entry->mgmt_class = hdr->mgmt_class;
			   __entry->class_version = hdr->class_version;
			   __entry->method = hdr->method;
			   __entry->verdict = verdict;),
	    TP_printk("port %u len %u tid %#llx class %#x/%u method %#x verdict %d",
		      __entry->port_num, __entry->len, __entry->tid, __entry->mgmt_class,
		      __entry->class_version, __entry->method, __entry->verdict)
);

#endif /* OIB_MAD_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE mad_trace
#include <trace/define_trace.h>
