#!/bin/sh
# Integration test: oib_srpt's targets made through configfs, with LUNs backed by a block device
# (a brd RAM disk), a file on tmpfs and memory.  Through oib_srp: each LUN a disk of its size;
# data written to the disks is in the RAM disk and the file (read there directly), and what is
# written there reads back through the disks; an ext4 filesystem on the RAM disk's LUN mounted,
# written, checked clean; the configuration refused while the target serves; rmdir stops it.
# Fails (exit status 4) without both modules, configfs, brd or e2fsprogs.
. "$OIB_GUEST/lib.sh"
. "$OIB_GUEST/srp.sh"

C=/sys/kernel/config/oib_srpt
loaded oib_srp && loaded oib_srpt || { echo "# oib_srp or oib_srpt is not loaded"; exit 4; }
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
[ -d $C ] || { echo "# no $C"; exit 4; }
[ -e $OIB_KO/extra/brd.ko ] && command -v mkfs.ext4 >/dev/null ||
	{ echo "# no brd or no e2fsprogs in the guest"; exit 4; }
P=5620
M=/mnt/srp
# size D MIB: the disk D has MIB MiB.
size() { get /sys/block/${1#/dev/}/size; [ "$V" = $(($2 * 2048)) ]; }

BRD=
loaded brd || { insmod $OIB_KO/extra/brd.ko rd_nr=1 rd_size=65536 && BRD=1; }
t "a RAM disk of 64 MiB" test -b /dev/ram0
mkdir -p /mnt/tmpfs $M
t "tmpfs" mount -t tmpfs none /mnt/tmpfs
t "a file of 24 MiB on it" dd if=/dev/zero of=/mnt/tmpfs/lun bs=1M count=24
srp_devices

t "a target in configfs" mkdir $C/t1
t "LUN 256 is refused" fails mkdir $C/t1/256
t "LUN 0" mkdir $C/t1/0
t "LUN 1" mkdir $C/t1/1
t "LUN 2" mkdir $C/t1/2
t "LUN 0 is the RAM disk" w $C/t1/0/path /dev/ram0
t "LUN 1 the file" w $C/t1/1/path /mnt/tmpfs/lun
t "LUN 2 16 MiB of memory" w $C/t1/2/size_mib 16
t "no port: enabling is refused" fails w $C/t1/enable 1
t "port $P" w $C/t1/port $P
t "LUN 1 a file that is not there" w $C/t1/1/path /mnt/tmpfs/none
t "enabling is refused" fails w $C/t1/enable 1
t "LUN 1 the file again" w $C/t1/1/path /mnt/tmpfs/lun
t "enable" w $C/t1/enable 1
t "it says so" line_is $C/t1/enable 1
t "the port cannot change now" fails w $C/t1/port 5621
t "nor a LUN" fails w $C/t1/2/size_mib 8

t "log in" login $A "10.9.0.2 $P"
t "LUN 1's disk" disk 1
F1=$D
t "has 24 MiB" size $F1 24
get /sys/block/${F1#/dev/}/device/model
t "a file LUN ($V)" test "$V" = "srpt file LUN"
t "LUN 2's disk" disk 2
t "has 16 MiB" size $D 16
t "LUN 0's disk" disk 0
R0=$D
t "has 64 MiB" size $R0 64

t "4 MiB of random data" dd if=/dev/urandom of=/tmp/a bs=64k count=64
t "written to LUN 1 at 1 MiB" dd if=/tmp/a of=$F1 bs=64k seek=16 oflag=direct
t "the file has it" cmp -n 4194304 /tmp/a /mnt/tmpfs/lun 0 1048576
t "and zeros before" cmp -n 1048576 /dev/zero /mnt/tmpfs/lun
t "written into the file at 12 MiB" dd if=/tmp/a of=/mnt/tmpfs/lun bs=64k seek=192 conv=notrunc
t "read through LUN 1" dd if=$F1 of=/tmp/b bs=64k skip=192 count=64 iflag=direct
t "the same" cmp /tmp/a /tmp/b
t "written to LUN 0" dd if=/tmp/a of=$R0 bs=64k oflag=direct
t "the RAM disk has it" cmp -n 4194304 /tmp/a /dev/ram0

t "mkfs.ext4 on LUN 0" mkfs_ext4 $R0
t "mount it" mount_ext4 $R0 $M
t "a file in it" cp /tmp/a $M/a
t "unmount" umount $M
t "clean, seen through the disk" e2fsck -fn $R0
t "and on the RAM disk" e2fsck -fn /dev/ram0
t "mount it again" mount_ext4 $R0 $M
t "the file reads back the same" cmp /tmp/a $M/a
t "unmount" umount $M

t "log out" logout 10.9.0.2:$P
t "disable" w $C/t1/enable 0
t "LUN 2 can change now" w $C/t1/2/size_mib 8
t "enable again" w $C/t1/enable 1
t "log in" login $A "10.9.0.2 $P"
t "LUN 2's disk" disk 2
t "has 8 MiB" size $D 8
t "LUN 1 still has the data" dd if=/mnt/tmpfs/lun of=/tmp/b bs=64k skip=16 count=64
t "the same" cmp /tmp/a /tmp/b
t "log out" logout 10.9.0.2:$P
t "the LUNs go" rmdir $C/t1/0 $C/t1/1 $C/t1/2
t "the target goes, enabled" rmdir $C/t1
t "port $P is free again" w $T "$P 1 1"
t "stop that target" w $T ""

rm -f /tmp/a /tmp/b
umount /mnt/tmpfs
[ -z "$BRD" ] || t "unload brd" rmmod brd
srp_devices_remove

load_drivers
done_testing
