#!/bin/sh
# Integration test: oib_krping over oib_siw between two network namespaces joined by a veth pair,
# a device on each end (oib link add, from inside each namespace): the rping
# exchange over IPv4 and IPv6 with data verified, 64 KiB RDMA WRITEs and READs, and connections
# one after another; the devices count their connections and no malformed FPDU; the wire of three
# connections captured with tcpdump, for tshark on the host; deleting a namespace removes its
# device.  Fails (exit status 4) without oib_krping, oib_siw, the oib tool or iproute2's ip.
. "$OIB_GUEST/lib.sh"

loaded oib_krping || { echo "# oib_krping is not loaded"; exit 4; }
loaded oib_siw || { echo "# oib_siw is not loaded"; exit 4; }
case $(ip -V 2>&1) in *iproute2*) ;; *) echo "# no iproute2 ip"; exit 4 ;; esac
command -v oib >/dev/null || { echo "# no oib tool"; exit 4; }
P=/sys/class/oib

t "netns pair with a veth" netns_pair siwA sa 10.12.0.1 fd12::1 siwB sb 10.12.0.2 fd12::2 ||
	done_testing
t "device wa on sa" ip netns exec siwA oib link add wa type siw netdev sa || done_testing
t "device wb on sb" ip netns exec siwB oib link add wb type siw netdev sb || done_testing
t "wa is an RNIC" grep -q "RNIC" $P/wa/node_type
t "wa has 10.12.0.1" wait_gid wa 0000:0000:0000:0000:0000:ffff:0a0c:0001
t "wb has fd12::2" wait_gid wb fd12:0000:0000:0000:0000:0000:0000:0002
t "a netdev in another namespace is refused" \
	fails oib link add wc type siw netdev sa

counters() {
	for _d in wa wb; do echo "# $_d:" $(grep -v ' 0$' /sys/kernel/debug/oib/$_d/siw); done
	sed 's/^/# /' $KRPING/stats
}
expect() { krping_get "$1" "$2" && [ "$V" = "$3" ] || { echo "# test $1: $2=$V, wanted $3"; return 1; }; }
run() {
	t "$1: server starts" krping "server,$2"
	s=$KID
	t "$1: client starts" krping "client,$2"
	c=$KID
	t "$1: both end well" krping_end "$s" "$c" || counters
	t "$1: client iterations" expect "$c" iters "$3"
	t "$1: client bytes" expect "$c" bytes "$4"
}
run "ping IPv4" "addr=10.12.0.2,port=7174,validate,count=200" 200 25600
counters
run "ping IPv6" "addr=fd12::2,port=7174,validate,count=50,size=4096" 50 409600
run "bw" "addr=10.12.0.2,port=7176,bw,validate,count=50,size=65536,txdepth=8" 50 3276800
run "rbw" "addr=10.12.0.2,port=7177,rbw,validate,count=50,size=65536" 50 3276800
run "conn" "addr=10.12.0.2,port=7178,conn,count=20" 20 0

# The wire, for tshark on the host (tools/check.sh, capture iwarp_siw): tcpdump on wb's end of the
# veth around three connections (the rping exchange, a WRITE stream, a READ stream).  Every FPDU
# the two devices sent meanwhile must decode as MPA, DDP and RDMAP, each MPA request and reply too,
# and the RDMAP opcodes of SEND, WRITE, READ request and READ response must be there.  A ping with
# a pattern of its own, seen in the file, marks the end: tcpdump has written everything before it.
tx_fpdus() { sed -n 's/^tx_fpdus *//p' /sys/kernel/debug/oib/$1/siw; }
fpdus() { echo $(($(tx_fpdus wa) + $(tx_fpdus wb))); }
marked() { od -An -v -tx1 /tmp/iwarp.pcap | grep -q "a5 a5 a5 a5 a5 a5 a5 a5 a5 a5 a5 a5 a5 a5 a5 a5"; }
if command -v tcpdump >/dev/null; then
	f0=$(fpdus)
	# /bin/ip itself: $! is then tcpdump's (ip's netns exec execs it), not a subshell's; a ring
	# of 16 MiB holds the whole capture (a slow reader under TCG must not make the kernel drop)
	/bin/ip netns exec siwB tcpdump -Z root -i sb -s 65600 -B 16384 -U --immediate-mode -w /tmp/iwarp.pcap \
		tcp or icmp 2>/tmp/tcpdump.err &
	tp=$!
	t "capture: tcpdump listens on sb" until20 grep -qs "listening on sb" /tmp/tcpdump.err
	run "capture: ping" "addr=10.12.0.2,port=7180,validate,count=10" 10 1280
	run "capture: bw" "addr=10.12.0.2,port=7181,bw,validate,count=4,size=16384" 4 65536
	run "capture: rbw" "addr=10.12.0.2,port=7182,rbw,validate,count=4,size=16384" 4 65536
	f1=$(fpdus)
	ip netns exec siwA ping -c 1 -p a5 -s 64 10.12.0.2 >/dev/null
	t "capture: tcpdump saw the end mark" until20 marked
	kill $tp	# TERM: a background job of a script ignores INT
	wait $tp
	sed 's/^/# tcpdump: /' /tmp/tcpdump.err
	t "capture: tcpdump dropped nothing" grep -q "^0 packets dropped by kernel" /tmp/tcpdump.err
	t "capture: the devices sent FPDUs" [ $f1 -gt $f0 ]
	echo "OIB-PCAP-COUNT iwarp_siw iwarp_rdma.opcode $((f1 - f0))"
	echo "OIB-PCAP-COUNT iwarp_siw iwarp_mpa.key.req 3"
	echo "OIB-PCAP-COUNT iwarp_siw iwarp_mpa.key.rep 3"
	for _op in 0 1 2 3; do echo "OIB-PCAP-EXPECT iwarp_siw iwarp_rdma.opcode $_op"; done
	echo "OIB-PCAP-EXPECT iwarp_siw iwarp_mpa.rev 2"
	oib_pcap_print iwarp_siw /tmp/iwarp.pcap
	rm -f /tmp/iwarp.pcap /tmp/tcpdump.err
else
	echo "# no tcpdump: the wire is not captured"
fi

t "wb counts its connections" grep -q "^connections  *2[0-9]" /sys/kernel/debug/oib/wb/siw
t "wb saw no malformed FPDU" grep -q "^rx_malformed  *0$" /sys/kernel/debug/oib/wb/siw
t "wa saw no malformed FPDU" grep -q "^rx_malformed  *0$" /sys/kernel/debug/oib/wa/siw
t "link delete takes wa" oib link delete wa
t "wa is gone" wait_gone $P/wa
ip netns del siwB
t "deleting a namespace removes its device" wait_gone $P/wb ||
	{ echo "# left: $(ls /sys/class/oib) $(ls /sys/class/net)"; dmesg | tail -20 | sed 's/^/# /'; }
ip netns del siwA
done_testing
