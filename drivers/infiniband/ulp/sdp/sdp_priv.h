/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_sdp's socket: what its files share (Documentation/sdp.md).
 *
 * Locking: the socket lock (lock_sock) guards all of a connection's state: its SDP state, the
 * credits, the rings, the receive queue.  The owner's calls take it, and so does the socket's
 * work, which takes the CM's events and polls the CQ.  The oib_cma handler and the CQ's
 * completion handler take only @ev_lock, queue and schedule the work: no CMA or CQ lock is taken
 * inside the socket lock's holders' callbacks, nor the socket lock inside theirs.
 *
 * References: the sock's own refcount.  The cma id's context holds one (taken when the id is
 * made or spawned, dropped when the id is destroyed); the work holds one while queued, and so
 * does the keepalive's delayed work (sdp_opt.c).  The list of all sockets (debugfs) holds none:
 * a socket leaves it when it is freed.
 */
#ifndef SDP_PRIV_H
#define SDP_PRIV_H

#include <linux/list.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <oib/kunit/sdp.h>
#include <oib/rdma_cm.h>

#define SDP_RX_BUFS	16		/* receive buffers posted per connection, by default */
#define SDP_TX_BUFS	16		/* sends in flight, by default */
#define SDP_BUFS_MIN	4		/* SO_RCVBUF and SO_SNDBUF: the fewest buffers, */
#define SDP_BUFS_MAX	64		/* the most (a power of two in between) */
#define SDP_BUF_SIZE	4096		/* each buffer, BSDH included */
#define SDP_PAYLOAD	(SDP_BUF_SIZE - sizeof(struct oib_sdp_bsdh))
#define SDP_RX_WR	BIT_ULL(32)	/* a wr_id's receive flag; the low bits: the index */
#define SDP_RESOLVE_MS	2000

struct sdp_cm_event {
	struct list_head entry;
	enum oib_cma_event_type event;
	int status;
	u8 pdata_len;
	u8 pdata[OIB_CM_REP_PRIVATE_DATA_SIZE];
};

/* The options a socket keeps (sdp_opt.c); a listener's go to the sockets it spawns. */
struct sdp_opts {
	bool nodelay;			/* TCP_NODELAY: a partial message goes at once */
	bool cork;			/* TCP_CORK: a partial message waits until full */
	u32 zcopy_thresh;		/* SDP_ZCOPY_THRESH: bytes; 0 is off */
	u32 keepidle;			/* TCP_KEEPIDLE: seconds without traffic before a probe */
};

struct sdp_sock {
	struct sock sk;			/* first: sk_alloc()'s object is this */
	enum sdp_state state;		/* mirrored in sk->sk_state */
	struct oib_cma_id *id;
	struct oib_pd *pd;
	struct oib_cq *cq;
	struct sdp_credit credit;
	struct sdp_opts opt;		/* the socket options of sdp_opt.c */
	int last_bind_err;		/* SDP_LAST_BIND_ERR: the last bind's or route's errno */
	unsigned long last_active;	/* jiffies of the last send posted or receive completed */
	struct delayed_work keepalive;	/* SO_KEEPALIVE's probe (sdp_opt.c) */

	unsigned int nrx, ntx;		/* the rings' sizes, powers of two, fixed at connect */
	u8 *rx_buf[SDP_BUFS_MAX];
	u16 rx_ready[SDP_BUFS_MAX];	/* buffers holding data, in order of arrival */
	u32 rx_off[SDP_BUFS_MAX];	/* where each one's unread bytes start */
	u32 rx_end[SDP_BUFS_MAX];	/* and end */
	unsigned int rx_head, rx_tail;	/* rx_ready's, free-running */
	u32 rx_bytes;			/* unread */

	u8 *tx_buf[SDP_BUFS_MAX];
	u32 tx_len[SDP_BUFS_MAX];	/* payload bytes of each send in flight */
	bool tx_disconn[SDP_BUFS_MAX];	/* that send is our DisConn */
	unsigned int tx_head, tx_tail;	/* posted, completed: free-running */
	u32 tx_bytes;			/* unacknowledged payload (SIOCOUTQ, with @tx_fill) */
	u32 tx_fill;			/* payload in tx_buf[tx_head], not posted yet (sdp_tx.c) */
	bool tx_msg_more;		/* the last sendmsg() said MSG_MORE: hold that message */
	bool disconn_wanted;		/* a DisConn waits for its credit */
	bool release_pending;		/* the work lets the connection's objects go */
	bool close_timeout;		/* the close timer ran out: the work ends it */
	struct sockaddr_storage local, remote;	/* for getsockname and getpeername */

	struct list_head all_entry;	/* sdp_sockets (sdp_sock.c), for debugfs */

	spinlock_t ev_lock;		/* @evq, @ev_lost */
	struct list_head evq;		/* struct sdp_cm_event, from the handler */
	bool ev_lost;			/* an event could not be queued: reset */
	struct work_struct work;

	/*
	 * A listener's connections not yet accepted; a spawned socket's place in it, and its
	 * listener while there (sdp_cm.c's sdp_accept_lock guards all four).
	 */
	struct list_head accept_q;
	struct list_head accept_entry;
	struct sdp_sock *parent;
	int nqueued;
};

static inline struct sdp_sock *sdp_sk(const struct sock *sk)
{
	return (struct sdp_sock *)sk;
}

extern struct proto sdp_proto;
extern struct workqueue_struct *sdp_wq;

/* sdp_sock.c */
struct sock *sdp_sock_alloc(struct net *net, int family, int kern);
void sdp_schedule(struct sdp_sock *ssk);
void sdp_apply(struct sdp_sock *ssk, enum sdp_event ev);
int sdp_proto_init(void);
void sdp_proto_exit(void);

int sdp_new_id(struct sdp_sock *ssk);
int sdp_sockets_show(struct seq_file *m, void *unused);
extern atomic_t sdp_rx_errors[SDP_RXE_NUM];
extern atomic_t sdp_connections;		/* established, either side */
extern atomic64_t sdp_tx_total, sdp_rx_total;	/* payload bytes sent and received */

/* sdp_conn.c */
int sdp_conn_create(struct sdp_sock *ssk);
void sdp_conn_release(struct sdp_sock *ssk);
void sdp_conn_free_bufs(struct sdp_sock *ssk);
int sdp_post_recv(struct sdp_sock *ssk, unsigned int i);

/* sdp_cm.c */
int sdp_cma_handler(struct oib_cma_id *id, struct oib_cma_event *ev);
void sdp_cm_process(struct sdp_sock *ssk);
int sdp_connect_start(struct sdp_sock *ssk, const struct sockaddr *dst);
int sdp_listen_start(struct sdp_sock *ssk, int backlog);
struct sdp_sock *sdp_accept_pop(struct sdp_sock *l);
bool sdp_accept_ready(struct sdp_sock *l);
void sdp_accept_drain(struct sdp_sock *l);

/* sdp_opt.c */
extern atomic_t sdp_keepalives;
void sdp_opts_init(struct sdp_opts *o);
void sdp_inherit(struct sdp_sock *child, const struct sdp_sock *l);
int sdp_setsockopt(struct socket *sock, int level, int optname, sockptr_t optval,
		   unsigned int optlen);
int sdp_getsockopt(struct socket *sock, int level, int optname, char __user *optval,
		   int __user *optlen);
void sdp_keepalive_set(struct sock *sk, int on);
void sdp_keepalive_stop(struct sdp_sock *ssk);
void sdp_keepalive_work(struct work_struct *work);

/* sdp_data.c */
extern atomic64_t sdp_tx_msgs;		/* Data messages with payload posted */
void sdp_poll_cq(struct sdp_sock *ssk);
bool sdp_tx_slot_free(const struct sdp_sock *ssk);
bool sdp_live(const struct sdp_sock *ssk);
int sdp_post_slot(struct sdp_sock *ssk, u8 mid, u32 len, bool disconn);
void sdp_tx_more(struct sdp_sock *ssk);
int sdp_post_keepalive(struct sdp_sock *ssk);
int sdp_recvmsg(struct socket *sock, struct msghdr *msg, size_t len, int flags);

/* sdp_tx.c */
bool sdp_ctrl_slot_free(const struct sdp_sock *ssk);
void sdp_ctrl_slot_take(struct sdp_sock *ssk);
bool sdp_tx_writable(const struct sdp_sock *ssk);
int sdp_tx_push(struct sdp_sock *ssk, bool force);
int sdp_sendmsg(struct socket *sock, struct msghdr *msg, size_t len);

#endif /* SDP_PRIV_H */
