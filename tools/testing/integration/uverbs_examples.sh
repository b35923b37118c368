#!/bin/sh
# Integration test: the liboibv examples (tools/examples, in the guest's /bin) run on a fresh
# oib_rxe device: oibv_rc_pingpong (two processes over pipes; over mapped rings, then over
# ioctls, each printing its round trip) and oibv_channel_demo (64 CQs on two completion
# channels, one epoll loop).  Leaves every driver module loaded.
. "$OIB_GUEST/lib.sh"

[ -x /bin/oibv_rc_pingpong ] && [ -x /bin/oibv_channel_demo ] || { echo "# no examples"; exit 4; }
t "oib_uverbs is loaded" loaded oib_uverbs
rxe_add 1
t "add creates a device ($DEV)" test -n "$DEV"
t "$DEV has a uverbs device" test -e "/sys/class/oib/$DEV/uverbs"
t "oibv_rc_pingpong: 200 round trips between two processes" oibv_rc_pingpong -d "$DEV" -n 200
t "oibv_rc_pingpong over ioctls (OIBV_RINGS=0): 200 round trips" \
	env OIBV_RINGS=0 oibv_rc_pingpong -d "$DEV" -n 200
t "oibv_channel_demo: 5 rounds of 64 CQs on 2 channels" oibv_channel_demo -d "$DEV" -r 5
rxe_remove "$DEV"
t "remove deletes $DEV" test ! -e "/sys/class/oib/$DEV"
load_drivers
done_testing
