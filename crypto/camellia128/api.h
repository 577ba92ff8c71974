/* camellia128 (Camellia, RFC 3713, 128-bit key: 18 rounds), one 16-byte block -- the API every
 * implementation in crypto/camellia128/ provides. rk is opaque to the caller; each implementation
 * chooses its layout (at most CAMELLIA128_RK_WORDS words, 4-byte aligned). key, in and out may
 * have any alignment (byte offsets 1, 2, 3 included), and out may equal in (in place).
 * Decryption uses the same round keys (there is no keyexp_dec). */
#ifndef CAMELLIA128_API_H
#define CAMELLIA128_API_H
#include <stdint.h>

#define CAMELLIA128_RK_WORDS 52
void camellia128_keyexp_enc(uint32_t rk[CAMELLIA128_RK_WORDS], const uint8_t key[16]);
void camellia128_encrypt(uint8_t out[16], const uint8_t in[16], const uint32_t rk[CAMELLIA128_RK_WORDS]);
void camellia128_decrypt(uint8_t out[16], const uint8_t in[16], const uint32_t rk[CAMELLIA128_RK_WORDS]);
/* records: operation keyexp (= keyexp_enc), encrypt, decrypt */

#endif
