/* tcp_bench.h - the NDK benchmark protocol (TI SPRAAQ5 §2) on any port with sockets.
 *
 * The testee listens on two ports. The tester connects to the receive port,
 * sends a header (frame size, frame count, interval between frames) and then
 * the frames; the testee counts them, replies with the byte count it got, and
 * reports throughput and CPU load. The tester then connects to the transmit
 * port and asks for the reverse stream, replying with its own count. A header
 * of kind 'Q' ends the testee. Byte counts are checked at both ends.
 */
#ifndef GOODPUT_TCP_BENCH_H
#define GOODPUT_TCP_BENCH_H

#include "bench.h"

#include <stddef.h>
#include <stdint.h>

#define TCP_BENCH_HEADER_BYTES 20
/* Longest address the cores accept (an IPv6 address in text is at most 45 characters); an
 * address is one word of letters, digits, '.', ':' and '-', so the BENCH-CONFIG line that
 * carries it always fits and always parses. */
#define TCP_BENCH_ADDRESS_MAX_CHARS 45
#define TCP_BENCH_MAX_FRAME_BYTES ((uint32_t)1 << 20)
#define TCP_BENCH_MAX_INTERVAL_US 60000000u /* a minute between frames; a header asking more is refused */
#ifndef TCP_BENCH_FRAMES
#define TCP_BENCH_FRAMES 5000u /* the NDK's BENCH_FRAMES */
#endif

enum tcp_bench_kind { TCP_BENCH_RECEIVE = 'R', TCP_BENCH_TRANSMIT = 'T', TCP_BENCH_QUIT = 'Q' };

struct tcp_bench_header {
    uint32_t kind;        /* enum tcp_bench_kind, as the testee sees it */
    uint32_t frame_bytes;
    uint32_t frames;
    uint32_t interval_us; /* from one frame's start to the next; 0 = as fast as possible */
};

void tcp_bench_encode(const struct tcp_bench_header *h, unsigned char out[TCP_BENCH_HEADER_BYTES]);
/* BENCH_OK, or BENCH_ERR_PROTOCOL for a bad magic, kind, size or interval. */
enum bench_status tcp_bench_decode(const unsigned char in[TCP_BENCH_HEADER_BYTES], struct tcp_bench_header *h);
void tcp_bench_put_u64(unsigned char out[8], uint64_t value);
uint64_t tcp_bench_get_u64(const unsigned char in[8]);

/* The testee runs one stream at a time, but waits for the headers of up to TCP_TESTEE_PENDING
 * connections at once, so the first to bring a whole header is served whatever others wait
 * silent before it. A connection that does not bring a whole, valid header within
 * io_timeout_ms of its accept for the port it came to (a port scan, a peer that closes at
 * once, sends garbage or falls silent) is named on a human line, closed and ignored: it
 * neither ends the testee nor restarts its idle timeout. So is the longest-waiting one when a
 * connection comes and every place is taken, and any still waiting when the tester sends 'Q'.
 * A stream that breaks off after a valid header is a lost run: BENCH-ERROR, and the testee
 * exits. */
#ifndef TCP_TESTEE_PENDING
#define TCP_TESTEE_PENDING 8 /* connections waiting for their header at once */
#endif
struct tcp_testee_config {
    const char *address;     /* to listen on */
    unsigned receive_port;   /* the NDK's 1001 */
    unsigned transmit_port;  /* the NDK's 1000 */
    unsigned idle_timeout_ms;/* longest wait for a tester: from the start, or the end of the last run */
    unsigned io_timeout_ms;  /* longest wait for a header, and longest silence in a stream */
};

struct tcp_tester_config {
    const char *address;     /* of the testee */
    unsigned receive_port, transmit_port;
    const uint32_t *frame_sizes;
    size_t frame_size_count;
    const uint32_t *intervals_us;
    size_t interval_count;
    uint32_t frames;
    unsigned connect_timeout_ms; /* a testee that is not there fails within this */
    unsigned io_timeout_ms;      /* longest silence; every interval must be shorter */
    int quit;                    /* send 'Q' at the end */
};

/* Check a configuration: BENCH_OK or BENCH_ERR_ARGUMENT (with *why set to a reason).
 * The run functions check first and refuse a bad configuration before any output. */
enum bench_status tcp_testee_check(const struct tcp_testee_config *cfg, const char **why);
enum bench_status tcp_tester_check(const struct tcp_tester_config *cfg, const char **why);

enum bench_status tcp_testee_run(const struct tcp_testee_config *cfg);
enum bench_status tcp_tester_run(const struct tcp_tester_config *cfg);

#endif
