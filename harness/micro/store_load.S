// micro: a load right after a store to the same word (model: no extra cycle; Rocket's data cache replays such a load, so silicon may differ); empty: the load reads the next word
#include "micro.inc"
MICRO_HEAD(store_load, 16)
    .balign 64
micro_body:
    addi sp, sp, -16
    .rept 16
    sw t0, 0(sp)
    lw t1, 0(sp)
    .endr
    addi sp, sp, 16
    ret
micro_empty:
    addi sp, sp, -16
    .rept 16
    sw t0, 0(sp)
    lw t1, 4(sp)
    .endr
    addi sp, sp, 16
    ret
