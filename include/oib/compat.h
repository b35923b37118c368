/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one place for differences between the kernels oib builds against (the 6.12 test kernel and
 * Debian 12's 6.1): each a small shim, named for what moved.
 */
#ifndef OIB_COMPAT_H
#define OIB_COMPAT_H

/* 6.12 moved <asm/unaligned.h> to <linux/unaligned.h>. */
#if __has_include("linux/unaligned.h")
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* OIB_COMPAT_H */
