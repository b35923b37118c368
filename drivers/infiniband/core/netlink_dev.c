// SPDX-License-Identifier: GPL-2.0-only
/*
 * The family's views of what is there: a device (DEV_GET) and a port (PORT_GET), one answered or
 * all dumped.  A dump walks the registry by device index and holds a user of each device only
 * while it writes the device's messages, so devices come and go freely meanwhile: a dump lists
 * each device registered for all of it once, and any other at most once.
 */
#include <linux/netdevice.h>
#include <net/genetlink.h>
#include "core_priv.h"
#include "netlink.h"

int oib_nl_fill_dev(struct sk_buff *skb, struct oib_device *device)
{
	char type[16];

	if (nla_put_u32(skb, OIB_NL_ATTR_DEV_INDEX, device->index) ||
	    nla_put_string(skb, OIB_NL_ATTR_DEV_NAME, oib_dev_name(device)) ||
	    nla_put_u8(skb, OIB_NL_ATTR_NODE_TYPE, device->node_type) ||
	    nla_put_be64(skb, OIB_NL_ATTR_NODE_GUID, device->node_guid, OIB_NL_ATTR_PAD) ||
	    nla_put_be64(skb, OIB_NL_ATTR_SYS_IMAGE_GUID, device->attrs.sys_image_guid,
			 OIB_NL_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, OIB_NL_ATTR_FW_VER, device->attrs.fw_ver, OIB_NL_ATTR_PAD) ||
	    nla_put_u32(skb, OIB_NL_ATTR_PORT_COUNT, device->phys_port_cnt))
		return -EMSGSIZE;
	if (oib_link_type_name(device, type, sizeof(type)) &&
	    nla_put_string(skb, OIB_NL_ATTR_LINK_TYPE, type))
		return -EMSGSIZE;
	return 0;
}

static int oib_nl_fill_gids(struct sk_buff *skb, struct oib_device *device, u32 port, u32 len)
{
	struct nlattr *table, *entry;
	enum oib_gid_type type;
	union oib_gid gid;
	u32 i;

	table = nla_nest_start(skb, OIB_NL_ATTR_GID_TABLE);
	if (!table)
		return -EMSGSIZE;
	for (i = 0; i < len; i++) {
		if (oib_query_gid(device, port, i, &gid, &type))
			continue;
		entry = nla_nest_start(skb, OIB_NL_ATTR_GID_ENTRY);
		if (!entry || nla_put_u32(skb, OIB_NL_ATTR_GID_INDEX, i) ||
		    nla_put(skb, OIB_NL_ATTR_GID, sizeof(gid.raw), gid.raw) ||
		    nla_put_u8(skb, OIB_NL_ATTR_GID_TYPE, type))
			return -EMSGSIZE;
		nla_nest_end(skb, entry);
	}
	nla_nest_end(skb, table);
	return 0;
}

static int oib_nl_fill_netdev(struct sk_buff *skb, struct oib_device *device, u32 port)
{
	const struct oib_link_ops *link = oib_link_of(device);
	char name[IFNAMSIZ];
	int ifindex, ret = 0;

	if (!link)
		return 0;
	if (link->port_netdev && !link->port_netdev(device, port, name, &ifindex) &&
	    (nla_put_string(skb, OIB_NL_ATTR_NETDEV, name) ||
	     nla_put_u32(skb, OIB_NL_ATTR_NETDEV_INDEX, ifindex)))
		ret = -EMSGSIZE;
	oib_link_put(link);
	return ret;
}

int oib_nl_fill_port(struct sk_buff *skb, struct oib_device *device, u32 port)
{
	struct oib_port_attr attr;
	int ret;

	ret = oib_query_port(device, port, &attr);
	if (ret)
		return ret;
	if (nla_put_u32(skb, OIB_NL_ATTR_DEV_INDEX, device->index) ||
	    nla_put_string(skb, OIB_NL_ATTR_DEV_NAME, oib_dev_name(device)) ||
	    nla_put_u32(skb, OIB_NL_ATTR_PORT, port) ||
	    nla_put_u8(skb, OIB_NL_ATTR_PORT_STATE, attr.state) ||
	    nla_put_u8(skb, OIB_NL_ATTR_PORT_PHYS_STATE, attr.phys_state) ||
	    nla_put_u8(skb, OIB_NL_ATTR_LINK_LAYER, attr.link_layer) ||
	    nla_put_u32(skb, OIB_NL_ATTR_MAX_MTU, max(oib_mtu_to_int(attr.max_mtu), 0)) ||
	    nla_put_u32(skb, OIB_NL_ATTR_ACTIVE_MTU, max(oib_mtu_to_int(attr.active_mtu), 0)))
		return -EMSGSIZE;
	ret = oib_nl_fill_netdev(skb, device, port);
	return ret ?: oib_nl_fill_gids(skb, device, port, attr.gid_tbl_len);
}

/* The device a request names, with a user held; NULL with the reason in extack. */
struct oib_device *oib_nl_device(struct genl_info *info)
{
	struct oib_device *device;

	if (GENL_REQ_ATTR_CHECK(info, OIB_NL_ATTR_DEV_NAME))
		return NULL;
	device = oib_device_get_by_name(nla_data(info->attrs[OIB_NL_ATTR_DEV_NAME]));
	if (!device)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[OIB_NL_ATTR_DEV_NAME],
				    "no such device");
	return device;
}

/* Answer a request for one object: @port 0 is the device. */
static int oib_nl_reply(struct genl_info *info, struct oib_device *device, u32 port)
{
	struct sk_buff *msg;
	void *hdr;
	int ret;

	msg = nlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = oib_nl_put_hdr(msg, info->snd_portid, info->snd_seq, 0, info->genlhdr->cmd);
	ret = -EMSGSIZE;
	if (hdr)
		ret = port ? oib_nl_fill_port(msg, device, port) : oib_nl_fill_dev(msg, device);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int oib_nl_dev_get(struct sk_buff *skb, struct genl_info *info)
{
	struct oib_device *device = oib_nl_device(info);
	int ret;

	if (!device)
		return info->attrs[OIB_NL_ATTR_DEV_NAME] ? -ENODEV : -EINVAL;
	ret = oib_nl_reply(info, device, 0);
	oib_device_put(device);
	return ret;
}

int oib_nl_port_get(struct sk_buff *skb, struct genl_info *info)
{
	struct oib_device *device;
	u32 port;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, OIB_NL_ATTR_PORT))
		return -EINVAL;
	device = oib_nl_device(info);
	if (!device)
		return info->attrs[OIB_NL_ATTR_DEV_NAME] ? -ENODEV : -EINVAL;
	port = nla_get_u32(info->attrs[OIB_NL_ATTR_PORT]);
	ret = -EINVAL;
	if (oib_port_valid(device, port))
		ret = oib_nl_reply(info, device, port);
	else
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[OIB_NL_ATTR_PORT],
				    "the device has no such port");
	oib_device_put(device);
	return ret;
}

/* One dump message about @device (@port 0) or one of its ports. */
static int oib_nl_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
			   struct oib_device *device, u32 port)
{
	void *hdr;
	int ret;

	hdr = oib_nl_put_hdr(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, NLM_F_MULTI,
			     port ? OIB_NL_CMD_PORT_GET : OIB_NL_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	ret = port ? oib_nl_fill_port(skb, device, port) : oib_nl_fill_dev(skb, device);
	if (ret) {
		genlmsg_cancel(skb, hdr);
		return ret;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* cb->args[0]: the index of the next device to list. */
int oib_nl_dev_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long index = cb->args[0];
	struct oib_device *device;
	int ret = 0;

	while ((device = oib_device_next(&index))) {
		ret = oib_nl_dump_one(skb, cb, device, 0);
		oib_device_put(device);
		if (ret)
			break;
		index++;
	}
	cb->args[0] = index;
	/* a message that does not fit an empty buffer would never fit */
	return ret == -EMSGSIZE && skb->len ? skb->len : ret ?: skb->len;
}

/*
 * cb->args[0]: the index of the device, cb->args[1]: the next port of it to list.  A request may
 * name a device: its ports only (cb->args[2]: whether it was found; a dump that never finds it
 * fails with -ENODEV).
 */
int oib_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *tb[OIB_NL_ATTR_MAX + 1];
	struct oib_device *device = NULL;
	unsigned long index = cb->args[0];
	u32 port = cb->args[1] ?: 1;
	const char *only = NULL;
	int ret;

	ret = nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, OIB_NL_ATTR_MAX,
			  oib_nl_port_policy, cb->extack);
	if (ret)
		return ret;
	if (tb[OIB_NL_ATTR_DEV_NAME])
		only = nla_data(tb[OIB_NL_ATTR_DEV_NAME]);
	while ((device = oib_device_next(&index))) {
		if (index != cb->args[0])	/* not the device the last pass stopped in */
			port = 1;
		if (only && strcmp(only, oib_dev_name(device)))
			port = device->phys_port_cnt + 1;
		else if (only)
			cb->args[2] = 1;
		for (; port <= device->phys_port_cnt; port++) {
			ret = oib_nl_dump_one(skb, cb, device, port);
			if (ret)
				break;
		}
		oib_device_put(device);
		if (ret)
			break;
		index++;
		port = 1;
	}
	cb->args[0] = index;
	cb->args[1] = port;
	if (!device && only && !cb->args[2]) {
		NL_SET_ERR_MSG_ATTR(cb->extack, tb[OIB_NL_ATTR_DEV_NAME], "no such device");
		return -ENODEV;
	}
	return ret == -EMSGSIZE && skb->len ? skb->len : ret ?: skb->len;
}
