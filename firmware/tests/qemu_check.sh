#!/bin/sh
# qemu_check.sh BUILD_DIR - run the MPS2 AN386 images of BUILD_DIR (make mps2) under QEMU and
# check their consoles; every check must hold or the script fails. Needs qemu-system-arm.
set -u
B=$(cd "${1:?usage: qemu_check.sh BUILD_DIR}" && pwd) || exit 2
Q="$(dirname "$0")/../port/mps2/qemu.sh"
. "$(dirname "$0")/check.sh"
command -v "${QEMU:-qemu-system-arm}" > /dev/null || {
    echo "qemu_check: ${QEMU:-qemu-system-arm} is not installed (Debian: qemu-system-arm)" >&2; exit 2; }

sh "$Q" "$B/memcopy.elf" - > "$T/m.log" 2> "$T/m.err"
rc=$?
check "memcopy image exits 0 under QEMU (status $rc)" test $rc -eq 0
check "memcopy console starts with BENCH-CONFIG" sh -c "head -1 '$T/m.log' | grep -q '^BENCH-CONFIG bench=memcopy'"
check "memcopy console ends with BENCH-DONE" sh -c "tail -1 '$T/m.log' | grep -q '^BENCH-DONE bench=memcopy status=ok'"
check "memcopy has results of the three sweeps" sh -c "for s in size stride align; do
    grep -q \"^BENCH-RESULT bench=memcopy sweep=\$s \" '$T/m.log' || exit 1; done"
check "memcopy verified every copy" sh -c "! grep '^BENCH-RESULT' '$T/m.log' | grep -qv ' verified=1\$'"
check "memcopy printed no error and nothing on stderr" sh -c "! grep -q '^BENCH-ERROR' '$T/m.log' && ! test -s '$T/m.err'"
sh "$Q" "$B/memcopy.elf" - > "$T/m2.log" 2>&1
check "memcopy gives the same console on a second run (-icount)" cmp -s "$T/m.log" "$T/m2.log"

sh "$Q" "$B/tcp_loop.elf" "$T/testee.log" "$T/tester.log" "$T/loop.log" > "$T/l.out" 2>&1
rc=$?
check "tcp_loop image exits 0 under QEMU (status $rc)" test $rc -eq 0
for end in testee tester; do
    check "tcp_$end console starts with BENCH-CONFIG" sh -c "head -1 '$T/$end.log' | grep -q '^BENCH-CONFIG bench=tcp_$end '"
    check "tcp_$end console ends with BENCH-DONE" sh -c "tail -1 '$T/$end.log' | grep -q '^BENCH-DONE bench=tcp_$end '"
    check "tcp_$end has 8 results (4 sizes, both directions)" \
        test "$(grep -c "^BENCH-RESULT bench=tcp_$end " "$T/$end.log")" -eq 8
done
check "tcp_loop console ends with BENCH-DONE" sh -c "tail -1 '$T/loop.log' | grep -q '^BENCH-DONE bench=tcp_loop status=ok'"
check "tcp_loop: in each direction bytes written = bytes read = what the protocol moves" sh -c "
    grep '^BENCH-RESULT bench=tcp_loop ' '$T/loop.log' | awk '
        { for (i = 1; i <= NF; i++) { split(\$i, kv, \"=\"); v[kv[1]] = kv[2] }
          n++; if (v[\"bytes_written\"] != v[\"expected_bytes\"] || v[\"bytes_read\"] != v[\"expected_bytes\"]) bad++ }
        END { exit !(n == 2 && bad == 0) }'"

# a failing run must fail: a configuration the benchmark refuses ends the image with status 2
make -s -C "$(dirname "$0")/.." "$B/bad/memcopy.elf" MPS2="$B/bad" CPPFLAGS=-DMEMCOPY_MIN_SAMPLE_NS=10 > "$T/b.out" 2>&1
sh "$Q" "$B/bad/memcopy.elf" - > "$T/b.log" 2>&1
rc=$?
check "an image whose run fails exits non-zero under QEMU (status $rc)" test $rc -eq 2
check "and says why on its console" grep -q '^BENCH-ERROR bench=memcopy error=a sample must last' "$T/b.log"

if [ $fails -ne 0 ]; then
    echo "qemu_check: $fails checks failed; consoles:" >&2
    tail -5 "$T"/*.log >&2
    exit 1
fi
echo "qemu_check: all checks passed"
