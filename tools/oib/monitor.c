// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib(8): monitor: every device and port notification, as it comes, one a line: "[dev new]",
 * "[dev del]" and the device as dev show prints it, or "[port]" and the port as link show does.
 * With -d it first says it listens (scripts wait for that line).  JSON: an object a line.
 */
#include <stdio.h>
#include "oib.h"

static int print_event(const struct nlmsghdr *nlh, void *arg)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	static const char *const names[] = {
		[OIB_NL_CMD_DEV_NEW] = "dev new",
		[OIB_NL_CMD_DEV_DEL] = "dev del",
		[OIB_NL_CMD_PORT_CHANGE] = "port",
	};

	(void)arg;
	if (g->cmd >= sizeof(names) / sizeof(names[0]) || !names[g->cmd])
		return 0;
	if (!opts.json)
		printf("[%s] ", names[g->cmd]);
	out_begin();
	if (g->cmd == OIB_NL_CMD_PORT_CHANGE)
		print_port(nlh, NULL);
	else
		print_dev(nlh, NULL);
	if (opts.json)
		putchar('\n');
	fflush(stdout);
	return 0;
}

int do_monitor(struct nl *nl, struct args *a)
{
	const char *arg = arg_next(a);
	int ret;

	if (arg && !matches(arg, "all"))
		return usage_error("monitor takes no arguments but \"all\"");
	ret = nl_subscribe(nl);
	if (ret)
		return nl_error("monitor", ret);
	if (opts.details) {
		printf("monitor: listening\n");
		fflush(stdout);
	}
	ret = nl_recv_events(nl, print_event, NULL);
	return nl_error("monitor", ret);
}
