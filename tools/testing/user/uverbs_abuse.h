/* SPDX-License-Identifier: GPL-2.0-only */
/* The abuse cases of oib_uverbs_user (uverbs_abuse.c): all refused cleanly, nothing leaked. */
#ifndef OIB_UVERBS_ABUSE_H
#define OIB_UVERBS_ABUSE_H

#include <stdbool.h>

bool abuse_memlock_limit(void);
bool abuse_abi(void);
bool abuse_handles(void);
bool abuse_post(void);
bool abuse_fuzz(void);
bool abuse_close_in_use(void);
bool abuse_fork(void);
bool abuse_kill9(void);
bool abuse_unprivileged(void);
bool abuse_device_removal(void);

#endif /* OIB_UVERBS_ABUSE_H */
