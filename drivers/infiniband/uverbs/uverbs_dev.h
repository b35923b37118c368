/* SPDX-License-Identifier: GPL-2.0-only */
/* oib_uverbs: the character devices (device.c), for main.c. */
#ifndef OIB_UVERBS_DEV_H
#define OIB_UVERBS_DEV_H

extern struct oib_client oib_uverbs_client;
int oib_uverbs_devices_init(void);
void oib_uverbs_devices_exit(void);

#endif /* OIB_UVERBS_DEV_H */
