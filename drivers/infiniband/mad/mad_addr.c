// SPDX-License-Identifier: GPL-2.0-only
/*
 * Addresses of received MADs: the source and destination GIDs in the 40 bytes in front of every
 * datagram, and the address to answer it at.  Used by the port's own agent, RMPP receiving and
 * oib_mad_create_resp_ah(); calls nothing of the layer's.
 */
#include "mad_priv.h"

/*
 * The source and destination GIDs of a received datagram.  The 40 bytes in front of the payload
 * hold the IPv6 header, or for IPv4 the IPv4 header in their last 20 bytes.
 */
int mad_grh_gids(const u8 *grh, union oib_gid *sgid, union oib_gid *dgid)
{
	if ((grh[0] >> 4) == 6) {
		memcpy(sgid, grh + 8, sizeof(*sgid));
		memcpy(dgid, grh + 24, sizeof(*dgid));
	} else if ((grh[20] >> 4) == 4) {
		memset(sgid, 0, sizeof(*sgid));
		memset(dgid, 0, sizeof(*dgid));
		sgid->raw[10] = 0xff;
		sgid->raw[11] = 0xff;
		dgid->raw[10] = 0xff;
		dgid->raw[11] = 0xff;
		memcpy(&sgid->raw[12], grh + 20 + 12, 4);
		memcpy(&dgid->raw[12], grh + 20 + 16, 4);
	} else {
		return -EINVAL;
	}
	return 0;
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
