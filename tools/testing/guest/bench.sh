#!/bin/sh
# make bench, in the guest (mode bench of /init, which has loaded the kernel modules the in-tree stack
# needs: $OIB_KO/deps): runs the benchmark modules that tools/bench.sh put in /oib/bench and prints
# their results between markers for the host to turn into figures.
#   setup: dummy0 with MTU 9000 and 10.0.0.1/24, `rdma link add rxe0` on it; dummy1 with MTU 9000
#   and 10.0.1.1/24, `rdma link add siw0` on it; the oib driver modules (load_drivers: oib_core,
#   oib_mad, oib_cm, oib_rxe);
#   each round: oib_bench_intree on rxe0, then on siw0 (both over rdma_cm to the device's own
#   address: loopback), then oib_bench (the memcpy reference, then two oib_rxe devices for RC,
#   then two for MAD and RMPP, then two for CM: it needs oib_mad and oib_cm).  Each module runs
#   its phases on insmod and is removed after.
# Kernel command line: oib.bench_rounds=N (default 3); bench.PARAM=V goes to every benchmark
# module, oib_bench.PARAM=V and oib_bench_intree.PARAM=V to one.  Exit status 0 when every step worked (a
# benchmark reporting "n/a" is not a failure of this script).
. "$OIB_GUEST/lib.sh"
B=/oib/bench
rc=0
err() { echo "oib-guest: bench: $*"; rc=1; }

rounds=3
profile=0
both=
oargs=
rargs=
for arg in $CMDLINE; do
	case $arg in
	oib.bench_rounds=*) rounds=${arg#*=} ;;
	oib.bench_profile=*) profile=${arg#*=} ;;
	bench.*=*) both="$both ${arg#bench.}" ;;
	oib_bench.*=*) oargs="$oargs ${arg#oib_bench.}" ;;
	oib_bench_intree.*=*) rargs="$rargs ${arg#oib_bench_intree.}" ;;
	esac
done

msg "bench: setup: in-tree rxe, siw and oib"
ip link set dummy0 mtu 9000 up || err "dummy0 up"
ip addr add 10.0.0.1/24 dev dummy0 || err "dummy0 address"
ip link add dummy1 type dummy || err "dummy1"
ip link set dummy1 mtu 9000 up || err "dummy1 up"
ip addr add 10.0.1.1/24 dev dummy1 || err "dummy1 address"
ip link set lo up || err "lo up"
rxe=1
rdma link add rxe0 type rxe netdev dummy0 || { err "rdma link add rxe0"; rxe=0; }
siw=1
rdma link add siw0 type siw netdev dummy1 || { err "rdma link add siw0"; siw=0; }
load_drivers || err "loading the oib modules"
loaded oib_mad || err "oib_mad is not loaded: oib_bench needs it"
loaded oib_cm || err "oib_cm is not loaded: oib_bench needs it"

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
	msg "bench: round $i of $rounds: in-tree rxe"
	if [ $rxe = 1 ]; then
		bench rxe $B/oib_bench_intree.ko stack=rxe addr=10.0.0.1 $both $rargs ||
			err "insmod oib_bench_intree (rxe)"
		rmmod oib_bench_intree || err "rmmod oib_bench_intree"
	fi
	msg "bench: round $i of $rounds: in-tree siw"
	if [ $siw = 1 ]; then
		bench siw $B/oib_bench_intree.ko stack=siw addr=10.0.1.1 $both $rargs ||
			err "insmod oib_bench_intree (siw)"
		rmmod oib_bench_intree || err "rmmod oib_bench_intree"
	fi
	msg "bench: round $i of $rounds: memcpy and oib"
	bench oib $B/oib_bench.ko $both $oargs || err "insmod oib_bench"
	rmmod oib_bench || err "rmmod oib_bench"
done

[ $rxe = 0 ] || rdma link delete rxe0 || err "rdma link delete rxe0"
[ $siw = 0 ] || rdma link delete siw0 || err "rdma link delete siw0"
unload_drivers || err "unloading the oib modules"

echo "oib-guest: bench results begin"
dmesg | grep 'oib-bench: '
echo "oib-guest: bench results end"
exit $rc
