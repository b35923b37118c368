// SPDX-License-Identifier: GPL-2.0-only
/*
 * oib(8): stat [show] [NAME[/PORT]]: the counters the drivers keep, as iproute2's rdma statistic
 * prints them: "link DEV/PORT name value ..." for a port's, "dev DEV name value ..." for a
 * device's own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "oib.h"

struct stat_filter {
	long port;		/* -1: every port */
};

static int print_stat(const struct nlmsghdr *nlh, void *arg)
{
	const struct stat_filter *f = arg;
	const struct nlattr *e;
	struct nl_attrs tb, st;
	uint32_t port;

	nl_parse_msg(nlh, &tb);
	port = nl_u32(tb.a[OIB_NL_ATTR_PORT]);
	if (f->port >= 0 && port != f->port)
		return 0;
	if (port)
		out_record("link %s/%u", nl_str(tb.a[OIB_NL_ATTR_DEV_NAME]), port);
	else
		out_record("dev %s", nl_str(tb.a[OIB_NL_ATTR_DEV_NAME]));
	if (opts.json) {
		out_str("name", nl_str(tb.a[OIB_NL_ATTR_DEV_NAME]));
		out_uint("port", port);
	}
	if (tb.a[OIB_NL_ATTR_STATS]) {
		nl_for_each_nested(e, tb.a[OIB_NL_ATTR_STATS]) {
			nl_parse(nl_data(e), nl_len(e), &st);
			if (st.a[OIB_NL_ATTR_STAT_NAME])
				out_uint(nl_str(st.a[OIB_NL_ATTR_STAT_NAME]),
					 nl_u64(st.a[OIB_NL_ATTR_STAT_VALUE]));
		}
	}
	out_record_end();
	return 0;
}

int do_stat(struct nl *nl, struct args *a)
{
	const char *w = arg_next(a), *name = NULL;
	struct stat_filter f = { .port = -1 };
	char dev[OIB_NL_NAME_MAX + 8], *slash, *end;
	struct nl_req req;
	int ret;

	if (w && (matches(w, "show") || matches(w, "list")))
		w = arg_next(a);
	if (w)
		name = w;
	if (arg_next(a))
		return usage_error("stat show takes one NAME[/PORT]");
	nl_req_init(nl, &req, OIB_NL_CMD_STAT_GET, NLM_F_DUMP);
	if (name) {
		snprintf(dev, sizeof(dev), "%s", name);
		slash = strrchr(dev, '/');
		if (slash) {
			*slash = '\0';
			f.port = strtol(slash + 1, &end, 10);
			if (!slash[1] || *end || f.port < 0)
				return usage_error("bad port in %s", name);
		}
		nl_put_str(&req, OIB_NL_ATTR_DEV_NAME, dev);
	}
	out_begin();
	ret = nl_talk(nl, &req, print_stat, &f);
	out_end();
	return ret ? nl_error("stat show", ret) : 0;
}
