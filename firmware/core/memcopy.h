/* memcopy.h - copy throughput on a CPU, shaped like the KeyStone EDMA experiments.
 *
 * Three sweeps, named as the EDMA names a transfer: ACNT bytes per row, BCNT
 * rows, a source index (bytes from one row's start to the next; index = ACNT
 * is a linear transfer) and a linear destination.
 *   size:   linear copies from min_bytes to max_bytes, steps_per_octave sizes per doubling
 *   stride: ACNT from 8 to stride_acnt_max, BCNT rows, index ACNT, ACNT + 64, ACNT + 1
 *   align:  align_bytes copied between addresses offset from a 64-byte boundary
 * Each point is timed repeats times (each time enough copies to last about
 * min_sample_ns) and checked by comparing the destination with the source.
 *
 * Memory: memcopy allocates one source and one destination buffer, each at most
 * MEMCOPY_BUFFER_MAX_BYTES (MEMCOPY_MAX_BYTES, plus 128 bytes for the alignment
 * sweep's offsets) and 64 bytes of alignment slack, and nothing that grows with a
 * count of rows or sizes beyond a few bytes each: at most 2 x MEMCOPY_MAX_BYTES and a
 * few kilobytes in all (512 MiB with the default). Every sweep must fit in that: the
 * size sweep's largest copy, the alignment sweep's copy, and the stride sweep's source,
 * which spans (BCNT - 1) x (ACNT + 64) + ACNT bytes, about 9 x its total at ACNT 8
 * (see memcopy_stride_total_max); memcopy_check refuses a configuration that does not.
 */
#ifndef GOODPUT_MEMCOPY_H
#define GOODPUT_MEMCOPY_H

#include "bench.h"

#include <stddef.h>
#include <stdint.h>

#ifndef MEMCOPY_MAX_BYTES
#define MEMCOPY_MAX_BYTES ((size_t)256 << 20) /* largest linear copy: 256 MiB */
#endif
#define MEMCOPY_BUFFER_MAX_BYTES (MEMCOPY_MAX_BYTES + 128u)
#ifndef MEMCOPY_MIN_SAMPLE_NS
#define MEMCOPY_MIN_SAMPLE_NS 200000u /* each timed sample lasts at least 0.2 ms */
#endif

enum memcopy_sweep { MEMCOPY_SIZE = 1, MEMCOPY_STRIDE = 2, MEMCOPY_ALIGN = 4 };

struct memcopy_config {
    unsigned sweeps;          /* OR of enum memcopy_sweep */
    size_t min_bytes;         /* size sweep: smallest copy */
    size_t max_bytes;         /* size sweep: largest copy, at most MEMCOPY_MAX_BYTES */
    unsigned steps_per_octave;
    unsigned repeats;         /* timed samples per point; the best and the spread are reported */
    size_t stride_acnt_max;   /* stride sweep: largest ACNT */
    size_t stride_total_bytes;/* stride sweep: ACNT x BCNT */
    size_t align_bytes;       /* alignment sweep: bytes per copy */
    uint64_t min_sample_ns;
};

void memcopy_defaults(struct memcopy_config *cfg);
/* Check a configuration: BENCH_OK or BENCH_ERR_ARGUMENT (with *why set to a reason). */
enum bench_status memcopy_check(const struct memcopy_config *cfg, const char **why);
enum bench_status memcopy_run(const struct memcopy_config *cfg);

/* Bytes of the source and of the destination buffer a configuration needs (before the
 * 64 bytes of alignment slack); a configuration memcopy_check accepts needs at most
 * MEMCOPY_BUFFER_MAX_BYTES for each. */
void memcopy_buffer_bytes(const struct memcopy_config *cfg, uint64_t *src_bytes, uint64_t *dst_bytes);
/* The largest stride sweep total whose source fits in MEMCOPY_MAX_BYTES. */
size_t memcopy_stride_total_max(void);

/* Sizes of the size sweep: writes up to capacity sizes, returns how many there are. */
size_t memcopy_sizes(size_t min_bytes, size_t max_bytes, unsigned steps_per_octave, size_t *out, size_t capacity);

/* A 2-D copy: bcnt rows of acnt bytes, source rows src_index bytes apart, destination linear. */
void memcopy_rows(unsigned char *dst, const unsigned char *src, size_t acnt, size_t bcnt, size_t src_index);
/* 0 if dst holds the rows memcopy_rows copied from src, else 1 + the first bad row. */
size_t memcopy_rows_differ(const unsigned char *dst, const unsigned char *src, size_t acnt, size_t bcnt,
                           size_t src_index);

#endif
