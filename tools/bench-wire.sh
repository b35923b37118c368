# make bench's two hosts, sourced by tools/bench.sh (after lib.sh): wire_guests boots two guests of
# the bench kernel, one vCPU each, from one initramfs (mode wire: tools/testing/guest/wire.sh, the
# server with oib.wire_role=server, the client with client), each with a virtio-net NIC; QEMU
# joins the two NICs with a datagram network over two Unix sockets (-netdev dgram), so neither
# guest waits for the other to start.  Logs: build/wire-server.log and build/wire-client.log.

# wire_guests TREE MODROOT KERNEL TIMEOUT ROUNDS [INITRAMFS OPTION...]: sets wrc to 0 when both QEMUs
# exited 0 and both guests reported exit status 0, else 1
wire_guests() {
	local tree=$1 root=$2 kernel=$3 timeout=$4 rounds=$5 sock pids=() role peer net n=0 q st
	shift 5
	tools/initramfs.sh "$out/wire.cpio.gz" "$tree" "$root" wire "$@"
	sock=$(mktemp -d /tmp/oib-wire.XXXXXX)
	for role in server client; do
		n=$((n + 1))
		peer=server
		[ $role = client ] || peer=client
		net="-netdev dgram,id=w0,local.type=unix,local.path=$sock/$role"
		net+=",remote.type=unix,remote.path=$sock/$peer"
		net+=" -device virtio-net-pci,netdev=w0,romfile=,mac=52:54:00:00:5a:0$n"
		OIB_SMP=1 OIB_QEMU_NET=$net tools/qemu.sh "$kernel" "$out/wire.cpio.gz" "$out/wire-$role.log" "$timeout" \
			oib.mode=wire oib.wire_role=$role oib.bench_rounds="$rounds" &
		pids+=($!)
	done
	wrc=0
	for q in "${pids[@]}"; do wait "$q" || wrc=1; done
	rm -rf "$sock"
	for role in server client; do
		st=$(sed -n 's/^oib-guest: wire end, exit status \([0-9]*\).*/\1/p' "$out/wire-$role.log")
		[ "$st" = 0 ] || { echo "bench: the two hosts' $role: guest status ${st:-none}"; wrc=1; }
	done
}
