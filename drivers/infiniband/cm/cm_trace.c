// SPDX-License-Identifier: GPL-2.0-only
/* Instantiates the oib_cm tracepoints declared in cm_trace.h. */
#define CREATE_TRACE_POINTS
#include "cm_trace.h"
