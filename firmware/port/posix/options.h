/* options.h - what the POSIX mains share: whole-string number and address parsing,
 * refusing a bad argument (its reason, the usage, exit 2), and the exit status that
 * also answers for the output (a line that could not be written is a failure). */
#ifndef GOODPUT_OPTIONS_H
#define GOODPUT_OPTIONS_H

#include "../../core/bench.h"

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Parse an unsigned integer of ASCII digits with an optional K, M or G suffix (powers of 1024).
 * Returns 0 and sets *out, or -1 if text is not such a number within [low, high]. */
int options_size(const char *text, uint64_t low, uint64_t high, uint64_t *out);

/* Parse a comma-separated list of sizes into out (at most capacity); returns the count or -1. */
int options_size_list(const char *text, uint64_t low, uint64_t high, uint32_t *out, size_t capacity);

/* 0 if text is an IPv4 address in dotted decimal (a.b.c.d, each 0-255), else -1. */
int options_ipv4(const char *text);

/* Report a bad value of the option longs[index] (or a stray argument when index < 0) and
 * why (NULL: no reason), print the usage to stderr, and return 2, the exit status for bad
 * arguments. A long value is shown cut short, with its length. */
int options_refuse(const char *program, const struct option *longs, int index, const char *value, const char *why,
                   void (*usage)(FILE *));

/* The same for a number outside [low, high] or not a number at all: the reason names the range. */
int options_refuse_number(const char *program, const struct option *longs, int index, const char *value,
                          uint64_t low, uint64_t high, void (*usage)(FILE *));

/* A configuration the benchmark's check refused: say why on stderr with the usage, and return 2. */
int options_refuse_config(const char *program, const char *why, void (*usage)(FILE *));

/* The exit status of a run that ended with status: flushes and closes stdout, and returns
 * 0 only if the run succeeded and every byte of output was written; otherwise says why on
 * stderr and returns 1. */
int options_finish(const char *program, enum bench_status status);

#endif
