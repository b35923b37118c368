#!/bin/sh
# Integration test: oib_krping between two oib_rxe devices with IPv4 and IPv6 addresses, in every
# mode (the rping exchange over both families, wlat, bw, rbw, conn), data verified, both sides'
# figures as the options ask; its command interface refuses bad input with the right errno; a
# client with no server is rejected; the ports' counters show traffic and no retransmission;
# removing a device ends the tests on it (a waiting server, a running ping) and completes; the
# module unloads with a server listening and an endless ping running, and loads again.  (kmemleak
# runs over the whole guest at the end.)  Fails (exit status 4) when oib_krping is not loaded.  Leaves every
# driver module loaded.
. "$OIB_GUEST/lib.sh"

loaded oib_krping || { echo "# oib_krping is not loaded"; exit 4; }

rxe_add 1
A=$DEV
rxe_add 1
B=$DEV
t "two devices ($A, $B)" test -n "$A" -a -n "$B"
t "$A gets 10.9.0.1" oib addr add $A/1 10.9.0.1
t "$A gets fd09::1" oib addr add $A/1 fd09::1
t "$B gets 10.9.0.2" oib addr add $B/1 10.9.0.2
t "$B gets fd09::2" oib addr add $B/1 fd09::2

# expect ID KEY VALUE: test ID's KEY is VALUE
expect() { krping_get "$1" "$2" && [ "$V" = "$3" ] || { echo "# test $1: $2=$V, wanted $3"; return 1; }; }

# run NAME OPTIONS ITERS BYTES: a server and a client with OPTIONS, both ending well, each with
# ITERS iterations and the client with BYTES bytes moved
run() {
	t "$1: server starts" krping "server,$2"
	s=$KID
	t "$1: client starts" krping "client,$2"
	c=$KID
	t "$1: both end well" krping_end "$s" "$c"
	t "$1: server result 0" expect "$s" result 0
	t "$1: client result 0" expect "$c" result 0
	t "$1: server state done" expect "$s" state done
	t "$1: server iterations" expect "$s" iters "$3"
	t "$1: client iterations" expect "$c" iters "$3"
	t "$1: client bytes" expect "$c" bytes "$4"
}

run "ping IPv4" "addr=10.9.0.2,port=7174,validate,count=100" 100 12800
run "ping IPv6" "addr=fd09::2,port=7174,validate,count=50,size=4096" 50 409600
run "ping 128 KiB" "addr=10.9.0.2,port=7180,validate,count=5,size=131072" 5 1310720
run "wlat" "addr=10.9.0.2,port=7175,wlat,validate,count=100" 100 6400
krping_get "$c" lat_ns
t "wlat: a one-way latency ($V ns)" test "${V:-0}" -gt 0
run "bw" "addr=fd09::2,port=7176,bw,validate,count=100,size=65536,txdepth=16" 100 6553600
run "rbw" "addr=10.9.0.2,port=7177,rbw,validate,count=100,size=65536" 100 6553600
run "conn" "addr=10.9.0.2,port=7178,conn,count=20" 20 0
t "conn: 20 connections on the client" expect "$c" conns 20

# the command interface: each refusal with its errno (shown by the shell as the write's error)
# refused WHY CMD ERRNO-TEXT: the write fails and says ERRNO-TEXT
refused() {
	_e=$(sh -c "echo '$2' >$KRPING/ctl" 2>&1) && { echo "# accepted: $2"; return 1; }
	case $_e in *"$3"*) return 0 ;; esac
	echo "# $2: $_e"
	return 1
}
t "no role: EINVAL" refused x "addr=10.9.0.2" "Invalid argument"
t "two roles: EINVAL" refused x "server,client,addr=10.9.0.2" "Invalid argument"
t "no address: EINVAL" refused x "client,port=1" "Invalid argument"
t "bad address: EINVAL" refused x "client,addr=10.9.0.300" "Invalid argument"
t "unknown word: EINVAL" refused x "client,addr=10.9.0.2,bogus" "Invalid argument"
t "two modes: EINVAL" refused x "client,addr=10.9.0.2,bw,wlat" "Invalid argument"
t "size too small: ERANGE" refused x "client,addr=10.9.0.2,size=8" "out of range"
t "size too large: ERANGE" refused x "client,addr=10.9.0.2,size=1048577" "out of range"
t "port 0: ERANGE" refused x "client,addr=10.9.0.2,port=0" "out of range"
t "conn without count: EINVAL" refused x "client,addr=10.9.0.2,conn" "Invalid argument"
t "server on an address no port has: EADDRNOTAVAIL" refused x "server,addr=10.9.9.9" \
	"assign requested address"
t "stop of no test: ENOENT" refused x "stop=999" "No such file"
t "a server listens on 7190" krping "server,addr=10.9.0.2,port=7190"
s=$KID
t "a second one on 7190: EADDRINUSE" refused x "server,addr=10.9.0.2,port=7190" "in use"
t "stop it" sh -c "echo stop=$s >$KRPING/ctl"
t "stopped: done" expect "$s" state done
t "a client with no server is rejected" krping "client,addr=10.9.0.2,port=7191,count=1"
t "  wait reports the failure" fails sh -c "echo wait=$KID >$KRPING/ctl"
t "wait for no such test: ENOENT" refused x "wait=999" "No such file"
t "  as ECONNREFUSED" expect "$KID" result -111
t "clear forgets the finished tests" sh -c "echo clear >$KRPING/ctl"
t "  the stats are empty" test ! -s $KRPING/stats

# counters: the ports moved the traffic; on a lossless fabric that keeps order nothing arrives out of
# sequence, and a retransmission only follows an ACK timeout (which a guest descheduled for half a
# second on a loaded host may see: the count itself is not zero for sure)
for d in $A $B; do
	get_stat() { while read -r k v; do [ "$k" = "$1" ] && V=$v; done </sys/kernel/debug/oib/$d/port1; }
	get_stat tx_frames
	t "$d sent frames ($V)" test "$V" -gt 1000
	get_stat rx_frames
	t "$d received frames ($V)" test "$V" -gt 1000
	get_stat rx_drop_seq
	t "$d received nothing out of sequence" test "$V" -eq 0
	get_stat tx_retransmits
	_re=$V
	get_stat tx_timeouts
	t "$d retransmitted only after timeouts ($_re, $V)" test "$_re" -eq 0 -o "$V" -gt 0
	get_stat rx_drop_access
	t "$d refused no access" test "$V" -eq 0
done

# device removal: a waiting server and both ends of a running ping on the removed device end, and
# the removal completes
rxe_add 1
R=$DEV
t "a third device ($R) gets 10.9.1.2" oib addr add $R/1 10.9.1.2
t "a server waits on $R" krping "server,addr=10.9.1.2,port=7194"
s1=$KID
t "an endless ping to $R runs (server)" krping "server,addr=10.9.1.2,port=7195"
s2=$KID
t "  (client)" krping "client,addr=10.9.1.2,port=7195,validate"
c2=$KID
t "  it is running" krping_until "$c2" state running
t "remove $R while they run" rxe_remove "$R"
t "  the waiting server ends" fails sh -c "echo wait=$s1 >$KRPING/ctl"
t "  with ENODEV" expect "$s1" result -19
sh -c "echo wait=$s2 >$KRPING/ctl" 2>/dev/null
t "  the ping's server ends" expect "$s2" state done
sh -c "echo wait=$c2 >$KRPING/ctl" 2>/dev/null
t "  the ping's client ends" expect "$c2" state done
t "  $R is gone" test ! -e /sys/class/oib/$R
echo clear >$KRPING/ctl

# unload in any state: a server waiting, an endless ping running
t "a server waits on 7192" krping "server,addr=10.9.0.2,port=7192"
t "an endless ping runs on 7193 (server)" krping "server,addr=fd09::2,port=7193"
s=$KID
t "  (client)" krping "client,addr=fd09::2,port=7193,validate"
c=$KID
t "  it is running" krping_until "$c" state running
t "rmmod oib_krping while they run" rmmod oib_krping
t "its debugfs went with it" test ! -e $KRPING
t "no cm_id is left in oib_cm" sh -c "! grep -q . /sys/kernel/debug/oib_cm/ids"
t "oib_krping loads again" load oib_krping

rxe_remove "$A"
rxe_remove "$B"
load_drivers
done_testing
