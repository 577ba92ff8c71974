/* sm4 (SM4, GB/T 32907-2016; 128-bit key, 32 rounds), one 16-byte block -- the API every
 * implementation in crypto/sm4/ provides. rk is opaque to the caller; each implementation
 * chooses its layout (at most SM4_RK_WORDS words). key, in and out may have any alignment,
 * and out may equal in (encryption in place). Decryption uses the encryption round keys,
 * read in reverse (there is no sm4_keyexp_dec). */
#ifndef SM4_API_H
#define SM4_API_H
#include <stdint.h>

#define SM4_RK_WORDS 32
void sm4_keyexp_enc(uint32_t rk[SM4_RK_WORDS], const uint8_t key[16]);
void sm4_encrypt(uint8_t out[16], const uint8_t in[16], const uint32_t rk[SM4_RK_WORDS]);
void sm4_decrypt(uint8_t out[16], const uint8_t in[16], const uint32_t rk[SM4_RK_WORDS]);
/* records: operation keyexp (= keyexp_enc), encrypt, decrypt */

#endif
