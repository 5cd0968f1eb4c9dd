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
            "CPU load of each run. A connection that brings no valid header within the I/O timeout\n"
            "is named on a line of its own and ignored; connections wait for their headers side by\n"
            "side, so a silent one holds up no other. Exits 0 when the tester says it is done,\n"
            "non-zero when a run breaks off or no tester comes within the idle timeout.\n");
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        {"address", required_argument, NULL, 'a'},       {"receive-port", required_argument, NULL, 'r'},
        {"transmit-port", required_argument, NULL, 't'}, {"idle-timeout-ms", required_argument, NULL, 'i'},
        {"io-timeout-ms", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    struct tcp_testee_config cfg = {"0.0.0.0", 5001, 5000, 30000, 5000};
    const char *why;
    int opt, index = -1;

    while ((opt = getopt_long(argc, argv, "h", longs, &index)) != -1) {
        uint64_t v = 0, low = 1, high = 65535;
        int bad = 0;
        switch (opt) {
        case 'a':
            if (options_ipv4(optarg) != 0)
                return options_refuse("tcp_testee", longs, index, optarg,
                                      "an IPv4 address in dotted decimal, such as 0.0.0.0 or 127.0.0.1", usage);
            cfg.address = optarg;
            break;
        case 'r': bad = options_size(optarg, low, high, &v); cfg.receive_port = (unsigned)v; break;
        case 't': bad = options_size(optarg, low, high, &v); cfg.transmit_port = (unsigned)v; break;
        case 'i': high = 3600000; bad = options_size(optarg, low, high, &v); cfg.idle_timeout_ms = (unsigned)v; break;
        case 'o': high = 3600000; bad = options_size(optarg, low, high, &v); cfg.io_timeout_ms = (unsigned)v; break;
        case 'h': usage(stdout); return options_finish("tcp_testee", BENCH_OK);
        default: usage(stderr); return 2;
        }
        if (bad)
            return options_refuse_number("tcp_testee", longs, index, optarg, low, high, usage);
        index = -1;
    }
    if (optind < argc)
        return options_refuse("tcp_testee", longs, -1, argv[optind], NULL, usage);
    if (tcp_testee_check(&cfg, &why) != BENCH_OK)
        return options_refuse_config("tcp_testee", why, usage);
    return options_finish("tcp_testee", tcp_testee_run(&cfg));
}
