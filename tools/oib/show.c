// SPDX-License-Identifier: GPL-2.0-only
/* oib(8): dev show, link show, addr show: a device or port asked for, or all of them dumped. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "oib.h"

static const char *const node_types[] = { "", "ca", "switch", "router", "rnic" };
static const char *const port_states[] = {
	"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
};

static const char *const phys_states[] = {
	"", "SLEEP", "POLLING", "DISABLED", "TRAINING", "LINK_UP", "LINK_ERROR_RECOVERY",
};

static const char *const link_layers[] = { "unspecified", "InfiniBand", "Ethernet" };

#define NAME_OF(table, v) \
	((v) < sizeof(table) / sizeof((table)[0]) && *(table)[v] ? (table)[v] : "?")

/* A GUID as iproute2's rdma prints one: four groups of four hex digits. */
static void guid_str(const struct nlattr *a, char *buf)
{
	const uint8_t *g = a ? nl_data(a) : (const uint8_t *)"\0\0\0\0\0\0\0\0";

	sprintf(buf, "%02x%02x:%02x%02x:%02x%02x:%02x%02x", g[0], g[1], g[2], g[3], g[4], g[5],
		g[6], g[7]);
}

int print_dev(const struct nlmsghdr *nlh, void *arg)
{
	struct nl_attrs tb;
	uint64_t fw;
	char buf[64];

	(void)arg;
	nl_parse_msg(nlh, &tb);
	out_record("%u: %s:", nl_u32(tb.a[OIB_NL_ATTR_DEV_INDEX]),
		   nl_str(tb.a[OIB_NL_ATTR_DEV_NAME]));
	if (opts.json) {
		out_uint("index", nl_u32(tb.a[OIB_NL_ATTR_DEV_INDEX]));
		out_str("name", nl_str(tb.a[OIB_NL_ATTR_DEV_NAME]));
	}
	out_str("node_type", NAME_OF(node_types, nl_u8(tb.a[OIB_NL_ATTR_NODE_TYPE])));
	if (tb.a[OIB_NL_ATTR_LINK_TYPE])
		out_str("type", nl_str(tb.a[OIB_NL_ATTR_LINK_TYPE]));
	out_uint("ports", nl_u32(tb.a[OIB_NL_ATTR_PORT_COUNT]));
	fw = nl_u64(tb.a[OIB_NL_ATTR_FW_VER]);
	snprintf(buf, sizeof(buf), "%u.%u.%u", (unsigned int)(fw >> 32),
		 (unsigned int)(fw >> 16) & 0xffff, (unsigned int)fw & 0xffff);
	out_str("fw", buf);
	guid_str(tb.a[OIB_NL_ATTR_NODE_GUID], buf);
	out_str("node_guid", buf);
	if (opts.details) {
		guid_str(tb.a[OIB_NL_ATTR_SYS_IMAGE_GUID], buf);
		out_str("sys_image_guid", buf);
	}
	out_record_end();
	return 0;
}

static void print_gids(const struct nlattr *table)
{
	const struct nlattr *e;
	char addr[INET6_ADDRSTRLEN], item[INET6_ADDRSTRLEN + 32];
	struct nl_attrs g;

	out_list_begin("gids");
	if (table) {
		nl_for_each_nested(e, table) {
			nl_parse(nl_data(e), nl_len(e), &g);
			if (!g.a[OIB_NL_ATTR_GID] || nl_len(g.a[OIB_NL_ATTR_GID]) != 16)
				continue;
			inet_ntop(AF_INET6, nl_data(g.a[OIB_NL_ATTR_GID]), addr, sizeof(addr));
			if (opts.details)
				snprintf(item, sizeof(item), "%u:%s%s",
					 nl_u32(g.a[OIB_NL_ATTR_GID_INDEX]), addr,
					 nl_u8(g.a[OIB_NL_ATTR_GID_TYPE]) ? "(RoCEv2)" : "(IB)");
			else
				snprintf(item, sizeof(item), "%s", addr);
			out_list_item(item);
		}
	}
	out_list_end();
}

int print_port(const struct nlmsghdr *nlh, void *arg)
{
	const char *name;
	struct nl_attrs tb;
	uint32_t port;

	(void)arg;
	nl_parse_msg(nlh, &tb);
	name = nl_str(tb.a[OIB_NL_ATTR_DEV_NAME]);
	port = nl_u32(tb.a[OIB_NL_ATTR_PORT]);
	out_record("link %s/%u", name, port);
	if (opts.json) {
		out_str("name", name);
		out_uint("port", port);
	}
	out_str("state", NAME_OF(port_states, nl_u8(tb.a[OIB_NL_ATTR_PORT_STATE])));
	out_str("physical_state", NAME_OF(phys_states, nl_u8(tb.a[OIB_NL_ATTR_PORT_PHYS_STATE])));
	out_uint("mtu", nl_u32(tb.a[OIB_NL_ATTR_ACTIVE_MTU]));
	if (tb.a[OIB_NL_ATTR_NETDEV]) {
		out_str("netdev", nl_str(tb.a[OIB_NL_ATTR_NETDEV]));
		if (opts.details)
			out_uint("netdev_index", nl_u32(tb.a[OIB_NL_ATTR_NETDEV_INDEX]));
	}
	if (opts.details) {
		out_uint("max_mtu", nl_u32(tb.a[OIB_NL_ATTR_MAX_MTU]));
		out_str("link_layer", NAME_OF(link_layers, nl_u8(tb.a[OIB_NL_ATTR_LINK_LAYER])));
		out_uint("dev_index", nl_u32(tb.a[OIB_NL_ATTR_DEV_INDEX]));
	}
	print_gids(tb.a[OIB_NL_ATTR_GID_TABLE]);
	out_record_end();
	return 0;
}

/* A port's addresses only: addr show. */
static int print_addrs(const struct nlmsghdr *nlh, void *arg)
{
	struct nl_attrs tb;

	(void)arg;
	nl_parse_msg(nlh, &tb);
	out_record("%s/%u:", nl_str(tb.a[OIB_NL_ATTR_DEV_NAME]), nl_u32(tb.a[OIB_NL_ATTR_PORT]));
	if (opts.json) {
		out_str("name", nl_str(tb.a[OIB_NL_ATTR_DEV_NAME]));
		out_uint("port", nl_u32(tb.a[OIB_NL_ATTR_PORT]));
	}
	print_gids(tb.a[OIB_NL_ATTR_GID_TABLE]);
	out_record_end();
	return 0;
}

/* Ask for one object or dump them, printing each with @print. */
static int show(struct nl *nl, struct nl_req *req, nl_cb print, void *arg, const char *what)
{
	int ret;

	out_begin();
	ret = nl_talk(nl, req, print, arg);
	out_end();
	return ret ? nl_error(what, ret) : 0;
}

int do_dev(struct nl *nl, struct args *a)
{
	const char *cmd = arg_next(a), *name = NULL;
	struct nl_req req;

	if (cmd && !matches(cmd, "show") && !matches(cmd, "list"))
		return usage_error("unknown dev command %s", cmd);
	if (cmd)
		name = arg_next(a);
	if (arg_next(a))
		return usage_error("dev show takes one name");
	nl_req_init(nl, &req, OIB_NL_CMD_DEV_GET, name ? 0 : NLM_F_DUMP);
	if (name)
		nl_put_str(&req, OIB_NL_ATTR_DEV_NAME, name);
	return show(nl, &req, print_dev, NULL, "dev show");
}

/* NAME or NAME/PORT into @req; -1 for a bad port. */
int put_name_port(struct nl_req *req, const char *arg, bool need_port)
{
	char name[OIB_NL_NAME_MAX + 8], *slash, *end;
	unsigned long port;

	snprintf(name, sizeof(name), "%s", arg);
	slash = strrchr(name, '/');
	if (!slash)
		return need_port ? -1 : (nl_put_str(req, OIB_NL_ATTR_DEV_NAME, name), 0);
	*slash = '\0';
	port = strtoul(slash + 1, &end, 10);
	if (!slash[1] || *end || port > 0xffffffffUL)
		return -1;
	nl_put_str(req, OIB_NL_ATTR_DEV_NAME, name);
	nl_put_u32(req, OIB_NL_ATTR_PORT, port);
	return 1;
}

static int port_show(struct nl *nl, struct args *a, nl_cb print, const char *what)
{
	const char *cmd = arg_next(a), *name = NULL;
	struct nl_req req;
	int has_port = 0;

	if (cmd && !matches(cmd, "show") && !matches(cmd, "list"))
		return usage_error("unknown command %s", cmd);
	if (cmd)
		name = arg_next(a);
	if (arg_next(a))
		return usage_error("%s takes one NAME[/PORT]", what);
	nl_req_init(nl, &req, OIB_NL_CMD_PORT_GET, 0);
	if (name) {
		has_port = put_name_port(&req, name, false);
		if (has_port < 0)
			return usage_error("bad port in %s", name);
	}
	if (has_port <= 0)
		req.nlh.nlmsg_flags |= NLM_F_DUMP;
	return show(nl, &req, print, NULL, what);
}

int link_show(struct nl *nl, struct args *a)
{
	return port_show(nl, a, print_port, "link show");
}

int do_link(struct nl *nl, struct args *a)
{
	const char *cmd = a->argc ? a->argv[0] : NULL;

	if (cmd && matches(cmd, "add")) {
		arg_next(a);
		return link_change(nl, a, true);
	}
	if (cmd && (matches(cmd, "delete") || !strcmp(cmd, "del"))) {
		arg_next(a);
		return link_change(nl, a, false);
	}
	return link_show(nl, a);
}

int do_addr(struct nl *nl, struct args *a)
{
	const char *cmd = a->argc ? a->argv[0] : NULL;

	if (cmd && matches(cmd, "add")) {
		arg_next(a);
		return addr_change(nl, a, true);
	}
	if (cmd && (matches(cmd, "delete") || !strcmp(cmd, "del"))) {
		arg_next(a);
		return addr_change(nl, a, false);
	}
	return port_show(nl, a, print_addrs, "addr show");
}
