/* bench.c - status strings and output lines shared by the benchmark cores. */
#include "bench.h"
#include "port.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *bench_strerror(enum bench_status status)
{
    switch (status) {
    case BENCH_OK: return "ok";
    case BENCH_ERR_ARGUMENT: return "bad argument";
    case BENCH_ERR_MEMORY: return "out of memory";
    case BENCH_ERR_VERIFY: return "destination does not match source";
    case BENCH_ERR_CONNECT: return "cannot connect";
    case BENCH_ERR_TIMEOUT: return "timed out";
    case BENCH_ERR_PEER_CLOSED: return "peer closed the connection early";
    case BENCH_ERR_IO: return "socket error";
    case BENCH_ERR_PROTOCOL: return "protocol error";
    case BENCH_ERR_COUNT: return "byte counts differ between the ends";
    case BENCH_ERR_OUTPUT: return "cannot write the output";
    }
    return "unknown error";
}

void bench_line_start(struct bench_line *line, const char *prefix)
{
    line->used = 0;
    line->truncated = 0;
    line->text[0] = '\0';
    bench_line_add(line, "%s", prefix);
}

void bench_line_add(struct bench_line *line, const char *format, ...)
{
    va_list args;
    size_t room = sizeof line->text - line->used;
    int n;

    if (line->truncated)
        return;
    va_start(args, format);
    n = vsnprintf(line->text + line->used, room, format, args);
    va_end(args);
    if (n < 0 || (size_t)n >= room) {
        line->truncated = 1;
        line->text[line->used] = '\0';
        return;
    }
    line->used += (size_t)n;
}

enum bench_status bench_line_emit(struct bench_line *line)
{
    if (line->truncated) {
        /* a machine line is never cut short: an error line takes its place */
        return port_write_line("BENCH-ERROR error=line-too-long") == 0 ? BENCH_ERR_ARGUMENT : BENCH_ERR_OUTPUT;
    }
    return port_write_line(line->text) == 0 ? BENCH_OK : BENCH_ERR_OUTPUT;
}

enum bench_status bench_say(const char *format, ...)
{
    char text[512];
    va_list args;
    int n;

    va_start(args, format);
    n = vsnprintf(text, sizeof text, format, args);
    va_end(args);
    if (n < 0 || (size_t)n >= sizeof text) {
        /* a machine line is never cut short: an error line takes its place */
        return port_write_line("BENCH-ERROR error=line-too-long") == 0 ? BENCH_ERR_ARGUMENT : BENCH_ERR_OUTPUT;
    }
    return port_write_line(text) == 0 ? BENCH_OK : BENCH_ERR_OUTPUT;
}

uint64_t bench_kbit_per_s(uint64_t bytes, uint64_t elapsed_ns)
{
    /* bytes * 8 bits / 1000 per kbit / (ns / 1e9), rounded; 128-bit free: split to avoid overflow */
    if (elapsed_ns == 0)
        return 0;
    if (bytes > UINT64_MAX / 8000000u)
        return (uint64_t)((double)bytes * 8e6 / (double)elapsed_ns + 0.5);
    return (bytes * 8000000u + elapsed_ns / 2) / elapsed_ns;
}

unsigned bench_percent(uint64_t part, uint64_t whole)
{
    if (whole == 0)
        return 0;
    if (part > UINT64_MAX / 100u)
        return (unsigned)((double)part * 100.0 / (double)whole + 0.5);
    return (unsigned)((part * 100u + whole / 2) / whole);
}
