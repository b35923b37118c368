// SPDX-License-Identifier: GPL-2.0-only
/*
 * Addresses of received MADs: the source and destination GIDs in the 40 bytes in front of every
 * datagram, and the address to answer it at.  Used by the port's own agent, RMPP receiving and
 * oib_mad_create_resp_ah(); calls nothing of the layer's.
 */
#include <linux/build_bug.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ipv6.h>
#include "mad_priv.h"

static struct in6_addr *mad_gid_in6(union oib_gid *gid)
{
	static_assert(sizeof(*gid) == sizeof(struct in6_addr));
	return (struct in6_addr *)gid->raw;
}

/*
 * The source and destination GIDs of a received datagram.  The 40 bytes in front of the payload
 * hold its IPv6 header, or (RoCEv2 over IPv4) its IPv4 header in their last 20 bytes, whose
 * addresses make IPv4-mapped GIDs.  Copied out: @grh need not be aligned.
 */
int mad_grh_gids(const u8 *grh, union oib_gid *sgid, union oib_gid *dgid)
{
	struct ipv6hdr ip6;
	struct iphdr ip4;

	static_assert(sizeof(ip6) == OIB_MAD_GRH_SIZE);
	memcpy(&ip6, grh, sizeof(ip6));
	if (ip6.version == 6) {
		*mad_gid_in6(sgid) = ip6.saddr;
		*mad_gid_in6(dgid) = ip6.daddr;
		return 0;
	}
	memcpy(&ip4, grh + OIB_MAD_GRH_SIZE - sizeof(ip4), sizeof(ip4));
	if (ip4.version == 4) {
		ipv6_addr_set_v4mapped(ip4.saddr, mad_gid_in6(sgid));
		ipv6_addr_set_v4mapped(ip4.daddr, mad_gid_in6(dgid));
		return 0;
	}
	return -EINVAL;
}

/* Where a received datagram came from, as an address to answer it at. */
int mad_ah_attr_from_grh(struct mad_port *port, const u8 *grh, struct oib_ah_attr *attr)
{
	union oib_gid sgid, dgid;
	u32 gid_port, index;

	memset(attr, 0, sizeof(*attr));
	if (mad_grh_gids(grh, &sgid, &dgid))
		return -EINVAL;
	attr->port_num = port->port_num;
	attr->flags = OIB_AH_GRH;
	attr->grh.dgid = sgid;
	attr->grh.hop_limit = 64;
	if (!oib_find_gid(port->device, &dgid, &gid_port, &index) && gid_port == port->port_num)
		attr->grh.sgid_index = index;
	return 0;
}
