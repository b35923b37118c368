#!/usr/bin/env bash
# make bench-doc: writes the tables of a make bench run into Documentation/benchmarks.md, so that the
# figures there are always what the code measured.  From build/bench.results (tools/bench.sh: the
# run's "host KEY VALUE" lines, then the benchmark modules' raw lines) it takes the tables
# tools/bench-figures.sh makes, each under a heading, after a line saying when, on what and on which
# commit the run was made, and puts them between the doc's two marker lines; the rest of the file
# is left as it is.  Refuses (exit status 1, the doc untouched) a results file without the host
# lines, a run of one phase (ONLY= or PROFILE=<phase>) or a profiled one (PROFILE=1), and one
# without the memcpy reference.
# Usage: tools/bench-doc.sh [RESULTS [DOC]] (default build/bench.results, Documentation/benchmarks.md)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
results=${1:-$top/build/bench.results}
doc=${2:-$top/Documentation/benchmarks.md}
begin='<!-- bench-doc begin: written by make bench-doc (tools/bench-doc.sh) from build/bench.results -->'
end='<!-- bench-doc end -->'
die() { echo "bench-doc: $*" >&2; exit 1; }

[ -r "$results" ] || die "$results: no such file (make bench writes it)"
[ -r "$doc" ] || die "$doc: no such file"
if [ "$(grep -cxF "$begin" "$doc")" != 1 ] || [ "$(grep -cxF "$end" "$doc")" != 1 ]; then
	die "$doc: wants each marker line once: '$begin' and '$end'"
fi

# host KEY: the value of the results' "host KEY VALUE" line
host() { awk -v k="$1" '$1 == "host" && $2 == k { sub(/^host [^ ]* ?/, ""); print; exit }' "$results"; }
# the guest's vCPUs, from the benchmark's clock line
vcpus() { awk '$1 == "clock" { for (i = 2; i <= NF; i++) if ($i ~ /^cpus=/) { print substr($i, 6); exit } }' "$results"; }
grep -q '^host date ' "$results" || die "$results: no host lines (made by an older tools/bench.sh): run make bench again"
[ -z "$(host only)" ] || die "$results: a run of $(host only) alone (ONLY= or PROFILE=<phase>), not the whole bench"
[ "$(host profile)" = 0 ] || die "$results: a profiled run (PROFILE=$(host profile)): its figures include the sampling"

figs=$("$top/tools/bench-figures.sh" "$results")
! grep -q '^bench: memcpy reference missing' <<<"$figs" || die "$results: no memcpy reference: the run did not finish"

# The section: the run, then each table (a block of lines after an empty one) under a heading of
# its own, then the figures missing in a round or more (their lines, with the reasons)
section() {
	local args accel cpus
	args=$(host args)
	accel=$(host accel)
	cpus=$(vcpus)
	echo "$begin"
	echo
	echo "The run of $(host date): commit \`$(host commit)\`, $(host rounds) rounds, on a host with" \
		"$(host cores) cores ($(host cpu)), load average $(host load) as the guest booted;" \
		"QEMU with ${accel^^}, ${cpus:-?} vCPUs${args:+; \`BENCH_ARGS=$args\`}." | fmt -w 100
	awk '
	function heading(h) {
		if (h ~ /^test \(median\)/) return "RC: oib_rxe against the in-tree rxe and siw"
		if (h ~ /^cycles\/msg/) return "RC: cycles per message and per byte"
		if (h ~ /^fan-in/) return "XRC fan-in"
		if (h ~ /^iWARP/) return "iWARP: oib_siw against the in-tree siw"
		if (h ~ /^oib_mad and oib_cm/) return "MAD layer and IB CM"
		if (h ~ /^rdma_cm and krping/) return "RDMA CM and krping"
		if (h ~ /^RoCEv2 over UDP/) return "RoCEv2 over UDP"
		if (h ~ /^userspace verbs/) return "Userspace verbs"
		if (h ~ /^storage/) return "Storage: oib_srp against the in-tree SRP and NVMe-oF"
		if (h ~ /^sockets/) return "Sockets: SDP against TCP"
		if (h ~ /^two hosts \(median\)/) return "Two hosts: every stack over a virtio-net wire"
		if (h ~ /^two hosts, cycles/) return "Two hosts: cycles per message and per byte"
		sub(/  .*/, "", h)
		return h
	}
	function close_block() { if (open) print "```"; open = 0 }
	/^bench: .* n\/a[ :]/ { sub(/^bench: /, ""); na[++nna] = $0; next }
	/^bench: / { next }
	/^$/ { close_block(); next }
	{
		if (!open) { printf "\n### %s\n\n```text\n", heading($0); open = 1 }
		print
	}
	END {
		close_block()
		if (!nna) exit
		printf "\nFigures with a round or more not measured (n/a), and why:\n\n```text\n"
		for (i = 1; i <= nna; i++) print na[i]
		print "```"
	}' <<<"$figs"
	echo
	echo "$end"
}

new=$(mktemp)
trap 'rm -f "$new"' EXIT
{
	awk -v b="$begin" '$0 == b { exit } { print }' "$doc"
	section
	awk -v e="$end" 'after { print } $0 == e { after = 1 }' "$doc"
} >"$new"
cat "$new" >"$doc"
echo "bench-doc: $doc: the tables of the run of $(host date) (commit $(host commit))"
