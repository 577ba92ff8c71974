/* polymul-128: binary polynomial multiplication in GF(2)[x], 128 x 128 -> 256 bits.
 * Little-endian 32-bit limbs: bit j of a[i] is the coefficient of x^(32*i + j).
 * r must not overlap a or b. All implementations (lut, lut-x, ct, ct-x, zbkc) share this API. */
#ifndef POLYMUL_128_API_H
#define POLYMUL_128_API_H
#include <stdint.h>
void polymul_128(uint32_t r[8], const uint32_t a[4], const uint32_t b[4]);
#endif
