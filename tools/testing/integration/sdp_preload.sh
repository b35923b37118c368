#!/bin/sh
# Integration test: an unmodified TCP program over SDP through the preload library libsdp.so
# (Documentation/sdp.md).  Debian's socat, with LD_PRELOAD, moves 4 MiB from a client to a
# server between two oib_rxe devices, checked by sha256: under a policy file (the server's
# listener and the client's connect by its rules) and in the all-SDP mode; it is SDP, as
# oib_sdp's debugfs shows: the listener and the connection in its sockets file, its counters
# of connections and bytes grown by the transfer.  Fallback: under "use both client", a connect
# to an address no oib device reaches (127.0.0.1, a plain TCP server) goes over TCP, the data
# the same, SDP's counters still.  A "tcp" rule leaves a program's sockets alone.  Fails (exit
# status 4) without oib_sdp, socat or the library.
. "$OIB_GUEST/lib.sh"

LIB=/oib/lib/libsdp.so
D=/sys/kernel/debug/oib_sdp
loaded oib_sdp || { echo "# oib_sdp is not loaded"; exit 4; }
command -v socat >/dev/null || { echo "# no socat in the guest"; exit 4; }
[ -f $LIB ] || { echo "# no $LIB"; exit 4; }

# counter NAME: sets V to oib_sdp's counter NAME
counter() {
	V=
	while read -r _k _v; do [ "$_k" = "$1" ] && V=$_v; done <$D/counters
}
# listening PORT: an SDP socket listens on PORT (debugfs sockets)
listening() { grep -q "LISTEN local [^ ]*:$1 " $D/sockets; }
# same FILE FILE: the same sha256
same() {
	set -- "$(sha256sum <"$1")" "$(sha256sum <"$2")"
	[ "$1" = "$2" ] || { echo "# sha256 $1 and $2 differ"; return 1; }
}
# serve PORT OUT [ENV...]: a socat server into OUT in the background (PID in SRV), with the
# environment given; client PORT ADDR [ENV...]: socat sends /tmp/sdp_in to ADDR:PORT
serve() {
	_p=$1 _o=$2
	shift 2
	env "$@" timeout 120 socat -u TCP-LISTEN:$_p,bind=${BIND:-10.36.0.2},reuseaddr \
		OPEN:$_o,creat,trunc 2>/tmp/sdp_srv.err &
	SRV=$!
}
client() {
	_p=$1 _a=$2
	shift 2
	env "$@" timeout 120 socat -u OPEN:/tmp/sdp_in TCP:$_a:$_p 2>/tmp/sdp_cli.err ||
		{ echo "# client:"; sed 's/^/#   /' /tmp/sdp_cli.err; return 1; }
}
server_done() { wait $SRV || { echo "# server:"; sed 's/^/#   /' /tmp/sdp_srv.err; return 1; }; }

rxe_add 1 || { echo "# no device"; done_testing; }
A=$DEV
rxe_add 1 || { echo "# no second device"; done_testing; }
B=$DEV
t "addresses" oib addr add $A/1 10.36.0.1 && oib addr add $B/1 10.36.0.2
ip link set lo up
dd if=/dev/urandom of=/tmp/sdp_in bs=1024 count=4096 2>/dev/null
cat >/tmp/libsdp.conf <<EOF
# the test's policy
use tcp both nc* *:*
use sdp client socat 10.36.0.2:5102
use sdp server socat 10.36.0.0/16:5101-5102
use both client socat [fd36::]/16:*
use both client * 10.36.0.2:5101
use both client socat 127.0.0.0/8:5103
EOF
P="LD_PRELOAD=$LIB LIBSDP_CONFIG_FILE=/tmp/libsdp.conf LIBSDP_DEBUG=1"

# by the policy: SDP listener, SDP connection
counter connections
C0=$V
counter rx_bytes
R0=$V
serve 5101 /tmp/sdp_out $P
t "the server's listener is SDP" until20 listening 5101
t "4 MiB sent over SDP" client 5101 10.36.0.2 $P
t "the server got it all" server_done
t "the same bytes" same /tmp/sdp_in /tmp/sdp_out
t "the client said SDP" grep -q "to port 5101: SDP" /tmp/sdp_cli.err
counter connections
t "two SDP connection ends more ($C0 before, $V after)" [ "$V" -eq $((C0 + 2)) ]
counter rx_bytes
t "4 MiB more received over SDP ($R0 before, $V after)" [ "$V" -ge $((R0 + 4194304)) ]

# the all-SDP mode, no policy file
counter connections
C0=$V
rm -f /tmp/sdp_out
serve 5104 /tmp/sdp_out LD_PRELOAD=$LIB ALWAYS_USE_SDP=1
t "ALWAYS_USE_SDP: the listener is SDP" until20 listening 5104
t "ALWAYS_USE_SDP: 4 MiB sent" client 5104 10.36.0.2 LD_PRELOAD=$LIB ALWAYS_USE_SDP=1
t "ALWAYS_USE_SDP: the server got it all" server_done
t "ALWAYS_USE_SDP: the same bytes" same /tmp/sdp_in /tmp/sdp_out
counter connections
t "ALWAYS_USE_SDP: over SDP" [ "$V" -eq $((C0 + 2)) ]

# fallback: a plain TCP server on an address no oib device has
counter connections
C0=$V
rm -f /tmp/sdp_out
BIND=127.0.0.1 serve 5103 /tmp/sdp_out
t "fallback: the TCP server listens" until20 grep -q ":13EF " /proc/net/tcp
t "fallback: 4 MiB sent" client 5103 127.0.0.1 $P
t "fallback: the server got it all" server_done
t "fallback: the same bytes" same /tmp/sdp_in /tmp/sdp_out
t "fallback: the client fell back to TCP" grep -q "to port 5103: TCP (no SDP path" \
	/tmp/sdp_cli.err
counter connections
t "fallback: no SDP connection ($C0 before, $V after)" [ "$V" -eq "$C0" ]

# "use sdp" with nobody listening over SDP: refused, no fallback
t "use sdp: refused" fails client 5102 10.36.0.2 $P
t "use sdp: no fallback" grep -q "Connection refused" /tmp/sdp_cli.err

rm -f /tmp/sdp_in /tmp/sdp_out
t "devices removed" rxe_remove $A && rxe_remove $B
done_testing
