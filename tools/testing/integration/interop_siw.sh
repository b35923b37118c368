#!/bin/sh
# Integration test: interop between oib_siw and the in-tree siw.  The in-tree siw0 on the initial
# namespace's end of a veth pair (rdma link add works only there), oib_siw's wo on the other end
# in a namespace of its own; rdma-core's rping (over the in-tree rdma_cm) against oib_krping
# (over oib_cma), both ways, both address families, data verified, sizes across FPDU boundaries.
# Fails (exit status 4) without oib_krping, oib_siw, rping, the in-tree modules or iproute2's ip.
. "$OIB_GUEST/lib.sh"

loaded oib_krping || { echo "# oib_krping is not loaded"; exit 4; }
loaded oib_siw || { echo "# oib_siw is not loaded"; exit 4; }
case $(ip -V 2>&1) in *iproute2*) ;; *) echo "# no iproute2 ip"; exit 4 ;; esac
[ -x /bin/rping ] && [ -e $OIB_KO/extra.order ] || { echo "# no rping or in-tree modules"; exit 4; }

t "in-tree siw, rdma_cm, rdma_ucm loaded" load_extra || done_testing
t "netns pair with a veth" netns_pair - wi 10.14.0.1 fd14::1 siwI wo 10.14.0.2 fd14::2 ||
	done_testing
t "in-tree siw0 on wi" rdma link add siw0 type siw netdev wi
t "oib_siw wo on wo" ip netns exec siwI oib link add wo type siw netdev wo || done_testing
t "wo has 10.14.0.2" wait_gid wo 0000:0000:0000:0000:0000:ffff:0a0e:0002
t "wo has fd14::2" wait_gid wo fd14:0000:0000:0000:0000:0000:0000:0002

counters() { echo "# wo:" $(grep -v ' 0$' /sys/kernel/debug/oib/wo/siw); }

rping_to_krping "rping -> krping IPv4" 10.14.0.2 7174 200 64
krping_to_rping "krping -> rping IPv4" 10.14.0.1 7175 200 64
rping_to_krping "rping -> krping IPv6" fd14::2 7176 100 1000
krping_to_rping "krping -> rping IPv6" fd14::1 7177 100 1000
rping_to_krping "rping -> krping 60000 B" 10.14.0.2 7178 20 60000
krping_to_rping "krping -> rping 60000 B" 10.14.0.1 7179 20 60000
t "wo saw no malformed FPDU" grep -q "^rx_malformed  *0$" /sys/kernel/debug/oib/wo/siw
counters

t "siw0 goes" rdma link delete siw0
ip netns del siwI
t "deleting the namespace removes wo" wait_gone /sys/class/oib/wo
ip link del wi 2>/dev/null
unload_extra
echo clear >$KRPING/ctl
done_testing
