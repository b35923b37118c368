// SPDX-License-Identifier: GPL-2.0-only
/* oib(8)'s output, as text or JSON. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "out.h"

struct opts opts;

static int nrecords;	/* records so far: JSON's commas */
static int nfields;	/* fields of the current record (or items of its list) */

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_sep(int n, int depth)
{
	if (n)
		putchar(',');
	if (opts.pretty)
		printf("\n%*s", 4 * depth, "");
}

void out_begin(void)
{
	nrecords = 0;
	if (opts.json)
		putchar('[');
}

void out_end(void)
{
	if (!opts.json)
		return;
	if (opts.pretty && nrecords)
		putchar('\n');
	printf("]\n");
}

void out_record(const char *fmt, ...)
{
	char title[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(title, sizeof(title), fmt, ap);
	va_end(ap);
	nfields = 0;
	if (opts.json) {
		json_sep(nrecords, 1);
		putchar('{');
	} else {
		fputs(title, stdout);
	}
	nrecords++;
}

void out_record_end(void)
{
	if (opts.json) {
		if (opts.pretty)
			printf("\n    ");
		putchar('}');
	} else {
		putchar('\n');
	}
	fflush(stdout);
}

static void out_key(const char *key)
{
	if (opts.json) {
		json_sep(nfields, 2);
		json_string(key);
		printf(opts.pretty ? ": " : ":");
	} else {
		printf(" %s ", key);
	}
	nfields++;
}

void out_str(const char *key, const char *val)
{
	out_key(key);
	if (opts.json)
		json_string(val);
	else
		fputs(val, stdout);
}

void out_uint(const char *key, uint64_t val)
{
	out_key(key);
	printf("%llu", (unsigned long long)val);
}

static int nitems;

void out_list_begin(const char *key)
{
	nitems = 0;
	if (opts.json) {
		out_key(key);
		putchar('[');
	} else {
		printf("\n    %s", key);
	}
}

void out_list_item(const char *val)
{
	if (opts.json) {
		json_sep(nitems, 3);
		json_string(val);
	} else {
		printf(" %s", val);
	}
	nitems++;
}

void out_list_end(void)
{
	if (opts.json) {
		if (opts.pretty && nitems)
			printf("\n%*s", 8, "");
		putchar(']');
	}
}
