// SPDX-License-Identifier: GPL-2.0-only
/*
 * The initiator connection's state table: for each (state, event) the next state and what the
 * host does.  Documentation/srp.md draws it.  The first login's failure is final (add_target
 * fails); a live connection that goes is logged in again until fail_timeout, its commands held
 * meanwhile; late events of a login given up are absorbed.
 */
#include <linux/kernel.h>
#include <kunit/visibility.h>
#include <oib/kunit/srp.h>

#define DO(to, act)	{ .valid = 1, .next = SRP_CONN_##to, .action = SRP_DO_##act }
/* What a connection that is not logging in ignores: its last login's or its QP's late news. */
#define ABSORB_DOWN \
	[SRP_CEV_STEP] = DO(DOWN, NOTHING), [SRP_CEV_LOGGED_IN] = DO(DOWN, NOTHING), \
	[SRP_CEV_REFUSED] = DO(DOWN, NOTHING), [SRP_CEV_GONE] = DO(DOWN, NOTHING)
#define ABSORB_FAILED \
	[SRP_CEV_STEP] = DO(FAILED, NOTHING), [SRP_CEV_LOGGED_IN] = DO(FAILED, NOTHING), \
	[SRP_CEV_REFUSED] = DO(FAILED, NOTHING), [SRP_CEV_GONE] = DO(FAILED, NOTHING)
#define ABSORB_REMOVING \
	[SRP_CEV_STEP] = DO(REMOVING, NOTHING), [SRP_CEV_LOGGED_IN] = DO(REMOVING, NOTHING), \
	[SRP_CEV_REFUSED] = DO(REMOVING, NOTHING), [SRP_CEV_GONE] = DO(REMOVING, NOTHING)

static const struct srp_conn_step srp_conn_table[SRP_CONN_NSTATES][SRP_CEV_NEVENTS] = {
	[SRP_CONN_IDLE] = {
		[SRP_CEV_CONNECT] = DO(CONNECTING, LOGIN),
		[SRP_CEV_REMOVE] = DO(REMOVING, NOTHING),
	},
	[SRP_CONN_CONNECTING] = {
		[SRP_CEV_STEP] = DO(CONNECTING, WAKE),
		[SRP_CEV_LOGGED_IN] = DO(LIVE, WAKE),
		[SRP_CEV_REFUSED] = DO(FAILED, WAKE),
		[SRP_CEV_GONE] = DO(FAILED, WAKE),
		[SRP_CEV_REMOVE] = DO(REMOVING, WAKE),
	},
	[SRP_CONN_LIVE] = {
		[SRP_CEV_GONE] = DO(DOWN, RECOVER),
		[SRP_CEV_REFUSED] = DO(DOWN, RECOVER),
		[SRP_CEV_GIVE_UP] = DO(LIVE, NOTHING),
		[SRP_CEV_REMOVE] = DO(REMOVING, NOTHING),
	},
	[SRP_CONN_DOWN] = {
		ABSORB_DOWN,
		[SRP_CEV_RETRY] = DO(RECONNECTING, LOGIN),
		[SRP_CEV_GIVE_UP] = DO(FAILED, RELEASE),
		[SRP_CEV_REMOVE] = DO(REMOVING, RELEASE),
	},
	[SRP_CONN_RECONNECTING] = {
		[SRP_CEV_STEP] = DO(RECONNECTING, WAKE),
		[SRP_CEV_LOGGED_IN] = DO(LIVE, WAKE),
		[SRP_CEV_REFUSED] = DO(DOWN, WAKE),
		[SRP_CEV_GONE] = DO(DOWN, WAKE),
		[SRP_CEV_GIVE_UP] = DO(FAILED, RELEASE),
		[SRP_CEV_REMOVE] = DO(REMOVING, RELEASE),
	},
	[SRP_CONN_FAILED] = {
		ABSORB_FAILED,
		[SRP_CEV_GIVE_UP] = DO(FAILED, NOTHING),
		[SRP_CEV_REMOVE] = DO(REMOVING, NOTHING),
	},
	[SRP_CONN_REMOVING] = {
		ABSORB_REMOVING,
		[SRP_CEV_GIVE_UP] = DO(REMOVING, NOTHING),
	},
};

static const char *const srp_conn_names[SRP_CONN_NSTATES] = {
	[SRP_CONN_IDLE] = "idle", [SRP_CONN_CONNECTING] = "connecting", [SRP_CONN_LIVE] = "live",
	[SRP_CONN_DOWN] = "down", [SRP_CONN_RECONNECTING] = "reconnecting",
	[SRP_CONN_FAILED] = "failed", [SRP_CONN_REMOVING] = "removing",
};

const char *srp_conn_state_name(enum srp_conn_state state)
{
	return state < SRP_CONN_NSTATES ? srp_conn_names[state] : "?";
}

struct srp_conn_step srp_conn_fsm_step(enum srp_conn_state state, enum srp_conn_event event)
{
	if (state >= SRP_CONN_NSTATES || event >= SRP_CEV_NEVENTS)
		return (struct srp_conn_step){};
	return srp_conn_table[state][event];
}
EXPORT_SYMBOL_IF_KUNIT(srp_conn_fsm_step);
