#!/usr/bin/env bash
# tools/kernel.sh [test|bench]: builds (once) and prints the path of the cached test or bench kernel.
#
# Debian's linux-source-6.12, configured as allnoconfig plus tools/kernel/base.config plus
# tools/kernel/<kind>.config (test: KUnit and the debugging options; bench: none of them).  Cached under
# $OIB_CACHE (default ~/.cache/oib) in kernel-<kind>-<hash of both fragments, the source version and
# this script>, so a changed fragment builds a new kernel and an unchanged one is never rebuilt.
# Progress goes to stderr; stdout is the build dir.
set -euo pipefail

kind=${1:-test}
top=$(cd "$(dirname "$0")/.." && pwd)
base=$top/tools/kernel/base.config
frag=$top/tools/kernel/$kind.config
[ -f "$frag" ] || { echo "kernel: no configuration '$kind' (test or bench)" >&2; exit 2; }
cache=${OIB_CACHE:-$HOME/.cache/oib}
tarball=/usr/src/linux-source-6.12.tar.xz
ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
key=$(cat "$base" "$frag" "$0" <(echo "$ver") | sha256sum | cut -c1-12)
out=$cache/kernel-$kind-$key
src=$cache/src/linux-source-6.12

if [ -f "$out/.oib-built" ]; then
	echo "$out"
	exit 0
fi

# One lock for every kind: the unpacked source is shared.
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -f "$out/.oib-built" ]; then
	echo "$out"
	exit 0
fi

if [ "$(cat "$src/.oib-version" 2>/dev/null)" != "$ver" ]; then
	echo "kernel: unpacking linux-source-6.12 $ver" >&2
	rm -rf "$cache/src"
	mkdir -p "$cache/src"
	tar -C "$cache/src" -xf "$tarball"
	echo "$ver" >"$src/.oib-version"
fi

echo "kernel: configuring $out" >&2
rm -rf "$out"
mkdir -p "$out"
cat "$base" "$frag" >"$out/oib.config"
make -s -C "$src" O="$out" KCONFIG_ALLCONFIG="$out/oib.config" allnoconfig >&2
make -s -C "$src" O="$out" olddefconfig >&2

bad=0
while IFS= read -r line; do
	case "$line" in CONFIG_*=*) ;; *) continue ;; esac
	name=${line%%=*}
	val=${line#*=}
	if [ "$val" = n ]; then
		grep -q "^$name=" "$out/.config" && { echo "kernel: $name is set, wanted n" >&2; bad=1; }
	else
		grep -qx "$line" "$out/.config" || { echo "kernel: $line did not stick" >&2; bad=1; }
	fi
done <"$out/oib.config"
[ $bad -eq 0 ] || exit 1

echo "kernel: building the $kind kernel (5-10 minutes on 2 cores, once)" >&2
start=$(date +%s)
make -s -C "$out" -j"$(nproc)" bzImage modules >&2
make -s -C "$out" INSTALL_MOD_PATH="$out/mods" modules_install >&2
echo "kernel: built in $(( $(date +%s) - start )) s" >&2
touch "$out/.oib-built"
echo "$out"
