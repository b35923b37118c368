#!/bin/sh
# make bench, in the guest (mode bench of /init): runs the benchmark modules that tools/bench.sh put
# in /oib/bench and prints their results between markers for the host to turn into figures.
#   setup: the in-tree stack's kernel modules (/oib/bench/kmods, order in kmods.order), dummy0 with
#   MTU 9000 and 10.0.0.1/24, `rdma link add rxe0`; the oib driver modules ($OIB_KO/order: oib_core,
#   oib_rxe, oib_mad);
#   each round: oib_bench_ibrxe on rxe0, then oib_bench (the memcpy reference, then two oib_rxe
#   devices for RC, then two for MAD and RMPP: it needs oib_mad).  Each module runs its phases on
#   insmod and is removed after.
# Kernel command line: oib.bench_rounds=N (default 3); bench.PARAM=V goes to both benchmark modules,
# oib_bench.PARAM=V and oib_bench_ibrxe.PARAM=V to one.  Exit status 0 when every step worked (a
# benchmark reporting "n/a" is not a failure of this script).
B=/oib/bench
rc=0
err() { echo "oib-guest: bench: $*"; rc=1; }
msg() { echo "oib-guest: bench: $*  [$(cut -d' ' -f1 /proc/uptime) s]"; }

rounds=3
profile=0
both=
oargs=
rargs=
for arg in $(cat /proc/cmdline); do
	case $arg in
	oib.bench_rounds=*) rounds=${arg#*=} ;;
	oib.bench_profile=*) profile=${arg#*=} ;;
	bench.*=*) both="$both ${arg#bench.}" ;;
	oib_bench.*=*) oargs="$oargs ${arg#oib_bench.}" ;;
	oib_bench_ibrxe.*=*) rargs="$rargs ${arg#oib_bench_ibrxe.}" ;;
	esac
done

msg "setup: in-tree rxe and oib"
for f in $(cat $B/kmods.order); do
	[ -d /sys/module/${f%.ko} ] || insmod $B/kmods/$f || err "insmod $f"
done
ip link set dummy0 mtu 9000 up || err "dummy0 up"
ip addr add 10.0.0.1/24 dev dummy0 || err "dummy0 address"
rxe=1
rdma link add rxe0 type rxe netdev dummy0 || { err "rdma link add rxe0"; rxe=0; }
loaded=
for m in $(cat $OIB_KO/order); do
	insmod $OIB_KO/$m.ko || err "insmod $m"
	loaded="$m $loaded"
done
[ -d /sys/module/oib_mad ] || err "oib_mad is not loaded: oib_bench needs it"

# bench NAME MODULE ARGS...: insmod, in the first round under perf when profiling (its report is
# taken before rmmod, while the module's symbols are still in /proc/kallsyms)
bench() {
	name=$1
	shift
	if [ "$profile" = 1 ] && [ "$i" = 1 ]; then
		perf record -q -a -e cpu-clock -F 1999 -o /tmp/$name.data -- insmod "$@" || return 1
		echo "oib-guest: profile $name begin"
		perf report -q -i /tmp/$name.data --stdio --sort sym --percent-limit 0.7 2>/dev/null |
			head -40
		echo "oib-guest: profile $name end"
		rm -f /tmp/$name.data
	else
		insmod "$@"
	fi
}

i=0
while [ $i -lt "$rounds" ]; do
	i=$((i + 1))
	msg "round $i of $rounds: in-tree rxe"
	if [ $rxe = 1 ]; then
		bench rxe $B/oib_bench_ibrxe.ko dev=rxe0 $both $rargs || err "insmod oib_bench_ibrxe"
		rmmod oib_bench_ibrxe || err "rmmod oib_bench_ibrxe"
	fi
	msg "round $i of $rounds: memcpy and oib"
	bench oib $B/oib_bench.ko $both $oargs || err "insmod oib_bench"
	rmmod oib_bench || err "rmmod oib_bench"
done

[ $rxe = 0 ] || rdma link delete rxe0 || err "rdma link delete rxe0"
for m in $loaded; do
	rmmod $m || err "rmmod $m"
done

echo "oib-guest: bench results begin"
dmesg | grep 'oib-bench: '
echo "oib-guest: bench results end"
exit $rc
