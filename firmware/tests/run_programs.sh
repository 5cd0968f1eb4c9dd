#!/bin/sh
# run_programs.sh BUILD_DIR - run the benchmark programs (a sanitizer build) through
# their normal and their failure paths; every check must hold or the script fails.
set -u
B=${1:?usage: run_programs.sh BUILD_DIR}
. "$(dirname "$0")/check.sh"
# below Linux's ephemeral ports (32768 and up), where the kernels, browsers and servers of tests running
# beside this one get theirs, and apart from tests/test_firmware.py's (26000 and up)
port=$((20000 + $$ % 5000))

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

# careless arguments: each is refused with exit 2, a reason naming the option, the usage, and no output
refused() { # refused PROGRAM ARGS... : exit 2, usage on stderr, nothing on stdout
    prog=$1; shift
    "$B/$prog" "$@" > "$T/o" 2> "$T/e"; rc=$?
    test $rc -eq 2 && grep -q "^usage: $prog" "$T/e" && test ! -s "$T/o"
}
for args in "--max-bytes" "--max-bytes=" "--max-bytes -1" "--max-bytes 0" "--max-bytes 99999999999999999999" \
    "--max-bytes 64KB" "--max-bytes 1T" "--max-bytes ' 64'" "--max-bytes 257M" "--repeats 0" "--steps 17" \
    "--sweep ''" "--sweep size,,align" "--sweep size," "--sweep copy" "--min-sample-ns 999" "--bogus" \
    "--min-bytes 2K --max-bytes 1K" "--sweep stride --stride-total 256M --stride-acnt-max 8"; do
    eval "check \"memcopy refuses $args\" refused memcopy $args"
done
grep -q "stride sweep's source would not fit" "$T/e"
check "the stride refusal says the source would not fit" test $? -eq 0
for args in "--frames -1" "--frames 99999999999999999999" "--frame-sizes 2M" "--frame-sizes 1,,2" \
    "--frame-sizes 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17" "--intervals-ms 5000" \
    "--intervals-ms 10 --io-timeout-ms 10" "--io-timeout-ms 0" "--receive-port 65536" \
    "--connect-timeout-ms 1x" "--address" "--nonsense"; do
    eval "check \"tcp_tester refuses $args\" refused tcp_tester $args"
done
for args in "--receive-port 0" "--idle-timeout-ms 0" "--io-timeout-ms 3600001" "stray"; do
    eval "check \"tcp_testee refuses $args\" refused tcp_testee $args"
done

# a bad address: exit 2 with its reason, and no BENCH-CONFIG line at all (never a cut or replaced one)
long=$(printf '%600s' '' | tr ' ' 1)
for prog in tcp_tester tcp_testee; do
    for a in localhost 256.0.0.1 ::1 "$long" "1.2.3.4 status=ok" ""; do
        check "$prog refuses the address '$(printf %.20s "$a")'" refused $prog --address "$a"
    done
done
"$B/tcp_tester" --address "$long" > "$T/o" 2> "$T/e"
check "and says why" grep -q 'bad value for --address: 1111.*(600 characters) (an IPv4 address' "$T/e"
"$B/tcp_tester" --receive-port 7 --transmit-port 7 > "$T/o" 2> "$T/e"; rc=$?
check "tcp_tester rejects equal ports with exit 2" test $rc -eq 2
check "and says the ports must differ" grep -q 'receive and transmit ports must differ' "$T/e"

# output that cannot be written fails the program, with a message on stderr
if [ -w /dev/full ]; then
    "$B/memcopy" --sweep align --align-bytes 1K --repeats 1 --min-sample-ns 1000 > /dev/full 2> "$T/e"; rc=$?
    check "memcopy to a full disk exits 1" test $rc -eq 1
    check "and says the output was lost" grep -q '^memcopy: cannot write the output' "$T/e"
    "$B/memcopy" --help > /dev/full 2> /dev/null; rc=$?
    check "memcopy --help to a full disk exits 1" test $rc -eq 1
    port=$((port + 2))
    timeout 5 "$B/tcp_testee" --receive-port $port --transmit-port $((port + 1)) --idle-timeout-ms 15000 \
        > /dev/full 2> "$T/e"; rc=$?
    check "tcp_testee to a full disk exits 1 at once, not after its idle timeout" test $rc -eq 1
    check "and says the output was lost" grep -q '^tcp_testee: cannot write the output' "$T/e"
    port=$((port + 2))
    "$B/tcp_testee" --receive-port $port --transmit-port $((port + 1)) --idle-timeout-ms 1000 > "$T/ee.log" 2>&1 &
    testee=$!
    "$B/tcp_tester" --receive-port $port --transmit-port $((port + 1)) --frame-sizes 1K --intervals-ms 0 \
        --frames 5 > /dev/full 2> "$T/e"; rc=$?
    wait $testee
    check "tcp_tester to a full disk exits 1" test $rc -eq 1
    check "and says the output was lost" grep -q '^tcp_tester: cannot write the output' "$T/e"
fi
"$B/memcopy" --help >&- 2> /dev/null; rc=$?
check "memcopy --help to a closed stdout exits 1" test $rc -eq 1

if [ $fails -ne 0 ]; then echo "$fails check(s) failed"; exit 1; fi
echo "run_programs: all passed"
