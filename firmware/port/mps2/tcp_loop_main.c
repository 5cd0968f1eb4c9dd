/* tcp_loop_main.c - the TCP tester and testee in one image, over the in-memory loop (loop.h).
 *
 * Each end runs as a task (task.h) with its own console: the testee's lines go to UART0, the
 * tester's to UART1, as two boards would print them, so each console is a log of one program.
 * When both have finished, UART2 gets the loop's byte accounting: for each direction the bytes
 * written into the loop, the bytes read out of it, and the bytes the protocol moves for this
 * configuration (a 20-byte header per connection, the frames, an 8-byte count in reply).
 * The exit status is 0 only when both ends succeeded and the three agree.
 */
#include "../../core/port.h"
#include "../../core/tcp_bench.h"
#include "loop.h"
#include "mps2.h"
#include "task.h"

#include <stdint.h>

#ifndef TCP_LOOP_FRAMES
#define TCP_LOOP_FRAMES 500u /* as the host's loopback capture */
#endif
#define STACK_BYTES 16384u
#define LOOP_CONSOLE 2u

static uint64_t testee_stack[STACK_BYTES / 8], tester_stack[STACK_BYTES / 8];
static enum bench_status testee_status = BENCH_ERR_ARGUMENT, tester_status = BENCH_ERR_ARGUMENT;

static void run_testee(void *cfg)
{
    testee_status = tcp_testee_run(cfg);
}

static void run_tester(void *cfg)
{
    tester_status = tcp_tester_run(cfg);
}

static int account(const char *direction, uint64_t written, uint64_t read, uint64_t expected)
{
    bench_say("BENCH-RESULT bench=tcp_loop direction=%s bytes_written=%llu bytes_read=%llu expected_bytes=%llu",
              direction, (unsigned long long)written, (unsigned long long)read, (unsigned long long)expected);
    return written == expected && read == expected;
}

int main(void)
{
    static const uint32_t sizes[] = {8192, 16384, 32768, 65536}, intervals[] = {0};
    const size_t n_sizes = sizeof sizes / sizeof sizes[0], n_intervals = sizeof intervals / sizeof intervals[0];
    struct tcp_testee_config testee;
    struct tcp_tester_config tester;
    struct task a, b;
    struct task *const tasks[] = {&a, &b};
    struct loop_counts n;
    uint64_t to_testee = 0, to_tester = 0, t0;
    size_t i;
    int ok;

    testee.address = "0.0.0.0";
    testee.receive_port = 1001; /* the NDK's ports */
    testee.transmit_port = 1000;
    testee.idle_timeout_ms = 1000; /* virtual time: 10^9 instructions under -icount shift=0 */
    testee.io_timeout_ms = 1000;
    tester.address = "127.0.0.1";
    tester.receive_port = 1001;
    tester.transmit_port = 1000;
    tester.frame_sizes = sizes;
    tester.frame_size_count = n_sizes;
    tester.intervals_us = intervals;
    tester.interval_count = n_intervals;
    tester.frames = TCP_LOOP_FRAMES;
    tester.connect_timeout_ms = 1000;
    tester.io_timeout_ms = 1000;
    tester.quit = 1;

    task_init(&a, run_testee, &testee, testee_stack, sizeof testee_stack, 0);
    task_init(&b, run_tester, &tester, tester_stack, sizeof tester_stack, 1);
    t0 = port_now_ns();
    task_run(tasks, 2);

    /* what the protocol moves in each run of the tester: a send run (tester to testee) is a
     * header and the frames one way and the testee's count back; a receive run is a header,
     * the frames back and the tester's count; then the quit header */
    for (i = 0; i < n_sizes * n_intervals; i++) {
        uint64_t frames_bytes = (uint64_t)sizes[i / n_intervals] * TCP_LOOP_FRAMES;
        to_testee += TCP_BENCH_HEADER_BYTES + frames_bytes;
        to_tester += 8u;
        to_testee += TCP_BENCH_HEADER_BYTES + 8u;
        to_tester += frames_bytes;
    }
    to_testee += TCP_BENCH_HEADER_BYTES;

    /* the accounting goes to a console of its own, as a third program would print it */
    mps2_console_select(LOOP_CONSOLE);
    loop_counts(&n);
    ok = testee_status == BENCH_OK && tester_status == BENCH_OK;
    if (bench_say("BENCH-CONFIG bench=tcp_loop ring_bytes=%lu frames=%lu frame_sizes=%lu intervals=%lu",
                  (unsigned long)LOOP_RING_BYTES, (unsigned long)TCP_LOOP_FRAMES, (unsigned long)n_sizes,
                  (unsigned long)n_intervals) != BENCH_OK)
        return 1;
    ok &= account("to_testee", n.written[0], n.read[0], to_testee);
    ok &= account("to_tester", n.written[1], n.read[1], to_tester);
    bench_say("Both ends ran %lu connections through the loop in %llu ns of virtual time; "
              "the testee's cpu_ns and the tester's are their shares of the one core",
              (unsigned long)n.connections, (unsigned long long)(port_now_ns() - t0));
    if (!ok) {
        bench_say("BENCH-ERROR bench=tcp_loop error=testee %s, tester %s, or the byte counts differ",
                  bench_strerror(testee_status), bench_strerror(tester_status));
        return 1;
    }
    return bench_say("BENCH-DONE bench=tcp_loop status=ok") == BENCH_OK ? 0 : 1;
}
