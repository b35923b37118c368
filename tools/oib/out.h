/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib(8)'s output: each object is a record of fields, printed as a line of text ("key value"
 * pairs after its name) or, with -j, as a JSON object in an array (-p: indented).
 */
#ifndef OIB_TOOL_OUT_H
#define OIB_TOOL_OUT_H

#include <stdbool.h>
#include <stdint.h>

struct opts {
	bool json, pretty, details;
};

extern struct opts opts;

void out_begin(void);		/* before the first record: "[" in JSON */
void out_end(void);		/* after the last: "]" */
void out_record(const char *fmt, ...) __attribute__((format(printf, 1, 2)));	/* its title */
void out_record_end(void);
void out_str(const char *key, const char *val);
void out_uint(const char *key, uint64_t val);
void out_list_begin(const char *key);	/* a list of strings: JSON array, text continuation lines */
void out_list_item(const char *val);
void out_list_end(void);

#endif /* OIB_TOOL_OUT_H */
