/* SHA3-256 (FIPS 202) — the API every implementation in crypto/sha3-256/ provides. */
#ifndef SHA3_256_API_H
#define SHA3_256_API_H
#include <stddef.h>
#include <stdint.h>

/* out = SHA3-256(in[0..len)); any len, any alignment of in and out. */
void sha3_256(uint8_t out[32], const uint8_t *in, size_t len);

#endif
