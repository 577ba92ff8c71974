/* bigint-add/carry: r = a + b in radix 2^32 with the xcarry custom instruction
 * (addc rd, rs1, rs2: {C, rd} = rs1 + rs2 + C; `addc rd, x0, x0` reads C and clears it).
 * uint32_t bigint_add(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t n)
 * Same structure as bigint-add/full; per limb 2 LW, 1 ADDC, 1 SW. */
#include "ise.inc"
    .text
    .globl bigint_add
    .type bigint_add, @function
    .p2align 2
bigint_add:
    addc  a4, zero, zero        /* C = 0 (whatever a previous caller left) */
    andi  a5, a3, 3
    beqz  a5, 2f
1:  lw    t0, 0(a1)
    lw    t1, 0(a2)
    addi  a1, a1, 4
    addi  a2, a2, 4
    addc  t0, t0, t1
    sw    t0, 0(a0)
    addi  a5, a5, -1
    addi  a0, a0, 4
    bnez  a5, 1b
2:  srli  a3, a3, 2
    beqz  a3, 4f
    slli  a3, a3, 4
    add   a3, a3, a1
3:  lw    t0, 0(a1)
    lw    t1, 0(a2)
    lw    t2, 4(a1)
    lw    t3, 4(a2)
    lw    t4, 8(a1)
    lw    t5, 8(a2)
    addc  t0, t0, t1
    lw    t6, 12(a1)
    lw    a5, 12(a2)
    addc  t2, t2, t3
    addc  t4, t4, t5
    addc  t6, t6, a5
    sw    t0, 0(a0)
    sw    t2, 4(a0)
    sw    t4, 8(a0)
    sw    t6, 12(a0)
    addi  a1, a1, 16
    addi  a2, a2, 16
    addi  a0, a0, 16
    bne   a1, a3, 3b
4:  addc  a0, zero, zero        /* return C, leave C = 0 */
    ret
    .size bigint_add, .-bigint_add
