// SPDX-License-Identifier: GPL-2.0-only
/* Instantiates the oib_mad tracepoints declared in mad_trace.h. */
#define CREATE_TRACE_POINTS
#include "mad_trace.h"
