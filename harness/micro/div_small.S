// micro: independent divisions of 7 by 3, one divider (model: div_base + bitlen(7) - bitlen(3) per rep)
#define DIVIDEND 7
#define DIVISOR 3
#include "micro.inc"
MICRO_HEAD(div_small, 16)
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
