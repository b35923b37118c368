# Helpers for the guest's scripts (busybox sh), sourced as: . "$OIB_GUEST/lib.sh"
# Integration scripts print KTAP-ish lines through t() and end with done_testing (exit status 0 when
# all checks passed).  Modules are at $OIB_KO/NAME.ko; oib_core and oib_rxe are loaded when a script
# starts and must be loaded again when it ends.  Every process costs ~0.1 s in the debug guest, so
# these helpers use shell builtins only (read, globs) and no $(...).

OIB_KO=${OIB_KO:-/oib/ko}
OIB_GUEST=${OIB_GUEST:-/oib/guest}
RXE_CTL=/sys/module/oib_rxe/parameters
_n=0
_failed=0

# t DESCRIPTION COMMAND [ARGS...]: runs one check and prints "ok N DESCRIPTION" or "not ok N ...".
t() {
	_d=$1
	shift
	_n=$((_n + 1))
	if "$@"; then
		echo "ok $_n $_d"
	else
		echo "not ok $_n $_d"
		_failed=$((_failed + 1))
	fi
}

# fails COMMAND [ARGS...]: succeeds when the command fails.
fails() { ! "$@" 2>/dev/null; }

# done_testing: prints the plan and exits with the overall status.
done_testing() {
	echo "1..$_n"
	[ $_failed -eq 0 ] || echo "# $_failed of $_n checks failed"
	exit $((_failed != 0))
}

# oib_devices: sets DEVS to the names under /sys/class/oib, space-separated.
oib_devices() {
	DEVS=
	for _p in /sys/class/oib/*; do
		[ -e "$_p" ] && DEVS="$DEVS ${_p##*/}"
	done
	DEVS=${DEVS# }
}

# rxe_add NPORTS: creates a software device; sets DEV to its name (the new entry in /sys/class/oib).
rxe_add() {
	DEV=
	oib_devices
	_before=" $DEVS "
	echo "$1" >$RXE_CTL/add || return 1
	oib_devices
	for _d in $DEVS; do
		case $_before in *" $_d "*) ;; *) DEV=$_d; return 0 ;; esac
	done
	return 1
}

# rxe_remove NAME: removes a software device.
rxe_remove() { echo "$1" >$RXE_CTL/remove; }

# get FILE: sets V to the first line of FILE (a sysfs attribute).
get() { V=; read -r V <"$1"; }

# is_zero VALUE: true for an all-zero GID or P_Key ("0000:...:0000", "0x0000", "0").
is_zero() { case $1 in *[1-9a-fA-F]*) return 1 ;; esac; }

# oib_pcap_dump FABRIC...: stops the capture on each fabric (started with
# "echo start [max_bytes] >/sys/kernel/debug/oib_rxe/fabrics/<name>/capture") and prints it on the
# console in the format tools/pcap-from-log.sh pulls out on the host.
oib_pcap_dump() {
	read -r _lvl _rest </proc/sys/kernel/printk
	echo 1 >/proc/sys/kernel/printk
	for _n in "$@"; do
		_f=/sys/kernel/debug/oib_rxe/fabrics/$_n/capture
		if [ ! -e "$_f" ]; then
			echo "OIB-PCAP-MISSING $_n"
			continue
		fi
		echo stop >"$_f"
		echo "OIB-PCAP-BEGIN $_n"
		base64 "$_f"
		echo "OIB-PCAP-END $_n"
	done
	echo "$_lvl" >/proc/sys/kernel/printk
}
