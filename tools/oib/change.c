// SPDX-License-Identifier: GPL-2.0-only
/* oib(8): link add, link delete, addr add, addr del. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "oib.h"

/* link add NAME type TYPE [netdev DEV] [ports N] | link delete NAME */
int link_change(struct nl *nl, struct args *a, bool add)
{
	const char *name = arg_next(a), *kw, *val;
	bool have_type = false;
	struct nl_req req;
	char *end;
	int ret;

	if (!name)
		return usage_error("link %s: no device name", add ? "add" : "delete");
	nl_req_init(nl, &req, add ? OIB_NL_CMD_LINK_NEW : OIB_NL_CMD_LINK_DEL, 0);
	nl_put_str(&req, OIB_NL_ATTR_DEV_NAME, name);
	while (add && (kw = arg_next(a))) {
		val = arg_next(a);
		if (!val)
			return usage_error("link add: %s needs a value", kw);
		if (matches(kw, "type")) {
			nl_put_str(&req, OIB_NL_ATTR_LINK_TYPE, val);
			have_type = true;
		} else if (matches(kw, "netdev")) {
			nl_put_str(&req, OIB_NL_ATTR_NETDEV, val);
		} else if (matches(kw, "ports")) {
			unsigned long n = strtoul(val, &end, 0);

			if (!*val || *end || n > 0xffffffffUL)
				return usage_error("link add: bad port count %s", val);
			nl_put_u32(&req, OIB_NL_ATTR_PORT_COUNT, n);
		} else {
			return usage_error("link add: unknown argument %s", kw);
		}
	}
	if (add && !have_type)
		return usage_error("link add: no type");
	if (!add && arg_next(a))
		return usage_error("link delete takes one name");
	ret = nl_talk(nl, &req, NULL, NULL);
	return ret ? nl_error(add ? "link add" : "link delete", ret) : 0;
}

/* An IPv4 or IPv6 address as a GID: IPv4 IPv4-mapped. */
static int parse_addr(const char *s, unsigned char gid[16])
{
	memset(gid, 0, 16);
	if (inet_pton(AF_INET, s, gid + 12) == 1) {
		gid[10] = 0xff;
		gid[11] = 0xff;
		return 0;
	}
	return inet_pton(AF_INET6, s, gid) == 1 ? 0 : -1;
}

/* addr add|del NAME/PORT ADDRESS */
int addr_change(struct nl *nl, struct args *a, bool add)
{
	const char *what = add ? "addr add" : "addr del";
	const char *port = arg_next(a), *addr = arg_next(a);
	unsigned char gid[16];
	struct nl_req req;
	int ret;

	if (!port || !addr || arg_next(a))
		return usage_error("%s takes NAME/PORT ADDRESS", what);
	nl_req_init(nl, &req, add ? OIB_NL_CMD_ADDR_NEW : OIB_NL_CMD_ADDR_DEL, 0);
	if (put_name_port(&req, port, true) < 0)
		return usage_error("%s: %s is no NAME/PORT", what, port);
	if (parse_addr(addr, gid))
		return usage_error("%s: %s is no IPv4 or IPv6 address", what, addr);
	nl_put(&req, OIB_NL_ATTR_ADDR, gid, sizeof(gid));
	ret = nl_talk(nl, &req, NULL, NULL);
	return ret ? nl_error(what, ret) : 0;
}
