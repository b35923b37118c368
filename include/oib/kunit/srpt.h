/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_srpt's internals for its KUnit suites: targets made and removed by the test, their LUNs'
 * memory and counters, the channel state table, and the SCSI emulation on its own.
 */
#ifndef OIB_KUNIT_SRPT_H
#define OIB_KUNIT_SRPT_H

#include <linux/socket.h>
#include <linux/types.h>
#include <oib/srp.h>

/* Receives a channel posts: its initial request limit, the most it ever grants. */
#define SRPT_RQ_SIZE		32

/* ---- The channel's state table (srpt_fsm.c) ---- */

enum srpt_ch_state {
	SRPT_CH_NEW,		/* CONNECT_REQUEST: the login being looked at */
	SRPT_CH_CONNECTING,	/* accepted (QP in RTR), receives posted; not established yet */
	SRPT_CH_LIVE,		/* established */
	SRPT_CH_RELEASING,	/* its release work owns it: drained, destroyed */
	SRPT_CH_NSTATES
};

enum srpt_ch_event {
	SRPT_EV_LOGIN_OK,
	SRPT_EV_LOGIN_BAD,
	SRPT_EV_ESTABLISHED,
	SRPT_EV_IU,		/* an SRP_CMD or SRP_TSK_MGMT received */
	SRPT_EV_LOGOUT,		/* SRP_I_LOGOUT received */
	SRPT_EV_QP_ERROR,	/* a completion in error that no release caused */
	SRPT_EV_CM_GONE,	/* DISCONNECTED, REJECTED, CONNECT_ERROR, UNREACHABLE */
	SRPT_EV_DEVICE_REMOVAL,
	SRPT_EV_STOP,		/* the target goes away */
	SRPT_EV_NEVENTS
};

enum srpt_ch_action {
	SRPT_ACT_IGNORE,	/* nothing to do (a late event) */
	SRPT_ACT_ACCEPT,	/* answer the login with a LOGIN_RSP in the REP */
	SRPT_ACT_REJECT,	/* answer it with a LOGIN_REJ in the REJ; the id goes */
	SRPT_ACT_SERVE,		/* serve the IU */
	SRPT_ACT_RELEASE,	/* queue the release work */
	SRPT_ACT_LOGOUT,	/* the same, which sends SRP_T_LOGOUT first (the target stops) */
};

struct srpt_ch_step {
	u8 valid;
	u8 next;	/* enum srpt_ch_state */
	u8 action;	/* enum srpt_ch_action */
};

struct srpt_ch_step srpt_ch_fsm_step(enum srpt_ch_state state, enum srpt_ch_event event);
const char *srpt_ch_state_name(enum srpt_ch_state state);

/* ---- SCSI emulation over memory LUNs (srpt_scsi.c) ---- */

#define SRPT_BLOCK_SIZE		512
#define SRPT_MAX_LUNS		16	/* LUNs of a target */
#define SRPT_MAX_LUN		256	/* LUN numbers below it: peripheral device addressing */
#define SRPT_SENSE_LEN		18
#define SRPT_EMUL_BUF		256

struct file;

/* A LUN: memory, or a file or block device (its data through the page cache, a bounce buffer). */
struct srpt_lun {
	u64 lun;		/* as the SCSI midlayer numbers it (0, 1, ...) */
	u64 blocks;
	u8 *mem;		/* memory: vzalloc'd, blocks * SRPT_BLOCK_SIZE; else NULL */
	struct file *file;	/* file or block device: opened read-write; else NULL */
};

/* What a LUN is made of: @path (a regular file or a block device), or @bytes of memory. */
struct srpt_lun_spec {
	u64 lun;
	u64 bytes;
	const char *path;
};

struct srpt_luns {
	u32 n;
	struct srpt_lun *lun;
	char serial[16];	/* VPD 0x80 and 0x83 */
};

/* One command's execution: what the channel moves and answers. */
struct srpt_scsi_req {
	/* in */
	u64 lun;
	const u8 *cdb;
	enum oib_srp_data_dir dir;	/* what the initiator's descriptors allow */
	/* out */
	u8 status;			/* SAM status */
	u8 sense[SRPT_SENSE_LEN];
	u32 sense_len;
	enum oib_srp_data_dir data_dir;	/* which way @data moves */
	u8 *data;			/* LUN memory, or @buf; NULL: @file's, bounced */
	u32 data_len;
	struct file *file;		/* a file LUN's READ, WRITE or SYNCHRONIZE CACHE */
	loff_t pos;			/* where in @file */
	u8 buf[SRPT_EMUL_BUF];		/* emulated commands' data-in */
};

void srpt_scsi_exec(const struct srpt_luns *luns, struct srpt_scsi_req *req);
void srpt_scsi_refuse(struct srpt_scsi_req *req);
void srpt_scsi_io_error(struct srpt_scsi_req *req, bool write);

/* ---- Targets (srpt_target.c) ---- */

struct srpt_target;

struct srpt_stats {
	atomic_t logins;		/* accepted */
	atomic_t rejects;		/* logins refused */
	atomic_t channels;		/* live channel structs */
	atomic_t cmds;			/* SRP_CMDs served */
	atomic_t tsk_mgmt;
	atomic_t dropped;		/* IUs dropped: malformed, unknown, out of state */
	atomic_t over_limit;		/* IUs beyond the credits granted */
	atomic_t max_in_flight;		/* most IUs being served at once on a channel */
	atomic_t cred_reqs;		/* SRP_CRED_REQs sent */
	atomic_t imm;			/* SRP_CMDs whose data-out came as immediate data */
};

struct srpt_target *srpt_target_create(const struct sockaddr *addr, const u8 *port_id,
				       u32 nluns, u64 lun_bytes);
struct srpt_target *srpt_target_create_luns(const struct sockaddr *addr, const u8 *port_id,
					    const struct srpt_lun_spec *spec, u32 nluns);
void srpt_target_destroy(struct srpt_target *t);
struct srpt_stats *srpt_target_stats(struct srpt_target *t);
u8 *srpt_target_lun_mem(struct srpt_target *t, u32 index);
u32 srpt_target_channels_in(struct srpt_target *t, enum srpt_ch_state state);

#endif /* OIB_KUNIT_SRPT_H */
