/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * oib_srp's internals for its KUnit suites: the initiator connection's state table.
 */
#ifndef OIB_KUNIT_SRP_H
#define OIB_KUNIT_SRP_H

#include <linux/types.h>

enum srp_conn_state {
	SRP_CONN_IDLE,		/* no login yet */
	SRP_CONN_CONNECTING,	/* resolving, REQ with the login sent */
	SRP_CONN_LIVE,		/* logged in: commands go */
	SRP_CONN_LOST,		/* refused, unreachable or gone: commands fail */
	SRP_CONN_REMOVING,	/* the host is being removed */
	SRP_CONN_NSTATES
};

enum srp_conn_event {
	SRP_CEV_CONNECT,	/* the owner starts the login */
	SRP_CEV_LOGGED_IN,	/* ESTABLISHED with a LOGIN_RSP */
	SRP_CEV_REFUSED,	/* REJECTED, UNREACHABLE, CONNECT_ERROR, a bad answer, a timeout */
	SRP_CEV_GONE,		/* DISCONNECTED, DEVICE_REMOVAL, a QP error, T_LOGOUT */
	SRP_CEV_REMOVE,		/* the owner removes the host */
	SRP_CEV_NEVENTS
};

enum srp_action {
	SRP_DO_NOTHING,
	SRP_DO_LOGIN,		/* resolve, connect with the login */
	SRP_DO_WAKE,		/* the login's waiter learns the answer */
	SRP_DO_FAIL,		/* queue the lost work: drain, fail the commands left */
};

struct srp_conn_step {
	u8 valid;
	u8 next;	/* enum srp_conn_state */
	u8 action;	/* enum srp_action */
};

struct srp_conn_step srp_conn_fsm_step(enum srp_conn_state state, enum srp_conn_event event);

#endif /* OIB_KUNIT_SRP_H */
