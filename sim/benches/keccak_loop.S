/* Speed benchmark: the Keccak-f[1600] permutation of crypto/keccakf1600/rv32i (linked in),
   ITER times (default 40000 -> 460 M instructions) on a state in DTIM. */
#include "../tests/asm/rt.h"
#ifndef ITER
#define ITER 40000
#endif
    .section .text.start
    .globl _start
_start:
    li sp, 0x80004000
    li s0, ITER
1:  li a0, 0x80000100
    call keccakf1600_permute
    addi s0, s0, -1
    bnez s0, 1b
    EXIT_OK
