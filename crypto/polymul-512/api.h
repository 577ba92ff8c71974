/* polymul-512: binary polynomial multiplication in GF(2)[x], 512 x 512 -> 1024 bits.
 * Little-endian 32-bit limbs: bit j of a[i] is the coefficient of x^(32*i + j).
 * r must not overlap a or b. Implementations: two Karatsuba levels over the 128-bit kernel. */
#ifndef POLYMUL_512_API_H
#define POLYMUL_512_API_H
#include <stdint.h>
void polymul_512(uint32_t r[32], const uint32_t a[16], const uint32_t b[16]);
#endif
