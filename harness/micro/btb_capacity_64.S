// micro: a chain of 64 jumps, each to the next (model: 0 per jump while the BTB holds them all, a BTB miss each once they do not fit: mispredict or predecode penalty)
#include "micro.inc"
MICRO_HEAD(btb_capacity_64, 64)
    .balign 64
micro_body:
    .rept 64
    j 1f
    nop
1:
    .endr
    ret
micro_empty:
    .rept 64
    nop
    .endr
    ret
