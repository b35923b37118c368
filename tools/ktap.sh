#!/usr/bin/env bash
# Counts the KTAP results in a guest console log, the way kunit.py counts them: leaf tests only (a
# parameterised case counts its parameters, a suite its cases; a suite without cases counts itself).
# Handles many top-level KTAP streams (one per module), printk timestamps and interleaved kernel
# messages.  A suite that started but never reported (guest died) or reported fewer results than it
# planned counts the missing ones as failed.  Prints a per-suite table; last line "P passed, F failed,
# S skipped".  Usage: tools/ktap.sh LOG
set -euo pipefail

awk '
function add_suite(s) { if (!(s in seen)) { seen[s] = 1; order[++nsuites] = s } }
function tally(s, r, n) { add_suite(s); cnt[s, r] += n; tot[r] += n }
# the open suite lost n results: count them as failed
function lose(n, why) { tally(cur, "failed", n); note[cur] = why " (" done1 " of " plan " results)" }
function close_suite() { if (cur != "") lose(plan > done1 ? plan - done1 : 1, "crashed"); cur = "" }
{
	line = $0
	sub(/\r$/, "", line)
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", line)
	match(line, /^ */)
	depth = int(RLENGTH / 4)
	body = substr(line, RLENGTH + 1)
	if (depth == 0 && body ~ /^KTAP version /) {
		close_suite()
		for (d = 0; d < 10; d++) kids[d] = 0
		next
	}
	if (depth == 1 && body ~ /^# Subtest: /) {
		close_suite()
		cur = substr(body, 12); add_suite(cur); plan = 0; done1 = 0
		next
	}
	if (depth == 1 && cur != "" && body ~ /^1\.\.[0-9]+$/) { plan = substr(body, 4) + 0; next }
	if (body !~ /^(not )?ok [0-9]+( |$)/) next

	res = body ~ /^not / ? "failed" : "passed"
	if (body ~ /# *SKIP/) res = "skipped"
	name = body
	sub(/^(not )?ok [0-9]+ (- )?/, "", name)
	sub(/ *#.*$/, "", name)
	leaf = !kids[depth]
	for (d = depth; d < 10; d++) kids[d] = 0
	if (depth > 0) kids[depth - 1] = 1
	if (depth == 1) done1++
	if (depth == 0) {
		suite = cur != "" ? cur : name
		if (cur != "" && done1 < plan) lose(plan - done1, "missing results")
		cur = ""
	} else {
		suite = cur != "" ? cur : "(no suite)"
	}
	if (leaf) tally(suite, res, 1)
}
END {
	close_suite()
	if (nsuites) printf "%-40s %7s %7s %7s\n", "suite", "passed", "failed", "skipped"
	for (i = 1; i <= nsuites; i++) {
		s = order[i]
		printf "%-40s %7d %7d %7d%s\n", s, cnt[s, "passed"], cnt[s, "failed"], cnt[s, "skipped"],
			(s in note) ? "  (" note[s] ")" : ""
	}
	printf "%d passed, %d failed, %d skipped\n", tot["passed"], tot["failed"], tot["skipped"]
}' "$1"
