#!/usr/bin/env bash
# Builds the modules from scratch with W=1 against KDIR in a private copy of the tree (DEST), so that
# the developer's in-tree objects are never touched and every warning shows up on every run.
# Usage: tools/build.sh KDIR DEST.  The log is DEST.log.  Exit 0: clean; 1: build failed; 2: warnings.
set -euo pipefail

kdir=$1
dest=$(realpath -m "$2")
top=$(cd "$(dirname "$0")/.." && pwd)
log=$dest.log

# Copy the sources: what git would track (honours .gitignore), or everything but build outputs.
rm -rf "$dest"
mkdir -p "$dest"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$top" ls-files -z -co --exclude-standard |
		rsync -a --from0 --files-from=- --ignore-missing-args "$top/" "$dest/"
else
	rsync -a --exclude=/build/ --exclude=.git --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
		--exclude='*.mod*' --exclude=Module.symvers --exclude=modules.order "$top/" "$dest/"
fi

echo "build: $(basename "$dest") against $kdir (W=1)"
rc=0
make -C "$kdir" M="$dest" W=1 -j"$(nproc)" modules >"$log" 2>&1 || rc=$?
if [ $rc -ne 0 ]; then
	grep -E 'error|Error' "$log" | head -40 || true
	echo "build: FAILED (log: $log)"
	exit 1
fi
nko=$(find "$dest" -name '*.ko' | wc -l)
nwarn=$(grep -ci 'warning:' "$log" || true)
if [ "$nwarn" -ne 0 ]; then
	grep -i -A3 'warning:' "$log"
	echo "build: $nwarn warnings (log: $log)"
	exit 2
fi
echo "build: $nko modules, no warnings"
