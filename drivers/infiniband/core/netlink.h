/* SPDX-License-Identifier: GPL-2.0-only */
/* oib_core's netlink family, between its files (netlink*.c). */
#ifndef OIB_CORE_NETLINK_H
#define OIB_CORE_NETLINK_H

#include <net/genetlink.h>
#include <uapi/oib/netlink.h>
#include <oib/link.h>

extern struct genl_family oib_nl_family;
extern const struct nla_policy oib_nl_port_policy[OIB_NL_ATTR_MAX + 1];
extern const struct nla_policy oib_nl_res_policy[OIB_NL_ATTR_MAX + 1];
extern const struct nla_policy oib_nl_stat_policy[OIB_NL_ATTR_MAX + 1];

void *oib_nl_put_hdr(struct sk_buff *skb, u32 portid, u32 seq, int flags, u8 cmd);
int oib_nl_fill_dev(struct sk_buff *skb, struct oib_device *device);
int oib_nl_fill_port(struct sk_buff *skb, struct oib_device *device, u32 port);
const struct oib_link_ops *oib_link_of(struct oib_device *device);
void oib_link_put(const struct oib_link_ops *ops);
struct oib_device *oib_nl_device(struct genl_info *info);

int oib_nl_dev_get(struct sk_buff *skb, struct genl_info *info);
int oib_nl_dev_dump(struct sk_buff *skb, struct netlink_callback *cb);
int oib_nl_port_get(struct sk_buff *skb, struct genl_info *info);
int oib_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb);
int oib_nl_link_new(struct sk_buff *skb, struct genl_info *info);
int oib_nl_link_del(struct sk_buff *skb, struct genl_info *info);
int oib_nl_addr_new(struct sk_buff *skb, struct genl_info *info);
int oib_nl_addr_del(struct sk_buff *skb, struct genl_info *info);
int oib_nl_res_dump(struct sk_buff *skb, struct netlink_callback *cb);
int oib_nl_stat_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* OIB_CORE_NETLINK_H */
