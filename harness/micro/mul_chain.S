// micro: dependent multiplies (model: mul latency per rep)
#include "micro.inc"
MICRO_HEAD(mul_chain, 32)
    .balign 64
micro_body:
    li t0, 3
    li t1, 5
    .rept 32
    mul t0, t0, t1
    .endr
    ret
micro_empty:
    li t0, 3
    li t1, 5
    ret
