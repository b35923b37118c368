/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The drop-in librdmacm.so.1 on oib_ucma (Documentation/ucma.md, ibverbs.md): each object a
 * program sees is Debian's struct (from its own <rdma/rdma_cma.h>) at the start of one of ours.
 * A channel is an open /dev/oib_rdma_cm; an id is a handle of its channel's file, on the
 * channel's list from its making (or its request's event) to rdma_destroy_id().  The verbs are
 * the drop-in libibverbs's, linked against: an id's device is one of its contexts.
 */
#ifndef RDMACM_PRIV_H
#define RDMACM_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <rdma/rdma_cma.h>
#include "oib/ucma.h"

#define RDMACM_EXPORT __attribute__((visibility("default")))
#define RDMACM_DEV_PATH "/dev/oib_rdma_cm"
#define RDMACM_TIMEOUT_MS 2000	/* the synchronous calls' resolutions, as librdmacm's */

struct cma_event;

struct cma_channel {
	struct rdma_event_channel ch;
	pthread_mutex_t lock;		/* protects @ids, @backlog */
	struct cma_id *ids;		/* the ids of this channel, by ->next */
	struct cma_event *backlog;	/* read while waiting for another id's event, by ->next */
};

struct cma_id {
	struct rdma_cm_id id;
	uint32_t handle;
	bool sync;			/* made without a channel: calls wait for their events */
	bool own_channel;		/* the channel is the id's own, closed with it */
	struct cma_id *next;		/* on the channel's list */
	pthread_mutex_t lock;		/* protects @acked */
	pthread_cond_t cond;
	uint32_t acked;			/* events acknowledged (counted as the kernel counts) */
	struct ibv_sa_path_rec path;	/* id.route.path_rec once the route is known */
	uint8_t req_responder_resources;	/* a request's, for rdma_accept(NULL) */
	uint8_t req_initiator_depth;
	/* rdma_create_ep() on a passive id: what rdma_get_request() gives each new id */
	bool has_ep_attr;
	struct ibv_qp_init_attr ep_attr;
	struct ibv_pd *ep_pd;
};

struct cma_event {
	struct rdma_cm_event event;
	struct cma_id *counted;		/* the id the kernel counted this event for */
	struct cma_event *next;
	uint8_t private_data[OIB_UCMA_MAX_PRIVATE_DATA];
};

static inline struct cma_id *to_cma_id(struct rdma_cm_id *id)
{
	return (struct cma_id *)id;
}

static inline struct cma_channel *to_cma_channel(struct rdma_event_channel *ch)
{
	return (struct cma_channel *)ch;
}

/* 0, or -1 with errno: the C library's convention, librdmacm's too */
static inline int cma_err(int e)
{
	errno = e;
	return -1;
}

/* device.c */
struct ibv_context *cma_device_context(const char *name);
struct ibv_pd *cma_device_pd(struct ibv_context *verbs);
struct ibv_context **cma_device_all(int *num);

/* id.c */
int cma_ioctl(struct cma_id *id, unsigned long cmd, void *arg);
int cma_query(struct cma_id *id);
struct cma_id *cma_id_new(struct cma_channel *ch, void *context, enum rdma_port_space ps,
			  enum ibv_qp_type qp_type, uint32_t handle);

/* event.c */
int cma_event_next(struct cma_channel *ch, struct cma_event **out);
int cma_wait(struct cma_id *id, enum rdma_cm_event_type want);
void cma_event_ack(struct cma_event *e);

#endif /* RDMACM_PRIV_H */
