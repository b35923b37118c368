// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib(8): oib's devices through oib_core's netlink family, in iproute2's grammar:
 * oib [-j] [-p] [-d] OBJECT [COMMAND [ARGUMENTS]].  See oib.8.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "oib.h"

static const char usage[] =
	"Usage: oib [-j] [-p] [-d] OBJECT [COMMAND [ARGUMENTS]]\n"
	"  oib dev [show [NAME]]\n"
	"  oib link [show [NAME[/PORT]]]\n"
	"  oib link add NAME type rxe|siw [netdev DEV] [ports N]\n"
	"  oib link delete NAME\n"
	"  oib addr [show [NAME[/PORT]]]\n"
	"  oib addr add|del NAME/PORT ADDRESS\n"
	"  oib res [show] [pd|cq|qp|srq|mr|cm_id] [dev NAME]\n"
	"  oib stat [show] [NAME[/PORT]]\n"
	"  oib monitor\n"
	"Options: -j JSON, -p pretty JSON, -d details, -h this help\n";

const char *arg_next(struct args *a)
{
	if (!a->argc)
		return NULL;
	a->argc--;
	return *a->argv++;
}

bool matches(const char *arg, const char *word)
{
	size_t n = strlen(arg);

	return n && n <= strlen(word) && !strncmp(arg, word, n);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("oib: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	fputs(usage, stderr);
	return 2;
}

int nl_error(const char *what, int err)
{
	fprintf(stderr, "oib: %s: %s\n", what, strerror(-err));
	return 1;
}

static const struct {
	const char *name;
	int (*fn)(struct nl *nl, struct args *a);
} objects[] = {
	{ "dev", do_dev },
	{ "link", do_link },
	{ "addr", do_addr },
	{ "res", do_res },
	{ "stat", do_stat },
	{ "monitor", do_monitor },
};

int main(int argc, char **argv)
{
	struct args a = { argc - 1, argv + 1 };
	const char *obj;
	struct nl nl;
	size_t i;
	int ret;

	while (a.argc && a.argv[0][0] == '-' && a.argv[0][1]) {
		const char *o = arg_next(&a);

		if (!strcmp(o, "-j") || !strcmp(o, "-json"))
			opts.json = true;
		else if (!strcmp(o, "-p") || !strcmp(o, "-pretty"))
			opts.pretty = true;
		else if (!strcmp(o, "-d") || !strcmp(o, "-details"))
			opts.details = true;
		else if (!strcmp(o, "-h") || !strcmp(o, "-help") || !strcmp(o, "--help"))
			return fputs(usage, stdout) == EOF;
		else
			return usage_error("unknown option %s", o);
	}
	obj = arg_next(&a);
	if (!obj)
		return usage_error("no object");
	if (matches(obj, "help"))
		return fputs(usage, stdout) == EOF;
	for (i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		if (matches(obj, objects[i].name))
			break;
	if (i == sizeof(objects) / sizeof(objects[0]))
		return usage_error("unknown object %s", obj);
	ret = nl_open(&nl);
	if (ret) {
		fprintf(stderr, "oib: no netlink family \"%s\" (is oib_core loaded?): %s\n",
			OIB_NL_FAMILY_NAME, strerror(-ret));
		return 1;
	}
	ret = objects[i].fn(&nl, &a);
	nl_close(&nl);
	return ret;
}
