#!/bin/sh
# make bench's userspace verbs figures (sourced by bench.sh): 64 B SEND ping-pong latency and
# message rate, from rdma-core's perftest (ib_send_lat, ib_send_bw, connecting through rdma_cm:
# -R) on an in-tree device, server and client on the same device (loopback), and from uvbench
# (tools/testing/user, on liboibv) between two oib_rxe devices.  Each figure is a line
# "oib-bench: result STACK TEST ops=N bytes=N ns=N" (or "oib-bench: n/a STACK TEST WHY") in the
# kernel log, TEST user_send_64B_lat (ops: round trips) or user_send_64B_rate (ops: messages).
UV_LAT_ITERS=1000
UV_BW_ITERS=20000

uv_result() { echo "oib-bench: result $1 $2 $3" >/dev/kmsg; }
uv_na() { echo "oib-bench: n/a $1 $2 $3" >/dev/kmsg; }

# perftest_run STACK DEVICE ADDR PORT PROGRAM ITERS: PROGRAM's server and client on DEVICE
# (the client to ADDR:PORT); the client's output in /tmp/perftest.out.  The server listens on
# the wildcard address: the client waits for its listener on DEVICE (the rdma_cm shows the
# wildcard id LISTEN before it made the device's, and a REQ in between is rejected)
perftest_run() {
	timeout 120 $5 -R -F -d "$2" -s 64 -n "$6" -p "$4" >/dev/null 2>&1 &
	_pp=$!
	until20 sh -c "rdma resource show cm_id | grep -q 'link $2/.*state LISTEN.*:$4 '" &&
		timeout 120 $5 -R -F -d "$2" -s 64 -n "$6" -p "$4" "$3" >/tmp/perftest.out 2>&1 &&
		wait $_pp
}

# perftest_figs STACK DEVICE ADDR PORT: the two figures of the in-tree STACK on DEVICE; the
# report's line for 64 B: ib_send_lat's sixth column is t_avg (one way, in us), ib_send_bw's fifth
# the message rate (in Mpps)
perftest_figs() {
	if perftest_run "$@" ib_send_lat $UV_LAT_ITERS &&
		_r=$(awk -v n=$UV_LAT_ITERS '$1 == 64 && NF >= 6 && $6 > 0 {
			printf "ops=%d bytes=%d ns=%.0f\n", n, n * 64, $6 * 2000 * n }' /tmp/perftest.out) &&
		[ -n "$_r" ]; then
		uv_result "$1" user_send_64B_lat "$_r"
	else
		cat /tmp/perftest.out 2>/dev/null | head -20
		uv_na "$1" user_send_64B_lat ib_send_lat_failed
	fi
	if perftest_run "$1" "$2" "$3" $(($4 + 1)) ib_send_bw $UV_BW_ITERS &&
		_r=$(awk -v n=$UV_BW_ITERS '$1 == 64 && NF >= 5 && $5 > 0 {
			printf "ops=%d bytes=%d ns=%.0f\n", n, n * 64, n * 1000 / $5 }' /tmp/perftest.out) &&
		[ -n "$_r" ]; then
		uv_result "$1" user_send_64B_rate "$_r"
	else
		cat /tmp/perftest.out 2>/dev/null | head -20
		uv_na "$1" user_send_64B_rate ib_send_bw_failed
	fi
}

# uvbench_figs: the same two figures for oib, between two oib_rxe devices of their own
uvbench_figs() {
	if ! loaded oib_uverbs; then
		uv_na oib user_send_64B_lat oib_uverbs_not_loaded
		return 0
	fi
	rxe_add 1 && _ua=$DEV && rxe_add 1 && _ub=$DEV || { err "uvbench: devices"; return 1; }
	if _r=$(uvbench lat "$_ua,$_ub" 64 $UV_LAT_ITERS); then
		uv_result oib user_send_64B_lat "$_r"
	else
		uv_na oib user_send_64B_lat uvbench_failed
	fi
	if _r=$(uvbench bw "$_ua,$_ub" 64 $UV_BW_ITERS); then
		uv_result oib user_send_64B_rate "$_r"
	else
		uv_na oib user_send_64B_rate uvbench_failed
	fi
	rxe_remove "$_ua" || err "uvbench: remove $_ua"
	rxe_remove "$_ub" || err "uvbench: remove $_ub"
}
