#!/bin/sh
# Integration test: the demo's two-host mode (TWO_HOSTS=1 make run) succeeds with the driver modules
# already loaded: two devices, each on its end of a veth pair between two namespaces, with one
# ACTIVE port each, and its krping figures (every test ending with result 0).  Fails (exit status 4) without
# iproute2's ip.
. "$OIB_GUEST/lib.sh"

case $(ip -V 2>&1) in *iproute2*) ;; *) echo "# no iproute2 ip"; exit 4 ;; esac
OIB_TWO_HOSTS=1 sh "$OIB_GUEST/demo.sh" >/tmp/demo2.out 2>&1
rc=$?
nact=0
nkr=0
while IFS= read -r l; do
	echo "$l"
	case $l in
	"  1 "*ACTIVE*) nact=$((nact + 1)) ;;
	*" B "*"/s "*"result 0") nkr=$((nkr + 1)) ;;
	esac
done </tmp/demo2.out
t "two-host demo exits with status 0" test $rc -eq 0
t "two-host demo shows two ACTIVE ports" test $nact -eq 2
t "two-host demo shows six krping results, all 0" test $nkr -eq 6
t "no namespace is left" test -z "$(ip netns list)"
done_testing
