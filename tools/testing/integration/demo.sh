#!/bin/sh
# Integration test: the demo (tools/testing/guest/demo.sh) succeeds with oib_core and oib_rxe already
# loaded and shows two devices with two ACTIVE ports each.
. "$OIB_GUEST/lib.sh"

sh "$OIB_GUEST/demo.sh" >/tmp/demo.out 2>&1
rc=$?
ndev=0
nact=0
while IFS= read -r l; do
	echo "$l"
	case $l in
	*"  node_guid "*) ndev=$((ndev + 1)) ;;
	"  "[0-9]*ACTIVE*) nact=$((nact + 1)) ;;
	esac
done </tmp/demo.out
t "demo exits with status 0" test $rc -eq 0
t "demo shows two devices" test $ndev -eq 2
t "demo shows four ACTIVE ports" test $nact -eq 4
t "oib_core and oib_rxe are still loaded" test -d /sys/module/oib_core -a -d /sys/module/oib_rxe
done_testing
