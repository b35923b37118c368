/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_srp's internals for its KUnit suites: the initiator connection's state table, and hosts
 * made, watched, reset and removed by the test.
 */
#ifndef OIB_KUNIT_SRP_H
#define OIB_KUNIT_SRP_H

#include <linux/socket.h>
#include <linux/types.h>
#include <oib/srp.h>

enum srp_conn_state {
	SRP_CONN_IDLE,		/* no login yet */
	SRP_CONN_CONNECTING,	/* the first login: resolving, REQ with the login sent */
	SRP_CONN_LIVE,		/* logged in: commands go */
	SRP_CONN_DOWN,		/* lost: commands held, the reconnect work releases and retries */
	SRP_CONN_RECONNECTING,	/* a new login under way: commands held */
	SRP_CONN_FAILED,	/* refused, or away past fail_timeout: commands fail */
	SRP_CONN_REMOVING,	/* the host is being removed */
	SRP_CONN_NSTATES
};

enum srp_conn_event {
	SRP_CEV_CONNECT,	/* the owner starts the first login */
	SRP_CEV_STEP,		/* a channel's address or route resolved, or logged in (not the
				 * last channel's): the login goes on
				 */
	SRP_CEV_LOGGED_IN,	/* ESTABLISHED with a LOGIN_RSP */
	SRP_CEV_REFUSED,	/* REJECTED, UNREACHABLE, CONNECT_ERROR, a bad answer, a timeout */
	SRP_CEV_GONE,		/* DISCONNECTED, DEVICE_REMOVAL, a QP error, a host reset */
	SRP_CEV_RETRY,		/* the reconnect work logs in again */
	SRP_CEV_GIVE_UP,	/* fail_timeout passed, or the owner removes a host that is away */
	SRP_CEV_REMOVE,		/* the owner removes the host */
	SRP_CEV_NEVENTS
};

enum srp_action {
	SRP_DO_NOTHING,
	SRP_DO_LOGIN,		/* resolve, connect with the login */
	SRP_DO_WAKE,		/* the login's waiter learns the answer */
	SRP_DO_RECOVER,		/* hold the commands, queue the reconnect work */
	SRP_DO_RELEASE,		/* wake the login's waiter; held commands go on (and fail) */
};

struct srp_conn_step {
	u8 valid;
	u8 next;	/* enum srp_conn_state */
	u8 action;	/* enum srp_action */
};

struct srp_conn_step srp_conn_fsm_step(enum srp_conn_state state, enum srp_conn_event event);
const char *srp_conn_state_name(enum srp_conn_state state);

/* ---- Hosts (srp_host.c) ---- */

struct srp_host;
struct Scsi_Host;

/* The initiator's side of the credits, under the host's lock. */
struct srp_host_stats {
	u32 outstanding;	/* IUs sent that took a credit, not answered yet */
	u32 max_outstanding;
	u32 max_credits;	/* most held at once: each a receive the target has posted */
	u32 logins;		/* successful, the first one included */
	u32 remote_inv;		/* commands whose response invalidated their MR */
	u32 local_inv;		/* commands whose MR a LOCAL_INV invalidated */
	u32 cmds;		/* SRP_CMDs sent */
	u32 imm;		/* of them writes with their data in the IU (immediate data) */
	u32 t_logouts;		/* SRP_T_LOGOUTs received */
	u32 cred_reqs;		/* SRP_CRED_REQs taken (each answered with SRP_CRED_RSP) */
	u32 channels;		/* the host's (srp_host_get_stats() only) */
};

struct srp_port;

/*
 * What add_target names (srp_options.c): the target's address and port, the target port ID the
 * login names, the IU length it asks for, the channels (0: the ch_count parameter's); and the
 * port whose add_target it was written to, which the logins leave from (NULL, the suites':
 * whichever the route picks).
 */
struct srp_target_spec {
	struct sockaddr_storage dst;
	u8 port_id[16];
	u32 it_iu_len;
	u32 ch_count;
	struct srp_port *port;
};

int srp_target_parse(const char *val, struct srp_target_spec *s);
struct srp_host *srp_host_add(const struct srp_target_spec *s);
void srp_host_remove(struct srp_host *h);
void srp_host_free(struct srp_host *h);
struct Scsi_Host *srp_host_shost(struct srp_host *h);
enum srp_conn_state srp_host_state(struct srp_host *h);
struct srp_host_stats srp_host_get_stats(struct srp_host *h);
struct srp_host_stats srp_host_ch_stats(struct srp_host *h, u32 ch);
int srp_conn_reset(struct srp_host *h);

/* ---- Channels (srp_conn.c) ---- */

u32 srp_ch_count_pick(u32 wanted, u32 comp_vectors, u32 cpus);
int srp_login_rsp_check(u8 req_flags, u32 it_iu_len, const struct oib_srp_login_answer *a);

/* ---- The target's requests (srp_tiu.c) ---- */

int srp_cred_req_check(const void *iu, u32 len, int credits, u64 *tag, u32 *delta);
int srp_host_send_raw(struct srp_host *h, u32 c, const void *iu, u32 len);

#endif /* OIB_KUNIT_SRP_H */
