/* bigint-mul: n x n -> 2n limb multiplication, little-endian arrays of 32-bit limbs.
 *
 * Full radix 2^32 (impls schoolbook, schoolbook-carry, karatsuba, karatsuba-carry,
 * karatsuba-rec, comba):
 *   void bigint_mul(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t n);
 *     r[0..2n) = a[0..n) * b[0..n).  Any n >= 0 (the one-level karatsuba* impls use
 *     Karatsuba for even n and their base schoolbook for odd n).
 *
 * Reduced radix 2^k (impls schoolbook-reduced, karatsuba-reduced):
 *   void bigint_mul_reduced(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t n,
 *                           unsigned k);
 *     a, b: n limbs, each < 2^k (normalised); r: 2n limbs, normalised (each < 2^k).
 *     The radix is a run-time argument; it must satisfy 1 <= k <= bigint_mul_max_k(n),
 *     which leaves room in the top bits of a limb for the carries the kernels do not
 *     propagate (at most 5n/2 partial-product halves of < 2^k per limb, see below).
 *     The kernels do not check k or the input limbs.
 *     The carry normalisation back to limbs < 2^k is part of the call.
 *
 * Memory rules for all: r must not overlap a or b; no heap, no static scratch.  The
 * schoolbook kernels use no stack, the comba ones a 16-byte frame; the karatsuba kernels use 8n + 32 bytes of stack
 * per Karatsuba level (karatsuba-rec: at most 16n + 32 * levels bytes in all) for
 * |a0 - a1|, |b1 - b0| (or the sums) and their product.
 * The data flow is branch-free (the Karatsuba sign is applied with a mask); the loop
 * structure depends only on n (and k), which are public.
 */
#ifndef BIGINT_MUL_API_H
#define BIGINT_MUL_API_H
#include <stdint.h>
#include <stddef.h>

void bigint_mul(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t n);
void bigint_mul_reduced(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t n,
                        unsigned k);

/* Largest radix exponent k the reduced kernels accept for n limbs: the largest k <= 30 with
 * 3n * 2^k <= 2^32.  Bounds (normalised inputs < 2^k): a schoolbook row sum stays below
 * 2n * 2^k; the Karatsuba middle product, whose inputs are limb-wise sums < 2^(k+1), below
 * (n/2) * (2^k + 2^(k+2)) = 2.5n * 2^k; the remaining 0.5n * 2^k covers the carries of the
 * final pass.  k <= 30 because the high half is taken as MULHU(2a, b << (31-k)). */
static inline unsigned bigint_mul_max_k(size_t n)
{
    unsigned k = 30;
    while (k > 1 && ((uint64_t)3 * n << k) > ((uint64_t)1 << 32)) k--;
    return k;
}

#endif
