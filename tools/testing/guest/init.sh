#!/bin/sh
# /init of the oib test guest (busybox sh).  Mounts proc, sysfs, devtmpfs and debugfs, waits for the TSC
# clocksource, arms failslab, runs the mode named on the kernel command line (oib.mode=check|run|smoke|
# bench|wire, default /oib/mode) and reboots.  The files it uses are listed in lib.sh.  Lines
# "oib-guest: FAIL: ..." are counted as failures by the host.
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
exec </dev/console >/dev/console 2>&1
. /oib/guest/lib.sh

read -r mode </oib/mode
glob=
parts=kunit,integration,user
moved=
smoved=
for arg in $CMDLINE; do
	case $arg in
	oib.mode=*) mode=${arg#*=} ;;
	oib.parts=*) parts=${arg#*=} ;;
	oib.kunit_moved=*) moved=${arg#*=} ;;
	oib.integration_moved=*) smoved=${arg#*=} ;;
	kunit.filter_glob=*) glob=${arg#*=} ;;
	esac
done

cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
i=0
get $cs
while [ "$V" != tsc ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
	get $cs
done
msg "mode $mode, clocksource $V${glob:+, filter $glob}, parts $parts"

# insmod of a KUnit module waits for all its suites (the allocation-failure sweeps take minutes under
# TCG): give the hung-task detector 10 minutes, still well inside the run's own timeout.
echo 600 >/proc/sys/kernel/hung_task_timeout_secs
dbg=/sys/kernel/debug
if [ -d $dbg/failslab ]; then
	echo N >$dbg/failslab/ignore-gfp-wait
	echo 0 >$dbg/failslab/verbose
fi

# kmemleak (check mode).  It reports an object that two scans in a row find unreferenced and
# unchanged, and at least 5 s old when the second begins (the first scan records its checksum); each
# scan takes 10 s or more here.  kmemleak_mark notes the time (jiffies) before anything is loaded:
# only objects allocated after it are ours.
kl_start=0
kmemleak_mark() {
	[ -e $dbg/kmemleak ] || return 0
	while read -r _k _v; do
		case $_k in jiffies:) kl_start=$_v; return 0 ;; esac
	done </proc/timer_list
}
kmemleak() {
	[ -e $dbg/kmemleak ] || return 0
	msg "kmemleak: final scans (objects allocated since jiffies $kl_start)"
	read -r _t0 _ </proc/uptime
	echo scan >$dbg/kmemleak
	read -r _t1 _ </proc/uptime
	_wait=$((${_t0%.*} + 6 - ${_t1%.*}))
	[ $_wait -le 0 ] || sleep $_wait
	echo scan >$dbg/kmemleak
	# the report without objects allocated before kmemleak_mark: each is "unreferenced object ..." and
	# indented lines, one of them "  comm "NAME", pid N, jiffies J"
	awk -v start="$kl_start" '
		function flush() { if (obj != "") { if (j >= start) print obj; else old++ } obj = "" }
		/^unreferenced object / { flush(); obj = $0; j = 0; next }
		obj != "" && /^ / {
			obj = obj "\n" $0
			if ($1 == "comm" && match($0, /jiffies [0-9]+/)) j = substr($0, RSTART + 8, RLENGTH - 8) + 0
			next
		}
		{ flush(); print }
		END { flush(); if (old) printf "oib-guest: kmemleak: %d objects from before anything was loaded, not ours\n", old }
	' $dbg/kmemleak
}

# Does the integration script $1 match the SUITE glob?  Its suite is "integration", its test name $1.
selected() {
	[ -n "$glob" ] || return 0
	sg=${glob%%.*}
	tg='*'
	case $glob in *.*) tg=${glob#*.} ;; esac
	case integration in $sg) case $1 in $tg) return 0 ;; esac ;; esac
	case $glob in *.*) return 1 ;; esac
	case $1 in $glob) return 0 ;; esac
	return 1
}

# Runs the selected integration scripts as one KTAP suite; exit status 4 (a prerequisite missing)
# fails like any other.
integration() {
	list=
	for s in /oib/integration/*.sh; do
		n=${s##*/}
		[ -e "$s" ] && selected "${n%.sh}" && script_mine "${n%.sh}" && list="$list $s"
	done
	set -- $list
	[ $# -gt 0 ] || return 0
	printf 'KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: integration\n    1..%d\n' $#
	i=0
	bad=0
	for s; do
		i=$((i + 1))
		n=${s##*/}
		n=${n%.sh}
		msg "integration: $n"
		{ timeout 600 sh "$s"; echo $? >/tmp/rc; } 2>&1 | sed 's/^/    # /'
		read -r rc </tmp/rc
		case $rc in
		0) echo "    ok $i $n" ;;
		4)	# make check gives every script what it needs: a missing one is a failure
			echo "    not ok $i $n # a prerequisite is missing (exit status 4)"
			bad=1 ;;
		*) echo "    not ok $i $n # exit status $rc"; bad=1 ;;
		esac
	done
	[ $bad = 0 ] && echo "ok 1 integration" || echo "not ok 1 integration"
}

# Runs each userspace test program /oib/user/NAME (static, prints its own KTAP suite NAME) whose
# name the SUITE glob's suite part matches; a program that dies leaves its suite short, which the
# host counts as failures.
userprogs() {
	sg=${glob%%.*}
	for p in /oib/user/*; do
		[ -x "$p" ] || continue
		n=${p##*/}
		[ -z "$glob" ] || case $n in $sg) ;; *) continue ;; esac
		msg "user: $n"
		timeout "${OIB_USER_TIMEOUT:-600}" "$p" || msg "$n: exit status $?"
	done
}

# part NAME: check mode's part NAME is this guest's (oib.parts=, a comma-separated list, default
# kunit,integration,user: make check boots two guests at once, each with its parts).  The KUnit test
# modules named in oib.kunit_moved= (comma-separated) are not part kunit's but part kunit_moved's,
# and the integration scripts named in oib.integration_moved= not part integration's but part
# integration_moved's, so that make check can even out its two guests.
part() {
	case ",$parts," in *",$1,"*) return 0 ;; esac
	return 1
}
# mine NAME: the KUnit test module NAME is this guest's to run.
mine() {
	case ",$moved," in
	*",$1,"*) part kunit_moved ;;
	*) part kunit ;;
	esac
}

# script_mine NAME: the integration script NAME is this guest's to run.
script_mine() {
	case ",$smoved," in
	*",$1,"*) part integration_moved ;;
	*) part integration ;;
	esac
}

# check mode's KUnit parts: $OIB_KO/plan, one "driver|lib|test NAME" a line, in order: a driver or a
# KUnit helper (lib) is loaded and stays; a test module of this guest's is loaded (its suites run)
# and unloaded.
kunit_modules() {
	kunit_net up
	libs=
	_ifs=$IFS
	IFS=,
	for m in $moved; do
		grep -q "^test $m\$" $OIB_KO/plan || fail "oib.kunit_moved: no KUnit test module $m"
	done
	IFS=$_ifs
	while read -r kind m; do
		case $kind in
		driver) load $m ;;
		lib) load $m && libs="$m $libs" ;;
		test) ! mine $m || { load $m && unload $m; } ;;
		esac
	done <$OIB_KO/plan
	for m in $libs; do unload $m; done
	kunit_net down
	msg "kunit modules done"
}

# check mode: this guest's parts, with every driver module loaded around the integration scripts and
# the userspace tests; then the driver modules unload and kmemleak looks for what they left.
check() {
	kmemleak_mark
	load_deps
	if part kunit || part kunit_moved; then
		kunit_modules
	fi
	load_drivers
	if part integration || part integration_moved; then
		integration
		msg "integration done"
	fi
	if part user; then
		userprogs
		msg "userspace tests done"
	fi
	unload_drivers
	kmemleak
}

# smoke mode: each driver module loads and unloads, as KTAP cases.
smoke() {
	load_deps
	words $OIB_KO/order
	drivers=$W
	backwards $W
	set -- $drivers $R
	printf 'KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: smoke\n    1..%d\n' $#
	i=0
	bad=0
	for m in $drivers; do
		i=$((i + 1))
		insmod $OIB_KO/$m.ko && echo "    ok $i insmod_$m" || { echo "    not ok $i insmod_$m"; bad=1; }
	done
	for m in $R; do
		i=$((i + 1))
		rmmod $m && echo "    ok $i rmmod_$m" || { echo "    not ok $i rmmod_$m"; bad=1; }
	done
	[ $bad = 0 ] && echo "ok 1 smoke" || echo "not ok 1 smoke"
}

# script NAME: runs $OIB_GUEST/NAME.sh between the markers the host looks for
script() {
	load_deps
	msg "$1 begin"
	sh $OIB_GUEST/$1.sh
	msg "$1 end, exit status $?"
}

case $mode in
check) check ;;
smoke) smoke ;;
run) script demo ;;
bench) script bench ;;
wire) script wire ;;
*) fail "unknown mode $mode" ;;
esac
msg "END $mode"
reboot -f
