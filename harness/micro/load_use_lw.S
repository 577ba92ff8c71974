// micro: lw followed by an instruction that uses its result (model: lw latency + 1 per rep)
#include "micro.inc"
MICRO_HEAD(load_use_lw, 32)
    .balign 64
micro_body:
    addi sp, sp, -16
    sw zero, 0(sp)
    .rept 32
    lw t0, 0(sp)
    add t1, t0, t0
    .endr
    addi sp, sp, 16
    ret
micro_empty:
    addi sp, sp, -16
    sw zero, 0(sp)
    addi sp, sp, 16
    ret
