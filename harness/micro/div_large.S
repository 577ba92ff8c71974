// micro: independent divisions of 0xffffffff by 1, one divider (model: div_base + 32 - 1 per rep)
#define DIVIDEND 0xffffffff
#define DIVISOR 1
#include "micro.inc"
MICRO_HEAD(div_large, 16)
    .balign 64
micro_body:
    li a1, DIVIDEND
    li a2, DIVISOR
    .rept 16
    divu t0, a1, a2
    .endr
    mv t1, t0
    ret
micro_empty:
    li a1, DIVIDEND
    li a2, DIVISOR
    mv t1, t0
    ret
