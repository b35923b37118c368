# The guest's shared prologue and helpers (busybox sh), sourced by /init, demo.sh, bench.sh and every
# integration script: . "$OIB_GUEST/lib.sh".  Every process costs ~0.1 s in the debug guest, so these
# helpers use shell builtins (read, globs, case) and no $(...).
#
# Files tools/initramfs.sh writes: $OIB_KO/NAME.ko (driver modules), $OIB_KO/order (their load order:
# dependencies first, then by name; unload is the reverse), $OIB_KO/depends (each module and ours it
# depends on, from its modinfo), $OIB_KO/plan (check mode: what to load
# and when), $OIB_KO/kunit/NAME.ko, $OIB_KO/deps/NAME.ko with $OIB_KO/deps.order (kernel modules ours
# and the benchmark need, in modprobe's order).
#
# Integration scripts print KTAP-ish lines through t() and end with done_testing (exit status 0
# when all checks passed).  The driver modules are loaded when a script starts and must be loaded
# again when it ends (load NAME does nothing for a loaded module).

export PATH=/bin OIB_KO=${OIB_KO:-/oib/ko} OIB_GUEST=${OIB_GUEST:-/oib/guest}
read -r CMDLINE </proc/cmdline
_n=0
_failed=0

# msg TEXT: a progress line with the guest's uptime; fail TEXT: a failure the host counts.
msg() {
	read -r _up _ </proc/uptime
	echo "oib-guest: $*  [$_up s]"
}
fail() { echo "oib-guest: FAIL: $*"; }

# words FILE: sets W to the lines of FILE as one space-separated string ("" if there is none).
words() {
	W=
	[ -e "$1" ] || return 0
	while read -r _w; do W="$W $_w"; done <"$1"
	W=${W# }
}

# backwards WORD...: sets R to the words in reverse order.
backwards() {
	R=
	for _w; do R="$_w $R"; done
	R=${R% }
}

# loaded NAME: the module is loaded.
loaded() { [ -d /sys/module/$1 ]; }

# load NAME [PARAMS...]: loads our module NAME ($OIB_KO/NAME.ko or $OIB_KO/kunit/NAME.ko) unless it
# is loaded; unload NAME: removes it.  Both report a failure and return non-zero when they fail.
load() {
	loaded "$1" && return 0
	_ko=$OIB_KO/$1.ko
	[ -e "$_ko" ] || _ko=$OIB_KO/kunit/$1.ko
	shift
	insmod "$_ko" "$@" || { fail "insmod ${_ko##*/}"; return 1; }
}
unload() { rmmod "$1" || { fail "rmmod $1"; return 1; }; }

# need NAME...: loads each of our modules NAME after the ones of ours it depends on ($OIB_KO/depends,
# from the modules' own modinfo, so never a list that drifts from the code), unless loaded; adds each
# module it loaded to the front of NEEDED, so that "for m in $NEEDED" unloads them in reverse.
NEEDED=
need() {
	local _n _m _d _deps
	for _n; do
		loaded $_n && continue
		_d=
		while read -r _m _deps; do
			[ "$_m" = "$_n" ] && _d=$_deps && break
		done <$OIB_KO/depends
		[ "$_m" = "$_n" ] || { fail "$_n: no such module"; return 1; }
		[ -z "$_d" ] || need $_d || return 1
		load $_n || return 1
		NEEDED="$_n $NEEDED"
	done
}

# load_deps: the kernel's own modules ours need ($OIB_KO/deps.order), in modprobe's order.
load_deps() {
	words $OIB_KO/deps.order
	for _f in $W; do
		loaded "${_f%.ko}" || insmod $OIB_KO/deps/$_f || fail "insmod $_f (dependency)"
	done
}

# unload_users NAME: unloads every loaded module that uses NAME (its holders, theirs first), so that
# NAME itself can go (oib_cm: oib_krping, then oib_cma).  Each round follows the holders from NAME
# to one that nothing holds and unloads it.
unload_users() {
	while :; do
		_m=$1
		while :; do
			_next=
			for _h in /sys/module/$_m/holders/*; do
				[ -e "$_h" ] && _next=${_h##*/} && break
			done
			[ -n "$_next" ] || break
			_m=$_next
		done
		[ "$_m" != "$1" ] || return 0
		unload "$_m" || return 1
	done
}

# load_drivers: every driver module not loaded yet, dependencies first; unload_drivers: all of them,
# in reverse.  Both return non-zero when something failed.
load_drivers() {
	words $OIB_KO/order
	_rc=0
	for _m in $W; do load $_m || _rc=1; done
	return $_rc
}
unload_drivers() {
	words $OIB_KO/order
	backwards $W
	_rc=0
	for _m in $R; do
		if loaded $_m; then
			unload $_m || _rc=1
		else
			fail "$_m was no longer loaded at the end"
			_rc=1
		fi
	done
	return $_rc
}

# t DESCRIPTION COMMAND [ARGS...]: runs one check and prints "ok N DESCRIPTION" or "not ok N ...";
# returns the check's status.
t() {
	_d=$1
	shift
	_n=$((_n + 1))
	if "$@"; then
		echo "ok $_n $_d"
	else
		echo "not ok $_n $_d"
		_failed=$((_failed + 1))
		return 1
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

# has_line FILE PREFIX: some line of FILE starts with PREFIX.
has_line() {
	while read -r _l; do
		case $_l in "$2"*) return 0 ;; esac
	done <"$1"
	return 1
}

# rxe_add NPORTS: an oib_rxe device with NPORTS ports on the default fabric, named oib_rxe<N> with
# the first N free (oib link add); sets DEV to its name.
rxe_add() {
	_i=0
	while [ -e /sys/class/oib/oib_rxe$_i ]; do _i=$((_i + 1)); done
	DEV=oib_rxe$_i
	oib link add $DEV type rxe ports "$1" || { DEV=; return 1; }
}

# rxe_remove NAME: removes a software device (oib link delete).
rxe_remove() { oib link delete "$1"; }

# get FILE: sets V to the first line of FILE (a sysfs attribute).
get() { V=; read -r V <"$1"; }

# is_zero VALUE: true for an all-zero GID or P_Key ("0000:...:0000", "0x0000", "0").
is_zero() { case $1 in *[1-9a-fA-F]*) return 1 ;; esac; }

# oib_pcap_dump FABRIC...: stops the capture on each fabric (started with
# "echo start [max_bytes] >/sys/kernel/debug/oib_rxe/fabrics/<name>/capture") and prints it on the
# console in the format tools/pcap-from-log.sh pulls out on the host.
oib_pcap_dump() {
	for _f in "$@"; do
		_c=/sys/kernel/debug/oib_rxe/fabrics/$_f/capture
		if [ ! -e "$_c" ]; then
			echo "OIB-PCAP-MISSING $_f"
			continue
		fi
		echo stop >"$_c"
		oib_pcap_print "$_f" "$_c"
	done
}

# oib_pcap_print NAME FILE: prints the pcap FILE as the capture NAME, the same way (the kernel's
# console messages held back meanwhile)
oib_pcap_print() {
	read -r _lvl _rest </proc/sys/kernel/printk
	echo 1 >/proc/sys/kernel/printk
	echo "OIB-PCAP-BEGIN $1"
	base64 "$2"
	echo "OIB-PCAP-END $1"
	echo "$_lvl" >/proc/sys/kernel/printk
}

# oib_krping (Documentation/krping.md): krping CMD writes one command to its ctl (a test's options,
# stop, stop=ID, clear, wait, wait=ID) and, for a new test, sets KID to its id; krping_get ID KEY
# sets V to KEY's value on test ID's line of the stats (returns 1 if there is none); krping_until
# ID KEY VALUE waits (up to 20 s) until KEY has VALUE, or the test is done; krping_end SERVER CLIENT
# waits for the client's end, then for the server's (stopped if the client failed, as it would
# wait for another client), and fails unless both ended with result 0.
KRPING=/sys/kernel/debug/oib_krping
krping() {
	echo "$1" >$KRPING/ctl || return 1
	KID=
	while read -r _id _rest; do KID=$_id; done <$KRPING/stats
}
krping_get() {
	V=
	while read -r _id _rest; do
		[ "$_id" = "$1" ] || continue
		for _w in $_rest; do
			case $_w in "$2="*) V=${_w#*=}; return 0 ;; esac
		done
	done <$KRPING/stats
	return 1
}
krping_until() {
	_i=0
	while [ $_i -lt 200 ]; do
		krping_get "$1" "$2" && [ "$V" = "$3" ] && return 0
		krping_get "$1" state && [ "$V" = done ] && return 1
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
krping_end() {
	_rc=0
	echo "wait=$2" >$KRPING/ctl || { _rc=1; echo "stop=$1" >$KRPING/ctl; }
	echo "wait=$1" >$KRPING/ctl || _rc=1
	return $_rc
}

# Waiting on a condition, up to 20 s: wait_line FILE LINE (FILE's first line is LINE), wait_gone PATH
# (PATH no longer exists), wait_gid DEV GID and wait_no_gid DEV GID (port 1 of oib device DEV has,
# has not, GID in its table, written as sysfs shows it).
until20() {
	_i=0
	while [ $_i -lt 200 ]; do
		"$@" && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	"$@"
}
line_is() { V=; [ -e "$1" ] && read -r V <"$1"; [ "$V" = "$2" ]; }
wait_line() { until20 line_is "$1" "$2" || { echo "# $1: '$V', wanted '$2'"; return 1; }; }
wait_gone() { until20 test ! -e "$1"; }
has_gid() { grep -qx "$2" /sys/class/oib/$1/ports/1/gids/* 2>/dev/null; }
wait_gid() { until20 has_gid "$1" "$2"; }
wait_no_gid() { until20 eval "! has_gid $1 $2"; }

# ip: iproute2's, when the initramfs has it in /bin (busybox's shell would run its own applet)
ip() { /bin/ip "$@"; }

# netns_pair NS1 IF1 IP4 IP6 NS2 IF2 IP4 IP6: two network namespaces (NS1 may be "-": the initial one)
# joined by a veth pair IF1-IF2, each end up with its IPv4 (/24) and IPv6 (/64, no DAD) address.
netns_pair() {
	mkdir -p /run/netns /var/run
	ip link add "$2" type veth peer name "$6" || return 1
	for _ns in "$1" "$5"; do
		[ "$_ns" = - ] && continue
		ip netns add "$_ns" && ip -n "$_ns" link set lo up || return 1
	done
	[ "$1" = - ] || ip link set "$2" netns "$1" || return 1
	ip link set "$6" netns "$5" || return 1
	_nsip "$1" addr add "$3/24" dev "$2" && _nsip "$1" addr add "$4/64" dev "$2" nodad &&
		_nsip "$1" link set "$2" up &&
		_nsip "$5" addr add "$7/24" dev "$6" && _nsip "$5" addr add "$8/64" dev "$6" nodad &&
		_nsip "$5" link set "$6" up
}
_nsip() {
	_ns=$1
	shift
	if [ "$_ns" = - ]; then ip "$@"; else ip -n "$_ns" "$@"; fi
}

# kunit_net up|down: the veth pairs of the initial namespace that the KUnit suites of devices on
# netdevs (oib_siw) use, oibsiw0 with 10.0.0.1 and fd00::1, oibsiw1 with 10.0.0.2 and fd00::2,
# oibsiw2 with 10.0.0.3 and fd00::3 (its peer oibsiw3 has none); only during the KUnit phase (the
# integration tests make their own).  Without iproute2's ip, nothing: those suites skip.
kunit_net() {
	[ -x /bin/ip ] || return 0
	if [ "$1" = up ]; then
		{ ip link set lo up && ip link add oibsiw0 type veth peer name oibsiw1 &&
			ip addr add 10.0.0.1/24 dev oibsiw0 && ip addr add fd00::1/64 dev oibsiw0 nodad &&
			ip addr add 10.0.0.2/24 dev oibsiw1 && ip addr add fd00::2/64 dev oibsiw1 nodad &&
			ip link set oibsiw0 up && ip link set oibsiw1 up &&
			ip link add oibsiw2 type veth peer name oibsiw3 &&
			ip addr add 10.0.0.3/24 dev oibsiw2 && ip addr add fd00::3/64 dev oibsiw2 nodad &&
			ip link set oibsiw2 up && ip link set oibsiw3 up; } || fail "kunit_net: the veth pairs"
	else
		ip link del oibsiw0 2>/dev/null
		ip link del oibsiw2 2>/dev/null
	fi
	return 0
}

# load_extra [GROUP] / unload_extra: the kernel modules in $OIB_KO/extra (the in-tree RDMA stack),
# in order, and those of GROUP after them (initramfs.sh's --extra-group: the in-tree SRP
# initiator, srp) / in reverse; unload_extra takes out only what load_extra loaded.
load_extra() {
	words $OIB_KO/extra.order
	_all=$W
	[ -z "$1" ] || { words $OIB_KO/extra-$1.order; _all="$_all $W"; }
	W=$_all
	EXTRA_LOADED=
	for _f in $W; do
		loaded "${_f%.ko}" && continue
		insmod $OIB_KO/extra/$_f || { fail "insmod $_f (extra)"; return 1; }
		EXTRA_LOADED="${_f%.ko} $EXTRA_LOADED"
	done
}
unload_extra() {
	for _m in $EXTRA_LOADED; do rmmod "$_m" || fail "rmmod $_m (extra)"; done
	EXTRA_LOADED=
}

# Interop with rdma-core's rping (the interop scripts; each defines counters, what to print after a
# failure).  rping_to_krping NAME ADDR PORT COUNT SIZE: oib_krping serves, rping connects
rping_to_krping() {
	t "$1: krping server starts" krping "server,addr=$2,port=$3,validate,count=$4,size=$5"
	s=$KID
	timeout 120 rping -c -a "$2" -p "$3" -C "$4" -S "$5" -V >/tmp/rping.out 2>&1
	_rc=$?
	t "$1: rping client exits 0" test $_rc -eq 0 || { cat /tmp/rping.out; counters; }
	t "$1: krping server ends well" krping_end "$s" "$s"
	krping_get "$s" iters
	t "$1: $4 iterations on the server" test "$V" = "$4"
}

# krping_to_rping NAME ADDR PORT COUNT SIZE: rping serves (one connection), oib_krping connects
krping_to_rping() {
	timeout 120 rping -s -a "$2" -p "$3" -C "$4" -S "$5" -V >/tmp/rping.out 2>&1 &
	_pid=$!
	t "$1: rping server listens" until20 sh -c "rdma resource show cm_id | grep -q 'state LISTEN.*$3'"
	t "$1: krping client starts" krping "client,addr=$2,port=$3,validate,count=$4,size=$5"
	c=$KID
	t "$1: krping client ends well" krping_end "$c" "$c" || counters
	krping_get "$c" iters
	t "$1: $4 iterations on the client" test "$V" = "$4"
	wait $_pid
	_rc=$?
	t "$1: rping server exits 0" test $_rc -eq 0 || cat /tmp/rping.out
}
