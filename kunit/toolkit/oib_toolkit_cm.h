/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The toolkit's CM part (toolkit_cm.c), for the oib_cm suites: connections between two oib_rxe
 * devices on a private fabric, each end with its RC QP, a handler that records every event and
 * acts as the test asks, and bounded waits for events.  Like the MAD part it is linked into each
 * CM suite module (oib_cm loads late, after oib_toolkit.ko); nothing here is exported.
 *
 * An end's handler runs in the CM's work; it records the event (count, last type, a copy of
 * the private data and parameters) before it acts, and wakes the test.  A passive end learns its
 * cm_id from the REQ_RECEIVED that spawned it.
 */
#ifndef OIB_TOOLKIT_CM_H
#define OIB_TOOLKIT_CM_H

#include <linux/wait.h>
#include <oib/cm.h>
#include <oib/kunit/cm.h>
#include <oib/rxe.h>
#include "oib_toolkit.h"

#define CMT_FABRIC	"oib_cm_test"
#define CMT_SID		0x0000000001060000ULL	/* an RDMA CM TCP port space ID, port 0 */
#define CMT_BUF		4096
#define CMT_WR		16
#define CMT_SIDR_QPN	0x1234
#define CMT_SIDR_QKEY	0x11111111

/* What a passive end does when its REQ comes in. */
enum cmt_on_req {
	CMT_ACCEPT,		/* send the REP with its QP */
	CMT_REJECT,		/* send REJ "consumer defined" with private data */
	CMT_MRA,		/* send an MRA; the test sends the REP later */
	CMT_RETURN_ERR,		/* return non-zero: the CM destroys the id (REJ) */
	CMT_NOTHING,		/* leave it to the test */
};

struct cmt_end {
	struct kunit *test;
	struct oib_device *dev;
	struct oib_pd *pd;
	struct oib_cq *cq;
	struct oib_qp *qp;
	u8 *buf;			/* CMT_BUF bytes: [0, 2048) receives, the rest sends */
	union oib_gid gid;		/* port 1, index 0 */
	struct oib_cm_id *id;		/* active: made by the test; passive: from REQ_RECEIVED */

	/* Behaviour, set by the test before the events come. */
	enum cmt_on_req on_req;
	bool reply_in_req;		/* ACCEPT: then post a receive and a send ("reply") */
	bool rtu_on_rep;		/* active: answer REP_RECEIVED with the RTU (default) */
	bool drep_on_dreq;		/* answer DREQ_RECEIVED with a DREP (default) */
	u8 mra_timeout;
	int destroy_on;			/* event type + 1: return non-zero after it (destroy) */

	/* What the handler saw, under @lock. */
	spinlock_t lock;
	wait_queue_head_t wq;
	int events[OIB_CM_NEVENTS];
	int nevents;
	enum oib_cm_event_type order[32];	/* the first 32, in order */
	struct oib_cm_event last[OIB_CM_NEVENTS];	/* the last of each type */
	u8 pdata[OIB_CM_NEVENTS][OIB_CM_MAX_PRIVATE_DATA_SIZE];
	int errors;			/* calls the CM made that it should not have */
};

struct cmt_pair {
	struct kunit *test;
	struct orxe_fabric *f;
	struct cmt_end a, b;		/* a connects to b */
	struct oib_cm_id *listener;	/* on b's device, CMT_SID */
	struct oib_cm_path path;	/* a -> b */
	struct oib_cm_req_param req;	/* what cmt_connect() sends; tests may change it */
};

/* The ends' handler (context: the struct cmt_end), and the SIDR_REP an accepting end sends. */
int cmt_handler(struct oib_cm_id *id, const struct oib_cm_event *ev);
extern const struct oib_cm_sidr_rep_param cmt_sidr_rep;

/* Two devices on the test fabric, their ends ready (QPs in RESET), b listening. */
struct cmt_pair *cmt_pair(struct kunit *test);
/* a's cm_id and REQ: 0 or the -errno of oib_cm_send_req(). */
int cmt_connect(struct cmt_pair *p);
/* Both ends ESTABLISHED (within OIB_TEST_WAIT_MS). */
void cmt_expect_established(struct kunit *test, struct cmt_pair *p);
/* Whether @e's handler saw @n events of @type (waits up to OIB_TEST_WAIT_MS). */
bool cmt_wait(struct cmt_end *e, enum oib_cm_event_type type, int n);
int cmt_count(struct cmt_end *e, enum oib_cm_event_type type);
/* @from sends @len bytes (wr_id @id) to @to, which posted a receive; both completions checked. */
void cmt_exchange(struct kunit *test, struct cmt_end *from, struct cmt_end *to, u32 len, u64 id);
/* Post a receive on @e (its whole receive half). */
int cmt_post_recv(struct cmt_end *e, u64 wr_id);
int cmt_post_send(struct cmt_end *e, u64 wr_id, u32 len);
/* Disconnect from @e (DREQ), both sides through TIMEWAIT to its exit. */
void cmt_disconnect(struct kunit *test, struct cmt_pair *p, struct cmt_end *e);
/* A fabric rule on the CM's MADs (UD SEND_ONLY to QP1): @action for the next @count. */
void cmt_rule(struct cmt_pair *p, enum orxe_fault_action action, u32 count, u32 delay_us);
/* oib_cm counters of port 1 of @e's device. */
u64 cmt_stat(struct cmt_end *e, enum oib_cm_port_stat stat, u16 attr_id);
u64 cmt_drops(struct cmt_end *e, enum oib_cm_drop why);

#endif /* OIB_TOOLKIT_CM_H */
