/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_krping: the classic krping over oib_cma (Documentation/krping.md).  A test is one server or
 * client started by a command written to /sys/kernel/debug/oib_krping/ctl; it runs in a kernel
 * thread of its own over one connection (several, one after the other, in conn mode) and keeps
 * its figures for /sys/kernel/debug/oib_krping/stats.
 *
 * Files: krping_main.c (module, the list of tests), krping_debugfs.c (ctl and stats),
 * krping_parse.c (the command string), krping_test.c (a test's lifetime and thread),
 * krping_cm.c (the oib_cma side: handler, listen, connect, accept, waits), krping_conn.c (a
 * connection's PD, CQ, QP, buffers and MRs), krping_post.c (work requests and completions,
 * fast registration), krping_ping.c (the rping exchange), krping_perf.c (latency, bandwidth and
 * connection-rate modes).
 */
#ifndef KRPING_H
#define KRPING_H

#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/scatterlist.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <oib/rdma_cm.h>
#include <oib/verbs.h>

#define KRPING_PORT		7174		/* rping's default */
#define KRPING_MIN_SIZE		26		/* rping's: "rdma-ping-%d: " and some */
#define KRPING_MAX_SIZE		(1024 * 1024)	/* 256 pages: what oib_siw maps at most */
#define KRPING_SIZE		64
#define KRPING_TXDEPTH		64
#define KRPING_MAX_TXDEPTH	256
#define KRPING_MAX_TESTS	16
#define KRPING_CMD_MAX		256		/* longest command */
#define KRPING_TIMEOUT_MS	10000		/* a wait with no progress this long fails */

enum krping_mode {
	KRPING_PING,		/* the rping exchange: READ, WRITE, verified */
	KRPING_WLAT,		/* RDMA WRITE ping-pong: latency */
	KRPING_BW,		/* RDMA WRITE stream: bandwidth */
	KRPING_RBW,		/* RDMA READ stream: bandwidth */
	KRPING_CONN,		/* connections set up and torn down: rate */
	KRPING_NMODES
};

struct krping_opts {
	bool server;
	struct sockaddr_storage addr;
	u16 port;
	u32 count;		/* iterations (ping: 0 = until stopped); conn: connections */
	u32 size;
	u32 txdepth;		/* bw, rbw: operations in flight */
	bool validate;
	bool verbose;
	bool poll;		/* the thread polls the CQ (OIB_POLL_DIRECT), no softirq */
	enum krping_mode mode;
};

/* rping's advertisement (wire note C): 16 bytes, big-endian.  All zeros: "go ahead". */
struct krping_rdma_info {
	__be64 buf;
	__be32 rkey;
	__be32 size;
};

/* A data buffer and the fast-registration MR that gives it a new key every registration. */
struct krping_buf {
	void *va;
	struct scatterlist sg;
	struct oib_mr *mr;
	u8 key;
	bool registered;
	struct oib_send_wr inv, reg;	/* posted by krping_reg() */
};

struct krping_test;

/*
 * One connection: its id and everything on it.  The handler writes @events (a bit per event),
 * @status and @last under the test's lock; the completion callbacks count into the atomics and
 * record the first error.  The test's thread waits on the test's wait queue for either.
 */
struct krping_conn {
	struct krping_test *t;
	struct oib_cma_id *id;
	struct list_head entry;		/* the test's conns (server-side ids) */
	bool taken;			/* by the thread (else pending: requested, not yet taken) */
	unsigned long events;
	int status;
	enum oib_cma_event_type last;

	struct oib_pd *pd;
	struct oib_cq *cq;
	struct krping_buf start, rdma;	/* rping's start_buf (source) and rdma_buf (sink) */
	struct {
		struct krping_rdma_info recv;
		struct krping_rdma_info send;
	} *ctl;				/* the messages, under @ctl_mr */
	struct oib_mr *ctl_mr;
	struct oib_cqe recv_cqe, send_cqe, rdma_cqe, reg_cqe;
	atomic_t recvs, sends, rdmas;	/* successful completions */
	int wc_error;			/* the first failed completion's status (+ 1), 0: none */
	bool recv_posted;		/* the first receive (krping_first_recv()) */
	bool flushed;
};

enum krping_state {
	KRPING_S_STARTING,
	KRPING_S_LISTENING,
	KRPING_S_CONNECTING,
	KRPING_S_RUNNING,
	KRPING_S_CLOSING,
	KRPING_S_DONE,
};

struct krping_test {
	struct list_head entry;		/* krping_tests, under krping_lock */
	int id;
	struct krping_opts o;
	struct task_struct *task;

	spinlock_t lock;		/* the conns' events, @conns and their @taken, @stopping */
	wait_queue_head_t wq;
	struct krping_conn lconn;	/* the listener (server) */
	/*
	 * Server: the connections its listener spawned, pending or taken.  A spawned id's
	 * context is the listener's (oib_cma writes the id's fields), so its events find
	 * their connection here, by id.
	 */
	struct list_head spawned;
	bool stopping;

	enum krping_state state;
	const char *step;		/* what the thread does (a failure's place) */
	enum oib_cma_event_type cm_last;	/* of the connection in use, for stats */
	int result;			/* 0 or -errno, when DONE */
	u64 iters, bytes, conns;
	u64 t0, ns;			/* start of the timed part, its length */
	u64 rtt_min, rtt_max, rtt_sum;	/* per iteration round trip, ns */
};

/* krping_main.c */
extern struct mutex krping_lock;	/* krping_tests, test ids */
extern struct list_head krping_tests;
extern wait_queue_head_t krping_done_wq;	/* a test reached DONE: */
extern atomic_t krping_done_gen;		/* bumped then */
int krping_start(const struct krping_opts *o);
int krping_stop(int id);		/* id < 0: every test */
int krping_clear(void);
int krping_wait_all(int id);		/* id < 0: every test */

/* krping_parse.c */
int krping_parse(char *cmd, struct krping_opts *o);
const char *krping_mode_name(enum krping_mode mode);

/* krping_debugfs.c */
int krping_debugfs_init(void);
void krping_debugfs_exit(void);

/* krping_test.c */
struct krping_test *krping_test_create(const struct krping_opts *o, int id);
void krping_test_stop(struct krping_test *t);
void krping_test_free(struct krping_test *t);
const char *krping_state_name(enum krping_state s);
void krping_rtt(struct krping_test *t, u64 rtt);

/* krping_cm.c */
int krping_listen(struct krping_test *t);
void krping_unlisten(struct krping_test *t);
int krping_connect(struct krping_test *t, struct krping_conn *c);
struct krping_conn *krping_next_conn(struct krping_test *t);
int krping_accept(struct krping_conn *c);
int krping_cm_wait(struct krping_conn *c, enum oib_cma_event_type ev);
bool krping_cm_failed(struct krping_conn *c);
void krping_conn_close(struct krping_conn *c);
int krping_wait(struct krping_conn *c, atomic_t *v, int n);

/* krping_conn.c */
struct krping_conn *krping_conn_alloc(struct krping_test *t);
int krping_conn_setup(struct krping_conn *c);
void krping_conn_free(struct krping_conn *c);

/* krping_post.c */
int krping_post_recv(struct krping_conn *c);
int krping_first_recv(struct krping_conn *c);
int krping_post_send(struct krping_conn *c, struct oib_send_wr *first, const struct krping_buf *b,
		     bool go_ahead);
int krping_post_rdma(struct krping_conn *c, struct oib_send_wr *first, enum oib_wr_opcode op,
		     struct krping_buf *b, u32 len, u64 raddr, u32 rkey);
struct oib_send_wr *krping_reg(struct krping_conn *c, struct krping_buf *b, int access,
			       int *ret);
int krping_take_info(struct krping_conn *c, int n, u64 *addr, u32 *rkey, u32 *len);
void krping_cqe_init(struct krping_conn *c);

/* krping_ping.c, krping_perf.c: a mode's run on an ESTABLISHED connection */
int krping_ping_server(struct krping_conn *c);
int krping_ping_client(struct krping_conn *c);
void krping_fill(char *buf, u32 size, u64 iter);
int krping_perf_server(struct krping_conn *c);
int krping_perf_client(struct krping_conn *c);

#endif /* KRPING_H */
