#!/usr/bin/env bash
# Builds the guest's gzip cpio initramfs: static busybox, the guest scripts (tools/testing/guest as
# /oib/guest, its init.sh as /init, tools/testing/integration as /oib/integration), the userspace
# tests, tools and examples of a built tree (tools/testing/user/oib_* as /oib/user/, its other
# programs and tools/examples/oibv_* in /bin, the drop-in libibverbs.so.1 in /usr/lib/oib,
# tools/lib/sdp/libsdp.so in /oib/lib), our modules from a
# built tree (drivers/**/*.ko as /oib/ko/NAME.ko, kunit/**/*.ko as /oib/ko/kunit/NAME.ko, found with
# find: a new module needs no change here) and the kernel modules they depend on (/oib/ko/deps/, load
# order in /oib/ko/deps.order).  Load orders, from the modules' own dependencies (modinfo depends):
#   /oib/ko/order  the driver modules, dependencies first, then by name (unload: the reverse);
#   /oib/ko/depends one "NAME DEP..." a line: each of our modules and those of ours it depends on
#                  (the guest's need NAME loads a module after what it needs, see lib.sh);
#   /oib/ko/plan   check mode, one "driver|lib|test NAME" a line: the driver modules, the KUnit
#                  helpers (modules other KUnit modules depend on), then each KUnit test module;
#                  first all that do not depend on a late module, then the late driver modules
#                  (tools/testing/guest/modules.late and, recursively, what depends on them) and
#                  what depends on them.
# Usage: tools/initramfs.sh OUT TREE MODROOT MODE [--kmods "NAME..."] [--extra "NAME..."]
#        [--extra-group GROUP "NAME..."] [--bin PATH]... [--add FILE DIR]...
#   MODROOT is the booting kernel's lib/modules/<kver> directory, used to resolve dependencies.
#   MODE (check|run|smoke|bench) goes to /oib/mode, the default when the command line has no oib.mode=.
#   --kmods: more kernel modules (and what they need) for /oib/ko/deps, loaded at boot; --extra: kernel
#   modules (and what they need) for /oib/ko/extra, in load order in /oib/ko/extra.order, loaded by
#   the tests that want them (the in-tree RDMA stack); --extra-group: more of them (and what they
#   need) in /oib/ko/extra too, their order in /oib/ko/extra-GROUP.order, loaded only by the tests
#   that name GROUP (lib.sh's load_extra GROUP); --bin: a host binary and its libraries, into
#   /bin; --add: a file into the directory DIR of the guest.
set -euo pipefail

out=$(realpath -m "$1")
tree=$2
modroot=$3
mode=$4
shift 4
top=$(cd "$(dirname "$0")/.." && pwd)
guest=$top/tools/testing/guest

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"	# the guest's /: mktemp's 0700 would keep every user but root out of everything
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,oib/ko/kunit,oib/ko/deps,oib/guest,oib/integration}

kmods=() extra=() groups=()
while [ $# -gt 0 ]; do
	case $1 in
	--kmods) read -ra kmods <<<"$2"; shift 2 ;;
	--extra) read -ra extra <<<"$2"; shift 2 ;;
	--extra-group) groups+=("$2" "$3"); shift 3 ;;
	--bin)
		cp "$2" "$stage/bin/"
		for lib in $(ldd "$2" | grep -o '/[^ ]*'); do
			mkdir -p "$stage$(dirname "$lib")"
			cp -L "$lib" "$stage$lib"
		done
		shift 2
		;;
	--add) mkdir -p "$stage/$3"; cp "$2" "$stage/$3/"; shift 3 ;;
	*) echo "initramfs: unknown argument $1" >&2; exit 2 ;;
	esac
done

# busybox and its applets as symlinks
cp /bin/busybox "$stage/bin/"
for a in $(/bin/busybox --list); do
	[ -e "$stage/bin/$a" ] || ln -s busybox "$stage/bin/$a"
done
mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true
# root's account, for the programs that look it up (tcpdump -Z root drops to it)
mkdir -p "$stage/etc"
echo 'root:x:0:0:root:/:/bin/sh' >"$stage/etc/passwd"
echo 'root:x:0:' >"$stage/etc/group"

# e2fsprogs for the SRP disk tests: mke2fs (also as mkfs.ext4), e2fsck and debugfs (which reads
# and writes files in an ext4 image from userspace) with their libraries and mke2fs.conf, in
# place of busybox's applets of those names.  Left out when the host has none.
add_e2fsprogs() {
	local b lib
	[ -x /sbin/mke2fs ] && [ -x /sbin/e2fsck ] && [ -x /sbin/debugfs ] || return 0
	for b in mke2fs e2fsck debugfs; do
		rm -f "$stage/bin/$b"
		cp /sbin/$b "$stage/bin/"
		for lib in $(ldd /sbin/$b | grep -o '/[^ ]*'); do
			mkdir -p "$stage$(dirname "$lib")"
			cp -L "$lib" "$stage$lib"
		done
	done
	ln -sf mke2fs "$stage/bin/mkfs.ext4"
	mkdir -p "$stage/etc"
	cp /etc/mke2fs.conf "$stage/etc/"
}
add_e2fsprogs

cp "$guest/init.sh" "$stage/init"
find "$guest" -maxdepth 1 -type f -exec cp {} "$stage/oib/guest/" \;
find "$top/tools/testing/integration" -maxdepth 1 -name '*.sh' -exec cp {} "$stage/oib/integration/" \;
chmod 755 "$stage/init" "$stage"/oib/guest/*.sh "$stage"/oib/integration/*.sh 2>/dev/null || true
echo "$mode" >"$stage/oib/mode"

# the userspace test programs (static, KTAP): /oib/user/NAME, each run as the suite NAME
mkdir -p "$stage/oib/user"
find "$tree/tools/testing/user" -maxdepth 1 -type f -name 'oib_*' -perm -u+x \
	-exec cp {} "$stage/oib/user/" \; 2>/dev/null || true
# the guest's tools built there (static, not named oib_*): /bin/NAME (blkbench, for make bench)
find "$tree/tools/testing/user" -maxdepth 1 -type f ! -name 'oib_*' ! -name '*.*' ! -name Makefile \
	-perm -u+x -exec cp {} "$stage/bin/" \; 2>/dev/null || true
# the control tool (static): /bin/oib
if [ -x "$tree/tools/oib/oib" ]; then cp "$tree/tools/oib/oib" "$stage/bin/"; fi
# the drop-in libibverbs.so.1 (tools/lib/ibverbs): /usr/lib/oib, for LD_LIBRARY_PATH
if [ -f "$tree/tools/lib/ibverbs/libibverbs.so.1" ]; then
	mkdir -p "$stage/usr/lib/oib"
	cp "$tree/tools/lib/ibverbs/libibverbs.so.1" "$stage/usr/lib/oib/"
fi
# and the drop-in librdmacm.so.1 beside it (tools/lib/rdmacm)
if [ -f "$tree/tools/lib/rdmacm/librdmacm.so.1" ]; then
	mkdir -p "$stage/usr/lib/oib"
	cp "$tree/tools/lib/rdmacm/librdmacm.so.1" "$stage/usr/lib/oib/"
fi
# SDP's preload library: /oib/lib/libsdp.so (LD_PRELOAD'ed by integration.sdp_preload)
if [ -f "$tree/tools/lib/sdp/libsdp.so" ]; then
	mkdir -p "$stage/oib/lib"
	cp "$tree/tools/lib/sdp/libsdp.so" "$stage/oib/lib/"
fi
# the liboibv examples (static): /bin/oibv_*
find "$tree/tools/examples" -maxdepth 1 -type f -name 'oibv_*' -perm -u+x \
	-exec cp {} "$stage/bin/" \; 2>/dev/null || true

# our modules (driver or KUnit), each with its dependencies
declare -A dep kind
for d in drivers kunit; do
	while IFS= read -r ko; do
		n=$(basename "$ko" .ko)
		[ -z "${kind[$n]:-}" ] || { echo "initramfs: two modules named $n" >&2; exit 1; }
		kind[$n]=$d
		cp "$ko" "$stage/oib/ko/${d/drivers/}"
		dep[$n]=$(modinfo -F depends "$ko" | tr , ' ')
	done < <(find "$tree/$d" -name '*.ko' 2>/dev/null | sort)
done

# KUnit helpers: KUnit modules that others depend on
declare -A lib
for n in "${!dep[@]}"; do
	for d in ${dep[$n]}; do
		[ "${kind[$d]:-}" != kunit ] || lib[$d]=1
	done
done

# late: the modules of modules.late and, until nothing changes, every module that depends on a late one
declare -A late
while read -r n; do
	[ -z "${kind[$n]:-}" ] || late[$n]=1
done < <(grep -v '^#' "$guest/modules.late" 2>/dev/null || true)
more=1
while [ $more = 1 ]; do
	more=0
	for n in "${!dep[@]}"; do
		[ -z "${late[$n]:-}" ] || continue
		for d in ${dep[$n]}; do
			[ -z "${late[$d]:-}" ] || { late[$n]=1; more=1; }
		done
	done
done

# topo NAME...: the names in load order: repeatedly the first one whose dependencies among them are placed
topo() {
	local set=" $* " res=() n d ready next
	local -A placed=()
	while [ ${#res[@]} -lt $# ]; do
		next=
		for n; do
			[ -z "${placed[$n]:-}" ] || continue
			ready=1
			for d in ${dep[$n]}; do
				case $set in *" $d "*) [ -n "${placed[$d]:-}" ] || ready=0 ;; esac
			done
			[ $ready = 0 ] || { next=$n; break; }
		done
		[ -n "$next" ] || { echo "initramfs: dependency cycle among: $*" >&2; return 1; }
		placed[$next]=1
		res+=("$next")
	done
	[ $# -eq 0 ] || printf '%s\n' "${res[@]}"
}

# pick PHASE WHAT: our modules of one phase (early|late) and one role (driver|lib|test), sorted
pick() {
	local n role
	for n in "${!kind[@]}"; do
		role=test
		[ "${kind[$n]}" = drivers ] && role=driver
		[ "$role" = driver ] || [ -z "${lib[$n]:-}" ] || role=lib
		[ "$role" = "$2" ] || continue
		case $1 in early) [ -z "${late[$n]:-}" ] || continue ;; late) [ -n "${late[$n]:-}" ] || continue ;; esac
		echo "$n"
	done | sort
}
# shellcheck disable=SC2046 # module names are words
topo $(pick all driver) >"$stage/oib/ko/order"
for n in $(printf '%s\n' "${!dep[@]}" | sort); do
	line=$n
	for d in ${dep[$n]}; do
		[ -z "${kind[$d]:-}" ] || line+=" $d"
	done
	echo "$line"
done >"$stage/oib/ko/depends"
for phase in early late; do
	for role in driver lib test; do
		topo $(pick $phase $role) | sed "s/^/$role /"
	done
done >"$stage/oib/ko/plan"

# kmods_into DIR ORDER NAME...: the kernel modules NAME and what they need, in modprobe's order, into
# DIR, their file names in that order into ORDER
kver=$(basename "$modroot")
base=${modroot%/lib/modules/*}
kmods_into() {
	local dir=$1 order=$2 d ko n
	shift 2
	mkdir -p "$dir"
	: >"$order"
	for d; do
		modprobe -D -d "${base:-/}" -S "$kver" "$d" || { echo "initramfs: cannot resolve $d" >&2; exit 1; }
	done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r ko; do
		n=$(basename "$ko")
		n=${n%.ko*}.ko
		case $ko in
		*.xz) xz -dc "$ko" ;;
		*.zst) zstd -dc "$ko" ;;
		*.gz) gzip -dc "$ko" ;;
		*) cat "$ko" ;;
		esac >"$dir/$n"
		echo "$n" >>"$order"
	done
}
# kernel modules ours depend on, and --kmods; then --extra
# shellcheck disable=SC2046 # module names are words
kmods_into "$stage/oib/ko/deps" "$stage/oib/ko/deps.order" \
	$(for d in $(printf '%s\n' "${dep[@]}" | tr ' ' '\n' | sort -u) "${kmods[@]}"; do
		[ -n "${kind[$d]:-}" ] || echo "$d"
	done)
[ ${#extra[@]} -eq 0 ] || kmods_into "$stage/oib/ko/extra" "$stage/oib/ko/extra.order" "${extra[@]}"
for ((i = 0; i < ${#groups[@]}; i += 2)); do
	# shellcheck disable=SC2086 # module names are words
	kmods_into "$stage/oib/ko/extra" "$stage/oib/ko/extra-${groups[i]}.order" ${groups[i + 1]}
done

(cd "$stage" && find . -print0 | cpio --null -o -H newc --owner=0:0 --quiet) | gzip -6 >"$out"
plan=$(awk '{ n[$1]++; if ($1 == "driver" && seen) late = late " " $2 } $1 == "test" { seen = 1 }
	END { printf "%d drivers, %d KUnit helpers, %d KUnit test modules; loaded after tests:%s", n["driver"], n["lib"], n["test"], late ? late : " none" }' \
	"$stage/oib/ko/plan")
echo "initramfs: $(basename "$out"): $mode; driver order:" $(cat "$stage/oib/ko/order") "| check plan: $plan |" \
	"kernel modules:" $(cat "$stage/oib/ko/deps.order") "| $(du -h "$out" | cut -f1)"
