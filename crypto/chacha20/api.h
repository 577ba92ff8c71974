/* chacha20 (RFC 8439) — the API every implementation in crypto/chacha20/ provides. */
#ifndef CHACHA20_API_H
#define CHACHA20_API_H
#include <stddef.h>
#include <stdint.h>

/* out[i] = in[i] ^ keystream[i] for i < len; any len (0 allowed).
 * counter is the initial 32-bit block counter (RFC 8439 §2.4); the test and
 * speed programs never let it wrap. out, in, key and nonce may have any alignment (the test
 * runs every byte offset 0..3); out and in do not overlap. */
void chacha20_xor(uint8_t *out, const uint8_t *in, size_t len, const uint8_t key[32],
                  const uint8_t nonce[12], uint32_t counter);

#endif
