#!/bin/sh
# Integration test: the demo (tools/testing/guest/demo.sh) succeeds with the driver modules already
# loaded, shows two devices with two ACTIVE ports each, its krping figures (every test ending with
# result 0), both sides' cm_ids while connected, and the fabric counters of both ports.
. "$OIB_GUEST/lib.sh"

sh "$OIB_GUEST/demo.sh" >/tmp/demo.out 2>&1
rc=$?
ndev=0
nact=0
nkr=0
nest=0
nctr=0
while IFS= read -r l; do
	echo "$l"
	case $l in
	*"  node_guid "*) ndev=$((ndev + 1)) ;;
	"  "[0-9]*ACTIVE*) nact=$((nact + 1)) ;;
	*" B "*"/s "*"result 0") nkr=$((nkr + 1)) ;;
	*" established "*) nest=$((nest + 1)) ;;
	"  oib_rxe"*) nctr=$((nctr + 1)) ;;
	esac
done </tmp/demo.out
t "demo exits with status 0" test $rc -eq 0
t "demo shows two devices" test $ndev -eq 2
t "demo shows four ACTIVE ports" test $nact -eq 4
t "demo shows six krping results, all 0" test $nkr -eq 6
t "demo shows both sides ESTABLISHED" test $nest -ge 2
t "demo shows the counters of two ports" test $nctr -eq 2
t "oib_core and oib_rxe are still loaded" test -d /sys/module/oib_core -a -d /sys/module/oib_rxe
done_testing
