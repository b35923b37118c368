/* SPDX-License-Identifier: GPL-2.0-only */
/* oib(8): the objects' commands, between its files. */
#ifndef OIB_TOOL_H
#define OIB_TOOL_H

#include <stdbool.h>
#include "nl.h"
#include "out.h"

/* argv, consumed from the front */
struct args {
	int argc;
	char **argv;
};

const char *arg_next(struct args *a);	/* NULL at the end */
bool matches(const char *arg, const char *word);	/* a prefix of @word, as iproute2 takes */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int nl_error(const char *what, int err);

int do_dev(struct nl *nl, struct args *a);
int do_link(struct nl *nl, struct args *a);
int do_addr(struct nl *nl, struct args *a);
int do_monitor(struct nl *nl, struct args *a);
int do_res(struct nl *nl, struct args *a);
int do_stat(struct nl *nl, struct args *a);

/* show.c: the records of a device and of a port, as dev show and link show print them */
int print_dev(const struct nlmsghdr *nlh, void *arg);
int print_port(const struct nlmsghdr *nlh, void *arg);
int link_show(struct nl *nl, struct args *a);
int link_change(struct nl *nl, struct args *a, bool add);
int addr_change(struct nl *nl, struct args *a, bool add);
/* NAME or NAME/PORT into @req: 0 (no port), 1 (a port), -1 (a bad or, @need_port, no port) */
int put_name_port(struct nl_req *req, const char *arg, bool need_port);

#endif /* OIB_TOOL_H */
