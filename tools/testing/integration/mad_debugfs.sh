#!/bin/sh
# Integration test: oib_mad gives every port of a new device a MAD service with its own agent,
# shown in /sys/kernel/debug/oib_mad/<dev>/port<N> (counters, window, send lists), and takes it
# away with the device; oib_mad unloads (after oib_cm, which uses it, and oib_cm's users) and loads
# again with a device present.  Fails (exit status 4) when oib_mad is not loaded.  Leaves every driver module loaded.
. "$OIB_GUEST/lib.sh"

loaded oib_mad || { echo "# oib_mad is not loaded"; exit 4; }
MADFS=/sys/kernel/debug/oib_mad

rxe_add 2
t "add creates a device ($DEV)" test -n "$DEV"
t "port1 has a MAD service" test -e $MADFS/$DEV/port1
t "port2 has a MAD service" test -e $MADFS/$DEV/port2
t "port1 counts what it sent" has_line $MADFS/$DEV/port1 "sent "
t "port1 shows its window" has_line $MADFS/$DEV/port1 "outstanding 0/32"
t "port1 lists its port send list" has_line $MADFS/$DEV/port1 "port send list:"
t "port1 has its own agent" has_line $MADFS/$DEV/port1 "agent hi_tid"
unload_users oib_cm
! loaded oib_cm || t "rmmod oib_cm, which uses oib_mad" rmmod oib_cm
t "rmmod oib_mad with $DEV present" rmmod oib_mad
t "the service went with the module" test ! -e $MADFS
t "oib_mad loads again" load oib_mad
t "and serves $DEV" test -e $MADFS/$DEV/port2
rxe_remove "$DEV"
t "remove takes the service away" test ! -e $MADFS/$DEV

load_drivers
done_testing
