/* polymul-256: binary polynomial multiplication in GF(2)[x], 256 x 256 -> 512 bits.
 * Little-endian 32-bit limbs: bit j of a[i] is the coefficient of x^(32*i + j).
 * r must not overlap a or b. Implementations: one Karatsuba level over the 128-bit kernel. */
#ifndef POLYMUL_256_API_H
#define POLYMUL_256_API_H
#include <stdint.h>
void polymul_256(uint32_t r[16], const uint32_t a[8], const uint32_t b[8]);
#endif
