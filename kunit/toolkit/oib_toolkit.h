/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The oib KUnit toolkit (oib_toolkit.ko), what every suite builds on: software devices on a
 * fabric, verbs objects and QPs brought to RTS, all torn down by KUnit when the test ends; bounded
 * waits on conditions; the allocation-failure sweep.  The MAD layer's part is in
 * oib_toolkit_mad.h.
 *
 * Waiting: a test waits for the event it expects (a counter reaching a value, a completion, a CQ
 * entry), never for a time.  Every wait here is bounded by OIB_TEST_WAIT_MS, generous for a busy
 * TCG guest, and says whether the event came; the test asserts that it did.
 */
#ifndef OIB_TOOLKIT_H
#define OIB_TOOLKIT_H

#include <kunit/test.h>
#include <linux/iopoll.h>
#include <linux/wait.h>
#include <oib/verbs.h>
#include <oib/device.h>
#include <oib/rxe.h>

#define OIB_TEST_WAIT_MS	20000

/* ---- Devices and fabrics (toolkit.c) ---- */

/* An oib_rxe device removed when the test ends (or by oib_test_rxe_remove()). */
struct oib_device *oib_test_rxe(struct kunit *test, const struct oib_rxe_params *params);
struct oib_device *oib_test_rxe_ports(struct kunit *test, u32 num_ports);
/* The same, its ports on the fabric @fabric. */
struct oib_device *oib_test_rxe_on(struct kunit *test, const char *fabric, u32 num_ports);
void oib_test_rxe_remove(struct kunit *test, struct oib_device *device);

/*
 * A reference on the fabric @name, its PRNG seeded with @seed; when the test ends its faults and
 * rules are cleared and the reference dropped.
 */
struct orxe_fabric *oib_test_fabric(struct kunit *test, const char *name, u64 seed);

/* Capture what crosses @f (up to @size bytes of records) until stopped or the test ends. */
void oib_test_capture_start(struct kunit *test, struct orxe_fabric *f, size_t size);
/*
 * Print the pcap file @buf on the console in the OIB-PCAP format that tools/pcap-from-log.sh
 * extracts; make check has tshark decode it (and check the OIB-PCAP-EXPECT lines printed for it).
 */
void oib_test_pcap_print(const char *name, const u8 *buf, size_t len);

/* A client registered until the test ends (or kunit_release_action(.., oib_test_client_release)) */
void oib_test_client(struct kunit *test, struct oib_client *client);
void oib_test_client_release(void *client);

/* The IPv4-mapped GID ::ffff:@a.@b.@c.@d. */
static inline void oib_test_gid_v4(union oib_gid *gid, u8 a, u8 b, u8 c, u8 d)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[10] = 0xff;
	gid->raw[11] = 0xff;
	gid->raw[12] = a;
	gid->raw[13] = b;
	gid->raw[14] = c;
	gid->raw[15] = d;
}

/* ---- Verbs objects, destroyed when the test ends (toolkit.c) ---- */

struct oib_pd *oib_test_pd(struct kunit *test, struct oib_device *device);
struct oib_cq *oib_test_cq(struct kunit *test, struct oib_device *device, u32 cqe);
/* A CQ with a completion handler and an event handler (either may be NULL), both given @ctx. */
struct oib_cq *oib_test_cq_handlers(struct kunit *test, struct oib_device *device, u32 cqe,
				    oib_comp_handler_t comp, oib_event_handler_t event, void *ctx);
/* A QP on one CQ with @wr WRs each way, 2 SGEs and 64 inline bytes. */
struct oib_qp *oib_test_qp(struct kunit *test, struct oib_pd *pd, struct oib_cq *cq,
			   enum oib_qp_type type, u32 wr);
struct oib_qp *oib_test_qp_attr(struct kunit *test, struct oib_pd *pd,
				struct oib_qp_init_attr *attr);
struct oib_srq *oib_test_srq(struct kunit *test, struct oib_pd *pd,
			     struct oib_srq_init_attr *attr);
struct oib_mr *oib_test_kernel_mr(struct kunit *test, struct oib_pd *pd, void *addr, size_t len,
				  int access);
/* An oib_alloc_cq() CQ (private NULL), freed with oib_free_cq() when the test ends. */
struct oib_cq *oib_test_alloc_cq(struct kunit *test, struct oib_device *device, u32 nr_cqe,
				 u32 comp_vector, enum oib_poll_context poll_ctx);
/* An XRC domain, its allocator's reference dropped when the test ends. */
struct oib_xrcd *oib_test_xrcd(struct kunit *test, struct oib_device *device);
/* A fast-registration MR mapping up to @max_num_sg pages. */
struct oib_mr *oib_test_alloc_mr(struct kunit *test, struct oib_pd *pd, u32 max_num_sg);
/* vzalloc()ed memory, freed when the test ends. */
void *oib_test_vzalloc(struct kunit *test, size_t size);
/*
 * Take @obj, made by one of the calls above, out of the test's teardown: someone else destroys
 * it (a client's remove(), as a ULP would).
 */
void oib_test_disown(struct kunit *test, void *obj);

/*
 * What a QP's INIT, RTR and RTS steps set (port 1, RoCE, hop limit 64); for UD only the Q_Key
 * (QP1: the GSI one) and the SQ PSN, for UC no RC timers or read/atomic limits; an XRC initiator
 * takes RC's requester attributes, an XRC target RC's responder ones (and the timeout).
 */
struct oib_test_path {
	union oib_gid dgid;
	u8 sgid_index;
	u32 dest_qpn;
	enum oib_mtu mtu;
	u32 rq_psn, sq_psn;
	int access;		/* the QP's remote access flags */
	u32 qkey;
	u8 timeout, retry_cnt, rnr_retry, min_rnr_timer;
	u8 max_rd_atomic, max_dest_rd_atomic;
};

/* Valid values to start from: the peer fe80::1, QPN 0x42, MTU 1024. */
void oib_test_path_init(struct oib_test_path *path);
/* One modify, to @state, with the attributes that step takes for the QP's type. */
int oib_test_qp_step(struct oib_qp *qp, enum oib_qp_state state,
		     const struct oib_test_path *path);
/*
 * Drive a QP from its state (RESET, INIT or RTR) on to @state through each step, along @path
 * (NULL: oib_test_path_init()'s).
 */
int oib_test_qp_to_path(struct oib_qp *qp, enum oib_qp_state state,
			const struct oib_test_path *path);
int oib_test_qp_to(struct oib_qp *qp, enum oib_qp_state state);
/*
 * Connect the RC or UC QPs @a and @b (RESET, on port 1 of two devices on one fabric, or one
 * device) to each other through GID index 0 and bring both to RTS; @access: the remote access
 * flags both grant.  MTU 1024, 8 reads and atomics each way, the minimal RNR timer.
 */
int oib_test_rc_connect(struct oib_qp *a, struct oib_qp *b, int access);

/* ---- Waits (toolkit_wait.c) ---- */

/*
 * Poll @cq until @n completions came into @wc[0..n-1], for at most @ms milliseconds; the number
 * that came.  oib_test_poll_cq(): for at most OIB_TEST_WAIT_MS.
 */
int oib_test_poll_cq_ms(struct oib_cq *cq, struct oib_wc *wc, int n, unsigned int ms);
int oib_test_poll_cq(struct oib_cq *cq, struct oib_wc *wc, int n);
/* Whether the oib_rxe port counter reached @n. */
bool oib_test_wait_rxe_stat(struct oib_device *device, u32 port, enum oib_rxe_port_stat stat,
			    u64 n);
/* Whether @v reached @n; @wq is woken whenever @v moves. */
bool oib_test_wait_count(wait_queue_head_t *wq, atomic_t *v, int n);

static inline int oib_test_nothing(void)
{
	return 0;
}

/*
 * Whether @cond came to hold, polled about every half millisecond for at most
 * OIB_TEST_WAIT_MS: for conditions nothing wakes a waiter on.
 */
#define oib_test_wait_for(cond) ({						\
	int __zero;								\
	!read_poll_timeout(oib_test_nothing, __zero, __zero || (cond), 500,	\
			   OIB_TEST_WAIT_MS * USEC_PER_MSEC, false);		\
})

/*
 * A seeded fuzz's count of inputs (frames, MADs, rounds), for make check's total
 * (tools/check.sh): one line per fuzz, under a name of its own.
 */
#define oib_test_fuzz_inputs(test, name, n)					\
	kunit_info(test, "OIB-FUZZ-INPUTS %s %llu", name, (unsigned long long)(n))

/* ---- Allocation failures (toolkit.c) ---- */

/*
 * Run @create with the Nth slab allocation of this task failing, for N = 1, 2, ... until a run
 * sees no injected failure.  @create returns 0 or -errno and must leave nothing behind on error;
 * @destroy undoes a successful @create.  Returns the number of injected failures.  Each either
 * made @create fail, with the device's object counts unchanged, or was absorbed (an allocator
 * that retries) with @create succeeding.
 */
int oib_test_failslab_sweep(struct kunit *test, struct oib_device *device,
			    int (*create)(struct kunit *test, void *ctx),
			    void (*destroy)(struct kunit *test, void *ctx), void *ctx);
/*
 * The same for N = @first to @last only (or until the path needs no more), so that a long path's
 * sweep can be cut into cases that each end well within KUnit's time limit on a slow machine.
 */
int oib_test_failslab_sweep_range(struct kunit *test, struct oib_device *device,
				  int (*create)(struct kunit *test, void *ctx),
				  void (*destroy)(struct kunit *test, void *ctx), void *ctx,
				  unsigned int first, unsigned int last);

#endif /* OIB_TOOLKIT_H */
