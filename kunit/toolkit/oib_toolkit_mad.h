/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The toolkit's MAD part (toolkit_mad.c), for the oib_mad suites: agents whose handlers count
 * every call, pairs of devices on a private fabric, bounded waits, and fences.
 *
 * Every agent here counts its handler calls per send buffer: a buffer completed twice, or any
 * handler running after its agent's unregister returned, is counted in @bad, which each test
 * expects to stay 0.
 *
 * Unlike the rest of the toolkit this part is not in oib_toolkit.ko: it needs oib_mad, which
 * loads after the suites that want bare devices, while oib_toolkit.ko loads before them.  Each MAD
 * suite module links toolkit_mad.o (kunit/mad/Kbuild); nothing here is exported.
 */
#ifndef OIB_TOOLKIT_MAD_H
#define OIB_TOOLKIT_MAD_H

#include <linux/sched.h>
#include <linux/wait.h>
#include <oib/mad.h>
#include <oib/kunit/mad.h>
#include <oib/rxe.h>
#include "oib_toolkit.h"

#define MADT_FABRIC	"oib_mad_test"
#define MADT_CLASS	0x0a	/* vendor range 1: no OUI */
#define MADT_CLASS_NONE	0x0b	/* nobody registers it */
#define MADT_VERSION	1
#define MADT_UNTRACKED	((void *)-1L)	/* context[0] of buffers not counted per index */
#define MADT_MARKER	((void *)-2L)	/* context[0] of madt_fence()'s markers */
#define MADT_WAIT_MS	OIB_TEST_WAIT_MS

/* One side's agent and what its handlers saw. */
struct madt_agent {
	struct kunit *test;
	struct oib_mad_agent *agent;
	struct oib_device *dev;
	struct orxe_fabric *fabric;
	wait_queue_head_t wq;
	bool respond;			/* answer requests with a GetResp */
	atomic_t drop_responses;	/* drop (by fabric rule) this many of our answers */
	atomic_t dup_responses;		/* duplicate this many */
	atomic_t requests, responses, completed, bad, seq;
	atomic_t markers;		/* madt_fence()'s, not counted in completed */
	atomic_t status[OIB_MAD_SEND_ABORTED + 1];
	u16 last_resp_status;
	u8 last_resp_method;
	u32 last_req_tid;		/* low half of the last request's TID */
	int resp_seq, send_seq;		/* order of the last response and send handler calls */
	/*
	 * Responses: stay in the receive handler (in_recv completed on entry) until this agent's
	 * unregister has been called and its caller sleeps in it, then set recv_exited.
	 */
	bool recv_linger;
	struct completion in_recv;
	bool recv_exited;
	struct task_struct *unregistering;	/* who calls unregister, once it does */
	bool unregistered;		/* set once unregister returned */
	u8 *once;			/* [n] send handler calls per tracked buffer */
	unsigned int n;
};

/* Requester a (send-only) and responder b (MADT_CLASS Get/Set) on two devices. */
struct madt_pair {
	struct orxe_fabric *fabric;
	struct oib_device *da, *db;
	struct madt_agent a, b;
	struct oib_ah *ah;	/* a -> b */
};

void madt_send_handler(struct oib_mad_agent *agent, struct oib_mad_send_wc *wc);
void madt_recv_handler(struct oib_mad_agent *agent, struct oib_mad_send_buf *send_buf,
		       const struct oib_mad_recv *recv);
struct orxe_fabric *madt_fabric(struct kunit *test);
struct oib_device *madt_dev(struct kunit *test, u32 ports);
void madt_init(struct kunit *test, struct madt_agent *mt, struct oib_device *dev,
	       unsigned int n);
int madt_register(struct madt_agent *mt, u8 mgmt_class, const u8 *methods, int nmethods);
void madt_unregister(struct madt_agent *mt);
void madt_agent(struct kunit *test, struct madt_agent *mt, u8 mgmt_class);
/* An AH from @agent's port, out of local port @port, to port 1 of @to (its GID 0). */
struct oib_ah *madt_agent_ah(struct kunit *test, struct oib_mad_agent *agent,
			     struct oib_device *to, u32 port);
struct oib_ah *madt_ah(struct kunit *test, struct madt_agent *mt, struct oib_device *to,
		       u32 port);
struct oib_mad_send_buf *madt_buf(struct madt_agent *mt, struct oib_ah *ah, u8 mgmt_class,
				  u8 method, unsigned int idx, unsigned int timeout_ms,
				       unsigned int retries);
struct oib_mad_send_buf *madt_send(struct kunit *test, struct madt_agent *mt,
				   struct oib_ah *ah, u8 mgmt_class, unsigned int idx,
					unsigned int timeout_ms, unsigned int retries);
bool madt_wait(struct madt_agent *mt, atomic_t *v, int n);
bool madt_wait_stat(struct oib_device *dev, enum oib_mad_port_stat stat, u64 n);
struct madt_pair *madt_pair(struct kunit *test, unsigned int n, bool respond);
void madt_expect_clean(struct kunit *test, struct madt_agent *mt);

/*
 * A fence: post a one-way marker MAD from @mt to @ah's port (class MADT_CLASS_NONE: nobody takes
 * it) and wait for its send handler, and with @peer not NULL for the peer's port to count it
 * (OIB_MAD_PORT_DROP_NO_AGENT).  Then every send completion of @mt's port before the marker's has
 * been handled, every MAD finished before it has had its handlers called (the port calls them in
 * order), and, on a fabric without faults, everything @mt's port sent to @peer before it has been
 * received there.  Markers count in @mt->markers only.
 */
void madt_fence(struct kunit *test, struct madt_agent *mt, struct oib_ah *ah,
		struct oib_device *peer);

#endif /* OIB_TOOLKIT_MAD_H */
