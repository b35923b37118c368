#!/bin/sh
# The oib demo, in the guest (make run): loads the modules it needs unless they are loaded
# (oib_rxe, oib_krping and what they depend on), creates two software devices with two
# ports each on one fabric and gives port 1 of each an IPv4 and an IPv6 address (or, with two
# hosts, one device on each end of a veth pair between two namespaces), prints a table of
# their attributes (non-zero GIDs and P_Keys only), then runs oib_krping between them: the rping
# exchange over IPv4 (300 verified iterations), the RDMA WRITE latency over IPv6, an RDMA WRITE
# stream, and prints rate, latency and bandwidth, the CM states of both sides while connected
# (oib_cm's cm_ids) and after, and the fabric counters of both ports; removes the devices and
# unloads the modules it loaded, checking that the unload left nothing behind.
# Exit status 0 when everything, including every port ACTIVE and every krping test,
# went as expected.
. "${OIB_GUEST:-/oib/guest}/lib.sh"
rc=0
err() { echo "demo: error: $*"; rc=1; }

need oib_rxe oib_krping || { echo "demo: error: loading oib_rxe and oib_krping"; exit 1; }
mine=$NEEDED

# Two hosts (TWO_HOSTS=1 make run: oib.two_hosts=1, or OIB_TWO_HOSTS=1): two network namespaces
# joined by a veth pair, a device on each end over UDP (one port each, addresses from the netdevs);
# else two devices with two ports each on one fabric.
two=${OIB_TWO_HOSTS:-0}
case " $CMDLINE " in *" oib.two_hosts=1 "*) two=1 ;; esac
devs=
ndevs=0
if [ $two = 1 ]; then
	nports=1
	netns_pair hostA va 10.0.0.1 fd00::1 hostB vb 10.0.0.2 fd00::2 &&
		ip -n hostA link set va mtu 9000 && ip -n hostB link set vb mtu 9000 ||
		err "the hosts' namespaces"
	for h in A B; do
		n=$(echo $h | tr AB ab)
		if ip netns exec host$h oib link add oib$h type rxe netdev v$n; then
			devs="$devs oib$h"
			ndevs=$((ndevs + 1))
		else
			err "could not add a device on v$n"
		fi
	done
	wait_line /sys/class/oib/oibB/ports/1/state "4: ACTIVE" &&
		wait_gid oibB fd00:0000:0000:0000:0000:0000:0000:0002 || err "oibB did not come up"
	echo "demo: two hosts (network namespaces hostA and hostB joined by the veth pair va-vb, MTU" \
		"9000): $ndevs devices on their netdevs:$devs (10.0.0.1 and fd00::1, 10.0.0.2 and fd00::2)"
else
	nports=2
	for i in 1 2; do
		if rxe_add 2; then
			devs="$devs $DEV"
			ndevs=$((ndevs + 1))
			oib addr add $DEV/1 10.0.0.$i || err "$DEV: IPv4 address"
			oib addr add $DEV/1 fd00::$i || err "$DEV: IPv6 address"
		else
			err "could not add a device"
		fi
	done
	echo "demo: $ndevs devices:$devs (port 1: 10.0.0.1 and fd00::1, 10.0.0.2 and fd00::2)"
fi
set -- $devs
dev1=$1
dev2=$2

row() { printf '  %-5s %-12s %-12s %-11s %s\n' "$@"; }
# nonzero DIR LABEL: the non-zero entries of a port's GID or P_Key table DIR
nonzero() {
	i=0
	while [ -e $1/$i ]; do
		get $1/$i
		is_zero "$V" || printf '        %-7s %s\n' "$2[$i]" "$V"
		i=$((i + 1))
	done
}
for d in $devs; do
	c=/sys/class/oib/$d
	get $c/node_guid; guid=$V
	get $c/node_type; type=$V
	get $c/fw_ver; fw=$V
	get $c/phys_port_cnt; cnt=$V
	echo
	printf '%s  node_guid %s  node_type %s  fw_ver %s  ports %s\n' "$d" "$guid" "$type" "$fw" "$cnt"
	row port state phys_state link_layer active_mtu
	p=1
	while [ -d $c/ports/$p ]; do
		pd=$c/ports/$p
		get $pd/state; state=$V
		get $pd/phys_state; phys=$V
		get $pd/link_layer; ll=$V
		get $pd/active_mtu; mtu=$V
		row "$p" "$state" "$phys" "$ll" "$mtu"
		nonzero $pd/gids gid
		nonzero $pd/pkeys pkey
		case $state in *ACTIVE*) ;; *) err "$d port $p is not ACTIVE" ;; esac
		p=$((p + 1))
	done
	[ $p -eq $((nports + 1)) ] && [ "$cnt" = $nports ] ||
		err "$d has $((p - 1)) ports (phys_port_cnt $cnt), wanted $nports"
done
echo
[ $ndevs -eq 2 ] || err "wanted 2 devices"

# pair NAME OPTIONS: a krping server and client with OPTIONS (addr, port, mode, ...), run to the end;
# sets S and C to their test ids
pair() {
	S=
	C=
	krping "server,$2" || { err "krping $1: server refused"; return 1; }
	S=$KID
	krping "client,$2" || { err "krping $1: client refused"; return 1; }
	C=$KID
	krping_end "$S" "$C" || err "krping $1: a test failed"
}
# us NS: sets U to NS nanoseconds in microseconds, one decimal
us() { U="$(($1 / 1000)).$(($1 % 1000 / 100)) us"; }
# show ID WHAT: one line of figures for a test: iterations, rate, bandwidth, and the time of an
# iteration (a round trip) or, for wlat, the one-way latency
show() {
	krping_get $1 iters; it=$V
	krping_get $1 size; size=$V
	krping_get $1 iters_per_s; rate=$V
	krping_get $1 mb_per_s; mbs=$V
	krping_get $1 result; res=$V
	U=-
	if krping_get $1 lat_ns; then
		us $V
		U="$U one way"
	elif krping_get $1 rtt_ns; then
		V=${V#*/}
		us ${V%/*}
		U="$U per iteration"
	fi
	printf '  %-42s %4s x %6s B %9s/s %6s MB/s  %-22s result %s\n' "$2" "$it" "$size" "$rate" \
		"$mbs" "$U" "$res"
	[ "$res" = 0 ] || err "krping $2: result $res"
}

echo "krping: oib_krping over oib_cma, client on $dev1, server on $dev2"
if loaded oib_krping; then
	# a ping left running (count=0) to show the CM states of a live connection
	krping "server,addr=10.0.0.2,port=7000" && S=$KID && krping "client,addr=10.0.0.2,port=7000" &&
		C=$KID || err "krping: live connection"
	krping_until "$C" state running || err "krping: the connection did not come up"
	echo "  while connected: oib_cm's cm_ids (/sys/kernel/debug/oib_cm/ids):"
	while read -r l; do echo "    $l"; done </sys/kernel/debug/oib_cm/ids
	echo "stop=$C" >$KRPING/ctl
	krping_end "$S" "$C" || err "krping: the live connection ended badly"
	krping_get "$S" cm; scm=$V
	krping_get "$C" cm; ccm=$V
	echo "  after the client's disconnect: server's last CM event $scm, client's $ccm"

	pair ping "addr=10.0.0.2,port=7174,validate,count=300" &&
		show "$C" "rping exchange, IPv4, verified (client)" &&
		show "$S" "rping exchange, IPv4 (server)"
	pair wlat "addr=fd00::2,port=7175,wlat,validate,poll,count=300" &&
		show "$C" "RDMA WRITE ping-pong, IPv6, verified"
	# over UDP on the debug kernel a 64 KiB message costs 10 ms, and a stream must end in 10 s
	n=200
	[ $two = 0 ] || n=50
	pair bw "addr=10.0.0.2,port=7176,bw,validate,poll,count=$n,size=65536" &&
		show "$C" "RDMA WRITE stream, IPv4, verified"
	pair rbw "addr=10.0.0.2,port=7177,rbw,validate,poll,count=$n,size=65536" &&
		show "$C" "RDMA READ stream, IPv4, verified"
	pair conn "addr=10.0.0.2,port=7178,conn,count=50" &&
		show "$C" "connections (resolve, connect, disconnect)"
	echo clear >$KRPING/ctl
else
	err "oib_krping is not loaded"
fi

echo
echo "fabric counters, port 1 (/sys/kernel/debug/oib/<device>/port1):"
printf '  %-10s %10s %10s %12s %12s %8s %8s %8s\n' device tx_frames rx_frames tx_bytes rx_bytes \
	retrans timeouts drop_seq
for d in $devs; do
	f=/sys/kernel/debug/oib/$d/port1
	tx=; rx=; txb=; rxb=; re=; to=; ds=
	while read -r k v; do
		case $k in
		tx_frames) tx=$v ;; rx_frames) rx=$v ;; tx_bytes) txb=$v ;; rx_bytes) rxb=$v ;;
		tx_retransmits) re=$v ;; tx_timeouts) to=$v ;; rx_drop_seq) ds=$v ;;
		esac
	done <$f
	printf '  %-10s %10s %10s %12s %12s %8s %8s %8s\n' "$d" "$tx" "$rx" "$txb" "$rxb" "$re" "$to" "$ds"
	[ "${tx:-0}" -gt 0 ] && [ "${rx:-0}" -gt 0 ] || err "$d: no traffic counted"
done
echo

if [ $two = 1 ]; then
	ip netns del hostA && ip netns del hostB || err "could not delete the namespaces"
	for d in $devs; do wait_gone /sys/class/oib/$d || err "$d still present"; done
	echo "demo: deleted the namespaces, and with their netdevs the devices$devs"
else
	for d in $devs; do
		rxe_remove "$d" || err "could not remove $d"
		[ ! -e /sys/class/oib/$d ] || err "$d still present after remove"
	done
	echo "demo: removed$devs"
fi

for m in $mine; do
	unload $m || err "rmmod $m"
	! loaded $m || err "$m still loaded"
done
if [ -n "$mine" ]; then
	oib_devices
	[ -z "$DEVS" ] || err "devices left after unload: $DEVS"
	echo "demo: unloaded" $mine "- nothing left behind"
fi
[ $rc -eq 0 ] && echo "demo: ok" || echo "demo: FAILED"
exit $rc
