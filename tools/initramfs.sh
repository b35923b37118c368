#!/usr/bin/env bash
# Builds the guest's gzip cpio initramfs: static busybox, the guest scripts (tools/testing/guest as
# /oib/guest, tools/testing/integration as /oib/integration, guest/init as /init), our modules from a
# built tree (drivers/**/*.ko as /oib/ko/NAME.ko, kunit/*.ko as /oib/ko/kunit/) and any kernel modules
# they depend on (/oib/ko/deps/, load order in /oib/ko/deps.order).  /oib/ko/order is the load order
# of the driver modules: dependencies first, then tools/testing/guest/modules.order, then by name;
# /oib/ko/late names those of tools/testing/guest/modules.late.
# Usage: tools/initramfs.sh OUT TREE MODROOT [MODE]
#   MODROOT is the booting kernel's lib/modules/<kver> directory, used to resolve dependencies.
#   MODE (check|run|smoke) goes to /oib/mode, the default when the command line has no oib.mode=.
set -euo pipefail

out=$(realpath -m "$1")
tree=$2
modroot=$3
mode=${4:-check}
top=$(cd "$(dirname "$0")/.." && pwd)
guest=$top/tools/testing/guest

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,oib/ko/kunit,oib/ko/deps,oib/guest,oib/integration}

# busybox and its applets as symlinks
cp /bin/busybox "$stage/bin/"
for a in $(/bin/busybox --list); do
	[ "$a" = busybox ] || ln -s busybox "$stage/bin/$a"
done
mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true

cp "$guest/init" "$stage/init"
find "$guest" -maxdepth 1 -type f ! -name init -exec cp {} "$stage/oib/guest/" \;
find "$top/tools/testing/integration" -maxdepth 1 -name '*.sh' -exec cp {} "$stage/oib/integration/" \;
chmod 755 "$stage/init" "$stage"/oib/guest/*.sh "$stage"/oib/integration/*.sh 2>/dev/null || true
echo "$mode" >"$stage/oib/mode"

# our modules and their dependencies (modinfo depends)
declare -A dep
names=()
while IFS= read -r ko; do
	n=$(basename "$ko" .ko)
	[ ! -e "$stage/oib/ko/$n.ko" ] || { echo "initramfs: two modules named $n" >&2; exit 1; }
	cp "$ko" "$stage/oib/ko/"
	names+=("$n")
done < <(find "$tree/drivers" -name '*.ko' 2>/dev/null | sort)
knames=()
while IFS= read -r ko; do
	cp "$ko" "$stage/oib/ko/kunit/"
	knames+=("$(basename "$ko" .ko)")
done < <(find "$tree/kunit" -name '*.ko' 2>/dev/null | sort)
for ko in "$stage"/oib/ko/*.ko "$stage"/oib/ko/kunit/*.ko; do
	[ -e "$ko" ] && dep[$(basename "$ko" .ko)]=$(modinfo -F depends "$ko" | tr , ' ')
done
ours=" ${names[*]} ${knames[*]} "

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

# driver modules: tools/testing/guest/modules.order first, then by name
pref=()
while read -r n; do
	case " ${names[*]} " in *" $n "*) pref+=("$n") ;; esac
done < <(grep -v '^#' "$guest/modules.order" 2>/dev/null || true)
for n in "${names[@]}"; do
	case " ${pref[*]} " in *" $n "*) ;; *) pref+=("$n") ;; esac
done
topo "${pref[@]}" >"$stage/oib/ko/order"

# Late driver modules (tools/testing/guest/modules.late): oib_core clients that take resources on
# every device (QP1, a PD, CQs); in check mode they load only after the KUnit suites that do not
# need them, so those suites see devices as bare as they expect.
late=()
while read -r n; do
	case " ${names[*]} " in *" $n "*) late+=("$n") ;; esac
done < <(grep -v '^#' "$guest/modules.late" 2>/dev/null || true)
printf '%s\n' "${late[@]}" | grep . >"$stage/oib/ko/late" || true

# KUnit modules: those others depend on (helpers) stay loaded while each of the rest is loaded+unloaded;
# the tests that need a late driver module run after it is loaded (kunit/tests.late)
libs=() tests=() ltests=()
for n in "${knames[@]}"; do
	case " ${dep[*]} " in
	*" $n "*) libs+=("$n") ;;
	*)
		needs_late=
		for d in ${dep[$n]}; do
			case " ${late[*]} " in *" $d "*) needs_late=1 ;; esac
		done
		if [ -n "$needs_late" ]; then ltests+=("$n"); else tests+=("$n"); fi
		;;
	esac
done
topo "${libs[@]}" >"$stage/oib/ko/kunit/libs"
[ ${#tests[@]} -eq 0 ] || printf '%s\n' "${tests[@]}" >"$stage/oib/ko/kunit/tests"
[ ${#ltests[@]} -eq 0 ] || printf '%s\n' "${ltests[@]}" >"$stage/oib/ko/kunit/tests.late"
touch "$stage/oib/ko/kunit/tests" "$stage/oib/ko/kunit/tests.late" "$stage/oib/ko/late"

# kernel modules ours depend on, in modprobe's order
kver=$(basename "$modroot")
base=${modroot%/lib/modules/*}
: >"$stage/oib/ko/deps.order"
for n in "${!dep[@]}"; do
	for d in ${dep[$n]}; do
		case $ours in *" $d "*) continue ;; esac
		modprobe -D -d "${base:-/}" -S "$kver" "$d" || { echo "initramfs: cannot resolve $d" >&2; exit 1; }
	done
done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r ko; do
	n=$(basename "$ko")
	n=${n%.ko*}.ko
	case $ko in
	*.xz) xz -dc "$ko" ;;
	*.zst) zstd -dc "$ko" ;;
	*.gz) gzip -dc "$ko" ;;
	*) cat "$ko" ;;
	esac >"$stage/oib/ko/deps/$n"
	echo "$n" >>"$stage/oib/ko/deps.order"
done

(cd "$stage" && find . -print0 | cpio --null -o -H newc --owner=0:0 --quiet) | gzip -6 >"$out"
echo "initramfs: $(basename "$out"): drivers:" $(cat "$stage/oib/ko/order") "| late:" ${late[*]:-none} \
	"| kunit helpers:" ${libs[*]:-none} "| kunit tests: ${#tests[@]} + ${#ltests[@]} late | other modules:" $(cat "$stage/oib/ko/deps.order") "| $(du -h "$out" | cut -f1)"
