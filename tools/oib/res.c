// SPDX-License-Identifier: GPL-2.0-only
/* oib(8): res show KIND [dev NAME]: the live objects of a kind, with their owners and numbers. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include "oib.h"

static const char *const kinds[OIB_NL_RES_MAX] = {
	[OIB_NL_RES_PD] = "pd", [OIB_NL_RES_CQ] = "cq", [OIB_NL_RES_QP] = "qp",
	[OIB_NL_RES_SRQ] = "srq", [OIB_NL_RES_MR] = "mr", [OIB_NL_RES_CM_ID] = "cm_id",
};

static const char *const qp_types[] = { "SMI", "GSI", "RC", "UC", "UD", "XRC_INI", "XRC_TGT" };
static const char *const qp_states[] = { "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR" };
static const char *const poll_ctxs[] = { "softirq", "workqueue", "unbound_workqueue", "direct" };
static const char *const srq_types[] = { "BASIC", "XRC" };

#define NAME_OF(table, v) \
	((v) < sizeof(table) / sizeof((table)[0]) ? (table)[v] : "?")

static void opt_u32(const struct nl_attrs *tb, int attr, const char *key)
{
	if (tb->a[attr])
		out_uint(key, nl_u32(tb->a[attr]));
}

static void hex(const struct nl_attrs *tb, int attr, const char *key, bool wide)
{
	char buf[24];

	if (!tb->a[attr])
		return;
	if (wide)
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)nl_u64(tb->a[attr]));
	else
		snprintf(buf, sizeof(buf), "0x%x", nl_u32(tb->a[attr]));
	out_str(key, buf);
}

static const struct {
	uint32_t ps;
	const char *name;
} port_spaces[] = {
	{ 0x0001, "sdp" }, { 0x0002, "ipoib" }, { 0x0106, "tcp" }, { 0x0111, "udp" },
	{ 0x013f, "ib" },
};

static const char *port_space(uint32_t ps)
{
	size_t i;

	for (i = 0; i < sizeof(port_spaces) / sizeof(port_spaces[0]); i++)
		if (port_spaces[i].ps == ps)
			return port_spaces[i].name;
	return "?";
}

/* A struct sockaddr_in or sockaddr_in6 as ADDRESS:PORT ([ADDRESS]:PORT for IPv6). */
static void sockaddr_out(const struct nl_attrs *tb, int attr, const char *key)
{
	const struct nlattr *a = tb->a[attr];
	struct sockaddr_in6 sin6;
	struct sockaddr_in sin;
	char ip[INET6_ADDRSTRLEN], buf[INET6_ADDRSTRLEN + 10];

	if (!a)
		return;
	if (nl_len(a) == sizeof(sin)) {
		memcpy(&sin, nl_data(a), sizeof(sin));
		inet_ntop(AF_INET, &sin.sin_addr, ip, sizeof(ip));
		snprintf(buf, sizeof(buf), "%s:%u", ip, ntohs(sin.sin_port));
	} else if (nl_len(a) == sizeof(sin6)) {
		memcpy(&sin6, nl_data(a), sizeof(sin6));
		inet_ntop(AF_INET6, &sin6.sin6_addr, ip, sizeof(ip));
		snprintf(buf, sizeof(buf), "[%s]:%u", ip, ntohs(sin6.sin6_port));
	} else {
		return;
	}
	out_str(key, buf);
}

/* An RDMA CM id's: state, port space, QP type, port, QP number, addresses, listening. */
static void print_cm_id(const struct nl_attrs *tb)
{
	if (tb->a[OIB_NL_ATTR_RES_CM_STATE])
		out_str("state", nl_str(tb->a[OIB_NL_ATTR_RES_CM_STATE]));
	if (tb->a[OIB_NL_ATTR_RES_PS])
		out_str("ps", port_space(nl_u32(tb->a[OIB_NL_ATTR_RES_PS])));
	if (tb->a[OIB_NL_ATTR_RES_QP_TYPE])
		out_str("type", NAME_OF(qp_types, nl_u8(tb->a[OIB_NL_ATTR_RES_QP_TYPE])));
	opt_u32(tb, OIB_NL_ATTR_PORT, "port");
	opt_u32(tb, OIB_NL_ATTR_RES_QPN, "qpn");
	sockaddr_out(tb, OIB_NL_ATTR_RES_SRC_ADDR, "src");
	sockaddr_out(tb, OIB_NL_ATTR_RES_DST_ADDR, "dst");
	if (tb->a[OIB_NL_ATTR_RES_LISTEN])
		out_str("listen", "yes");
}

static int print_res(const struct nlmsghdr *nlh, void *arg)
{
	const char *dev;
	struct nl_attrs tb;
	uint8_t kind;

	(void)arg;
	nl_parse_msg(nlh, &tb);
	kind = nl_u8(tb.a[OIB_NL_ATTR_RES_TYPE]);
	/* an RDMA CM id bound to no device yet (a wildcard listener) has none */
	dev = tb.a[OIB_NL_ATTR_DEV_NAME] ? nl_str(tb.a[OIB_NL_ATTR_DEV_NAME]) : "-";
	out_record("dev %s %s %u", dev, NAME_OF(kinds, kind), nl_u32(tb.a[OIB_NL_ATTR_RES_ID]));
	if (opts.json) {
		out_str("dev", dev);
		out_str("kind", NAME_OF(kinds, kind));
		out_uint("id", nl_u32(tb.a[OIB_NL_ATTR_RES_ID]));
	}
	if (kind == OIB_NL_RES_CM_ID) {
		print_cm_id(&tb);
		goto owner;
	}
	opt_u32(&tb, OIB_NL_ATTR_RES_QPN, "qpn");
	if (tb.a[OIB_NL_ATTR_RES_QP_TYPE])
		out_str("type", NAME_OF(qp_types, nl_u8(tb.a[OIB_NL_ATTR_RES_QP_TYPE])));
	if (tb.a[OIB_NL_ATTR_RES_STATE])
		out_str("state", NAME_OF(qp_states, nl_u8(tb.a[OIB_NL_ATTR_RES_STATE])));
	opt_u32(&tb, OIB_NL_ATTR_PORT, "port");
	if (tb.a[OIB_NL_ATTR_RES_SRQ_TYPE])
		out_str("type", NAME_OF(srq_types, nl_u8(tb.a[OIB_NL_ATTR_RES_SRQ_TYPE])));
	opt_u32(&tb, OIB_NL_ATTR_RES_SRQN, "srqn");
	opt_u32(&tb, OIB_NL_ATTR_RES_CQE, "cqe");
	if (tb.a[OIB_NL_ATTR_RES_POLL_CTX])
		out_str("poll", NAME_OF(poll_ctxs, nl_u8(tb.a[OIB_NL_ATTR_RES_POLL_CTX])));
	if (opts.details)
		opt_u32(&tb, OIB_NL_ATTR_RES_COMP_VECTOR, "comp_vector");
	hex(&tb, OIB_NL_ATTR_RES_LKEY, "lkey", false);
	hex(&tb, OIB_NL_ATTR_RES_RKEY, "rkey", false);
	if (opts.details)
		hex(&tb, OIB_NL_ATTR_RES_IOVA, "iova", true);
	if (tb.a[OIB_NL_ATTR_RES_LENGTH]) {
		uint64_t len = nl_u64(tb.a[OIB_NL_ATTR_RES_LENGTH]);

		if (len == UINT64_MAX && !opts.json)
			out_str("length", "all");
		else
			out_uint("length", len);
	}
	opt_u32(&tb, OIB_NL_ATTR_RES_USERS, "users");
	opt_u32(&tb, OIB_NL_ATTR_RES_PD, "pd");
owner:
	if (tb.a[OIB_NL_ATTR_RES_PID]) {
		out_uint("pid", nl_u32(tb.a[OIB_NL_ATTR_RES_PID]));
		out_str("comm", nl_str(tb.a[OIB_NL_ATTR_RES_COMM]));
	} else {
		out_str("owner", nl_str(tb.a[OIB_NL_ATTR_RES_OWNER]));
	}
	out_record_end();
	return 0;
}

/* res [show] [KIND] [dev NAME]: every kind when none is named */
int do_res(struct nl *nl, struct args *a)
{
	const char *w, *dev = NULL;
	int kind = -1, k, ret = 0;
	struct nl_req req;

	while ((w = arg_next(a))) {
		if (matches(w, "show") || matches(w, "list"))
			continue;
		if (!strcmp(w, "dev")) {
			dev = arg_next(a);
			if (!dev)
				return usage_error("res: dev needs a name");
			continue;
		}
		for (k = 0; k < OIB_NL_RES_MAX; k++)
			if (!strcmp(w, kinds[k]))
				kind = k;
		if (kind < 0 || strcmp(w, kinds[kind]))
			return usage_error("res: unknown kind or argument %s", w);
	}
	out_begin();
	for (k = kind < 0 ? 0 : kind; k < OIB_NL_RES_MAX && !ret; k++) {
		nl_req_init(nl, &req, OIB_NL_CMD_RES_GET, NLM_F_DUMP);
		nl_put(&req, OIB_NL_ATTR_RES_TYPE, &(uint8_t){ k }, 1);
		if (dev)
			nl_put_str(&req, OIB_NL_ATTR_DEV_NAME, dev);
		ret = nl_talk(nl, &req, print_res, NULL);
		if (kind >= 0)
			break;
	}
	out_end();
	return ret ? nl_error("res show", ret) : 0;
}
