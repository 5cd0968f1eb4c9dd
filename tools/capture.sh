#!/bin/sh
# capture.sh [all|memcopy|tcp|size] - build the firmware and capture the logs the book reads
# (data/logs/host/); with an argument, only that part.
# Each log is a header (host, CPU, kernel, compiler and flags, command, date, git revision)
# followed by the program's output exactly as printed. Run as root for the shaped-link
# logs; without network namespaces those are skipped with a message, never faked.
set -eu
cd "$(dirname "$0")/.."
out=data/logs/host
fw=firmware/build
make -C firmware > /dev/null
mkdir -p "$out"

header() { # header FILE COMMAND...
    file=$1; shift
    {
        echo "# host: $(uname -n)"
        echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
        echo "# kernel: $(uname -sr)"
        echo "# tcp: net.ipv4.tcp_timestamps=$(cat /proc/sys/net/ipv4/tcp_timestamps 2> /dev/null || echo unknown)"
        echo "# compiler: $(${CC:-cc} --version | head -1)"
        echo "# flags: $(make -s -C firmware -n ${FLAGS_OF:-build/memcopy} -B | grep -o '\-std=c99.*-O[0-9s].*' | sed 's/ -c .*//; s/ -o .*//' | head -1)"
        echo "# command: $*"
        echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "# git: $(git rev-parse --short HEAD)$(git diff --quiet -- firmware || echo '-dirty')"
    } > "$file"
}

run() { # run FILE COMMAND... : header, then the command's own output
    file=$1; shift
    header "$file" "$@"
    "$@" >> "$file" 2>&1
}

pair() { # pair NAME NS_TESTEE NS_TESTER ADDRESS TESTER_ARGS...
    name=$1 ns_e=$2 ns_r=$3 addr=$4; shift 4
    ee="$out/$name-testee.log"; er="$out/$name-tester.log"
    header "$ee" $ns_e "$fw/tcp_testee" --idle-timeout-ms 60000 --io-timeout-ms 20000
    header "$er" $ns_r "$fw/tcp_tester" --address "$addr" "$@"
    $ns_e "$fw/tcp_testee" --idle-timeout-ms 60000 --io-timeout-ms 20000 >> "$ee" 2>&1 &
    testee=$!
    $ns_r "$fw/tcp_tester" --address "$addr" "$@" >> "$er" 2>&1
    wait $testee
}

part=${1:-all}
case $part in all|memcopy|tcp|size) ;; *) echo "usage: capture.sh [all|memcopy|tcp|size]" >&2; exit 2;; esac

if [ "$part" = all ] || [ "$part" = memcopy ]; then
echo "capture: memcopy sweeps"
run "$out/memcopy.log" "$fw/memcopy"
fi

if [ "$part" = all ] || [ "$part" = size ]; then
echo "capture: code size of the firmware core, host build"
make -C firmware objects > /dev/null
FLAGS_OF=build/host/bench.o run "$out/size-host.log" .venv/bin/goodput size --json \
    firmware/build/host/bench.o firmware/build/host/memcopy.o firmware/build/host/tcp_bench.o
if command -v arm-none-eabi-gcc > /dev/null; then
    echo "capture: code size of the firmware core, Cortex-R5F build"
    make -C firmware objects-r5f > /dev/null
    CC=arm-none-eabi-gcc FLAGS_OF=build/r5f/bench.o run "$out/size-r5f.log" .venv/bin/goodput size --json \
        firmware/build/r5f/bench.o firmware/build/r5f/memcopy.o firmware/build/r5f/tcp_bench.o
else
    echo "capture: skipped the R5F code size: it needs arm-none-eabi-gcc (Debian: gcc-arm-none-eabi)"
fi
fi

[ "$part" = all ] || [ "$part" = tcp ] || { echo "capture: done; logs in $out"; exit 0; }

echo "capture: tester and testee on loopback"
pair loopback "" "" 127.0.0.1 --frames 500 --intervals-ms 0,10,30

if [ "$(id -u)" = 0 ] && ip netns add goodput-probe 2> /dev/null; then
    ip netns del goodput-probe
    echo "capture: tester and testee across a shaped 100 Mbit/s link"
    trap 'sh tools/shaped-link.sh down goodput-cap' EXIT
    sh tools/shaped-link.sh down goodput-cap
    sh tools/shaped-link.sh up goodput-cap 100mbit
    pair shaped-100m "ip netns exec goodput-cap-b" "ip netns exec goodput-cap-a" 10.77.0.2 \
        --frames 5000 --intervals-ms 0
    pair shaped-100m-paced "ip netns exec goodput-cap-b" "ip netns exec goodput-cap-a" 10.77.0.2 \
        --frames 500 --intervals-ms 10,30
else
    echo "capture: skipped the shaped 100 Mbit/s link: it needs root and network namespaces"
fi
echo "capture: done; logs in $out"
