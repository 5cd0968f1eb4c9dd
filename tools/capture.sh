#!/bin/sh
# capture.sh [all|memcopy|tcp|size|qemu] - build the firmware and capture the logs the book reads
# (data/logs/host/, and data/logs/qemu/ for the bare-metal images under QEMU); with an argument,
# only that part.
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
case $part in all|memcopy|tcp|size|qemu) ;; *) echo "usage: capture.sh [all|memcopy|tcp|size|qemu]" >&2; exit 2;; esac

qemu_header() { # qemu_header FILE IMAGE CONSOLE COMMAND...: the header of a console of an image run under QEMU
    file=$1 image=$2 console=$3; shift 3
    flags=$(make -s -C firmware -n -B "build/mps2/$image.elf" | grep -o '\-\-specs=.*-fdata-sections')
    case $flags in *buildtype=release*) build="its release build";; *) build="its default (size-optimised) build";; esac
    {
        echo "# host: $(uname -n)"
        echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
        echo "# kernel: $(uname -sr)"
        echo "# compiler: $(arm-none-eabi-gcc --version | head -1)"
        echo "# flags: $flags"
        echo "# libc: picolibc $(dpkg-query -W -f '${Version}' picolibc-arm-none-eabi 2> /dev/null || echo unknown), $build"
        echo "# emulator: $(qemu-system-arm --version | head -1)"
        echo "# target: MPS2 AN386 (Cortex-M4F), SysTick at 25 MHz"
        echo "# icount: shift=0 (one instruction per nanosecond of virtual time; every ns figure counts instructions)"
        echo "# command: $*"
        echo "# console: $console"
        echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "# git: $(git rev-parse --short HEAD)$(git diff --quiet -- firmware || echo '-dirty')"
    } > "$file"
}

if [ "$part" = all ] || [ "$part" = qemu ]; then
    if command -v qemu-system-arm > /dev/null && command -v arm-none-eabi-gcc > /dev/null \
            && [ -e /usr/lib/picolibc/arm-none-eabi/picolibc.specs ]; then
        echo "capture: the bare-metal images under QEMU (MPS2 AN386, -icount)"
        q=data/logs/qemu
        mps2=firmware/build/mps2
        mkdir -p "$q"
        make -C firmware mps2 > /dev/null
        qemu=firmware/port/mps2/qemu.sh
        qemu_header "$q/memcopy-mps2-an386.log" memcopy "UART0" $(sh $qemu -n $mps2/memcopy.elf -)
        sh $qemu $mps2/memcopy.elf - >> "$q/memcopy-mps2-an386.log"
        # the same benchmark with the C library's other memcpy: instruction counts compare the two
        log="$q/memcopy-mps2-an386-picolibc-minsize.log"
        qemu_header "$log" memcopy-minsize "UART0" $(sh $qemu -n $mps2/memcopy-minsize.elf -)
        sh $qemu $mps2/memcopy-minsize.elf - >> "$log"
        cmd=$(sh $qemu -n $mps2/tcp_loop.elf $mps2/testee.console $mps2/tester.console $mps2/loop.console)
        sh $qemu $mps2/tcp_loop.elf $mps2/testee.console $mps2/tester.console $mps2/loop.console
        qemu_header "$q/tcp-loop-mps2-an386-testee.log" tcp_loop "UART0 (the testee)" $cmd
        cat $mps2/testee.console >> "$q/tcp-loop-mps2-an386-testee.log"
        qemu_header "$q/tcp-loop-mps2-an386-tester.log" tcp_loop "UART1 (the tester)" $cmd
        cat $mps2/tester.console >> "$q/tcp-loop-mps2-an386-tester.log"
        qemu_header "$q/tcp-loop-mps2-an386.log" tcp_loop "UART2 (the loop's byte accounting)" $cmd
        cat $mps2/loop.console >> "$q/tcp-loop-mps2-an386.log"
    else
        echo "capture: skipped the QEMU logs: they need qemu-system-arm, gcc-arm-none-eabi and picolibc-arm-none-eabi"
    fi
    [ "$part" = all ] || { echo "capture: done; logs in $q"; exit 0; }
fi

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
