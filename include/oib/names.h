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
	__oib_enum_name(names, sizeof(names) + __must_be_array(names), (size_t)(val))

/* @size: the table's size in bytes, so that the macro names the table once. */
static inline const char *__oib_enum_name(const char * const *names, size_t size, size_t val)
{
	return val < size / sizeof(*names) && names[val] ? names[val] : "?";
}

#endif /* OIB_NAMES_H */
