#!/usr/bin/env bash
# make bench: installs missing packages (tools/deps.sh, with iproute2 for the guest's `rdma` and, for
# PROFILE=1, linux-perf), builds (once) the non-debug bench kernel (tools/kernel.sh bench), builds
# the oib modules and the benchmark modules (tools/bench) against it, boots it under QEMU in the
# guest's bench mode (tools/testing/guest/bench.sh, with the in-tree rdma_rxe, siw, rdma_cm and dummy
# modules and `rdma` in the initramfs) and prints the figures: the guest's memcpy reference, the
# in-tree rxe and siw and oib, and a table of oib/rxe, oib/siw and oib/best in-tree, and one of the
# cycles per message and per byte (wall time x vCPUs at the guest's TSC rate); then the fan-in table
# (one sender to N = 1..64 receivers over XRC against RC: rates and kernel bytes per connection,
# oib only, tools/bench/oib_bench_xrc.c); then the iWARP table,
# the same RC phases and the rdma_cm connection rate on oib_siw against the in-tree siw; then oib_mad's MAD
# round trips per second (1 and 64 outstanding) and RMPP throughput (64 KiB responses), and oib_cm's
# connections per second (1 and 64 in flight) and teardowns per second, oib only; then connections
# per second through the RDMA CM (resolve, QPs, connect, both sides ESTABLISHED; 1 and 64 in flight)
# for the in-tree rdma_cm on rxe and siw and for oib_cma, and krping's latency and bandwidth over
# oib_cma; then RoCEv2 over UDP: rping's exchange on the in-tree rxe and siw, on oib's fabric, between
# oib devices on a veth pair (with krping's figures) and between the in-tree rxe and oib; then
# userspace verbs: 64 B SEND latency and message rate from perftest (ib_send_lat, ib_send_bw) on the
# in-tree rxe and siw and from uvbench (tools/testing/user) on liboibv and oib_rxe; then storage: sequential 1 MiB reads and writes and random 4 KiB reads (32 in flight, every sector read
# checked) through oib_srp on a memory LUN (oib's fabric, and UDP on a veth), the in-tree ib_srp with LIO's
# ib_srpt and NVMe over Fabrics (nvme-rdma, nvmet-rdma) over the in-tree rxe, and a local RAM disk.
# Then the two hosts (tools/bench-wire.sh): two guests of the bench kernel joined by a virtio-net wire,
# iperf3's TCP and UDP rates, and every stack between them (perftest and rping on the in-tree rxe and
# siw, oib_krping on oib_rxe and oib_siw, rping against oib_krping), data verified
# (tools/testing/guest/wire.sh).
# The benchmark modules print raw counts (operations, bytes, nanoseconds); the arithmetic (medians
# over the rounds) and the tables are tools/bench-figures.sh's, from build/bench.results.
# Environment: PROFILE=1 (the first round of each module under `perf record -a`, its hottest kernel
# symbols, hottest addresses, and samples by CPU and thread and by CPU and symbol printed after the
# figures and in build/bench.profile; the figures of that round include the sampling's cost),
# PROFILE=<phase> (the same, with only that phase run: an RC phase of oib_bench_core.h by oib_bench
# (on oib_rxe, nothing else) and oib_bench_intree, or a MAD phase of oib_bench_mad.c: a profile of
# one figure; the modules' other figures are n/a), ONLY=<phase> (that phase alone, measured as
# PROFILE=<phase> does but not sampled, and no other benchmark: the quick way to see what a change
# does to one figure; ONLY=storage: the storage figures alone; ONLY=wire: the two hosts alone), TIMEOUT=<s> (guest, default 900), V=1 (whole console on stdout), ROUNDS=<n>
# (rounds of every benchmark, alternating; default 3), BENCH_ARGS='bench.PARAM=V ...' (module
# parameters for every benchmark module, or oib_bench.PARAM=V / oib_bench_intree.PARAM=V).
# Logs: build/bench.log (console), build/wire-server.log and build/wire-client.log (the two hosts'
# consoles), build/bench-build.log and build/bench-modules.log (compilers),
# build/bench.results (the run's "host KEY VALUE" lines: date, commit, CPU, cores, load, accel,
# rounds, args, only, profile; then the modules' raw result lines; make bench-doc puts its tables in
# Documentation/benchmarks.md, tools/bench-doc.sh).
# Exit status non-zero when the harness failed (build, guest, kernel log findings, no memcpy, rxe or
# siw figures, a two-host guest that failed: a data check among them); oib figures reported as n/a
# (a phase that failed or timed out) are printed, not failures.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. tools/bench-wire.sh

PROFILE=${PROFILE:-0}
[[ $PROFILE =~ ^[a-zA-Z0-9_]+$ ]] || { echo "bench: PROFILE=$PROFILE: 0, 1 or a phase's name" >&2; exit 2; }
ONLY=${ONLY:-}
[[ $ONLY =~ ^[a-zA-Z0-9_]*$ ]] || { echo "bench: ONLY=$ONLY: a phase's name" >&2; exit 2; }
[ "$PROFILE" = 0 ] || [ "$PROFILE" = 1 ] || ONLY=$PROFILE
kernel bench iproute2 rdmacm-utils ibverbs-providers perftest iperf3 $([ "$PROFILE" = 0 ] || echo linux-perf)
echo "bench: kernel $kdir ($kver)"

# the oib modules (W=1 in a copy, build/bench-build), then the benchmark modules against their symbols
build "$kdir" "$out/bench-build" || exit 1
if ! make -C "$kdir" M="$out/bench-build/tools/bench" W=1 KBUILD_EXTRA_SYMBOLS="$out/bench-build/Module.symvers" \
	-j"$(nproc)" modules >"$out/bench-modules.log" 2>&1; then
	grep -E 'error|Error' "$out/bench-modules.log" | head -20 || true
	echo "bench: benchmark modules FAILED (log: $out/bench-modules.log)"
	exit 1
fi
! grep -i -A3 'warning:' "$out/bench-modules.log" "$out/bench-build.log" || echo "bench: (build warnings above)"

# the guest (mode bench) with the benchmark modules in /oib/bench, the in-tree modules rdma_rxe, siw,
# rdma_cm and dummy and what they need (loaded by /init), brd (loaded by the guest's bench.sh with
# its size), `rdma` (and `perf`) with their libraries
extra=(--kmods "rdma_rxe siw rdma_cm rdma_ucm dummy veth" --extra brd --bin "$(command -v rdma)")
# the in-tree storage stacks of the storage figures: SRP (ib_srp, LIO's ib_srpt) and NVMe-oF
extra+=(--extra-group storage "ib_srp ib_srpt nvme_rdma nvmet_rdma")
# perftest's and iperf3 for the two hosts (ONLY=wire; tools/testing/guest/wire.sh)
for b in ip rping ib_send_lat ib_send_bw ib_write_bw ib_write_lat ib_read_bw iperf3; do
	extra+=(--bin "$(command -v $b)")
done
extra+=(--add /etc/libibverbs.d/rxe.driver etc/libibverbs.d --add /etc/libibverbs.d/siw.driver etc/libibverbs.d)
for p in rxe siw; do
	extra+=(--add "$(ls /usr/lib/x86_64-linux-gnu/libibverbs/lib$p-rdmav*.so)" usr/lib/x86_64-linux-gnu/libibverbs)
done
extra+=(--add /lib/x86_64-linux-gnu/libgcc_s.so.1 lib/x86_64-linux-gnu)
for ko in "$out"/bench-build/tools/bench/*.ko; do extra+=(--add "$ko" oib/bench); done
profile=
if [ "$PROFILE" != 0 ]; then
	extra+=(--bin "$(command -v perf)")
	profile=oib.bench_profile=1
fi
[ -z "$ONLY" ] || profile="$profile bench.only=$ONLY"
# the run, as build/bench.results's first lines ("host KEY VALUE", for tools/bench-doc.sh): when it
# began, the code, the host and how loaded it was as the guest booted, and how it was asked for
run_info=(
	"date $(date -u '+%Y-%m-%d %H:%M UTC')"
	"commit $(git describe --always --dirty --abbrev=7 2>/dev/null || echo unknown)"
	"cpu $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	"cores $(nproc)"
	"load $(cut -d' ' -f1-3 /proc/loadavg)"
	"accel $([ "${OIB_KVM:-0}" = 1 ] && echo kvm || echo tcg)"
	"rounds ${ROUNDS:-3}"
	"args ${BENCH_ARGS:-}"
	"only $ONLY"
	"profile $PROFILE"
)
# the one host, unless ONLY=wire; then the two hosts (wire_guests, tools/bench-wire.sh), unless
# another phase was asked for alone
qrc=0 status=0 nfind=0 wrc=0
if [ "$ONLY" != wire ]; then
	# shellcheck disable=SC2086 # BENCH_ARGS: words for the kernel command line
	guest bench "$out/bench-build" "$modroot" "$bzimage" "${TIMEOUT:-900}" "${extra[@]}" -- \
		oib.bench_rounds="${ROUNDS:-3}" $profile ${BENCH_ARGS:-}
fi
if [ -z "$ONLY" ] || [ "$ONLY" = wire ]; then
	wire_guests "$out/bench-build" "$modroot" "$bzimage" "${TIMEOUT:-900}" "${ROUNDS:-3}" "${extra[@]}"
fi

# the figures, from the modules' lines (kernel timestamps stripped): the guest's dmesg between its
# markers, or, if it died before printing that, the same lines as the console showed them
echo
printf 'host %s\n' "${run_info[@]}" >"$out/bench.results"
# results LOG: the figures' lines of a guest's console
results() {
	if grep -q '^oib-guest: bench results end' "$1"; then
		sed -n '/^oib-guest: bench results begin/,/^oib-guest: bench results end/p' "$1"
	else
		echo "bench: the guest did not finish; figures from the console ($1)" >&2
		cat "$1"
	fi | sed -n 's/^\(\[[ 0-9.]*\] \)*oib-bench: //p'
}
[ "$ONLY" = wire ] || results "$out/bench.log" >>"$out/bench.results"
[ -n "$ONLY" ] && [ "$ONLY" != wire ] || results "$out/wire-client.log" >>"$out/bench.results"
grep -v '^\(host\|result\|n/a\|clock\|mem\|idle\) ' "$out/bench.results" | awk '!seen[$0]++ { print "bench: " $0 }' || true
missing=0
one=$ONLY
figs=$(tools/bench-figures.sh "$out/bench.results" "$out/bench.missing" "$one")
echo "$figs"
[ ! -s "$out/bench.missing" ] || missing=$(wc -l <"$out/bench.missing")
if [ -n "$one" ]; then
	echo "bench: $ONLY alone: the benchmark modules' other figures were not measured"
	missing=0
fi
if [ "$PROFILE" != 0 ]; then
	sed -n '/^oib-guest: profile .* begin/,/^oib-guest: profile .* end/p' "$out/bench.log" |
		sed 's/^oib-guest: //' >"$out/bench.profile"
	echo
	cat "$out/bench.profile"
fi
rm -f "$out/bench.missing"

echo
if [ "$ONLY" != wire ]; then
	findings "$out/bench.log" quiet
	exit_status "$out/bench.log" bench
fi
if [ -z "$ONLY" ] || [ "$ONLY" = wire ]; then
	nf=$nfind
	for f in "$out/wire-server.log" "$out/wire-client.log"; do
		findings "$f" quiet
		nf=$((nf + nfind))
	done
	nfind=$nf
	grep -h '^oib-guest: wire: FAILED: ' "$out/wire-server.log" "$out/wire-client.log" | sed 's/^oib-guest: /bench: /' || true
fi
secs=$(($(date +%s) - t0))
nna=$(grep -c '^bench: [a-z_]* [a-zA-Z0-9_]* n/a' <<<"$figs" || true)
if [ "$qrc" = 0 ] && [ "$status" = 0 ] && [ "$nfind" = 0 ] && [ "$missing" = 0 ] && [ "$wrc" = 0 ]; then
	echo "bench: ok in $secs s ($nna figures n/a; log: $out/bench.log)"
else
	echo "bench: FAILED in $secs s (QEMU status $qrc, guest status ${status:-none}, two hosts $wrc," \
		"$nfind log findings, $missing missing figures; logs: $out/bench.log, $out/wire-*.log)"
	exit 1
fi
