#!/usr/bin/env bash
# Builds (once) and prints the path of the cached bench kernel: the test kernel's source
# (linux-source-6.12, unpacked by tools/kernel.sh's rules under the same lock) configured as
# allnoconfig plus tools/bench/bench-kernel.config, without debugging options.  Cached under
# $OIB_CACHE (default ~/.cache/oib) in kernel-bench-<hash of fragment, source version, this script>.
# Only `make bench` needs it.  Progress goes to stderr; stdout is the build dir.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${OIB_CACHE:-$HOME/.cache/oib}
frag=$top/tools/bench/bench-kernel.config
tarball=/usr/src/linux-source-6.12.tar.xz
ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
key=$(cat "$frag" "$0" <(echo "$ver") | sha256sum | cut -c1-12)
out=$cache/kernel-bench-$key
src=$cache/src/linux-source-6.12

if [ -f "$out/.oib-built" ]; then
	echo "$out"
	exit 0
fi

# Same lock as tools/kernel.sh: the unpacked source is shared.
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -f "$out/.oib-built" ]; then
	echo "$out"
	exit 0
fi

if [ "$(cat "$src/.oib-version" 2>/dev/null)" != "$ver" ]; then
	echo "bench-kernel: unpacking linux-source-6.12 $ver" >&2
	rm -rf "$cache/src"
	mkdir -p "$cache/src"
	tar -C "$cache/src" -xf "$tarball"
	echo "$ver" >"$src/.oib-version"
fi

echo "bench-kernel: configuring $out" >&2
rm -rf "$out"
mkdir -p "$out"
make -s -C "$src" O="$out" KCONFIG_ALLCONFIG="$frag" allnoconfig >&2
make -s -C "$src" O="$out" olddefconfig >&2

# Every line of the fragment must have stuck.
bad=0
while IFS= read -r line; do
	case "$line" in CONFIG_*=*) ;; *) continue ;; esac
	name=${line%%=*}
	val=${line#*=}
	if [ "$val" = n ]; then
		grep -q "^$name=" "$out/.config" && { echo "bench-kernel: $name is set, wanted n" >&2; bad=1; }
	else
		grep -qx "$line" "$out/.config" || { echo "bench-kernel: $line did not stick" >&2; bad=1; }
	fi
done <"$frag"
[ $bad -eq 0 ] || exit 1

echo "bench-kernel: building (about 5 minutes on 2 cores, once)" >&2
start=$(date +%s)
make -s -C "$out" -j"$(nproc)" bzImage modules >&2
make -s -C "$out" INSTALL_MOD_PATH="$out/mods" modules_install >&2
echo "bench-kernel: built in $(( $(date +%s) - start )) s" >&2
touch "$out/.oib-built"
echo "$out"
