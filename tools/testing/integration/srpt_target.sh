#!/bin/sh
# Integration test: oib_srpt's target parameter (Documentation/srp.md): a target with memory LUNs
# on a port, shown, a malformed or conflicting one refused while it stays, stopped, made again on
# the same port, and taken down by rmmod.  Fails (exit status 4) when oib_srpt is not loaded.  Leaves every
# driver module loaded.
. "$OIB_GUEST/lib.sh"

loaded oib_srpt || { echo "# oib_srpt is not loaded"; exit 4; }
P=/sys/module/oib_srpt/parameters/target
w() { echo "$1" >$P; }
is() { get $P; test "$V" = "$1"; }

rxe_add 1
t "add creates a device ($DEV)" test -n "$DEV"
t "no target at first" is ""
t "a target on port 5555, 2 LUNs of 8 MiB" w "5555 2 8"
t "it shows" is "5555 2 8"
t "port 0 is refused" fails w "0 1 8"
t "no LUN is refused" fails w "5556 0 8"
t "17 LUNs are refused" fails w "5556 17 8"
t "less than 1 MiB is refused" fails w "5556 1 0"
t "garbage is refused" fails w "port 1 8"
t "the same port again is refused" fails w "5555 1 8"
t "the first target stays" is "5555 2 8"
t "another port replaces it" w "5557 1 4"
t "it shows" is "5557 1 4"
t "stop" w ""
t "nothing shows" is ""
t "port 5555 is free again" w "5555 1 1"
t "rmmod oib_srpt with a target" rmmod oib_srpt
t "oib_srpt loads again" load oib_srpt
t "with no target" is ""
rxe_remove "$DEV"

load_drivers
done_testing
