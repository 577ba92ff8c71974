/* bigint-add/reduced: radix 2^k addition without carry propagation (RV32I).
 * void bigint_add_reduced(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t n)
 *   r[i] = a[i] + b[i]; the carries stay in the spare top bits of each limb.
 * uint32_t bigint_normalize(uint32_t *r, const uint32_t *a, size_t n, unsigned k)
 *   carries a back to limbs < 2^k (limbs read as unsigned); returns the carry out. */
    .text
    .globl bigint_add_reduced
    .type bigint_add_reduced, @function
    .p2align 2
bigint_add_reduced:
    andi  a5, a3, 3
    beqz  a5, 2f
1:  lw    t0, 0(a1)
    lw    t1, 0(a2)
    addi  a1, a1, 4
    addi  a2, a2, 4
    add   t0, t0, t1
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
    add   t0, t0, t1
    lw    t6, 12(a1)
    lw    a5, 12(a2)
    add   t2, t2, t3
    add   t4, t4, t5
    add   t6, t6, a5
    sw    t0, 0(a0)
    sw    t2, 4(a0)
    sw    t4, 8(a0)
    sw    t6, 12(a0)
    addi  a1, a1, 16
    addi  a2, a2, 16
    addi  a0, a0, 16
    bne   a1, a3, 3b
4:  ret
    .size bigint_add_reduced, .-bigint_add_reduced

/* a0 = r, a1 = a, a2 = n, a3 = k.  c = 0; for each limb: v = a[i] + c (no overflow as
 * long as a[i] + c < 2^32: c < 2^(32-k+1)), r[i] = v & (2^k - 1), c = v >> k. */
    .globl bigint_normalize
    .type bigint_normalize, @function
    .p2align 2
bigint_normalize:
    li    t2, -1
    sll   t2, t2, a3
    not   t2, t2                /* mask 2^k - 1 */
    li    a4, 0
    beqz  a2, 2f
    slli  a2, a2, 2
    add   a2, a2, a1
1:  lw    t0, 0(a1)
    addi  a1, a1, 4
    addi  a0, a0, 4
    add   t0, t0, a4
    srl   a4, t0, a3
    and   t0, t0, t2
    sw    t0, -4(a0)
    bne   a1, a2, 1b
2:  mv    a0, a4
    ret
    .size bigint_normalize, .-bigint_normalize
