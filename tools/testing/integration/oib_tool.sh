#!/bin/sh
# Integration test: the oib tool and oib_core's netlink family.  Every command: link add (oib_rxe
# on the fabric with ports, on a netdev; oib_siw on a netdev, each from inside the netdev's
# namespace), dev show, link show, addr add/del/show, -j, -p, -d, link delete, monitor (devices
# coming and going, a port going down and up); every error, with the kernel's message: an unknown
# device, a taken name, a bad netdev, an unknown type, a port the device lacks, a bad name, an
# address on a device that takes its netdev's, the tool's own usage errors; dumps of devices and
# ports while devices come and go; res show of every kind, a process's objects and oib_krping's
# RDMA CM ids (a wildcard listener, a connection's two ids, gone after it).  (The family's missing
# attributes and malformed messages are oib_nl_fuzz's.)  Fails (exit status 4) without the tool,
# oib_rxe, oib_siw or iproute2's ip.
. "$OIB_GUEST/lib.sh"

command -v oib >/dev/null || { echo "# no oib tool in the guest"; exit 4; }
loaded oib_rxe || { echo "# oib_rxe is not loaded"; exit 4; }
loaded oib_siw || { echo "# oib_siw is not loaded"; exit 4; }
case $(ip -V 2>&1) in *iproute2*) ;; *) echo "# no iproute2 ip"; exit 4 ;; esac
P=/sys/class/oib
O=/tmp/oib.out
E=/tmp/oib.err

# ok CMD...: the command succeeds, its output in $O; fails_with TEXT CMD...: it fails, saying TEXT
ok() { "$@" >$O 2>$E || { echo "# $*: status $?:" $(cat $E); return 1; }; }
fails_with() {
	_w=$1
	shift
	if "$@" >$O 2>$E; then echo "# $* succeeded"; return 1; fi
	grep -q "$_w" $E || { echo "# $*: wanted '$_w', got:" $(cat $E); return 1; }
}
# out_has TEXT: a line of the last output has TEXT
out_has() { grep -q -- "$1" $O || { echo "# no '$1' in:"; sed 's/^/#   /' $O; return 1; }; }

oib -d monitor >/tmp/mon 2>&1 &
mon=$!
t "monitor listens" until20 grep -q "^monitor: listening" /tmp/mon

# oib_rxe on the in-kernel fabric
t "link add r0 type rxe ports 2" ok oib link add r0 type rxe ports 2
t "r0 is in sysfs" test -d $P/r0
t "dev show r0" ok oib dev show r0
t "... its node type, type and ports" out_has "^[0-9]*: r0: node_type ca type rxe ports 2 fw "
t "dev (all) lists r0" ok oib dev
t "... r0" out_has " r0: "
t "dev show -d has the system image GUID" ok oib -d dev show r0
t "... sys_image_guid" out_has "sys_image_guid "
t "link show r0: two ports" ok oib link show r0
t "... port 1 ACTIVE, MTU 4096" out_has "^link r0/1 state ACTIVE physical_state LINK_UP mtu 4096"
t "... port 2" out_has "^link r0/2 state ACTIVE"
t "link show r0/2: one port" ok oib link show r0/2
t "... only port 2" eval '! grep -q r0/1 $O && grep -q "^link r0/2 " $O'
t "link -d: max MTU and link layer" ok oib -d link show r0/1
t "... max_mtu 4096 link_layer Ethernet" out_has "max_mtu 4096 link_layer Ethernet"

# addresses
t "addr add r0/1 10.55.0.1" ok oib addr add r0/1 10.55.0.1
t "addr add r0/1 fd55::1" ok oib addr add r0/1 fd55::1
t "the sysfs GID of 10.55.0.1" wait_gid r0 0000:0000:0000:0000:0000:ffff:0a37:0001
t "link show r0/1 lists both GIDs" ok oib link show r0/1
t "... ::ffff:10.55.0.1" out_has "::ffff:10.55.0.1"
t "... fd55::1" out_has "fd55::1"
t "addr show r0" ok oib addr show r0
t "... r0/1's fd55::1" out_has "fd55::1"
t "addr show -d: index and type" ok oib -d addr show r0/1
t "... RoCEv2" out_has ":fd55::1(RoCEv2)"
t "addr add of an address the port has" fails_with "the port has this address" \
	oib addr add r0/1 10.55.0.1
t "addr del r0/1 fd55::1" ok oib addr del r0/1 fd55::1
t "... gone from link show" eval 'oib link show r0/1 >$O && ! grep -q fd55::1 $O'
t "addr del of an address the port lacks" fails_with "no such address" oib addr del r0/1 fd55::1
t "addr add on a port r0 lacks" fails_with "no such port" oib addr add r0/3 10.55.0.3

# JSON
t "dev -j" ok oib -j dev show r0
t "... one object" out_has '^\[{"index":[0-9]*,"name":"r0","node_type":"ca","type":"rxe","ports":2,'
t "link -j -p: indented" ok oib -j -p link show r0/1
t "... a field a line" out_has '^        "state": "ACTIVE",$'
t "... the GIDs as an array" out_has '"::ffff:10.55.0.1"'
t "link -j of a port" ok oib -j link show r0/1
t "... its port number" out_has '"port":1'

# errors, each with the kernel's word
t "dev show of an unknown device" fails_with "kernel: no such device" oib dev show nosuch
t "link show of an unknown device" fails_with "no such device" oib link show nosuch
t "link show of an unknown port" fails_with "no such port" oib link show r0/7
t "link delete of an unknown device" fails_with "no such device" oib link delete nosuch
t "addr add on an unknown device" fails_with "no such device" oib addr add nosuch/1 10.1.1.1
t "a taken name" fails_with "a device of this name exists" oib link add r0 type rxe
t "an unknown type" fails_with "unknown link type" oib link add r1 type nosuch
t "an unknown netdev" fails_with "no such network device" oib link add r1 type rxe netdev nosuch
t "siw without a netdev" fails_with "needs a netdev" oib link add w1 type siw
t "a name with a slash" fails_with "no '%', '/' or blanks" oib link add a/b type rxe
t "a name with a percent" fails_with "no '%', '/' or blanks" oib link add a%d type rxe
t "too many ports" fails_with "out of range\|at most 8 ports" oib link add r1 type rxe ports 300
t "nine ports" fails_with "at most 8 ports" oib link add r1 type rxe ports 9
t "nothing was made by the refusals" eval 'oib dev >$O && ! grep -q " r1: \| w1: \| a/b: \| a%d: " $O'
t "usage: no object" fails_with "no object" oib
t "usage: unknown object" fails_with "unknown object" oib frob
t "usage: link add without a type" fails_with "no type" oib link add r1
t "usage: addr add without a port" fails_with "no NAME/PORT" oib addr add r0 10.1.1.1
t "usage: a bad address" fails_with "no IPv4 or IPv6 address" oib addr add r0/1 10.1.1
t "usage: unknown option" fails_with "unknown option" oib -x dev
t "the monitor saw r0 come" until20 grep -q "^\[dev new\] [0-9]*: r0: node_type ca" /tmp/mon
t "... and its GIDs change" until20 grep -q "^\[port\] link r0/1 state ACTIVE" /tmp/mon

# devices on netdevs, made from inside the netdev's namespace
t "netns pair with a veth" netns_pair tlA ta 10.56.0.1 fd56::1 tlB tb 10.56.0.2 fd56::2 ||
	done_testing
t "link add u0 type rxe netdev ta (in tlA)" ok ip netns exec tlA oib link add u0 type rxe netdev ta
t "link add w0 type siw netdev tb (in tlB)" ok ip netns exec tlB oib link add w0 type siw netdev tb
t "ta is no netdev of the initial namespace" fails_with "no such network device" \
	oib link add u1 type rxe netdev ta
t "u0's port is ACTIVE" wait_line $P/u0/ports/1/state "4: ACTIVE"
t "link show u0 names its netdev" ok oib link show u0
t "... netdev ta, 10.56.0.1" eval 'grep -q "^link u0/1 state ACTIVE .* netdev ta" $O && grep -q ::ffff:10.56.0.1 $O'
t "-d: the netdev's ifindex" ok oib -d link show u0/1
t "... netdev_index" out_has "netdev ta netdev_index [1-9]"
t "dev show w0: an RNIC of type siw" ok oib dev show w0
t "... rnic, siw" out_has " w0: node_type rnic type siw ports 1 "
t "stat show w0: oib_siw's device counters" ok oib stat show w0
t "... FPDUs and connections" out_has "^dev w0 tx_fpdus [0-9]* .* connections [0-9]* "
t "w0 gets 10.56.0.2" until20 sh -c "oib link show w0 | grep -q ::ffff:10.56.0.2"
t "an address on a device on a netdev is refused" fails_with "has the netdev's addresses" \
	oib addr add u0/1 10.57.0.1
t "siw takes no addresses by hand" fails_with "take no addresses" oib addr add w0/1 10.57.0.1
t "a second siw device on tb" fails_with "has an oib_siw device already" \
	ip netns exec tlB oib link add w1 type siw netdev tb
t "a netdev device with two ports" fails_with "one port" \
	ip netns exec tlA oib link add u1 type rxe netdev ta ports 2
t "ta down: u0's port goes DOWN" ip -n tlA link set ta down
t "... the monitor says so" until20 grep -q "^\[port\] link u0/1 state DOWN" /tmp/mon
t "ta up again" ip -n tlA link set ta up
t "... u0's port ACTIVE" wait_line $P/u0/ports/1/state "4: ACTIVE"

# dumps while devices come and go: every dump succeeds and lists the devices that stay
churn() {
	_i=0
	while [ ! -e /tmp/churn.stop ]; do
		oib link add c$((_i % 4)) type rxe ports 3 2>/dev/null
		oib link delete c$(((_i + 2) % 4)) 2>/dev/null
		_i=$((_i + 1))
	done
}
rm -f /tmp/churn.stop
churn &
ch=$!
dumps() {
	_k=0
	while [ $_k -lt 30 ]; do
		oib dev >$O 2>$E && grep -q " r0: " $O && grep -q " w0: " $O &&
			oib link >$O 2>$E && grep -q "^link r0/2 " $O && grep -q "^link u0/1 " $O &&
			oib -j link >$O 2>$E && grep -q '"name":"w0"' $O ||
			{ echo "# dump $_k:" $(cat $E); return 1; }
		_k=$((_k + 1))
	done
}
t "30 rounds of dev, link and link -j dumps amid churn" dumps
touch /tmp/churn.stop
wait $ch
for c in c0 c1 c2 c3; do oib link delete $c 2>/dev/null; done
t "the churn's devices are gone" eval 'oib dev >$O && ! grep -q " c[0-3]: " $O'

# res show: the kernel's objects (oib_mad's QP1 on each port, its PD and CQs) and a process's
t "res show qp dev r0" ok oib res show qp dev r0
t "... oib_mad's GSI QP on port 2" out_has "^dev r0 qp [0-9]* qpn 1 type GSI state RTS port 2 .*owner oib_mad$"
t "res show pd dev r0" ok oib res show pd dev r0
t "... oib_mad's" out_has "^dev r0 pd [0-9]* lkey 0x[0-9a-f]* users [1-9][0-9]* owner oib_mad$"
t "res show cq dev r0" ok oib res show cq dev r0
t "... with its size" out_has "^dev r0 cq [0-9]* cqe [1-9][0-9]* .*owner oib_mad$"
t "res show mr, srq" eval 'oib res show mr >$O && oib res show srq >>$O'
t "res: every kind" ok oib res
t "... r0's QPs among them" out_has "^dev r0 qp "
t "res -j" ok oib -j res show qp dev r0
t "... an object" out_has '"dev":"r0","kind":"qp","id":[0-9]*,"qpn":1,"type":"GSI"'
t "res of an unknown device" fails_with "no such device" oib res show qp dev nosuch
t "usage: res of an unknown kind" fails_with "unknown kind" oib res show ah
# stat: oib_rxe's port counters (also in debugfs)
t "stat show r0" ok oib stat show r0
t "... port 1's frames and drops" out_has "^link r0/1 rx_frames [0-9]* rx_drop_port_down [0-9]* "
t "... port 2's" out_has "^link r0/2 rx_frames [0-9]* .* tx_frames [0-9]* "
t "stat show r0/2: one port" eval 'oib stat show r0/2 >$O && ! grep -q r0/1 $O && grep -q "^link r0/2 " $O'
t "stat (all) has r0" eval 'oib stat >$O && grep -q "^link r0/1 " $O'
t "stat -j" ok oib -j stat show r0/1
t "... its counters as fields" out_has '"name":"r0","port":1,"rx_frames":[0-9]*,'
t "stat of an unknown device" fails_with "no such device" oib stat show nosuch
oibv_rc_pingpong -d r0 -n 1000000000 >/dev/null 2>&1 &
pp=$!
user_qps() { oib res show qp dev r0 >$O && grep -q "type RC .* pid [0-9]* comm oibv_rc_pingpon$" $O; }
t "a process's RC QPs, with its pid and name" until20 user_qps
t "... its PD, by its pid" eval 'oib res show pd dev r0 | grep -q " pid $pp comm oibv_rc_pingpon$"'
t "... its MR" eval 'oib res show mr dev r0 | grep -q "lkey .* comm oibv_rc_pingpon$"'
t "... its CQ" eval 'oib res show cq dev r0 | grep -q " comm oibv_rc_pingpon$"'
for p in $(oib res show qp dev r0 | sed -n 's/.* pid \([0-9]*\) comm .*/\1/p'); do kill $p; done
wait $pp 2>/dev/null
t "killed, its objects go" until20 eval '! oib res dev r0 | grep -q comm'

# res show cm_id: oib_krping's listener on the wildcard address (bound to no device: dev -), the
# two ids of its connection to r0's 10.55.0.1, all gone once the test is stopped
cm_has() { oib res show cm_id $2 >$O 2>$E && grep -q -- "$1" $O; }
cm_says() { until20 cm_has "$@" || { echo "# no '$1' in:"; sed 's/^/#   /' $O; return 1; }; }
if loaded oib_krping; then
	t "a krping server on 0.0.0.0:7190" krping "server,addr=0.0.0.0,port=7190,count=0"
	ks=$KID
	t "... its listener, on no device" cm_says \
		"^dev - cm_id [0-9]* state LISTEN ps tcp type RC src 0.0.0.0:7190 listen yes owner oib_krping$"
	t "... not among r0's" eval '! cm_has "^dev - " "dev r0"'
	t "a krping client of 10.55.0.1:7190" krping "client,addr=10.55.0.1,port=7190,count=0"
	kc=$KID
	t "... its id, connected, with its QP" cm_says \
		"^dev [a-z0-9_]* cm_id [0-9]* state ESTABLISHED ps tcp type RC port [1-9] qpn [1-9][0-9]* src [0-9.]*:[0-9]* dst 10.55.0.1:7190 owner oib_krping$"
	t "... the server's, spawned by the listener" cm_says \
		"^dev r0 cm_id [0-9]* state ESTABLISHED ps tcp type RC port 1 qpn [1-9][0-9]* src 10.55.0.1:7190 dst 10.55.0.1:[0-9]* owner oib_krping$"
	t "res -j cm_id" ok oib -j res show cm_id
	t "... the listener as an object" out_has '"dev":"-","kind":"cm_id","id":[0-9]*,"state":"LISTEN","ps":"tcp","type":"RC","src":"0.0.0.0:7190","listen":"yes","owner":"oib_krping"'
	t "res (every kind) has the ids" ok oib res
	t "... the listener last" eval 'tail -n 1 $O | grep -q "^dev - cm_id .*:7190 listen yes"'
	t "stop the client" krping "stop=$kc"
	krping "stop=$ks" 2>/dev/null	# (it may have ended with its client)
	krping wait 2>/dev/null
	t "their ids are gone" until20 eval '! cm_has ":7190 "'
	krping clear
fi

# deletes
t "link delete r0" ok oib link delete r0
t "r0 is gone from sysfs" wait_gone $P/r0
t "... and from dev" eval 'oib dev >$O && ! grep -q " r0: " $O'
t "the monitor saw r0 go" until20 grep -q "^\[dev del\] [0-9]*: r0: " /tmp/mon
t "link delete u0" ok oib link delete u0
t "link delete w0" ok oib link delete w0
t "u0 and w0 are gone" eval 'wait_gone $P/u0 && wait_gone $P/w0'
t "monitor -j: an object a line" eval 'oib -j monitor >/tmp/monj 2>&1 & echo $! >/tmp/monj.pid'
# the JSON monitor listens once a device it sees comes: make devices until one shows
mj() { oib link add j0 type rxe && oib link delete j0 && grep -q '"name":"j0"' /tmp/monj; }
t "... sees j0" until20 mj
read -r mjp </tmp/monj.pid
kill $mjp $mon
wait $mjp $mon 2>/dev/null
ip netns del tlA
ip netns del tlB
rm -f $O $E /tmp/mon /tmp/monj /tmp/monj.pid /tmp/churn.stop
done_testing
