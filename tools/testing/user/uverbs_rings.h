/* SPDX-License-Identifier: GPL-2.0-only */
/* oib_uverbs_user's cases on mapped rings (uverbs_rings.c, uverbs_rq_rings.c). */
#ifndef OIB_UVERBS_RINGS_H
#define OIB_UVERBS_RINGS_H

#include <stdbool.h>

bool rings_mapped(void);
bool rings_outlive_objects(void);
bool rings_bad_producer(void);
bool rings_bad_wqes(void);
bool rings_bad_wr_list(void);
bool rings_wqe_rewritten(void);
bool rings_cq_bad_consumer(void);
bool rings_close_under_traffic(void);
bool rings_fork(void);
bool rings_fuzz(void);

/* Receive rings (uverbs_rq_rings.c). */
bool rq_rings_mapped(void);
bool rq_rings_bad_entries(void);
bool rq_rings_srq_bad_entry(void);
bool rq_rings_bad_producer(void);
bool rq_rings_rewritten(void);
bool rq_rings_srq_limit(void);
bool rq_rings_flush(void);
bool rq_rings_fork(void);
bool rq_rings_close_under_traffic(void);
bool rq_rings_fuzz(void);

#endif /* OIB_UVERBS_RINGS_H */
