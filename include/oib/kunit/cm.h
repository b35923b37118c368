/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_cm internals for its KUnit suites only: exported with EXPORT_SYMBOL_IF_KUNIT (namespace
 * EXPORTED_FOR_KUNIT_TESTING) when the kernel has KUnit, absent otherwise.  Never for ULPs.
 *
 * The wire format (cm_wire.h) and the state table (cm_fsm.h) live next to this header, as the
 * module's own files and these suites share them: the unpacked messages, pack/unpack and the
 * table lookup.
 */
#ifndef OIB_KUNIT_CM_H
#define OIB_KUNIT_CM_H

#include <oib/cm.h>
#include <oib/kunit/cm_fsm.h>
#include <oib/kunit/cm_wire.h>

#endif /* OIB_KUNIT_CM_H */
