// SPDX-License-Identifier: GPL-2.0-only
/* oib(8): generic netlink on a plain socket. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include "nl.h"

#define NL_DATA(nlh)	((char *)(nlh) + NLMSG_HDRLEN + GENL_HDRLEN)

static int nl_resolve(struct nl *nl);

int nl_open(struct nl *nl)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		return -errno;
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto err;
	/* the kernel's error messages, and errors without the request copied back */
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->seq = getpid();
	if (nl_resolve(nl))
		goto err_family;
	return 0;
err:
	close(nl->fd);
	return -errno;
err_family:
	close(nl->fd);
	return -ENOENT;
}

void nl_close(struct nl *nl)
{
	close(nl->fd);
}

static void nl_req_start(struct nl *nl, struct nl_req *req, uint16_t family, uint8_t cmd,
			 uint8_t version, uint16_t flags)
{
	struct genlmsghdr *g;

	memset(req->raw, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	req->nlh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	req->nlh.nlmsg_type = family;
	req->nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	req->nlh.nlmsg_seq = ++nl->seq;
	g = (struct genlmsghdr *)(req->raw + NLMSG_HDRLEN);
	g->cmd = cmd;
	g->version = version;
}

void nl_req_init(struct nl *nl, struct nl_req *req, uint8_t cmd, uint16_t flags)
{
	nl_req_start(nl, req, nl->family, cmd, OIB_NL_FAMILY_VERSION, flags);
}

void nl_put(struct nl_req *req, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)(req->raw + NLMSG_ALIGN(req->nlh.nlmsg_len));
	size_t room = sizeof(req->raw) - NLMSG_ALIGN(req->nlh.nlmsg_len);

	if (NLA_HDRLEN + NLA_ALIGN(len) > room)
		return;		/* requests are small: never */
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	memset((char *)a + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	req->nlh.nlmsg_len = NLMSG_ALIGN(req->nlh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

void nl_put_str(struct nl_req *req, uint16_t type, const char *s)
{
	nl_put(req, type, s, strlen(s) + 1);
}

void nl_put_u32(struct nl_req *req, uint16_t type, uint32_t v)
{
	nl_put(req, type, &v, sizeof(v));
}

/*
 * The extack of an error, if the kernel sent one: its message, the attribute it missed.  @off:
 * where its attributes start, after an error's header and request or a dump's DONE code.
 */
static void nl_print_extack(const struct nlmsghdr *nlh, size_t off)
{
	const struct nlattr *a;
	size_t end = nlh->nlmsg_len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	while (off + NLA_HDRLEN <= end) {
		a = (const void *)((const char *)nlh + off);
		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > end)
			return;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG)
			fprintf(stderr, "kernel: %.*s\n", (int)strnlen(nl_data(a), nl_len(a)),
				(const char *)nl_data(a));
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MISS_TYPE)
			fprintf(stderr, "kernel: missing attribute %u\n", nl_u32(a));
		off += NLA_ALIGN(a->nla_len);
	}
}

/* Read until the answer to @seq ends: 0, -errno, or @cb's negative return. */
static int nl_recv(struct nl *nl, uint32_t seq, nl_cb cb, void *arg)
{
	const struct nlmsghdr *nlh;
	int ret = 0, len;

	for (;;) {
		len = recv(nl->fd, nl->buf, sizeof(nl->buf), 0);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (nlh = (void *)nl->buf; NLMSG_OK(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_DONE) {
				int err = 0;

				if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(err))
					memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
				if (err < 0)
					nl_print_extack(nlh, NLMSG_HDRLEN + sizeof(err));
				return ret ?: (err < 0 ? err : 0);
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *err = NLMSG_DATA(nlh);

				size_t off = NLMSG_HDRLEN + sizeof(*err);

				if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
					off += err->msg.nlmsg_len - NLMSG_HDRLEN;
				if (err->error)
					nl_print_extack(nlh, off);
				return ret ?: err->error;
			}
			if (cb && !ret && nlh->nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN)
				ret = cb(nlh, arg);
			if (!(nlh->nlmsg_flags & NLM_F_MULTI) && ret)
				return ret;
		}
	}
}

int nl_talk(struct nl *nl, struct nl_req *req, nl_cb cb, void *arg)
{
	if (send(nl->fd, req->raw, req->nlh.nlmsg_len, 0) < 0)
		return -errno;
	return nl_recv(nl, req->nlh.nlmsg_seq, cb, arg);
}

void nl_parse(const void *data, size_t len, struct nl_attrs *tb)
{
	const struct nlattr *a = data;

	memset(tb, 0, sizeof(*tb));
	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len) {
		uint16_t type = a->nla_type & NLA_TYPE_MASK;

		if (type <= OIB_NL_ATTR_MAX)
			tb->a[type] = a;
		if (NLA_ALIGN(a->nla_len) >= len)
			break;
		len -= NLA_ALIGN(a->nla_len);
		a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len));
	}
}

void nl_parse_msg(const struct nlmsghdr *nlh, struct nl_attrs *tb)
{
	nl_parse(NL_DATA(nlh), nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, tb);
}

const void *nl_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

size_t nl_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

uint32_t nl_u32(const struct nlattr *a)
{
	uint32_t v = 0;

	if (a && nl_len(a) >= sizeof(v))
		memcpy(&v, nl_data(a), sizeof(v));
	return v;
}

uint8_t nl_u8(const struct nlattr *a)
{
	return a && nl_len(a) >= 1 ? *(const uint8_t *)nl_data(a) : 0;
}

uint64_t nl_u64(const struct nlattr *a)
{
	uint64_t v = 0;

	if (a && nl_len(a) >= sizeof(v))
		memcpy(&v, nl_data(a), sizeof(v));
	return v;
}

/* A string attribute, or "" when absent or not terminated. */
const char *nl_str(const struct nlattr *a)
{
	if (!a || !nl_len(a) || ((const char *)nl_data(a))[nl_len(a) - 1])
		return "";
	return nl_data(a);
}

/* ---- The controller: the family's id and its event group's ---- */

static int nl_ctrl_group(const struct nlattr *groups, struct nl *nl)
{
	const struct nlattr *g, *a;

	nl_for_each_nested(g, groups) {
		const struct nlattr *name = NULL, *id = NULL;

		nl_for_each_nested(a, g) {
			if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GRP_NAME)
				name = a;
			if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GRP_ID)
				id = a;
		}
		if (name && id && !strcmp(nl_str(name), OIB_NL_MCGRP_EVENTS))
			nl->events_group = nl_u32(id);
	}
	return 0;
}

static int nl_ctrl_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nl *nl = arg;
	const struct nlattr *a = (const void *)NL_DATA(nlh);
	int len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;

	/* CTRL_ATTR_* numbers go beyond this family's table: walk them by hand */
	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len) {
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			nl->family = *(const uint16_t *)nl_data(a);
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GROUPS)
			nl_ctrl_group(a, nl);
		len -= NLA_ALIGN(a->nla_len);
		a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len));
	}
	return 0;
}

static int nl_resolve(struct nl *nl)
{
	struct nl_req req;

	nl_req_start(nl, &req, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	nl_put_str(&req, CTRL_ATTR_FAMILY_NAME, OIB_NL_FAMILY_NAME);
	if (nl_talk(nl, &req, nl_ctrl_cb, nl) || !nl->family)
		return -1;
	return 0;
}

int nl_subscribe(struct nl *nl)
{
	if (!nl->events_group)
		return -ENOENT;
	if (setsockopt(nl->fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &nl->events_group,
		       sizeof(nl->events_group)) < 0)
		return -errno;
	return 0;
}

/* Read event messages for ever, calling @cb for each: returns only on an error. */
int nl_recv_events(struct nl *nl, nl_cb cb, void *arg)
{
	const struct nlmsghdr *nlh;
	int len, ret;

	for (;;) {
		len = recv(nl->fd, nl->buf, sizeof(nl->buf), 0);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (nlh = (void *)nl->buf; NLMSG_OK(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
			if (nlh->nlmsg_type != nl->family ||
			    nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
				continue;
			ret = cb(nlh, arg);
			if (ret)
				return ret;
		}
	}
}
