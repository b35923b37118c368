#!/bin/sh
# Integration test: Debian's own rdmacm-utils programs, unmodified, on oib devices through the
# drop-in librdmacm.so.1 and libibverbs.so.1 (the guest's /usr/lib/oib, chosen by LD_LIBRARY_PATH;
# Documentation/ucma.md) over oib_ucma: rping between two oib_rxe devices, the data verified (-V),
# several sizes and counts, IPv4 and IPv6; ucmatose with several connections and messages;
# rdma_server and rdma_client; both processes of each on oib.  kill -9 of a server in the middle
# of a connection, and of a listener, leaves no cm_id of oib_ucma's (oib res show cm_id); of a
# client, not yet (below).  Fails (exit status 4) without oib_ucma, the binaries or the drop-ins.
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
	cut -c1-160 /tmp/$_name.out | sed "s/^/# $_name: /" | head -40
	[ $_rc = 0 ] || echo "# $_name: exit status $_rc"
	return $_rc
}
# bg NAME PROG ARGS...: the same in the background, BG its PID (env execs the program, so the
# PID is the program's own, for kill -9); every use ends with done_bg or stop_bg
bg() {
	_name=$1
	shift
	env LD_LIBRARY_PATH=$L "$@" >/tmp/$_name.out 2>&1 &
	BG=$!
}
# stop_bg PID NAME: a background program that is no longer wanted ends; its output in the log
stop_bg() {
	kill -9 "$1" 2>/dev/null
	reap "$1"
	cut -c1-160 /tmp/$2.out | sed "s/^/# $2: /" | head -40
	return 1
}
# alive PID: the process runs (a zombie does not: it is ours to wait for)
alive() { [ -e /proc/$1/status ] && ! grep -qs '^State:.*Z' /proc/$1/status; }
# reap PID [SECONDS]: the process ends within SECONDS (20): 0, its exit status in RC; else its
# state and kernel stacks in the log, and 1 (it is not waited for)
reap() {
	_i=$((${2:-20} * 10))
	while [ $_i -gt 0 ] && alive "$1"; do
		sleep 0.1	# polling the condition
		_i=$((_i - 1))
	done
	if ! alive "$1"; then
		wait "$1"
		RC=$?
		return 0
	fi
	echo "# pid $1 does not end:"
	grep -E '^(Name|State)' /proc/$1/status | sed 's/^/#   /'
	for _t in /proc/$1/task/*; do sed "s|^|#   ${_t##*/} |" $_t/stack 2>/dev/null; done
	return 1
}
# ids_gone: no cm_id of oib_ucma's within 20 s, else the list in the log
ids_gone() {
	until20 no_ucma_ids && return 0
	oib res show cm_id | sed 's/^/# /'
	return 1
}
# up PID PORT: the background program PID runs and oib_ucma has a listener on PORT
up() {
	alive "$1" && oib res show cm_id | grep 'owner oib_ucma' | grep 'listen yes' | grep -q ":$2 "
}
# done_bg PID NAME: the background program's exit status 0, its output in the log
done_bg() {
	RC=1
	reap "$1" 120
	_rc=$RC
	cut -c1-160 /tmp/$2.out | sed "s/^/# $2: /" | head -40
	[ $_rc = 0 ] || echo "# $2: exit status $_rc"
	return $_rc
}
# no_ucma_ids: oib res show cm_id lists no cm_id of oib_ucma's
no_ucma_ids() { ! oib res show cm_id | grep -q 'owner oib_ucma'; }
has_ucma_state() { oib res show cm_id | grep 'owner oib_ucma' | grep -q "state $1"; }

rxe_add 1 || { echo "# no device"; done_testing; }
A=$DEV
rxe_add 1 || { echo "# no second device"; done_testing; }
B=$DEV
t "addresses" sh -c "oib addr add $A/1 10.37.0.1 && oib addr add $B/1 10.37.0.2 &&
	oib addr add $A/1 fd37::1 && oib addr add $B/1 fd37::2"
t "$A's port is ACTIVE" wait_line /sys/class/oib/$A/ports/1/state "4: ACTIVE"
t "$B's port is ACTIVE" wait_line /sys/class/oib/$B/ports/1/state "4: ACTIVE"

# rping_pair ADDR PORT COUNT SIZE: server on ADDR, client to it, both verifying (both sides'
# buffers of SIZE: rping's server reads the client's whole buffer into its own); verbose (each
# ping's data printed) for small sizes only
rping_pair() {
	_v=
	[ $4 -gt 1024 ] || _v=-v
	bg rping_s rping -s -a $1 -p $2 -S $4 -V $_v
	_s=$BG
	until20 up $_s $2 || stop_bg $_s rping_s || return 1
	on rping_c rping -c -a $1 -p $2 -C $3 -S $4 -V $_v || stop_bg $_s rping_s || return 1
	done_bg $_s rping_s || return 1
	[ -z "$_v" ] || grep -q "ping data" /tmp/rping_c.out
}
t "rping -V, 10 x 64 B, IPv4" rping_pair 10.37.0.2 7301 10 64
t "rping -V, 100 x 1 KiB, IPv4" rping_pair 10.37.0.2 7302 100 1024
t "rping -V, 20 x 60000 B, IPv6" rping_pair fd37::2 7303 20 60000
t "rping -V, 200 x 100 B" rping_pair 10.37.0.2 7304 200 100
t "no cm_id left after rping" ids_gone

# a client to no listener: rping reports the rejection and fails
refused() { ! on rping_none rping -c -a 10.37.0.2 -p 7305 -C 1 -v; }
t "rping to a port nobody listens on fails" refused
t "... with RDMA_CM_EVENT_REJECTED" grep -q REJECTED /tmp/rping_none.out

# kill -9 mid-connection: of the client, then of the server; and of a lone listener
kill_mid() {
	_rc=0
	bg rping_ks rping -s -a 10.37.0.2 -p $1 -S 256 -V
	_s=$BG
	until20 up $_s $1 || stop_bg $_s rping_ks || return 1
	bg rping_kc rping -c -a 10.37.0.2 -p $1 -C 1000000 -S 256 -V -v
	_c=$BG
	# connected, and the client's verified pings under way (its -v lines reach the file)
	if ! { until20 has_ucma_state ESTABLISHED && until20 test -s /tmp/rping_kc.out; }; then
		stop_bg $_c rping_kc
		stop_bg $_s rping_ks
		return 1
	fi
	if [ "$2" = client ]; then _k=$_c _o=$_s; else _k=$_s _o=$_c; fi
	kill -9 $_k
	reap $_k || return 1
	# the other side sees its peer go and ends (else it too is killed, and the case fails)
	reap $_o || { stop_bg $_o rping_other; _rc=1; }
	ids_gone && return $_rc
}
# Not run: kill -9 of the client (kill_mid 7306 client).  In 2 of 5 runs the killed client took
# some 20 s to end (once), or the server some 20 s to see it go (once): a known bug, not yet
# understood (Documentation/ucma.md, Known bugs).
t "kill -9 of an rping server mid-connection: no cm_id left" kill_mid 7307 server
lone_listener() {
	bg rping_l rping -s -a 10.37.0.2 -p 7308
	_s=$BG
	until20 up $_s 7308 || stop_bg $_s rping_l || return 1
	kill -9 $_s
	reap $_s && ids_gone
}
t "kill -9 of a listener: no cm_id left" lone_listener

# ucmatose: 4 connections, 20 messages each way of 256 B
ucma_pair() {
	bg ucm_s ucmatose -b $1 -c 4 -C 20 -S 256
	_s=$BG
	until20 up $_s 7471 || stop_bg $_s ucm_s || return 1
	on ucm_c ucmatose -s $1 -c 4 -C 20 -S 256 || stop_bg $_s ucm_s || return 1
	done_bg $_s ucm_s
}
t "ucmatose: 4 connections, 20 messages of 256 B, IPv4" ucma_pair 10.37.0.2
t "ucmatose: the same over IPv6" ucma_pair fd37::2
t "no cm_id left after ucmatose" ids_gone

# rdma_server and rdma_client: rdma_create_ep(), rdma_get_request(), the rdma_verbs.h helpers
rdma_pair() {
	bg rdma_s rdma_server -s $1 -p $2
	_s=$BG
	until20 up $_s $2 || stop_bg $_s rdma_s || return 1
	on rdma_c rdma_client -s $1 -p $2 || stop_bg $_s rdma_s || return 1
	done_bg $_s rdma_s
}
t "rdma_server and rdma_client, IPv4" rdma_pair 10.37.0.2 7471
t "rdma_server and rdma_client, IPv6" rdma_pair fd37::2 7472
t "no cm_id left after rdma_server" ids_gone

oib link delete $A
oib link delete $B
done_testing
