#!/usr/bin/env bash
# Builds the modules with W=1 against KDIR in a private copy of the tree (DEST), so that the
# developer's in-tree objects are never touched, then the userspace library, the guest's
# userspace tests (tools/testing/user) and the examples (tools/examples), static binaries.  Every warning counts and shows up on every run: a
# build without warnings keeps its objects and the next one recompiles only what changed since (the
# sources are copied by content, Kbuild's dependency tracking does the rest: an unchanged object
# compiled without warnings before and would again); a build with warnings or errors is thrown away,
# so the next one starts from scratch, as does one against another kernel, compiler or version of
# this script.
# Usage: tools/build.sh KDIR DEST.  The log is DEST.log.  Exit 0: clean; 1: build failed; 2: warnings.
set -euo pipefail

kdir=$1
dest=$(realpath -m "$2")
top=$(cd "$(dirname "$0")/.." && pwd)
log=$dest.log
stamp=$dest.clean

# What the objects depend on besides the sources: the kernel, the compiler and this script.
key=$( { realpath "$kdir"; cat "$kdir/include/config/kernel.release" "$kdir/.config" "$0"; gcc --version; } |
	sha256sum | cut -c1-16)
how="incremental"
if [ "$(cat "$stamp" 2>/dev/null)" != "$key" ]; then
	rm -rf "$dest"
	how="from scratch"
fi
rm -f "$stamp"
mkdir -p "$dest"

# Copy the sources: what git would track (honours .gitignore), or everything but build outputs.  Only
# files whose content changed are written (rsync -c, new mtime), and sources gone from the tree go
# from the copy.
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	files=$(mktemp)
	trap 'rm -f "$files"' EXIT
	git -C "$top" ls-files -z -co --exclude-standard | sort -zu >"$files"
	rsync -rlpc --from0 --files-from="$files" --ignore-missing-args "$top/" "$dest/"
	(cd "$dest" && find . -type f ! -name '*.o' ! -name '*.ko' ! -name '*.mod' ! -name '*.mod.c' \
		! -name '.*.cmd' ! -name '*.symvers' ! -name 'modules.order' -printf '%P\0' | sort -z |
		comm -z -23 - "$files" | xargs -0r rm -f)
else
	rsync -rlpc --delete --exclude=/build/ --exclude=.git --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
		--exclude='*.mod*' --exclude='*.symvers' --exclude=modules.order "$top/" "$dest/"
fi

echo "build: $(basename "$dest") against $kdir (W=1, $how)"
rc=0
make -C "$kdir" M="$dest" W=1 -j"$(nproc)" modules >"$log" 2>&1 || rc=$?
if [ $rc -ne 0 ]; then
	grep -E 'error|Error' "$log" | head -40 || true
	echo "build: FAILED (log: $log)"
	exit 1
fi
# the userspace library, tests, examples and the oib tool (static), the drop-in libibverbs.so.1
# and librdmacm.so.1,
# and libsdp.so (SDP's preload library), with the modules' warning rule
for d in tools/lib/ibverbs tools/lib/rdmacm tools/testing/user tools/examples tools/oib tools/lib/sdp; do
	[ -f "$dest/$d/Makefile" ] || continue
	if ! make -C "$dest/$d" CFLAGS="-O2 -g" >>"$log" 2>&1; then
		grep -E 'error|Error' "$log" | head -40 || true
		echo "build: userspace ($d) FAILED (log: $log)"
		exit 1
	fi
done
# modules no longer built (their Kbuild line went) go too
(cd "$dest" && find . -name '*.ko' -printf '%P\n' | sort |
	comm -23 - <(sed "s|^$dest/||; s/\.o\$/.ko/" modules.order | sort) | xargs -r rm -f)
nko=$(find "$dest" -name '*.ko' | wc -l)
nwarn=$(grep -ci 'warning:' "$log" || true)
if [ "$nwarn" -ne 0 ]; then
	grep -i -A3 'warning:' "$log"
	echo "build: $nwarn warnings (log: $log)"
	exit 2
fi
echo "$key" >"$stamp"
echo "build: $nko modules, no warnings"
