/* bigint-add: multi-limb addition on little-endian arrays of 32-bit limbs.
 *
 * Full radix 2^32 (impls `full`, `carry`):
 *   uint32_t bigint_add(r, a, b, n)   r[0..n) = a + b mod 2^(32n); returns the carry out (0/1).
 *
 * Reduced radix 2^k (impl `reduced`): limbs hold k value bits, the top 32-k bits are spare
 * room for carries.  Addition never propagates carries:
 *   void bigint_add_reduced(r, a, b, n)     r[i] = a[i] + b[i] (mod 2^32) for every limb.
 * The caller keeps the limbs below 2^32 (with limbs < 2^k on input, 2^(32-k) - 1 additions
 * can be chained).  To get back to the unique representation (every limb < 2^k):
 *   uint32_t bigint_normalize(r, a, n, k)   r = a carried in radix 2^k (limbs < 2^k);
 *                                           returns the carry out of the top limb.
 * The radix is a run-time argument of bigint_normalize only (the addition does not need it);
 * 1 <= k <= 31.  The test and speed programs pass it from the test case (field "k") or use
 * BIGINT_ADD_DEFAULT_K.
 *
 * All functions: n >= 0 limbs (n = 0 is allowed and does nothing), r may be the same array
 * as a and/or b (in-place), no scratch memory and no stack use beyond the call itself.
 * Not constant time only with respect to n (public); the data flow is branch-free.
 */
#ifndef BIGINT_ADD_API_H
#define BIGINT_ADD_API_H
#include <stdint.h>
#include <stddef.h>

#define BIGINT_ADD_DEFAULT_K 28

uint32_t bigint_add(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t n);
void bigint_add_reduced(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t n);
uint32_t bigint_normalize(uint32_t *r, const uint32_t *a, size_t n, unsigned k);

#endif
