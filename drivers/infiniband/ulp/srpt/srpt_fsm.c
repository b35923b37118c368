// SPDX-License-Identifier: GPL-2.0-only
/*
 * The target channel's state table: for each (state, event) the next state and what the channel
 * does.  A channel is NEW while its login is looked at, CONNECTING once accepted (the QP in RTR,
 * receives posted: commands may come before the CM says ESTABLISHED, as the 2006 design thread
 * has it), LIVE, and RELEASING when its release work owns it.  Documentation/srp.md draws it.
 */
#include <linux/kernel.h>
#include <kunit/visibility.h>
#include <oib/kunit/srpt.h>

#define DO(to, act)	{ .valid = 1, .next = SRPT_CH_##to, .action = SRPT_ACT_##act }

/* Every state that can still go: what ends it (and the target's stop, below). */
#define SRPT_ENDS							\
	[SRPT_EV_LOGOUT] = DO(RELEASING, RELEASE),			\
	[SRPT_EV_QP_ERROR] = DO(RELEASING, RELEASE),			\
	[SRPT_EV_CM_GONE] = DO(RELEASING, RELEASE),			\
	[SRPT_EV_DEVICE_REMOVAL] = DO(RELEASING, RELEASE)

static const struct srpt_ch_step srpt_ch_table[SRPT_CH_NSTATES][SRPT_EV_NEVENTS] = {
	[SRPT_CH_NEW] = {
		[SRPT_EV_LOGIN_OK] = DO(CONNECTING, ACCEPT),
		[SRPT_EV_LOGIN_BAD] = DO(RELEASING, REJECT),
	},
	[SRPT_CH_CONNECTING] = {
		[SRPT_EV_ESTABLISHED] = DO(LIVE, IGNORE),
		[SRPT_EV_IU] = DO(CONNECTING, SERVE),
		SRPT_ENDS,
		[SRPT_EV_STOP] = DO(RELEASING, RELEASE),
	},
	[SRPT_CH_LIVE] = {
		[SRPT_EV_IU] = DO(LIVE, SERVE),
		SRPT_ENDS,
		[SRPT_EV_STOP] = DO(RELEASING, LOGOUT),	/* established: it takes a T_LOGOUT */
	},
	/* Late events: the flushes of the drain, the CM's last word. */
	[SRPT_CH_RELEASING] = {
		[SRPT_EV_ESTABLISHED] = DO(RELEASING, IGNORE),
		[SRPT_EV_IU] = DO(RELEASING, IGNORE),
		[SRPT_EV_LOGOUT] = DO(RELEASING, IGNORE),
		[SRPT_EV_QP_ERROR] = DO(RELEASING, IGNORE),
		[SRPT_EV_CM_GONE] = DO(RELEASING, IGNORE),
		[SRPT_EV_DEVICE_REMOVAL] = DO(RELEASING, IGNORE),
		[SRPT_EV_STOP] = DO(RELEASING, IGNORE),
	},
};

struct srpt_ch_step srpt_ch_fsm_step(enum srpt_ch_state state, enum srpt_ch_event event)
{
	if (state >= SRPT_CH_NSTATES || event >= SRPT_EV_NEVENTS)
		return (struct srpt_ch_step){};
	return srpt_ch_table[state][event];
}
EXPORT_SYMBOL_IF_KUNIT(srpt_ch_fsm_step);

static const char *const srpt_ch_state_names[SRPT_CH_NSTATES] = {
	[SRPT_CH_NEW] = "NEW",
	[SRPT_CH_CONNECTING] = "CONNECTING",
	[SRPT_CH_LIVE] = "LIVE",
	[SRPT_CH_RELEASING] = "RELEASING",
};

const char *srpt_ch_state_name(enum srpt_ch_state state)
{
	return state < SRPT_CH_NSTATES ? srpt_ch_state_names[state] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(srpt_ch_state_name);
