/* aes128 (FIPS 197), one block — the API every implementation in crypto/aes128/ provides.
 * rk is opaque to the caller; each implementation chooses its layout (at most
 * AES128_RK_WORDS words). key, in and out may have any alignment (the test runs every
 * byte offset 0..3); out may equal in. */
#ifndef AES128_API_H
#define AES128_API_H
#include <stdint.h>

#define AES128_RK_WORDS 128
void aes128_keyexp_enc(uint32_t rk[AES128_RK_WORDS], const uint8_t key[16]);
void aes128_keyexp_dec(uint32_t rk[AES128_RK_WORDS], const uint8_t key[16]);
void aes128_encrypt(uint8_t out[16], const uint8_t in[16], const uint32_t rk[AES128_RK_WORDS]);
void aes128_decrypt(uint8_t out[16], const uint8_t in[16], const uint32_t rk[AES128_RK_WORDS]);
/* records: operation keyexp (= keyexp_enc), keyexp_dec, encrypt, decrypt */

#endif
