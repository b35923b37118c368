#!/bin/sh
# Integration test: oib_srp logs in to oib_srpt over two oib_rxe devices on one fabric; the
# target's memory LUNs appear as SCSI disks; data written with dd reads back the same, through
# the disk and after the page cache is dropped; reads from every CPU run on every channel; the initiator removes the host and the target
# stops.  Fails (exit status 4) when either module is not loaded.  Leaves every driver module loaded.
. "$OIB_GUEST/lib.sh"
. "$OIB_GUEST/srp.sh"

loaded oib_srp && loaded oib_srpt || { echo "# oib_srp or oib_srpt is not loaded"; exit 4; }
srp_devices
t "a target of 2 LUNs of 16 MiB on port 5600" w $T "5600 2 16"
t "no target on another port" fails login $A "10.9.0.2 5601"
t "log in" login $A "10.9.0.2 5600"
t "the host is listed" has_line $SC/srp-$A-1/targets "10.9.0.2:5600 host"
t "logging in twice is refused" fails login $A "10.9.0.2 5600"
# the midlayer scans and sd probes asynchronously
disks() {
	DISKS=
	for d in /sys/block/sd*; do
		[ -e "$d/device/vendor" ] || continue
		get "$d/device/vendor"
		case $V in OIB*) DISKS="$DISKS ${d##*/}" ;; esac
	done
	set -- $DISKS
	N=$#
}
i=0
while disks && [ $N -lt 2 ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
t "two disks appeared ($DISKS)" test $N -eq 2
set -- $DISKS
D=/dev/$1
get /sys/block/$1/size
t "$1 has 16 MiB" test "$V" = 32768
t "4 MiB of random data" dd if=/dev/urandom of=/tmp/a bs=64k count=64
t "dd it to $D" dd if=/tmp/a of=$D bs=64k conv=fsync
t "drop the caches" w /proc/sys/vm/drop_caches 3
t "read it back" dd if=$D of=/tmp/b bs=64k count=64
t "the same bytes" cmp /tmp/a /tmp/b
t "400 KiB at 9 MiB" dd if=/tmp/a of=$D bs=4k seek=2304 count=100 conv=fsync
t "drop the caches" w /proc/sys/vm/drop_caches 3
t "read them back" dd if=$D of=/tmp/b bs=4k skip=2304 count=100
t "what was written" dd if=/tmp/a of=/tmp/c bs=4k count=100
t "the same bytes" cmp /tmp/b /tmp/c
t "the first 4 MiB are still there" dd if=$D of=/tmp/b bs=64k count=64
t "unchanged" cmp /tmp/a /tmp/b
# Multichannel: a channel per hardware queue; direct reads from each CPU go on its own queue.
nch
t "$N channels live" until20 channels_are live $N
c=0
while [ $c -lt "$(nproc)" ]; do
	t "direct reads on CPU $c" taskset -c $c dd if=$D of=/dev/null bs=4k count=64 iflag=direct
	c=$((c + 1))
done
t "commands on each of the $N channels" channels_are cmds $N
t "remove the host" logout 10.9.0.2:5600
t "the disk went" test ! -e $D
t "removing it again is refused" fails logout 10.9.0.2:5600
t "stop the target" w $T ""
rm -f /tmp/a /tmp/b /tmp/c
srp_devices_remove

load_drivers
done_testing
