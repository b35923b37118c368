// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Ports, the device list, and what oib_ucma does not offer (multicast, ECE). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include "rdmacm.h"

static __be16 cma_port(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ((const struct sockaddr_in *)sa)->sin_port;
	if (sa->sa_family == AF_INET6)
		return ((const struct sockaddr_in6 *)sa)->sin6_port;
	return 0;
}

RDMACM_EXPORT __be16 rdma_get_src_port(struct rdma_cm_id *id)
{
	return cma_port(&id->route.addr.src_addr);
}

RDMACM_EXPORT __be16 rdma_get_dst_port(struct rdma_cm_id *id)
{
	return cma_port(&id->route.addr.dst_addr);
}

RDMACM_EXPORT struct ibv_context **rdma_get_devices(int *num_devices)
{
	return cma_device_all(num_devices);
}

RDMACM_EXPORT void rdma_free_devices(struct ibv_context **list)
{
	free(list);
}

RDMACM_EXPORT int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr,
				      void *context)
{
	return cma_err(EOPNOTSUPP);
}

RDMACM_EXPORT int rdma_join_multicast_ex(struct rdma_cm_id *id,
					 struct rdma_cm_join_mc_attr_ex *attr, void *context)
{
	return cma_err(EOPNOTSUPP);
}

RDMACM_EXPORT int rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	return cma_err(EOPNOTSUPP);
}

RDMACM_EXPORT int rdma_set_local_ece(struct rdma_cm_id *id, struct ibv_ece *ece)
{
	return cma_err(EOPNOTSUPP);
}

RDMACM_EXPORT int rdma_get_remote_ece(struct rdma_cm_id *id, struct ibv_ece *ece)
{
	return cma_err(EOPNOTSUPP);
}

/*
 * rsockets are not offered, so every descriptor is the kernel's own: rpoll() is poll().
 * (Debian's rping, ucmatose and udaddy import it through their shared helpers.)
 */
RDMACM_EXPORT int rpoll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	return poll(fds, nfds, timeout);
}
