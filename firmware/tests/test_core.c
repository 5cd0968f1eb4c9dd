/* test_core.c - unit tests of the benchmark core, plain assert as iperf's t_units.c does. */
#undef NDEBUG
#include "../core/bench.h"
#include "../core/memcopy.h"
#include "../core/tcp_bench.h"
#include "../port/posix/options.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

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
}

int main(void)
{
    test_sizes_are_log_spaced_and_end_at_the_maximum();
    test_rows_copy_and_verify_with_any_index();
    test_config_check_names_the_problem();
    test_header_round_trips_and_rejects_garbage();
    test_u64_round_trips();
    test_rates_and_percentages_round_to_nearest();
    test_line_builder_never_overflows();
    test_options_parse_whole_numbers_with_suffixes_only();
    puts("test_core: all passed");
    return 0;
}
