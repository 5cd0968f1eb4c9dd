/* test_core.c - unit tests of the benchmark core, plain assert as iperf's t_units.c does. */
#define _POSIX_C_SOURCE 200809L /* fileno, dup, dup2: to point stdout at /dev/full for a moment */
#undef NDEBUG
#include "../core/bench.h"
#include "../core/memcopy.h"
#include "../core/tcp_bench.h"
#include "../port/posix/options.h"

#include "../core/port.h"

#include <assert.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void test_sizes_are_log_spaced_and_end_at_the_maximum(void)
{
    size_t out[64];
    size_t n = memcopy_sizes(16, 256, 2, out, 64);
    size_t want[] = {16, 23, 32, 45, 64, 91, 128, 181, 256};
    size_t i;
    assert(n == sizeof want / sizeof want[0]);
    for (i = 0; i < n; i++)
        assert(out[i] == want[i]);
    n = memcopy_sizes(16, 100, 1, out, 64);
    assert(n == 4 && out[3] == 100);
    assert(memcopy_sizes(0, 100, 1, out, 64) == 0);
    assert(memcopy_sizes(200, 100, 1, out, 64) == 0);
    /* counting goes on past capacity so callers can tell */
    assert(memcopy_sizes(1, 1024, 1, out, 4) == 11);
}

static void test_rows_copy_and_verify_with_any_index(void)
{
    unsigned char src[256], dst[64];
    size_t i;
    for (i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)i;
    memset(dst, 0, sizeof dst);
    memcopy_rows(dst, src, 8, 8, 17);
    assert(dst[0] == 0 && dst[8] == 17 && dst[63] == 7 * 17 + 7);
    assert(memcopy_rows_differ(dst, src, 8, 8, 17) == 0);
    dst[9] ^= 1;
    assert(memcopy_rows_differ(dst, src, 8, 8, 17) == 2);
    memcopy_rows(dst, src, 8, 8, 8);
    assert(memcmp(dst, src, 64) == 0);
}

static void test_config_check_names_the_problem(void)
{
    struct memcopy_config cfg;
    const char *why;
    memcopy_defaults(&cfg);
    assert(memcopy_check(&cfg, &why) == BENCH_OK);
    cfg.min_bytes = 0;
    assert(memcopy_check(&cfg, &why) == BENCH_ERR_ARGUMENT && strstr(why, "smallest"));
    memcopy_defaults(&cfg);
    cfg.repeats = 0;
    assert(memcopy_check(&cfg, &why) == BENCH_ERR_ARGUMENT && strstr(why, "repeats"));
}

static void test_every_accepted_configuration_fits_two_buffers_of_the_documented_maximum(void)
{
    static const size_t totals[] = {8, 9, 1000, (size_t)1 << 20, 29826175, 29826176, (size_t)64 << 20,
                                    (size_t)256 << 20};
    static const size_t acnts[] = {8, 9, 64, 8192, (size_t)1 << 20, (size_t)256 << 20};
    struct memcopy_config cfg;
    const char *why;
    uint64_t src, dst;
    size_t t, a;
    unsigned sweeps;

    /* the default: a 256 MiB linear copy and 64 KiB at offsets: two buffers of 256 MiB + 128 */
    memcopy_defaults(&cfg);
    memcopy_buffer_bytes(&cfg, &src, &dst);
    assert(src == MEMCOPY_BUFFER_MAX_BYTES - 128u && dst == src);
    /* the report: a 256 MiB stride sweep from ACNT 8 spans 2.25 GiB of source; refused, with the reason */
    cfg.sweeps = MEMCOPY_STRIDE;
    cfg.stride_total_bytes = (size_t)256 << 20;
    cfg.stride_acnt_max = 8;
    assert(memcopy_check(&cfg, &why) == BENCH_ERR_ARGUMENT && strstr(why, "stride sweep's source"));
    cfg.stride_total_bytes = memcopy_stride_total_max();
    assert(memcopy_check(&cfg, &why) == BENCH_OK);
    memcopy_buffer_bytes(&cfg, &src, &dst);
    assert(src <= MEMCOPY_MAX_BYTES && src > MEMCOPY_MAX_BYTES - 72u);
    assert(dst == cfg.stride_total_bytes); /* the destination is linear: the total, not the span */
    cfg.stride_total_bytes++;
    assert(memcopy_check(&cfg, &why) == BENCH_ERR_ARGUMENT);
    /* a stride total that only the stride sweep would use is not its business without it */
    cfg.sweeps = MEMCOPY_SIZE;
    cfg.stride_total_bytes = (size_t)256 << 20;
    assert(memcopy_check(&cfg, &why) == BENCH_OK);
    /* and over a grid: whatever the check lets through fits */
    for (sweeps = 1; sweeps <= 7; sweeps++)
        for (t = 0; t < sizeof totals / sizeof totals[0]; t++)
            for (a = 0; a < sizeof acnts / sizeof acnts[0]; a++) {
                memcopy_defaults(&cfg);
                cfg.sweeps = sweeps;
                cfg.align_bytes = MEMCOPY_MAX_BYTES;
                cfg.stride_total_bytes = totals[t];
                cfg.stride_acnt_max = acnts[a];
                if (memcopy_check(&cfg, &why) != BENCH_OK)
                    continue;
                memcopy_buffer_bytes(&cfg, &src, &dst);
                assert(src <= MEMCOPY_BUFFER_MAX_BYTES && dst <= MEMCOPY_BUFFER_MAX_BYTES);
            }
}

static void test_tcp_checks_refuse_what_would_corrupt_the_log_or_hang(void)
{
    static const uint32_t sizes[] = {8192}, intervals[] = {0, 10000};
    char long_address[601];
    const char *why;
    struct tcp_testee_config ee = {"0.0.0.0", 5001, 5000, 30000, 5000};
    struct tcp_tester_config er;

    assert(tcp_testee_check(&ee, &why) == BENCH_OK);
    memset(long_address, '1', 600);
    long_address[600] = '\0';
    ee.address = long_address; /* would not fit the BENCH-CONFIG line */
    assert(tcp_testee_check(&ee, &why) == BENCH_ERR_ARGUMENT && strstr(why, "address"));
    assert(tcp_testee_run(&ee) == BENCH_ERR_ARGUMENT); /* refused before any line is written */
    ee.address = "1.2.3.4 status=ok"; /* would add a key to it */
    assert(tcp_testee_check(&ee, &why) == BENCH_ERR_ARGUMENT);
    ee.address = "";
    assert(tcp_testee_check(&ee, &why) == BENCH_ERR_ARGUMENT);
    ee.address = "127.0.0.1";
    ee.transmit_port = ee.receive_port;
    assert(tcp_testee_check(&ee, &why) == BENCH_ERR_ARGUMENT && strstr(why, "differ"));
    ee.transmit_port = 5000;
    ee.io_timeout_ms = 0;
    assert(tcp_testee_check(&ee, &why) == BENCH_ERR_ARGUMENT && strstr(why, "timeout"));

    memset(&er, 0, sizeof er);
    er.address = "127.0.0.1";
    er.receive_port = 5001;
    er.transmit_port = 5000;
    er.frame_sizes = sizes;
    er.frame_size_count = 1;
    er.intervals_us = intervals;
    er.interval_count = 2;
    er.frames = 1;
    er.connect_timeout_ms = er.io_timeout_ms = 5000;
    assert(tcp_tester_check(&er, &why) == BENCH_OK);
    er.transmit_port = 5001; /* the tester refuses equal ports as the testee does */
    assert(tcp_tester_check(&er, &why) == BENCH_ERR_ARGUMENT && strstr(why, "differ"));
    assert(tcp_tester_run(&er) == BENCH_ERR_ARGUMENT);
    er.transmit_port = 5000;
    er.io_timeout_ms = 10; /* a 10 ms pause between frames would read as a lost peer */
    assert(tcp_tester_check(&er, &why) == BENCH_ERR_ARGUMENT && strstr(why, "interval"));
    er.io_timeout_ms = 11;
    assert(tcp_tester_check(&er, &why) == BENCH_OK);
    er.frame_size_count = 0;
    assert(tcp_tester_check(&er, &why) == BENCH_ERR_ARGUMENT);
    er.frame_size_count = 1;
    er.frames = 0;
    assert(tcp_tester_check(&er, &why) == BENCH_ERR_ARGUMENT);
    er.frames = 1;
    er.address = long_address;
    assert(tcp_tester_check(&er, &why) == BENCH_ERR_ARGUMENT);
}

static void test_a_line_that_cannot_be_written_is_an_error(void)
{
    int saved, full = open("/dev/full", O_WRONLY);
    struct bench_line line;
    if (full < 0) {
        puts("test_core: no /dev/full, skipped the unwritable-output test");
        return;
    }
    fflush(stdout);
    saved = dup(fileno(stdout));
    assert(saved >= 0 && dup2(full, fileno(stdout)) >= 0);
    assert(port_write_line("BENCH-DONE bench=test status=ok") == BENCH_ERR_OUTPUT);
    assert(bench_say("BENCH-CONFIG bench=test") == BENCH_ERR_OUTPUT);
    bench_line_start(&line, "BENCH-RESULT bench=test");
    assert(bench_line_emit(&line) == BENCH_ERR_OUTPUT);
    fflush(stdout);
    clearerr(stdout);
    assert(dup2(saved, fileno(stdout)) >= 0);
    close(saved);
    close(full);
    assert(bench_say("%s", "test_core: output restored") == BENCH_OK);
    assert(strcmp(bench_strerror(BENCH_ERR_OUTPUT), "cannot write the output") == 0);
}

static void test_header_round_trips_and_rejects_garbage(void)
{
    unsigned char raw[TCP_BENCH_HEADER_BYTES];
    struct tcp_bench_header h = {TCP_BENCH_RECEIVE, 8192, 5000, 10000}, back;
    tcp_bench_encode(&h, raw);
    assert(tcp_bench_decode(raw, &back) == BENCH_OK);
    assert(back.kind == 'R' && back.frame_bytes == 8192 && back.frames == 5000 && back.interval_us == 10000);
    raw[0] = 'X';
    assert(tcp_bench_decode(raw, &back) == BENCH_ERR_PROTOCOL);
    h.frame_bytes = 0;
    tcp_bench_encode(&h, raw);
    assert(tcp_bench_decode(raw, &back) == BENCH_ERR_PROTOCOL);
    h.frame_bytes = 8192;
    h.interval_us = TCP_BENCH_MAX_INTERVAL_US + 1; /* the testee would sleep that long between frames */
    tcp_bench_encode(&h, raw);
    assert(tcp_bench_decode(raw, &back) == BENCH_ERR_PROTOCOL);
    h.interval_us = TCP_BENCH_MAX_INTERVAL_US;
    tcp_bench_encode(&h, raw);
    assert(tcp_bench_decode(raw, &back) == BENCH_OK);
    h.kind = 'Z';
    tcp_bench_encode(&h, raw);
    assert(tcp_bench_decode(raw, &back) == BENCH_ERR_PROTOCOL);
}

static void test_u64_round_trips(void)
{
    unsigned char raw[8];
    tcp_bench_put_u64(raw, 0x0123456789abcdefull);
    assert(raw[0] == 0x01 && raw[7] == 0xef);
    assert(tcp_bench_get_u64(raw) == 0x0123456789abcdefull);
}

static void test_rates_and_percentages_round_to_nearest(void)
{
    /* the NDK's first line: 40960000 bytes at 93992 kb/s take 3.486254 s */
    assert(bench_kbit_per_s(40960000u, 3486254000u) == 93992u);
    assert(bench_kbit_per_s(1000u, 0u) == 0u);
    assert(bench_kbit_per_s(UINT64_MAX / 2, 1000000000u) > 0u);
    assert(bench_percent(1, 4) == 25u && bench_percent(2, 3) == 67u && bench_percent(5, 0) == 0u);
}

static void test_line_builder_never_overflows(void)
{
    struct bench_line line;
    int i;
    bench_line_start(&line, "BENCH-RESULT");
    for (i = 0; i < 200; i++)
        bench_line_add(&line, " key%d=%d", i, i);
    assert(line.truncated == 1 && strlen(line.text) < sizeof line.text);
}

static void test_options_parse_whole_numbers_with_suffixes_only(void)
{
    uint64_t v;
    uint32_t list[4];
    assert(options_size("64K", 1, 1u << 30, &v) == 0 && v == 65536u);
    assert(options_size("256M", 1, 1u << 30, &v) == 0 && v == 268435456u);
    assert(options_size("12x", 1, 100, &v) == -1);
    assert(options_size("-1", 0, 100, &v) == -1);
    assert(options_size("", 0, 100, &v) == -1);
    assert(options_size("101", 0, 100, &v) == -1);
    assert(options_size_list("8K,16K", 1, 1u << 20, list, 4) == 2 && list[1] == 16384u);
    assert(options_size_list("8K,,16K", 1, 1u << 20, list, 4) == -1);
    assert(options_size_list("1,2,3,4,5", 1, 10, list, 4) == -1);
    /* careless numbers: blanks, signs, too many digits, bad suffixes, nothing */
    assert(options_size(" 5", 0, 100, &v) == -1);
    assert(options_size("+5", 0, 100, &v) == -1);
    assert(options_size("99999999999999999999", 0, UINT64_MAX, &v) == -1);
    assert(options_size("17179869184G", 0, UINT64_MAX, &v) == -1); /* 2^34 G overflows 64 bits */
    assert(options_size("64KB", 1, 1u << 30, &v) == -1);
    assert(options_size("1T", 1, UINT64_MAX, &v) == -1);
    assert(options_size("0x10", 0, 100, &v) == -1);
    assert(options_size(NULL, 0, 100, &v) == -1);
}

static void test_addresses_are_dotted_decimal_ipv4_only(void)
{
    char long_address[601];
    memset(long_address, '1', 600);
    long_address[600] = '\0';
    assert(options_ipv4("127.0.0.1") == 0 && options_ipv4("0.0.0.0") == 0 && options_ipv4("255.255.255.255") == 0);
    assert(options_ipv4("localhost") == -1);
    assert(options_ipv4("256.0.0.1") == -1);
    assert(options_ipv4("::1") == -1);
    assert(options_ipv4("1.2.3") == -1);
    assert(options_ipv4("1.2.3.4 ") == -1);
    assert(options_ipv4("") == -1);
    assert(options_ipv4(long_address) == -1);
}

int main(void)
{
    test_sizes_are_log_spaced_and_end_at_the_maximum();
    test_rows_copy_and_verify_with_any_index();
    test_config_check_names_the_problem();
    test_every_accepted_configuration_fits_two_buffers_of_the_documented_maximum();
    test_tcp_checks_refuse_what_would_corrupt_the_log_or_hang();
    test_a_line_that_cannot_be_written_is_an_error();
    test_header_round_trips_and_rejects_garbage();
    test_u64_round_trips();
    test_rates_and_percentages_round_to_nearest();
    test_line_builder_never_overflows();
    test_options_parse_whole_numbers_with_suffixes_only();
    test_addresses_are_dotted_decimal_ipv4_only();
    puts("test_core: all passed");
    return 0;
}
