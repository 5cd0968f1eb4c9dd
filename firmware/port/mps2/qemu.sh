#!/bin/sh
# qemu.sh [-n] IMAGE CONSOLE0 [CONSOLE1 [CONSOLE2]] - run an MPS2 AN386 image under QEMU.
# Each CONSOLE is a file that receives UART0, UART1, UART2 in turn, or - for standard output.
# The run is deterministic: -icount shift=0 executes one instruction per nanosecond of virtual
# time (align=off, sleep=off: virtual time never waits for the host's clock), so SysTick and
# every figure the image prints count instructions, the same on every machine. The image ends
# the run through ARM semihosting with its exit status; a run that hangs is stopped after
# QEMU_TIMEOUT seconds (default 60) and the script exits 124, as timeout(1) does.
# -n prints the QEMU command line instead of running it.
set -eu
print=
if [ "${1:-}" = -n ]; then print=1; shift; fi
[ $# -ge 2 ] && [ $# -le 4 ] || { echo "usage: qemu.sh [-n] IMAGE CONSOLE0 [CONSOLE1 [CONSOLE2]]" >&2; exit 2; }
image=$1; shift
n=$#
for console in "$@"; do
    if [ "$console" = - ]; then set -- "$@" -serial stdio; else set -- "$@" -serial "file:$console"; fi
done
shift "$n"
set -- "${QEMU:-qemu-system-arm}" -M mps2-an386 -cpu cortex-m4 -display none -monitor none \
    -semihosting-config enable=on,target=native -icount shift=0,align=off,sleep=off -kernel "$image" "$@"
if [ -n "$print" ]; then echo "$*"; exit 0; fi
exec timeout "${QEMU_TIMEOUT:-60}" "$@"
