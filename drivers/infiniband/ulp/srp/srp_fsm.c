// SPDX-License-Identifier: GPL-2.0-only
/*
 * The initiator connection's state table: for each (state, event) the next state and what the
 * host does.  Documentation/srp.md draws it.
 */
#include <linux/kernel.h>
#include <kunit/visibility.h>
#include <oib/kunit/srp.h>

#define DO(to, act)	{ .valid = 1, .next = SRP_CONN_##to, .action = SRP_DO_##act }

static const struct srp_conn_step srp_conn_table[SRP_CONN_NSTATES][SRP_CEV_NEVENTS] = {
	[SRP_CONN_IDLE] = {
		[SRP_CEV_CONNECT] = DO(CONNECTING, LOGIN),
		[SRP_CEV_REMOVE] = DO(REMOVING, NOTHING),
	},
	[SRP_CONN_CONNECTING] = {
		[SRP_CEV_LOGGED_IN] = DO(LIVE, WAKE),
		[SRP_CEV_REFUSED] = DO(LOST, WAKE),
		[SRP_CEV_GONE] = DO(LOST, WAKE),
		[SRP_CEV_REMOVE] = DO(REMOVING, WAKE),
	},
	[SRP_CONN_LIVE] = {
		[SRP_CEV_GONE] = DO(LOST, FAIL),
		[SRP_CEV_REFUSED] = DO(LOST, FAIL),
		[SRP_CEV_REMOVE] = DO(REMOVING, NOTHING),
	},
	[SRP_CONN_LOST] = {
		[SRP_CEV_GONE] = DO(LOST, NOTHING),
		[SRP_CEV_REFUSED] = DO(LOST, NOTHING),
		[SRP_CEV_REMOVE] = DO(REMOVING, NOTHING),
	},
	[SRP_CONN_REMOVING] = {
		[SRP_CEV_LOGGED_IN] = DO(REMOVING, NOTHING),
		[SRP_CEV_REFUSED] = DO(REMOVING, NOTHING),
		[SRP_CEV_GONE] = DO(REMOVING, NOTHING),
	},
};

struct srp_conn_step srp_conn_fsm_step(enum srp_conn_state state, enum srp_conn_event event)
{
	if (state >= SRP_CONN_NSTATES || event >= SRP_CEV_NEVENTS)
		return (struct srp_conn_step){};
	return srp_conn_table[state][event];
}
EXPORT_SYMBOL_IF_KUNIT(srp_conn_fsm_step);
