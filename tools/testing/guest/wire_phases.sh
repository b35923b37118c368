#!/bin/sh
# The phases of make bench's two hosts (sourced by wire.sh, which defines role, SRV, me, go, await,
# listening, err, res and na): each runs on both hosts, its server half on the server, its client
# half (and the figure, as a "result wire_STACK TEST" line, or "n/a") on the client.  Every phase
# takes the next port (7500 + its number: both hosts count the same phases), so that no phase
# meets a listener or a connection of the one before.
_pn=0
next_port() { _pn=$((_pn + 1)); P=$((7500 + _pn)); }

# iperf_phase TEST [IPERF3 OPTION...]: iperf3 for 3 s from the client to the server, the rate the
# receiver saw (MBytes/s of 2^20 bytes, -f M) as stack wire's TEST
iperf_phase() {
	next_port
	_t=$1
	shift
	if [ $role = server ]; then
		timeout 120 iperf3 -s -1 --forceflush -B $SRV -p $P >/tmp/iperf.srv 2>&1 &
		_pp=$!
		until20 sh -c "netstat -ltn | grep -q ':$P '" || echo "# $_t: iperf3 does not listen"
		go wire.$_t.$P
		wait $_pp
		return 0
	fi
	await wire.$_t.$P || return 0
	if timeout 60 iperf3 -c $SRV -p $P -t 3 -f M "$@" >/tmp/iperf.out 2>&1 &&
		_r=$(awk '/receiver$/ { for (i = 1; i < NF; i++) if ($(i + 1) == "MBytes/sec")
			printf "ops=1 bytes=%.0f ns=1000000000\n", $i * 1048576 }' /tmp/iperf.out) &&
		[ -n "$_r" ]; then
		res wire $_t "$_r"
	else
		head -20 /tmp/iperf.out
		na wire $_t iperf3_failed
	fi
}

# pt STACK DEVICE TEST PROGRAM SIZE ITERS [OPTION...]: perftest's PROGRAM (with OPTIONs) through the in-tree rdma_cm between
# the two DEVICEs; from the client's report line for SIZE: a latency's sixth column, t_avg (one
# way, us), a rate's fifth, MsgRate (Mpps), a bandwidth's fourth, BW average (MiB/s: perftest
# divides by 2^20)
pt() {
	next_port
	_ph=wire_$1.$3.$P
	_a="-R -F -d $2 -s $5 -n $6 -p $P $7 $8"
	if [ $role = server ]; then
		timeout 30 $4 $_a >/tmp/pt.srv 2>&1 &
		_pp=$!
		until20 listening $2 $P || echo "# $_ph: no listener"
		go $_ph
		served $_pp $_ph /tmp/pt.srv
		return 0
	fi
	await $_ph || return 0
	if pt_client $4 "$_a" && _r=$(pt_parse $3 $5 $6) && [ -n "$_r" ]; then
		res wire_$1 $3 "$_r"
	else
		head -20 /tmp/pt.out
		na wire_$1 $3 ${4}_failed
	fi
	nc $SRV 7401 </dev/null >/dev/null 2>&1
}

# pt_client PROGRAM ARGS: the client, again while its connection is refused (up to 5 times): the
# rdma_cm shows the server's listener on the device a moment before a REQ finds it there
pt_client() {
	_try=0
	while ! timeout 30 $1 $2 $SRV >/tmp/pt.out 2>&1; do
		grep -q 'REJECTED\|refused' /tmp/pt.out && [ $_try -lt 5 ] || return 1
		_try=$((_try + 1))
	done
}

# served PID PHASE OUTPUT (server): waits until the server process PID ends, or the client says
# (port 7401) that its half ended; then gives PID 5 s to end and stops it (a client that failed
# leaves its server waiting)
served() {
	nc -l -p 7401 -e echo done >/dev/null 2>&1 &
	_np=$!
	while kill -0 $1 2>/dev/null && kill -0 $_np 2>/dev/null; do sleep 0.1; done
	_i=0
	while kill -0 $1 2>/dev/null && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill $1 $_np 2>/dev/null
	wait $_np
	wait $1 || { head -20 $3; echo "# $2: the server failed"; }
}
pt_parse() {
	awk -v t=$1 -v s=$2 -v n=$3 '$1 == s && NF >= 5 && $4 > 0 {
		if (t ~ /_lat$/) ns = NF >= 6 ? $6 * 2000 * n : 0
		else if (t ~ /_rate$/) ns = $5 > 0 ? n * 1000 / $5 : 0
		else ns = n * s * 1e9 / ($4 * 1048576)
		if (ns > 0) printf "ops=%d bytes=%d ns=%.0f\n", n, n * s, ns
	}' /tmp/pt.out
}

# rp STACK DEVICE TEST SIZE COUNT: rdma-core's rping exchange with -V (the client compares every
# iteration's data: a mismatch fails the run) on the in-tree DEVICEs; COUNT iterations over the
# client's wall time (/proc/uptime, 10 ms)
rp() {
	next_port
	_ph=wire_$1.$3.$P
	if [ $role = server ]; then
		timeout 120 rping -s -a $SRV -p $P -C $5 -S $4 -V >/tmp/rp.srv 2>&1 &
		_pp=$!
		until20 listening $2 $P || echo "# $_ph: no listener"
		go $_ph
		served $_pp $_ph /tmp/rp.srv
		return 0
	fi
	await $_ph || return 0
	rping_client wire_$1 $3 $4 $5
	nc $SRV 7401 </dev/null >/dev/null 2>&1
}
rping_client() {
	_t0=$(uptime_cs)
	if timeout 120 rping -c -a $SRV -p $P -C $4 -S $3 -V >/tmp/rp.out 2>&1; then
		res $1 $2 "ops=$4 bytes=$(($4 * $3)) ns=$((($(uptime_cs) - _t0) * 10000000))"
	else
		head -5 /tmp/rp.out
		! grep -q mismatch /tmp/rp.out || err "$1 $2: rping's data mismatch"
		na $1 $2 rping_failed
	fi
}
uptime_cs() { read -r _u _rest </proc/uptime; _u=${_u%.*}${_u#*.}; echo "${_u#0}"; }

# kp STACK TEST OPTIONS: oib_krping's server and client with OPTIONS (validate among them) on the
# oib devices; a side that ends with -EBADMSG (-74: its data check) fails the run
kp() {
	next_port
	_ph=$1.$2.$P
	if [ $role = server ]; then
		krping "server,addr=$SRV,port=$P,$3" || echo "# $_ph: no server"
		_s=$KID
		go $_ph
		kp_end $1 $2 $_s
		echo clear >$KRPING/ctl	# oib_krping keeps 16 tests at most
		return 0
	fi
	await $_ph && kp_client "$@"
}
kp_client() {
	_t0=$(uptime_cs)
	if krping "client,addr=$SRV,port=$P,$3" && kp_end $1 $2 $KID; then
		_t0=$((($(uptime_cs) - _t0) * 10000000))
		krping_get $KID iters; _it=$V
		krping_get $KID bytes; _by=$V
		krping_get $KID ns
		# the rping exchange timed as rping's: the client's wall time, its connection too
		case $2 in rping_*) V=$_t0 ;; esac
		res $1 $2 "ops=$_it bytes=$_by ns=$V"
	else
		na $1 $2 krping_failed
	fi
	echo clear >$KRPING/ctl
}
kp_end() {
	echo "wait=$3" >$KRPING/ctl 2>/dev/null && return 0
	krping_get $3 result
	[ "$V" != -74 ] || err "$1 $2: oib_krping's data check failed (-EBADMSG)"
	echo "# $1 $2: oib_krping's $role ended with $V"
	return 1
}

# intree_rxe on|off: rdma_rxe loaded (its UDP socket on port 4791 is made at its load, not with a
# device) or not (oib_rxe on eth0 binds the same port)
intree_rxe() {
	if [ $1 = on ]; then
		loaded rdma_rxe || insmod $OIB_KO/deps/rdma_rxe.ko || err "insmod rdma_rxe"
	else
		! loaded rdma_rxe || rmmod rdma_rxe || err "rmmod rdma_rxe"
	fi
}

# the addresses' GIDs as sysfs shows them, for wait_gid
gid_of() { echo 0000:0000:0000:0000:0000:ffff:0a5a:000${1##*.}; }

# intree_stack rxe|siw: the in-tree device on eth0 on both hosts, perftest's figures, rping's
# verified exchanges, the device gone again
intree_stack() {
	_d=${1}0
	[ $1 = siw ] || intree_rxe on
	rdma link add $_d type $1 netdev eth0 || err "rdma link add $_d"
	pt $1 $_d rdma_write_64KiB_bw ib_write_bw 65536 1000 -t 64
	pt $1 $_d rdma_write_1MiB_bw ib_write_bw 1048576 100 -t 8
	pt $1 $_d rdma_read_64KiB_bw ib_read_bw 65536 1000 -t 64
	pt $1 $_d rc_send_64B_rate ib_send_bw 64 2000
	pt $1 $_d rdma_write_64B_lat ib_write_lat 64 1000
	rp $1 $_d rping_64B 64 500
	rp $1 $_d rping_64KiB 65535 50
	rdma link delete $_d || err "rdma link delete $_d"
}

# oib_stack rxe|siw: an oib_rxe (oib_siw) device on eth0 on both hosts, oib_krping's figures, all
# verified, the device gone again
oib_stack() {
	_st=oib
	[ $1 = rxe ] || _st=oib_siw
	[ $1 = siw ] || intree_rxe off
	oib link add w$1 type $1 netdev eth0 && wait_gid w$1 $(gid_of $me) ||
		err "oib link add w$1 type $1"
	kp wire_$_st rdma_write_64KiB_bw "bw,validate,count=1000,size=65536"
	kp wire_$_st rdma_write_1MiB_bw "bw,validate,count=100,size=1048576,txdepth=8"
	kp wire_$_st rdma_read_64KiB_bw "rbw,validate,count=1000,size=65536"
	na wire_$_st rc_send_64B_rate oib_krping_has_no_send_stream
	kp wire_$_st rdma_write_64B_lat "wlat,validate,count=1000,size=64"
	kp wire_$_st rping_64B "validate,count=500,size=64"
	kp wire_$_st rping_64KiB "validate,count=50,size=65535"
	oib link delete w$1 && wait_gone /sys/class/oib/w$1 || err "oib link delete w$1"
}

# mixed_stack rxe|siw: rping serving (-V) on the server's in-tree device, oib_krping's client
# (validate) on the client's oib device: the rping exchange, verified on both ends
mixed_stack() {
	_st=wire_mixed
	[ $1 = rxe ] || _st=wire_mixed_siw
	if [ $role = server ]; then
		next_port
		_ph=$_st.rping_64B.$P
		[ $1 = siw ] || intree_rxe on
		rdma link add ${1}0 type $1 netdev eth0 || err "rdma link add ${1}0"
		timeout 120 rping -s -a $SRV -p $P -C 500 -S 64 -V >/tmp/rp.srv 2>&1 &
		_pp=$!
		until20 listening ${1}0 $P || echo "# $_ph: no listener"
		go $_ph
		served $_pp $_ph /tmp/rp.srv
		! grep -q mismatch /tmp/rp.srv || err "$_ph: rping's data mismatch"
		rdma link delete ${1}0 || err "rdma link delete ${1}0"
		return 0
	fi
	[ $1 = siw ] || intree_rxe off
	oib link add w$1 type $1 netdev eth0 && wait_gid w$1 $(gid_of $me) ||
		err "oib link add w$1 type $1"
	next_port
	await $_st.rping_64B.$P && kp_client $_st rping_64B "validate,count=500,size=64"
	nc $SRV 7401 </dev/null >/dev/null 2>&1
	oib link delete w$1 && wait_gone /sys/class/oib/w$1 || err "oib link delete w$1"
}
