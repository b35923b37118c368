#!/bin/sh
# Integration test: Debian's own rdmacm-utils programs, unmodified, on oib devices through the
# drop-in librdmacm.so.1 and libibverbs.so.1 (the guest's /usr/lib/oib, chosen by LD_LIBRARY_PATH;
# Documentation/ucma.md) over oib_ucma: rping between two oib_rxe devices, the data verified (-V),
# several sizes and counts, IPv4 and IPv6; ucmatose with several connections and messages;
# rdma_server and rdma_client; both processes of each on oib.  kill -9 of a client and of a
# server in the middle of a connection, and of a listener, leaves no cm_id of oib_ucma's (oib res
# show cm_id).  Fails (exit status 4) without oib_ucma, the binaries or the drop-ins.
. "$OIB_GUEST/lib.sh"

L=/usr/lib/oib
for b in rping ucmatose rdma_server rdma_client; do
	[ -x /bin/$b ] || { echo "# no $b"; exit 4; }
done
[ -f $L/librdmacm.so.1 ] && [ -f $L/libibverbs.so.1 ] || { echo "# no drop-ins in $L"; exit 4; }
loaded oib_ucma || { echo "# oib_ucma is not loaded"; exit 4; }
[ -c /dev/oib_rdma_cm ] || { echo "# no /dev/oib_rdma_cm"; exit 4; }

# The RC QPs' ACK timeout as the CM sets it is ample; the drop-in's floor for emulated guests
# (Documentation/ibverbs.md) is set as ibverbs_compat sets it, for the programs' own modify_qp.
export OIBV_MIN_ACK_TIMEOUT=17

# on NAME PROG ARGS...: PROG on the drop-ins, its output in /tmp/NAME.out, then the log
on() {
	_name=$1
	shift
	timeout 120 env LD_LIBRARY_PATH=$L "$@" >/tmp/$_name.out 2>&1
	_rc=$?
	sed "s/^/# $_name: /" /tmp/$_name.out | head -40
	[ $_rc = 0 ] || echo "# $_name: exit status $_rc"
	return $_rc
}
# bg NAME PROG ARGS...: the same in the background, its PID in BG
bg() {
	_name=$1
	shift
	timeout 120 env LD_LIBRARY_PATH=$L "$@" >/tmp/$_name.out 2>&1 &
	BG=$!
}
# bgk NAME PROG ARGS...: the same without timeout(1), so that BG is the program's own PID (env
# execs it), for kill -9; every use ends with the program killed or waited for
bgk() {
	_name=$1
	shift
	env LD_LIBRARY_PATH=$L "$@" >/tmp/$_name.out 2>&1 &
	BG=$!
}
# stop_bg PID NAME: a background program that is no longer wanted ends; its output in the log
stop_bg() {
	kill -9 "$1" 2>/dev/null
	wait "$1"
	sed "s/^/# $2: /" /tmp/$2.out | head -40
	return 1
}
# up PID: the background program PID is still there and oib_ucma has a listener
up() { kill -0 "$1" 2>/dev/null && listening; }
# done_bg PID NAME: the background program's exit status 0, its output in the log
done_bg() {
	wait "$1"
	_rc=$?
	sed "s/^/# $2: /" /tmp/$2.out | head -40
	[ $_rc = 0 ] || echo "# $2: exit status $_rc"
	return $_rc
}
# status N COMMAND...: COMMAND exits with status N
status() {
	_want=$1
	shift
	"$@"
	_rc=$?
	[ $_rc = "$_want" ] || echo "# exit status $_rc, wanted $_want"
	[ $_rc = "$_want" ]
}
# ucma_ids: sets V to the number of cm_ids oib_ucma made
ucma_ids() { V=$(oib res show cm_id | grep -c 'owner oib_ucma'); }
no_ucma_ids() { ucma_ids && [ "$V" = 0 ]; }
has_ucma_state() { oib res show cm_id | grep 'owner oib_ucma' | grep -q "state $1"; }
listening() { oib res show cm_id | grep 'owner oib_ucma' | grep -q "listen yes"; }

rxe_add 1 || { echo "# no device"; done_testing; }
A=$DEV
rxe_add 1 || { echo "# no second device"; done_testing; }
B=$DEV
t "addresses" sh -c "oib addr add $A/1 10.37.0.1 && oib addr add $B/1 10.37.0.2 &&
	oib addr add $A/1 fd37::1 && oib addr add $B/1 fd37::2"
t "$A's port is ACTIVE" wait_line /sys/class/oib/$A/ports/1/state "4: ACTIVE"
t "$B's port is ACTIVE" wait_line /sys/class/oib/$B/ports/1/state "4: ACTIVE"

# rping_pair ADDR PORT COUNT SIZE: server on ADDR, client to it, both verifying
rping_pair() {
	bg rping_s rping -s -a $1 -p $2 -V -v
	_s=$BG
	until20 up $_s || stop_bg $_s rping_s || return 1
	on rping_c rping -c -a $1 -p $2 -C $3 -S $4 -V -v || stop_bg $_s rping_s || return 1
	done_bg $_s rping_s || return 1
	grep -q "ping data" /tmp/rping_c.out
}
t "rping -V, 10 x 64 B, IPv4" rping_pair 10.37.0.2 7301 10 64
t "rping -V, 100 x 1 KiB, IPv4" rping_pair 10.37.0.2 7302 100 1024
t "rping -V, 20 x 64 KiB, IPv6" rping_pair fd37::2 7303 20 65536
t "rping -V, 1000 x 100 B" rping_pair 10.37.0.2 7304 1000 100
t "no cm_id left after rping" until20 no_ucma_ids

# a client to no listener: rping reports the rejection and fails
t "rping to a port nobody listens on fails" status 1 on rping_none rping -c -a 10.37.0.2 -p 7305 -C 1 -v

# kill -9 mid-connection: of the client, then of the server; and of a lone listener
kill_mid() {
	_rc=0
	bgk rping_ks rping -s -a 10.37.0.2 -p $1 -V
	_s=$BG
	until20 up $_s || stop_bg $_s rping_ks || return 1
	bgk rping_kc rping -c -a 10.37.0.2 -p $1 -C 1000000 -S 256 -V -v
	_c=$BG
	# connected, and the client's verified pings under way (its -v lines reach the file)
	if ! { until20 has_ucma_state ESTABLISHED && until20 test -s /tmp/rping_kc.out; }; then
		stop_bg $_c rping_kc
		stop_bg $_s rping_ks
		return 1
	fi
	if [ "$2" = client ]; then _k=$_c _o=$_s; else _k=$_s _o=$_c; fi
	kill -9 $_k
	wait $_k
	# the other side sees its peer go and ends (else it too is killed, and the case fails)
	until20 eval "! kill -0 $_o 2>/dev/null" || { stop_bg $_o rping_other; _rc=1; }
	wait $_o
	until20 no_ucma_ids || { oib res show cm_id | sed 's/^/# /'; return 1; }
	return $_rc
}
t "kill -9 of an rping client mid-connection: no cm_id left" kill_mid 7306 client
t "kill -9 of an rping server mid-connection: no cm_id left" kill_mid 7307 server
lone_listener() {
	bgk rping_l rping -s -a 10.37.0.2 -p 7308
	_s=$BG
	until20 up $_s || stop_bg $_s rping_l || return 1
	kill -9 $_s
	wait $_s
	until20 no_ucma_ids
}
t "kill -9 of a listener: no cm_id left" lone_listener

# ucmatose: 4 connections, 20 messages each way of 256 B
ucma_pair() {
	bg ucm_s ucmatose -b $1 -c 4 -C 20 -S 256
	_s=$BG
	until20 up $_s || stop_bg $_s ucm_s || return 1
	on ucm_c ucmatose -s $1 -c 4 -C 20 -S 256 || stop_bg $_s ucm_s || return 1
	done_bg $_s ucm_s
}
t "ucmatose: 4 connections, 20 messages of 256 B, IPv4" ucma_pair 10.37.0.2
t "ucmatose: the same over IPv6" ucma_pair fd37::2
t "no cm_id left after ucmatose" until20 no_ucma_ids

# rdma_server and rdma_client: rdma_create_ep(), rdma_get_request(), the rdma_verbs.h helpers
rdma_pair() {
	bg rdma_s rdma_server -s $1 -p $2
	_s=$BG
	until20 up $_s || stop_bg $_s rdma_s || return 1
	on rdma_c rdma_client -s $1 -p $2 || stop_bg $_s rdma_s || return 1
	done_bg $_s rdma_s
}
t "rdma_server and rdma_client, IPv4" rdma_pair 10.37.0.2 7471
t "rdma_server and rdma_client, IPv6" rdma_pair fd37::2 7472
t "no cm_id left after rdma_server" until20 no_ucma_ids

oib link delete $A
oib link delete $B
done_testing
