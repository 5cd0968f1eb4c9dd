/* tcp_tester_main.c - the NDK benchmark's tester on a POSIX host. */
#define _POSIX_C_SOURCE 200809L
#include "../../core/tcp_bench.h"
#include "options.h"

#include <getopt.h>
#include <stdio.h>

static void usage(FILE *to)
{
    fprintf(to,
            "usage: tcp_tester [--address IPV4] [--receive-port N] [--transmit-port N]\n"
            "                  [--frame-sizes LIST] [--intervals-ms LIST] [--frames N]\n"
            "                  [--connect-timeout-ms N] [--io-timeout-ms N] [--no-quit]\n"
            "Drives tcp_testee as the NDK tester does: for each frame size (default 8K,16K,32K,64K)\n"
            "and interval between frames (default 0,10,30 ms; 0 = as fast as possible) it streams\n"
            "FRAMES frames (default 5000) to the testee, then asks for the same stream back.\n");
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        {"address", required_argument, NULL, 'a'},      {"receive-port", required_argument, NULL, 'r'},
        {"transmit-port", required_argument, NULL, 't'}, {"frame-sizes", required_argument, NULL, 's'},
        {"intervals-ms", required_argument, NULL, 'i'},  {"frames", required_argument, NULL, 'f'},
        {"connect-timeout-ms", required_argument, NULL, 'c'}, {"io-timeout-ms", required_argument, NULL, 'o'},
        {"no-quit", no_argument, NULL, 'q'},             {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    uint32_t sizes[16] = {8192, 16384, 32768, 65536}, intervals[16] = {0, 10000, 30000};
    struct tcp_tester_config cfg;
    int opt, index = -1, n;
    size_t k;
    enum bench_status st;

    cfg.address = "127.0.0.1";
    cfg.receive_port = 5001;
    cfg.transmit_port = 5000;
    cfg.frame_sizes = sizes;
    cfg.frame_size_count = 4;
    cfg.intervals_us = intervals;
    cfg.interval_count = 3;
    cfg.frames = TCP_BENCH_FRAMES;
    cfg.connect_timeout_ms = 5000;
    cfg.io_timeout_ms = 5000;
    cfg.quit = 1;
    while ((opt = getopt_long(argc, argv, "h", longs, &index)) != -1) {
        uint64_t v = 0;
        int bad = 0;
        switch (opt) {
        case 'a': cfg.address = optarg; break;
        case 'r': bad = options_size(optarg, 1, 65535, &v); cfg.receive_port = (unsigned)v; break;
        case 't': bad = options_size(optarg, 1, 65535, &v); cfg.transmit_port = (unsigned)v; break;
        case 's':
            n = options_size_list(optarg, 1, TCP_BENCH_MAX_FRAME_BYTES, sizes, 16);
            bad = n < 0;
            cfg.frame_size_count = n < 0 ? 0 : (size_t)n;
            break;
        case 'i':
            n = options_size_list(optarg, 0, 60000, intervals, 16);
            bad = n < 0;
            cfg.interval_count = n < 0 ? 0 : (size_t)n;
            for (k = 0; k < cfg.interval_count; k++)
                intervals[k] *= 1000u;
            break;
        case 'f': bad = options_size(optarg, 1, 100000000, &v); cfg.frames = (uint32_t)v; break;
        case 'c': bad = options_size(optarg, 1, 3600000, &v); cfg.connect_timeout_ms = (unsigned)v; break;
        case 'o': bad = options_size(optarg, 1, 3600000, &v); cfg.io_timeout_ms = (unsigned)v; break;
        case 'q': cfg.quit = 0; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
        if (bad)
            return options_refuse("tcp_tester", longs, index, optarg, usage);
        index = -1;
    }
    if (optind < argc)
        return options_refuse("tcp_tester", longs, -1, argv[optind], usage);
    st = tcp_tester_run(&cfg);
    if (st != BENCH_OK) {
        fprintf(stderr, "tcp_tester: %s\n", bench_strerror(st));
        return 1;
    }
    return 0;
}
