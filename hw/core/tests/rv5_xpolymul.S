/* Seed 004's xpolymul instructions (ise/srliandi, sllior, muladd, andbnexadd) on the 5-stage
   core, whose third register read port serves sllior's and andbnexadd's accumulator (the old
   rd) and muladd's rs3: on 300 pseudo-random operand pairs, that operand forwarded from MEM
   (distance 1), from WB (2) and through the register file (3), after a load (the load-use
   interlock), back to back through a chain of accumulations, and x0 as rd or rs3; built with
   M (muladd on M's multiplier) and without (muladd's own unit, rvlab/rtl.py HW_PROGRAMS). Every
   result is folded into a checksum; tests/test_hw_rv5.py compares every register write and
   every issue cycle with rvsim's. */
#include "exit.inc"
#include "ise.inc"
#define MIX(r) xor s0, s0, r; slli t6, s0, 7; srli s0, s0, 25; or s0, s0, t6
    .globl _start
_start:
    li   sp, 0x80004000
    la   s6, buf
    li   s0, 0                  /* checksum */
    li   s1, 300                /* iterations */
    li   s2, 0x12345678         /* x */
    li   s3, 0x9e3779b9         /* y */
    li   s4, 1664525
    li   s5, 1013904223
#ifdef __riscv_mul
1:  mul  s2, s2, s4             /* two LCG streams (with M, muladd then shares the multiplier) */
    add  s2, s2, s5
    mul  s3, s3, s4
#else
1:  slli t6, s2, 13             /* without M: xorshift32 and an additive step */
    xor  s2, s2, t6
    srli t6, s2, 17
    xor  s2, s2, t6
    slli t6, s2, 5
    xor  s2, s2, t6
    add  s3, s3, s5
#endif
    xor  s3, s3, s2
    add  s3, s3, s5
    sw   s2, 0(s6)
    sw   s3, 4(s6)
    /* srliandi: no third operand; shift and mask at their extremes too */
    srliandi a0, s2, 4, 15;   MIX(a0)
    srliandi a0, s3, 31, 127; MIX(a0)
    srliandi a0, s2, 0, 1;    MIX(a0)
    /* sllior: the accumulator from MEM, from WB, through the register file */
    mv   a1, s3
    sllior a1, s2, 4;         MIX(a1)
    mv   a2, s2
    nop
    sllior a2, s3, 9;         MIX(a2)
    mv   a3, s3
    nop
    nop
    sllior a3, s2, 31;        MIX(a3)
    /* andbnexadd: accumulator from a load (interlock), then from MEM, with bit 31 of rs1
       set and clear */
    lw   a4, 4(s6)
    andbnexadd a4, s2, s3;    MIX(a4)
    not  t0, s2
    xor  a5, s3, s2
    andbnexadd a5, t0, s2;    MIX(a5)
    /* muladd: rs3 from a load (interlock), from MEM, from WB, x0 */
    lw   t1, 0(s6)
    muladd a0, s2, s3, t1;    MIX(a0)
    add  t2, s2, s3
    muladd a0, s3, s2, t2;    MIX(a0)
    sub  t3, s3, s2
    nop
    muladd a0, s2, s2, t3;    MIX(a0)
    muladd a0, s2, s3, zero;  MIX(a0)
    /* chains: each instruction's rd is the next one's third operand */
    mv   a6, s2
    sllior a6, s3, 4
    sllior a6, s2, 4
    andbnexadd a6, s3, s2
    andbnexadd a6, s2, s3;    MIX(a6)
    mv   a7, s3
    muladd a7, s2, s3, a7
    muladd a7, s3, s2, a7
    muladd a7, a7, s2, a7;    MIX(a7)
    /* rd = x0 writes nothing, though it reads x0 as its accumulator */
    sllior zero, s2, 3
    andbnexadd zero, s2, s3
    muladd zero, s2, s3, s2
    MIX(zero)
    addi s1, s1, -1
    bnez s1, 1b
    mv   s7, s0                 /* the checksum stays in s7 */
    rvlab_exit
    .data
    .balign 4
buf: .space 8
