/* tdea: three-key Triple DES (TDEA, EDE; NIST SP 800-67 Rev. 2), one 8-byte block — the API
 * every implementation in crypto/tdea/ provides. key = K1 || K2 || K3 (24 bytes, parity bits
 * ignored); encryption is E_K3(D_K2(E_K1(in))). rk is opaque (at most TDEA_RK_WORDS words);
 * decrypt takes the round keys of tdea_keyexp_dec. key, in and out may have any alignment,
 * and out may equal in. */
#ifndef TDEA_API_H
#define TDEA_API_H
#include <stdint.h>

#define TDEA_RK_WORDS 96
void tdea_keyexp_enc(uint32_t rk[TDEA_RK_WORDS], const uint8_t key[24]);
void tdea_keyexp_dec(uint32_t rk[TDEA_RK_WORDS], const uint8_t key[24]);
void tdea_encrypt(uint8_t out[8], const uint8_t in[8], const uint32_t rk[TDEA_RK_WORDS]);
void tdea_decrypt(uint8_t out[8], const uint8_t in[8], const uint32_t rk[TDEA_RK_WORDS]);
/* records: operation keyexp (= keyexp_enc), keyexp_dec, encrypt, decrypt */

#endif
