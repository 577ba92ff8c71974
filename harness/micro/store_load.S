// micro: a load right after a store to the same word; empty: the load reads the next word (model: memory.store_load_replay per rep -- 0 in e31 and hifive1-revb, as no source says the FE310's DTIM replays such a load the way Rocket's data cache does; calibrates memory.store_load_replay)
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
