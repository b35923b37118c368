/* SPDX-License-Identifier: GPL-2.0-only */
/* What oib_uverbs_uabi's files share. */
#ifndef OIB_UVERBS_UABI_H
#define OIB_UVERBS_UABI_H

#include <stdbool.h>
#include "oibv.h"

/* A context on @dev as oibv_open_device() makes one, but without an async event file. */
struct oibv_context *ctx_without_async(struct oibv_device *dev);

/* uverbs_async_race.c */
bool t_async_destroy_race(void);
/* uverbs_stall.c */
bool t_removal_under_stalled_copy(void);

#endif /* OIB_UVERBS_UABI_H */
