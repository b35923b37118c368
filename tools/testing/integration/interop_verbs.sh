#!/bin/sh
# Integration test: kernel verbs across implementations.  The in-tree rdma_rxe sits on one end of a
# veth pair in the initial network namespace, oib_rxe on the other in a namespace of its own (as in
# interop_rxe.sh).  oib_interop (oib verbs, oib_cma) and oib_interop_intree (the in-tree verbs and
# rdma_cm) run the exchange of tools/testing/interop/interop_core.h, each stack once as the server
# and once as the client: SENDs of every size through the path MTU and beyond, echoed; RDMA WRITEs
# of the same sizes read back with RDMA READs; FETCH_ADDs and COMPARE_SWAPs; the server checks its
# memory at the end.  With 1% of the frames lost on oib's side: exactly once, in order, intact.
# Then the CM across implementations: a reject with private data each way, a disconnect from
# either side, and rping (in-tree) killed in the middle of a connection to oib_krping, after which
# nothing of the connection may be left on oib's side.  Fails (exit status 4) without the interop modules, ip,
# rping or the in-tree modules.
. "$OIB_GUEST/lib.sh"

IK=/oib/interop
[ -e $IK/oib_interop.ko ] && [ -e $IK/oib_interop_intree.ko ] || { echo "# no interop modules"; exit 4; }
loaded oib_krping || { echo "# oib_krping is not loaded"; exit 4; }
case $(ip -V 2>&1) in *iproute2*) ;; *) echo "# no iproute2 ip"; exit 4 ;; esac
[ -x /bin/rping ] && [ -e $OIB_KO/extra.order ] || { echo "# no rping or in-tree modules"; exit 4; }

t "in-tree rdma_rxe, rdma_cm, rdma_ucm loaded" load_extra || done_testing
t "netns pair with a veth" netns_pair - vi 10.12.0.1 fd12::1 oibJ vo 10.12.0.2 fd12::2 ||
	done_testing
t "in-tree rxe0 on vi" rdma link add rxe0 type rxe netdev vi
t "oib device uo on vo" ip netns exec oibJ oib link add uo type rxe netdev vo || done_testing
t "uo's port is ACTIVE" wait_line /sys/class/oib/uo/ports/1/state "4: ACTIVE"
t "uo has 10.12.0.2" wait_gid uo 0000:0000:0000:0000:0000:ffff:0a0c:0002
t "uo has fd12::2" wait_gid uo fd12:0000:0000:0000:0000:0000:0000:0002
# The in-tree side's neighbours, made permanent: the in-tree address resolution can miss the
# neighbour update it waits for and then sleep until its timeout (6.12 addr.c requeues a request
# still waiting for ARP at its final timeout; the netevent that would wake it early may come
# first).  oib's side waits on the neighbour table itself.
ip netns exec oibJ cat /sys/class/net/vo/address >/tmp/vo.mac
read -r VO_MAC </tmp/vo.mac
t "permanent neighbour 10.12.0.2 on vi" ip neigh replace 10.12.0.2 lladdr "$VO_MAC" dev vi nud permanent
t "permanent neighbour fd12::2 on vi" ip neigh replace fd12::2 lladdr "$VO_MAC" dev vi nud permanent

# result MODULE: waits (up to 300 s) while MODULE's result is "running" or "listening"; R is it
result() {
	_i=0
	while [ $_i -lt 600 ]; do
		read -r R </sys/module/$1/parameters/result
		case $R in running | listening) ;; *) return 0 ;; esac
		sleep 0.5
		_i=$((_i + 1))
	done
	return 1
}
ok() { result "$1" && case $R in ok*) ;; *) echo "# $1: $R"; false ;; esac; }

# exchange NAME SERVER CLIENT ADDR PORT FLAGS: SERVER (a module) listens on ADDR, CLIENT connects
# with FLAGS (1 short, 2 be rejected, 4 the server disconnects, 8 one-packet messages: an in-tree
# client's, see IOP_ONE_PACKET in tools/testing/interop/interop_core.h); both must end "ok" (the
# server is stopped if the client failed).  uo's fabric captures the exchange, printed for the
# host's tshark if it failed.
F=/sys/kernel/debug/oib_rxe/fabrics/uo
exchange() {
	echo start 16777216 >$F/capture
	_ok=0
	t "$1: $2 listens" insmod $IK/$2.ko role=server addr=$4 port=$5 &&
		t "$1: $2 is listening" until20 line_is /sys/module/$2/parameters/result listening &&
		t "$1: $3 connects" insmod $IK/$3.ko role=client addr=$4 port=$5 flags=$6 seed=$5 &&
		t "$1: $3 (client) ends ok" ok $3 && _ok=1
	echo "# $3: $R"
	if [ $_ok = 1 ]; then
		t "$1: $2 (server) ends ok" ok $2 || _ok=0
		echo "# $2: $R"
	fi
	rmmod $3 2>/dev/null
	rmmod $2
	if [ $_ok = 1 ]; then echo stop >$F/capture; else oib_pcap_dump uo; fi
}

t "1% loss on uo's fabric (seed 21)" sh -c "echo 21 >$F/seed && echo drop=10000 >$F/faults"
exchange "in-tree -> oib, IPv4, lossy" oib_interop oib_interop_intree 10.12.0.2 7270 8
exchange "oib -> in-tree, IPv6, lossy, the server disconnects" oib_interop_intree oib_interop \
	fd12::1 7271 4
t "the fabric dropped frames" grep -q 'drop_fault [1-9]' $F/ports
echo off >$F/faults
exchange "in-tree -> oib, IPv6, oib disconnects" oib_interop oib_interop_intree fd12::2 7272 13
exchange "oib -> in-tree, IPv4, oib disconnects" oib_interop_intree oib_interop 10.12.0.1 7273 1
exchange "oib rejects in-tree" oib_interop oib_interop_intree fd12::2 7274 2
exchange "in-tree rejects oib" oib_interop_intree oib_interop 10.12.0.1 7275 2

# rping, killed in the middle of its connection to oib_krping: the in-tree side's cleanup ends
# the connection; oib's side must end with it and leave no cm_id behind (after its timewait)
CMIDS=/sys/kernel/debug/oib_cm/ids
no_ids() { ! grep -q . $CMIDS; }
t "krping server starts" krping "server,addr=10.12.0.2,port=7276,validate,count=100000,size=64"
s=$KID
rping -c -a 10.12.0.2 -p 7276 -C 100000 -S 64 -V >/tmp/rping.out 2>&1 &
_pid=$!
iters_past() { krping_get "$s" iters && [ "${V:-0}" -ge "$1" ]; }
t "rping runs" until20 iters_past 20
kill -9 $_pid
wait $_pid
krping_done() { krping_get "$1" state && [ "$V" = done ]; }
t "the krping server ends" until20 krping_done "$s"
t "no cm_id left on oib's side" until20 no_ids || cat $CMIDS

t "rxe0 goes" rdma link delete rxe0
ip netns del oibJ
t "deleting the namespace removes uo" wait_gone /sys/class/oib/uo
ip link del vi 2>/dev/null
unload_extra
echo clear >$KRPING/ctl
done_testing
