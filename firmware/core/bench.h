/* bench.h - what every benchmark core shares: status codes and output lines.
 *
 * Machine-readable lines start with a prefix and carry key=value pairs with raw
 * integers: BENCH-CONFIG first, BENCH-RESULT for each measurement, BENCH-ERROR
 * when a run fails, BENCH-DONE last (a log without it is truncated). Human
 * lines go on lines of their own.
 */
#ifndef GOODPUT_BENCH_H
#define GOODPUT_BENCH_H

#include <stddef.h>
#include <stdint.h>

enum bench_status {
    BENCH_OK = 0,
    BENCH_ERR_ARGUMENT = -1,
    BENCH_ERR_MEMORY = -2,
    BENCH_ERR_VERIFY = -3,
    BENCH_ERR_CONNECT = -4,
    BENCH_ERR_TIMEOUT = -5,
    BENCH_ERR_PEER_CLOSED = -6,
    BENCH_ERR_IO = -7,
    BENCH_ERR_PROTOCOL = -8,
    BENCH_ERR_COUNT = -9,
    BENCH_ERR_OUTPUT = -10 /* the port could not write an output line */
};

const char *bench_strerror(enum bench_status status);

/* Bounded line builder: appends printf-style text; never overflows, marks truncation. */
struct bench_line {
    char text[512];
    size_t used;
    int truncated;
};

void bench_line_start(struct bench_line *line, const char *prefix);
void bench_line_add(struct bench_line *line, const char *format, ...);
/* Write the line through the port; a truncated line is reported as an error line instead.
 * Returns BENCH_OK, or BENCH_ERR_OUTPUT when the port could not write it: a benchmark
 * whose output is lost stops rather than measuring for nobody. */
enum bench_status bench_line_emit(struct bench_line *line);

/* Convenience: emit one whole formatted line; returns as bench_line_emit does. */
enum bench_status bench_say(const char *format, ...);

/* Integer helpers used by the cores and tested on their own. */
uint64_t bench_kbit_per_s(uint64_t bytes, uint64_t elapsed_ns);
unsigned bench_percent(uint64_t part, uint64_t whole);

#endif
