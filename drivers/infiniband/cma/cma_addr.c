// SPDX-License-Identifier: GPL-2.0-only
/*
 * IP addresses and RoCE: a port's IP addresses are its RoCEv2 GIDs (IPv4 as ::ffff:a.b.c.d).  A
 * source address names the port that has it; a destination resolves to the first port (devices
 * in the order they came, ports in order) that has an address of its family and reaches it
 * (oib_port_reach()).  The route is then made from the two GIDs, as the rdma_cm makes it on
 * RoCE without a subnet administrator (facts: ../shared/notes/wire-interop.md A4, B5).
 */
#include <net/ipv6.h>
#include "cma_priv.h"

#define CMA_PACKET_LIFE_TIME	16	/* the rdma_cm's default: 268 ms */
#define CMA_DEFAULT_HOP_LIMIT	64

int cma_addr_len(const struct sockaddr *sa)
{
	switch (sa->sa_family) {
	case AF_INET:
		return sizeof(struct sockaddr_in);
	case AF_INET6:
		return sizeof(struct sockaddr_in6);
	}
	return 0;
}

/* 0 for an IPv4 or IPv6 address; -EAFNOSUPPORT for another family, -EINVAL for NULL. */
int cma_addr_valid(const struct sockaddr *sa)
{
	if (!sa)
		return -EINVAL;
	return cma_addr_len(sa) ? 0 : -EAFNOSUPPORT;
}

bool cma_addr_any(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ((const struct sockaddr_in *)sa)->sin_addr.s_addr == htonl(INADDR_ANY);
	return ipv6_addr_any(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

u16 cma_addr_port(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)sa)->sin_port);
	return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
}

void cma_addr_set_port(struct sockaddr *sa, u16 port)
{
	if (sa->sa_family == AF_INET)
		((struct sockaddr_in *)sa)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)sa)->sin6_port = htons(port);
}

/* The same family and address (ports aside). */
bool cma_addr_equal(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return ipv6_addr_equal(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr);
}

void cma_addr_to_gid(const struct sockaddr *sa, union oib_gid *gid)
{
	if (sa->sa_family == AF_INET)
		ipv6_addr_set_v4mapped(((const struct sockaddr_in *)sa)->sin_addr.s_addr,
				       &gid->in6);
	else
		gid->in6 = ((const struct sockaddr_in6 *)sa)->sin6_addr;
}

/* @gid as an address of @family (the port left 0); false if it is not one. */
static bool cma_gid_to_addr(const union oib_gid *gid, int family, struct sockaddr_storage *ss)
{
	bool v4 = ipv6_addr_v4mapped(&gid->in6);

	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET && v4) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = gid->in6.s6_addr32[3];
		return true;
	}
	if (family == AF_INET6 && !v4) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = gid->in6;
		return true;
	}
	return false;
}

/* The device and port that have @src; -EADDRNOTAVAIL if none.  Under cma_lock. */
int cma_find_src(struct oib_device **device, u32 *port, const struct sockaddr *src)
{
	union oib_gid gid;
	struct cma_dev *cdev;

	lockdep_assert_held(&cma_lock);
	cma_addr_to_gid(src, &gid);
	list_for_each_entry(cdev, &cma_devices, entry) {
		if (!cdev->removing && !oib_find_gid(cdev->device, &gid, port, NULL)) {
			*device = cdev->device;
			return 0;
		}
	}
	return -EADDRNOTAVAIL;
}

/*
 * An address of @port of the family of @dst to send to it from: a link-local one for a
 * link-local IPv6 destination, else any other.  -EADDRNOTAVAIL if it has none.
 */
static int cma_port_src(struct oib_device *device, u32 port, const struct sockaddr *dst,
			struct sockaddr_storage *src)
{
	const struct oib_port_immutable *imm = oib_port_immutable(device, port);
	bool want_ll = dst->sa_family == AF_INET6 &&
		       ipv6_addr_type(&((const struct sockaddr_in6 *)dst)->sin6_addr) &
		       IPV6_ADDR_LINKLOCAL;
	enum oib_gid_type type;
	union oib_gid gid;
	u32 i;

	for (i = 0; imm && i < imm->gid_tbl_len; i++) {
		if (oib_query_gid(device, port, i, &gid, &type) || type != OIB_GID_TYPE_ROCE_V2 ||
		    !cma_gid_to_addr(&gid, dst->sa_family, src))
			continue;
		if (dst->sa_family == AF_INET6 &&
		    !!(ipv6_addr_type(&gid.in6) & IPV6_ADDR_LINKLOCAL) != want_ll)
			continue;
		return 0;
	}
	return -EADDRNOTAVAIL;
}

int oib_cma_port_addr(struct oib_device *device, u32 port, const struct sockaddr *dst,
		      struct sockaddr_storage *src)
{
	int ret = cma_addr_valid(dst);

	if (ret)
		return ret;
	if (!device || !src || !oib_port_valid(device, port))
		return -EINVAL;
	return cma_port_src(device, port, dst, src);
}
EXPORT_SYMBOL(oib_cma_port_addr);

/*
 * A port of @cdev to reach @dgid from, with its source address: *@owner says the port has
 * @dgid itself (loopback).  -EHOSTUNREACH if none.
 */
static int cma_dev_route(struct cma_dev *cdev, const struct sockaddr *dst,
			 const union oib_gid *dgid, u32 *port, struct sockaddr_storage *src,
			 bool *owner)
{
	u32 p;

	for (p = 1; !cdev->removing && p <= cdev->device->phys_port_cnt; p++) {
		if (cma_port_src(cdev->device, p, dst, src) ||
		    oib_port_reach(cdev->device, p, dgid, NULL))
			continue;
		*port = p;
		*owner = !oib_find_gid(cdev->device, dgid, NULL, NULL);
		return 0;
	}
	return -EHOSTUNREACH;
}

/*
 * Pick the device and port for @priv's destination, with the source address; under cma_lock.
 * A port that reaches the destination wins over one that has it: on a fabric every address is
 * this host's, and the destination's own device is only the loopback's last resort.
 */
static int cma_route_dst_locked(struct cma_id_priv *priv, struct oib_device **device, u32 *port,
				struct sockaddr_storage *src)
{
	const struct sockaddr *dst = oib_cma_dst_addr(&priv->id);
	struct sockaddr_storage s;
	union oib_gid dgid;
	struct cma_dev *cdev;
	bool owner;
	u32 p;

	cma_addr_to_gid(dst, &dgid);
	if (priv->cdev) {	/* bound to an address: from its port only */
		*device = priv->id.device;
		*port = priv->id.port_num;
		memcpy(src, &priv->id.route.addr.src_addr, sizeof(*src));
		return oib_port_reach(*device, *port, &dgid, NULL) ? -EHOSTUNREACH : 0;
	}
	*device = NULL;
	list_for_each_entry(cdev, &cma_devices, entry) {
		if (cma_dev_route(cdev, dst, &dgid, &p, &s, &owner) || (owner && *device))
			continue;
		*device = cdev->device;
		*port = p;
		memcpy(src, &s, sizeof(s));
		if (!owner)
			break;
	}
	return *device ? 0 : -EHOSTUNREACH;
}

static int cma_resolve_addr_now(struct cma_id_priv *priv)
{
	struct sockaddr_storage src;
	struct oib_device *device;
	u32 port;
	int ret;

	mutex_lock(&priv->lock);
	if (priv->state != CMA_ADDR_QUERY) {
		ret = -ECANCELED;
		goto out;
	}
	mutex_lock(&cma_lock);
	ret = cma_route_dst_locked(priv, &device, &port, &src);
	mutex_unlock(&cma_lock);
	if (ret || priv->cdev)
		goto out;
	ret = cma_attach_dev(priv, device, port);
	if (ret)
		goto out;
	cma_addr_set_port((struct sockaddr *)&src, cma_addr_port(oib_cma_src_addr(&priv->id)));
	memcpy(&priv->id.route.addr.src_addr, &src, sizeof(src));
out:
	mutex_unlock(&priv->lock);
	return ret;
}

/* The path a RoCE REQ carries, from the GIDs (wire-interop.md A4). */
static int cma_resolve_route_now(struct cma_id_priv *priv)
{
	struct oib_cm_path *path = &priv->id.route.path;
	const struct sockaddr *dst = oib_cma_dst_addr(&priv->id);
	struct oib_port_attr attr;
	u8 hops = CMA_DEFAULT_HOP_LIMIT;
	u32 flow;
	int ret;

	mutex_lock(&priv->lock);
	if (priv->state != CMA_ROUTE_QUERY) {
		mutex_unlock(&priv->lock);
		return -ECANCELED;
	}
	memset(path, 0, sizeof(*path));
	cma_addr_to_gid(oib_cma_src_addr(&priv->id), &path->sgid);
	cma_addr_to_gid(dst, &path->dgid);
	ret = oib_query_port(priv->id.device, priv->id.port_num, &attr) ?:
	      oib_port_reach(priv->id.device, priv->id.port_num, &path->dgid, &hops);
	if (!ret) {
		flow = dst->sa_family == AF_INET6 ?
		       be32_to_cpu(((const struct sockaddr_in6 *)dst)->sin6_flowinfo) : 0;
		if (!(flow & 0xfffff))
			flow = cma_addr_port(oib_cma_src_addr(&priv->id)) * 31 +
			       cma_addr_port(dst);
		path->flow_label = flow & 0xfffff;
		path->hop_limit = hops;
		if (hops <= 1) {
			path->slid = 0xffff;
			path->dlid = 0xffff;
		}
		path->mtu = attr.active_mtu;
		path->packet_life_time = CMA_PACKET_LIFE_TIME;
		path->pkey = 0xffff;
	}
	mutex_unlock(&priv->lock);
	return ret;
}

/* The work behind resolve_addr and resolve_route: find out, tell the owner. */
void cma_resolve_work(struct work_struct *work)
{
	struct cma_id_priv *priv = container_of(work, struct cma_id_priv, work);
	struct oib_cma_event ev = {};
	enum cma_event event;
	int ret;

	if (priv->work_event == CMA_EV_RESOLVE_ADDR) {
		ret = cma_resolve_addr_now(priv);
		event = ret ? CMA_EV_ADDR_ERR : CMA_EV_ADDR_OK;
	} else {
		ret = cma_resolve_route_now(priv);
		event = ret ? CMA_EV_ROUTE_ERR : CMA_EV_ROUTE_OK;
	}
	ev.status = ret;
	if (ret != -ECANCELED && cma_deliver(priv, event, &ev))
		cma_destroy(priv);
	cma_id_put(priv);
}
