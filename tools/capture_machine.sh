#!/bin/sh
# capture_machine.sh PCIUTILS_CHECKOUT - capture what Linux prints about links, for the readers' tests
# (goodput/machine/, data/machine/): each file a header (host, tool and its version, command, date, source)
# and the tool's output exactly as printed.
#   lspci -F DUMP -vv   renders dumps of real machines that pciutils keeps in its repository (tests/);
#   ethtool, ip link    on this host: its virtual NIC (no speed), and a veth pair (as root: 10000Mb/s);
#   iperf3 -J           a 2 s TCP run over the loopback (and, as root, over a veth pair shaped to 100 Mbit/s).
set -eu
cd "$(dirname "$0")/.."
pciutils=${1:?usage: capture_machine.sh PCIUTILS_CHECKOUT}
out=data/machine
mkdir -p "$out"

header() { # header FILE TOOL_VERSION SOURCE COMMAND...
    file=$1 version=$2 source=$3; shift 3
    {
        echo "# host: $(uname -n)"
        echo "# kernel: $(uname -sr)"
        echo "# tool: $version"
        echo "# command: $*"
        echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "# source: $source"
    } > "$file"
}

run() { # run FILE TOOL_VERSION SOURCE COMMAND...: the header, then the command's own output
    file=$1 version=$2 source=$3; shift 3
    header "$file" "$version" "$source" "$@"
    "$@" >> "$file" 2>&1
}

lspci_version=$(lspci --version)
commit=$(git -C "$pciutils" rev-parse --short HEAD)
root=$(pwd)
for dump in tree-fsl-p2020 tree-asus-p6t6 cap-exp-lnkcap2; do
    (cd "$pciutils" && run "$root/$out/lspci-$dump.txt" "$lspci_version" \
        "pciutils' dump tests/$dump (github.com/pciutils/pciutils at $commit), rendered by this host's lspci" \
        lspci -F "tests/$dump" -vv)
done

ethtool_version=$(ethtool --version)
iface=$(ip -o link show | awk -F': ' '$2 != "lo" && $2 !~ /^ifb/ {print $2; exit}')
run "$out/ethtool-virtual.txt" "$ethtool_version" "this host's virtual NIC" ethtool "$iface"
run "$out/iplink-host.txt" "$(ip -V)" "this host's interfaces" ip -details link show

iperf3 -s -1 -D -p 5299 > /dev/null
sleep 0.5
run "$out/iperf3-loopback.json" "$(iperf3 --version | head -1)" "this host's loopback, 2 s" \
    iperf3 -c 127.0.0.1 -p 5299 -t 2 -J

if [ "$(id -u)" = 0 ]; then
    # the book's shaped 100 Mbit/s link (tools/shaped-link.sh), the one its firmware's TCP runs cross
    trap 'sh tools/shaped-link.sh down goodput-mach' EXIT
    sh tools/shaped-link.sh down goodput-mach
    sh tools/shaped-link.sh up goodput-mach 100mbit
    a="ip netns exec goodput-mach-a" b="ip netns exec goodput-mach-b"
    veth=$($a ip -o link show | awk -F'[:@]' '$2 != " lo" {gsub(/ /, "", $2); print $2; exit}')
    run "$out/ethtool-veth.txt" "$ethtool_version" "a veth pair between two network namespaces on this host" \
        $a ethtool "$veth"
    $b iperf3 -s -1 -D -p 5299 > /dev/null
    sleep 0.5
    run "$out/iperf3-shaped-100m.json" "$(iperf3 --version | head -1)" \
        "the book's shaped 100 Mbit/s link (tools/shaped-link.sh: two namespaces, a veth pair, tbf at the line rate), 5 s" \
        $a iperf3 -c 10.77.0.2 -p 5299 -t 5 -J
else
    echo "capture_machine.sh: not root: no veth pair, no shaped run" >&2
fi
