#!/bin/sh
# make bench's two hosts, in each of two guests (mode wire of /init, one vCPU each): their virtio-net
# NICs eth0 joined by a QEMU network (tools/bench.sh), MTU 9000, the server 10.90.0.1/24, the
# client 10.90.0.2/24.  The same phases run on both sides, one stack at a time (the in-tree rxe and
# oib_rxe both bind UDP 4791, and rdma_cm would not know which device owns the address): the
# server starts its half of a phase, waits until it listens, then hands the phase's name to the
# client over the wire itself (go: busybox nc, port 7400); the client asks for it until it gets
# it (await), runs its half and prints the figure.  Stacks and tools:
#   wire: iperf3's TCP stream and UDP flood (received), the wire's own rate;
#   rxe, siw: the in-tree devices on eth0, perftest through the in-tree rdma_cm (ib_write_bw,
#     ib_read_bw, ib_send_bw, ib_write_lat, busy-polling: the figures, data not checked)
#     and rdma-core's rping with -V at 64 B and 64 KiB - 1 (every iteration's data compared: the
#     stack's data check);
#   oib, oib_siw: oib_rxe (RoCEv2 over UDP, ICRC computed and checked) and oib_siw on eth0,
#     oib_krping over oib_cma on completion events (a poller on one vCPU holds up the softirq
#     work it waits for): wlat, bw and rbw with validate (every wlat message, bw's server buffer
#     at the end, rbw's client buffer), its rping exchange with validate;
#   mixed, mixed_siw: rping serving on the in-tree rxe (siw), oib_krping's client on oib_rxe
#     (oib_siw) on the other host: the rping exchange, verified.
# A data check that fails fails the script (exit status 1); a figure that could not be measured is
# an "n/a" line.  Kernel command line: oib.wire_role=server|client, oib.bench_rounds=N (3).
. "$OIB_GUEST/lib.sh"
rc=0
err() { echo "oib-guest: wire: FAILED: $*"; rc=1; }
res() { echo "oib-bench: result $1 $2 $3" >/dev/kmsg; }
na() { echo "oib-bench: n/a $1 $2 $3" >/dev/kmsg; }

role=
rounds=3
khz=0
for arg in $CMDLINE; do
	case $arg in
	oib.wire_role=*) role=${arg#*=} ;;
	oib.bench_rounds=*) rounds=${arg#*=} ;;
	tsc_early_khz=*) khz=${arg#*=} ;;
	esac
done
SRV=10.90.0.1
case $role in
server) me=$SRV ;;
client) me=10.90.0.2 ;;
*) err "oib.wire_role=$role: server or client"; exit 1 ;;
esac

# go NAME (server): hands NAME to the client's next await, once (300 s at most); await NAME
# (client): asks the server until it hands a name (300 s at most), fails unless it is NAME
go() { timeout 300 nc -l -p 7400 -e echo "$1" >/dev/null 2>&1 || err "$1: the client never asked"; }
await() {
	_i=0
	while [ $_i -lt 3000 ]; do
		_w=$(nc $SRV 7400 </dev/null 2>/dev/null)
		if [ -n "$_w" ]; then
			[ "$_w" = "$1" ] && return 0
			err "waited for $1, the server handed $_w"
			return 1
		fi
		sleep 0.1
		_i=$((_i + 1))
	done
	err "waited 300 s for $1"
	return 1
}
listening() { rdma resource show cm_id | grep -q "link $1/.*state LISTEN.*:$2 "; }

msg "wire: $role $me, eth0 up"
ip link set lo up && ip link set eth0 mtu 9000 up && ip addr add $me/24 dev eth0 ||
	{ err "eth0"; exit 1; }
[ $role = server ] || until20 ping -c 1 -W 1 $SRV >/dev/null || err "no answer from $SRV"
load_drivers || err "the oib modules"
echo "oib-bench: clock khz=$khz cpus=2" >/dev/kmsg
# perftest's clients can crash in librdmacm after a rejected connection (pt_client tries again):
# a user program's fault is no kernel finding, so the kernel does not log it
echo 0 >/proc/sys/debug/exception-trace

. "$OIB_GUEST/wire_phases.sh"

i=0
while [ $i -lt "$rounds" ]; do
	i=$((i + 1))
	msg "wire: round $i of $rounds: the wire (iperf3)"
	iperf_phase tcp_bw
	iperf_phase udp_bw -u -b 0 -l 8192
	for _s in rxe siw; do
		msg "wire: round $i of $rounds: in-tree $_s"
		intree_stack $_s
	done
	for _s in rxe siw; do
		msg "wire: round $i of $rounds: oib_$_s"
		oib_stack $_s
	done
	msg "wire: round $i of $rounds: mixed pairs"
	mixed_stack rxe
	mixed_stack siw
done
if [ $role = server ]; then go end; else await end; fi
unload_drivers || err "unloading the oib modules"
echo "oib-guest: bench results begin"
dmesg | grep 'oib-bench: '
echo "oib-guest: bench results end"
exit $rc
