// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a port's add_target is given (srp_port.c): ours, "ADDRESS PORT", or the in-tree ib_srp's
 * add_target grammar where it applies to a login over the RDMA CM:
 *   id_ext=HEX,ioc_guid=HEX,dest=IPV4:PORT|[IPV6]:PORT[,max_it_iu_size=N][,ch_count=N]
 * id_ext and ioc_guid (hexadecimal, both or neither) make the target port ID, id_ext first, as
 * T10 SRP r16a orders the halves; without them the login names "oib_srpt".  max_it_iu_size
 * caps the IU we send, at least what a command with OIB_SRP_MAX_BUFS descriptors needs.  Any
 * other option of the in-tree grammar (dgid, pkey, service_id, queue_size, ...) is refused
 * with -EINVAL and a message naming it.  ch_count (1-16) is the host's channels at most, instead
 * of the ch_count parameter's.
 */
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/net_namespace.h>
#include <kunit/visibility.h>
#include "srp_priv.h"

/* The IU a command with the most descriptors we send needs. */
#define SRP_MIN_IT_IU_SIZE						\
	(sizeof(struct oib_srp_cmd) + sizeof(struct oib_srp_indirect_buf) +	\
	 OIB_SRP_MAX_BUFS * sizeof(struct oib_srp_direct_buf))

/* "IPV4:PORT" or "[IPV6]:PORT" (the in-tree dest=). */
static int srp_parse_dest(const char *v, struct sockaddr_storage *ss)
{
	char addr[INET6_ADDRSTRLEN + 3], *port;
	size_t n = strlen(v);

	if (n >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, v, n + 1);
	port = strrchr(addr, ':');
	if (!port || strchr(port, ']'))
		return -EINVAL;
	*port++ = 0;
	if (addr[0] != '[')
		return inet_pton_with_scope(&init_net, AF_INET, addr, port, ss);
	n = strlen(addr);
	if (n < 3 || addr[n - 1] != ']')
		return -EINVAL;
	addr[n - 1] = 0;
	return inet_pton_with_scope(&init_net, AF_INET6, addr + 1, port, ss);
}

/* A half of the target port ID: 8 bytes, big-endian, from hexadecimal @v; @bit into @seen. */
static int srp_parse_half(const char *v, u8 *half, u32 *seen, u32 bit)
{
	__be64 be;
	u64 x;
	int ret = kstrtou64(v, 16, &x);

	if (ret)
		return ret;
	be = cpu_to_be64(x);
	memcpy(half, &be, sizeof(be));
	*seen |= bit;
	return 0;
}

/* One option NAME=VALUE into @s; @seen: the bits of those met (1 id_ext, 2 ioc_guid, 4 dest). */
static int srp_parse_opt(char *opt, struct srp_target_spec *s, u32 *seen)
{
	char *v = strchr(opt, '=');
	int ret;

	if (!v)
		return -EINVAL;
	*v++ = 0;
	if (!strcmp(opt, "id_ext"))
		return srp_parse_half(v, s->port_id, seen, 1);
	if (!strcmp(opt, "ioc_guid"))
		return srp_parse_half(v, s->port_id + 8, seen, 2);
	if (!strcmp(opt, "dest")) {
		*seen |= 4;
		return srp_parse_dest(v, &s->dst);
	}
	if (!strcmp(opt, "max_it_iu_size")) {
		ret = kstrtou32(v, 0, &s->it_iu_len);
		if (ret || s->it_iu_len < SRP_MIN_IT_IU_SIZE)
			return -EINVAL;
		s->it_iu_len = min_t(u32, s->it_iu_len, SRP_IT_IU_LEN);
		return 0;
	}
	if (!strcmp(opt, "ch_count")) {
		ret = kstrtou32(v, 0, &s->ch_count);
		return ret || !s->ch_count || s->ch_count > SRP_MAX_CH ? -EINVAL : 0;
	}
	pr_warn("oib_srp: target option \"%s\" is not taken here\n", opt);
	return -EINVAL;
}

static int srp_parse_opts(char *buf, struct srp_target_spec *s)
{
	u32 seen = 0;
	char *opt;
	int ret;

	memset(s->port_id, 0, sizeof(s->port_id));
	while ((opt = strsep(&buf, ",")) != NULL) {
		if (!*opt)
			continue;
		ret = srp_parse_opt(opt, s, &seen);
		if (ret)
			return ret;
	}
	if (!(seen & 4) || (seen & 3) == 1 || (seen & 3) == 2)
		return -EINVAL;
	if (!(seen & 3))
		memcpy(s->port_id, srp_target_port_id, sizeof(s->port_id));
	return 0;
}

/* Either form into @s: 0, -EINVAL, -ENOMEM. */
int srp_target_parse(const char *val, struct srp_target_spec *s)
{
	char addr[INET6_ADDRSTRLEN + 1], port[8];
	char *buf;
	int ret;

	memset(s, 0, sizeof(*s));
	s->it_iu_len = SRP_IT_IU_LEN;
	memcpy(s->port_id, srp_target_port_id, sizeof(s->port_id));
	if (!strchr(val, '=')) {
		if (sscanf(val, "%46s %7s", addr, port) != 2)
			return -EINVAL;
		return inet_pton_with_scope(&init_net, AF_UNSPEC, addr, port, &s->dst);
	}
	buf = kstrdup(val, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = srp_parse_opts(strim(buf), s);
	kfree(buf);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(srp_target_parse);
