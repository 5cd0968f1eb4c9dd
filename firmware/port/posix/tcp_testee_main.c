/* tcp_testee_main.c - the NDK benchmark's testee on a POSIX host. */
#define _POSIX_C_SOURCE 200809L
#include "../../core/tcp_bench.h"
#include "options.h"

#include <getopt.h>
#include <stdio.h>

static void usage(FILE *to)
{
    fprintf(to,
            "usage: tcp_testee [--address IPV4] [--receive-port N] [--transmit-port N]\n"
            "                  [--idle-timeout-ms N] [--io-timeout-ms N]\n"
            "Serves tcp_tester: counts the frames it sends to the receive port (the NDK's 1001),\n"
            "streams frames from the transmit port (the NDK's 1000), and reports throughput and\n"
            "CPU load of each run. Exits 0 when the tester says it is done, non-zero when a stream\n"
            "breaks off or no tester comes within the idle timeout.\n");
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        {"address", required_argument, NULL, 'a'},       {"receive-port", required_argument, NULL, 'r'},
        {"transmit-port", required_argument, NULL, 't'}, {"idle-timeout-ms", required_argument, NULL, 'i'},
        {"io-timeout-ms", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    struct tcp_testee_config cfg = {"0.0.0.0", 5001, 5000, 30000, 5000};
    int opt, index = -1;
    enum bench_status st;

    while ((opt = getopt_long(argc, argv, "h", longs, &index)) != -1) {
        uint64_t v = 0;
        int bad = 0;
        switch (opt) {
        case 'a': cfg.address = optarg; break;
        case 'r': bad = options_size(optarg, 1, 65535, &v); cfg.receive_port = (unsigned)v; break;
        case 't': bad = options_size(optarg, 1, 65535, &v); cfg.transmit_port = (unsigned)v; break;
        case 'i': bad = options_size(optarg, 1, 3600000, &v); cfg.idle_timeout_ms = (unsigned)v; break;
        case 'o': bad = options_size(optarg, 1, 3600000, &v); cfg.io_timeout_ms = (unsigned)v; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
        if (bad)
            return options_refuse("tcp_testee", longs, index, optarg, usage);
        index = -1;
    }
    if (optind < argc || cfg.receive_port == cfg.transmit_port) {
        fprintf(stderr, optind < argc ? "tcp_testee: unexpected argument: %s\n"
                                      : "tcp_testee: the receive and transmit ports must differ%s\n",
                optind < argc ? argv[optind] : "");
        usage(stderr);
        return 2;
    }
    st = tcp_testee_run(&cfg);
    if (st != BENCH_OK) {
        fprintf(stderr, "tcp_testee: %s\n", bench_strerror(st));
        return 1;
    }
    return 0;
}
