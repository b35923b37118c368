#!/bin/sh
# Integration test: an ext4 filesystem on an oib_srpt memory LUN of 256 MiB seen through oib_srp.
# mkfs.ext4, mounted, files of many sizes copied in, synced, unmounted, checked clean by e2fsck,
# mounted again and every byte compared by checksum; logged out and in again, the same.  Then
# with 1% of the fabric's frames dropped; with the target's QP reset under writes (the initiator
# logs in again, the writes succeed, the filesystem is clean); with oib_srpt unloaded under
# writes (they fail once fail_timeout has passed, nothing hangs, the filesystem unmounts).
# Last: logged out, both modules unloaded (the guest's kmemleak scan follows at the end).
# Fails (exit status 4) without both modules or without e2fsprogs.
. "$OIB_GUEST/lib.sh"
. "$OIB_GUEST/srp.sh"

loaded oib_srp && loaded oib_srpt || { echo "# oib_srp or oib_srpt is not loaded"; exit 4; }
command -v mkfs.ext4 >/dev/null && command -v e2fsck >/dev/null ||
	{ echo "# no e2fsprogs in the guest"; exit 4; }
M=/mnt/srp
P=5610

FS_SIZES="0 1 511 512 513 4095 4096 4097 65543 262144 1048579 3145728"
# writer: rewrites /tmp/c into the filesystem with direct I/O until /tmp/stop exists or a write fails.
writer() {
	rm -f /tmp/stop
	while dd if=/tmp/c of=$M/c bs=64k oflag=direct conv=notrunc 2>/dev/null; do
		[ -e /tmp/stop ] && return 0
	done
	return 1
}
# writing N: the target served N more commands since the writer started (at most 60 s).
writing() {
	_i=0
	while [ $_i -lt 300 ]; do
		target_stat cmds
		[ "$V" -ge $(($1 + C0)) ] && return 0
		sleep 0.2
		_i=$((_i + 1))
	done
	return 1
}
logins_are() { target_stat logins && [ "$V" = "$1" ]; }

mkdir -p $M
srp_devices
t "a target of 1 LUN of 256 MiB on port $P" w $T "$P 1 256"
t "log in" login $A "10.9.0.2 $P"
t "its disk appeared" disk
get /sys/block/${D#/dev/}/size
t "it has 256 MiB" test "$V" = 524288
t "mkfs.ext4" mkfs_ext4 "$D"
t "the new filesystem is clean" clean
t "mount it" mnt
fs_round /tmp/a a "files of many sizes"
t "unmount" umnt
t "log out" logout 10.9.0.2:$P
t "log in again" login $A "10.9.0.2 $P"
t "the disk is back" disk
t "the filesystem is still clean" clean
t "mount it" mnt
t "the files still read back the same" verify /tmp/a

# 1% of the frames dropped: retransmissions, the same bytes.
t "1% of the frames dropped" w $F "drop=10000"
fs_round /tmp/b b "more files"
t "and the first ones" verify /tmp/a
t "frames pass again" w $F "off"

# The target's QP reset under writes: the initiator logs in again and the writes go on.
t "4 MiB to write" dd if=/dev/urandom of=/tmp/c bs=64k count=64
target_stat cmds
C0=$V
writer &
W=$!
t "writes under way" writing 20
target_stat logins
L=$V
t "reset the target's QP" w $TD reset
nch
t "the initiator logged in again ($N channels)" until20 logins_are $((L + N))
t "the host is live" until_state $P live
target_stat cmds
C0=$V
t "more writes" writing 40
touch /tmp/stop
t "the writer ended" ended $W
t "every write succeeded" test "$RC" = 0
t "unmount" umnt
t "the filesystem is clean" clean
t "mount it again" mnt
t "the file written reads back the same" cmp /tmp/c $M/c
t "and the others" verify /tmp/a

# oib_srpt unloaded under writes: they fail after fail_timeout; nothing hangs.
t "fail_timeout 3" w $I/fail_timeout 3
target_stat cmds
C0=$V
writer &
W=$!
t "writes under way" writing 20
s0=$(date +%s)
t "rmmod oib_srpt" unload oib_srpt
t "the host gave up" until_state $P failed
t "the writer ended" ended $W
t "a write failed" test "$RC" != 0
s1=$(date +%s)
t "not before fail_timeout ($((s1 - s0)) s)" test $((s1 - s0)) -ge 3
t "the filesystem unmounts" timeout 60 umount $M
t "remove the host" logout 10.9.0.2:$P
t "the disk went" test ! -e "$D"
t "fail_timeout back to 15" w $I/fail_timeout 15
t "oib_srpt loads again" load oib_srpt

t "unload oib_srpt" unload oib_srpt
t "unload oib_srp" unload oib_srp
rm -rf /tmp/a /tmp/a.sums /tmp/b /tmp/b.sums /tmp/c /tmp/stop /tmp/fsck.out
srp_devices_remove

load_drivers
done_testing
