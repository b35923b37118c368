#!/bin/sh
# Integration test: oib_rxe devices on network devices (RoCEv2 over UDP), oib to oib.  Two network
# namespaces joined by a veth pair, a device on each end (oib link add, from inside each
# namespace); the ports follow their netdevs: ACTIVE with the link up, the netdev's
# IPv4 and IPv6 addresses as GIDs (added and removed with them), the active MTU from the netdev's
# MTU, DOWN with the link down; oib_krping runs the rping exchange over IPv4 and IPv6 and a
# bandwidth test through them, data verified, and again with the MTU at 9000; a capture on one
# device's fabric decodes as RoCEv2 (make check's tshark pass); oib link add refuses what it
# must; deleting a namespace removes the devices on its netdevs.  Fails (exit status 4) without
# oib_krping, the oib tool or iproute2's ip.
. "$OIB_GUEST/lib.sh"

loaded oib_krping || { echo "# oib_krping is not loaded"; exit 4; }
case $(ip -V 2>&1) in *iproute2*) ;; *) echo "# no iproute2 ip"; exit 4 ;; esac

t "netns pair with a veth" netns_pair oibA va 10.10.0.1 fd10::1 oibB vb 10.10.0.2 fd10::2 ||
	done_testing
t "device ua on va" ip netns exec oibA oib link add ua type rxe netdev va || done_testing
t "device ub on vb" ip netns exec oibB oib link add ub type rxe netdev vb || done_testing

P=/sys/class/oib
t "ua's port is ACTIVE" wait_line $P/ua/ports/1/state "4: ACTIVE"
t "ua has 10.10.0.1 as a GID" wait_gid ua 0000:0000:0000:0000:0000:ffff:0a0a:0001
t "ua has fd10::1 as a GID" wait_gid ua fd10:0000:0000:0000:0000:0000:0000:0001
t "ub has 10.10.0.2 as a GID" wait_gid ub 0000:0000:0000:0000:0000:ffff:0a0a:0002
t "ub has fd10::2 as a GID" wait_gid ub fd10:0000:0000:0000:0000:0000:0000:0002
t "active MTU 1024 for netdev MTU 1500" wait_line $P/ua/ports/1/active_mtu 1024
t "ua's debugfs names its netdev" grep -q "^netdev va " /sys/kernel/debug/oib/ua/link

# refusals
refused() { ! ip netns exec oibA oib link add $1 type rxe netdev $2 2>/dev/null; }
t "a second device on va is refused" refused ua2 va
t "an unknown netdev is refused" refused ua3 nosuchdev
t "the loopback device is refused" refused ua4 lo
t "a taken name is refused" refused ua eth9
t "ua's address cannot be set by hand" fails oib addr add ua/1 10.99.0.1

# counters: both devices' port counters and their fabrics' (after a failure)
counters() {
	for _d in ua ub; do
		echo "# $_d:" $(grep -v ' 0$' /sys/kernel/debug/oib/$_d/port1)
		echo "# $_d's fabric:" $(cat /sys/kernel/debug/oib_rxe/fabrics/$_d/ports)
	done
}

# run NAME OPTIONS ITERS: a krping server on ub's side and a client, both ending with result 0
run() {
	t "$1: server starts" krping "server,$2"
	s=$KID
	t "$1: client starts" krping "client,$2"
	c=$KID
	t "$1: both end well" krping_end "$s" "$c" || counters
	krping_get "$c" iters
	t "$1: $3 iterations" test "$V" = "$3"
}

echo start >/sys/kernel/debug/oib_rxe/fabrics/ua/capture
run "ping IPv4" "addr=10.10.0.2,port=7174,validate,count=200" 200
oib_pcap_dump ua
run "ping IPv6" "addr=fd10::2,port=7174,validate,count=200,size=4000" 200
run "bw IPv4" "addr=10.10.0.2,port=7175,bw,validate,count=20,size=16384,txdepth=8" 20

t "ua's port sent and received frames" \
	sh -c "grep -q '^tx_frames  *[1-9]' /sys/kernel/debug/oib/ua/port1 &&
	       grep -q '^rx_frames  *[1-9]' /sys/kernel/debug/oib/ua/port1"

ip -n oibA link set va mtu 9000 && ip -n oibB link set vb mtu 9000
t "active MTU 4096 for netdev MTU 9000" wait_line $P/ua/ports/1/active_mtu 4096
run "ping 4 KiB MTU" "addr=10.10.0.2,port=7176,validate,count=100,size=16384" 100
run "bw 4 KiB MTU" "addr=fd10::2,port=7178,bw,validate,count=50,size=65536,txdepth=16" 50

ip -n oibA addr del 10.10.0.1/24 dev va
t "a deleted address leaves the GID table" wait_no_gid ua 0000:0000:0000:0000:0000:ffff:0a0a:0001
ip -n oibA addr add 10.10.0.1/24 dev va
t "an added address joins it" wait_gid ua 0000:0000:0000:0000:0000:ffff:0a0a:0001

ip -n oibB link set vb down
t "link down: ub's port is DOWN" wait_line $P/ub/ports/1/state "1: DOWN"
t "link down: ua's port (no carrier) is DOWN" wait_line $P/ua/ports/1/state "1: DOWN"
t "link down: the kernel took fd10::2 away, and ub's GID with it" \
	wait_no_gid ub fd10:0000:0000:0000:0000:0000:0000:0002
ip -n oibB link set vb up
t "link up: ub's port is ACTIVE" wait_line $P/ub/ports/1/state "4: ACTIVE"
t "link up: ua's port is ACTIVE" wait_line $P/ua/ports/1/state "4: ACTIVE"
run "ping after the link came back" "addr=10.10.0.2,port=7177,validate,count=20" 20

ip netns del oibB
t "deleting a namespace removes the device on its netdev" wait_gone $P/ub
t "and with the veth pair gone, the device on its peer" wait_gone $P/ua
ip netns del oibA
echo clear >$KRPING/ctl
done_testing
