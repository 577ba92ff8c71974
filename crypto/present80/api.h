/* present80: PRESENT (Bogdanov et al., CHES 2007; ISO/IEC 29192-2), 64-bit block, 31 rounds —
 * the API every implementation in crypto/present80/ provides.
 *
 * Keys: PRESENT-80 (10-byte key) through present80_keyexp_enc, PRESENT-128 (16-byte key)
 * through present128_keyexp_enc.  Both fill the same opaque round-key array (32 round keys in
 * the implementation's own layout, at most PRESENT80_RK_WORDS words): the data path of PRESENT
 * does not depend on the key length, so present80_encrypt/present80_decrypt serve both.
 * Decryption uses the encryption round keys (no keyexp_dec).
 *
 * Bytes: a block is read big-endian (byte 0 holds state bits 63..56), a key likewise
 * (key byte 0 holds k79..k72, resp. k127..k120), as in the paper's test vectors.
 * Buffers: in, out and key may have any alignment; out may equal in (in-place); rk must be
 * 4-byte aligned (it is a uint32_t array).
 * Records: keyexp (PRESENT-80 key schedule), keyexp128 (PRESENT-128), encrypt, decrypt. */
#ifndef PRESENT80_API_H
#define PRESENT80_API_H
#include <stdint.h>

#define PRESENT80_RK_WORDS 64
void present80_keyexp_enc(uint32_t rk[PRESENT80_RK_WORDS], const uint8_t key[10]);
void present128_keyexp_enc(uint32_t rk[PRESENT80_RK_WORDS], const uint8_t key[16]);
void present80_encrypt(uint8_t out[8], const uint8_t in[8], const uint32_t rk[PRESENT80_RK_WORDS]);
void present80_decrypt(uint8_t out[8], const uint8_t in[8], const uint32_t rk[PRESENT80_RK_WORDS]);

#endif
