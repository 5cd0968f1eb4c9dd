/* options.h - number parsing shared by the POSIX mains: whole strings only, range-checked. */
#ifndef GOODPUT_OPTIONS_H
#define GOODPUT_OPTIONS_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Parse an unsigned integer with an optional K, M or G suffix (powers of 1024).
 * Returns 0 and sets *out, or -1 if text is not such a number within [low, high]. */
int options_size(const char *text, uint64_t low, uint64_t high, uint64_t *out);

/* Parse a comma-separated list of sizes into out (at most capacity); returns the count or -1. */
int options_size_list(const char *text, uint64_t low, uint64_t high, uint32_t *out, size_t capacity);

/* Report a bad value of the option longs[index] (or a stray argument when value is NULL),
 * print the usage to stderr, and return 2, the exit status for bad arguments. */
int options_refuse(const char *program, const struct option *longs, int index, const char *value,
                   void (*usage)(FILE *));

#endif
