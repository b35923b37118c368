// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "oib" generic netlink family (<uapi/oib/netlink.h>, Documentation/netlink.md): its
 * operations, each with its own strict attribute policy, and its multicast group of device and
 * port notifications (a port up, down, or its GIDs changed).  The handlers are in netlink_dev.c
 * (what is there) and netlink_link.c (what makes and removes it).  The family runs its
 * operations in parallel: each takes the locks of what it touches, as every other caller of the
 * core does.
 */
#include <linux/if.h>
#include <linux/module.h>
#include <net/genetlink.h>
#include "core_priv.h"
#include "netlink.h"

static const struct nla_policy oib_nl_dev_policy[OIB_NL_ATTR_MAX + 1] = {
	[OIB_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING, .len = OIB_NL_NAME_MAX - 1 },
};

const struct nla_policy oib_nl_port_policy[OIB_NL_ATTR_MAX + 1] = {
	[OIB_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING, .len = OIB_NL_NAME_MAX - 1 },
	[OIB_NL_ATTR_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
};

static const struct nla_policy oib_nl_link_new_policy[OIB_NL_ATTR_MAX + 1] = {
	[OIB_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING, .len = OIB_NL_NAME_MAX - 1 },
	[OIB_NL_ATTR_LINK_TYPE] = { .type = NLA_NUL_STRING, .len = 15 },
	[OIB_NL_ATTR_NETDEV] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[OIB_NL_ATTR_PORT_COUNT] = NLA_POLICY_RANGE(NLA_U32, 0, 255),
};

static const struct nla_policy oib_nl_link_del_policy[OIB_NL_ATTR_MAX + 1] = {
	[OIB_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING, .len = OIB_NL_NAME_MAX - 1 },
};

static const struct nla_policy oib_nl_addr_policy[OIB_NL_ATTR_MAX + 1] = {
	[OIB_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING, .len = OIB_NL_NAME_MAX - 1 },
	[OIB_NL_ATTR_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
	[OIB_NL_ATTR_ADDR] = NLA_POLICY_EXACT_LEN(16),
};

const struct nla_policy oib_nl_res_policy[OIB_NL_ATTR_MAX + 1] = {
	[OIB_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING, .len = OIB_NL_NAME_MAX - 1 },
	[OIB_NL_ATTR_RES_TYPE] = NLA_POLICY_MAX(NLA_U8, OIB_NL_RES_MAX - 1),
};

const struct nla_policy oib_nl_stat_policy[OIB_NL_ATTR_MAX + 1] = {
	[OIB_NL_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING, .len = OIB_NL_NAME_MAX - 1 },
};

static const struct genl_ops oib_nl_ops[] = {
	{
		.cmd = OIB_NL_CMD_DEV_GET,
		.doit = oib_nl_dev_get,
		.dumpit = oib_nl_dev_dump,
		.policy = oib_nl_dev_policy,
		.maxattr = OIB_NL_ATTR_MAX,
	},
	{
		.cmd = OIB_NL_CMD_PORT_GET,
		.doit = oib_nl_port_get,
		.dumpit = oib_nl_port_dump,
		.policy = oib_nl_port_policy,
		.maxattr = OIB_NL_ATTR_MAX,
	},
	{
		.cmd = OIB_NL_CMD_LINK_NEW,
		.doit = oib_nl_link_new,
		.policy = oib_nl_link_new_policy,
		.maxattr = OIB_NL_ATTR_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = OIB_NL_CMD_LINK_DEL,
		.doit = oib_nl_link_del,
		.policy = oib_nl_link_del_policy,
		.maxattr = OIB_NL_ATTR_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = OIB_NL_CMD_ADDR_NEW,
		.doit = oib_nl_addr_new,
		.policy = oib_nl_addr_policy,
		.maxattr = OIB_NL_ATTR_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = OIB_NL_CMD_ADDR_DEL,
		.doit = oib_nl_addr_del,
		.policy = oib_nl_addr_policy,
		.maxattr = OIB_NL_ATTR_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = OIB_NL_CMD_RES_GET,
		.dumpit = oib_nl_res_dump,
		.policy = oib_nl_res_policy,
		.maxattr = OIB_NL_ATTR_MAX,
	},
	{
		.cmd = OIB_NL_CMD_STAT_GET,
		.dumpit = oib_nl_stat_dump,
		.policy = oib_nl_stat_policy,
		.maxattr = OIB_NL_ATTR_MAX,
	},
};

static const struct genl_multicast_group oib_nl_mcgrps[] = {
	{ .name = OIB_NL_MCGRP_EVENTS },
};

/* resv_start_op 0: every operation has a policy, validated strictly, reserved header bits zero. */
struct genl_family oib_nl_family __ro_after_init = {
	.name = OIB_NL_FAMILY_NAME,
	.version = OIB_NL_FAMILY_VERSION,
	.maxattr = OIB_NL_ATTR_MAX,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = oib_nl_ops,
	.n_ops = ARRAY_SIZE(oib_nl_ops),
	.mcgrps = oib_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(oib_nl_mcgrps),
};

/* Whether the family is registered: notifications before and after it are dropped. */
static bool oib_nl_up;

int oib_nl_init(void)
{
	int ret = genl_register_family(&oib_nl_family);

	WRITE_ONCE(oib_nl_up, !ret);
	return ret;
}

void oib_nl_exit(void)
{
	WRITE_ONCE(oib_nl_up, false);
	genl_unregister_family(&oib_nl_family);
}

/* Start a message of @cmd in @skb; NULL when it does not fit. */
void *oib_nl_put_hdr(struct sk_buff *skb, u32 portid, u32 seq, int flags, u8 cmd)
{
	return genlmsg_put(skb, portid, seq, &oib_nl_family, flags, cmd);
}

/* Send @cmd about @device (and @port, when not 0) to the event group's listeners, if any. */
void oib_nl_notify(struct oib_device *device, u32 port, u8 cmd)
{
	struct sk_buff *skb;
	void *hdr;
	int ret;

	if (!READ_ONCE(oib_nl_up) || !genl_has_listeners(&oib_nl_family, &init_net, 0))
		return;
	skb = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = oib_nl_put_hdr(skb, 0, 0, 0, cmd);
	if (!hdr)
		goto free;
	ret = port ? oib_nl_fill_port(skb, device, port) : oib_nl_fill_dev(skb, device);
	if (ret)
		goto free;
	genlmsg_end(skb, hdr);
	genlmsg_multicast(&oib_nl_family, skb, 0, 0, GFP_KERNEL);
	return;
free:
	nlmsg_free(skb);
}
