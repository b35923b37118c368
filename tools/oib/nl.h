/* SPDX-License-Identifier: GPL-2.0-only */
/* oib(8): generic netlink on a plain socket: requests, answers, dumps, the event group. */
#ifndef OIB_TOOL_NL_H
#define OIB_TOOL_NL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <oib/netlink.h>

#define NL_BUF	32768

struct nl {
	int fd;
	uint16_t family;	/* the "oib" family's id */
	uint32_t events_group;	/* its event group's id; 0: none */
	uint32_t seq;
	char buf[NL_BUF];	/* received messages */
};

/* A request being built: its header, then attributes. */
struct nl_req {
	union {
		struct nlmsghdr nlh;
		char raw[4096];
	};
};

/* The attributes of a message or a nest, by type (the last of each type). */
struct nl_attrs {
	const struct nlattr *a[OIB_NL_ATTR_MAX + 1];
};

int nl_open(struct nl *nl);
void nl_close(struct nl *nl);
void nl_req_init(struct nl *nl, struct nl_req *req, uint8_t cmd, uint16_t flags);
void nl_put(struct nl_req *req, uint16_t type, const void *data, size_t len);
void nl_put_str(struct nl_req *req, uint16_t type, const char *s);
void nl_put_u32(struct nl_req *req, uint16_t type, uint32_t v);
/*
 * Send @req and read the answers, calling @cb for each message (when not NULL): 0, or the
 * kernel's -errno (its extack message printed to stderr), or @cb's negative return.
 */
typedef int (*nl_cb)(const struct nlmsghdr *nlh, void *arg);
int nl_talk(struct nl *nl, struct nl_req *req, nl_cb cb, void *arg);
int nl_subscribe(struct nl *nl);
int nl_recv_events(struct nl *nl, nl_cb cb, void *arg);

void nl_parse(const void *data, size_t len, struct nl_attrs *tb);
void nl_parse_msg(const struct nlmsghdr *nlh, struct nl_attrs *tb);
uint32_t nl_u32(const struct nlattr *a);
uint8_t nl_u8(const struct nlattr *a);
uint64_t nl_u64(const struct nlattr *a);
const char *nl_str(const struct nlattr *a);
const void *nl_data(const struct nlattr *a);
size_t nl_len(const struct nlattr *a);

#define nl_for_each_nested(pos, nest) \
	for (pos = nl_data(nest); \
	     (const char *)pos + sizeof(*pos) <= (const char *)nl_data(nest) + nl_len(nest) && \
	     pos->nla_len >= sizeof(*pos) && \
	     (const char *)pos + pos->nla_len <= (const char *)nl_data(nest) + nl_len(nest); \
	     pos = (const void *)((const char *)pos + NLA_ALIGN(pos->nla_len)))

#endif /* OIB_TOOL_NL_H */
