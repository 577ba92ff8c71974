/* Constant-time checker test: one leak of each kind, at global labels (the test reads
   their addresses from the symbol table). Run with --secret key. */
#include "../asm/rt.h"
    .section .text.start
    .globl _start
_start:
    li sp, 0x80004000
    la s0, key
    la s1, table
    lw t0, 0(s0)            /* t0: secret word */
    li s2, 3                /* public loop counter */
loop:
    .globl leak_branch
leak_branch:
    beqz t0, skip           /* secret condition, executed 3 times */
skip:
    addi s2, s2, -1
    bnez s2, loop           /* public: no violation */
    lbu t1, 1(s0)           /* secret byte */
    add t2, s1, t1
    .globl leak_load
leak_load:
    lbu t3, 0(t2)           /* table[secret] */
    .globl leak_store
leak_store:
    sb zero, 0(t2)          /* store to table + secret */
    and t4, t0, zero        /* value 0, but secret-derived */
    la t5, target
    add t5, t5, t4
    .globl leak_jump
leak_jump:
    jalr zero, 0(t5)        /* secret-derived target */
target:
    li t6, 7
    .globl leak_div
leak_div:
    divu a2, t6, t0         /* E31 divider latency depends on the operands */
    EXIT_OK

    .data
    .globl key
    .type key, @object
key: .word 0x00001100, 0x55667788
    .size key, 8
table: .fill 256, 1, 0
