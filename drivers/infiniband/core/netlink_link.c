// SPDX-License-Identifier: GPL-2.0-only
/*
 * Link types (<oib/link.h>) and the family's operations that make and remove devices and give
 * ports addresses: LINK_NEW, LINK_DEL, ADDR_NEW, ADDR_DEL.  A type is called with a reference on
 * its module, taken under oib_link_lock, so a provider may unregister its types at any time and
 * then unload once the calls in flight have returned.
 */
#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/genetlink.h>
#include "core_priv.h"
#include "netlink.h"

/* oib_link_lock protects oib_links, the registered link types. */
static DEFINE_MUTEX(oib_link_lock);
static LIST_HEAD(oib_links);

static struct oib_link_ops *oib_link_find_locked(const char *type,
						 const struct oib_device_ops *dev_ops)
{
	struct oib_link_ops *ops;

	lockdep_assert_held(&oib_link_lock);
	list_for_each_entry(ops, &oib_links, list)
		if ((type && !strcmp(ops->type, type)) || (dev_ops && ops->dev_ops == dev_ops))
			return ops;
	return NULL;
}

int oib_link_register(struct oib_link_ops *ops)
{
	int ret = 0;

	if (!ops || !ops->type || !*ops->type || strlen(ops->type) > 15 || !ops->dev_ops ||
	    !ops->newlink || !ops->dellink)
		return -EINVAL;
	mutex_lock(&oib_link_lock);
	if (oib_link_find_locked(ops->type, ops->dev_ops))
		ret = -EEXIST;
	else
		list_add_tail(&ops->list, &oib_links);
	mutex_unlock(&oib_link_lock);
	return ret;
}
EXPORT_SYMBOL(oib_link_register);

void oib_link_unregister(struct oib_link_ops *ops)
{
	mutex_lock(&oib_link_lock);
	list_del(&ops->list);
	mutex_unlock(&oib_link_lock);
}
EXPORT_SYMBOL(oib_link_unregister);

/* The link type named @type or owning @dev_ops, its module held; NULL if none (or unloading). */
static const struct oib_link_ops *oib_link_get(const char *type,
					       const struct oib_device_ops *dev_ops)
{
	struct oib_link_ops *ops;

	mutex_lock(&oib_link_lock);
	ops = oib_link_find_locked(type, dev_ops);
	if (ops && !try_module_get(ops->owner))
		ops = NULL;
	mutex_unlock(&oib_link_lock);
	return ops;
}

const struct oib_link_ops *oib_link_of(struct oib_device *device)
{
	return oib_link_get(NULL, device->ops);
}

void oib_link_put(const struct oib_link_ops *ops)
{
	module_put(ops->owner);
}

/* The type of @device into @buf; false when it has none (a device made otherwise). */
bool oib_link_type_name(struct oib_device *device, char *buf, size_t size)
{
	struct oib_link_ops *ops;

	mutex_lock(&oib_link_lock);
	ops = oib_link_find_locked(NULL, device->ops);
	if (ops)
		strscpy(buf, ops->type, size);
	mutex_unlock(&oib_link_lock);
	return ops;
}

/* A name the core could register as it is: no format, no path, no blanks. */
static bool oib_nl_name_ok(const char *name)
{
	const char *c;

	if (!*name)
		return false;
	for (c = name; *c; c++)
		if (*c == '%' || *c == '/' || !isgraph(*c))
			return false;
	return strcmp(name, ".") && strcmp(name, "..");
}

static int oib_nl_link_check(struct genl_info *info, const struct oib_link_ops *link,
			     const struct oib_link_params *p)
{
	struct nlattr **tb = info->attrs;
	struct oib_device *other;

	if (link->needs_netdev && !p->netdev) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[OIB_NL_ATTR_LINK_TYPE],
				    "this link type needs a netdev");
		return -EINVAL;
	}
	other = oib_device_get_by_name(p->name);
	if (other) {
		oib_device_put(other);
		NL_SET_ERR_MSG_ATTR(info->extack, tb[OIB_NL_ATTR_DEV_NAME],
				    "a device of this name exists");
		return -EEXIST;
	}
	return 0;
}

int oib_nl_link_new(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct oib_link_params p = {};
	const struct oib_link_ops *link;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, OIB_NL_ATTR_DEV_NAME) ||
	    GENL_REQ_ATTR_CHECK(info, OIB_NL_ATTR_LINK_TYPE))
		return -EINVAL;
	p.name = nla_data(tb[OIB_NL_ATTR_DEV_NAME]);
	if (!oib_nl_name_ok(p.name)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[OIB_NL_ATTR_DEV_NAME],
				    "a device name has no '%', '/' or blanks");
		return -EINVAL;
	}
	if (tb[OIB_NL_ATTR_PORT_COUNT])
		p.num_ports = nla_get_u32(tb[OIB_NL_ATTR_PORT_COUNT]);
	link = oib_link_get(nla_data(tb[OIB_NL_ATTR_LINK_TYPE]), NULL);
	if (!link) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[OIB_NL_ATTR_LINK_TYPE],
				    "unknown link type (is its module loaded?)");
		return -EOPNOTSUPP;
	}
	if (tb[OIB_NL_ATTR_NETDEV]) {
		p.netdev = dev_get_by_name(genl_info_net(info), nla_data(tb[OIB_NL_ATTR_NETDEV]));
		if (!p.netdev) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[OIB_NL_ATTR_NETDEV],
					    "no such network device");
			ret = -ENODEV;
			goto out;
		}
	}
	ret = oib_nl_link_check(info, link, &p);
	if (!ret)
		ret = link->newlink(&p, info->extack);
	if (ret == -EEXIST && !info->extack->_msg)
		NL_SET_ERR_MSG_MOD(info->extack, "the name is taken");
	if (p.netdev)
		dev_put(p.netdev);
out:
	oib_link_put(link);
	return ret;
}

int oib_nl_link_del(struct sk_buff *skb, struct genl_info *info)
{
	const struct oib_link_ops *link;
	struct oib_device *device;
	int ret;

	device = oib_nl_device(info);
	if (!device)
		return info->attrs[OIB_NL_ATTR_DEV_NAME] ? -ENODEV : -EINVAL;
	link = oib_link_of(device);
	/* removal waits for the device's users: ours goes first, the name stays the key */
	oib_device_put(device);
	if (!link) {
		NL_SET_ERR_MSG_MOD(info->extack, "the device was not made by a link type");
		return -EOPNOTSUPP;
	}
	ret = link->dellink(nla_data(info->attrs[OIB_NL_ATTR_DEV_NAME]), info->extack);
	if (ret == -ENODEV)
		NL_SET_ERR_MSG_MOD(info->extack, "no such device");
	oib_link_put(link);
	return ret;
}

static int oib_nl_addr(struct genl_info *info, bool add)
{
	struct nlattr **tb = info->attrs;
	const struct oib_link_ops *link;
	struct oib_device *device;
	union oib_gid gid;
	u32 port;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, OIB_NL_ATTR_PORT) ||
	    GENL_REQ_ATTR_CHECK(info, OIB_NL_ATTR_ADDR))
		return -EINVAL;
	device = oib_nl_device(info);
	if (!device)
		return tb[OIB_NL_ATTR_DEV_NAME] ? -ENODEV : -EINVAL;
	port = nla_get_u32(tb[OIB_NL_ATTR_PORT]);
	memcpy(gid.raw, nla_data(tb[OIB_NL_ATTR_ADDR]), sizeof(gid.raw));
	link = oib_link_of(device);
	ret = -EINVAL;
	if (!oib_port_valid(device, port)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[OIB_NL_ATTR_PORT],
				    "the device has no such port");
	} else if (!link || !link->addr) {
		NL_SET_ERR_MSG_MOD(info->extack, "the device's ports take no addresses");
		ret = -EOPNOTSUPP;
	} else {
		ret = link->addr(device, port, &gid, add, info->extack);
		if (ret == -EEXIST)
			NL_SET_ERR_MSG_MOD(info->extack, "the port has this address");
		else if (ret == -ENOENT)
			NL_SET_ERR_MSG_MOD(info->extack, "the port has no such address");
		else if (ret == -ENOSPC)
			NL_SET_ERR_MSG_MOD(info->extack, "the port's GID table is full");
	}
	if (link)
		oib_link_put(link);
	oib_device_put(device);
	return ret;
}

int oib_nl_addr_new(struct sk_buff *skb, struct genl_info *info)
{
	return oib_nl_addr(info, true);
}

int oib_nl_addr_del(struct sk_buff *skb, struct genl_info *info)
{
	return oib_nl_addr(info, false);
}
