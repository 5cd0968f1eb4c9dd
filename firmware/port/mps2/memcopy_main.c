/* memcopy_main.c - the copy benchmark on the MPS2 AN386 image: the host's sweeps, scaled to
 * the board's memory (a build with MEMCOPY_MAX_BYTES of 1 MiB, see the Makefile), on UART0.
 * There is no command line: the configuration is set here, and main's value is the exit status
 * QEMU reports (0 when every copy was verified and every line written). */
#include "../../core/memcopy.h"

int main(void)
{
    struct memcopy_config cfg;
    const char *why;

    memcopy_defaults(&cfg);
    /* the stride sweep's source spans about 9 x its total (memcopy.h): 64 KiB keep it within 1 MiB */
    cfg.stride_total_bytes = (size_t)64 << 10;
    if (memcopy_check(&cfg, &why) != BENCH_OK) {
        bench_say("BENCH-ERROR bench=memcopy error=%s", why);
        return 2;
    }
    return memcopy_run(&cfg) == BENCH_OK ? 0 : 1;
}
