/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The differences between the kernels oib builds against: the 6.12 test kernel and Debian 12's
 * stock 6.1.  Everything version-dependent lives here and nowhere else.
 */
#ifndef OIB_COMPAT_H
#define OIB_COMPAT_H

#include <linux/version.h>

/* kobject_init() takes a const struct kobj_type * since 6.2. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define OIB_KOBJ_TYPE_CONST const
#else
#define OIB_KOBJ_TYPE_CONST
#endif

#endif /* OIB_COMPAT_H */
