# The SRP integration scripts' helpers (sourced after lib.sh): the initiator's and the target's
# controls, two oib_rxe devices addressed for a login, a login and a logout through the
# initiator's class files, the host's state, its disk, a background job's end.
T=/sys/module/oib_srpt/parameters/target
TD=/sys/kernel/debug/oib_srpt/target
I=/sys/module/oib_srp/parameters
SC=/sys/class/oib_srp
F=/sys/kernel/debug/oib_rxe/fabrics/default/faults
w() { echo "$2" >"$1"; }

# login DEV TARGET: logs in to TARGET ("ADDRESS PORT" or "...,dest=IP:PORT") through DEV's
# port 1 (its srp-DEV-1/add_target); returns when the host is there.
login() { w $SC/srp-$1-1/add_target "$2"; }
# host_of DEST: H is the SCSI host's directory logged in to DEST ("10.9.0.2:5600"), if any.
host_of() {
	H=
	for _h in /sys/class/scsi_host/host*; do
		[ -e $_h/dest ] && read -r _d <$_h/dest 2>/dev/null || continue
		[ "$_d" = "$1" ] && { H=$_h; return 0; }
	done
	return 1
}
# logout DEST: removes the host logged in to DEST (its remove_target); returns when it is gone.
logout() { host_of "$1" || { echo "# no host for $1"; return 1; }; w $H/remove_target 1; }
# state_of DEST: V is the state of the host logged in to DEST, empty without one.
state_of() { V=; host_of "$1" && read -r V <$H/conn_state 2>/dev/null; true; }

# srp_devices: two devices, A (10.9.0.1) and B (10.9.0.2, where the target listens).
srp_devices() {
	rxe_add 1
	A=$DEV
	rxe_add 1
	B=$DEV
	t "two devices ($A, $B)" test -n "$A" -a -n "$B"
	t "$A has 10.9.0.1" oib addr add "$A/1" 10.9.0.1
	t "$B has 10.9.0.2" oib addr add "$B/1" 10.9.0.2
}
srp_devices_remove() {
	rxe_remove "$A"
	rxe_remove "$B"
}

# state PORT: V is the state of the host logged in to 10.9.0.2 PORT ("live", "down",
# "reconnecting", "failed"), from its conn_state attribute.
state() { state_of "10.9.0.2:$1"; }
# until_state PORT S... : waits (at most 60 s) until the host is in one of the states.
until_state() {
	_port=$1
	shift
	_i=0
	while [ $_i -lt 300 ]; do
		state $_port
		for _w; do [ "$V" = "$_w" ] && return 0; done
		sleep 0.2
		_i=$((_i + 1))
	done
	echo "# host still $V"
	return 1
}
# disk [LUN]: D is the target's disk (of that LUN: its SCSI address ends in :LUN), once sd has
# attached it (at most 20 s).
disk() {
	D=
	_i=0
	while [ $_i -lt 100 ]; do
		for _b in /sys/block/sd*; do
			[ -e "$_b/device/vendor" ] || continue
			get "$_b/device/vendor"
			case $V in OIB*) ;; *) continue ;; esac
			if [ -n "$1" ]; then
				set -- "$1" "$_b"/device/scsi_device/*
				[ "${2##*:}" = "$1" ] || continue
			fi
			D=/dev/${_b##*/}
			return 0
		done
		sleep 0.2
		_i=$((_i + 1))
	done
	return 1
}
# target_stat KEY: V is the target's counter KEY (logins, cmds, ...: its debugfs file's first line).
target_stat() {
	V=
	_k=$1
	read -r _l <$TD || return 1
	set -- $_l
	while [ $# -ge 2 ]; do
		[ "$1" = "$_k" ] && { V=$2; return 0; }
		shift 2
	done
	return 1
}
# channels_with WHAT: V is how many of the target's channels are live (WHAT "live") or have
# served commands (WHAT "cmds"), from its debugfs file's lines "channel STATE in_flight N
# granted N cmds N".
channels_with() {
	V=0
	while read -r _w _s _k1 _v1 _k2 _v2 _k3 _v3; do
		[ "$_w" = channel ] || continue
		case $1 in
		live) [ "$_s" = LIVE ] && V=$((V + 1)) ;;
		cmds) [ "$_k3" = cmds ] && [ "$_v3" -gt 0 ] && V=$((V + 1)) ;;
		esac
	done <$TD
	true
}
# channels_are WHAT N: channels_with WHAT gives N.
channels_are() { channels_with "$1"; [ "$V" -eq "$2" ] || { echo "# $V channels $1"; false; }; }
# nch: N is the channels a host opens here: one a CPU (oib_rxe has a completion vector per
# CPU), 4 at most (oib_srp's ch_count).
nch() { N=$(nproc); [ "$N" -gt 4 ] && N=4; true; }
# mkfs_ext4 DEV, mount_ext4 DEV DIR: an ext4 filesystem whose journal and inode tables are not
# zeroed, by mkfs or in the background after mounting (through a SCSI disk without WRITE SAME
# that is zero pages written, slowly): the tests' LUNs start zeroed, and e2fsck reads no inode
# table marked unused.
mkfs_ext4() { mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=1,lazy_journal_init=1 "$1"; }
mount_ext4() { mount -t ext4 -o noinit_itable "$1" "$2"; }
# ended PID: waits (at most 60 s) for the background job to end; its status in RC.
ended() {
	_i=0
	while [ $_i -lt 300 ] && [ -d /proc/$1 ]; do sleep 0.2; _i=$((_i + 1)); done
	[ ! -d /proc/$1 ] || return 1
	wait "$1"
	RC=$?
}

# srp_interop_needs MODULE GROUP WHAT: the interop scripts' prerequisites, each missing one a
# failure (exit status 4): MODULE loaded, iproute2's ip, the in-tree modules of GROUP (WHAT they
# are, in the message) and e2fsprogs.
srp_interop_needs() {
	loaded $1 || { echo "# $1 is not loaded"; exit 4; }
	case $(ip -V 2>&1) in *iproute2*) ;; *) echo "# no iproute2 ip"; exit 4 ;; esac
	[ -e $OIB_KO/extra-$2.order ] || { echo "# no $3"; exit 4; }
	command -v mkfs.ext4 >/dev/null && command -v e2fsck >/dev/null ||
		{ echo "# no e2fsprogs in the guest"; exit 4; }
}

# A filesystem on the SRP disk $D, mounted at $M.
# files DIR TAG: files of the sizes $FS_SIZES in DIR (names f<size>-TAG), checksums in DIR.sums.
FS_SIZES="0 1 511 4096 4097 8192 65543 1048579 3145728"
files() {
	rm -rf "$1" && mkdir -p "$1" || return 1
	for _n in $FS_SIZES; do
		head -c $_n /dev/urandom >"$1/f$_n-$2" || return 1
	done
	(cd "$1" && sha256sum f*) >"$1.sums"
}
# verify DIR: the files of DIR, read back from the filesystem's copy, have DIR's checksums.
verify() { (cd "$M/${1##*/}" && sha256sum -c "$1.sums" >/dev/null); }
mnt() { mount_ext4 "$D" $M; }
# umnt: unmounted, the block device's cache dropped: what is read next comes from the target.
umnt() { umount $M && w /proc/sys/vm/drop_caches 3; }
clean() { e2fsck -fn "$D" >/tmp/fsck.out 2>&1 || { sed 's/^/# /' /tmp/fsck.out; return 1; }; }
# fs_round DIR TAG WHAT: WHAT (files) made in DIR, copied in, synced, unmounted, e2fsck clean,
# mounted again and read back the same.
fs_round() {
	t "$3" files "$1" "$2"
	t "copied into it" cp -r "$1" $M/
	t "sync" sync
	t "unmount" umnt
	t "the filesystem is clean" clean
	t "mount it again" mnt
	t "the $3 read back the same" verify "$1"
}
