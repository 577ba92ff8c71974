/* One Karatsuba level in GF(2)[x] (shared C glue of polymul-256 and polymul-512).
 *
 * POLYMUL_KARATSUBA(storage, name, half, n) defines
 *     storage void name(uint32_t r[4n], const uint32_t a[2n], const uint32_t b[2n])
 * from half(r[2n], a[n], b[n]):
 *     a = a0 + a1 X, b = b0 + b1 X (X = x^(32n)),  lo = a0 b0, hi = a1 b1,
 *     mid = (a0 + a1)(b0 + b1) + lo + hi,  r = lo + mid X + hi X^2.
 * Only XOR, loads and stores with fixed trip counts: constant time whenever half is. */
#ifndef POLYMUL_KARATSUBA_H
#define POLYMUL_KARATSUBA_H
#include <stdint.h>

#define POLYMUL_KARATSUBA(storage, name, half, n)                              \
storage void name(uint32_t *r, const uint32_t *a, const uint32_t *b)           \
{                                                                              \
    uint32_t am[n], bm[n], m[2 * (n)];                                         \
    for (int i = 0; i < (n); i++) {                                            \
        am[i] = a[i] ^ a[i + (n)];                                             \
        bm[i] = b[i] ^ b[i + (n)];                                             \
    }                                                                          \
    half(m, am, bm);                                                           \
    half(r, a, b);                                                             \
    half(r + 2 * (n), a + (n), b + (n));                                       \
    /* with lo = r[0..2n), hi = r[2n..4n): r[n..3n) += m + lo + hi, i.e.   */  \
    /* r[n+i] ^= m[i] ^ lo[i] ^ hi[i]; lo/hi overlap r[n..3n), so read first */ \
    for (int i = 0; i < (n); i++) {                                            \
        uint32_t l0 = r[i], l1 = r[(n) + i], h0 = r[2 * (n) + i], h1 = r[3 * (n) + i]; \
        uint32_t t = l1 ^ h0;                 /* shared by both halves */       \
        r[(n) + i] = t ^ l0 ^ m[i];                                            \
        r[2 * (n) + i] = t ^ h1 ^ m[(n) + i];                                  \
    }                                                                          \
}
#endif
