#!/bin/sh
# The oib demo, in the guest: loads oib_core and oib_rxe unless they are loaded, creates two software
# devices with two ports each, prints a table of their attributes (non-zero GIDs and P_Keys only),
# removes them and unloads the modules it loaded, checking that the unload left nothing behind.
# Exit status 0 when everything, including two ACTIVE ports per device, went as expected.
. "${OIB_GUEST:-/oib/guest}/lib.sh"
rc=0
err() { echo "demo: error: $*"; rc=1; }

mine=
for m in oib_core oib_rxe; do
	loaded $m && continue
	load $m || { echo "demo: error: insmod $m"; exit 1; }
	mine="$m $mine"
done

devs=
ndevs=0
for i in 1 2; do
	if rxe_add 2; then
		devs="$devs $DEV"
		ndevs=$((ndevs + 1))
	else
		err "could not add a device"
	fi
done
echo "demo: $ndevs devices:$devs"

row() { printf '  %-5s %-12s %-12s %-11s %s\n' "$@"; }
# nonzero DIR LABEL: the non-zero entries of a port's GID or P_Key table DIR
nonzero() {
	i=0
	while [ -e $1/$i ]; do
		get $1/$i
		is_zero "$V" || printf '        %-7s %s\n' "$2[$i]" "$V"
		i=$((i + 1))
	done
}
for d in $devs; do
	c=/sys/class/oib/$d
	get $c/node_guid; guid=$V
	get $c/node_type; type=$V
	get $c/fw_ver; fw=$V
	get $c/phys_port_cnt; cnt=$V
	echo
	printf '%s  node_guid %s  node_type %s  fw_ver %s  ports %s\n' "$d" "$guid" "$type" "$fw" "$cnt"
	row port state phys_state link_layer active_mtu
	p=1
	while [ -d $c/ports/$p ]; do
		pd=$c/ports/$p
		get $pd/state; state=$V
		get $pd/phys_state; phys=$V
		get $pd/link_layer; ll=$V
		get $pd/active_mtu; mtu=$V
		row "$p" "$state" "$phys" "$ll" "$mtu"
		nonzero $pd/gids gid
		nonzero $pd/pkeys pkey
		case $state in *ACTIVE*) ;; *) err "$d port $p is not ACTIVE" ;; esac
		p=$((p + 1))
	done
	[ $p -eq 3 ] && [ "$cnt" = 2 ] || err "$d has $((p - 1)) ports (phys_port_cnt $cnt), wanted 2"
done
echo
[ $ndevs -eq 2 ] || err "wanted 2 devices"

for d in $devs; do
	rxe_remove "$d" || err "could not remove $d"
	[ ! -e /sys/class/oib/$d ] || err "$d still present after remove"
done
echo "demo: removed$devs"

for m in $mine; do
	unload $m || err "rmmod $m"
	! loaded $m || err "$m still loaded"
done
if [ -n "$mine" ]; then
	oib_devices
	[ -z "$DEVS" ] || err "devices left after unload: $DEVS"
	echo "demo: unloaded" $mine "- nothing left behind"
fi
[ $rc -eq 0 ] && echo "demo: ok" || echo "demo: FAILED"
exit $rc
