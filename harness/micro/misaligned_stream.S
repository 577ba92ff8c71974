// micro: 64 straight-line 32-bit instructions at 2-mod-4 addresses (model: nothing beyond 1 cycle each: the fetch buffer joins the halves); empty: the same at 4-byte aligned addresses
#include "micro.inc"
MICRO_HEAD(misaligned_stream, 64)
    .balign 64
micro_body:
    .option rvc
    c.nop
    .option norvc
    .rept 32
    xor t0, t0, t1
    add t2, t2, t1
    .endr
    .option rvc
    c.nop
    .option norvc
    ret
micro_empty:
    .option rvc
    c.nop
    c.nop
    .option norvc
    .rept 32
    xor t0, t0, t1
    add t2, t2, t1
    .endr
    ret
