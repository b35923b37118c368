#!/usr/bin/env bash
# make check: installs missing packages, builds (once) the test kernel, builds the modules against it
# with W=1, boots it under QEMU to run every KUnit suite and integration script (check mode of the
# guest's /init), scans the console for kernel splats and leaks, then builds the modules against
# Debian's stock 6.1 headers and loads/unloads them in the stock kernel (smoke mode).
# Environment: SUITE=<glob> (kunit.filter_glob; also selects integration scripts), TIMEOUT=<s> (test
# kernel guest, default 1800), SMOKE=0 (skip the stock kernel), V=1 (whole console on stdout).
# Logs: build/check.log, build/smoke.log (consoles), build/test.log, build/stock.log (compilers).
# The last line is "N passed, N failed[, N skipped]"; the exit status is non-zero if anything failed.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=$top/build
mkdir -p "$out"
passed=0 failed=0 skipped=0 done=0
t0=$(date +%s)

# The summary line, also when something fails half-way.
finish() {
	[ $done = 1 ] && return
	done=1
	echo
	echo "check: $(($(date +%s) - t0)) s in all"
	local line="$passed passed, $failed failed"
	[ $skipped -eq 0 ] || line+=", $skipped skipped"
	echo "$line"
	[ $failed -eq 0 ]
}
trap 'rc=$?; [ $done = 1 ] || { echo "check: aborted (exit status $rc)"; failed=$((failed + 1)); finish; }' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
section() { printf '\n== %s\n' "$*"; }
fail() { echo "check: FAIL: $*"; failed=$((failed + 1)); }
fatal() { fail "$*"; finish || exit 1; }

# count TOOL LOG: runs tools/ktap.sh or tools/findings.sh and adds its last line to the totals.
count() {
	local res log=$2
	res=$("tools/$1.sh" "$log")
	echo "$res"
	res=$(tail -1 <<<"$res")
	case $1 in
	ktap)
		set -- $res
		passed=$((passed + $1)) failed=$((failed + $3)) skipped=$((skipped + $5))
		[ $(($1 + $3 + $5)) -gt 0 ] || fail "no test results in $log${SUITE:+ (does SUITE=$SUITE match anything?)}"
		;;
	findings)
		failed=$((failed + ${res%% *}))
		;;
	esac
}

# build KDIR DEST: W=1 build in a copy; warnings count as failures, a failed build stops here.
build() {
	local rc=0
	tools/build.sh "$1" "$2" || rc=$?
	case $rc in
	0) ;;
	2) failed=$((failed + $(grep -ci 'warning:' "$2.log"))) ;;
	*) fatal "build against $1" ;;
	esac
}

# boot NAME KERNEL TIMEOUT ARGS...: boots build/NAME.cpio.gz, then counts results and findings.
boot() {
	local name=$1 kernel=$2 timeout=$3 rc=0 t
	t=$(date +%s)
	shift 3
	tools/qemu.sh "$kernel" "$out/$name.cpio.gz" "$out/$name.log" "$timeout" "$@" || rc=$?
	[ $rc = 0 ] || fail "QEMU exit status $rc$([ $rc = 124 ] && echo ' (timeout)')"
	grep -q "oib-guest: END" "$out/$name.log" || fail "the guest did not finish (no end marker in $out/$name.log)"
	section "$name: results"
	count ktap "$out/$name.log"
	section "$name: log findings"
	count findings "$out/$name.log"
	echo "check: $name took $(($(date +%s) - t)) s"
}

# captures NAME: pulls the fabric captures a run printed out of its console log (build/pcap/) and
# has tshark decode each: every frame must decode as RoCEv2 (InfiniBand over UDP 4791), none
# malformed.  Each capture counts as one test.
captures() {
	local log=$out/$1.log dir=$out/pcap f frames roce bad
	grep -q 'OIB-PCAP-BEGIN' "$log" || return 0
	section "$1: captures"
	rm -rf "$dir"
	tools/pcap-from-log.sh "$log" "$dir" || fail "captures in $log do not extract"
	for f in "$dir"/*.pcap; do
		[ -e "$f" ] || continue
		frames=$(tshark -r "$f" -T fields -e frame.number 2>/dev/null | wc -l)
		roce=$(tshark -r "$f" -Y infiniband.bth -T fields -e frame.number 2>/dev/null | wc -l)
		bad=$(tshark -r "$f" -Y '_ws.malformed || _ws.expert.severity == error' \
			-T fields -e frame.number 2>/dev/null | wc -l)
		echo "capture: $f: $frames frames, $roce decoded as RoCEv2 by tshark, $bad malformed"
		if [ "$frames" -gt 0 ] && [ "$roce" = "$frames" ] && [ "$bad" = 0 ]; then
			passed=$((passed + 1))
		else
			fail "$f does not decode as RoCEv2"
		fi
	done
}

section "dependencies and test kernel"
tools/deps.sh
kdir=$(tools/kernel.sh)
kver=$(cat "$kdir/include/config/kernel.release")
echo "kernel: $kdir ($kver)"

section "test kernel: build"
build "$kdir" "$out/test"
tools/initramfs.sh "$out/check.cpio.gz" "$out/test" "$kdir/mods/lib/modules/$kver" check
args=(oib.mode=check kunit.enable=1)
[ -z "${SUITE:-}" ] || args+=("kunit.filter_glob=$SUITE")
section "test kernel: boot (KUnit, integration)"
boot check "$kdir/arch/x86/boot/bzImage" "${TIMEOUT:-1800}" "${args[@]}"
captures check

if [ "${SMOKE:-1}" != 0 ]; then
	section "stock kernel: build"
	skver=
	for v in $(ls /boot/vmlinuz-6.1* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -V); do
		[ -d "/lib/modules/$v/build" ] && skver=$v
	done
	[ -n "$skver" ] || fatal "no Debian 6.1 kernel with headers (linux-image-amd64, linux-headers-amd64)"
	echo "stock kernel: $skver"
	build "/lib/modules/$skver/build" "$out/stock"
	tools/initramfs.sh "$out/smoke.cpio.gz" "$out/stock" "/lib/modules/$skver" smoke
	section "stock kernel: boot (smoke)"
	boot smoke "/boot/vmlinuz-$skver" 600 oib.mode=smoke
fi
finish
