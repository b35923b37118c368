# What the host scripts (check.sh, run.sh, bench.sh) share, sourced after `set -euo pipefail`: the
# prologue (the tree's top as the working directory, build/ as $out), the kernel, the build, the
# guest (initramfs and QEMU) and the kernel log findings.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
out=$top/build
mkdir -p "$out"
t0=$(date +%s)

# kernel KIND [PACKAGE...]: installs the missing packages (tools/deps.sh, with PACKAGEs), builds (once)
# the KIND kernel (tools/kernel.sh) and sets kdir, kver, modroot and bzimage.
kernel() {
	tools/deps.sh "${@:2}"
	kdir=$(tools/kernel.sh "$1")
	kver=$(cat "$kdir/include/config/kernel.release")
	modroot=$kdir/mods/lib/modules/$kver
	bzimage=$kdir/arch/x86/boot/bzImage
}

# build KDIR DEST: tools/build.sh; sets nwarn to the number of warnings; returns 1 if the build failed.
build() {
	local rc=0
	nwarn=0
	tools/build.sh "$1" "$2" || rc=$?
	case $rc in
	0) ;;
	2) nwarn=$(grep -ci 'warning:' "$2.log") ;;
	*) return 1 ;;
	esac
}

# guest NAME TREE MODROOT KERNEL TIMEOUT [INITRAMFS OPTION...] [-- KERNEL ARGUMENT...]: builds
# build/NAME.cpio.gz from TREE's modules (tools/initramfs.sh, mode NAME) and boots KERNEL with it
# (tools/qemu.sh, oib.mode=NAME, console in build/NAME.log); sets qrc to QEMU's exit status.
guest() {
	local name=$1 tree=$2 root=$3 kernel=$4 timeout=$5 opts=()
	shift 5
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	[ $# -eq 0 ] || shift
	tools/initramfs.sh "$out/$name.cpio.gz" "$tree" "$root" "$name" "${opts[@]}"
	qrc=0
	tools/qemu.sh "$kernel" "$out/$name.cpio.gz" "$out/$name.log" "$timeout" "oib.mode=$name" "$@" || qrc=$?
}

# findings LOG [quiet]: tools/findings.sh; prints its report (quiet: only when there are findings)
# and sets nfind to the number of findings.
findings() {
	local res
	res=$(tools/findings.sh "$1")
	nfind=$(tail -1 <<<"$res" | cut -d' ' -f1)
	[ "${2:-}" = quiet ] && [ "$nfind" = 0 ] || echo "$res"
}

# exit_status LOG WHAT: sets status to the exit status the guest reported for WHAT ("oib-guest: WHAT
# end, exit status N"), empty if it did not.
exit_status() {
	status=$(sed -n "s/^oib-guest: $2 end, exit status \([0-9]*\).*/\1/p" "$1")
}
