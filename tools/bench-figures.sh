#!/usr/bin/env bash
# The figures of make bench from the benchmark's raw lines (build/bench.results, which tools/bench.sh
# writes: "result STACK TEST ops=N bytes=N ns=N", "n/a STACK TEST WHY", "clock khz=N cpus=N",
# "idle STACK TEST permille=N", "mem oib TEST conns=N bytes=N"; other lines are ignored): each figure
# as the median over the rounds with its range, one "bench: STACK TEST ..." line each, then the
# tables, each after an empty line: RC (memcpy, the in-tree rxe and siw, oib; oib's speed-ups), the
# cycles per message and per byte, the XRC fan-in, iWARP, MAD and IB CM, RDMA CM and krping, RoCEv2
# over UDP, userspace verbs, storage, sockets (SDP against TCP).  tools/bench.sh prints them; tools/bench-doc.sh puts the tables
# in Documentation/benchmarks.md.
# Usage: tools/bench-figures.sh RESULTS [MISSING [PHASE]]
#   MISSING: a file that gets one "STACK TEST" line for each reference figure missing (memcpy, the
#   in-tree rxe's and siw's), or "memcpy" alone; PHASE: the one phase a run measured (ONLY=): no
#   memcpy reference then is no failure.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 3 ]; then echo "usage: $0 RESULTS [MISSING [PHASE]]" >&2; exit 2; fi
[ -r "$1" ] || { echo "bench-figures: $1: no such file" >&2; exit 2; }
exec awk -v out="${2:-/dev/null}" -v one="${3:-}" '
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
# busy cycles of all vCPUs per storage command: wall time per command x vCPUs x the share not idle
function bcyc(stack, t,   f, ns, idle) {
	f = fig(stack SUBSEP t)
	idle = fig(stack SUBSEP t "_idle")
	if (f <= 0 || idle < 0 || !khz) return "n/a"
	ns = t ~ /_iops$/ ? 1e9 / f : 1048576000 / f
	return sprintf("%.0f", ns * khz / 1e6 * cpus * (1000 - idle) / 1000)
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
# the two hosts (tools/testing/guest/wire.sh): every stack between two guests over a virtio-net wire,
# the own TCP and UDP rates of the wire beside; oib is oib_rxe over UDP
function wire(   nw, wt, wn, i, j, s, ns, st, t, r, u, m) {
	nw = split("rdma_write_64KiB_bw rdma_write_1MiB_bw rdma_read_64KiB_bw rc_send_64B_rate rdma_write_64B_lat rping_64B rping_64KiB", wt, " ")
	split("RDMA WRITE 64 KiB|RDMA WRITE 1 MiB|RDMA READ 64 KiB|SEND 64 B rate|WRITE ping-pong 64 B, one way|rping exchange 64 B, verified|rping exchange 64 KiB, verified", wn, "|")
	ns = split("wire_rxe wire_siw wire_oib wire_oib_siw", st, " ")
	print ""
	m = mrate; mrate = -1	# no memcpy beside a figure of the wire: show() prints it plain
	show("wire", "tcp_bw"); show("wire", "udp_bw")
	for (j = 1; j <= ns; j++) for (i = 1; i <= nw; i++) show(st[j], wt[i])
	show("wire_mixed", "rping_64B"); show("wire_mixed_siw", "rping_64B")
	mrate = m
	printf "\n%-31s %-11s %-11s %-11s %-11s %-9s %-12s %s\n", "two hosts (median)", "in-tree rxe", "in-tree siw",
		"oib_rxe", "oib_siw", "oib/best", "oib_siw/siw", "of the wire"
	printf "%-31s %-11s %-11s %-11s %-11s %-9s %-12s %s\n", "the wire: UDP (rxe), TCP (siw)", cell("wire", "udp_bw"),
		cell("wire", "tcp_bw"), "-", "-", "-", "-", "-"
	for (i = 1; i <= nw; i++) {
		t = wt[i]
		r = rel("wire_oib", "wire_rxe", t); s = rel("wire_oib", "wire_siw", t)
		r = r < 0 ? s : s < 0 ? r : (r < s ? r : s)
		u = "-"
		if (t ~ /_bw$/)
			u = wfrac("wire_oib", "udp_bw", t) ", " wfrac("wire_oib_siw", "tcp_bw", t)
		printf "%-31s %-11s %-11s %-11s %-11s %-9s %-12s %s\n", wn[i], cell("wire_rxe", t), cell("wire_siw", t),
			cell("wire_oib", t), cell("wire_oib_siw", t), rfmt(r), rfmt(rel("wire_oib_siw", "wire_siw", t)), u
	}
	printf "%-31s %-11s %-11s %-11s %-11s %-9s %-12s %s\n", "in-tree serves, oib connects", cell("wire_mixed", "rping_64B"),
		cell("wire_mixed_siw", "rping_64B"), "-", "-", "-", "-", "-"
	print "(two guests, one vCPU each, virtio-net NICs joined by a QEMU datagram network, MTU 9000, the same work on"
	print " both; the wire: iperf3, 3 s, the rate received; in-tree: perftest through the in-tree rdma_cm (ib_write_bw,"
	print " ib_read_bw, ib_send_bw, ib_write_lat; busy-polling; no data check), rping -V (every iteration compared);"
	print " oib_rxe (RoCEv2 over UDP, ICRC computed and checked) and oib_siw: oib_krping over oib_cma on completion"
	print " callbacks, validate in every phase (bw: the server buffer checked at the end); 64 in flight, 8 for 1 MiB;"
	print " oib_krping has no SEND stream (n/a) and reads with one READ outstanding at the responder, as rping;"
	print " rping exchanges: the client wall time, connection included; the last row: rping serving on the in-tree rxe"
	print " (siw), oib_krping connecting from oib_rxe (oib_siw); ratios: speed-ups, target >= 2; of the wire: oib_rxe"
	print " over the UDP rate received, oib_siw over the TCP rate)"
	if (!khz) return
	printf "\n%-31s %-16s %-16s %-16s %s\n", "two hosts, cycles/msg / byte", "in-tree rxe", "in-tree siw", "oib_rxe", "oib_siw"
	for (i = 1; i <= nw; i++)
		printf "%-31s %-16s %-16s %-16s %s\n", wn[i], cyc("wire_rxe", wt[i]), cyc("wire_siw", wt[i]),
			cyc("wire_oib", wt[i]), cyc("wire_oib_siw", wt[i])
	printf "(cycles of the vCPUs of both hosts, %d in all, at the TSC %.0f MHz per message / per payload byte: wall time x vCPUs)\n", cpus, khz / 1000
}
# TEST of STACK as a fraction of W of the wire (a bandwidth), "n/a" without both
function wfrac(stack, w, t,   a, b) {
	a = fig(stack SUBSEP t); b = fig("wire" SUBSEP w)
	return a <= 0 || b <= 0 ? "n/a" : sprintf("%.2f", a / b)
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
	if (one == "wire") { wire(); exit }
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
	print " in-tree rxe and siw: both QPs of a pair on one device, loopback; agg8: 8 QP pairs at once;"
	print " one host: oib is two oib_rxe devices on oib in-kernel fabric, with its shortcuts: no ICRC and no UDP"
	print " checksum, zero-copy page fragments, trains of 16 packets per skb; like for like over a wire: two hosts)"
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
	ns = split("local intree_srp nvmeof srp srp_udp", bs, " ")
	print ""
	for (i = 1; i <= nb; i++) for (j = 1; j <= ns; j++) show(bs[j], bt[i])
	printf "\n%-26s %-13s %-13s %-13s %-13s %-13s %-9s %s\n", "storage, 32 in flight", "RAM disk",
		"in-tree SRP", "NVMe-oF", "oib_srp", "oib_srp UDP", "oib/best", "UDP/best"
	for (i = 1; i <= nb; i++) {
		fb = fig("intree_srp" SUBSEP bt[i]); fn = fig("nvmeof" SUBSEP bt[i])
		if (fn > fb) fb = fn
		fs = fig("srp" SUBSEP bt[i]); fu = fig("srp_udp" SUBSEP bt[i])
		printf "%-26s %-13s %-13s %-13s %-13s %-13s %-9s %s\n", btname[i], cell("local", bt[i]),
			cell("intree_srp", bt[i]), cell("nvmeof", bt[i]), cell("srp", bt[i]), cell("srp_udp", bt[i]),
			fb <= 0 || fs <= 0 ? "n/a" : sprintf("%.2f", fs / fb), fb <= 0 || fu <= 0 ? "n/a" : sprintf("%.2f", fu / fb)
	}
	print "(medians; blkbench: 32 threads each with one O_DIRECT request in flight for 3 s, every sector read checked"
	print " against the stamp written there; in-tree SRP: ib_srp and LIO ib_srpt with a 256 MiB rd_mcp memory LUN; NVMe-oF:"
	print " nvme-rdma and nvmet-rdma; both over the in-tree rxe0, loopback on its own address, ICRC computed; nvmet also"
	print " passes each command through the block layer to its namespace, a brd RAM disk, which the SRP targets memory"
	print " LUNs skip; oib_srp: a 256 MiB memory LUN of oib_srpt between two oib_rxe devices on oib fabric, no ICRC (its"
	print " shortcuts: the RC table); oib_srp UDP: the same between two oib_rxe devices on a veth pair, RoCEv2 frames"
	print " through UDP with the ICRC computed and checked: the like-for-like figure; oib/best and UDP/best: speed-ups"
	print " against the better in-tree stack, target >= 2; RAM disk: brd used locally, the physical reference)"
	if (khz) {
		printf "\n%-26s %-13s %-13s %-13s %-13s %s\n", "storage cycles/command", "RAM disk",
			"in-tree SRP", "NVMe-oF", "oib_srp", "oib_srp UDP"
		for (i = 1; i <= nb; i++)
			printf "%-26s %-13s %-13s %-13s %-13s %s\n", btname[i], bcyc("local", bt[i]),
				bcyc("intree_srp", bt[i]), bcyc("nvmeof", bt[i]), bcyc("srp", bt[i]), bcyc("srp_udp", bt[i])
		printf "(busy cycles of all %d vCPUs per command at the guest TSC, initiator and target together (one\n", cpus
		print " guest): wall time per command x vCPUs x the share of the time not idle; PROFILE=1 make bench adds"
		print " a perf profile of every load in its first round)"
	}
	nk = split("sock_stream_64B_bw sock_stream_4KiB_bw sock_stream_64KiB_bw sock_pingpong_64B_lat", kt, " ")
	split("stream, 64 B writes|stream, 4 KiB writes|stream, 64 KiB writes|ping-pong 64 B, one way", ktname, "|")
	print ""
	for (i = 1; i <= nk; i++) { show("sdp", kt[i]); show("tcp_lo", kt[i]) }
	printf "\n%-26s %-13s %-13s %s\n", "sockets (median)", "SDP", "TCP loopback", "SDP/TCP"
	for (i = 1; i <= nk; i++)
		printf "%-26s %-13s %-13s %s\n", ktname[i], cell("sdp", kt[i]), cell("tcp_lo", kt[i]),
			rfmt(rel("sdp", "tcp_lo", kt[i]))
	print "(sdpbench, one program for both: a writer and a reader that checks every byte, or a ping-pong with each echo"
	print " checked and TCP_NODELAY; SDP: oib_sdp between two oib_rxe devices on oib fabric, buffered copy; TCP: the"
	print " loopback in the same guest; SDP/TCP: speed-up, targets >= 1.5 for streams and >= 2 for the ping-pong)"
	wire()
}' "$1"
