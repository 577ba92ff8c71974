/* bigint-add/full: r = a + b in radix 2^32, carry chain with ADD+SLTU (RV32I).
 * uint32_t bigint_add(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t n)
 * a0 = r, a1 = a, a2 = b, a3 = n; returns the carry out in a0.
 * n mod 4 single limbs first, then 4 limbs per iteration (loads of the block first,
 * so r may alias a or b). Per limb: 2 LW, 5 ALU (add, sltu, add, sltu, or), 1 SW. */
    .text
    .globl bigint_add
    .type bigint_add, @function
    .p2align 2
bigint_add:
    li    a4, 0                 /* carry */
    andi  a5, a3, 3
    beqz  a5, 2f
1:  lw    t0, 0(a1)
    lw    t1, 0(a2)
    addi  a1, a1, 4
    addi  a2, a2, 4
    add   t0, t0, t1
    sltu  t1, t0, t1
    add   t0, t0, a4
    sltu  a4, t0, a4
    or    a4, a4, t1
    sw    t0, 0(a0)
    addi  a5, a5, -1
    addi  a0, a0, 4
    bnez  a5, 1b
2:  srli  a3, a3, 2
    beqz  a3, 4f
    slli  a3, a3, 4
    add   a3, a3, a1            /* end of a */
3:  lw    t0, 0(a1)
    lw    t1, 0(a2)
    lw    t2, 4(a1)
    lw    t3, 4(a2)
    lw    t4, 8(a1)
    lw    t5, 8(a2)
    add   t0, t0, t1
    sltu  t1, t0, t1
    lw    t6, 12(a1)
    lw    a5, 12(a2)
    add   t0, t0, a4
    sltu  a4, t0, a4
    or    a4, a4, t1
    add   t2, t2, t3
    sltu  t3, t2, t3
    add   t2, t2, a4
    sltu  a4, t2, a4
    or    a4, a4, t3
    add   t4, t4, t5
    sltu  t5, t4, t5
    add   t4, t4, a4
    sltu  a4, t4, a4
    or    a4, a4, t5
    add   t6, t6, a5
    sltu  a5, t6, a5
    add   t6, t6, a4
    sltu  a4, t6, a4
    or    a4, a4, a5
    sw    t0, 0(a0)
    sw    t2, 4(a0)
    sw    t4, 8(a0)
    sw    t6, 12(a0)
    addi  a1, a1, 16
    addi  a2, a2, 16
    addi  a0, a0, 16
    bne   a1, a3, 3b
4:  mv    a0, a4
    ret
    .size bigint_add, .-bigint_add
