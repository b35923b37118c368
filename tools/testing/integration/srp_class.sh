#!/bin/sh
# Integration test: oib_srp's class oib_srp.  A device srp-<dev>-<port> per port of every oib
# device, with its ibdev and port, made and removed with the device; a login through its
# add_target and a logout through the SCSI host's remove_target, the host's attributes and the
# port's targets; each refusal with its errno (an unknown option, a bad dest, a port with no
# address of the destination's family, a destination no port reaches or not from that port's
# device, the same target twice, the remove_target of a host that is gone; no target there);
# the device deleted under a logged-in host and under a login in flight, and writes through
# files held open across a removal.  Fails (exit status 4) when either module is not loaded.
. "$OIB_GUEST/lib.sh"
. "$OIB_GUEST/srp.sh"

loaded oib_srp && loaded oib_srpt || { echo "# oib_srp or oib_srpt is not loaded"; exit 4; }
P=5650
D4="10.9.0.2 $P"

# refused ERRNO_TEXT FILE VALUE: writing VALUE to FILE fails with that errno (its strerror text,
# an extended regular expression: glibc's and musl's may differ).
refused() {
	if (echo "$3" >"$2") 2>/tmp/srp_err; then echo "# '$3' > $2 succeeded"; return 1; fi
	grep -Eq "$1" /tmp/srp_err || { echo "# '$3' > $2:" $(cat /tmp/srp_err); return 1; }
}
# refused_fd ERRNO_TEXT FD VALUE: the same through a file descriptor opened before.
refused_fd() {
	if (eval "echo \"\$3\" >&$2") 2>/tmp/srp_err; then echo "# '$3' >&$2 succeeded"; return 1; fi
	grep -Eq "$1" /tmp/srp_err || { echo "# '$3' >&$2:" $(cat /tmp/srp_err); return 1; }
}
no_host() { ! host_of "$1"; }

srp_devices
S=$SC/srp-$A-1
t "a target of 1 LUN of 16 MiB on port $P" w $T "$P 1 16"
t "$S is there" test -d $S
t "... its ibdev is $A" line_is $S/ibdev $A
t "... its port is 1" line_is $S/port 1
t "... no targets yet" test -z "$(cat $S/targets)"
t "srp-$B-1 is there" line_is $SC/srp-$B-1/ibdev $B

# refusals
t "an unknown option: EINVAL" refused "Invalid argument" $S/add_target "dest=10.9.0.2:$P,pkey=ffff"
t "a dest without a port: EINVAL" refused "Invalid argument" $S/add_target "dest=10.9.0.2"
t "a bad address: EINVAL" refused "Invalid argument" $S/add_target "10.9.0.300 $P"
t "no IPv6 address on the port: EADDRNOTAVAIL" \
	refused "ssign requested address|ddress not available" $S/add_target "dest=[fd09::2]:$P"
t "an address nobody has: EHOSTUNREACH" refused "No route to host" $S/add_target "10.9.0.99 $P"
t "no target on port $((P + 1))" fails login $A "10.9.0.2 $((P + 1))"
t "no host was left" no_host 10.9.0.2:$((P + 1))

# a login and a logout through the class files
t "log in through $S" login $A "$D4"
t "the host is there" host_of 10.9.0.2:$P
t "... live" line_is $H/conn_state live
t "... through $A" line_is $H/local_ib_device $A
t "... port 1" line_is $H/local_ib_port 1
t "... the target port ID oib_srpt's" line_is $H/id_ext 6f69625f73727074
t "... listed in targets" has_line $S/targets "10.9.0.2:$P ${H##*/} live"
t "its disk appeared" disk
t "the same target twice: EEXIST" refused "File exists" $S/add_target "dest=10.9.0.2:$P"
t "... through another device too" refused "File exists" $SC/srp-$B-1/add_target "$D4"
H1=${H:-/nonexistent}
exec 3>$H1/remove_target
t "log out" logout 10.9.0.2:$P
t "the host went" test ! -e $H1
t "the disk went" test ! -e $D
t "targets is empty" test -z "$(cat $S/targets)"
t "a host that is gone: ENOENT" refused "No such file|nonexistent" $H1/remove_target 1
t "... through a file held open: ENODEV" refused_fd "No such device" 3 1
exec 3>&-

# a device on a netdev (RoCEv2 over UDP on a veth): the destination is not reached from it
if [ -x /bin/ip ]; then
	t "netns pair with a veth" netns_pair scA sa 10.58.0.1 fd58::1 scB sb 10.58.0.2 fd58::2
	t "device su on sa (in scA)" ip netns exec scA oib link add su type rxe netdev sa
	t "su has 10.58.0.1" wait_gid su 0000:0000:0000:0000:0000:ffff:0a3a:0001
	t "srp-su-1 came with su" test -d $SC/srp-su-1
	t "not from su's port: EHOSTUNREACH" refused "No route to host" $SC/srp-su-1/add_target "$D4"
	t "... no host was left" no_host 10.9.0.2:$P
	ip netns del scA
	ip netns del scB
	t "su went with its namespace" wait_gone /sys/class/oib/su
	t "... and srp-su-1" test ! -e $SC/srp-su-1
fi

# the device deleted under a logged-in host
rxe_add 2
C=$DEV
t "device $C with two ports, 10.9.0.3 on port 1" oib addr add $C/1 10.9.0.3
t "srp-$C-2 is port 2" line_is $SC/srp-$C-2/port 2
t "log in through $C" login $C "$D4"
t "the host is there" host_of 10.9.0.2:$P
t "its disk appeared" disk
exec 4>$SC/srp-$C-1/add_target
t "delete $C" rxe_remove $C
t "the host went" test ! -e $H
t "the disk went" test ! -e $D
t "srp-$C-1 went" test ! -e $SC/srp-$C-1
t "its add_target held open: ENODEV" refused_fd "No such device" 4 "$D4"
exec 4>&-

# the device deleted under a login in flight (every frame dropped: the login waits for its REP)
rxe_add 1
C=$DEV
t "device $C with 10.9.0.4" oib addr add $C/1 10.9.0.4
t "every frame dropped" w $F "drop=1000000"
login $C "$D4" 2>/tmp/srp_login &
L=$!
t "the login is under way" until20 grep -q -- "-> 10.9.0.2:$P dev $C " \
	/sys/kernel/debug/oib_cma/ids
t "delete $C" rxe_remove $C
t "the login ended" ended $L
t "... failed" test "$RC" != 0
t "no host" no_host 10.9.0.2:$P
t "srp-$C-1 went" test ! -e $SC/srp-$C-1
t "frames pass again" w $F "off"

# the class works on after all that
t "log in through $S again" login $A "$D4"
t "... live" until_state $P live
t "log out" logout 10.9.0.2:$P
t "stop the target" w $T ""
rm -f /tmp/srp_err /tmp/srp_login
srp_devices_remove
t "srp-$A-1 went with $A" wait_gone $S

load_drivers
done_testing
