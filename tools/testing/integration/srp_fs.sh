#!/bin/sh
# Integration test: an ext4 filesystem on an oib_srpt memory LUN of 256 MiB seen through
# oib_srp.  mkfs.ext4 on the disk, files of many sizes written into it, checked clean by e2fsck,
# read back and compared by checksum; logged out and in again (the same LUN), checked and
# compared again; then the same with 1% of the fabric's frames dropped.  The test kernel has no
# ext4 driver, so the files go in and out with e2fsprogs' debugfs (the filesystem from userspace,
# every block through the disk).  Skipped without both modules or without e2fsprogs.
. "$OIB_GUEST/lib.sh"

loaded oib_srp && loaded oib_srpt || { echo "# oib_srp or oib_srpt is not loaded"; exit 4; }
command -v mkfs.ext4 >/dev/null && command -v debugfs >/dev/null ||
	{ echo "# no e2fsprogs in the guest"; exit 4; }
RXE=/sys/module/oib_rxe/parameters
T=/sys/module/oib_srpt/parameters/target
I=/sys/module/oib_srp/parameters
F=/sys/kernel/debug/oib_rxe/fabrics/default/faults
w() { echo "$2" >"$1"; }

# disk: D is the target's disk, once sd has attached it (at most 20 s).
disk() {
	D=
	_i=0
	while [ $_i -lt 100 ]; do
		for _b in /sys/block/sd*; do
			[ -e "$_b/device/vendor" ] || continue
			get "$_b/device/vendor"
			case $V in OIB*) D=/dev/${_b##*/}; return 0 ;; esac
		done
		sleep 0.2
		_i=$((_i + 1))
	done
	return 1
}
# files DIR TAG: files of many sizes in DIR (names f<size>), their checksums in DIR.sums.
files() {
	rm -rf "$1" && mkdir -p "$1" || return 1
	for n in 0 1 511 512 513 4095 4096 4097 65543 262144 1048579 3145728; do
		head -c $n /dev/urandom >"$1/f$n-$2" || return 1
	done
	(cd "$1" && sha256sum f*) >"$1.sums"
}
# put DIR: every file of DIR written into the filesystem's root with debugfs.
put() {
	for f in "$1"/f*; do echo "write $f ${f##*/}"; done >/tmp/cmds
	debugfs -w -f /tmp/cmds "$D" >/tmp/debugfs.out 2>&1 && ! grep -q "rror\|not found" /tmp/debugfs.out
}
# verify DIR: the files of DIR read back from the filesystem have DIR's checksums.
verify() {
	rm -rf /tmp/back && mkdir /tmp/back || return 1
	for f in "$1"/f*; do echo "dump ${f##*/} /tmp/back/${f##*/}"; done >/tmp/cmds
	debugfs -f /tmp/cmds "$D" >/tmp/debugfs.out 2>&1 || return 1
	(cd /tmp/back && sha256sum -c "$1.sums" >/dev/null)
}
# clean: caches dropped, then e2fsck reads the whole filesystem and finds nothing to fix.
clean() {
	sync
	w /proc/sys/vm/drop_caches 3
	e2fsck -fn "$D" >/tmp/fsck.out 2>&1 || { sed 's/^/# /' /tmp/fsck.out; return 1; }
}

rxe_add 1
A=$DEV
rxe_add 1
B=$DEV
t "two devices ($A, $B)" test -n "$A" -a -n "$B"
t "$A has 10.9.0.1" w $RXE/addr "$A 1 10.9.0.1"
t "$B has 10.9.0.2" w $RXE/addr "$B 1 10.9.0.2"
t "a target of 1 LUN of 256 MiB on port 5610" w $T "5610 1 256"
t "log in" w $I/add_target "10.9.0.2 5610"
t "its disk appeared" disk
get /sys/block/${D#/dev/}/size
t "it has 256 MiB" test "$V" = 524288
t "mkfs.ext4" mkfs.ext4 -q -F -E nodiscard "$D"
t "the new filesystem is clean" clean
t "files of many sizes" files /tmp/a a
t "written into it" put /tmp/a
t "the filesystem is clean" clean
t "the files read back the same" verify /tmp/a
t "log out" w $I/remove_target "10.9.0.2 5610"
t "log in again" w $I/add_target "10.9.0.2 5610"
t "the disk is back" disk
t "the filesystem is still clean" clean
t "the files still read back the same" verify /tmp/a

# 1% of the frames dropped: retransmissions, the same bytes.
t "1% of the frames dropped" w $F "drop=10000"
t "more files" files /tmp/b b
t "written into it" put /tmp/b
t "the filesystem is clean" clean
t "the new files read back the same" verify /tmp/b
t "and the first ones" verify /tmp/a
t "frames pass again" w $F "off"

t "log out" w $I/remove_target "10.9.0.2 5610"
t "the disk went" test ! -e "$D"
t "stop the target" w $T ""
rm -rf /tmp/a /tmp/a.sums /tmp/b /tmp/b.sums /tmp/back /tmp/cmds /tmp/debugfs.out /tmp/fsck.out
rxe_remove "$A"
rxe_remove "$B"

load_drivers
done_testing
