/* startup.c - reset and fault handling of the MPS2 AN386 image: the vector table, the C
 * run-time set-up (.data copied, .bss zeroed, picolibc's TLS block, the FPU switched on),
 * the clock and console, main, and the end of the run through ARM semihosting. */
#include "mps2.h"

#include <picotls.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern char __data_start[], __data_source[], __data_end[], __bss_start[], __bss_end[], __stack[], __tls_base[];
extern void (*const __init_array_start[])(void);
extern void (*const __init_array_end[])(void);

int main(void);
void mps2_reset(void);
void mps2_systick(void);
static void fault(void);

/* ARMv7-M vectors: the initial stack pointer, then the handlers; external interrupts are not used. */
typedef void (*vector)(void);
__attribute__((section(".vectors"), used)) static const vector vectors[16] = {
    (vector)(uintptr_t)__stack, mps2_reset, fault, /* NMI */ fault, /* HardFault */
    fault, /* MemManage */ fault, /* BusFault */ fault, /* UsageFault */ NULL, NULL, NULL, NULL,
    fault, /* SVCall */ fault, /* DebugMonitor */ NULL, fault, /* PendSV */ mps2_systick};

void mps2_reset(void)
{
    size_t i, n = (size_t)(__init_array_end - __init_array_start);

    memcpy(__data_start, __data_source, (size_t)(__data_end - __data_start));
    memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
    _set_tls(__tls_base);
    /* CP10 and CP11 (the FPU) full access; the code is built for the hard-float ABI */
    MPS2_SCB_CPACR |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    for (i = 0; i < n; i++)
        __init_array_start[i]();
    mps2_console_init();
    mps2_clock_init();
    mps2_exit(main());
}

/* A fault ends the run with a machine line the parsers refuse, so no log of it passes for a result. */
static void fault(void)
{
    char line[96];
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    snprintf(line, sizeof line, "BENCH-ERROR error=processor fault: exception %lu, CFSR 0x%08lx",
             (unsigned long)(ipsr & 0x1FFu), (unsigned long)MPS2_SCB_CFSR);
    mps2_uart_line(0, line);
    mps2_exit(3);
}

/* ARM semihosting (ARM IHI 0060): operation in r0, parameter block in r1, BKPT 0xAB on M profile. */
#define SEMIHOST_SYS_EXIT_EXTENDED 0x20u
#define SEMIHOST_ADP_STOPPED_APPLICATION_EXIT 0x20026u

void mps2_exit(int status)
{
    volatile uint32_t block[2];
    register uint32_t r0 __asm__("r0") = SEMIHOST_SYS_EXIT_EXTENDED;
    register volatile uint32_t *r1 __asm__("r1") = block;
    block[0] = SEMIHOST_ADP_STOPPED_APPLICATION_EXIT;
    block[1] = (uint32_t)status;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    for (;;) /* no debugger answered: stop here */
        __asm__ volatile("wfi");
}
