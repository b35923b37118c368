#!/usr/bin/env bash
# Installs the Debian packages the build, the test kernel and the QEMU runner need, plus the PACKAGEs
# named (make bench: iproute2, linux-perf): only those missing.
# Usage: tools/deps.sh [PACKAGE...]
set -euo pipefail

want=(make gcc flex bison bc libelf-dev libssl-dev cpio kmod xz-utils rsync python3
      qemu-system-x86 busybox-static linux-source-6.12 linux-headers-amd64 linux-image-amd64
      tshark e2fsprogs libibverbs-dev librdmacm-dev "$@")
have=" $(dpkg-query -W -f='${Package}:${db:Status-Status} ' "${want[@]}" 2>/dev/null || true) "
missing=()
for p in "${want[@]}"; do
	case $have in *" $p:installed "*) ;; *) missing+=("$p") ;; esac
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages (run as root to install): ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
