#!/bin/sh
# Integration test: the in-tree SRP initiator against oib_srpt, as a user with an existing Linux
# host would log in.  ib_srp over the in-tree rdma_cm and rdma_rxe (rxe0 on one end of a veth pair
# in the initial namespace, the only one the in-tree rxe works in), oib_srpt reached through an
# oib_rxe device on the other end in a namespace of its own (RoCEv2 between them).  ib_srp keeps
# every default: an IU of 8 KiB with immediate data, a channel per CPU.  The target port ID as
# oib_srpt lists it (the device's node GUID); a disk; data written with dd in 4 KiB (immediate
# data) and 1 MiB (RDMA READ) writes and read back; ext4 made, files copied, e2fsck clean,
# remounted and every file compared; a LUN reset (task management); the target's QPs reset
# under the mounted filesystem: ib_srp logs in again and the files still read back; logout.
# Loads the in-tree modules it needs and unloads them after.  Fails (exit status 4) without oib_srpt,
# iproute2's ip, the in-tree SRP initiator or e2fsprogs.
. "$OIB_GUEST/lib.sh"
. "$OIB_GUEST/srp.sh"

srp_interop_needs oib_srpt srp "in-tree SRP initiator"
P=5630
M=/mnt/srpi
S=/sys/class/infiniband_srp/srp-rxe0-1
IDS=/sys/kernel/debug/oib_srpt/port_ids

# counters: what the target saw, both devices' counters, the SRP kernel messages (after a failure)
counters() {
	sed 's/^/# target: /' $TD
	echo "# uo:" $(grep -v ' 0$' /sys/kernel/debug/oib/uo/port1)
	echo "# uo's fabric:" $(cat /sys/kernel/debug/oib_rxe/fabrics/uo/ports)
	echo "# rxe0:" $(rdma statistic show link rxe0/1 2>&1)
	dmesg | grep -i srp | tail -20 | sed 's/^/# /'
}
# ids: ID is uo's target port ID as oib_srpt lists it ("id_ext=GUID,ioc_guid=GUID").
ids() {
	ID=
	[ -e $IDS ] || return 1
	while read -r _dev _id; do [ "$_dev" = uo ] && ID=$_id; done <$IDS
	test -n "$ID"
}
# guid_is: both halves of ID are uo's node GUID (sysfs writes it as 4 groups of 4 digits).
guid_is() {
	get /sys/class/oib/uo/node_guid
	_g=$(echo "$V" | tr -d :)
	test "$ID" = "id_ext=$_g,ioc_guid=$_g" || { echo "# $ID, node GUID $V"; false; }
}
# host: H is the SCSI host ib_srp added for the target (its scsi_host's id_ext matches).
host() {
	H=
	for _h in /sys/class/scsi_host/host*; do
		[ -e $_h/id_ext ] && [ -e $_h/ch_count ] && H=${_h##*/}
	done
	test -n "$H"
}
# more_than KEY N: the target's counter KEY is above N.
more_than() { target_stat "$1" && [ "$V" -gt "$2" ] || { echo "# $1 $V"; false; }; }
# relogins: says so, with the counters, if the target counted more logins than RL (then RL is
# that count).  Not a
# failure: ib_srp logs in again and requeues, and the data checks still hold.  Under a loaded
# TCG host oib's RDMA READs time out now and then (the QP's local ACK timeout is the 537 ms
# ib_srp's CM REQ asks for), and the in-tree rxe, replaying a duplicate READ after the command's
# MR was invalidated, moves its QP to the error state.
relogins() {
	target_stat logins
	[ "$V" = "$RL" ] && return 0
	echo "# ib_srp logged in again on its own: $V logins, $RL before"
	RL=$V
	counters
}
zero() { target_stat "$1" && [ "$V" = 0 ] || { echo "# $1 $V"; false; }; }
# until_logins N: the target counted N logins at least (at most 60 s).
until_logins() {
	_i=0
	while [ $_i -lt 300 ]; do
		target_stat logins && [ "$V" -ge "$1" ] && return 0
		sleep 0.2
		_i=$((_i + 1))
	done
	echo "# logins $V"
	return 1
}
# finish: the namespace, the devices and the in-tree modules go; the plan.
finish() {
	w $T ""
	rm -rf /tmp/a /tmp/a.sums /tmp/b /tmp/b.sums /tmp/r /tmp/r1 /tmp/fsck.out
	t "rxe0 goes" rdma link delete rxe0
	ip netns del oibI
	t "deleting the namespace removes uo" wait_gone /sys/class/oib/uo
	ip link del vi 2>/dev/null
	unload_extra
	done_testing
}

t "in-tree rdma_rxe, rdma_cm, ib_srp loaded" load_extra srp || done_testing
t "netns pair with a veth" netns_pair - vi 10.11.0.1 fd11::1 oibI vo 10.11.0.2 fd11::2 ||
	done_testing
t "in-tree rxe0 on vi" rdma link add rxe0 type rxe netdev vi
t "oib device uo on vo" ip netns exec oibI oib link add uo type rxe netdev vo || done_testing
t "uo's port is ACTIVE" wait_line /sys/class/oib/uo/ports/1/state "4: ACTIVE"
t "uo has 10.11.0.2" wait_gid uo 0000:0000:0000:0000:0000:ffff:0a0b:0002
t "ib_srp serves rxe0's port 1" until20 test -e $S/add_target
t "a target of 1 LUN of 128 MiB on port $P" w $T "$P 1 128"
# older oib_srpt had the one fixed ID "oib_srpt": the login below then shows what it refuses
t "oib_srpt lists uo's target port ID" ids || ID=id_ext=6f69625f73727074,ioc_guid=0
t "id_ext and ioc_guid are uo's node GUID" guid_is

N=$(nproc)
RL=$N
t "ib_srp logs in with its defaults" w $S/add_target "$ID,dest=10.11.0.2:$P" ||
	{ counters; finish; }
t "a channel per CPU live at the target ($N)" until20 channels_are live $N
t "ib_srp's host" host
get /sys/class/scsi_host/$H/ch_count
t "its channel count is $N" test "$V" = "$N"
t "its disk appeared" disk
get /sys/block/${D#/dev/}/size
t "it has 128 MiB" test "$V" = 262144

# dd: 4 KiB writes go as immediate data, 1 MiB ones as descriptors the target RDMA READs
target_stat imm
I0=$V
t "4 MiB of random data" dd if=/dev/urandom of=/tmp/r bs=64k count=64 2>/dev/null
head -c 1048576 /tmp/r >/tmp/r1
t "1 MiB written in 4 KiB direct writes" dd if=/tmp/r1 of="$D" bs=4k oflag=direct 2>/dev/null
t "the target took them as immediate data" more_than imm $((I0 + 255))
t "read back the same (direct)" sh -c "dd if=$D bs=64k count=16 iflag=direct 2>/dev/null | cmp - /tmp/r1"
t "4 MiB written at 64 MiB in 1 MiB writes" dd if=/tmp/r of="$D" bs=1M seek=64 oflag=direct 2>/dev/null
w /proc/sys/vm/drop_caches 3
t "read back the same" sh -c "dd if=$D bs=1M skip=64 count=4 2>/dev/null | cmp - /tmp/r"
t "and the first MiB" sh -c "dd if=$D bs=64k count=16 2>/dev/null | cmp - /tmp/r1"
t "every channel served commands" channels_are cmds $N
relogins

mkdir -p $M
t "mkfs.ext4" mkfs_ext4 "$D"
t "mount it" mnt
fs_round /tmp/a a "files of many sizes"

relogins

# task management: a LUN reset through the SCSI midlayer is ib_srp's SRP_TSK_MGMT
target_stat tsk_mgmt
K0=$V
t "a LUN reset succeeds" scsi_reset "$D"
t "the target answered a task management request" more_than tsk_mgmt "$K0"

# the target's QPs reset (a fault): ib_srp logs in again, the filesystem serves on
for r in /sys/class/srp_remote_ports/port-${H#host}:*; do w $r/reconnect_delay 1; done
target_stat logins
L=$V
t "reset the target's QPs" w $TD reset
t "ib_srp logged in again" until_logins $((L + N))
t "its channels live again" until20 channels_are live $N
fs_round /tmp/b b "more files"
t "and the first ones" verify /tmp/a
t "unmount" umount $M
t "no IU beyond its credits" zero over_limit

t "log out" w /sys/class/srp_remote_ports/port-${H#host}:1/delete 1
t "the target's channels went" until20 channels_are live 0
t "the disk went" wait_gone "$D"
finish
