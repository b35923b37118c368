#!/bin/sh
# Integration test: oib_srp's lost connection.  Every frame on the fabric dropped under a write:
# the initiator's QP gives up, the host holds its commands and logs in again once the fabric
# carries frames again; the write completes and reads back the same.  Then the target stopped
# under writes with fail_timeout 3: one fails (nothing hangs), the host says failed, reads fail
# at once, and the host is removed.  Fails (exit status 4) when either module is not loaded.
. "$OIB_GUEST/lib.sh"
. "$OIB_GUEST/srp.sh"

loaded oib_srp && loaded oib_srpt || { echo "# oib_srp or oib_srpt is not loaded"; exit 4; }
srp_devices
t "a target of 1 LUN of 16 MiB on port 5600" w $T "5600 1 16"
t "fail_timeout 0 is refused" fails w $I/fail_timeout 0
t "fail_timeout 3601 is refused" fails w $I/fail_timeout 3601
t "log in" login $A "10.9.0.2 5600"
t "the host is live" until_state 5600 live
t "its disk appeared" disk
t "8 MiB of random data" dd if=/dev/urandom of=/tmp/a bs=64k count=128

# The fabric drops everything under a write: the host goes down, holds, and logs in again.
t "every frame dropped" w $F "drop=1000000"
dd if=/tmp/a of=$D bs=64k oflag=direct 2>/tmp/err &
P=$!
t "the host lost its connection" until_state 5600 down reconnecting
t "frames pass again" w $F "off"
t "the host logged in again" until_state 5600 live
t "the write ended" ended $P
t "and succeeded" test "$RC" = 0
t "drop the caches" w /proc/sys/vm/drop_caches 3
t "read it back" dd if=$D of=/tmp/b bs=64k count=128 iflag=direct
t "the same bytes" cmp /tmp/a /tmp/b

# The target stops under writes (one after the other until one fails): they fail after
# fail_timeout, nothing hangs.
t "fail_timeout 3" w $I/fail_timeout 3
while dd if=/tmp/a of=$D bs=64k oflag=direct 2>/dev/null; do :; done &
P=$!
t "stop the target" w $T ""
t "the host lost its connection" until_state 5600 down reconnecting failed
t "the writes ended: one failed" ended $P
t "the host gave up" until_state 5600 failed
t "reads fail at once" fails dd if=$D of=/dev/null bs=4k count=1 iflag=direct
t "remove the host" logout 10.9.0.2:5600
t "the disk went" test ! -e $D
t "fail_timeout back to 15" w $I/fail_timeout 15
rm -f /tmp/a /tmp/b /tmp/err
srp_devices_remove

load_drivers
done_testing
