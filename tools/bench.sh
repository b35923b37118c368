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
# in-tree rxe and siw and from uvbench (tools/testing/user) on liboibv and oib_rxe; then storage: sequential 1 MiB reads and writes and random 4 KiB reads (32 in flight) through oib_srp
# on a memory LUN, against a local RAM disk.
# The benchmark modules print raw counts (operations, bytes, nanoseconds); the arithmetic (medians
# over the rounds) is done here.
# Environment: PROFILE=1 (the first round of each module under `perf record -a`, its hottest kernel
# symbols, hottest addresses, and samples by CPU and thread and by CPU and symbol printed after the
# figures and in build/bench.profile; the figures of that round include the sampling's cost),
# PROFILE=<phase> (the same, with only that phase run: an RC phase of oib_bench_core.h by oib_bench
# (on oib_rxe, nothing else) and oib_bench_intree, or a MAD phase of oib_bench_mad.c: a profile of
# one figure; the modules' other figures are n/a), ONLY=<phase> (that phase alone, measured as
# PROFILE=<phase> does but not sampled, and no other benchmark: the quick way to see what a change
# does to one figure), TIMEOUT=<s> (guest, default 900), V=1 (whole console on stdout), ROUNDS=<n>
# (rounds of every benchmark, alternating; default 3), BENCH_ARGS='bench.PARAM=V ...' (module
# parameters for every benchmark module, or oib_bench.PARAM=V / oib_bench_intree.PARAM=V).
# Logs: build/bench.log (console), build/bench-build.log and build/bench-modules.log (compilers),
# build/bench.results (the modules' raw result lines).
# Exit status non-zero when the harness failed (build, guest, kernel log findings, no memcpy, rxe or
# siw figures); oib figures reported as n/a (a phase that failed or timed out) are printed, not
# failures.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PROFILE=${PROFILE:-0}
[[ $PROFILE =~ ^[a-zA-Z0-9_]+$ ]] || { echo "bench: PROFILE=$PROFILE: 0, 1 or a phase's name" >&2; exit 2; }
ONLY=${ONLY:-}
[[ $ONLY =~ ^[a-zA-Z0-9_]*$ ]] || { echo "bench: ONLY=$ONLY: a phase's name" >&2; exit 2; }
[ "$PROFILE" = 0 ] || [ "$PROFILE" = 1 ] || ONLY=$PROFILE
kernel bench iproute2 rdmacm-utils ibverbs-providers perftest $([ "$PROFILE" = 0 ] || echo linux-perf)
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
for b in ip rping ib_send_lat ib_send_bw; do extra+=(--bin "$(command -v $b)"); done
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
# shellcheck disable=SC2086 # BENCH_ARGS: words for the kernel command line
guest bench "$out/bench-build" "$modroot" "$bzimage" "${TIMEOUT:-900}" "${extra[@]}" -- \
	oib.bench_rounds="${ROUNDS:-3}" $profile ${BENCH_ARGS:-}

# the figures, from the modules' lines (kernel timestamps stripped): the guest's dmesg between its
# markers, or, if it died before printing that, the same lines as the console showed them
echo
if grep -q '^oib-guest: bench results end' "$out/bench.log"; then
	sed -n '/^oib-guest: bench results begin/,/^oib-guest: bench results end/p' "$out/bench.log"
else
	echo "bench: the guest did not finish; figures from the console" >&2
	cat "$out/bench.log"
fi | sed -n 's/^\(\[[ 0-9.]*\] \)*oib-bench: //p' >"$out/bench.results"
grep -v '^\(result\|n/a\|clock\|mem\|idle\) ' "$out/bench.results" | awk '!seen[$0]++ { print "bench: " $0 }' || true
missing=0
one=$ONLY
figs=$(awk -v out="$out/bench.missing" -v one="$one" '
# one figure from raw counts: one-way latency in us, a rate in Mpps (Mops/s), MAD round trips per
# second, or bandwidth in MB/s
function val(t, o, b, n) {
	if (t ~ /_lat$/) return n / o / 2 / 1000
	if (t ~ /_iops$/) return o * 1e9 / n
	if (t ~ /^mad_rt_|^cma?_|^rping_/) return o * 1e9 / n
	if (t ~ /_rate$/ || t == "copy_64B") return o * 1000 / n
	return b * 1000 / n
}
# fig(KEY): the median over the rounds of KEY (stack SUBSEP test), -1 if none; sets lo and hi
function fig(key,   k, i, j, x, a) {
	k = cnt[key] + 0
	if (!k) return -1
	for (i = 1; i <= k; i++) a[i] = v[key, i]
	for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
	lo = a[1]; hi = a[k]
	return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
function unit(t) { return t ~ /_iops$/ ? "IOPS" : t ~ /_lat$/ ? "us" : t ~ /_rate$/ ? "Mpps" : t ~ /^mad_rt_/ ? "rt/s" : t ~ /^cma?_|^rping_/ ? "/s" : "MB/s" }
function fmt(t, f) { return sprintf(t ~ /_iops$/ ? "%.0f" : t ~ /_lat$/ ? "%.2f" : t ~ /_rate$/ ? "%.4f" : t ~ /^mad_rt_|^cma?_|^rping_/ ? "%.0f" : t ~ /^rmpp_/ ? "%.2f" : "%.1f", f) }
# the memcpy bandwidth a bandwidth figure is measured against: the same message size
function mref(t) { return t ~ /1MiB/ ? mbig : mbw }
function show(stack, t,   f, key, rng) {
	key = stack SUBSEP t
	f = fig(key)
	if (f < 0) {
		printf "bench: %s %s n/a (%s)\n", stack, t, (key in why) ? why[key] : "no result"
		return
	}
	rng = sprintf("median of %d, %s-%s", cnt[key], fmt(t, lo), fmt(t, hi))
	if (key in why) rng = rng sprintf(", %d n/a: %s", nwhy[key], why[key])
	if (t ~ /^blk_/)
		printf "bench: %s %s %s %s [%s]\n", stack, t, fmt(t, f), unit(t), rng
	else if (t ~ /_lat$|_bw$/ && mrate < 0)	# no memcpy reference (PROFILE=<phase>)
		printf "bench: %s %s %s %s [%s]\n", stack, t, fmt(t, f), unit(t), rng
	else if (t ~ /_lat$/)
		printf "bench: %s %s %s us (%.0f x memcpy 64 B time) [%s]\n", stack, t, fmt(t, f), f / mlat, rng
	else if (t ~ /^mad_rt_/)
		printf "bench: %s %s %s round trips/s (one every %.1f us) [%s]\n", stack, t, fmt(t, f), 1e6 / f, rng
	else if (t ~ /^cma?_|^rping_/)
		printf "bench: %s %s %s per second (one every %.1f us) [%s]\n", stack, t, fmt(t, f), 1e6 / f, rng
	else if (t ~ /_rate$/)
		printf "bench: %s %s %s Mpps (%.1f MB/s) [%s]\n", stack, t, fmt(t, f), f * len[t], rng
	else
		printf "bench: %s %s %s MB/s (%.4f of memcpy %s) [%s]\n", stack, t, fmt(t, f), f / mref(t),
			t ~ /1MiB/ ? "1 MiB" : "64 KiB", rng
}
function cell(stack, t,   f) {
	f = fig(stack SUBSEP t)
	return f < 0 ? "n/a" : fmt(t, f) " " unit(t)
}
# A / B as a speed-up (> 1: A faster), -1 without both
function rel(a, b, t,   o, x) {
	o = fig(a SUBSEP t); x = fig(b SUBSEP t)
	if (o <= 0 || x <= 0) return -1
	return t ~ /_lat$/ ? x / o : o / x
}
function ratio(stack, t) { return rel("oib", stack, t) }
function rfmt(r) { return r < 0 ? "n/a" : sprintf("%.2f", r) }
# oib / the better in-tree stack (the smaller speed-up), "n/a" without either
function rbest(t,   a, b) {
	a = ratio("rxe", t); b = ratio("siw", t)
	return a < 0 ? b : b < 0 ? a : (a < b ? a : b)
}
# cycles of all vCPUs per message and per byte: the median figure as wall time per operation
function cyc(stack, t,   f, ns) {
	f = fig(stack SUBSEP t)
	if (f <= 0 || !khz) return "n/a"
	ns = t ~ /_lat$/ ? f * 1000 : t ~ /_rate$/ ? 1000 / f : len[t] * 1000 / f
	ns = ns * khz / 1e6 * cpus
	f = fig(stack SUBSEP t "_idle")
	return sprintf("%.0f/%.2f", ns, ns / len[t]) (f < 0 ? "" : sprintf(" %.0f%%", f / 10))
}
# a fan-in run: its rate and memory per connection with their ranges; n/a as show() says it
function fanline(t,   f, m, mlo, mhi) {
	m = fig("oib" SUBSEP t "_mem"); mlo = lo; mhi = hi
	f = fig("oib" SUBSEP t "_rate")
	if (f < 0) return show("oib", t "_rate")
	printf "bench: oib %s_rate %s Mpps, %s bytes/connection [median of %d, %s-%s Mpps, %s-%s bytes]\n", t,
		fmt(t "_rate", f), m < 0 ? "n/a" : sprintf("%.0f", m), cnt["oib" SUBSEP t "_rate"],
		fmt(t "_rate", lo), fmt(t "_rate", hi), m < 0 ? "n/a" : sprintf("%.0f", mlo), m < 0 ? "n/a" : sprintf("%.0f", mhi)
}
# the XRC rate over the RC rate for N receivers, -1 without both
function frel(n,   a, b) {
	a = fig("oib" SUBSEP "fanin_xrc_" n "_rate"); b = fig("oib" SUBSEP "fanin_rc_" n "_rate")
	return a <= 0 || b <= 0 ? -1 : a / b
}
function mcell(t,   m) { m = fig("oib" SUBSEP t "_mem"); return m < 0 ? "n/a" : sprintf("%.0f", m) }
# the fan-in figures (oib_bench_xrc.c): one sender to N receivers, XRC against RC
function fanin(   n, i) {
	print ""
	for (n = 1; n <= 64; n *= 2) { fanline("fanin_xrc_" n); fanline("fanin_rc_" n) }
	printf "\n%-28s %-12s %-12s %-7s %-12s %s\n", "fan-in, 1 to N (median)", "XRC rate", "RC rate", "XRC/RC",
		"XRC B/conn", "RC B/conn"
	for (n = 1; n <= 64; n *= 2)
		printf "%-28s %-12s %-12s %-7s %-12s %s\n", "N = " n, cell("oib", "fanin_xrc_" n "_rate"),
			cell("oib", "fanin_rc_" n "_rate"), rfmt(frel(n)),
			mcell("fanin_xrc_" n), mcell("fanin_rc_" n)
	print "(two oib_rxe devices; 64 B SENDs round-robin over N receivers, 32 in flight in all, 32 receives posted on each;"
	print " XRC: one initiator QP, the kernel-owned receive QP of a domain and N XRC SRQs; RC: N QP pairs; XRC/RC: speed-up;"
	print " B/conn: kernel memory per connection, in use after making, connecting and filling the N connections less before,"
	print " over N: pages handed out, slab pages counting for their objects in use (/proc/slabinfo); both sides)"
}
$1 == "clock" {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "khz") khz = kv[2]; if (kv[1] == "cpus") cpus = kv[2] }
}
$1 == "idle" {
	split($4, kv, "=")
	key = $2 SUBSEP $3 "_idle"
	v[key, ++cnt[key]] = kv[2]
}
$1 == "result" {
	for (i = 4; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] }
	key = $2 SUBSEP $3
	v[key, ++cnt[key]] = val($3, r["ops"], r["bytes"], r["ns"] > 0 ? r["ns"] : 1)
	if (r["ops"] > 0) len[$3] = r["bytes"] / r["ops"]
}
# kernel memory of a fan-in run: bytes per connection, kept as the figure TEST_mem
$1 == "mem" {
	for (i = 4; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] }
	key = $2 SUBSEP $3 "_mem"
	v[key, ++cnt[key]] = r["conns"] > 0 ? r["bytes"] / r["conns"] : 0
}
$1 == "n/a" {
	x = $4; for (i = 5; i <= NF; i++) x = x " " $i
	if ($3 == "all") { all[$2] = x; nall[$2]++ } else { why[$2, $3] = x; nwhy[$2, $3]++ }
}
END {
	nt = split("rc_send_64B_rate rc_send_4KiB_rate rdma_write_64KiB_bw rdma_read_64KiB_bw rdma_write_1MiB_bw rc_send_64B_lat agg8_write_64KiB_bw", tests, " ")
	nmad = split("mad_rt_1 mad_rt_64 rmpp_64KiB_bw cm_connect_1 cm_connect_64 cm_teardown_64", mad, " ")
	split("MAD round trips/s (1 outstanding)|MAD round trips/s (64 outstanding)|RMPP 64 KiB response throughput|CM connections/s (1 in flight)|CM connections/s (64 in flight)|CM teardowns/s (64 in flight)", madname, "|")
	split("rxe siw", intree, " ")
	for (s in all) for (i = 1; i <= nt; i++) if (!((s, tests[i]) in why)) { why[s, tests[i]] = all[s]; nwhy[s, tests[i]] = nall[s] }
	mrate = fig("memcpy" SUBSEP "copy_64B")
	mbw = fig("memcpy" SUBSEP "copy_64KiB")
	mbig = fig("memcpy" SUBSEP "copy_1MiB")
	if (mrate <= 0 || mbw <= 0 || mbig <= 0) {
		print "bench: memcpy reference missing"
		print "memcpy" >out
		if (!one) exit
		mrate = -1	# a profile of one phase (PROFILE=<phase>): no memcpy run, its column "-"
	} else {
		mlat = 1 / mrate
		printf "bench: memcpy copy_64B %.2f Mops/s (%.4f us per copy)\n", mrate, mlat
		printf "bench: memcpy copy_64KiB %.0f MB/s\n", mbw
		printf "bench: memcpy copy_1MiB %.0f MB/s\n", mbig
	}
	for (j = 1; j <= 2; j++)
		for (i = 1; i <= nt; i++) {
			show(intree[j], tests[i])
			if (fig(intree[j] SUBSEP tests[i]) < 0) print intree[j] " " tests[i] >out
		}
	for (i = 1; i <= nt; i++) show("oib", tests[i])
	printf "\n%-20s %-11s %-12s %-12s %-12s %-7s %-7s %s\n", "test (median)", "memcpy", "in-tree rxe",
		"in-tree siw", "oib", "oib/rxe", "oib/siw", "oib/best in-tree"
	for (i = 1; i <= nt; i++) {
		t = tests[i]
		m = t ~ /_lat$/ ? sprintf("%.4f us", mlat) : t ~ /_rate$/ ? sprintf("%.2f Mops/s", mrate) : sprintf("%.0f MB/s", mref(t))
		if (t == "rc_send_4KiB_rate" || mrate < 0) m = "-"
		printf "%-20s %-11s %-12s %-12s %-12s %-7s %-7s %s\n", t, m, cell("rxe", t), cell("siw", t),
			cell("oib", t), rfmt(ratio("rxe", t)), rfmt(ratio("siw", t)), rfmt(rbest(t))
	}
	print "(ratios: speed-ups, > 1: oib faster; latency one way, half the ping-pong round trip; target >= 2;"
	print " in-tree rxe and siw: both QPs of a pair on one device, loopback; agg8: 8 QP pairs at once)"
	if (khz) {
		printf "\n%-20s %-22s %-22s %s\n", "cycles/msg / byte", "in-tree rxe", "in-tree siw", "oib"
		for (i = 1; i <= nt; i++)
			printf "%-20s %-22s %-22s %s\n", tests[i], cyc("rxe", tests[i]), cyc("siw", tests[i]), cyc("oib", tests[i])
		printf "(cycles of all %d vCPUs at the guest TSC %.0f MHz per message / per payload byte: wall time x vCPUs;\n", cpus, khz / 1000
		print " %: the vCPUs idle over the phase)"
	}
	fanin()
	ncma = split("cma_connect_1 cma_connect_64", cma, " ")
	split("rdma_cm connections/s (1 in flight)|rdma_cm connections/s (64 in flight)", cmaname, "|")
	print ""
	for (i = 1; i <= nt; i++) show("oib_siw", tests[i])
	for (i = 1; i <= ncma; i++) show("oib_siw", cma[i])
	printf "\n%-38s %-12s %-12s %s\n", "iWARP (median)", "in-tree siw", "oib_siw", "oib_siw/siw"
	for (i = 1; i <= nt; i++)
		printf "%-38s %-12s %-12s %s\n", tests[i], cell("siw", tests[i]), cell("oib_siw", tests[i]),
			rfmt(rel("oib_siw", "siw", tests[i]))
	for (i = 1; i <= ncma; i++)
		printf "%-38s %-12s %-12s %s\n", cmaname[i], cell("siw", cma[i]), cell("oib_siw", cma[i]),
			rfmt(rel("oib_siw", "siw", cma[i]))
	print "(the same phases as above; in-tree siw: both QPs of a pair on one device, rdma_cm to its own address;"
	print " oib_siw: two oib_siw devices on two dummy netdevs, oib_cma between their addresses; both over TCP through lo;"
	print " target >= 2)"
	print ""
	for (i = 1; i <= nmad; i++) show("oib", mad[i])
	printf "\n%-36s %s\n", "oib_mad and oib_cm, two oib_rxe ports (median)", "oib"
	for (i = 1; i <= nmad; i++) printf "%-36s %s\n", madname[i], cell("oib", mad[i])
	print "(a round trip: Get posted to GetResp delivered, send handler done; RMPP: 64 KiB of data per response, one at a time;"
	print " a connection: REQ sent to both sides ESTABLISHED, QPs in RTS; a teardown: DREQ sent to DREP received)"
	nkr = split("krping_write_lat krping_write_bw krping_read_bw", kr, " ")
	split("krping RDMA WRITE ping-pong, one way|krping RDMA WRITE stream, 64 KiB|krping RDMA READ stream, 64 KiB", krname, "|")
	print ""
	for (j = 1; j <= 2; j++) for (i = 1; i <= ncma; i++) show(intree[j], cma[i])
	for (i = 1; i <= ncma; i++) show("oib", cma[i])
	for (i = 1; i <= nkr; i++) show("oib", kr[i])
	printf "\n%-38s %-12s %-12s %-12s %-7s %s\n", "rdma_cm and krping (median)", "in-tree rxe", "in-tree siw",
		"oib", "oib/rxe", "oib/siw"
	for (i = 1; i <= ncma; i++)
		printf "%-38s %-12s %-12s %-12s %-7s %s\n", cmaname[i], cell("rxe", cma[i]), cell("siw", cma[i]),
			cell("oib", cma[i]), rfmt(ratio("rxe", cma[i])), rfmt(ratio("siw", cma[i]))
	for (i = 1; i <= nkr; i++)
		printf "%-38s %-12s %-12s %-12s %-7s %s\n", krname[i], "-", "-", cell("oib", kr[i]), "-", "-"
	print "(a connection: the client id created, address and route resolved, QPs created on both sides, REQ to both"
	print " sides ESTABLISHED; in-tree: loopback on one device; oib: oib_cma between two oib_rxe devices; target oib/rxe >= 3;"
	print " krping: oib_krping over oib_cma between two oib_rxe devices, fast-registered buffers, every transfer verified)"
	nu = split("rping_64B krping_write_lat krping_write_bw krping_read_bw", ut, " ")
	split("rping exchange 64 B, iterations/s|krping RDMA WRITE ping-pong, one way|krping RDMA WRITE stream, 64 KiB|krping RDMA READ stream, 64 KiB", utname, "|")
	print ""
	for (i = 1; i <= 2; i++) show(intree[i], "rping_64B")
	show("oib", "rping_64B")
	for (i = 1; i <= nu; i++) show("oib_udp", ut[i])
	show("mixed", "rping_64B")
	printf "\n%-38s %-11s %-11s %-11s %-11s %-14s %s\n", "RoCEv2 over UDP (median)", "in-tree rxe", "in-tree siw",
		"oib fabric", "oib UDP", "in-tree<->oib", "UDP/fabric"
	for (i = 1; i <= nu; i++) {
		fo = fig("oib" SUBSEP ut[i]); fu = fig("oib_udp" SUBSEP ut[i])
		ur = fo <= 0 || fu <= 0 ? "n/a" : sprintf("%.2f", ut[i] ~ /_lat$/ ? fo / fu : fu / fo)
		printf "%-38s %-11s %-11s %-11s %-11s %-14s %s\n", utname[i], i == 1 ? cell("rxe", ut[i]) : "-",
			i == 1 ? cell("siw", ut[i]) : "-", cell("oib", ut[i]), cell("oib_udp", ut[i]),
			i == 1 ? cell("mixed", ut[i]) : "-", ur
	}
	print "(rping exchange: per iteration four SENDs, an RDMA READ and an RDMA WRITE of 64 B buffers, data verified;"
	print " in-tree: rdma-core rping server and client on one device, loopback; oib: oib_krping both sides;"
	print " oib UDP: two oib_rxe devices on a veth pair between namespaces, MTU 9000; in-tree<->oib: rping serving on the"
	print " in-tree rxe, oib_krping connecting from an oib_rxe device at the far end of a veth pair; UDP/fabric: speed-up)"
	nuv = split("user_send_64B_lat user_send_64B_rate", uv, " ")
	split("64 B SEND ping-pong, one way|64 B SEND message rate", uvname, "|")
	print ""
	for (j = 1; j <= 2; j++)
		for (i = 1; i <= nuv; i++) {
			show(intree[j], uv[i])
			if (fig(intree[j] SUBSEP uv[i]) < 0) print intree[j] " " uv[i] >out
		}
	for (i = 1; i <= nuv; i++) show("oib", uv[i])
	printf "\n%-32s %-12s %-12s %-12s %-7s %-7s %s\n", "userspace verbs (median)", "in-tree rxe",
		"in-tree siw", "oib", "oib/rxe", "oib/siw", "oib/best in-tree"
	for (i = 1; i <= nuv; i++)
		printf "%-32s %-12s %-12s %-12s %-7s %-7s %s\n", uvname[i], cell("rxe", uv[i]), cell("siw", uv[i]),
			cell("oib", uv[i]), rfmt(ratio("rxe", uv[i])), rfmt(ratio("siw", uv[i])), rfmt(rbest(uv[i]))
	print "(in-tree: perftest from rdma-core, ib_send_lat and ib_send_bw through rdma_cm, server and client on one"
	print " device, loopback; oib: uvbench on liboibv between two oib_rxe devices; both busy-poll; target >= 2)"
	nb = split("blk_read_1MiB_bw blk_write_1MiB_bw blk_randread_4KiB_iops", bt, " ")
	split("sequential read, 1 MiB|sequential write, 1 MiB|random read, 4 KiB", btname, "|")
	print ""
	for (i = 1; i <= nb; i++) { show("local", bt[i]); show("srp", bt[i]) }
	printf "\n%-38s %-16s %-16s %s\n", "storage, 32 in flight (median)", "local RAM disk", "oib_srp", "srp/local"
	for (i = 1; i <= nb; i++) {
		fl = fig("local" SUBSEP bt[i]); fs = fig("srp" SUBSEP bt[i])
		printf "%-38s %-16s %-16s %s\n", btname[i], cell("local", bt[i]), cell("srp", bt[i]),
			fl <= 0 || fs <= 0 ? "n/a" : sprintf("%.3f", fs / fl)
	}
	print "(blkbench: 32 threads each with one O_DIRECT request in flight for 3 s; oib_srp: a 256 MiB memory LUN of"
	print " oib_srpt over two oib_rxe devices through oib_cma; local: a 256 MiB brd RAM disk in the same guest)"
}' "$out/bench.results")
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
findings "$out/bench.log" quiet
exit_status "$out/bench.log" bench
secs=$(($(date +%s) - t0))
nna=$(grep -c '^bench: [a-z]* [a-zA-Z0-9_]* n/a' <<<"$figs" || true)
if [ "$qrc" = 0 ] && [ "$status" = 0 ] && [ "$nfind" = 0 ] && [ "$missing" = 0 ]; then
	echo "bench: ok in $secs s ($nna figures n/a; log: $out/bench.log)"
else
	echo "bench: FAILED in $secs s (QEMU status $qrc, guest status ${status:-none}, $nfind log findings," \
		"$missing missing figures; log: $out/bench.log)"
	exit 1
fi
