/* Speed benchmark: a tight 10-instruction ALU loop (8 independent ALU ops + counter + branch),
   ITER iterations (default 20e6 -> 200 M instructions). */
#include "../tests/asm/rt.h"
#ifndef ITER
#define ITER 20000000
#endif
    .section .text.start
    .globl _start
_start:
    li t0, ITER
    li a2, 1
    li a3, 3
1:  add a4, a2, a3
    xor a5, a2, a3
    sub a6, a4, a3
    or  a7, a5, a2
    slli s2, a2, 3
    srli s3, a3, 1
    and s4, a4, a5
    addi s5, a6, 7
    addi t0, t0, -1
    bnez t0, 1b
    EXIT_OK
