#!/bin/sh
# make bench's socket figures (sourced by bench.sh): SDP (oib_sdp) between two oib_rxe devices on
# oib's fabric against TCP over the guest's loopback, the same program (sdpbench, tools/testing/
# user) for both: stream throughput with 64 B, 4 KiB and 64 KiB writes (every byte checked by the
# reader) and a 64 B ping-pong (each echo checked, TCP_NODELAY).  Each figure is a line
# "oib-bench: result STACK TEST ops=N bytes=N ns=N" (or "oib-bench: n/a STACK TEST WHY") in the
# kernel log, STACK sdp or tcp_lo, TEST sock_stream_{64B,4KiB,64KiB}_bw or sock_pingpong_64B_lat.
# SDP between network namespaces is not measured: oib_cma binds in the initial one only.

# sock_fig STACK ADDR TEST MODE SIZE COUNT
sock_fig() {
	_k=sdp
	[ "$1" = sdp ] || _k=tcp
	if _r=$(timeout 120 sdpbench $_k "$2" "$4" "$5" "$6"); then
		echo "oib-bench: result $1 $3 $_r" >/dev/kmsg
	else
		echo "oib-bench: n/a $1 $3 sdpbench_failed" >/dev/kmsg
	fi
}

sdp_bench() {
	if ! loaded oib_sdp; then
		echo "oib-bench: n/a sdp all oib_sdp_not_loaded" >/dev/kmsg
		return 0
	fi
	rxe_add 1 && _sa=$DEV && rxe_add 1 && _sb=$DEV || { err "sdp: devices"; return 1; }
	oib addr add $_sa/1 10.74.0.1 && oib addr add $_sb/1 10.74.0.2 || err "sdp: addresses"
	for _x in "sock_stream_64B_bw stream 64 20000" "sock_stream_4KiB_bw stream 4096 5000" \
		  "sock_stream_64KiB_bw stream 65536 400" "sock_pingpong_64B_lat lat 64 2000"; do
		set -- $_x
		sock_fig sdp 10.74.0.2 "$@"
		sock_fig tcp_lo 127.0.0.1 "$@"
	done
	rxe_remove "$_sa" || err "sdp: remove $_sa"
	rxe_remove "$_sb" || err "sdp: remove $_sb"
}
