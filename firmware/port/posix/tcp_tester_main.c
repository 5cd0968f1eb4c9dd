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
            "FRAMES frames (default 5000) to the testee, then asks for the same stream back.\n"
            "Lists take up to 16 values; each interval must be shorter than the I/O timeout.\n");
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
    const char *why;
    int opt, index = -1, n;
    size_t k;

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
        uint64_t v = 0, low = 1, high = 65535;
        int bad = 0;
        switch (opt) {
        case 'a':
            if (options_ipv4(optarg) != 0)
                return options_refuse("tcp_tester", longs, index, optarg,
                                      "an IPv4 address in dotted decimal, such as 127.0.0.1", usage);
            cfg.address = optarg;
            break;
        case 'r': bad = options_size(optarg, low, high, &v); cfg.receive_port = (unsigned)v; break;
        case 't': bad = options_size(optarg, low, high, &v); cfg.transmit_port = (unsigned)v; break;
        case 's':
            n = options_size_list(optarg, 1, TCP_BENCH_MAX_FRAME_BYTES, sizes, 16);
            if (n < 0)
                return options_refuse("tcp_tester", longs, index, optarg,
                                      "1 to 16 sizes from 1 to 1M bytes, comma-separated", usage);
            cfg.frame_size_count = (size_t)n;
            break;
        case 'i':
            n = options_size_list(optarg, 0, 60000, intervals, 16);
            if (n < 0)
                return options_refuse("tcp_tester", longs, index, optarg,
                                      "1 to 16 intervals from 0 to 60000 ms, comma-separated", usage);
            cfg.interval_count = (size_t)n;
            for (k = 0; k < cfg.interval_count; k++)
                intervals[k] *= 1000u;
            break;
        case 'f': high = 100000000; bad = options_size(optarg, low, high, &v); cfg.frames = (uint32_t)v; break;
        case 'c':
            high = 3600000;
            bad = options_size(optarg, low, high, &v);
            cfg.connect_timeout_ms = (unsigned)v;
            break;
        case 'o': high = 3600000; bad = options_size(optarg, low, high, &v); cfg.io_timeout_ms = (unsigned)v; break;
        case 'q': cfg.quit = 0; break;
        case 'h': usage(stdout); return options_finish("tcp_tester", BENCH_OK);
        default: usage(stderr); return 2;
        }
        if (bad)
            return options_refuse_number("tcp_tester", longs, index, optarg, low, high, usage);
        index = -1;
    }
    if (optind < argc)
        return options_refuse("tcp_tester", longs, -1, argv[optind], NULL, usage);
    if (tcp_tester_check(&cfg, &why) != BENCH_OK)
        return options_refuse_config("tcp_tester", why, usage);
    return options_finish("tcp_tester", tcp_tester_run(&cfg));
}
