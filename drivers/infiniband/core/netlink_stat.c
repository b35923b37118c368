// SPDX-License-Identifier: GPL-2.0-only
/*
 * STAT_GET: a dump of the counters the drivers keep (their link type's stats op): per device, a
 * message for the device's own (PORT 0) and one per port, each only when there are any.  Devices
 * are walked by index as in netlink_dev.c, a user held while one is written.
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include "core_priv.h"
#include "netlink.h"

#define OIB_NL_STATS_MAX 64

static int oib_nl_stat_put(struct sk_buff *skb, const char *const *names, const u64 *values,
			   int n)
{
	struct nlattr *table, *entry;
	int i;

	table = nla_nest_start(skb, OIB_NL_ATTR_STATS);
	if (!table)
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		entry = nla_nest_start(skb, OIB_NL_ATTR_STAT);
		if (!entry || nla_put_string(skb, OIB_NL_ATTR_STAT_NAME, names[i]) ||
		    nla_put_u64_64bit(skb, OIB_NL_ATTR_STAT_VALUE, values[i], OIB_NL_ATTR_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, entry);
	}
	nla_nest_end(skb, table);
	return 0;
}

/* The counters of @device's @port (0: the device's) as one message, if it has any. */
static int oib_nl_stat_one(struct sk_buff *skb, struct netlink_callback *cb,
			   struct oib_device *device, const struct oib_link_ops *link, u32 port,
			   u64 *values)
{
	const char *const *names;
	void *hdr;
	int n;

	n = link->stats(device, port, &names, values, OIB_NL_STATS_MAX);
	if (n <= 0)
		return 0;
	hdr = oib_nl_put_hdr(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, NLM_F_MULTI,
			     OIB_NL_CMD_STAT_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, OIB_NL_ATTR_DEV_INDEX, device->index) ||
	    nla_put_string(skb, OIB_NL_ATTR_DEV_NAME, oib_dev_name(device)) ||
	    nla_put_u32(skb, OIB_NL_ATTR_PORT, port) ||
	    oib_nl_stat_put(skb, names, values, min(n, OIB_NL_STATS_MAX))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* @device's messages from *@port on: 0 when all are in, -EMSGSIZE (*@port the next). */
static int oib_nl_stat_dev(struct sk_buff *skb, struct netlink_callback *cb,
			   struct oib_device *device, u32 *port, u64 *values)
{
	const struct oib_link_ops *link = oib_link_of(device);
	int ret = 0;

	if (!link)
		return 0;
	for (; link->stats && *port <= device->phys_port_cnt; (*port)++) {
		ret = oib_nl_stat_one(skb, cb, device, link, *port, values);
		if (ret)
			break;
	}
	oib_link_put(link);
	return ret;
}

/* cb->args: [0] the device's index, [1] its next port (0: the device), [2] the named one found. */
int oib_nl_stat_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *tb[OIB_NL_ATTR_MAX + 1];
	unsigned long index = cb->args[0];
	struct oib_device *device = NULL;
	u32 port = cb->args[1];
	const char *only = NULL;
	u64 *values;
	int ret;

	ret = nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, OIB_NL_ATTR_MAX, oib_nl_stat_policy,
			  cb->extack);
	if (ret)
		return ret;
	if (tb[OIB_NL_ATTR_DEV_NAME])
		only = nla_data(tb[OIB_NL_ATTR_DEV_NAME]);
	values = kcalloc(OIB_NL_STATS_MAX, sizeof(*values), GFP_KERNEL);
	if (!values)
		return -ENOMEM;
	while ((device = oib_device_next(&index))) {
		if (index != cb->args[0])	/* not the device the last pass stopped in */
			port = 0;
		ret = 0;
		if (!only || !strcmp(only, oib_dev_name(device))) {
			cb->args[2] |= !!only;
			ret = oib_nl_stat_dev(skb, cb, device, &port, values);
		}
		oib_device_put(device);
		if (ret)
			break;
		index++;
		port = 0;
	}
	kfree(values);
	cb->args[0] = index;
	cb->args[1] = port;
	if (!device && only && !cb->args[2]) {
		NL_SET_ERR_MSG_ATTR(cb->extack, tb[OIB_NL_ATTR_DEV_NAME], "no such device");
		return -ENODEV;
	}
	return ret == -EMSGSIZE && skb->len ? skb->len : ret ?: skb->len;
}
