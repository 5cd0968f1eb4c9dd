/* memcopy_main.c - command line of the copy benchmark on a POSIX host. */
#define _POSIX_C_SOURCE 200809L
#include "../../core/memcopy.h"
#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *to)
{
    fprintf(to,
            "usage: memcopy [--sweep size,stride,align] [--min-bytes N] [--max-bytes N] [--steps N]\n"
            "               [--repeats N] [--stride-acnt-max N] [--stride-total N] [--align-bytes N]\n"
            "               [--min-sample-ns N]\n"
            "Copy throughput vs size, vs row index (ACNT/BCNT/index as the EDMA names them) and vs\n"
            "alignment; every copy is checked. Sizes take K, M or G (powers of 1024), up to %lu bytes.\n"
            "It needs two buffers of at most that size each; the stride sweep's source spans about\n"
            "9 times its total (index ACNT + 64 at ACNT 8), so --stride-total is at most %lu.\n",
            (unsigned long)MEMCOPY_MAX_BYTES, (unsigned long)memcopy_stride_total_max());
}

static int parse_sweeps(const char *text, unsigned *out)
{
    char copy[64], *item, *save = NULL;
    unsigned sweeps = 0;
    size_t len = strlen(text);
    /* every comma between two names: "size,,align" and "size," are mistakes, not lists */
    if (len == 0 || len >= sizeof copy || text[0] == ',' || text[len - 1] == ',' || strstr(text, ",,"))
        return -1;
    strcpy(copy, text);
    for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (strcmp(item, "size") == 0)
            sweeps |= MEMCOPY_SIZE;
        else if (strcmp(item, "stride") == 0)
            sweeps |= MEMCOPY_STRIDE;
        else if (strcmp(item, "align") == 0)
            sweeps |= MEMCOPY_ALIGN;
        else
            return -1;
    }
    *out = sweeps;
    return sweeps ? 0 : -1;
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        {"sweep", required_argument, NULL, 'w'},      {"min-bytes", required_argument, NULL, 'a'},
        {"max-bytes", required_argument, NULL, 'b'},  {"steps", required_argument, NULL, 's'},
        {"repeats", required_argument, NULL, 'r'},    {"stride-acnt-max", required_argument, NULL, 'c'},
        {"stride-total", required_argument, NULL, 't'}, {"align-bytes", required_argument, NULL, 'l'},
        {"min-sample-ns", required_argument, NULL, 'n'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    struct memcopy_config cfg;
    const char *why;
    int opt, index = -1;

    memcopy_defaults(&cfg);
    while ((opt = getopt_long(argc, argv, "h", longs, &index)) != -1) {
        uint64_t v = 0, low = 1, high = MEMCOPY_MAX_BYTES;
        int bad = 0;
        switch (opt) {
        case 'w':
            if (parse_sweeps(optarg, &cfg.sweeps) != 0)
                return options_refuse("memcopy", longs, index, optarg, "a comma-separated list of size, stride, align",
                                      usage);
            break;
        case 'a': bad = options_size(optarg, low, high, &v); cfg.min_bytes = (size_t)v; break;
        case 'b': bad = options_size(optarg, low, high, &v); cfg.max_bytes = (size_t)v; break;
        case 's': high = 16; bad = options_size(optarg, low, high, &v); cfg.steps_per_octave = (unsigned)v; break;
        case 'r': high = 1000; bad = options_size(optarg, low, high, &v); cfg.repeats = (unsigned)v; break;
        case 'c': low = 8; bad = options_size(optarg, low, high, &v); cfg.stride_acnt_max = (size_t)v; break;
        case 't': low = 8; bad = options_size(optarg, low, high, &v); cfg.stride_total_bytes = (size_t)v; break;
        case 'l': bad = options_size(optarg, low, high, &v); cfg.align_bytes = (size_t)v; break;
        case 'n':
            low = 1000;
            high = 60000000000ull;
            bad = options_size(optarg, low, high, &v);
            cfg.min_sample_ns = v;
            break;
        case 'h': usage(stdout); return options_finish("memcopy", BENCH_OK);
        default: usage(stderr); return 2;
        }
        if (bad)
            return options_refuse_number("memcopy", longs, index, optarg, low, high, usage);
        index = -1;
    }
    if (optind < argc)
        return options_refuse("memcopy", longs, -1, argv[optind], NULL, usage);
    if (memcopy_check(&cfg, &why) != BENCH_OK)
        return options_refuse_config("memcopy", why, usage);
    return options_finish("memcopy", memcopy_run(&cfg));
}
