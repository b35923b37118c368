/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The iWARP connection contract between an RNIC provider and oib_iwcm.
 *
 * On iWARP the connection is a TCP connection (with the MPA exchange on top) that the transport
 * sets up itself, so an RNIC exports connection-management verbs (struct oib_device_ops:
 * iw_connect, iw_accept, iw_reject, iw_create_listen, iw_destroy_listen) and reports what happens
 * on the wire through the handler of the struct oib_iw_cm_id oib_iwcm gave it.  A device of node
 * type OIB_NODE_RNIC must have all five ops, and only an RNIC may have any (oib_register_device()).
 *
 * The provider's obligations:
 * - Events are reported from process context (the handler may sleep; it copies and queues them,
 *   so the provider may hold its own locks), in the order they happened, never after the id's
 *   last event: CLOSE, a CONNECT_REPLY with an error, or destroy_listen returning.
 * - A CONNECT_REQUEST goes to the listener's id with @provider_data naming the new connection;
 *   oib_iwcm answers it exactly once, on a new id whose provider_data is that value: iw_accept or
 *   iw_reject (also when the new id is abandoned).  Until then the provider keeps it.
 * - iw_connect and iw_accept attach @qp to the connection and bring it up with it; once the
 *   provider reported it up (CONNECT_REPLY 0, ESTABLISHED), oib_iwcm moves the QP's record on
 *   to RTR and RTS (oib_modify_qp() with the state alone), which the provider's modify_qp
 *   accepts.  From then on the QP carries the connection, and moving it to ERR closes it:
 *   DISCONNECT (if the peer had not closed first) and CLOSE follow.  A connection the peer
 *   closes gives DISCONNECT, then CLOSE once the QP is out of use.
 * - A listener's wildcard address of either family takes requests to every address of the
 *   device; the IPv6 wildcard takes IPv4 ones too.
 */
#ifndef OIB_IW_CM_H
#define OIB_IW_CM_H

#include <linux/socket.h>
#include <linux/types.h>

struct oib_device;
struct oib_qp;

/* MPA allows 512 bytes of private data; siw and cxgb4 take 256, of which enhanced mode uses 4. */
#define OIB_IW_CM_PRIVATE_DATA_SIZE	252

enum oib_iw_cm_event_type {
	OIB_IW_CM_EVENT_CONNECT_REQUEST,	/* passive, on the listener's id */
	/* active: status 0 (up), -ECONNREFUSED or -ECONNRESET (rejected), -ETIMEDOUT, -errno */
	OIB_IW_CM_EVENT_CONNECT_REPLY,
	OIB_IW_CM_EVENT_ESTABLISHED,		/* passive: the accepted connection is up */
	OIB_IW_CM_EVENT_DISCONNECT,		/* the peer closed its side */
	OIB_IW_CM_EVENT_CLOSE,			/* the connection is gone; the id's last event */
	OIB_IW_CM_NEVENTS
};

struct oib_iw_cm_event {
	enum oib_iw_cm_event_type event;
	int status;
	struct sockaddr_storage local_addr;
	struct sockaddr_storage remote_addr;
	const void *private_data;	/* CONNECT_REQUEST, CONNECT_REPLY; valid during the call */
	u8 private_data_len;
	/* CONNECT_REQUEST: what the peer offers (its ORD as our IRD); CONNECT_REPLY: agreed. */
	u32 ird;
	u32 ord;
	void *provider_data;		/* CONNECT_REQUEST: the new connection */
};

struct oib_iw_cm_id;

/* Never fails; process context. */
typedef void (*oib_iw_cm_handler)(struct oib_iw_cm_id *cm_id, const struct oib_iw_cm_event *ev);

/*
 * The id a provider is handed.  oib_iwcm writes every field before the call that hands it over
 * but @provider_data, which is the provider's (set by iw_connect or iw_create_listen, or given
 * with CONNECT_REQUEST).  The id outlives the provider's last event.
 */
struct oib_iw_cm_id {
	struct oib_device *device;
	oib_iw_cm_handler event_handler;
	struct sockaddr_storage local_addr;	/* a listener's may be a wildcard */
	struct sockaddr_storage remote_addr;	/* connect: the peer */
	void *provider_data;
};

struct oib_iw_cm_conn_param {
	const void *private_data;
	u8 private_data_len;		/* at most OIB_IW_CM_PRIVATE_DATA_SIZE */
	u32 ird;			/* RDMA READs the peer may have at us */
	u32 ord;			/* ours at the peer */
	struct oib_qp *qp;		/* an RC QP of the id's device, in INIT */
};

#endif /* OIB_IW_CM_H */
