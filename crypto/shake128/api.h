/* SHAKE128 (FIPS 202) — the API every implementation in crypto/shake128/ provides. */
#ifndef SHAKE128_API_H
#define SHAKE128_API_H
#include <stddef.h>
#include <stdint.h>

/* out[0..outlen) = SHAKE128(in[0..len), 8*outlen); any lengths, any alignment. */
void shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t len);

#endif
