/* memcopy.c - the copy benchmark core (see memcopy.h). */
#include "memcopy.h"
#include "port.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ALIGNMENT 64u

void memcopy_defaults(struct memcopy_config *cfg)
{
    cfg->sweeps = MEMCOPY_SIZE | MEMCOPY_STRIDE | MEMCOPY_ALIGN;
    cfg->min_bytes = 16;
    cfg->max_bytes = MEMCOPY_MAX_BYTES;
    cfg->steps_per_octave = 2;
    cfg->repeats = 7;
    cfg->stride_acnt_max = 8192;
    cfg->stride_total_bytes = (size_t)1 << 20;
    cfg->align_bytes = (size_t)64 << 10;
    cfg->min_sample_ns = MEMCOPY_MIN_SAMPLE_NS;
}

/* The stride sweep's source: BCNT - 1 rows of the widest index, ACNT + 64, then one row. */
static uint64_t stride_span(size_t acnt, size_t total)
{
    uint64_t bcnt = total / acnt;
    return bcnt == 0 ? 0 : (bcnt - 1) * ((uint64_t)acnt + 64u) + acnt;
}

void memcopy_buffer_bytes(const struct memcopy_config *cfg, uint64_t *src_bytes, uint64_t *dst_bytes)
{
    uint64_t src = 0, dst = 0;
    if (cfg->sweeps & MEMCOPY_SIZE)
        src = dst = cfg->max_bytes;
    if (cfg->sweeps & MEMCOPY_STRIDE) {
        size_t acnt;
        /* the destination is linear: ACNT x BCNT is at most the total */
        if (cfg->stride_total_bytes > dst)
            dst = cfg->stride_total_bytes;
        for (acnt = 8; acnt >= 8 && acnt <= cfg->stride_acnt_max; acnt *= 2)
            if (stride_span(acnt, cfg->stride_total_bytes) > src)
                src = stride_span(acnt, cfg->stride_total_bytes);
    }
    if (cfg->sweeps & MEMCOPY_ALIGN) {
        /* offsets from 0 to 63 bytes at each end, from a 64-byte boundary */
        uint64_t need = (uint64_t)cfg->align_bytes + 2 * ALIGNMENT;
        if (need > src)
            src = need;
        if (need > dst)
            dst = need;
    }
    *src_bytes = src;
    *dst_bytes = dst;
}

size_t memcopy_stride_total_max(void)
{
    /* ACNT 8 spans the most: (BCNT - 1) x 72 + 8 <= MEMCOPY_MAX_BYTES, and 7 bytes that do not make a row */
    uint64_t bcnt = ((uint64_t)MEMCOPY_MAX_BYTES - 8u) / 72u + 1u;
    uint64_t total = bcnt * 8u + 7u;
    return total > MEMCOPY_MAX_BYTES ? MEMCOPY_MAX_BYTES : (size_t)total;
}

enum bench_status memcopy_check(const struct memcopy_config *cfg, const char **why)
{
    *why = "";
    if (cfg->sweeps == 0 || cfg->sweeps > 7)
        *why = "choose at least one sweep of size, stride, align";
    else if (cfg->min_bytes < 1 || cfg->min_bytes > cfg->max_bytes)
        *why = "the smallest size must be at least 1 byte and not above the largest";
    else if (cfg->max_bytes > MEMCOPY_MAX_BYTES)
        *why = "the largest size is above MEMCOPY_MAX_BYTES";
    else if (cfg->steps_per_octave < 1 || cfg->steps_per_octave > 16)
        *why = "steps per octave must be from 1 to 16";
    else if (cfg->repeats < 1 || cfg->repeats > 1000)
        *why = "repeats must be from 1 to 1000";
    else if (cfg->stride_acnt_max < 8 || cfg->stride_acnt_max > cfg->stride_total_bytes)
        *why = "the largest ACNT must be from 8 bytes to the stride sweep's total";
    else if (cfg->stride_total_bytes > MEMCOPY_MAX_BYTES)
        *why = "the stride sweep's total is above MEMCOPY_MAX_BYTES";
    else if ((cfg->sweeps & MEMCOPY_STRIDE) && cfg->stride_total_bytes > memcopy_stride_total_max())
        *why = "the stride sweep's source would not fit in MEMCOPY_MAX_BYTES: with index ACNT + 64 it spans "
               "(BCNT - 1) x (ACNT + 64) + ACNT bytes, 9 times the total at ACNT 8; lower the total";
    else if (cfg->align_bytes < 1 || cfg->align_bytes > MEMCOPY_MAX_BYTES)
        *why = "the alignment sweep's size must be from 1 byte to MEMCOPY_MAX_BYTES";
    else if (cfg->min_sample_ns < 1000)
        *why = "a sample must last at least 1000 ns";
    return **why ? BENCH_ERR_ARGUMENT : BENCH_OK;
}

size_t memcopy_sizes(size_t min_bytes, size_t max_bytes, unsigned steps_per_octave, size_t *out, size_t capacity)
{
    size_t count = 0, last = 0;
    unsigned k;

    if (min_bytes < 1 || min_bytes > max_bytes || steps_per_octave < 1)
        return 0;
    for (k = 0; ; k++) {
        double size = (double)min_bytes * exp2((double)k / steps_per_octave);
        size_t rounded;
        if (size > (double)max_bytes + 0.5)
            break;
        rounded = (size_t)(size + 0.5);
        if (rounded != last) {
            if (count < capacity)
                out[count] = rounded;
            count++;
            last = rounded;
        }
    }
    if (last != max_bytes) {
        if (count < capacity)
            out[count] = max_bytes;
        count++;
    }
    return count;
}

void memcopy_rows(unsigned char *dst, const unsigned char *src, size_t acnt, size_t bcnt, size_t src_index)
{
    size_t b;
    if (src_index == acnt) {
        memcpy(dst, src, acnt * bcnt);
        return;
    }
    for (b = 0; b < bcnt; b++)
        memcpy(dst + b * acnt, src + b * src_index, acnt);
}

size_t memcopy_rows_differ(const unsigned char *dst, const unsigned char *src, size_t acnt, size_t bcnt,
                           size_t src_index)
{
    size_t b;
    for (b = 0; b < bcnt; b++)
        if (memcmp(dst + b * acnt, src + b * src_index, acnt) != 0)
            return b + 1;
    return 0;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    size_t i;
    uint32_t x = 2463534242u ^ seed;
    for (i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (unsigned char)x;
    }
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Copies are called through a volatile pointer, so the compiler can neither see that a
 * repeated copy rewrites the same bytes nor drop one: every timed copy happens. */
static void (*volatile copy_rows)(unsigned char *, const unsigned char *, size_t, size_t, size_t) = memcopy_rows;

struct sample {
    uint64_t iterations;
    uint64_t best_ns, median_ns, worst_ns;
};

/* Time bcnt rows of acnt bytes: repeats samples, each of enough iterations. */
static enum bench_status time_rows(const struct memcopy_config *cfg, unsigned char *dst, const unsigned char *src,
                                   size_t acnt, size_t bcnt, size_t src_index, struct sample *out)
{
    uint64_t *times = malloc(cfg->repeats * sizeof *times);
    uint64_t iterations = 1, t0, elapsed;
    unsigned r;

    if (!times)
        return BENCH_ERR_MEMORY;
    /* calibrate: double the iterations until one sample lasts min_sample_ns */
    for (;;) {
        uint64_t i;
        t0 = port_now_ns();
        for (i = 0; i < iterations; i++)
            copy_rows(dst, src, acnt, bcnt, src_index);
        elapsed = port_now_ns() - t0;
        if (elapsed >= cfg->min_sample_ns || iterations >= ((uint64_t)1 << 40))
            break;
        iterations *= 2;
    }
    for (r = 0; r < cfg->repeats; r++) {
        uint64_t i;
        t0 = port_now_ns();
        for (i = 0; i < iterations; i++)
            copy_rows(dst, src, acnt, bcnt, src_index);
        times[r] = port_now_ns() - t0;
    }
    qsort(times, cfg->repeats, sizeof *times, compare_u64);
    out->iterations = iterations;
    out->best_ns = times[0];
    out->median_ns = times[cfg->repeats / 2];
    out->worst_ns = times[cfg->repeats - 1];
    free(times);
    /* the answer: refill the source, copy once more, compare */
    memset(dst, 0, acnt * bcnt);
    memcopy_rows(dst, src, acnt, bcnt, src_index);
    return memcopy_rows_differ(dst, src, acnt, bcnt, src_index) ? BENCH_ERR_VERIFY : BENCH_OK;
}

static enum bench_status emit(const char *sweep, size_t acnt, size_t bcnt, size_t src_index, size_t src_offset,
                              size_t dst_offset, const struct sample *s)
{
    struct bench_line line;
    bench_line_start(&line, "BENCH-RESULT bench=memcopy");
    bench_line_add(&line, " sweep=%s acnt=%lu bcnt=%lu src_index=%lu src_offset=%lu dst_offset=%lu", sweep,
                   (unsigned long)acnt, (unsigned long)bcnt, (unsigned long)src_index, (unsigned long)src_offset,
                   (unsigned long)dst_offset);
    bench_line_add(&line, " bytes=%lu iterations=%llu best_ns=%llu median_ns=%llu worst_ns=%llu verified=1",
                   (unsigned long)(acnt * bcnt), (unsigned long long)s->iterations,
                   (unsigned long long)s->best_ns, (unsigned long long)s->median_ns,
                   (unsigned long long)s->worst_ns);
    return bench_line_emit(&line);
}

static enum bench_status human(const char *what, size_t bytes, const struct sample *s)
{
    uint64_t moved = (uint64_t)bytes * s->iterations;
    return bench_say("%s: %lu bytes at %llu MB/s (best of the samples; median %llu MB/s)", what, (unsigned long)bytes,
                     (unsigned long long)(moved * 1000u / (s->best_ns ? s->best_ns : 1)),
                     (unsigned long long)(moved * 1000u / (s->median_ns ? s->median_ns : 1)));
}

static enum bench_status fail(enum bench_status st, const char *sweep, size_t acnt)
{
    bench_say("BENCH-ERROR bench=memcopy sweep=%s acnt=%lu error=%s", sweep, (unsigned long)acnt,
              bench_strerror(st));
    return st;
}

enum bench_status memcopy_run(const struct memcopy_config *cfg)
{
    const char *why;
    enum bench_status st = memcopy_check(cfg, &why);
    uint64_t src_bytes, dst_bytes;
    size_t i;
    unsigned char *src_block, *dst_block, *src, *dst;

    if (st != BENCH_OK)
        return st;
    st = bench_say("BENCH-CONFIG bench=memcopy sweeps=%u min_bytes=%lu max_bytes=%lu steps_per_octave=%u "
                   "repeats=%u stride_acnt_max=%lu stride_total_bytes=%lu align_bytes=%lu min_sample_ns=%llu",
                   cfg->sweeps, (unsigned long)cfg->min_bytes, (unsigned long)cfg->max_bytes,
                   cfg->steps_per_octave, cfg->repeats, (unsigned long)cfg->stride_acnt_max,
                   (unsigned long)cfg->stride_total_bytes, (unsigned long)cfg->align_bytes,
                   (unsigned long long)cfg->min_sample_ns);
    if (st != BENCH_OK)
        return st;
    /* two buffers, each no larger than the sweeps need (see memcopy.h) */
    memcopy_buffer_bytes(cfg, &src_bytes, &dst_bytes);
    src_block = malloc((size_t)src_bytes + ALIGNMENT);
    dst_block = malloc((size_t)dst_bytes + ALIGNMENT);
    if (!src_block || !dst_block) {
        free(src_block);
        free(dst_block);
        return fail(BENCH_ERR_MEMORY, "setup", 0);
    }
    src = src_block + (ALIGNMENT - (uintptr_t)src_block % ALIGNMENT) % ALIGNMENT;
    dst = dst_block + (ALIGNMENT - (uintptr_t)dst_block % ALIGNMENT) % ALIGNMENT;
    fill(src, (size_t)src_bytes, 1);
    memset(dst, 0, (size_t)dst_bytes);

    if (cfg->sweeps & MEMCOPY_SIZE) {
        /* every size of the sweep, however many the build's MEMCOPY_MAX_BYTES makes */
        size_t n = memcopy_sizes(cfg->min_bytes, cfg->max_bytes, cfg->steps_per_octave, NULL, 0);
        size_t *sizes = malloc(n * sizeof *sizes);
        if (!sizes)
            st = fail(BENCH_ERR_MEMORY, "size", 0);
        else
            memcopy_sizes(cfg->min_bytes, cfg->max_bytes, cfg->steps_per_octave, sizes, n);
        for (i = 0; sizes && i < n && st == BENCH_OK; i++) {
            struct sample s;
            st = time_rows(cfg, dst, src, sizes[i], 1, sizes[i], &s);
            if (st != BENCH_OK) {
                fail(st, "size", sizes[i]);
                break;
            }
            st = emit("size", sizes[i], 1, sizes[i], 0, 0, &s);
            if (st == BENCH_OK)
                st = human("linear copy", sizes[i], &s);
        }
        free(sizes);
    }
    if ((cfg->sweeps & MEMCOPY_STRIDE) && st == BENCH_OK) {
        size_t acnt;
        for (acnt = 8; acnt <= cfg->stride_acnt_max && st == BENCH_OK; acnt *= 2) {
            size_t bcnt = cfg->stride_total_bytes / acnt;
            size_t indexes[3];
            unsigned k;
            indexes[0] = acnt;
            indexes[1] = acnt + 64;
            indexes[2] = acnt + 1;
            for (k = 0; k < 3 && st == BENCH_OK; k++) {
                struct sample s;
                st = time_rows(cfg, dst, src, acnt, bcnt, indexes[k], &s);
                if (st != BENCH_OK) {
                    fail(st, "stride", acnt);
                    break;
                }
                st = emit("stride", acnt, bcnt, indexes[k], 0, 0, &s);
            }
        }
    }
    if ((cfg->sweeps & MEMCOPY_ALIGN) && st == BENCH_OK) {
        static const size_t offsets[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {4, 0}, {8, 0}, {8, 8},
                                            {16, 0}, {32, 0}, {63, 0}, {0, 63}, {32, 32}};
        for (i = 0; i < sizeof offsets / sizeof offsets[0] && st == BENCH_OK; i++) {
            struct sample s;
            size_t n = cfg->align_bytes;
            st = time_rows(cfg, dst + offsets[i][1], src + offsets[i][0], n, 1, n, &s);
            if (st != BENCH_OK) {
                fail(st, "align", n);
                break;
            }
            st = emit("align", n, 1, n, offsets[i][0], offsets[i][1], &s);
        }
    }
    free(src_block);
    free(dst_block);
    if (st == BENCH_OK)
        st = bench_say("BENCH-DONE bench=memcopy status=ok");
    return st;
}
