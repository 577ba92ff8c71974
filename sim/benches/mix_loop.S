/* Speed benchmark: loads, stores, a multiply and a data-dependent branch per iteration
   (10 instructions per iteration), ITER iterations. */
#include "../tests/asm/rt.h"
#ifndef ITER
#define ITER 20000000
#endif
    .section .text.start
    .globl _start
_start:
    li t0, ITER
    li a0, 0x80000100
    li a2, 12345
1:  lw a4, 0(a0)
    add a4, a4, a2
    sw a4, 4(a0)
    mul a5, a4, a2
    andi a6, t0, 1
    beqz a6, 2f
    xor a2, a2, a5
2:  lbu a7, 4(a0)
    addi t0, t0, -1
    bnez t0, 1b
    EXIT_OK
