/* hight (ISO/IEC 18033-3, TTAK.KO-12.0040/R1): 64-bit block, 128-bit key, 32 rounds — the API
 * every implementation in crypto/hight/ provides. Byte i of key/in/out is MK_i / P_i / C_i of
 * the specification (KISA reference code order; the standard prints MK15..MK0).
 * rk is opaque: each implementation chooses its layout (at most HIGHT_RK_WORDS words);
 * decrypt takes the round keys of hight_keyexp_dec where the implementation has it, else those
 * of hight_keyexp_enc. key, in and out may have any alignment, and out may equal in. */
#ifndef HIGHT_API_H
#define HIGHT_API_H
#include <stdint.h>

#define HIGHT_RK_WORDS 136
void hight_keyexp_enc(uint32_t rk[HIGHT_RK_WORDS], const uint8_t key[16]);
void hight_keyexp_dec(uint32_t rk[HIGHT_RK_WORDS], const uint8_t key[16]);
void hight_encrypt(uint8_t out[8], const uint8_t in[8], const uint32_t rk[HIGHT_RK_WORDS]);
void hight_decrypt(uint8_t out[8], const uint8_t in[8], const uint32_t rk[HIGHT_RK_WORDS]);
/* records: operation keyexp (= keyexp_enc), keyexp_dec, encrypt, decrypt */

#endif
