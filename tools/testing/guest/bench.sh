#!/bin/sh
# make bench, in the guest (mode bench of /init, which has loaded the kernel modules the in-tree stack
# needs: $OIB_KO/deps): runs the benchmark modules that tools/bench.sh put in /oib/bench and prints
# their results between markers for the host to turn into figures.
#   setup: dummy0 with MTU 9000 and 10.0.0.1/24, `rdma link add rxe0` on it; dummy1 with MTU 9000
#   and 10.0.1.1/24, `rdma link add siw0` on it; dummy2 and dummy3 (10.0.2.1, 10.0.3.1), where
#   oib_bench makes its two oib_siw devices; the oib driver modules (load_drivers);
#   each round: oib_bench_intree on rxe0, then on siw0 (both over rdma_cm to the device's own
#   address: loopback), then oib_bench (the memcpy reference, then two oib_rxe devices for RC,
#   then two for MAD and RMPP, then two for CM, then two for oib_cma's connection rate: it needs
#   oib_mad, oib_cm and oib_cma; then the same RC and connection phases between two oib_siw
#   devices: the iWARP figures), then oib_krping's latency and bandwidth between two more oib_rxe
#   devices with IP addresses (krping_bench), then rping's exchange on the in-tree rxe and siw
#   (loopback) and oib over UDP between namespaces, oib to oib and oib to the in-tree rxe
#   (udp_bench), then userspace verbs: perftest on the in-tree rxe and siw, uvbench on oib
#   (uvbench.sh), then storage (storage_bench): oib_srp on oib's fabric and over UDP, the in-tree
#   SRP and NVMe-oF over the in-tree rxe, a local RAM disk, then sockets (sdpbench.sh): SDP on
#   oib's fabric against TCP over loopback.  Each module runs its phases on insmod and is removed
#   after.
# Kernel command line: oib.bench_rounds=N (default 3); bench.PARAM=V goes to every benchmark
# module, oib_bench.PARAM=V and oib_bench_intree.PARAM=V to one; with bench.only=PHASE (one RC phase)
# the benchmark modules run that phase alone and the other benchmarks do not run; bench.only=storage:
# the storage figures alone; bench.only=sdp: the socket figures alone.  Exit status 0 when every step worked (a
# benchmark reporting "n/a" is not a failure of this script).
. "$OIB_GUEST/lib.sh"
. "$OIB_GUEST/srp.sh"
. "$OIB_GUEST/uvbench.sh"
. "$OIB_GUEST/sdpbench.sh"
B=/oib/bench
rc=0
err() { echo "oib-guest: bench: $*"; rc=1; }

rounds=3
profile=0
only=
both=
oargs=
rargs=
for arg in $CMDLINE; do
	case $arg in
	oib.bench_rounds=*) rounds=${arg#*=} ;;
	oib.bench_profile=*) profile=${arg#*=} ;;
	bench.only=*) only=${arg#*=}; both="$both ${arg#bench.}" ;;
	bench.*=*) both="$both ${arg#bench.}" ;;
	oib_bench.*=*) oargs="$oargs ${arg#oib_bench.}" ;;
	oib_bench_intree.*=*) rargs="$rargs ${arg#oib_bench_intree.}" ;;
	tsc_early_khz=*) echo "oib-bench: clock khz=${arg#*=} cpus=$(nproc)" >/dev/kmsg ;;
	esac
done

msg "bench: setup: in-tree rxe, siw and oib"
ip link set dummy0 mtu 9000 up || err "dummy0 up"
ip addr add 10.0.0.1/24 dev dummy0 || err "dummy0 address"
ip link add dummy1 type dummy || err "dummy1"
ip link set dummy1 mtu 9000 up || err "dummy1 up"
ip addr add 10.0.1.1/24 dev dummy1 || err "dummy1 address"
for _n in 2 3; do
	# the oib_siw devices' netdevs (oib_bench's iWARP phases, tools/bench/oib_bench_siw.c)
	{ ip link add dummy$_n type dummy && ip link set dummy$_n mtu 9000 up &&
		ip addr add 10.0.$_n.1/24 dev dummy$_n; } || err "dummy$_n"
done
ip link set lo up || err "lo up"
rxe=1
rdma link add rxe0 type rxe netdev dummy0 || { err "rdma link add rxe0"; rxe=0; }
siw=1
rdma link add siw0 type siw netdev dummy1 || { err "rdma link add siw0"; siw=0; }
load_drivers || err "loading the oib modules"
loaded oib_mad || err "oib_mad is not loaded: oib_bench needs it"
loaded oib_cm || err "oib_cm is not loaded: oib_bench needs it"

# profiled NAME COMMAND...: COMMAND under perf (all vCPUs) in the first round when profiling, its
# report on stderr (taken before any rmmod, while the modules' symbols are still in
# /proc/kallsyms; COMMAND's output stays its own); else COMMAND alone.  Its variables are its
# own (_pn; bench()'s _bn): this shell has no locals, and callers keep theirs in _b, _r, _t...
profiled() {
	_pn=$1
	shift
	if [ "$profile" = 1 ] && [ "$i" = 1 ]; then
		perf record -q -a -e cpu-clock -F 1999 -o /tmp/$_pn.data -- "$@" || return 1
		{
			echo "oib-guest: profile $_pn begin"
			perf report -q -i /tmp/$_pn.data --stdio --sort sym --percent-limit 0.4 2>/dev/null |
				head -60
			# under TCG a sample often lands where interrupts came back on: the return from
			# the unlock, so symbol+offset names the call site of the lock held
			echo "oib-guest: hottest addresses"
			perf script -i /tmp/$_pn.data -F ip,sym,symoff 2>/dev/null | awk '{ print $2 }' |
				sort | uniq -c | sort -rn | head -25
			echo "oib-guest: by CPU and thread"
			perf report -q -i /tmp/$_pn.data --stdio --sort cpu,comm --percent-limit 2 2>/dev/null |
				head -16
			echo "oib-guest: by CPU and symbol"
			perf report -q -i /tmp/$_pn.data --stdio --sort cpu,sym --percent-limit 0.5 \
				2>/dev/null | head -40
			echo "oib-guest: profile $_pn end"
		} >&2
		rm -f /tmp/$_pn.data
	else
		"$@"
	fi
}
# bench NAME MODULE ARGS...: insmod, profiled
bench() { _bn=$1; shift; profiled "$_bn" insmod "$@"; }

# krping_fig NAME OPTIONS [STACK [SERVER]]: an oib_krping server (or, with SERVER, that command
# started in the background: an rping server) and client with OPTIONS; the client's figures as
# NAME's result line of STACK (default oib), or an n/a line, in the kernel log with the modules'
krping_fig() {
	_st=${3:-oib}
	if [ -n "${4:-}" ]; then
		$4 >/dev/null 2>&1 &
		_s=
		_rp=$!
		_port=${2#*port=}
		# its own listener, not one of a server before it that is still going away
		until20 sh -c "rdma resource show cm_id | grep -q 'state LISTEN.*:${_port%%,*}'"
	else
		krping "server,$2" && _s=$KID
	fi
	if krping "client,$2" && krping_end "${_s:-$KID}" "$KID"; then
		krping_get $KID iters; it=$V
		krping_get $KID bytes; by=$V
		krping_get $KID ns; ns=$V
		echo "oib-bench: result $_st $1 ops=$it bytes=$by ns=$ns" >/dev/kmsg
	else
		echo "oib-bench: n/a $_st $1 krping_failed" >/dev/kmsg
	fi
	[ -z "${4:-}" ] || wait $_rp
}

# rping_fig STACK ADDR PORT: rdma-core's rping server and client on the in-tree device owning ADDR
# (loopback), 2000 iterations of rping's exchange with 64 B buffers, timed by /proc/uptime (10 ms)
uptime_cs() { read -r _u _rest </proc/uptime; _u=${_u%.*}${_u#*.}; echo "${_u#0}"; }
rping_fig() {
	timeout 120 rping -s -a "$2" -p "$3" -C 2000 -S 64 -V >/dev/null 2>&1 &
	_rp=$!
	until20 sh -c "rdma resource show cm_id | grep -q 'state LISTEN.*:$3'"
	_t0=$(uptime_cs)
	if timeout 120 rping -c -a "$2" -p "$3" -C 2000 -S 64 -V >/dev/null 2>&1 && wait $_rp; then
		echo "oib-bench: result $1 rping_64B ops=2000 bytes=128000 ns=$((($(uptime_cs) - _t0) * 10000000))" >/dev/kmsg
	else
		echo "oib-bench: n/a $1 rping_64B rping_failed" >/dev/kmsg
	fi
}

# RoCEv2 over UDP: two oib_rxe devices on a veth pair between two namespaces (krping's figures and
# rping's exchange, as oib_udp), and an oib device on another veth pair against the in-tree rxe at
# its far end (rping's exchange, rping serving, oib_krping's client: as mixed); MTU 9000 as dummy0
udp_bench() {
	loaded oib_krping || { echo "oib-bench: n/a oib_udp all oib_krping_not_loaded" >/dev/kmsg; return 0; }
	netns_pair uA va 10.79.0.1 fd79::1 uB vb 10.79.0.2 fd79::2 &&
		netns_pair - vi 10.80.0.1 fd80::1 uC vo 10.80.0.2 fd80::2 || { err "udp: veth pairs"; return 1; }
	ip -n uA link set va mtu 9000 && ip -n uB link set vb mtu 9000 && ip link set vi mtu 9000 &&
		ip -n uC link set vo mtu 9000 || err "udp: MTU"
	for _x in "uA ba va" "uB bb vb" "uC bc vo"; do
		set -- $_x
		ip netns exec $1 oib link add $2 type rxe netdev $3 || err "udp: device $2"
	done
	rdma link add rxe1 type rxe netdev vi || err "udp: rdma link add rxe1"
	wait_gid bb 0000:0000:0000:0000:0000:ffff:0a4f:0002 && wait_gid bc 0000:0000:0000:0000:0000:ffff:0a50:0002 ||
		err "udp: GIDs"
	krping_fig krping_write_lat "addr=10.79.0.2,port=7310,wlat,validate,poll,count=2000,size=64" oib_udp
	krping_fig krping_write_bw "addr=10.79.0.2,port=7311,bw,validate,poll,count=500,size=65536" oib_udp
	krping_fig krping_read_bw "addr=10.79.0.2,port=7312,rbw,validate,poll,count=500,size=65536" oib_udp
	krping_fig rping_64B "addr=10.79.0.2,port=7313,validate,count=2000,size=64" oib_udp
	krping_fig rping_64B "addr=10.80.0.1,port=7314,validate,count=2000,size=64" mixed \
		"timeout 120 rping -s -a 10.80.0.1 -p 7314 -C 2000 -S 64 -V"
	echo clear >$KRPING/ctl
	rdma link delete rxe1 || err "udp: rdma link delete rxe1"
	ip netns del uA; ip netns del uB; ip netns del uC
	wait_gone /sys/class/oib/ba && wait_gone /sys/class/oib/bc || err "udp: devices left"
}

# krping over oib_cma between two oib_rxe devices of its own: WRITE ping-pong latency (64 B), WRITE
# and READ streams (64 KiB, 64 in flight), all verified, the CQs busy-polled by krping's threads
# (poll), as oib_bench polls its own
krping_bench() {
	if ! loaded oib_krping; then
		echo "oib-bench: n/a oib krping_write_lat oib_krping_not_loaded" >/dev/kmsg
		return 0
	fi
	rxe_add 1 && ka=$DEV && rxe_add 1 && kb=$DEV || { err "krping: devices"; return 1; }
	oib addr add $ka/1 10.78.0.1 && oib addr add $kb/1 10.78.0.2 ||
		err "krping: addresses"
	krping_fig krping_write_lat "addr=10.78.0.2,port=7300,wlat,validate,poll,count=2000,size=64"
	krping_fig krping_write_bw "addr=10.78.0.2,port=7301,bw,validate,poll,count=500,size=65536"
	krping_fig krping_read_bw "addr=10.78.0.2,port=7302,rbw,validate,poll,count=500,size=65536"
	krping_fig rping_64B "addr=10.78.0.2,port=7303,validate,count=2000,size=64"
	echo clear >$KRPING/ctl
	rxe_remove "$ka" || err "krping: remove $ka"
	rxe_remove "$kb" || err "krping: remove $kb"
}

# Storage: the same loads on every stack (blk_fig: sequential 1 MiB reads and writes and random
# 4 KiB reads, 32 requests in flight, blkbench with O_DIRECT for 3 s each, every sector read checked
# against the stamp written there: the device is filled first, untimed):
#   srp: a 256 MiB memory LUN of oib_srpt through oib_srp, two oib_rxe devices on oib's fabric;
#   srp_udp: the same between two oib_rxe devices on a veth pair (RoCEv2 over UDP, ICRC computed);
#   intree_srp: the in-tree ib_srp against LIO's ib_srpt (a 256 MiB rd_mcp memory LUN) over the
#     in-tree rxe0, loopback on its own address, as the RC figures;
#   nvmeof: nvme-rdma against nvmet-rdma (a namespace on the 256 MiB brd disk /dev/ram1) over rxe0;
#   local: the brd disk /dev/ram0 in the same guest, the physical reference.
# cpu_ticks: BUSY and IDLE, the vCPUs' ticks busy and idle (iowait counted idle) since boot
# (names of its own: callers keep theirs in _t, _s and the like)
cpu_ticks() {
	read -r _cc _cu _cn _cs _ci _cw _cq _csq _crest </proc/stat
	BUSY=$((_cu + _cn + _cs + _cq + _csq)) IDLE=$((_ci + _cw))
}
blk_fig() {
	if ! blkbench "$2" fill 1048576 32 0 >/dev/null; then
		echo "oib-bench: n/a $1 all blkbench_fill_failed" >/dev/kmsg
		return
	fi
	for _x in "blk_read_1MiB_bw read 1048576" "blk_write_1MiB_bw write 1048576" \
		  "blk_randread_4KiB_iops randread 4096"; do
		set -- "$1" "$2" $_x
		cpu_ticks
		_cb0=$BUSY _ci0=$IDLE
		if _br=$(profiled "$1_$3" blkbench "$2" $4 $5 32 3); then
			cpu_ticks
			echo "oib-bench: result $1 $3 $_br" >/dev/kmsg
			_ct=$((BUSY - _cb0 + IDLE - _ci0))
			[ $_ct -le 0 ] ||
				echo "oib-bench: idle $1 $3 permille=$(((IDLE - _ci0) * 1000 / _ct))" >/dev/kmsg
		else
			echo "oib-bench: n/a $1 $3 blkbench_failed" >/dev/kmsg
		fi
	done
}
# srp_fig NAME DEVICE DEST_ADDR: oib_srpt's memory LUN on port 7330 through oib_srp from DEVICE's
# port to DEST_ADDR
srp_fig() {
	w $T "7330 1 256" && login $2 "$3 7330" && disk ||
		{ echo "oib-bench: n/a $1 all login_failed" >/dev/kmsg; D=; }
	[ -z "$D" ] || blk_fig $1 $D
	[ -z "$D" ] || logout $3:7330 || err "$1: remove_target"
	w $T "" || err "$1: stop the target"
}
srp_bench() {
	if ! loaded oib_srp || ! loaded oib_srpt; then
		echo "oib-bench: n/a srp all oib_srp_oib_srpt_not_loaded" >/dev/kmsg
		return 0
	fi
	rxe_add 1 && sa=$DEV && rxe_add 1 && sb=$DEV || { err "srp: devices"; return 1; }
	oib addr add $sa/1 10.77.0.1 && oib addr add $sb/1 10.77.0.2 || err "srp: addresses"
	srp_fig srp $sa 10.77.0.2
	rxe_remove "$sa" || err "srp: remove $sa"
	rxe_remove "$sb" || err "srp: remove $sb"
	netns_pair sA va 10.76.0.1 fd76::1 sB vb 10.76.0.2 fd76::2 || { err "srp_udp: veth"; return 1; }
	ip -n sA link set va mtu 9000 && ip -n sB link set vb mtu 9000 || err "srp_udp: MTU"
	ip netns exec sA oib link add sa type rxe netdev va && ip netns exec sB oib link add sb type rxe netdev vb ||
		err "srp_udp: devices"
	wait_gid sb 0000:0000:0000:0000:0000:ffff:0a4c:0002 || err "srp_udp: GID"
	srp_fig srp_udp sa 10.76.0.2
	ip netns del sA; ip netns del sB
	wait_gone /sys/class/oib/sa && wait_gone /sys/class/oib/sb || err "srp_udp: devices left"
}
# LIO's ib_srpt on rxe0 with a 256 MiB memory LUN (configfs, as integration.srp_lio), the in-tree
# ib_srp logged in to it through rdma_cm on rxe0's own address (port 7331)
C=/sys/kernel/config/target
intree_srp_bench() {
	_pg=$(cat /sys/class/infiniband/rxe0/ports/1/gids/0) && _pg=${_pg#fe80:0000:0000:0000:}
	_sg=$(tr -d : </sys/class/infiniband/rxe0/node_guid)
	_t=$C/srpt/$_pg/tpgt_1
	_r=$C/core/rd_mcp_0/d
	{ mkdir -p $_r && w $_r/control rd_pages=65536 && w $_r/enable 1 && mkdir -p $_t &&
		mkdir $_t/lun/lun_0 && ln -s $_r $_t/lun/lun_0/d && mkdir -p $_t/acls/10.0.0.1/lun_0 &&
		ln -s $_t/lun/lun_0 $_t/acls/10.0.0.1/lun_0/l && w $_t/enable 1 &&
		w $C/srpt/discovery_auth/rdma_cm_port 7331; } || err "intree_srp: LIO's configuration"
	D=
	if w /sys/class/infiniband_srp/srp-rxe0-1/add_target \
	     "id_ext=$_sg,ioc_guid=$_sg,dest=10.0.0.1:7331"; then
		until20 lio_disk
	fi
	if [ -n "$D" ]; then
		blk_fig intree_srp $D
		for _p in /sys/class/srp_remote_ports/port-*; do w $_p/delete 1; done
		wait_gone $D || err "intree_srp: the disk stays"
	else
		echo "oib-bench: n/a intree_srp all login_failed" >/dev/kmsg
	fi
	w $C/srpt/discovery_auth/rdma_cm_port 0
	w $_t/enable 0
	# the initiator's channels end after its disk went: until then the session holds the ACL
	until20 lio_unconfigure $_t $_pg $_r || err "intree_srp: LIO's configuration stays"
}
# lio_unconfigure TPG PORT BACKSTORE: what intree_srp_bench made, every step again until all went
lio_unconfigure() {
	rm -f $1/acls/10.0.0.1/lun_0/l $1/lun/lun_0/d 2>/dev/null
	rmdir $1/acls/10.0.0.1/lun_0 $1/acls/10.0.0.1 $1/lun/lun_0 $1 $C/srpt/$2 $C/srpt \
		$3 $C/core/rd_mcp_0 2>/dev/null
	[ ! -e $C/core/rd_mcp_0 ] && [ ! -e $C/srpt ]
}
lio_disk() {
	for _b in /sys/block/sd*; do
		[ -e "$_b/device/vendor" ] || continue
		case $(cat "$_b/device/vendor") in LIO*) D=/dev/${_b##*/}; return 0 ;; esac
	done
	return 1
}
# nvmet's subsystem oib-bench with /dev/ram1 as namespace 1 on an RDMA port at rxe0's address
# (4420), nvme-rdma connected to it through /dev/nvme-fabrics
N=/sys/kernel/config/nvmet
nvmeof_bench() {
	_s=$N/subsystems/oib-bench
	{ mkdir $_s && w $_s/attr_allow_any_host 1 && mkdir $_s/namespaces/1 &&
		w $_s/namespaces/1/device_path /dev/ram1 && w $_s/namespaces/1/enable 1 &&
		mkdir $N/ports/1 && w $N/ports/1/addr_trtype rdma && w $N/ports/1/addr_adrfam ipv4 &&
		w $N/ports/1/addr_traddr 10.0.0.1 && w $N/ports/1/addr_trsvcid 4420 &&
		ln -s $_s $N/ports/1/subsystems/oib-bench; } || err "nvmeof: nvmet's configuration"
	D=
	if w /dev/nvme-fabrics "transport=rdma,traddr=10.0.0.1,trsvcid=4420,nqn=oib-bench"; then
		until20 test -b /dev/nvme0n1 && D=/dev/nvme0n1
	fi
	if [ -n "$D" ]; then
		blk_fig nvmeof $D
		for _c in /sys/class/nvme/nvme*; do w $_c/delete_controller 1; done
		wait_gone $D || err "nvmeof: the disk stays"
	else
		echo "oib-bench: n/a nvmeof all connect_failed" >/dev/kmsg
	fi
	rm $N/ports/1/subsystems/oib-bench; rmdir $N/ports/1
	w $_s/namespaces/1/enable 0; rmdir $_s/namespaces/1 $_s || err "nvmeof: nvmet's configuration stays"
}
storage_bench() {
	srp_bench
	# loaded once, kept (below): a module named with a dash (crc-t10dif) is not found loaded
	[ -n "${storage_mods:-}" ] || { load_extra storage && storage_mods=1; }
	if [ $rxe = 1 ] && [ -n "${storage_mods:-}" ]; then
		grep -q ' /sys/kernel/config ' /proc/mounts || mount -t configfs none /sys/kernel/config
		intree_srp_bench
		nvmeof_bench
		# kept loaded: the block layer's users of their dependencies (crc-t10dif) may
		# hold them; the next round finds them loaded
	else
		echo "oib-bench: n/a intree_srp all no_rxe0_or_modules" >/dev/kmsg
		echo "oib-bench: n/a nvmeof all no_rxe0_or_modules" >/dev/kmsg
	fi
	blk_fig local /dev/ram0
}
# the RAM disks (ram0 local, ram1 nvmet's namespace) written whole once: brd allocates a page at its
# first write, which is not what its writes are measured for
loaded brd || insmod $OIB_KO/extra/brd.ko rd_nr=2 rd_size=262144 || err "insmod brd"
for _d in /dev/ram0 /dev/ram1; do
	dd if=/dev/zero of=$_d bs=1M count=256 2>/dev/null || err "filling $_d"
done

i=0
while [ $i -lt "$rounds" ]; do
	i=$((i + 1))
	if [ "$only" = storage ]; then
		msg "bench: round $i of $rounds: storage alone"
		storage_bench
		continue
	fi
	if [ "$only" = sdp ]; then
		msg "bench: round $i of $rounds: sockets alone"
		sdp_bench
		continue
	fi
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
	[ -z "$only" ] || continue
	msg "bench: round $i of $rounds: oib_krping"
	krping_bench
	msg "bench: round $i of $rounds: rping's exchange in-tree, and oib over UDP"
	[ $rxe = 0 ] || rping_fig rxe 10.0.0.1 7320
	[ $siw = 0 ] || rping_fig siw 10.0.1.1 7321
	udp_bench
	msg "bench: round $i of $rounds: userspace verbs, perftest in-tree and uvbench on oib"
	[ $rxe = 0 ] || perftest_figs rxe rxe0 10.0.0.1 7340
	[ $siw = 0 ] || perftest_figs siw siw0 10.0.1.1 7342
	uvbench_figs
	msg "bench: round $i of $rounds: storage: oib_srp, the in-tree SRP, NVMe-oF, a local RAM disk"
	storage_bench
	msg "bench: round $i of $rounds: sockets: SDP on oib's fabric, TCP over loopback"
	sdp_bench
done

[ $rxe = 0 ] || rdma link delete rxe0 || err "rdma link delete rxe0"
[ $siw = 0 ] || rdma link delete siw0 || err "rdma link delete siw0"
unload_drivers || err "unloading the oib modules"

echo "oib-guest: bench results begin"
dmesg | grep 'oib-bench: '
echo "oib-guest: bench results end"
exit $rc
