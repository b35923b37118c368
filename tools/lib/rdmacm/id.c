// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Channels and ids: the calls that make, bind, resolve, listen and take them down. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "rdmacm.h"

int cma_ioctl(struct cma_id *id, unsigned long cmd, void *arg)
{
	*(uint32_t *)arg = id->handle;	/* every command's struct starts with the id */
	return ioctl(id->id.channel->fd, cmd, arg) ? -1 : 0;
}

RDMACM_EXPORT struct rdma_event_channel *rdma_create_event_channel(void)
{
	struct cma_channel *ch = calloc(1, sizeof(*ch));

	if (!ch) {
		errno = ENOMEM;
		return NULL;
	}
	ch->ch.fd = open(RDMACM_DEV_PATH, O_RDWR | O_CLOEXEC);
	if (ch->ch.fd < 0) {
		free(ch);
		return NULL;
	}
	pthread_mutex_init(&ch->lock, NULL);
	return &ch->ch;
}

RDMACM_EXPORT void rdma_destroy_event_channel(struct rdma_event_channel *channel)
{
	struct cma_channel *ch = to_cma_channel(channel);
	struct cma_event *e;

	if (!ch)
		return;
	while ((e = ch->backlog)) {
		ch->backlog = e->next;
		free(e);
	}
	close(ch->ch.fd);
	pthread_mutex_destroy(&ch->lock);
	free(ch);
}

/* A new id of @ch (a handle it has already, or 0: made here), on its list. */
struct cma_id *cma_id_new(struct cma_channel *ch, void *context, enum rdma_port_space ps,
			  enum ibv_qp_type qp_type, uint32_t handle)
{
	struct cma_id *id = calloc(1, sizeof(*id));
	struct oib_ucma_create_id cmd = {
		.uid = (uintptr_t)id, .ps = ps, .qp_type = qp_type,
	};

	if (!id) {
		errno = ENOMEM;
		return NULL;
	}
	if (!handle) {
		if (ioctl(ch->ch.fd, OIB_UCMA_CREATE_ID, &cmd)) {
			free(id);
			return NULL;
		}
		handle = cmd.id;
	}
	id->handle = handle;
	id->id.channel = &ch->ch;
	id->id.context = context;
	id->id.ps = ps;
	id->id.qp_type = qp_type;
	pthread_mutex_init(&id->lock, NULL);
	pthread_cond_init(&id->cond, NULL);
	pthread_mutex_lock(&ch->lock);
	id->next = ch->ids;
	ch->ids = id;
	pthread_mutex_unlock(&ch->lock);
	return id;
}

static int cma_qp_type(enum rdma_port_space ps, enum ibv_qp_type *type)
{
	switch (ps) {
	case RDMA_PS_TCP:
		*type = IBV_QPT_RC;
		return 0;
	case RDMA_PS_UDP:
		*type = IBV_QPT_UD;
		return 0;
	default:
		return cma_err(EAFNOSUPPORT);	/* RDMA_PS_IB and IPOIB: AF_IB, not offered */
	}
}

RDMACM_EXPORT int rdma_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **out,
				 void *context, enum rdma_port_space ps)
{
	struct rdma_event_channel *own = NULL;
	enum ibv_qp_type type;
	struct cma_id *id;

	if (!out)
		return cma_err(EINVAL);
	if (cma_qp_type(ps, &type))
		return -1;
	if (!channel) {
		own = rdma_create_event_channel();
		if (!own)
			return -1;
	}
	id = cma_id_new(to_cma_channel(channel ? channel : own), context, ps, type, 0);
	if (!id) {
		rdma_destroy_event_channel(own);
		return -1;
	}
	id->sync = !channel;
	id->own_channel = !channel;
	*out = &id->id;
	return 0;
}

static void cma_id_unlist(struct cma_id *id)
{
	struct cma_channel *ch = to_cma_channel(id->id.channel);
	struct cma_id **p;

	pthread_mutex_lock(&ch->lock);
	for (p = &ch->ids; *p; p = &(*p)->next)
		if (*p == id) {
			*p = id->next;
			break;
		}
	pthread_mutex_unlock(&ch->lock);
}

/* The kernel forgets the id; then wait until every event it gave out of it is acknowledged. */
RDMACM_EXPORT int rdma_destroy_id(struct rdma_cm_id *cm_id)
{
	struct cma_id *id = to_cma_id(cm_id);
	struct oib_ucma_destroy_id cmd = {};

	if (!id)
		return cma_err(EINVAL);
	if (cma_ioctl(id, OIB_UCMA_DESTROY_ID, &cmd))
		return -1;
	pthread_mutex_lock(&id->lock);
	while (id->acked < cmd.events_reported)
		pthread_cond_wait(&id->cond, &id->lock);
	pthread_mutex_unlock(&id->lock);
	cma_id_unlist(id);
	if (id->own_channel)
		rdma_destroy_event_channel(id->id.channel);
	pthread_cond_destroy(&id->cond);
	pthread_mutex_destroy(&id->lock);
	free(id);
	return 0;
}

static int cma_addr_copy(struct __kernel_sockaddr_storage *dst, const struct sockaddr *sa)
{
	memset(dst, 0, sizeof(*dst));
	if (!sa)
		return 0;
	switch (sa->sa_family) {
	case AF_INET:
		memcpy(dst, sa, sizeof(struct sockaddr_in));
		return 0;
	case AF_INET6:
		memcpy(dst, sa, sizeof(struct sockaddr_in6));
		return 0;
	default:
		return cma_err(EAFNOSUPPORT);
	}
}

/* The id's device, port, addresses and route, as the kernel has them. */
int cma_query(struct cma_id *id)
{
	struct oib_ucma_query q = {};
	struct rdma_cm_id *c = &id->id;

	if (cma_ioctl(id, OIB_UCMA_QUERY, &q))
		return -1;
	memcpy(&c->route.addr.src_storage, &q.src, sizeof(q.src));
	memcpy(&c->route.addr.dst_storage, &q.dst, sizeof(q.dst));
	if (q.ibdev[0] && !c->verbs) {
		c->verbs = cma_device_context(q.ibdev);
		if (!c->verbs)
			return -1;
	}
	c->port_num = q.port_num;
	if (!q.num_paths)
		return 0;
	memcpy(c->route.addr.addr.ibaddr.sgid.raw, q.sgid, 16);
	memcpy(c->route.addr.addr.ibaddr.dgid.raw, q.dgid, 16);
	c->route.addr.addr.ibaddr.pkey = htobe16(q.pkey);
	memcpy(id->path.sgid.raw, q.sgid, 16);
	memcpy(id->path.dgid.raw, q.dgid, 16);
	id->path.pkey = htobe16(q.pkey);
	id->path.mtu = q.mtu;
	id->path.hop_limit = q.hop_limit;
	id->path.flow_label = htobe32(q.flow_label);
	id->path.traffic_class = q.traffic_class;
	c->route.path_rec = &id->path;
	c->route.num_paths = 1;
	return 0;
}

RDMACM_EXPORT int rdma_bind_addr(struct rdma_cm_id *cm_id, struct sockaddr *addr)
{
	struct cma_id *id = to_cma_id(cm_id);
	struct oib_ucma_bind cmd = {};

	if (!id || !addr)
		return cma_err(EINVAL);
	if (cma_addr_copy(&cmd.addr, addr) || cma_ioctl(id, OIB_UCMA_BIND, &cmd))
		return -1;
	return cma_query(id);
}

RDMACM_EXPORT int rdma_resolve_addr(struct rdma_cm_id *cm_id, struct sockaddr *src,
				    struct sockaddr *dst, int timeout_ms)
{
	struct cma_id *id = to_cma_id(cm_id);
	struct oib_ucma_resolve_addr cmd = { .timeout_ms = timeout_ms };

	if (!id || !dst || timeout_ms <= 0)
		return cma_err(EINVAL);
	if (cma_addr_copy(&cmd.src, src) || cma_addr_copy(&cmd.dst, dst))
		return -1;
	memcpy(&cm_id->route.addr.dst_storage, &cmd.dst, sizeof(cmd.dst));
	if (cma_ioctl(id, OIB_UCMA_RESOLVE_ADDR, &cmd))
		return -1;
	return id->sync ? cma_wait(id, RDMA_CM_EVENT_ADDR_RESOLVED) : 0;
}

RDMACM_EXPORT int rdma_resolve_route(struct rdma_cm_id *cm_id, int timeout_ms)
{
	struct cma_id *id = to_cma_id(cm_id);
	struct oib_ucma_resolve_route cmd = { .timeout_ms = timeout_ms };

	if (!id || timeout_ms <= 0)
		return cma_err(EINVAL);
	if (cma_ioctl(id, OIB_UCMA_RESOLVE_ROUTE, &cmd))
		return -1;
	return id->sync ? cma_wait(id, RDMA_CM_EVENT_ROUTE_RESOLVED) : 0;
}

RDMACM_EXPORT int rdma_listen(struct rdma_cm_id *cm_id, int backlog)
{
	struct cma_id *id = to_cma_id(cm_id);
	struct oib_ucma_listen cmd = { .backlog = backlog };

	if (!id)
		return cma_err(EINVAL);
	if (cma_ioctl(id, OIB_UCMA_LISTEN, &cmd))
		return -1;
	return cma_query(id);
}

RDMACM_EXPORT int rdma_set_option(struct rdma_cm_id *cm_id, int level, int optname,
				  void *optval, size_t optlen)
{
	struct cma_id *id = to_cma_id(cm_id);
	struct oib_ucma_set_option cmd = {
		.level = level, .optname = optname, .optlen = optlen,
		.optval = (uintptr_t)optval,
	};

	if (!id)
		return cma_err(EINVAL);
	return cma_ioctl(id, OIB_UCMA_SET_OPTION, &cmd);
}

/* Not offered: moving an id to another channel (its file's table is its channel's). */
RDMACM_EXPORT int rdma_migrate_id(struct rdma_cm_id *id, struct rdma_event_channel *channel)
{
	return cma_err(EOPNOTSUPP);
}
