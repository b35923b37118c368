#!/usr/bin/env bash
# Extracts the oib_rxe fabric captures printed on a guest console log into pcap files.
#
# The guest cannot share files with the host, so captures travel on the serial console.  Protocol,
# one block per fabric, each line on its own:
#
#   OIB-PCAP-BEGIN <name> [<bytes>]
#   <the pcap file in base64, any line length>
#   OIB-PCAP-END [<name>]
#
# <name> is the fabric's name ([A-Za-z0-9_.-]); <bytes>, if given, is the pcap file's size, checked
# after decoding.  Lines inside a block that are not base64 (kernel messages, "[   12.345678] "
# timestamps, CRs) are ignored, so the guest should quieten the console while it prints; the
# "    # " before each line an integration script prints is taken off.  Guest
# scripts print captures with oib_pcap_dump (tools/testing/guest/lib.sh); KUnit suites print the
# same format from the kernel (see rc_capture in kunit/rxe/rc_test.c), and make check decodes what
# it finds with tshark.
#
# Capture is started beforehand with "echo start [max_bytes] >.../fabrics/<name>/capture".
#
# Usage: tools/pcap-from-log.sh LOG [OUTDIR]
#   Writes OUTDIR/<name>.pcap (default OUTDIR: the current directory) for every block, <name>-2.pcap
#   and so on when a name comes again, and prints one line per file.  Exit status 1 if a block was
#   incomplete, undecodable or of the wrong size (the others are still written), 2 on bad usage.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -r "$1" ]; then
	echo "usage: $0 LOG [OUTDIR]" >&2
	exit 2
fi
log=$1
out=${2:-.}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Split the blocks into $tmp/NNNN (base64) and $tmp/NNNN.meta ("name bytes complete").
awk -v dir="$tmp" '
function finish(complete) {
	close(file)
	printf "%s %s %d\n", name, size, complete > (file ".meta")
	close(file ".meta")
	inblock = 0
}
{
	sub(/\r+$/, "")
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "")
	sub(/^    # /, "")	# what an integration script printed
}
/^OIB-PCAP-BEGIN / {
	if (inblock)
		finish(0)
	n++
	name = $2
	size = NF >= 3 ? $3 : "-"
	file = sprintf("%s/%04d", dir, n)
	printf "" > file
	inblock = 1
	next
}
/^OIB-PCAP-END( |$)/ {
	if (inblock)
		finish(1)
	next
}
inblock && /^[A-Za-z0-9+\/=]+$/ {
	print > file
}
END {
	if (inblock)
		finish(0)
}
' "$log"

bad=0
declare -A seen=()
for meta in "$tmp"/*.meta; do
	[ -e "$meta" ] || { echo "pcap-from-log: no OIB-PCAP-BEGIN block in $log" >&2; exit 0; }
	read -r name size complete <"$meta"
	if ! [[ $name =~ ^[A-Za-z0-9_.-]+$ ]] || [ "$name" = . ] || [ "$name" = .. ]; then
		echo "pcap-from-log: skipping a block with a bad fabric name '$name'" >&2
		bad=1
		continue
	fi
	if [ "$complete" != 1 ]; then
		echo "pcap-from-log: $name: block has no OIB-PCAP-END (log cut short?); skipped" >&2
		bad=1
		continue
	fi
	seen[$name]=$(( ${seen[$name]:-0} + 1 ))
	dest=$out/$name.pcap
	[ "${seen[$name]}" = 1 ] || dest=$out/$name-${seen[$name]}.pcap
	if ! base64 -d <"${meta%.meta}" >"$dest" 2>/dev/null; then
		echo "pcap-from-log: $name: base64 does not decode (console lines mixed in?): $dest" >&2
		bad=1
		continue
	fi
	bytes=$(wc -c <"$dest")
	magic=$(od -An -tx1 -N4 "$dest" | tr -d ' \n')
	if [ "$size" != - ] && [ "$size" != "$bytes" ]; then
		echo "pcap-from-log: $name: $bytes bytes decoded, $size expected: $dest" >&2
		bad=1
	elif [ "$magic" != d4c3b2a1 ] && [ "$magic" != a1b2c3d4 ]; then
		echo "pcap-from-log: $name: not a pcap file (magic $magic): $dest" >&2
		bad=1
	else
		echo "pcap-from-log: $dest ($bytes bytes)"
	fi
done
exit $bad
