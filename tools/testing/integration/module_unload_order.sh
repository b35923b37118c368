#!/bin/sh
# Integration test: oib_core cannot go while oib_rxe uses it, devices come and go through oib_rxe's
# link type (oib link add and delete), unloading oib_rxe with a device present removes the device
# and its link type, and oib_rxe can be loaded again afterwards.  Leaves every driver module loaded.
. "$OIB_GUEST/lib.sh"

has_devs() { for _p in /sys/class/oib/oib_rxe*; do [ -e "$_p" ] && return 0; done; return 1; }

t "oib_core is loaded" loaded oib_core
t "oib_rxe is loaded" loaded oib_rxe
rxe_add 2
t "add creates a device ($DEV)" test -n "$DEV"
t "/sys/class/oib/oib_rxe* exists" has_devs
t "rmmod oib_core fails while oib_rxe is loaded" fails rmmod oib_core
t "oib_core is still loaded" loaded oib_core
rxe_remove "$DEV"
t "remove deletes $DEV" test ! -e "/sys/class/oib/$DEV"
rxe_add 2
t "add creates another device ($DEV)" test -n "$DEV"
t "rmmod oib_rxe with $DEV present" rmmod oib_rxe
t "$DEV is gone with oib_rxe" test ! -e "/sys/class/oib/$DEV"
t "no oib_rxe devices are left" fails has_devs
t "the link type rxe went with it" fails oib link add gone type rxe
t "oib_rxe loads again" load oib_rxe
t "the reloaded oib_rxe starts without devices" fails has_devs
t "its link type is back" rxe_add 1
t "... and makes $DEV" test -e "/sys/class/oib/$DEV"
rxe_remove "$DEV"

load_drivers
done_testing
