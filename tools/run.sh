#!/usr/bin/env bash
# make run: installs missing packages, builds (once) the test kernel, builds the modules, boots the
# guest in run mode (tools/testing/guest/demo.sh: two oib_rxe devices, their attributes, krping,
# clean unload; TWO_HOSTS=1: the devices on a veth pair between two namespaces) and prints the
# demo's output without the kernel's messages.  Fails if the demo fails or the
# console shows a kernel splat (tools/findings.sh).  Logs: build/run.log (console), build/demo.log (build).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# TWO_HOSTS=1: the client and the server on two "hosts", network namespaces joined by a veth pair,
# each with an oib_rxe device on its end (RoCEv2 over UDP); iproute2's ip in the guest for that
opts=() args=()
if [ "${TWO_HOSTS:-0}" = 1 ]; then
	opts=(--kmods veth --bin /usr/sbin/ip)
	args=(oib.two_hosts=1)
fi
kernel test iproute2
build "$kdir" "$out/demo" || exit 1
guest run "$out/demo" "$modroot" "$bzimage" "${TIMEOUT:-600}" "${opts[@]}" -- "${args[@]}" \
	> >(grep -v '^oib-guest:')
wait $! || true

# the demo: between the guest's markers, without kernel messages (those start with a timestamp)
echo
sed -n '/^oib-guest: demo begin/,/^oib-guest: demo end/p' "$out/run.log" | grep -v '^oib-guest:' | grep -v '^\[ *[0-9]*\.[0-9]*\]' || true
echo
exit_status "$out/run.log" demo
findings "$out/run.log" quiet
if [ "$qrc" = 0 ] && [ "$status" = 0 ] && [ "$nfind" = 0 ]; then
	echo "run: ok"
else
	echo "run: FAILED (QEMU status $qrc, demo status ${status:-none}, $nfind log findings; log: $out/run.log)"
	exit 1
fi
