/* port.c - the MPS2 AN386 port of port.h: time from SysTick, lines on a CMSDK UART, CPU time
 * per task; the sockets are the in-memory loop of loop.c.
 *
 * Time: SysTick counts the 25 MHz processor clock over its 24-bit range; its interrupt counts
 * the wraps, so port_now_ns has 40 ns steps and does not wrap for 91 years (2^32 wraps of 2^24 ticks). Under QEMU
 * with -icount the clock is virtual: it advances with the instructions executed (see README).
 * Consoles: a line goes to the UART of the running task (task.h); outside a task, to UART0
 * or the one mps2_console_select chose.
 */
#include "../../core/port.h"
#include "../../core/bench.h"
#include "mps2.h"
#include "task.h"

static volatile uint32_t systick_wraps;
static unsigned main_console; /* the UART of lines written outside a task */

void mps2_console_select(unsigned uart)
{
    main_console = uart;
}

void mps2_systick(void)
{
    systick_wraps++;
}

void mps2_clock_init(void)
{
    MPS2_SYST_RVR = MPS2_SYST_RELOAD;
    MPS2_SYST_CVR = 0; /* any write clears the counter: it loads RELOAD on the next tick */
    MPS2_SYST_CSR = MPS2_SYST_CSR_ENABLE | MPS2_SYST_CSR_TICKINT | MPS2_SYST_CSR_CLKSOURCE;
    while (MPS2_SYST_CVR == 0) {
    }
}

uint64_t mps2_ticks(void)
{
    uint32_t wraps, count;
    /* with interrupts off, a wrap whose interrupt is pending is counted here */
    __asm__ volatile("cpsid i" ::: "memory");
    wraps = systick_wraps;
    count = MPS2_SYST_CVR;
    if (MPS2_SCB_ICSR & MPS2_SCB_ICSR_PENDSTSET) {
        count = MPS2_SYST_CVR;
        wraps++;
    }
    __asm__ volatile("cpsie i" ::: "memory");
    return (uint64_t)wraps * (MPS2_SYST_RELOAD + 1u) + (MPS2_SYST_RELOAD - count);
}

void mps2_console_init(void)
{
    unsigned n;
    for (n = 0; n < MPS2_UART_COUNT; n++) {
        MPS2_UART_BAUDDIV(n) = 16; /* the smallest divider the UART accepts; QEMU ignores the rate */
        MPS2_UART_CTRL(n) = MPS2_UART_CTRL_TX_ENABLE;
    }
}

void mps2_uart_line(unsigned uart, const char *text)
{
    const char *p;
    for (p = text;; p++) {
        char c = *p ? *p : '\n';
        while (MPS2_UART_STATE(uart) & MPS2_UART_STATE_TX_FULL) {
        }
        MPS2_UART_DATA(uart) = (uint32_t)(unsigned char)c;
        if (!*p)
            break;
    }
}

uint64_t port_now_ns(void)
{
    return mps2_ticks() * MPS2_NS_PER_TICK;
}

uint64_t port_cpu_ns(void)
{
    /* no operating system: outside a task the program has had the core all along */
    struct task *t = task_current();
    return t ? t->cpu_ns + (port_now_ns() - t->resumed_ns) : port_now_ns();
}

int port_machine_ticks(uint64_t *busy, uint64_t *total)
{
    (void)busy;
    (void)total;
    return -1; /* one program owns the core: there is no machine load apart from it */
}

int port_write_line(const char *line)
{
    struct task *t = task_current();
    unsigned uart = t ? t->console : main_console;
    if (uart >= MPS2_UART_COUNT)
        return BENCH_ERR_OUTPUT;
    mps2_uart_line(uart, line);
    return 0;
}

void port_sleep_ns(uint64_t ns)
{
    /* the other task runs meanwhile; alone, this waits on the clock */
    uint64_t due = port_now_ns() + ns;
    while (port_now_ns() < due)
        task_yield();
}
