/* mps2.h - what the port knows of the Arm MPS2 board with the AN386 image (Cortex-M4F), as
 * QEMU's -M mps2-an386 emulates it: the memory map, the CMSDK APB UARTs, the core's SysTick
 * and System Control Block, and the ARM semihosting call that ends a run under QEMU.
 * AN385 (Cortex-M3) has the same map; only the FPU enable in startup.c would go.
 */
#ifndef GOODPUT_MPS2_H
#define GOODPUT_MPS2_H

#include <stdint.h>

#define MPS2_REG(address) (*(volatile uint32_t *)(address))

/* The clock SysTick counts with CLKSOURCE = 1 (the processor clock): 25 MHz on AN385/AN386,
 * so one tick is 40 ns. Under QEMU the clock runs in virtual time (see README). */
#define MPS2_SYSCLK_HZ 25000000u
#define MPS2_NS_PER_TICK (1000000000u / MPS2_SYSCLK_HZ)

/* CMSDK APB UART n (0 to 4 on AN385/AN386): data, state, control, baud divider. */
#define MPS2_UART_BASE(n) (0x40004000u + 0x1000u * (uint32_t)(n))
#define MPS2_UART_DATA(n) MPS2_REG(MPS2_UART_BASE(n) + 0x00u)
#define MPS2_UART_STATE(n) MPS2_REG(MPS2_UART_BASE(n) + 0x04u)
#define MPS2_UART_CTRL(n) MPS2_REG(MPS2_UART_BASE(n) + 0x08u)
#define MPS2_UART_BAUDDIV(n) MPS2_REG(MPS2_UART_BASE(n) + 0x10u)
#define MPS2_UART_STATE_TX_FULL 1u
#define MPS2_UART_CTRL_TX_ENABLE 1u
#define MPS2_UART_COUNT 3u /* the port uses UART0 to UART2 (see port.c) */

/* SysTick and the System Control Block (ARMv7-M Architecture Reference Manual, B3.2 and B3.3). */
#define MPS2_SYST_CSR MPS2_REG(0xE000E010u)
#define MPS2_SYST_RVR MPS2_REG(0xE000E014u)
#define MPS2_SYST_CVR MPS2_REG(0xE000E018u)
#define MPS2_SYST_CSR_ENABLE 1u
#define MPS2_SYST_CSR_TICKINT 2u
#define MPS2_SYST_CSR_CLKSOURCE 4u
#define MPS2_SYST_RELOAD 0xFFFFFFu /* the 24-bit counter's whole range: a wrap every 2^24 ticks */
#define MPS2_SCB_ICSR MPS2_REG(0xE000ED04u)
#define MPS2_SCB_ICSR_PENDSTSET (1u << 26)
#define MPS2_SCB_CPACR MPS2_REG(0xE000ED88u)
#define MPS2_SCB_CFSR MPS2_REG(0xE000ED28u)

/* The port's own board functions (startup.c, port.c). */
void mps2_console_init(void);
/* The UART that lines written outside a task go to (UART0 at reset). */
void mps2_console_select(unsigned uart);
/* Write a line on UART n: the text, then '\n'. */
void mps2_uart_line(unsigned uart, const char *text);
void mps2_clock_init(void);
/* Ticks of SysTick since mps2_clock_init, wraps included. */
uint64_t mps2_ticks(void);
/* End the run: ARM semihosting SYS_EXIT_EXTENDED, so that QEMU exits with status. On a board
 * without a debugger attached the call would fault; there the port would loop instead. */
void mps2_exit(int status) __attribute__((noreturn));

#endif
