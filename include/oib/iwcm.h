/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_iwcm, the iWARP connection manager: connections on RNICs through their CM verbs
 * (include/oib/iw_cm.h), for oib_cma.  One id per listener or connection, on one device; its
 * owner hears the provider's events, in order, in process context.  Documentation/iwcm.md.
 */
#ifndef OIB_IWCM_H
#define OIB_IWCM_H

#include <oib/iw_cm.h>

struct oib_iwcm_id;

struct oib_iwcm_event {
	enum oib_iw_cm_event_type event;
	/* CONNECT_REPLY: 0, or -ECONNREFUSED/-ECONNRESET (rejected), -ETIMEDOUT, -errno */
	int status;
	const void *private_data;	/* valid during the call */
	u8 private_data_len;
	u32 ird;		/* CONNECT_REQUEST: the peer's offer; CONNECT_REPLY: agreed */
	u32 ord;
	struct oib_iwcm_id *listen_id;	/* CONNECT_REQUEST: the listener that took it */
};

/*
 * Called in process context, one call at a time per id, in the order things happened.  It may
 * call any oib_iwcm function on this id but destroy (return non-zero instead: the id is destroyed
 * once the handler returns).  A CONNECT_REQUEST comes on a new id with its listener's handler
 * and context, answered by accept or reject (or refused, if the handler returns non-zero).
 */
typedef int (*oib_iwcm_handler)(struct oib_iwcm_id *id, const struct oib_iwcm_event *ev);

/* The fields are oib_iwcm's to write but @context. */
struct oib_iwcm_id {
	struct oib_device *device;
	oib_iwcm_handler handler;
	void *context;
	struct sockaddr_storage local_addr;
	struct sockaddr_storage remote_addr;
};

/* An id on @device, an RNIC.  ERR_PTR: -EINVAL (no handler, not an RNIC), -ENOMEM. */
struct oib_iwcm_id *oib_iwcm_create_id(struct oib_device *device, oib_iwcm_handler handler,
				       void *context);
/*
 * Synchronous: no handler of @id runs after it returns (not from its own handler: return
 * non-zero there).  A listener stops, an unanswered request is rejected, a connection is
 * aborted (its QP to ERR, unless released).
 */
void oib_iwcm_destroy_id(struct oib_iwcm_id *id);

/* Requests to @addr (a wildcard: every address of the device) come as CONNECT_REQUEST. */
int oib_iwcm_listen(struct oib_iwcm_id *id, const struct sockaddr *addr, int backlog);

/*
 * Connect from @src (port 0: any) to @dst with @param's QP (an RC QP of the device), private
 * data and IRD/ORD: CONNECT_REPLY follows.  -EINVAL: wrong state or arguments.
 */
int oib_iwcm_connect(struct oib_iwcm_id *id, const struct sockaddr *src,
		     const struct sockaddr *dst, const struct oib_iw_cm_conn_param *param);

/* Answer a CONNECT_REQUEST: accept (ESTABLISHED or CLOSE follows) or reject. */
int oib_iwcm_accept(struct oib_iwcm_id *id, const struct oib_iw_cm_conn_param *param);
int oib_iwcm_reject(struct oib_iwcm_id *id, const void *private_data, u8 private_data_len);

/*
 * Close the connection: its QP to ERR; CLOSE follows (the peer hears DISCONNECT, then CLOSE).
 * 0 if already closing; -EINVAL when there is no connection.
 */
int oib_iwcm_disconnect(struct oib_iwcm_id *id);

/* The connection lets go of its QP (to ERR first), so the owner may destroy it before the id. */
void oib_iwcm_release_qp(struct oib_iwcm_id *id);

const char *oib_iwcm_event_msg(enum oib_iw_cm_event_type event);

#endif /* OIB_IWCM_H */
