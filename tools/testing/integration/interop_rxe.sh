#!/bin/sh
# Integration test: wire interop with the in-tree stack.  The in-tree rdma_rxe (`rdma link add`)
# sits on one end of a veth pair in the initial network namespace (the only one it works in), oib
# on the other end in a namespace of its own.  rdma-core's rping (the in-tree rdma_cm, ib_cm,
# rdma_rxe and librxe) against oib_krping, both ways and over IPv4 and IPv6, with hundreds of
# iterations whose data both sides validate, then with 1% of the frames lost and message sizes
# around and above the path MTU (SEND, RDMA READ and WRITE: rping's exchange); a capture of oib's
# side decodes as RoCEv2 (make check's tshark pass).  Loads the in-tree modules it needs and unloads them after.  Fails (exit status 4)
# without oib_krping, iproute2's ip, rping or the in-tree modules.
. "$OIB_GUEST/lib.sh"

loaded oib_krping || { echo "# oib_krping is not loaded"; exit 4; }
case $(ip -V 2>&1) in *iproute2*) ;; *) echo "# no iproute2 ip"; exit 4 ;; esac
[ -x /bin/rping ] && [ -e $OIB_KO/extra.order ] || { echo "# no rping or in-tree modules"; exit 4; }

t "in-tree rdma_rxe, rdma_cm, rdma_ucm loaded" load_extra || done_testing
t "netns pair with a veth" netns_pair - vi 10.11.0.1 fd11::1 oibI vo 10.11.0.2 fd11::2 ||
	done_testing
t "in-tree rxe0 on vi" rdma link add rxe0 type rxe netdev vi
t "oib device uo on vo" ip netns exec oibI oib link add uo type rxe netdev vo || done_testing
t "uo's port is ACTIVE" wait_line /sys/class/oib/uo/ports/1/state "4: ACTIVE"
t "uo has 10.11.0.2" wait_gid uo 0000:0000:0000:0000:0000:ffff:0a0b:0002
t "uo has fd11::2" wait_gid uo fd11:0000:0000:0000:0000:0000:0000:0002

# counters: oib's port and fabric counters (after a failure)
counters() {
	echo "# uo:" $(grep -v ' 0$' /sys/kernel/debug/oib/uo/port1)
	echo "# uo's fabric:" $(cat /sys/kernel/debug/oib_rxe/fabrics/uo/ports)
}

F=/sys/kernel/debug/oib_rxe/fabrics/uo
echo start >$F/capture
rping_to_krping "rping -> krping IPv4" 10.11.0.2 7174 200 64
oib_pcap_dump uo
krping_to_rping "krping -> rping IPv4" 10.11.0.1 7175 200 64
rping_to_krping "rping -> krping IPv6" fd11::2 7176 100 1000
krping_to_rping "krping -> rping IPv6" fd11::1 7177 100 1000

# 1% of the frames lost both ways (oib's fabric sees what its port sends and what the netdev
# brings), messages of one packet less than, exactly and one byte more than the path MTU (1024),
# and of several packets
t "1% loss on uo's fabric (seed 12)" sh -c "echo 12 >$F/seed && echo drop=10000 >$F/faults"
port=7180
for size in 1023 1024 1025 3000; do
	rping_to_krping "lossy rping -> krping $size B" 10.11.0.2 $port 30 $size
	krping_to_rping "lossy krping -> rping $size B" 10.11.0.1 $((port + 1)) 30 $size
	port=$((port + 2))
done
t "the fabric dropped frames" grep -q 'drop_fault [1-9]' $F/ports
echo off >$F/faults

t "rxe0 goes" rdma link delete rxe0
ip netns del oibI
t "deleting the namespace removes uo" wait_gone /sys/class/oib/uo
ip link del vi 2>/dev/null
unload_extra
echo clear >$KRPING/ctl
done_testing
