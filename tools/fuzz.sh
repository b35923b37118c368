#!/usr/bin/env bash
# make fuzz: a soak of the user ABI's fuzzer, oib_uverbs_fuzz, alone: make check with SUITE=oib_uverbs_fuzz
# and no smoke, for OIB_FUZZ_SECONDS (default 3600) or OIB_FUZZ_CALLS system calls, whichever ends first.
# OIB_FUZZ_SEED picks the run; a finding prints the program and its OIB_FUZZ_REPLAY (README: make check).
set -euo pipefail
export SUITE=oib_uverbs_fuzz SMOKE=0
export OIB_FUZZ_SECONDS=${OIB_FUZZ_SECONDS:-3600}
export OIB_FUZZ_CALLS=${OIB_FUZZ_CALLS:-1000000000000}
export OIB_USER_TIMEOUT=$((OIB_FUZZ_SECONDS + 300))
export TIMEOUT=${TIMEOUT:-$((OIB_FUZZ_SECONDS + 900))}
exec "$(dirname "$0")/check.sh"
