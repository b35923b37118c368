#!/usr/bin/env bash
# make run: installs missing packages, builds (once) the test kernel, builds the modules, boots the
# guest in run mode (tools/testing/guest/demo.sh: two oib_rxe devices, their attributes, clean
# unload) and prints the demo's output without the kernel's messages.  Fails if the demo fails or the
# console shows a kernel splat (tools/findings.sh).  Logs: build/run.log (console), build/demo.log (build).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=$top/build
mkdir -p "$out"

tools/deps.sh
kdir=$(tools/kernel.sh)
kver=$(cat "$kdir/include/config/kernel.release")
tools/build.sh "$kdir" "$out/demo" || [ $? = 2 ]
tools/initramfs.sh "$out/run.cpio.gz" "$out/demo" "$kdir/mods/lib/modules/$kver" run
rc=0
tools/qemu.sh "$kdir/arch/x86/boot/bzImage" "$out/run.cpio.gz" "$out/run.log" "${TIMEOUT:-600}" oib.mode=run |
	grep -v '^oib-guest:' || rc=${PIPESTATUS[0]}

# the demo: between the guest's markers, without kernel messages (those start with a timestamp)
echo
sed -n '/^oib-guest: demo begin/,/^oib-guest: demo end/p' "$out/run.log" | grep -v '^oib-guest:' | grep -v '^\[ *[0-9]*\.[0-9]*\]' || true
echo
status=$(sed -n 's/^oib-guest: demo end, exit status \([0-9]*\).*/\1/p' "$out/run.log")
findings=$(tools/findings.sh "$out/run.log")
n=$(tail -1 <<<"$findings" | cut -d' ' -f1)
[ "$n" = 0 ] || echo "$findings"
if [ "$rc" = 0 ] && [ "$status" = 0 ] && [ "$n" = 0 ]; then
	echo "run: ok"
else
	echo "run: FAILED (QEMU status $rc, demo status ${status:-none}, $n log findings; log: $out/run.log)"
	exit 1
fi
