/* switch.S - task_switch(save, load): the context switch of task.c (see task.h).
 * Saves sp, r4-r11 and lr (and s16-s31 when built for an FPU) at save, loads load's, and
 * returns into the loaded context: to where it called task_switch, or a new task's start. */
    .syntax unified
    .thumb
    .text
    .global task_switch
    .type task_switch, %function
    .thumb_func
task_switch:
    mov r2, sp
    stmia r0!, {r2, r4-r11, lr}
#ifdef __ARM_FP
    vstmia r0, {s16-s31}
#endif
    ldmia r1!, {r2, r4-r11, lr}
#ifdef __ARM_FP
    vldmia r1, {s16-s31}
#endif
    mov sp, r2
    bx lr
    .size task_switch, . - task_switch
