#!/usr/bin/env bash
# Boots a kernel with an initramfs under QEMU (TCG; KVM only with OIB_KVM=1) and writes the serial
# console to LOG.  The console also goes to stdout: all of it with V=1, else only the guest's own
# lines and KUnit suite results, as progress.  A run longer than TIMEOUT seconds is killed and fails.
# Usage: tools/qemu.sh KERNEL INITRD LOG TIMEOUT [KERNEL ARGUMENTS...]
# Environment: OIB_SMP (vCPUs, default 2), OIB_MEM (memory, default 2G), OIB_QEMU_NET (more QEMU
# arguments, words: make bench's two hosts give each guest its NIC with them).
# Exit status: QEMU's (0 after the guest's reboot -f), 124 on timeout.
set -euo pipefail

kernel=$1 initrd=$2 log=$3 timeout=$4
shift 4
khz=$(awk -F': *' '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
accel=(-accel tcg,thread=multi)
[ "${OIB_KVM:-0}" = 1 ] && accel=(-accel kvm -cpu host)

mkdir -p "$(dirname "$log")"
start=$(date +%s)
rc=0
# shellcheck disable=SC2086 # OIB_QEMU_NET: words
timeout --foreground -k 10 "$timeout" qemu-system-x86_64 "${accel[@]}" -smp "${OIB_SMP:-2}" -m "${OIB_MEM:-2G}" \
	-bios /usr/share/qemu/qboot.rom -nodefaults -nographic -serial stdio -no-reboot \
	-kernel "$kernel" -initrd "$initrd" ${OIB_QEMU_NET:-} \
	-append "console=ttyS0 rdinit=/init panic=-1 tsc=reliable tsc_early_khz=$khz $*" \
	</dev/null 2>&1 | sed -u 's/\r$//' | tee "$log" |
	if [ "${V:-0}" = 1 ]; then cat; else grep --line-buffered -E '^(\[[ 0-9.]+\] )?(oib-guest:|(not )?ok [0-9])'; fi ||
	rc=${PIPESTATUS[0]}
secs=$(( $(date +%s) - start ))
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "qemu: TIMEOUT after $timeout s (log: $log)"
	exit 124
fi
echo "qemu: guest ran $secs s, exit status $rc (log: $log)"
exit "$rc"
