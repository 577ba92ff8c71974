/* seed128 (SEED, RFC 4269: 128-bit key, 16 rounds), one 16-byte block -- the API every
 * implementation in crypto/seed128/ provides. rk is opaque to the caller; each implementation
 * chooses its layout (at most SEED128_RK_WORDS words, 4-byte aligned). key, in and out may
 * have any alignment (byte offsets 1, 2, 3 included), and out may equal in (in place).
 * Decryption uses the same round keys (there is no keyexp_dec). */
#ifndef SEED128_API_H
#define SEED128_API_H
#include <stdint.h>

#define SEED128_RK_WORDS 32
void seed128_keyexp_enc(uint32_t rk[SEED128_RK_WORDS], const uint8_t key[16]);
void seed128_encrypt(uint8_t out[16], const uint8_t in[16], const uint32_t rk[SEED128_RK_WORDS]);
void seed128_decrypt(uint8_t out[16], const uint8_t in[16], const uint32_t rk[SEED128_RK_WORDS]);
/* records: operation keyexp (= keyexp_enc), encrypt, decrypt */

#endif
