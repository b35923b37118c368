/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_srp's private structures: a SCSI host per target, logged in over one RC channel per
 * blk-mq hardware queue through oib_cma (SRP multichannel); each channel's receive ring, credits
 * and MRs; the per-command context in the SCSI command's private area.
 */
#ifndef OIB_SRP_PRIV_H
#define OIB_SRP_PRIV_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>
#include <oib/rdma_cm.h>
#include <oib/srp.h>
#include <oib/kunit/srp.h>

#define SRP_NRECV		64	/* receives: more than the target can answer at once */
#define SRP_IMM_OFFSET		OIB_SRP_MIN_IMM_OFFSET	/* immediate data: where it starts */
#define SRP_IMM_MAX		8192	/* immediate data at most (the in-tree ib_srp's default) */
#define SRP_IT_IU_LEN		(SRP_IMM_OFFSET + SRP_IMM_MAX)	/* the largest IU we send */
/* The largest IU we take (LOGIN_RSP max_ti_iu_len): targets answer with our IU length. */
#define SRP_RECV_LEN		SRP_IT_IU_LEN
#define SRP_MAX_QUEUE		62	/* commands at once (the target's credits less one) */
#define SRP_MAX_PAGES		128	/* one fast-registration MR per command: 512 KiB */
#define SRP_SQ_SIZE		(3 * SRP_MAX_QUEUE + 4)	/* REG_MR, SEND, LOCAL_INV; task mgmt */
#define SRP_TAG_TSK		BIT_ULL(63)	/* task management requests' tags */
#define SRP_CONNECT_MS		10000	/* each step of a login at most */
#define SRP_RECONNECT_MS	500	/* between two logins of a lost connection */
#define SRP_MAX_CH		16	/* channels (hardware queues) of a host at most */
#define SRP_MAX_CREDITS		4096	/* a channel's credits at most (more: CRED_REQ refused) */

struct srp_host;
struct srp_ch;

/*
 * A port's device in the class oib_srp (srp_port.c, which says its lifetime): add_target logs in
 * through @ibdev's @port.
 */
struct srp_port {
	struct device dev;		/* srp-<oibdev>-<port>; the memory's refcount */
	struct oib_device *ibdev;
	u32 port;
	atomic_t hosts;			/* made through it and not yet freed */
};

struct srp_recv {
	struct oib_cqe cqe;
	struct srp_ch *ch;
	u8 *buf;			/* SRP_RECV_LEN bytes */
};

/*
 * One RDMA channel: hardware queue @idx's commands, on its own QP, CQs (on completion vector
 * @idx modulo the device's) and credits.  Made by each login and released by the next loss
 * (srp_conn.c); the struct and its buffers live as long as the host.
 */
struct srp_ch {
	struct srp_host *h;
	u32 idx;
	struct oib_cma_id *id;
	struct oib_pd *pd;
	struct oib_cq *scq, *rcq;
	/* @live, @credits, @cred_busy, @stats, posting on the QP, its srp_req.inflight */
	spinlock_t lock;
	bool live;			/* posting allowed: logged in, not yet being released */
	bool imm;			/* the target takes immediate data (this login's answer) */
	int credits;			/* requests the target takes now on this channel */
	bool cred_busy;			/* @cred_rsp posted, its send not completed */
	u8 cred_rsp[sizeof(struct oib_srp_tag_iu)];	/* the SRP_CRED_RSP we answer with */
	struct oib_cqe cred_cqe;
	struct srp_host_stats stats;
	struct srp_recv recv[SRP_NRECV];
	struct oib_mr *mr[SRP_MAX_QUEUE];	/* by blk-mq tag (tags are per hardware queue) */
	u8 *cmd_iu[SRP_MAX_QUEUE];	/* by tag, SRP_IT_IU_LEN bytes each */
};

/* A command's context (scsi_cmd_priv()). */
struct srp_req {
	struct oib_cqe send_cqe;
	struct oib_cqe inv_cqe;
	struct srp_ch *ch;		/* its hardware queue's */
	struct scsi_cmnd *cmd;
	struct oib_mr *mr;		/* registered for this command, or NULL */
	bool inflight;			/* posted, not yet answered and invalidated (ch->lock) */
	struct oib_srp_cmd_info info;
};

struct srp_host {
	struct Scsi_Host *shost;
	struct list_head entry;		/* in srp_hosts */
	struct srp_port *port;		/* held (srp_port_hold()); NULL: any (KUnit) */
	struct sockaddr_storage dst;
	u8 target_port_id[16];		/* what its logins name */
	u32 it_iu_len;			/* what they ask for: the IUs we send, at most */
	u32 nch;			/* channels: shost->nr_hw_queues once added */
	bool added;			/* to the midlayer: @nch fixed */
	struct srp_ch *ch;		/* @nch of them (SRP_MAX_CH at most) */
	spinlock_t lock;		/* @state, @down_since; before any srp_ch.lock */
	enum srp_conn_state state;
	wait_queue_head_t state_wq;	/* woken at every change of @state */
	struct completion answered;	/* a login's step done, its answer, or its failure */
	int login_err;
	unsigned long down_since;	/* jiffies: when the connection went */
	struct delayed_work reconnect_work;	/* release the lost connection, log in again */
	u32 max_ti_iu_len;
	struct mutex tsk_mutex;		/* one task management request at a time: @tsk_* */
	u8 tsk_iu[sizeof(struct oib_srp_tsk_mgmt)];
	struct oib_cqe tsk_cqe;
	struct completion tsk_done;
	u64 tsk_tag;
	int tsk_code;
	struct work_struct removal_work;	/* the device goes: the host with it */
	atomic_t dropped;		/* IUs received that nobody wanted */
};

extern const u8 srp_target_port_id[16];
extern struct workqueue_struct *srp_wq;
extern unsigned int srp_fail_timeout;
extern unsigned int srp_ch_count;

/* srp_conn.c */
enum srp_action srp_conn_step(struct srp_host *h, enum srp_conn_event ev);
void srp_conn_gone(struct srp_host *h, const char *why);
int srp_conn_login(struct srp_host *h, enum srp_conn_event ev, unsigned long deadline);
void srp_conn_release(struct srp_host *h);
int srp_ch_alloc_bufs(struct srp_ch *ch);

/* srp_reconnect.c */
void srp_conn_init(struct srp_host *h);
int srp_conn_start(struct srp_host *h);
void srp_conn_stop(struct srp_host *h);

/* srp_io.c */
int srp_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *cmd);
void srp_recv_done(struct oib_cq *cq, struct oib_wc *wc);
int srp_post_recv(struct srp_recv *r);
int srp_send_tsk(struct srp_ch *ch, u64 lun, u8 func, u64 task_tag);
int srp_post(struct srp_ch *ch, const struct oib_send_wr *wr, int keep, struct srp_req *req);
void srp_wc_error(struct srp_host *h, const char *what, const struct oib_wc *wc);

/* srp_tiu.c */
void srp_target_iu(struct srp_ch *ch, struct srp_recv *r, u32 len);
void srp_requeue_all(struct srp_host *h);

/* srp_options.c: srp_target_parse() (include/oib/kunit/srp.h) */

/* srp_main.c: the list of targets */
void srp_host_init_removal(struct srp_host *h);
void srp_host_lost_device(struct srp_host *h);
int srp_target_add(const struct srp_target_spec *s);
int srp_target_remove(struct srp_host *h);
ssize_t srp_targets_list(struct srp_port *p, char *buf);
void srp_targets_remove_port(struct srp_port *p);

/* srp_port.c: the class and its port devices */
extern struct oib_client srp_client;
void srp_port_hold(struct srp_port *p);
void srp_port_put(struct srp_port *p);
int srp_ports_init(void);
void srp_ports_exit(void);

/* srp_host_attr.c: the SCSI host's attributes */
extern const struct attribute_group *srp_host_groups[];

#endif /* OIB_SRP_PRIV_H */
