/* aes256-ctr: AES-256 in counter mode (NIST SP 800-38A) — the API every implementation in
 * crypto/aes256-ctr/ provides (the same shape as aes128-ctr's, with a 32-byte key).  rk is
 * opaque to the caller (each implementation chooses its layout, at most AES256CTR_RK_WORDS
 * words; the bitsliced kernels use 452: round keys 0..13 bitsliced, 14 in byte form).  out,
 * in, iv and key may have any alignment (the test runs every byte offset 0..3); out and in do
 * not overlap. */
#ifndef AES256CTR_API_H
#define AES256CTR_API_H
#include <stddef.h>
#include <stdint.h>

#define AES256CTR_RK_WORDS 512
void aes256ctr_keyexp(uint32_t rk[AES256CTR_RK_WORDS], const uint8_t key[32]);
/* out[i] = in[i] ^ keystream[i] for i < len (any len, 0 allowed).  Counter block = iv; its
 * last 32 bits are a big-endian counter, +1 per block, mod 2^32 (bytes 0..11 never change). */
void aes256ctr_xor(uint8_t *out, const uint8_t *in, size_t len, const uint8_t iv[16],
                   const uint32_t rk[AES256CTR_RK_WORDS]);
/* records: operation keyexp (incl. conversion to the implementation's form), encrypt */

#endif
