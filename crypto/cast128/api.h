/* cast128 (CAST-128, RFC 2144; 128-bit key, 16 rounds), one 8-byte block -- the API every
 * implementation in crypto/cast128/ provides. rk is opaque to the caller; each
 * implementation chooses its layout (at most CAST128_RK_WORDS words). key, in and out may
 * have any alignment, and out may equal in (encryption in place). Decryption uses the
 * encryption round keys (there is no cast128_keyexp_dec). */
#ifndef CAST128_API_H
#define CAST128_API_H
#include <stdint.h>

#define CAST128_RK_WORDS 48
void cast128_keyexp_enc(uint32_t rk[CAST128_RK_WORDS], const uint8_t key[16]);
void cast128_encrypt(uint8_t out[8], const uint8_t in[8], const uint32_t rk[CAST128_RK_WORDS]);
void cast128_decrypt(uint8_t out[8], const uint8_t in[8], const uint32_t rk[CAST128_RK_WORDS]);
/* records: operation keyexp (= keyexp_enc), encrypt, decrypt */

#endif
