#!/usr/bin/env bash
# make check: installs missing packages, builds (once) the test kernel, builds the modules against it
# with W=1, boots it under QEMU to run every KUnit suite and integration script (check mode of the
# guest's /init), scans the console for kernel splats and leaks; meanwhile, in the background, builds
# the modules against Debian's stock 6.1 headers and loads/unloads them in the stock kernel (smoke
# mode), whose results are counted after the test kernel's.
# Environment: SUITE=<glob> (kunit.filter_glob; also selects integration scripts), TIMEOUT=<s> (test
# kernel guest, default 1800), SMOKE=0 (skip the stock kernel), V=1 (whole console on stdout).
# Logs: build/check-kunit.log, build/check-integration.log (the test guests' consoles), smoke.log,
# build/test.log, build/stock.log (compilers), build/smoke.out (what the stock kernel's build and boot
# printed).
# The last line is "N passed, N failed[, N skipped]"; the exit status is non-zero if anything failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
passed=0 failed=0 skipped=0 done=0 smoke_pid= pids=() fuzz_all=

# The summary line, also when something fails half-way.
finish() {
	[ $done = 1 ] && return
	done=1
	echo
	echo "check: $(($(date +%s) - t0)) s in all"
	[ -z "$fuzz_all" ] || echo "check: $fuzz_all fuzz inputs in all"
	local line="$passed passed, $failed failed"
	[ $skipped -eq 0 ] || line+=", $skipped skipped"
	echo "$line"
	[ $failed -eq 0 ]
}
# kill_tree PID: the process and its descendants
kill_tree() {
	local c
	for c in $(pgrep -P "$1" || true); do kill_tree "$c"; done
	kill "$1" 2>/dev/null || true
}
trap 'rc=$?; for p in $smoke_pid "${pids[@]}"; do kill_tree "$p"; done; [ $done = 1 ] || { echo "check: aborted (exit status $rc)"; failed=$((failed + 1)); finish; }' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
section() { printf '\n== %s\n' "$*"; }
fail() { echo "check: FAIL: $*"; failed=$((failed + 1)); }
fatal() { fail "$*"; finish || exit 1; }

# results NAME: counts the KTAP results and the findings of build/NAME.log; sets nresults to the
# number of results.
results() {
	local log=$out/$1.log res
	[ "$qrc" = 0 ] || fail "QEMU exit status $qrc$([ "$qrc" = 124 ] && echo ' (timeout)')"
	grep -q "oib-guest: END" "$log" || fail "the guest did not finish (no end marker in $log)"
	section "$1: results"
	res=$(tools/ktap.sh "$log")
	echo "$res"
	set -- $(tail -1 <<<"$res")
	passed=$((passed + $1)) failed=$((failed + $3)) skipped=$((skipped + $5))
	nresults=$(($1 + $3 + $5))
	section "$(basename "$log" .log): log findings"
	findings "$log"
	failed=$((failed + nfind))
}

# fuzz_inputs LOG...: the OIB-FUZZ-INPUTS lines the seeded fuzzers printed (a name and the inputs
# they made), summed by name and in all (into fuzz_all).
fuzz_inputs() {
	local sums
	sums=$(cat "$@" | { grep -aoE 'OIB-FUZZ-INPUTS [A-Za-z0-9_]+ [0-9]+' || true; } |
		awk '{ n[$2] += $3 } END { for (k in n) printf "%-24s %12d\n", k, n[k] }' | sort)
	[ -n "$sums" ] || return 0
	section "fuzz inputs"
	echo "$sums"
	fuzz_all=$(awk '{ t += $2 } END { print t }' <<<"$sums")
	printf '%-24s %12d\n' "in all" "$fuzz_all"
}

# fuzz_corpus LOG: the corpus oib_uverbs_fuzz ended with (its OIB-FUZZ-CORPUS lines: a program's
# seeds each) becomes the one the next run starts from; a run without them leaves it as it was.
fuzz_corpus() {
	local tmp
	tmp=$(mktemp)
	grep -aoE 'OIB-FUZZ-CORPUS [0-9a-f,]+' "$1" | cut -d' ' -f2 >"$tmp" || true
	if [ -s "$tmp" ]; then
		mkdir -p "$(dirname "$corpus")"
		mv "$tmp" "$corpus"
		echo "check: the fuzzer's corpus, $(wc -l <"$corpus") programs, kept in $corpus"
	else
		rm -f "$tmp"
	fi
}

# expected LOG NAME PCAP: the OIB-PCAP-EXPECT lines a test printed for its capture NAME
# ("OIB-PCAP-EXPECT <name> <tshark field> <value>"): each field must decode, in some frame of PCAP,
# to that value (numbers compared as numbers).  Prints how many held; returns 1 if one did not.
expected() {
	local log=$1 name=$2 f=$3 field want got found n=0 bad=0
	while read -r field want; do
		n=$((n + 1))
		found=0
		for got in $(tshark -r "$f" -Y "$field" -T fields -e "$field" 2>/dev/null | tr ',' ' '); do
			[[ $got =~ ^(0x[0-9a-fA-F]+|[0-9]+)$ ]] && [ $((got)) = $((want)) ] && found=1
		done
		[ $found = 1 ] || { echo "capture: $f: no frame with $field = $want"; bad=$((bad + 1)); }
	done < <(tr -d '\r' <"$log" | sed -n "s/^.*OIB-PCAP-EXPECT $name \([^ ]*\) \([^ ]*\)$/\1 \2/p")
	[ $n = 0 ] || echo "capture: $f: $((n - bad)) of $n fields decode as the test sent them"
	[ $bad = 0 ]
}

# counted LOG NAME PCAP: the OIB-PCAP-COUNT lines a test printed for its capture NAME
# ("OIB-PCAP-COUNT <name> <tshark field> <n>"): the field must decode exactly n times in PCAP, over
# all frames (a frame may hold several).  Prints how many held; returns 1 if one did not.
counted() {
	local log=$1 name=$2 f=$3 field want got n=0 bad=0
	while read -r field want; do
		n=$((n + 1))
		got=$(tshark -r "$f" -Y "$field" -T fields -e "$field" -E occurrence=a 2>/dev/null |
			tr ',' '\n' | grep -c . || true)
		[ "$got" = "$want" ] || { echo "capture: $f: $field decodes $got times, $want expected"; bad=$((bad + 1)); }
	done < <(tr -d '\r' <"$log" | sed -n "s/^.*OIB-PCAP-COUNT $name \([^ ]*\) \([0-9]*\)$/\1 \2/p")
	[ $n = 0 ] || echo "capture: $f: $((n - bad)) of $n counts as the test counted them"
	[ $bad = 0 ]
}

# captures NAME: pulls the captures a run printed out of its console log (build/pcap/NAME/) and has
# tshark decode each, none malformed, with every field value the test expects (see expected) and
# every count it gives (see counted).  An oib_rxe fabric's capture must decode as RoCEv2
# (InfiniBand over UDP 4791) frame by frame; one named iwarp* (tcpdump on the wire of oib_siw's
# TCP connections) must decode as iWARP: MPA, DDP and RDMAP.  Each capture counts as one test.
captures() {
	local log=$out/$1.log dir=$out/pcap/$1 f frames proto what decoded bad
	grep -q 'OIB-PCAP-BEGIN' "$log" || return 0
	section "$1: captures"
	rm -rf "$dir"
	tools/pcap-from-log.sh "$log" "$dir" || fail "captures in $log do not extract"
	for f in "$dir"/*.pcap; do
		[ -e "$f" ] || continue
		case $(basename "$f") in
		iwarp*) proto=iwarp_mpa what=iWARP ;;
		*) proto=infiniband.bth what=RoCEv2 ;;
		esac
		frames=$(tshark -r "$f" -T fields -e frame.number 2>/dev/null | wc -l)
		decoded=$(tshark -r "$f" -Y "$proto" -T fields -e frame.number 2>/dev/null | wc -l)
		# payloads are the tests' arbitrary bytes, which tshark's RPC-over-RDMA heuristic
		# sometimes takes for its own and then calls malformed
		bad=$(tshark -r "$f" --disable-heuristic rpcrdma_infiniband \
			-Y '_ws.malformed || _ws.expert.severity == error' \
			-T fields -e frame.number 2>/dev/null | wc -l)
		echo "capture: $f: $frames frames, $decoded decoded as $what by tshark, $bad malformed"
		if [ "$decoded" -gt 0 ] && { [ "$what" = iWARP ] || [ "$decoded" = "$frames" ]; } &&
		   [ "$bad" = 0 ] && expected "$log" "$(basename "$f" .pcap)" "$f" &&
		   counted "$log" "$(basename "$f" .pcap)" "$f"; then
			passed=$((passed + 1))
		else
			fail "$f does not decode as the test sent it"
		fi
	done
}

# smoke: the stock kernel's build and boot; prints "smoke: build failed|warnings N|qemu N" for the
# counting in the foreground.
smoke() {
	local skver= v
	for v in $(ls /boot/vmlinuz-6.1* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -V); do
		[ -d "/lib/modules/$v/build" ] && skver=$v
	done
	[ -n "$skver" ] || { echo "smoke: none"; return; }
	echo "stock kernel: $skver"
	build "/lib/modules/$skver/build" "$out/stock" || { echo "smoke: build failed"; return; }
	echo "smoke: warnings $nwarn"
	V=0 guest smoke "$out/stock" "/lib/modules/$skver" "/boot/vmlinuz-$skver" 600
	echo "smoke: qemu $qrc"
}

# host_tests: each tools/testing/host/*.sh (tests of the host's own tools, TAP, no kernel), its
# "ok" and "not ok" lines counted; one that exits non-zero with no "not ok" line fails once more.
host_tests() {
	local f res ok bad rc
	for f in tools/testing/host/*.sh; do
		[ -e "$f" ] || continue
		res=$("$f" 2>&1) && rc=0 || rc=$?
		ok=$(grep -c '^ok ' <<<"$res" || true)
		bad=$(grep -c '^not ok ' <<<"$res" || true)
		grep '^not ok ' <<<"$res" || true
		echo "host: $(basename "$f" .sh): $ok passed, $bad failed"
		passed=$((passed + ok)) failed=$((failed + bad))
		[ "$rc" = 0 ] || [ "$bad" -gt 0 ] || fail "$f: exit status $rc"
	done
}
if [ -z "${SUITE:-}" ]; then
	section "tests of the host's tools"
	host_tests
fi

section "dependencies and test kernel"
kernel test iproute2 rdmacm-utils ibverbs-providers ibverbs-utils tcpdump socat
echo "kernel: $kdir ($kver)"

section "test kernel: build"
build "$kdir" "$out/test" || fatal "build against $kdir"
failed=$((failed + nwarn))
# the interop test modules (tools/testing/interop), against the oib build's symbols and the test
# kernel's in-tree RDMA stack
if ! make -C "$kdir" M="$out/test/tools/testing/interop" W=1 KBUILD_EXTRA_SYMBOLS="$out/test/Module.symvers" \
	-j"$(nproc)" modules >"$out/interop.log" 2>&1; then
	grep -E 'error|Error' "$out/interop.log" | head -20 || true
	fatal "the interop test modules (build/interop.log)"
fi
if grep -q 'warning:' "$out/interop.log"; then
	grep -A3 'warning:' "$out/interop.log"
	fail "warnings building the interop test modules"
fi
if [ "${SMOKE:-1}" != 0 ]; then
	smoke >"$out/smoke.out" 2>&1 &
	smoke_pid=$!
	echo "(the stock kernel's build and smoke boot run meanwhile: build/smoke.out)"
fi

# the in-tree stack for the interop tests (loaded by them, not at boot: rdma_rxe takes UDP port 4791
# of the initial namespace), rdma-core's tools with their provider libraries, iproute2's ip and
# tcpdump (oib_siw's wire, captured for tshark); socat (an unmodified TCP program for SDP's
# preload library);
# brd, the RAM disk driver, for oib_srpt's block device LUNs (loaded by that test, with its sizes);
# the in-tree SRP initiator and target, each loaded only by its SRP interop test
interop=(--kmods veth --extra "rdma_rxe siw rdma_ucm ib_uverbs brd" --extra-group srp ib_srp --extra-group lio ib_srpt)
for b in ip rdma rping ibv_devices tcpdump socat; do interop+=(--bin "$(command -v $b)"); done
# ibverbs-utils' programs, run on oib through the drop-in libibverbs (integration.ibverbs_compat)
for b in ibv_devinfo ibv_rc_pingpong ibv_uc_pingpong ibv_ud_pingpong ibv_srq_pingpong ibv_xsrq_pingpong; do
	interop+=(--bin "$(command -v $b)")
done
# rdmacm-utils' programs, run on oib through the drop-in librdmacm (integration.rdmacm_compat)
for b in ucmatose rdma_server rdma_client; do interop+=(--bin "$(command -v $b)"); done
for ko in "$out"/test/tools/testing/interop/*.ko; do interop+=(--add "$ko" oib/interop); done
interop+=(--add /lib/x86_64-linux-gnu/libgcc_s.so.1 lib/x86_64-linux-gnu)	# rping's threads dlopen it
# the user ABI fuzzer's corpus, kept between runs on this machine (fuzz_corpus below)
corpus=${OIB_CACHE:-$HOME/.cache/oib}/fuzz-corpus
[ ! -s "$corpus" ] || interop+=(--add "$corpus" oib)
for p in rxe siw; do
	interop+=(--add /etc/libibverbs.d/$p.driver etc/libibverbs.d)
	interop+=(--add "$(ls /usr/lib/x86_64-linux-gnu/libibverbs/lib$p-rdmav*.so)" usr/lib/x86_64-linux-gnu/libibverbs)
done
# page_poison=1: a freed page is filled, and checked when it is next allocated, so that a write
# into a page after its free is found even where KASAN does not look (a memcpy under GCC 12)
args=(kunit.enable=1 page_poison=1)
[ -z "${SUITE:-}" ] || args+=("kunit.filter_glob=$SUITE")
# oib_uverbs_fuzz's settings, to the guest's /init (and its programs) as environment variables
for v in OIB_FUZZ_SEED OIB_FUZZ_CALLS OIB_FUZZ_SECONDS OIB_FUZZ_REPLAY OIB_FUZZ_REPEAT OIB_USER_TIMEOUT; do
	[ -z "${!v:-}" ] || args+=("$v=${!v}")
done
# Two guests of the test kernel at once, from one initramfs: the KUnit suites and the userspace
# tests in one (build/check-kunit.log), the integration scripts in the other
# (build/check-integration.log).  A guest keeps about one host CPU busy (most of its work is one
# thread, or waits on a timer): two use both of a 2-CPU machine.  Their output lines are prefixed
# with their names.  The KUnit test modules of $moved run in the second guest, to even the two
# out (on a quiet 2-CPU host: the KUnit suites about 410 s, oib_cma_loss_test's 500 connections with
# losses, twice, 60 s of them; the userspace tests 110 s; the integration scripts 390 s).
moved=oib_cma_loss_test
args+=("oib.kunit_moved=$moved")
# and these integration scripts in the first (userspace programs, as its userspace tests are)
smoved=ibverbs_compat,rdmacm_compat
args+=("oib.integration_moved=$smoved")
section "test kernel: boot (two guests: KUnit and userspace | integration)"
t=$(date +%s)
tools/initramfs.sh "$out/check.cpio.gz" "$out/test" "$modroot" check "${interop[@]}"
pids=()
for g in kunit:kunit,integration_moved,user integration:kunit_moved,integration; do
	name=check-${g%%:*}
	( rc=0
	  tools/qemu.sh "$bzimage" "$out/check.cpio.gz" "$out/$name.log" "${TIMEOUT:-1800}" \
		oib.mode=check "oib.parts=${g#*:}" "${args[@]}" | sed -u "s/^/[${g%%:*}] /" || rc=${PIPESTATUS[0]}
	  echo "$rc" >"$out/$name.qrc" ) &
	pids+=($!)
done
wait "${pids[@]}"
echo "check: the test kernel's guests took $(($(date +%s) - t)) s"
total=0
for name in check-kunit check-integration; do
	qrc=$(cat "$out/$name.qrc")
	results "$name"
	total=$((total + nresults))
	captures "$name"
done
[ $total -gt 0 ] || fail "no test results${SUITE:+ (does SUITE=$SUITE match anything?)}"
fuzz_inputs "$out/check-kunit.log" "$out/check-integration.log"
fuzz_corpus "$out/check-kunit.log"

if [ -n "$smoke_pid" ]; then
	section "stock kernel: build and boot (smoke)"
	wait "$smoke_pid" || true
	smoke_pid=
	grep -v '^smoke: ' "$out/smoke.out" || true
	while read -r what n; do
		case $what in
		none) fatal "no Debian 6.1 kernel with headers (linux-image-amd64, linux-headers-amd64)" ;;
		build) fatal "build against the stock kernel" ;;
		warnings) failed=$((failed + n)) ;;
		qemu) qrc=$n; results smoke; [ "$nresults" -gt 0 ] || fail "no smoke results" ;;
		esac
	done < <(sed -n 's/^smoke: //p' "$out/smoke.out")
	grep -q '^smoke: qemu' "$out/smoke.out" || fail "the stock kernel's smoke run did not finish (build/smoke.out)"
fi
finish
