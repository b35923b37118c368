#!/usr/bin/env bash
# Scans a guest console log for kernel splats (BUG, WARNING, KASAN, UBSAN, lockdep, RCU stalls, hung
# tasks, list corruption, debugobjects, kmemleak leaks, a freed page written (page_poison), panics,
# stray call traces) and for the guest's own "oib-guest: FAIL:" lines.  Each distinct finding (same text once numbers and addresses
# are masked) is printed once with some context.  A "Call Trace" within 300 lines after a finding, or
# after a failslab "FAULT_INJECTION" message, belongs to that and is not a finding of its own.
# Usage: tools/findings.sh LOG; the last line is "N findings".
set -euo pipefail

awk '
BEGIN {
	pat = "BUG: KASAN|BUG:|WARNING:|Oops|general protection fault|UBSAN:|possible circular locking" \
		"|possible recursive locking|inconsistent lock state|INFO: task .* blocked for more than" \
		"|rcu: INFO|rcu_sched self-detected stall|detected stall|unreferenced object|Kernel panic" \
		"|kernel BUG|list_add corruption|list_del corruption|ODEBUG:|DEBUG_LOCKS_WARN_ON" \
		"|turning off the locking correctness validator|pagealloc: memory corruption|Call Trace" \
		"|oib-guest: FAIL"
}
{ sub(/\r$/, ""); line[NR] = $0 }
END {
	last = -1000; inject = -1000
	for (i = 1; i <= NR; i++) {
		l = line[i]
		if (l ~ /FAULT_INJECTION: forcing a failure/) { inject = i; continue }
		if (l !~ pat) continue
		if (l ~ /Call Trace/ && (i - last < 300 || i - inject < 20)) continue
		key = l
		sub(/^\[ *[0-9]+\.[0-9]+\] /, "", key)
		gsub(/0x[0-9a-f]+|[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+|[0-9]+/, "#", key)
		last = i
		if (key in seen) { seen[key]++; continue }
		seen[key] = 1
		keys[++n] = key
		printf "---- finding %d, log line %d:\n", n, i
		for (j = i - 2; j <= i + 10 && j <= NR; j++) if (j > 0) print "  " line[j]
	}
	for (k = 1; k <= n; k++) if (seen[keys[k]] > 1) printf "(finding %d occurred %d times)\n", k, seen[keys[k]]
	printf "%d findings\n", n
}' "$1"
