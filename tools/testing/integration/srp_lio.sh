#!/bin/sh
# Integration test: oib_srp against the in-tree SRP target, LIO's ib_srpt over the in-tree rdma_cm
# and rdma_rxe (rxe0 on one end of a veth pair, in the initial namespace), set up through configfs
# as blktests does: a RAM disk backstore (rd_mcp, 64 MiB) as LUN 0 of the target port named by
# rxe0's port GUID, ACLs for the session names ib_srpt gives RDMA CM logins, ib_srpt listening on
# the RDMA CM.  oib_srp, through an oib_rxe device on the other end in a namespace of its own, logs
# in with the in-tree grammar (id_ext and ioc_guid ib_srpt's service GUID: rxe0's node GUID): a
# disk of its size; dd with the data read back; ext4 made, files copied, e2fsck clean, remounted
# and compared; a LUN reset; the target port disabled and enabled again (a target reset): oib_srp
# logs in again and the filesystem serves on, clean; logout; the configuration removed.  Loads the
# in-tree modules it needs and unloads them after.  Fails (exit status 4) without oib_srp,
# iproute2's ip, the in-tree SRP target or e2fsprogs.
. "$OIB_GUEST/lib.sh"
. "$OIB_GUEST/srp.sh"

srp_interop_needs oib_srp lio "in-tree SRP target"
P=5640
C=/sys/kernel/config/target
M=/mnt/srpl
DEST=10.11.0.1:$P

# ldisk: D is the LIO LUN's disk (vendor LIO-ORG), once sd attached it (at most 20 s).
has_ldisk() {
	D=
	for _b in /sys/block/sd*; do
		[ -e "$_b/device/vendor" ] || continue
		get "$_b/device/vendor"
		case $V in LIO*) D=/dev/${_b##*/}; return 0 ;; esac
	done
	return 1
}
lstate_is() { state_of "$DEST"; [ "$V" = "$1" ]; }
lstate_is_not() { ! lstate_is "$1"; }

t "in-tree rdma_rxe, rdma_cm, ib_srpt loaded" load_extra lio || done_testing
grep -q ' /sys/kernel/config ' /proc/mounts || mount -t configfs none /sys/kernel/config
t "netns pair with a veth" netns_pair - vi 10.11.0.1 fd11::1 oibI vo 10.11.0.2 fd11::2 ||
	done_testing
t "in-tree rxe0 on vi" rdma link add rxe0 type rxe netdev vi
t "oib device uo on vo" ip netns exec oibI oib link add uo type rxe netdev vo || done_testing
t "uo's port is ACTIVE" wait_line /sys/class/oib/uo/ports/1/state "4: ACTIVE"
t "uo has 10.11.0.2" wait_gid uo 0000:0000:0000:0000:0000:ffff:0a0b:0002
get /sys/class/infiniband/rxe0/ports/1/gids/0
PG=${V#fe80:0000:0000:0000:}
get /sys/class/infiniband/rxe0/node_guid
SG=$(echo "$V" | tr -d :)
T=$C/srpt/$PG/tpgt_1
R=$C/core/rd_mcp_0/d
t "a RAM disk backstore of 64 MiB" sh -c "mkdir -p $R && echo rd_pages=16384 >$R/control && echo 1 >$R/enable"
t "ib_srpt's port of rxe0 ($PG)" mkdir -p $T
t "LUN 0 the RAM disk" sh -c "mkdir $T/lun/lun_0 && ln -s $R $T/lun/lun_0/d"
for a in 10.11.0.1 10.11.0.2; do
	t "an ACL for $a with LUN 0" sh -c "mkdir -p $T/acls/$a/lun_0 && ln -s $T/lun/lun_0 $T/acls/$a/lun_0/l"
done
t "the port enabled" w $T/enable 1
t "ib_srpt listens on the RDMA CM port $P" w $C/srpt/discovery_auth/rdma_cm_port $P

t "oib_srp logs in (id_ext, ioc_guid: $SG)" login uo "id_ext=$SG,ioc_guid=$SG,dest=$DEST" ||
	dmesg | grep -i srp | tail -10 | sed 's/^/# /'
t "the host is live" until20 lstate_is live
t "its disk appeared" until20 has_ldisk
get /sys/block/${D#/dev/}/size
t "it has 64 MiB" test "$V" = 131072
t "4 MiB of random data" dd if=/dev/urandom of=/tmp/r bs=64k count=64 2>/dev/null
t "written in 64 KiB direct writes" dd if=/tmp/r of="$D" bs=64k oflag=direct 2>/dev/null
w /proc/sys/vm/drop_caches 3
t "read back the same" sh -c "dd if=$D bs=64k count=64 2>/dev/null | cmp - /tmp/r"
mkdir -p $M
t "mkfs.ext4" mkfs_ext4 "$D"
t "mount it" mnt
fs_round /tmp/a a "files of many sizes"

# task management: a LUN reset through the SCSI midlayer is oib_srp's SRP_TSK_MGMT to LIO
t "a LUN reset succeeds" scsi_reset "$D"
# the target resets: its port disabled (ib_srpt disconnects every channel and refuses logins),
# then enabled again; oib_srp holds the commands, logs in again and the filesystem serves on
t "the target port disabled" w $T/enable 0
t "oib_srp lost the connection" until20 lstate_is_not live
t "the target port enabled again" w $T/enable 1
t "oib_srp logged in again" until20 lstate_is live
fs_round /tmp/b b "more files"
t "and the first ones" verify /tmp/a
t "unmount" umount $M
t "log out" logout "$DEST"
t "the disk went" wait_gone "$D"

w $C/srpt/discovery_auth/rdma_cm_port 0
w $T/enable 0
for a in 10.11.0.1 10.11.0.2; do
	rm $T/acls/$a/lun_0/l
	rmdir $T/acls/$a/lun_0 $T/acls/$a
done
rm $T/lun/lun_0/d
rmdir $T/lun/lun_0 $T $C/srpt/$PG
# the fabric's directory holds ib_srpt, the backstore's target_core_mod
t "the configuration removed" rmdir $C/srpt $R $C/core/rd_mcp_0
rm -rf /tmp/a /tmp/a.sums /tmp/b /tmp/b.sums /tmp/r /tmp/fsck.out
t "rxe0 goes" rdma link delete rxe0
ip netns del oibI
t "deleting the namespace removes uo" wait_gone /sys/class/oib/uo
ip link del vi 2>/dev/null
unload_extra
done_testing
