/* Constant-time checker test: taint through extension instructions.
   aes32esi (zkne), the hidden carry of addc/subc (xcarry) and sboxaddr (xsbox) carry secrets;
   addc's declared byte flow (taint = "carry") keeps lower bytes public. */
#include "../asm/rt.h"
#include "ise.inc"
    .section .text.start
    .globl _start
_start:
    li sp, 0x80004000
    la s0, key
    lw t0, 0(s0)            /* secret */
    /* declared flow: addc is taint = "carry", so with only byte 3 secret the low byte of
       the sum stays public (the default "mix" flow would make it secret) */
    srli t5, t0, 24
    slli t5, t5, 24         /* only byte 3 secret */
    addc a1, t5, zero
    andi a2, a1, 0xff
    beqz a2, 0f             /* public: no violation */
0:  srli a3, a1, 24
    .globl ext_carry_flow_branch
ext_carry_flow_branch:
    beqz a3, 0f             /* byte 3 of the sum: secret */
0:  addc a1, zero, zero     /* clear the carry (its taint stays: over-approximation) */
    li t1, 0
    aes32esi t1, t1, t0, 1  /* rd depends on byte 1 of t0 */
    .globl ext_aes_branch
ext_aes_branch:
    beqz t1, 1f
1:  li t2, -1
    addc t3, t0, t2         /* carry out depends on the secret */
    li t3, 0                /* t3 overwritten: only the carry is secret now */
    beqz t3, 2f             /* public: no violation */
2:  addc t4, zero, zero     /* read the carry (and clear it) */
    .globl ext_carry_branch
ext_carry_branch:
    bnez t4, 3f
3:  la s1, sbox
    sboxaddr t6, t0, s1, 2  /* address = sbox + byte 2 of the secret (xsbox, default flow) */
    .globl ext_sbox_load
ext_sbox_load:
    lbu a0, 0(t6)
    sboxaddr t6, zero, s1, 2 /* public operands: no violation */
    lbu a0, 0(t6)
    EXIT_OK

    .data
    .globl key
    .type key, @object
key: .word 0x01020304
    .size key, 4
sbox: .fill 256, 1, 0
