#!/bin/sh
# make bench, in the guest (mode bench of /init): runs the benchmark modules that tools/bench.sh put
# in /oib/bench and prints their results between markers for the host to turn into figures.
#   1. the in-tree stack: its kernel modules (/oib/bench/kmods, order in kmods.order), dummy0 with
#      MTU 9000 and 10.0.0.1/24, `rdma link add rxe0`, then oib_bench_ibrxe on rxe0;
#   2. oib: oib_core and oib_rxe, then oib_bench (the memcpy reference, then two oib_rxe devices).
# Each module runs its phases on insmod and is removed after.  Exit status 0 when every step worked
# (a benchmark reporting "n/a" is not a failure of this script).
B=/oib/bench
rc=0
err() { echo "oib-guest: bench: $*"; rc=1; }
msg() { echo "oib-guest: bench: $*  [$(cut -d' ' -f1 /proc/uptime) s]"; }

msg "in-tree rxe"
for f in $(cat $B/kmods.order); do
	[ -d /sys/module/${f%.ko} ] || insmod $B/kmods/$f || err "insmod $f"
done
ip link set dummy0 mtu 9000 up || err "dummy0 up"
ip addr add 10.0.0.1/24 dev dummy0 || err "dummy0 address"
if rdma link add rxe0 type rxe netdev dummy0; then
	insmod $B/oib_bench_ibrxe.ko dev=rxe0 || err "insmod oib_bench_ibrxe"
	rmmod oib_bench_ibrxe || err "rmmod oib_bench_ibrxe"
	rdma link delete rxe0 || err "rdma link delete rxe0"
else
	err "rdma link add rxe0"
fi

msg "oib"
loaded=
for m in $(cat $OIB_KO/order); do
	insmod $OIB_KO/$m.ko || err "insmod $m"
	loaded="$m $loaded"
done
insmod $B/oib_bench.ko || err "insmod oib_bench"
rmmod oib_bench || err "rmmod oib_bench"
for m in $loaded; do
	rmmod $m || err "rmmod $m"
done

echo "oib-guest: bench results begin"
dmesg | grep 'oib-bench: '
echo "oib-guest: bench results end"
exit $rc
