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
 *     propagate (at most about 5n/2 partial-product halves of < 2^k per limb).
 *     The carry normalisation back to limbs < 2^k is part of the call.
 *
 * Memory rules for all: r must not overlap a or b; no heap, no static scratch.  The
 * schoolbook/comba kernels use no stack; the karatsuba kernels use 8n + 32 bytes of stack
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

/* Largest radix exponent k the reduced kernels accept for n limbs: k = 29 - ceil(log2 n)
 * (n <= 1: 29), so that n * 2^(k+3) <= 2^32 bounds every un-propagated limb sum. */
static inline unsigned bigint_mul_max_k(size_t n)
{
    unsigned l = 0;
    while (((size_t)1 << l) < n) l++;
    return 29u - l;
}

#endif
