/* task.h - cooperative tasks, so that both ends of the TCP benchmark run in one image.
 *
 * A task runs until it calls task_yield (the in-memory sockets of loop.c do when they
 * would block, port_sleep_ns does while it waits); the scheduler then runs the next
 * unfinished task, round robin, until every task has returned. No interrupt switches
 * tasks, so the cores need no locks. Each task writes its lines to a console of its own
 * (a UART, see port.c) and has its own CPU time, which port_cpu_ns reports.
 */
#ifndef GOODPUT_MPS2_TASK_H
#define GOODPUT_MPS2_TASK_H

#include <stddef.h>
#include <stdint.h>

/* Registers a called function must preserve (AAPCS): sp, r4-r11, lr, and s16-s31 with an FPU.
 * switch.S saves and loads them in this order. */
struct task_context {
    uint32_t sp, r4_r11[8], lr;
    uint32_t s16_s31[16];
};

struct task {
    struct task_context context;
    void (*entry)(void *);
    void *arg;
    unsigned console;    /* the UART this task's lines go to */
    int finished;
    uint64_t cpu_ns;     /* time the task has run, scheduler included */
    uint64_t resumed_ns;
};

/* Prepare a task that will call entry(arg) on the given stack (8-byte aligned, at least 4 KiB). */
void task_init(struct task *t, void (*entry)(void *), void *arg, void *stack, size_t stack_bytes, unsigned console);
/* Run the tasks until each has returned from its entry. */
void task_run(struct task *const *tasks, size_t count);
/* From a task: let the others run. From outside task_run: nothing happens. */
void task_yield(void);
/* The running task, or NULL outside task_run. */
struct task *task_current(void);

/* switch.S: save the caller's context in save and continue with load's. */
void task_switch(struct task_context *save, const struct task_context *load);

#endif
