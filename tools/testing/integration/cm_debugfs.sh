#!/bin/sh
# Integration test: oib_cm gives every port of a new device a CM agent with its counters in
# /sys/kernel/debug/oib_cm/<dev>/port<N>, lists its cm_ids and their states, takes the port's
# service away with the device, and unloads (after its users: oib_cma, oib_krping) and loads again
# with a device present.  Fails (exit status 4) when oib_cm is not loaded.  Leaves every driver module loaded.
. "$OIB_GUEST/lib.sh"

loaded oib_cm || { echo "# oib_cm is not loaded"; exit 4; }
CMFS=/sys/kernel/debug/oib_cm

rxe_add 2
t "add creates a device ($DEV)" test -n "$DEV"
t "port1 has a CM" test -e $CMFS/$DEV/port1
t "port2 has a CM" test -e $CMFS/$DEV/port2
t "port1 counts REQs" has_line $CMFS/$DEV/port1 "req "
t "port1 counts drops" has_line $CMFS/$DEV/port1 "drop_malformed 0"
t "states are counted" has_line $CMFS/states "established "
t "the cm_id list reads" cat $CMFS/ids
unload_users oib_cm
t "rmmod oib_cm with $DEV present" rmmod oib_cm
t "the service went with the module" test ! -e $CMFS
t "oib_cm loads again" load oib_cm
t "and serves $DEV" test -e $CMFS/$DEV/port2
rxe_remove "$DEV"
t "remove takes the service away" test ! -e $CMFS/$DEV

load_drivers
done_testing
