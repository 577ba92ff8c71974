/* Constant-time checker test: propagation rules, byte by byte. Run with only byte 1 of
   `word` secret (--secret ADDR+1:1). Every branch labelled hit_* must be reported as a
   branch violation, every branch labelled miss_* must not (tests/ct_checker.rs reads the
   labels from the symbol table). */
#include "../asm/rt.h"
#define HIT(n)  .globl hit_##n;  hit_##n:  beqz t1, 9f; 9:
#define MISS(n) .globl miss_##n; miss_##n: beqz t1, 9f; 9:
    .section .text.start
    .globl _start
_start:
    li sp, 0x80004000
    la s0, word
    lw s1, 0(s0)            /* s1: byte 1 secret, bytes 0,2,3 public */
    andi t1, s1, 0xff;      MISS(lw_byte0)
    srli t1, s1, 8;  andi t1, t1, 0xff; HIT(srli8)
    srli t1, s1, 16;        MISS(srli16)
    srli t1, s1, 4;  andi t1, t1, 0xf;  HIT(srli4_straddle)
    slli t1, s1, 8;  andi t1, t1, 0xff; MISS(slli8_low)
    slli t1, s1, 8;  srli t1, t1, 16;   HIT(slli8_high)
    srai t1, s1, 16;        MISS(srai16)
    addi t1, s1, 1;  andi t1, t1, 0xff; MISS(addi_low)
    addi t1, s1, 1;  srli t1, t1, 24;   HIT(addi_carry_up)
    li t2, 3; mul t1, s1, t2; andi t1, t1, 0xff; MISS(mul_low)
    li t2, 3; mulhu t1, s1, t2;         HIT(mulhu)
    sltu t1, s1, t2;        HIT(sltu)
    xori t1, s1, 1;  andi t1, t1, 0xff; MISS(xori_byte0)
    lbu t1, 0(s0);          MISS(lbu0)
    lbu t1, 1(s0);          HIT(lbu1)
    lb t1, 1(s0); srli t1, t1, 24;      HIT(lb_signext)
    lhu t1, 2(s0);          MISS(lhu2)
    lh t1, 0(s0);  srli t1, t1, 24;     HIT(lh_signext)
    li t2, 8; srl t1, s1, t2; srli t1, t1, 24; HIT(srl_reg_mixes)
    /* spill to the stack, reload */
    addi sp, sp, -8
    sw s1, 0(sp)
    lbu t1, 0(sp);          MISS(stack_byte0)
    lbu t1, 1(sp);          HIT(stack_byte1)
    sw zero, 0(sp)
    lw t1, 0(sp);           MISS(stack_overwritten)
    addi sp, sp, 8
    /* CSR keeps taint */
    csrw mscratch, s1
    csrr t1, mscratch;      HIT(csr_roundtrip)
    csrw mscratch, zero
    csrr t1, mscratch;      MISS(csr_cleared)
    /* AMO: the old value comes back with its taint, the new value goes to memory */
    la s2, cell
    amoswap.w t1, s1, (s2); MISS(amo_old_public)
    lw t1, 0(s2); srli t1, t1, 8; HIT(amo_new_secret)
    amoswap.w t1, zero, (s2); HIT(amo_old_secret)
    /* overwriting a register clears it */
    mv t1, s1
    li t1, 5;               MISS(overwritten)
    EXIT_OK

    .data
    .globl word
word: .word 0x44332211
cell: .word 0
