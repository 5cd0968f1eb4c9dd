/* task.c - cooperative tasks (see task.h). */
#include "task.h"
#include "../../core/port.h"

#include <string.h>

static struct task_context scheduler;
static struct task *current;

struct task *task_current(void)
{
    return current;
}

/* Where a new task starts: its entry, then back to the scheduler for good. */
static void task_start(void)
{
    struct task *t = current;
    t->entry(t->arg);
    t->finished = 1;
    for (;;)
        task_yield();
}

void task_init(struct task *t, void (*entry)(void *), void *arg, void *stack, size_t stack_bytes, unsigned console)
{
    memset(t, 0, sizeof *t);
    t->entry = entry;
    t->arg = arg;
    t->console = console;
    /* the stack grows down from its end, 8-byte aligned as the AAPCS asks at a call */
    t->context.sp = (uint32_t)(((uintptr_t)stack + stack_bytes) & ~(uintptr_t)7u);
    t->context.lr = (uint32_t)(uintptr_t)task_start;
}

void task_run(struct task *const *tasks, size_t count)
{
    size_t i, left = count;
    while (left > 0) {
        left = 0;
        for (i = 0; i < count; i++) {
            struct task *t = tasks[i];
            if (t->finished)
                continue;
            current = t;
            t->resumed_ns = port_now_ns();
            task_switch(&scheduler, &t->context);
            t->cpu_ns += port_now_ns() - t->resumed_ns;
            current = NULL;
            left += !t->finished;
        }
    }
}

void task_yield(void)
{
    if (current)
        task_switch(&current->context, &scheduler);
}
