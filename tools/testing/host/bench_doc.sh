#!/usr/bin/env bash
# Host-side test of make bench-doc (tools/bench-doc.sh, on tools/bench-figures.sh): feeds it
# bench.results.sample beside this script (a results file in the format tools/bench.sh writes, its
# figures made up: host lines, clock, idle, result, mem and n/a lines of three rounds, SDP's and
# TCP's socket figures among them) and checks
# the doc it writes: the section between the markers replaced and nothing else touched, the run's
# line, every family's table under its heading with a figure worked out by hand (the two hosts' too), the n/a figure
# listed, the same output when run again; and that it refuses, leaving the doc as it was, a file
# without host lines, a run of one phase, a profiled run, a run without memcpy and a doc without
# its markers.  Needs no kernel or QEMU.  Prints TAP; exit status 0 when every check passed.
# Usage: tools/testing/host/bench_doc.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gen=$here/../../bench-doc.sh
sample=$here/bench.results.sample
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
t() {
	local what=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n $what"; else echo "not ok $n $what"; failed=$((failed + 1)); fi
}
has() { grep -qF -- "$2" "$1"; }
hasx() { grep -qxF -- "$2" "$1"; }

begin='<!-- bench-doc begin: written by make bench-doc (tools/bench-doc.sh) from build/bench.results -->'
end='<!-- bench-doc end -->'
printf '# Benchmarks\n\nintro\n\n%s\nold tables\n%s\n\nafter the tables\n' "$begin" "$end" >"$tmp/doc.md"
cp "$tmp/doc.md" "$tmp/orig.md"

quiet() { "$@" >/dev/null; }
t "writes the doc from the sample" quiet "$gen" "$sample" "$tmp/doc.md"
t "the text before the section is kept" hasx "$tmp/doc.md" "intro"
t "the text after the section is kept" hasx "$tmp/doc.md" "after the tables"
t "the old tables are gone" sh -c "! grep -qx 'old tables' '$tmp/doc.md'"
t "both markers are kept, once each" sh -c "[ \$(grep -cxF -- '$begin' '$tmp/doc.md') = 1 ] &&
	[ \$(grep -cxF -- '$end' '$tmp/doc.md') = 1 ]"
t "the run's date, commit, host and load, within 100 columns" sh -c "awk '/^The run of/,/^\$/' '$tmp/doc.md' |
	tr '\n' ' ' | grep -qF 'The run of 2026-01-01 00:00 UTC: commit \`sample\`, 3 rounds, on a host with 2 cores (Sample CPU @ 2.60GHz), load average 0.50 0.40 0.30 as the guest booted; QEMU with TCG, 2 vCPUs.' &&
	! awk '/^The run of/,/^\$/' '$tmp/doc.md' | grep -q '.\{101\}'"
for h in "RC: oib_rxe against the in-tree rxe and siw" "RC: cycles per message and per byte" \
	"XRC fan-in" "iWARP: oib_siw against the in-tree siw" "MAD layer and IB CM" \
	"RDMA CM and krping" "RoCEv2 over UDP" "Userspace verbs" "Storage: oib_srp against the in-tree SRP and NVMe-oF" \
	"Sockets: SDP against TCP" \
	"Two hosts: every stack over a virtio-net wire" "Two hosts: cycles per message and per byte"; do
	t "heading: $h" hasx "$tmp/doc.md" "### $h"
done
# every table in a fence of its own: as many opening as closing fences
t "the fences pair up" sh -c "[ \$(grep -cx '\`\`\`text' '$tmp/doc.md') = \$(grep -cx '\`\`\`' '$tmp/doc.md') ]"
# by hand: memcpy copy_64B, 1000000 copies in 24660912 ns each round: 40.55 Mops/s; the sample's
# storage rounds are exact: 10793 IOPS of random 4 KiB reads through oib_srp, 7195 through NVMe-oF
# (the better of the in-tree stacks: 5397 through the in-tree SRP), so oib/best 10793 / 7195 = 1.50
t "the memcpy reference worked out" has "$tmp/doc.md" "rc_send_64B_rate     40.55 Mops/s"
t "a storage figure worked out" has "$tmp/doc.md" "random read, 4 KiB         272820 IOPS   5397 IOPS     7195 IOPS     10793 IOPS    n/a           1.50      n/a"
# sockets: 2000 round trips of 64 B in 100 ms over SDP, 200 ms over TCP: 25 and 50 us one way
t "a socket figure worked out" has "$tmp/doc.md" "ping-pong 64 B, one way    25.00 us      50.00 us      2.00"
# fan-in at N = 64: XRC 85200 bytes for 64 connections, RC 11408 each
t "a fan-in memory figure worked out" has "$tmp/doc.md" "1331         11408"
# two hosts, 64 KiB WRITEs, 1000 in each round: rxe in 2.62144 s (25 MB/s), siw 0.65536 s (100),
# oib_rxe 1.31072 s (50), oib_siw 0.8192 s (80); the wire: UDP 100 MB/s, TCP 200; oib/best in-tree
# 50 / 100 = 0.50, oib_siw/siw 0.80, of the wire 50 / 100 and 80 / 200
t "a two-host figure worked out" has "$tmp/doc.md" "RDMA WRITE 64 KiB               25.0 MB/s   100.0 MB/s  50.0 MB/s   80.0 MB/s   0.50      0.80         0.50, 0.40"
t "the n/a figure, with its reason" has "$tmp/doc.md" "1 n/a: krping_failed]"
t "no per-figure lines in the doc" sh -c "! grep -q '^bench: ' '$tmp/doc.md'"
cp "$tmp/doc.md" "$tmp/once.md"
"$gen" "$sample" "$tmp/doc.md" >/dev/null
t "a second run writes the same doc" cmp -s "$tmp/doc.md" "$tmp/once.md"

# refusals: exit status 1, the doc as it was
refuses() {
	cp "$tmp/once.md" "$tmp/r.md"
	"$gen" "$1" "${2:-$tmp/r.md}" >/dev/null 2>&1
	[ $? = 1 ] && cmp -s "$tmp/r.md" "$tmp/once.md"
}
grep -v '^host ' "$sample" >"$tmp/nohost"
t "refuses results without host lines" refuses "$tmp/nohost"
sed 's/^host only $/host only rc_send_64B_rate/' "$sample" >"$tmp/only"
t "refuses a run of one phase" refuses "$tmp/only"
sed 's/^host profile 0$/host profile 1/' "$sample" >"$tmp/profile"
t "refuses a profiled run" refuses "$tmp/profile"
grep -v ' copy_' "$sample" >"$tmp/nomemcpy"
t "refuses a run without memcpy" refuses "$tmp/nomemcpy"
grep -vxF -- "$end" "$tmp/once.md" >"$tmp/nomarker.md"
cp "$tmp/nomarker.md" "$tmp/nomarker.orig"
"$gen" "$sample" "$tmp/nomarker.md" >/dev/null 2>&1
rc=$?
t "refuses a doc without its end marker, untouched" sh -c "[ $rc = 1 ] && cmp -s '$tmp/nomarker.md' '$tmp/nomarker.orig'"
t "refuses a missing results file" refuses "$tmp/none"

echo "1..$n"
echo "# bench_doc: $((n - failed)) passed, $failed failed"
[ $failed = 0 ]
