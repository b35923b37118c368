#!/bin/sh
# Integration test: the liboibv examples (tools/examples, in the guest's /bin) run on a fresh
# oib_rxe device: oibv_rc_pingpong (two processes over pipes; over mapped rings, then over
# ioctls, polling, then sleeping on completion channels) and oibv_channel_demo (64 CQs on two
# completion channels, one epoll loop); then make bench's uvbench between two devices.  Leaves
# every driver module loaded.
. "$OIB_GUEST/lib.sh"

# after a failure: the fabrics' non-zero counters (drops say whether frames were lost)
counters() { cat /sys/kernel/debug/oib_rxe/fabrics/*/ports | grep -v ' 0$' | sed 's/^/# /'; }

[ -x /bin/oibv_rc_pingpong ] && [ -x /bin/oibv_channel_demo ] || { echo "# no examples"; exit 4; }
t "oib_uverbs is loaded" loaded oib_uverbs
rxe_add 1
t "add creates a device ($DEV)" test -n "$DEV"
t "$DEV has a uverbs device" test -e "/sys/class/oib/$DEV/uverbs"
t "oibv_rc_pingpong: 200 round trips between two processes" oibv_rc_pingpong -d "$DEV" -n 200 ||
	counters
t "oibv_rc_pingpong over ioctls (OIBV_RINGS=0): 200 round trips" \
	env OIBV_RINGS=0 oibv_rc_pingpong -d "$DEV" -n 200 || counters
t "oibv_rc_pingpong -e: 50 round trips sleeping on completion channels" \
	oibv_rc_pingpong -d "$DEV" -e -n 50 || counters
t "oibv_channel_demo: 5 rounds of 64 CQs on 2 channels" oibv_channel_demo -d "$DEV" -r 5 ||
	counters
# make bench's userspace load (tools/testing/user/uvbench): its report counts what it was asked for
uv() { _r=$(uvbench "$@") && echo "uvbench $*: $_r" && [ "${_r%% *}" = "ops=$4" ]; }
A=$DEV
rxe_add 1
t "uvbench lat: 64 ping-pongs between two devices" uv lat "$A,$DEV" 64 64 || counters
t "uvbench bw: a stream of 2000 sends" uv bw "$A,$DEV" 64 2000 || counters
rxe_remove "$A"
rxe_remove "$DEV"
t "remove deletes both" test ! -e "/sys/class/oib/$A" -a ! -e "/sys/class/oib/$DEV"
load_drivers
done_testing
