/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Names of enum values for logs, debugfs and tracepoints: one table of strings indexed by the enum
 * (designated initialisers), one lookup that never reads past it.
 */
#ifndef OIB_NAMES_H
#define OIB_NAMES_H

#include <linux/kernel.h>

/* @names[@val], or "?" for a value past the table or one it does not name. */
#define oib_enum_name(names, val)						\
	((size_t)(val) < ARRAY_SIZE(names) && (names)[(size_t)(val)] ?		\
	 (names)[(size_t)(val)] : "?")

#endif /* OIB_NAMES_H */
