// micro: a chain of 16 jumps, each to the next (model: 0 per jump while the BTB holds them all, a BTB miss each once they do not fit: mispredict or predecode penalty)
#include "micro.inc"
MICRO_HEAD(btb_capacity_16, 16)
    .balign 64
micro_body:
    .rept 16
    j 1f
    nop
1:
    .endr
    ret
micro_empty:
    .rept 16
    nop
    .endr
    ret
