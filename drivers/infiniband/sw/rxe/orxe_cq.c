// SPDX-License-Identifier: GPL-2.0-only
/*
 * Completion queues: oib_core's CQ of software providers (struct oib_sw_cq, <oib/sw.h>) with its
 * ring, arming and overflow; what is oib_rxe's is where the handlers run: on the device's
 * completion workqueue, on a CPU of the CQ's completion vector.
 */
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/topology.h>
#include "orxe.h"

/* Tests: wait until a handler call or event the CQ had queued has run. */
void oib_rxe_cq_flush(struct oib_cq *ibcq)
{
	oib_sw_cq_flush(oib_sw_cq(ibcq));
}
EXPORT_SYMBOL_IF_KUNIT(oib_rxe_cq_flush);

int orxe_create_cq(struct oib_cq *ibcq, const struct oib_cq_init_attr *attr)
{
	return oib_sw_cq_init(oib_sw_cq(ibcq), attr, to_rdev(ibcq->device)->comp_wq,
			      cpumask_local_spread(attr->comp_vector, NUMA_NO_NODE));
}
