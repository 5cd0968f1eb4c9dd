#!/bin/sh
# shaped-link.sh up|down PREFIX [RATE]
# Two network namespaces, PREFIX-a (10.77.0.1) and PREFIX-b (10.77.0.2), joined by a veth
# pair shaped to RATE (default 100mbit) in each direction as 100BASE-TX would carry it:
# tbf at the line rate with a size table adding 24 bytes per frame (FCS 4, preamble 7,
# SFD 1, inter-packet gap 12; the 14-byte MAC header is already in the packet), and GSO
# off so that every frame is shaped on its own. Needs root and iproute2.
set -eu
cmd=${1:?usage: shaped-link.sh up|down PREFIX [RATE]}
p=${2:?usage: shaped-link.sh up|down PREFIX [RATE]}
rate=${3:-100mbit}
case $cmd in
up)
    ip netns add "$p-a"
    ip netns add "$p-b"
    ip link add "$p-va" type veth peer name "$p-vb"
    ip link set "$p-va" netns "$p-a"
    ip link set "$p-vb" netns "$p-b"
    ip -n "$p-a" addr add 10.77.0.1/24 dev "$p-va"
    ip -n "$p-b" addr add 10.77.0.2/24 dev "$p-vb"
    for side in a b; do
        ns="$p-$side"; dev="$p-v$side"
        ip -n "$ns" link set lo up
        ip -n "$ns" link set dev "$dev" mtu 1500 gso_max_segs 1 gso_max_size 1500 up
        ip netns exec "$ns" tc qdisc replace dev "$dev" root stab overhead 24 linklayer ethernet \
            tbf rate "$rate" burst 3200 latency 100ms
    done
    ;;
down)
    ip netns del "$p-a" 2> /dev/null || true
    ip netns del "$p-b" 2> /dev/null || true
    ;;
*)
    echo "usage: shaped-link.sh up|down PREFIX [RATE]" >&2
    exit 2
    ;;
esac
