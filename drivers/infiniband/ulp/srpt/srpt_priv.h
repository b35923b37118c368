/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_srpt's private structures: a target (a listener and its LUNs), its channels (one per
 * login: an RC connection through oib_cma), the receive ring and the commands being served.
 */
#ifndef OIB_SRPT_PRIV_H
#define OIB_SRPT_PRIV_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/sizes.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <oib/rdma_cm.h>
#include <oib/srp.h>
#include <oib/kunit/srpt.h>

#define SRPT_NCMDS		(2 * SRPT_RQ_SIZE)	/* commands being served at once */
/*
 * The largest IU we take: as the in-tree ib_srpt's default, 8 KiB of immediate data behind an
 * offset of up to 80 bytes and its descriptor (what every Linux initiator since 5.0 asks for).
 */
#define SRPT_MAX_IMM_OFFSET	80
#define SRPT_MAX_IT_IU		(SRPT_MAX_IMM_OFFSET + sizeof(struct oib_srp_imm_buf) + SZ_8K)
#define SRPT_MAX_TI_IU		256	/* the largest we send */
#define SRPT_WR_PER_CMD		(OIB_SRP_MAX_BUFS + 1)	/* RDMA per descriptor, the SEND */
#define SRPT_SQ_SIZE		(SRPT_NCMDS * SRPT_WR_PER_CMD + 2)	/* T_LOGOUT, CRED_REQ */
/* Receives posted: the credits granted, and one for the answer to our CRED_REQ (no credit). */
#define SRPT_NRECV		(SRPT_RQ_SIZE + 1)

/* First in both structs an id's context can be: which one it is. */
enum srpt_kind {
	SRPT_KIND_TARGET,	/* the listener's, and a new id's until its login is answered */
	SRPT_KIND_CHANNEL,
};

struct srpt_target {
	enum srpt_kind kind;
	struct oib_cma_id *listener;
	struct srpt_luns luns;
	u8 port_id[16];
	struct srpt_stats stats;
	struct mutex lock;		/* @channels, @stopping */
	struct list_head channels;
	bool stopping;
	atomic_t next_vector;		/* the next channel's completion vector (modulo) */
	wait_queue_head_t wq;		/* the channels going: stats.channels reaching 0 */
};

struct srpt_recv {
	struct oib_cqe cqe;
	struct srpt_ch *ch;
	struct list_head wait;		/* on ch->waiting: no command free to serve it */
	u8 *buf;			/* the channel's it_iu_len bytes */
	u32 len;			/* of the IU received */
};

/* A command from its IU to its response's completion. */
struct srpt_cmd {
	struct oib_cqe rdma_cqe;	/* data-out: the last RDMA READ */
	struct oib_cqe send_cqe;	/* the response */
	struct srpt_ch *ch;
	struct list_head free;		/* on ch->free */
	struct oib_srp_cmd_info info;
	struct srpt_scsi_req req;
	u32 rsp_len;
	u8 rsp[SRPT_MAX_TI_IU];
	struct oib_sge sge[SRPT_WR_PER_CMD];
	struct oib_send_wr wr[SRPT_WR_PER_CMD];
	struct work_struct io_work;	/* a file LUN's I/O (srpt_file.c) */
	bool io_written;		/* io_work's phase: the data-out is in @bounce */
	u8 *bounce;			/* a file LUN's data, kvmalloc'd; freed by srpt_cmd_put() */
};

struct srpt_ch {
	enum srpt_kind kind;
	struct srpt_target *t;
	struct oib_cma_id *id;
	struct list_head entry;		/* in t->channels */
	struct oib_pd *pd;
	struct oib_cq *cq;
	struct work_struct release;
	u32 it_iu_len;			/* the login's: each receive's size */
	u32 imm_off;			/* immediate data granted at this offset; else 0 */
	u8 initiator_port_id[16];	/* the login's: its channels are one I_T nexus */
	/* @state, @free, @waiting, @credits, @granted, @in_flight, @ncmds, @held, @cred_* */
	spinlock_t lock;
	enum srpt_ch_state state;
	struct list_head free;
	struct list_head waiting;	/* received IUs waiting for a free command */
	u32 credits;			/* receives reposted, not granted yet */
	u32 granted;			/* IUs the initiator may send now: sent credits less IUs */
	u32 in_flight;
	u32 ncmds;			/* SRP_CMDs received (debugfs) */
	u32 held;			/* credits of dropped IUs, for the next CRED_REQ */
	bool cred_out;			/* a CRED_REQ sent, its CRED_RSP not received */
	u64 cred_tag;			/* the last CRED_REQ's */
	u8 cred_iu[sizeof(struct oib_srp_t_iu)];
	struct oib_cqe cred_cqe;
	struct srpt_recv recv[SRPT_NRECV];
	struct srpt_cmd *cmds;		/* SRPT_NCMDS */
	bool logout;			/* the release sends SRP_T_LOGOUT first (set under @lock) */
	u8 t_iu[sizeof(struct oib_srp_t_iu)];
	struct oib_cqe t_cqe;
	struct completion t_sent;	/* the T_LOGOUT's send completed */
};

struct seq_file;
struct dentry;

extern const u8 srpt_port_id[16];	/* what logins to the module's targets must name */

/* srpt_configfs.c */
int srpt_configfs_init(void);
void srpt_configfs_exit(void);

/* srpt_ids.c */
extern struct oib_client srpt_ids_client;
void srpt_device_port_id(const struct oib_device *device, u8 *id);
bool srpt_port_id_ok(const struct srpt_target *t, const struct oib_device *device,
		     const u8 *id);
void srpt_ids_debugfs(struct dentry *dir);

/* srpt_target.c */
void srpt_target_show(struct srpt_target *t, struct seq_file *m);
int srpt_target_reset(struct srpt_target *t);

/* srpt_ch.c */
int srpt_cma_handler(struct oib_cma_id *id, struct oib_cma_event *ev);
void srpt_ch_stop(struct srpt_ch *ch);
enum srpt_ch_action srpt_ch_step(struct srpt_ch *ch, enum srpt_ch_event ev);
int srpt_post_recv(struct srpt_recv *r);

/* srpt_io.c */
void srpt_recv_done(struct oib_cq *cq, struct oib_wc *wc);
void srpt_cmds_init(struct srpt_ch *ch);
void srpt_cmds_flush(struct srpt_ch *ch);
void srpt_cmd_put(struct srpt_cmd *cmd);
void srpt_move_data(struct srpt_cmd *cmd);
void srpt_send_cmd_rsp(struct srpt_cmd *cmd, u32 k);
void srpt_wc_error(struct srpt_ch *ch, const char *what, const struct oib_wc *wc);
void srpt_post_failed(struct srpt_ch *ch, const char *what);
int srpt_post_send(struct srpt_ch *ch, const struct oib_send_wr *wr);
void srpt_repost(struct srpt_recv *r, bool grant);

/* srpt_credit.c */
void srpt_cred_push(struct srpt_ch *ch);
void srpt_cred_rsp(struct srpt_ch *ch, struct srpt_recv *r);
void srpt_dropped_iu(struct srpt_ch *ch, struct srpt_recv *r);

/* srpt_file.c */
extern struct workqueue_struct *srpt_wq;
void srpt_file_work(struct work_struct *work);
void srpt_file_start(struct srpt_cmd *cmd);
void srpt_file_write(struct srpt_cmd *cmd);

#endif /* OIB_SRPT_PRIV_H */
