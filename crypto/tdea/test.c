/* tdea test program (key = K1 || K2 || K3): harness/rvlab_block.h's test of key expansion, encrypt and decrypt at every
 * byte offset 0..3 of key, input and output, and in place (guard bytes checked). */
#include "api.h"
#define RVLAB_BLOCK_RK_WORDS TDEA_RK_WORDS
#include "rvlab_block.h"

static const rvlab_block_cipher tdea = {
    .block_bytes = 8, .key_bytes = 24,
#ifdef RVLAB_HAS_TDEA_KEYEXP_ENC
    .keyexp_enc = tdea_keyexp_enc, .keyexp_enc_name = "tdea_keyexp_enc",
#endif
#ifdef RVLAB_HAS_TDEA_KEYEXP_DEC
    .keyexp_dec = tdea_keyexp_dec, .keyexp_dec_name = "tdea_keyexp_dec",
#endif
#ifdef RVLAB_HAS_TDEA_ENCRYPT
    .encrypt = tdea_encrypt, .encrypt_name = "tdea_encrypt",
#endif
#ifdef RVLAB_HAS_TDEA_DECRYPT
    .decrypt = tdea_decrypt, .decrypt_name = "tdea_decrypt",
#endif
};

void rvlab_test_case(const rvlab_case *c)
{
    rvlab_block_test(c, &tdea);
}
