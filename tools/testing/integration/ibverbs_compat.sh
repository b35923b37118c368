#!/bin/sh
# Integration test: Debian's own ibverbs-utils programs, unmodified, on oib devices through the
# drop-in libibverbs.so.1 (tools/lib/ibverbs, the guest's /usr/lib/oib; Documentation/ibverbs.md)
# chosen by LD_LIBRARY_PATH, while Debian's libibverbs serves the in-tree rxe to the same binaries
# without it.  ibv_devices and ibv_devinfo (-v) list and print two oib_rxe devices (printed in the
# log next to the in-tree rxe's ibv_devinfo -v; an oib_siw device as iWARP); ibv_rc_pingpong, ibv_uc_pingpong, ibv_srq_pingpong
# and ibv_ud_pingpong run server and client on the two devices, the data checked (-c), of several
# sizes and counts, polling and on completion channels (-e), and ibv_xsrq_pingpong (XRC, up to four
# client processes on one domain); what oib lacks (the new send API, on-demand paging) is refused
# with the programs' own error and exit status 1, not a crash.  Fails (exit status 4) without the
# binaries or the drop-in.
. "$OIB_GUEST/lib.sh"

L=/usr/lib/oib
for b in ibv_devices ibv_devinfo ibv_rc_pingpong ibv_uc_pingpong ibv_ud_pingpong ibv_srq_pingpong \
	ibv_xsrq_pingpong; do
	[ -x /bin/$b ] || { echo "# no $b"; exit 4; }
done
[ -f $L/libibverbs.so.1 ] || { echo "# no drop-in libibverbs in $L"; exit 4; }
loaded oib_uverbs || { echo "# oib_uverbs is not loaded"; exit 4; }
case $(ip -V 2>&1) in *iproute2*) ;; *) echo "# no iproute2 ip"; exit 4 ;; esac

# ibv_rc_pingpong's and the other RC programs' ACK timeout is 14 (67 ms, 8 tries): a vCPU of this
# emulated guest on a loaded host stalls longer at times, and a round trip takes 50-100 ms here.
# The drop-in raises it to 17 (0.5 s) on request (Documentation/ibverbs.md), as liboibv's own
# examples set it (tools/examples/example.h).
export OIBV_MIN_ACK_TIMEOUT=17

# on PROG ARGS...: PROG on the drop-in, its output in /tmp/out, then the log
on() {
	timeout 60 env LD_LIBRARY_PATH=$L "$@" >/tmp/out 2>&1
	_rc=$?
	sed "s/^/# $1: /" /tmp/out
	return $_rc
}
# intree PROG ARGS...: PROG on Debian's libibverbs (the in-tree stack), its output in the log
intree() {
	timeout 60 "$@" >/tmp/out 2>&1
	_rc=$?
	sed "s/^/# in-tree $1: /" /tmp/out
	return $_rc
}
# status N COMMAND...: COMMAND exits with status N
status() {
	_want=$1
	shift
	"$@"
	_rc=$?
	[ $_rc = "$_want" ] || echo "# exit status $_rc, wanted $_want"
	[ $_rc = "$_want" ]
}
# after a failure: the fabric's non-zero counters
counters() { cat /sys/kernel/debug/oib_rxe/fabrics/*/ports | grep -v ' 0$' | sed 's/^/# /'; }

t "lo up (the pingpongs exchange their addresses over TCP)" ip link set lo up
rxe_add 1
A=$DEV
rxe_add 1
B=$DEV
t "two oib_rxe devices ($A, $B) with uverbs devices" \
	test -e /sys/class/oib/$A/uverbs -a -e /sys/class/oib/$B/uverbs || done_testing
t "$A's port is ACTIVE" wait_line /sys/class/oib/$A/ports/1/state "4: ACTIVE"
t "$B's port is ACTIVE" wait_line /sys/class/oib/$B/ports/1/state "4: ACTIVE"

t "ibv_devices runs" on ibv_devices
t "ibv_devices lists $A and $B" sh -c "grep -q '^ *$A ' /tmp/out && grep -q '^ *$B ' /tmp/out"
get /sys/class/oib/$A/node_guid
guid=$(echo "$V" | tr -d :)
t "ibv_devices gives $A's node GUID ($guid)" grep -q "$A[[:space:]]*$guid" /tmp/out
t "ibv_devinfo runs" on ibv_devinfo
t "ibv_devinfo prints both devices" sh -c "grep -q 'hca_id:.$A' /tmp/out && grep -q 'hca_id:.$B' /tmp/out"
t "ibv_devinfo: InfiniBand transport, port active, link layer Ethernet" \
	sh -c "grep -q 'transport:.*InfiniBand (0)' /tmp/out && grep -q 'state:.*PORT_ACTIVE (4)' /tmp/out &&
	       grep -q 'link_layer:.*Ethernet' /tmp/out"
echo "# ---- oib ($A) through the drop-in: ibv_devinfo -v -d $A"
t "ibv_devinfo -v -d $A runs" on ibv_devinfo -v -d $A
t "ibv_devinfo -v shows GID 0 as RoCE v2" grep -q 'GID\[  0\]:.*RoCE v2' /tmp/out
t "ibv_devinfo -v: max_qp, max_cqe, max_srq given" \
	sh -c "grep -q 'max_qp:.*[1-9]' /tmp/out && grep -q 'max_cqe:.*[1-9]' /tmp/out &&
	       grep -q 'max_srq:.*[1-9]' /tmp/out"
t "ibv_devinfo -i 2 on a one-port device: refused (its status 4)" status 4 on ibv_devinfo -d $A -i 2

# the in-tree rxe's, by Debian's own libibverbs (no LD_LIBRARY_PATH), for comparison
t "in-tree rdma_rxe and ib_uverbs loaded" load_extra
ip link add ibvc0 type veth peer name ibvc1 && ip link set ibvc0 up && ip link set ibvc1 up
t "in-tree rxe0 on a veth" rdma link add rxe0 type rxe netdev ibvc0
echo "# ---- the in-tree rxe0 through Debian's libibverbs: ibv_devinfo -v -d rxe0"
t "ibv_devinfo -v -d rxe0 (Debian's libibverbs)" intree ibv_devinfo -v -d rxe0
t "Debian's libibverbs lists rxe0, not $A" sh -c "timeout 60 ibv_devices >/tmp/out 2>&1 &&
	grep -q '^ *rxe0 ' /tmp/out && ! grep -q '^ *$A ' /tmp/out"
t "the drop-in lists $A, not the in-tree rxe0" on ibv_devices
t "... (its list)" sh -c "grep -q '^ *$A ' /tmp/out && ! grep -q '^ *rxe0 ' /tmp/out"
# an oib_siw device shows as an iWARP RNIC
t "an oib_siw device (ibvcsiw) on the veth's other end" oib link add ibvcsiw type siw netdev ibvc1
t "ibv_devinfo -d ibvcsiw runs" on ibv_devinfo -d ibvcsiw
t "... transport iWARP (1)" grep -q 'transport:.*iWARP (1)' /tmp/out
oib link delete ibvcsiw
rdma link delete rxe0
ip link del ibvc0
unload_extra

# listening PORT: a TCP socket listens on PORT (the pingpong server is ready)
listening() {
	_h=$(printf ':%04X ' "$1")
	until20 sh -c "grep ' 0A ' /proc/net/tcp /proc/net/tcp6 | grep -q '$_h'"
}
# pp PROG PORT ARGS...: PROG's server on $A, its client on $B (GID 0), both with ARGS
pp() {
	_p=$1 _port=$2
	shift 2
	timeout 60 env LD_LIBRARY_PATH=$L $_p -d $A -g 0 -p $_port "$@" >/tmp/srv 2>&1 &
	_pid=$!
	_ok=0
	if listening $_port; then
		timeout 60 env LD_LIBRARY_PATH=$L $_p -d $B -g 0 -p $_port "$@" 127.0.0.1 \
			>/tmp/cli 2>&1 || _ok=1
	else
		echo "# the server never listened on $_port"
		_ok=1
	fi
	wait $_pid || _ok=1
	sed "s/^/# server: /" /tmp/srv
	sed "s/^/# client: /" /tmp/cli 2>/dev/null
	rm -f /tmp/cli
	[ $_ok = 0 ] || counters
	return $_ok
}

port=18600
for args in "-n 100 -s 4096" "-n 50 -s 1" "-n 10 -s 65536" "-n 100 -s 1000 -r 16" \
	"-e -n 50 -s 4096"; do
	t "ibv_rc_pingpong -c $args" pp ibv_rc_pingpong $port -c $args
	port=$((port + 1))
done
for args in "-n 100 -s 4096" "-e -n 30 -s 100"; do
	t "ibv_uc_pingpong -c $args" pp ibv_uc_pingpong $port -c $args
	port=$((port + 1))
done
for args in "-n 50 -s 4096" "-q 4 -n 40 -s 64 -e"; do
	t "ibv_srq_pingpong -c $args" pp ibv_srq_pingpong $port -c $args
	port=$((port + 1))
done
for args in "-n 100 -s 512" "-e -n 30 -s 1"; do
	t "ibv_ud_pingpong -c $args" pp ibv_ud_pingpong $port -c $args
	port=$((port + 1))
done
# xsrq N PORT ARGS...: ibv_xsrq_pingpong's server on $A for N clients (-c), and N client processes
# on $B, which share one XRC domain through /tmp/xrc_domain (a client is one client: -c is the
# server's)
xsrq() {
	_nc=$1 _port=$2
	shift 2
	timeout 60 env LD_LIBRARY_PATH=$L ibv_xsrq_pingpong -d $A -g 0 -p $_port -c $_nc "$@" \
		>/tmp/srv 2>&1 &
	_pid=$!
	_ok=0
	_c=0
	if listening $_port; then
		_pids=
		while [ $_c -lt $_nc ]; do
			timeout 60 env LD_LIBRARY_PATH=$L ibv_xsrq_pingpong -d $B -g 0 -p $_port "$@" \
				127.0.0.1 >/tmp/cli$_c 2>&1 &
			_pids="$_pids $!"
			_c=$((_c + 1))
		done
		for _p in $_pids; do
			wait $_p || _ok=1
		done
	else
		echo "# the server never listened on $_port"
		_ok=1
	fi
	wait $_pid || _ok=1
	sed "s/^/# server: /" /tmp/srv
	while [ $_c -gt 0 ]; do
		_c=$((_c - 1))
		sed "s/^/# client $_c: /" /tmp/cli$_c
		rm -f /tmp/cli$_c
	done
	[ $_ok = 0 ] || counters
	return $_ok
}

# XRC: one client, then 4 client processes on one domain, polling and on a completion channel
t "ibv_xsrq_pingpong -n 20 -s 4096" xsrq 1 $port -n 20 -s 4096
t "ibv_xsrq_pingpong, 4 clients, -n 10 -s 64" xsrq 4 $((port + 1)) -n 10 -s 64
t "ibv_xsrq_pingpong, 4 clients, -e -n 10 -s 64" xsrq 4 $((port + 2)) -e -n 10 -s 64
port=$((port + 3))

# what oib lacks: the programs' own errors, exit status 1 (a crash would be 128 + its signal)
refused() { status 1 on "$@"; }
t "ibv_rc_pingpong -N (ibv_create_qp_ex, the new send API): refused" \
	refused ibv_rc_pingpong -d $A -g 0 -p $port -N
t "... with its own message" grep -q "Couldn't create QP" /tmp/out
t "ibv_rc_pingpong -o (on-demand paging): refused" refused ibv_rc_pingpong -d $A -g 0 -p $port -o

rxe_remove $A
rxe_remove $B
t "both devices removed" test ! -e /sys/class/oib/$A -a ! -e /sys/class/oib/$B
load_drivers
done_testing
