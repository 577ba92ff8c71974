/* misty1 (MISTY1, RFC 2994; 128-bit key, 8 rounds), one 8-byte block -- the API every
 * implementation in crypto/misty1/ provides. rk is opaque to the caller; each
 * implementation chooses its layout (at most MISTY1_RK_WORDS words). key, in and out may
 * have any alignment, and out may equal in (encryption in place). Decryption uses the
 * encryption round keys (there is no misty1_keyexp_dec). */
#ifndef MISTY1_API_H
#define MISTY1_API_H
#include <stdint.h>

#define MISTY1_RK_WORDS 16
void misty1_keyexp_enc(uint32_t rk[MISTY1_RK_WORDS], const uint8_t key[16]);
void misty1_encrypt(uint8_t out[8], const uint8_t in[8], const uint32_t rk[MISTY1_RK_WORDS]);
void misty1_decrypt(uint8_t out[8], const uint8_t in[8], const uint32_t rk[MISTY1_RK_WORDS]);
/* records: operation keyexp (= keyexp_enc), encrypt, decrypt */

#endif
