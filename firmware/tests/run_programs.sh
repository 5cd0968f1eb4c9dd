#!/bin/sh
# run_programs.sh BUILD_DIR - run the benchmark programs (a sanitizer build) through
# their normal and their failure paths; every check must hold or the script fails.
set -u
B=${1:?usage: run_programs.sh BUILD_DIR}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
check() { # check NAME CONDITION...
    name=$1; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
port=$((20000 + $$ % 20000))

"$B/memcopy" --max-bytes 64K --stride-acnt-max 64 --stride-total 64K --align-bytes 4K --repeats 2 \
    --min-sample-ns 20000 > "$T/m.log" 2>&1
rc=$?
check "memcopy runs, verifies and ends with BENCH-DONE" test $rc -eq 0
check "memcopy log starts with BENCH-CONFIG" sh -c "head -1 '$T/m.log' | grep -q '^BENCH-CONFIG bench=memcopy'"
check "memcopy log ends with BENCH-DONE" sh -c "tail -1 '$T/m.log' | grep -q '^BENCH-DONE bench=memcopy status=ok'"
check "memcopy verified every result" sh -c "! grep '^BENCH-RESULT' '$T/m.log' | grep -qv 'verified=1'"

"$B/memcopy" --max-bytes 0 > "$T/o" 2> "$T/e"; rc=$?
check "memcopy rejects a zero size with exit 2" test $rc -eq 2
check "memcopy prints usage on a bad argument" grep -q '^usage: memcopy' "$T/e"
"$B/memcopy" extra > /dev/null 2>&1; rc=$?
check "memcopy rejects a stray argument with exit 2" test $rc -eq 2

start=$(date +%s)
"$B/tcp_tester" --receive-port $port --transmit-port $((port + 1)) --connect-timeout-ms 500 \
    --frames 10 > "$T/t.log" 2>&1; rc=$?
end=$(date +%s)
check "a tester with no testee fails" test $rc -eq 1
check "it says it cannot connect" grep -q 'cannot connect to 127.0.0.1' "$T/t.log"
check "it gives up within the timeout" test $((end - start)) -le 3

"$B/tcp_tester" --frames 0 > /dev/null 2>&1; rc=$?
check "tcp_tester rejects zero frames with exit 2" test $rc -eq 2
"$B/tcp_testee" --receive-port 7 --transmit-port 7 > /dev/null 2>&1; rc=$?
check "tcp_testee rejects equal ports with exit 2" test $rc -eq 2

port=$((port + 2))
"$B/tcp_testee" --receive-port $port --transmit-port $((port + 1)) --idle-timeout-ms 10000 > "$T/ee.log" 2>&1 &
testee=$!
"$B/tcp_tester" --receive-port $port --transmit-port $((port + 1)) --frame-sizes 1K,8K --intervals-ms 0,1 \
    --frames 20 > "$T/er.log" 2>&1; rc=$?
wait $testee; rc_testee=$?
check "tester and testee complete a run" test $rc -eq 0 -a $rc_testee -eq 0
check "the testee reports every run" test "$(grep -c '^BENCH-RESULT bench=tcp_testee' "$T/ee.log")" -eq 8
check "the testee prints the NDK sentence" grep -q '^Received packets of 8192 bytes for a total of 163840 bytes' "$T/ee.log"

port=$((port + 2))
"$B/tcp_testee" --receive-port $port --transmit-port $((port + 1)) --idle-timeout-ms 300 > "$T/idle.log" 2>&1
rc=$?
check "a testee nobody calls gives up with non-zero exit" test $rc -ne 0
check "and says so" grep -q 'no tester within 300 ms' "$T/idle.log"

port=$((port + 2))
"$B/tcp_testee" --receive-port $port --transmit-port $((port + 1)) --idle-timeout-ms 10000 \
    --io-timeout-ms 2000 > "$T/cut.log" 2>&1 &
testee=$!
"$B/tcp_tester" --receive-port $port --transmit-port $((port + 1)) --frame-sizes 64K --intervals-ms 1 \
    --frames 100000 > /dev/null 2>&1 &
tester=$!
sleep 1
kill -9 $tester 2> /dev/null
wait $testee; rc=$?
check "a testee whose tester vanishes exits non-zero" test $rc -ne 0
check "and reports the bytes it got" grep -q '^BENCH-ERROR bench=tcp_testee direction=receive .* bytes=[1-9]' "$T/cut.log"
check "and no BENCH-DONE" sh -c "! grep -q BENCH-DONE '$T/cut.log'"

if [ $fails -ne 0 ]; then echo "$fails check(s) failed"; exit 1; fi
echo "run_programs: all passed"
