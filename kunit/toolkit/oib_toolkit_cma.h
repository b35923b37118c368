/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The toolkit's RDMA CM part (toolkit_cma.c), for the oib_cma suites: devices with IP addresses
 * (oib_rxe's on a private fabric, or of another kind: struct cmat_kind), ids whose handler records
 * every event and acts as the test asks, and bounded waits.  Linked into each suite module
 * (oib_cma loads late); nothing exported.
 *
 * Every id the test makes, or a listener spawns, has a struct cmat_rec (its context): what its
 * handler saw, and what it does.  A listener's rec is the template for the recs of the ids it
 * spawns.  All of it is destroyed when the test ends: listeners first, then the rest, QPs
 * before their ids.
 */
#ifndef OIB_TOOLKIT_CMA_H
#define OIB_TOOLKIT_CMA_H

#include <linux/wait.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <oib/rdma_cm.h>
#include <oib/rxe.h>
#include "oib_toolkit.h"

#define CMAT_FABRIC	"oib_cma_test"
#define CMAT_PORT	7174
#define CMAT_WR		8
#define CMAT_BUF	4096
#define CMAT_PDATA_MAX	256	/* private data recorded: IB's 224, iWARP's 252 */

/* What a passive id does with its CONNECT_REQUEST. */
enum cmat_on_req {
	CMAT_ACCEPT,		/* a QP, then accept with the rec's private data */
	CMAT_REJECT,		/* reject with the rec's private data */
	CMAT_NOTHING,		/* leave it to the test */
};

struct cmat_ctx;

struct cmat_end {
	struct oib_device *dev;
	struct oib_pd *pd;
	struct oib_cq *cq;
	struct sockaddr_storage addr;	/* the test's address on port 1 (port 0) */
};

struct cmat_rec {
	struct cmat_ctx *ctx;
	struct oib_cma_id *id;
	struct cmat_end *end;		/* its device's objects */
	struct list_head entry;		/* in ctx->recs */
	bool gone;			/* destroyed (by returning non-zero, or the test) */
	bool listener;
	struct cmat_rec *spawner;	/* the listener's rec, for a spawned id */

	/* Behaviour, set before the events come (spawned recs copy their listener's). */
	enum cmat_on_req on_req;
	int destroy_on;			/* event + 1: return non-zero on it */
	bool auto_connect;		/* active: resolve the route, make a QP and connect */
	bool disconnect_on_dreq;	/* answer DISCONNECTED with oib_cma_disconnect() */
	bool confirm;			/* active: OIB_CMA_CONFIRM_REP, accept the response */
	bool keep_on_removal;		/* DEVICE_REMOVAL: leave the destroy to the test */
	u8 pdata_len;			/* private data sent (connect, accept, reject): a pattern */
	u8 ird, ord;			/* responder resources, initiator depth (1, 1) */

	/* What the handler saw, under ctx->lock. */
	int events[OIB_CMA_NEVENTS];
	int nevents;
	struct oib_cma_event last[OIB_CMA_NEVENTS];
	u8 pdata[OIB_CMA_NEVENTS][CMAT_PDATA_MAX];
	int errors;			/* calls of the handler's that failed */
};

/*
 * What a context's devices are: oib_rxe's on the test fabric (cmat_rxe), or oib_siw's on the
 * guest's test netdevs (cmat_siw, oib_toolkit_siw.h).  A context made by cmat_ctx_on() has
 * none: it gets no more devices (cmat_end_add()).
 */
struct cmat_kind {
	const char *name;
	bool iwarp;
	/* a device with 10.0.0.@host and fd00::@host; @managed: removed when the test ends */
	struct oib_device *(*add)(struct kunit *test, struct cmat_ctx *ctx, u8 host, bool managed);
	/* remove an unmanaged one (waits for its users) */
	int (*remove)(struct oib_device *dev);
};

extern const struct cmat_kind cmat_rxe;

struct cmat_ctx {
	struct kunit *test;
	const struct cmat_kind *kind;
	struct orxe_fabric *f;		/* oib_rxe's: the test fabric */
	struct cmat_end a, b, c;	/* c: only if the test adds it (cmat_end_add) */
	spinlock_t lock;		/* the recs' records and @recs */
	wait_queue_head_t wq;
	struct list_head recs;
	atomic_t total[OIB_CMA_NEVENTS];	/* over every rec */
};

/* Two devices on the test fabric, a with 10.0.0.1 and fd00::1, b with 10.0.0.2 and fd00::2. */
struct cmat_ctx *cmat_ctx(struct kunit *test);
/* The same with devices of @kind. */
struct cmat_ctx *cmat_ctx_of(struct kunit *test, const struct cmat_kind *kind);
/* The same over the test's own devices @a and @b (RNICs, say), which outlive the context. */
struct cmat_ctx *cmat_ctx_on(struct kunit *test, struct oib_device *a, struct oib_device *b);
/* An end on the test's own device @dev, with 10.0.0.@host and fd00::@host. */
void cmat_end_on(struct kunit *test, struct cmat_end *e, struct oib_device *dev, u8 host);
/*
 * Another device of the context's kind with 10.0.0.@host and fd00::@host; @managed: removed with
 * its objects when the test ends, else the test removes it (ctx->kind->remove).
 */
void cmat_end_add(struct kunit *test, struct cmat_ctx *ctx, struct cmat_end *e, u8 host,
		  bool managed);
/* Remove an unmanaged end's device (waits for its ids to be destroyed), its PD and CQ first. */
void cmat_end_free_objects(struct cmat_end *e);
/* Set @ss to the IPv4 10.0.0.@host or the IPv6 fd00::@host, port @port. */
void cmat_addr(struct sockaddr_storage *ss, bool v6, u8 host, u16 port);
/* Give @dev's port 1 the address (or take it away). */
int cmat_dev_addr(struct oib_device *dev, const struct sockaddr_storage *ss, bool add);

/* A new id for @end in @ps, its rec recording. */
struct cmat_rec *cmat_id(struct cmat_ctx *ctx, struct cmat_end *end,
			 enum oib_cma_port_space ps);
/* A listener of @end's on @addr (bound, listening), its spawned ids doing @on_req. */
struct cmat_rec *cmat_listen(struct cmat_ctx *ctx, struct cmat_end *end,
			     const struct sockaddr_storage *addr, enum cmat_on_req on_req);
struct cmat_rec *cmat_listen_ps(struct cmat_ctx *ctx, struct cmat_end *end,
				const struct sockaddr_storage *addr, enum cmat_on_req on_req,
				enum oib_cma_port_space ps);
/* An active id of @from's, connecting to @dst by itself (auto_connect), from @src if given. */
struct cmat_rec *cmat_connect(struct cmat_ctx *ctx, const struct sockaddr_storage *dst,
			      enum oib_cma_port_space ps);
struct cmat_rec *cmat_connect_from(struct cmat_ctx *ctx, struct cmat_end *from,
				   const struct sockaddr_storage *src,
				   const struct sockaddr_storage *dst, enum oib_cma_port_space ps,
				   u8 pdata_len);
/* Destroy @r's QP and id now (the test's own destroy). */
void cmat_destroy(struct cmat_rec *r);

int cmat_count(struct cmat_rec *r, enum oib_cma_event_type type);
bool cmat_wait(struct cmat_rec *r, enum oib_cma_event_type type, int n);
bool cmat_wait_total(struct cmat_ctx *ctx, enum oib_cma_event_type type, int n,
		     unsigned int ms);
/* The rec of the @n-th (from 0) id spawned for @listener, waiting for it; NULL if none came. */
struct cmat_rec *cmat_spawned(struct cmat_rec *listener, int n);

/* One RC SEND of @len bytes from @from's QP to @to's, checked on both CQs. */
void cmat_exchange(struct kunit *test, struct cmat_rec *from, struct cmat_rec *to, u32 len,
		   u64 wr_id);

#endif /* OIB_TOOLKIT_CMA_H */
