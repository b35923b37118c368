/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_core internals for its KUnit suites only: exported with EXPORT_SYMBOL_IF_KUNIT (namespace
 * EXPORTED_FOR_KUNIT_TESTING) when the kernel has KUnit, absent otherwise.  Never for ULPs.
 */
#ifndef OIB_KUNIT_CORE_H
#define OIB_KUNIT_CORE_H

#include <oib/verbs.h>
#include <oib/device.h>
#include <oib/restrack.h>

/*
 * Set the completions an oib_alloc_cq() CQ's poller takes per round (SOFTIRQ and WORKQUEUE
 * contexts), so that a suite sees rounds run out of budget with a handful of completions.  Call
 * it before the CQ has completions.  -EINVAL for other CQs or a zero budget.
 */
int oib_cq_set_budget(struct oib_cq *cq, u32 budget);

/* Whether @ops's iWARP CM verbs suit @node_type (all five for an RNIC, none otherwise). */
bool oib_iw_ops_valid(const struct oib_device_ops *ops, enum oib_node_type node_type);

/*
 * The required and optional attribute masks of the modify-QP table's @cur -> @next row for @type
 * (both 0 where it has none): what the kernel-owned XRC receive QPs are driven to RTR with.
 */
void oib_qp_table_masks(enum oib_qp_state cur, enum oib_qp_state next, enum oib_qp_type type,
			u32 *required, u32 *optional);

/*
 * The tracked object of an upper module's @kind with the lowest id at or above *@id, in @device's
 * table (NULL: those bound to no device): true, its owner in @res and its snapshot in @s (what
 * oib res show prints).
 */
bool oib_res_ulp_next(struct oib_device *device, enum oib_res_ulp_kind kind, unsigned long *id,
		      struct oib_res *res, union oib_res_ulp_snap *s);

#endif /* OIB_KUNIT_CORE_H */
